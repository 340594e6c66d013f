// Quake 1 and Half-Life lights for the baker, as ericw-tools' light reads them: the light entities and
// worldspawn suns (ericw_lights.cpp), its rules (ericw_rules.cpp), and which faces cast shadows: the world's,
// a brush entity's only with "_shadow" "1" (light.cc FindModelInfo), none whose texinfo qbsp marked
// "no_shadow" in NAME.texinfo.json beside the map.
#include "../format_lights.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "luxel/light/ericw_lights.hpp"
#include "luxel/light/q2_lights.hpp"
#include "luxel/util/error.hpp"

namespace luxel {

namespace {

// Per surface: true where ericw-tools traces no shadow.
std::vector<bool> shadowlessSurfaces(const World& world, const MapSource& source, std::vector<std::string>& notes) {
    std::vector<bool> none(world.surfaces.size(), false);
    for (const Entity& e : world.entities) {
        const std::string* model = e.get("model");
        if (!model || model->size() < 2 || (*model)[0] != '*') continue;
        const std::string* shadow = e.get("_shadow");
        if (shadow && std::atoi(shadow->c_str()) == 1) continue;
        const long index = std::strtol(model->c_str() + 1, nullptr, 10);
        if (index <= 0 || size_t(index) >= world.models.size()) continue;
        const Model& m = world.models[size_t(index)];
        for (uint32_t s = m.firstSurface; s < m.firstSurface + m.numSurfaces && s < none.size(); ++s) none[s] = true;
    }
    if (!source.openRelated) return none;
    const std::string name = source.mapName + ".texinfo.json";
    const std::optional<Bytes> text = source.openRelated(name);
    if (!text) return none;
    const nlohmann::json j = nlohmann::json::parse(text->begin(), text->end(), nullptr, false);
    if (j.is_discarded() || !j.is_object())
        throw UsageError(name + ": not a JSON object (qbsp's extended texinfo flags); light reads it from beside the map");
    std::vector<bool> noShadowTexinfo(world.materials.size(), false);
    size_t marked = 0, phong = 0;
    for (const auto& [key, flags] : j.items()) {
        char* end = nullptr;
        const unsigned long t = std::strtoul(key.c_str(), &end, 10);
        if (!end || *end || t >= noShadowTexinfo.size() || !flags.is_object()) continue;
        if (flags.contains("no_shadow") && flags["no_shadow"].is_boolean() && flags["no_shadow"].get<bool>())
            noShadowTexinfo[t] = true, ++marked;
        phong += flags.contains("phong_angle");
    }
    for (size_t i = 0; i < world.surfaces.size(); ++i) {
        const int32_t m = world.surfaces[i].material;
        if (m >= 0 && size_t(m) < noShadowTexinfo.size() && noShadowTexinfo[size_t(m)]) none[i] = true;
    }
    notes.push_back(fmt::format("{} read: {} texinfos cast no shadow", name, marked));
    if (phong > 0) notes.push_back(fmt::format("{} texinfos ask for phong-smoothed normals; luxel lights them with flat normals", phong));
    return none;
}

}  // namespace

MapLights quake1MapLights(const World& world, const MapSource& source, const MapLightOptions& options) {
    const EricwGame game = world.format == MapFormat::HalfLife ? EricwGame::HalfLife : EricwGame::Quake1;
    std::vector<std::string> problems;
    MapLights out = withSkyDomes(ericwLights(world.entities, game, &problems), quake2LightArrival);
    out.notes.insert(out.notes.begin(), "light entities read as ericw-tools' light reads them");
    for (std::string& p : problems) out.notes.push_back(std::move(p));
    ericwRules(world, options, out);
    out.castsNoShadow = shadowlessSurfaces(world, source, out.notes);
    noteIfNoLights(out);
    return out;
}

}  // namespace luxel
