#pragma once
// Reading light entities' keys the way the light compilers do (atof, C's float-to-int, their key matching):
// shared by the Quake 2 readers and ericw-tools' reader for every game it lights.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "luxel/bsp/entities.hpp"
#include "luxel/util/math.hpp"

namespace luxel::entity_values {

using Problems = std::vector<std::string>*;

inline void note(Problems p, const std::string& what) {
    if (p) p->push_back(what);
}

inline std::string num(float f) {
    std::string s = std::to_string(f);
    while (s.size() > 1 && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
}

// atof: the leading number of the text, 0 when there is none (or it is not finite).
inline float number(const std::string* v) {
    if (!v) return 0;
    const float f = std::strtof(v->c_str(), nullptr);
    return std::isfinite(f) ? f : 0.0f;
}

// The number as an int the way C's float-to-int assignment keeps it, held inside int's range (a cast of a
// larger float is undefined).
inline int integer(const std::string* v) { return int(std::clamp(number(v), -1.0e9f, 1.0e9f)); }

inline float maxComponent(Vec3 c) { return std::max({c.x, c.y, c.z}); }

// qrad3's ValueForKey: its entity parser prepends each pair, so the last one in the file wins.
inline const std::string* qrad3Value(const Entity& e, std::string_view key) {
    const std::string* found = nullptr;
    for (const auto& [k, v] : e.keys)
        if (k == key) found = &v;
    return found;
}

inline bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
    return true;
}

// ericw-tools' settings: a key names a setting with or without one leading underscore, in any case, and
// each pair in the entity sets it again, so the last one wins. `names` are a setting's spellings.
inline const std::string* ericwValue(const Entity& e, std::initializer_list<std::string_view> names) {
    const std::string* found = nullptr;
    for (const auto& [k, v] : e.keys) {
        const std::string_view key = !k.empty() && k[0] == '_' ? std::string_view(k).substr(1) : std::string_view(k);
        for (std::string_view n : names)
            if (iequals(key, n)) found = &v;
    }
    return found;
}

// ericw-tools' colours: 0..255, or 0..1 when every component is within 0..1 (normalize_color_format).
inline Vec3 ericwColor(const std::string* v) {
    Vec3 c{255, 255, 255};
    if (!v || !parseVec3(*v, c) || !isFinite(c)) return {255, 255, 255};
    if (c.x >= 0 && c.x <= 1 && c.y >= 0 && c.y <= 1 && c.z >= 0 && c.z <= 1) c = c * 255.0f;
    return c;
}

// qv::vec_from_mangle: yaw and pitch in degrees to a direction.
inline Vec3 fromMangle(Vec3 m) {
    const float yaw = degToRad(m.x), pitch = degToRad(m.y);
    return {std::cos(yaw) * std::cos(pitch), std::sin(yaw) * std::cos(pitch), std::sin(pitch)};
}

inline Vec3 originOf(const std::string* v) {
    Vec3 o;
    if (v && parseVec3(*v, o) && isFinite(o)) return o;
    return {};
}

inline std::string describe(size_t index, const std::string& cls, Vec3 o) {
    return "light entity " + std::to_string(index) + " (" + cls + ") at " + num(o.x) + " " + num(o.y) + " " + num(o.z);
}
}  // namespace luxel::entity_values
