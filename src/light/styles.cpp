#include "luxel/light/styles.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <set>

#include "luxel/util/error.hpp"

namespace luxel {
namespace {

// The standard patterns (Quake 2 g_spawn.c SP_worldspawn; Quake 1 and Source use the same table).
constexpr const char* kPatterns[12] = {
    "m",                                                    // 0 normal
    "mmnmmommommnonmmonqnmmo",                              // 1 flicker (first variety)
    "abcdefghijklmnopqrstuvwxyzyxwvutsrqponmlkjihgfedcba",  // 2 slow strong pulse
    "mmmmmaaaaammmmmaaaaaabcdefgabcdefg",                   // 3 candle (first variety)
    "mamamamamama",                                         // 4 fast strobe
    "jklmnopqrstuvwxyzyxwvutsrqponmlkj",                    // 5 gentle pulse
    "nmonqnmomnmomomno",                                    // 6 flicker (second variety)
    "mmmaaaabcdefgmmmmaaaammmaamm",                         // 7 candle (second variety)
    "mmmaaammmaaammmabcdefaaaammmmabcdefmmmaaaa",           // 8 candle (third variety)
    "aaaaaaaazzzzzzzz",                                     // 9 slow strobe
    "mmamammmmammamamaaamammma",                            // 10 fluorescent flicker
    "abcdefghijklmnopqrrqponmlkjihgfedcba",                 // 11 slow pulse, not fading to black
};

float patternValue(char c) { return float(c - 'a') / float('m' - 'a'); }

StyleWeights restWeights(const World& world, double seconds) {
    StyleWeights w;
    for (int s = 0; s < 256; ++s) w[size_t(s)] = styleValueAt(s, seconds);
    // Switchable styles (32..62) whose light starts off (spawnflags bit 1 on a light entity) are dark.
    for (const Entity& e : world.entities) {
        const std::string* cls = e.get("classname");
        const std::string* style = e.get("style");
        const std::string* flags = e.get("spawnflags");
        if (!cls || !style || !flags || cls->rfind("light", 0) != 0) continue;
        int s = std::atoi(style->c_str()), f = std::atoi(flags->c_str());
        if (s >= 32 && s < 255 && (f & 1)) w[size_t(s)] = 0;
    }
    return w;
}

}  // namespace

float styleValueAt(int style, double seconds) {
    if (style < 0 || style >= 12) return 1.0f;
    const char* p = kPatterns[style];
    size_t len = std::char_traits<char>::length(p);
    double step = std::floor(std::max(0.0, seconds) * 10.0);
    return patternValue(p[size_t(std::fmod(step, double(len)))]);
}

StyleWeights parseStyleSpec(const std::string& spec, const World& world) {
    if (spec.empty() || spec == "rest") return restWeights(world, 0.0);
    if (spec.rfind("time=", 0) == 0) {
        const char* b = spec.c_str() + 5;
        char* end = nullptr;
        double t = std::strtod(b, &end);
        if (end == b || *end != '\0' || !std::isfinite(t) || t < 0)
            throw UsageError("--styles time=T wants a time in seconds >= 0, got '" + spec + "'");
        return restWeights(world, t);
    }
    StyleWeights w{};
    size_t pos = 0;
    while (pos <= spec.size()) {
        size_t comma = spec.find(',', pos);
        std::string item = spec.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        size_t eq = item.find('=');
        int style = -1;
        char* end = nullptr;
        float weight = 0;
        bool ok = eq != std::string::npos && eq > 0;
        if (ok) {
            auto [p, ec] = std::from_chars(item.data(), item.data() + eq, style);
            ok = ec == std::errc() && p == item.data() + eq && style >= 0 && style < 255;
        }
        if (ok) {
            weight = std::strtof(item.c_str() + eq + 1, &end);
            ok = end != item.c_str() + eq + 1 && *end == '\0' && std::isfinite(weight);
        }
        if (!ok)
            throw UsageError("--styles wants rest, time=SECONDS or STYLE=WEIGHT[,STYLE=WEIGHT...] (styles 0-254), got '" +
                             spec + "'");
        w[size_t(style)] = weight;
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
    return w;
}

std::vector<int> stylesInUse(const World& world) {
    std::set<int> used;
    for (const Surface& s : world.surfaces) {
        if (s.lightmapPage < 0) continue;
        for (uint8_t st : s.styles)
            if (st != 255) used.insert(st);
    }
    return {used.begin(), used.end()};
}

}  // namespace luxel
