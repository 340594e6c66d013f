#include "luxel/light/texinfo_json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "luxel/util/error.hpp"

namespace luxel {

namespace {

std::optional<float> finiteNumber(const nlohmann::json& v) {
    if (!v.is_number() || !std::isfinite(v.get<double>())) return std::nullopt;
    return v.get<float>();
}

}  // namespace

TexinfoJson readTexinfoJson(const MapSource& source, size_t numTexinfo) {
    TexinfoJson out;
    if (!source.openRelated) return out;
    const std::string name = source.mapName + ".texinfo.json";
    const std::optional<Bytes> text = source.openRelated(name);
    if (!text) return out;
    const nlohmann::json j = nlohmann::json::parse(text->begin(), text->end(), nullptr, false);
    if (j.is_discarded() || !j.is_object())
        throw UsageError(name + ": not a JSON object (qbsp's extended texinfo flags); light reads it from beside the map");
    out.name = name;
    auto angle = [](const nlohmann::json& v) { return std::clamp(finiteNumber(v).value_or(0.0f), 0.0f, 180.0f); };
    for (const auto& [key, f] : j.items()) {
        char* end = nullptr;
        const unsigned long t = std::strtoul(key.c_str(), &end, 10);
        if (!end || *end || key.empty() || t >= numTexinfo || !f.is_object()) continue;
        ExtendedTexinfo e;
        if (f.contains("no_shadow") && f["no_shadow"].is_boolean()) e.noShadow = f["no_shadow"].get<bool>();
        if (f.contains("phong_angle")) e.phongAngle = angle(f["phong_angle"]);
        if (f.contains("phong_angle_concave")) e.phongAngleConcave = angle(f["phong_angle_concave"]);
        if (f.contains("minlight"))
            if (const std::optional<float> v = finiteNumber(f["minlight"])) e.minlight = std::clamp(*v, 0.0f, 1e6f);
        if (f.contains("minlight_color") && f["minlight_color"].is_array() && f["minlight_color"].size() == 3) {
            float c[3];
            bool ok = true;
            for (size_t k = 0; k < 3; ++k) {
                const std::optional<float> v = finiteNumber(f["minlight_color"][k]);
                ok = ok && v;
                if (v) c[k] = std::clamp(*v, 0.0f, 255.0f);
            }
            if (ok) e.minlightColor = Vec3{c[0], c[1], c[2]};
        }
        // light's own range for -world_units_per_luxel: (0, 1024].
        if (f.contains("world_units_per_luxel"))
            if (const std::optional<float> v = finiteNumber(f["world_units_per_luxel"]); v && *v > 0 && *v <= 1024)
                e.worldUnitsPerLuxel = *v;
        out.texinfos[uint32_t(t)] = e;
    }
    return out;
}

}  // namespace luxel
