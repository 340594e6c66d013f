// Quake 3's lights for the baker: the light entities (from the map or its .map source), shader surface
// lights and suns as q3map2 reads them, and q3map2's rules around them.
#include "../format_lights.hpp"

#include <fmt/format.h>

#include "luxel/light/light_arrival.hpp"
#include "luxel/light/q3_lights.hpp"
#include "luxel/material/q3_light_shaders.hpp"

namespace luxel {

namespace {

// The .map source of a Quake 3 map: the given file, else maps/NAME.map beside the bsp, else
// sources/maps/NAME.map or ../sources/maps/NAME.map relative to it (OpenArena's community packs ship them so).
std::string quake3MapText(const MapSource& source, const std::string& lightsFile, std::vector<std::string>& notes) {
    if (!lightsFile.empty()) {
        const Bytes b = readFile(lightsFile);
        return std::string(b.begin(), b.end());
    }
    if (source.openRelated) {
        for (const std::string& rel : {source.mapName + ".map", "../sources/maps/" + source.mapName + ".map",
                                       "sources/maps/" + source.mapName + ".map"})
            if (auto b = source.openRelated(rel)) {
                notes.push_back("light entities read from " + rel + " beside the map");
                return std::string(b->begin(), b->end());
            }
    }
    return {};
}

// q3map2: a luxel takes its light with the receiver angle, a grid point (zero normal) without.
LightArrival quake3Arrival(const Light& l, Vec3 p, Vec3 n) { return dot(n, n) > 0 ? lightArrival(l, p, n) : lightArrivalAtPoint(l, p); }

}  // namespace

MapLights quake3MapLights(const World& world, const MapSource& source, const MapLightOptions& options) {
    MapLights out;
    const std::string text = quake3MapText(source, options.lightsFile, out.notes);
    std::vector<std::string> warnings;
    const std::vector<Q3LightShader> shaders = quake3LightShaders(world, source, options.materials, &warnings);
    Quake3LightSettings settings;
    settings.pointScale *= options.pointScale;
    settings.spotScale *= options.pointScale;
    settings.areaScale *= options.areaScale;
    settings.skyScale *= options.skyScale;
    Quake3LightSet set = quake3Lights(world, shaders, text, settings);
    const bool keepLights = !world.entities.empty() && world.entities[0].get("_keepLights") &&
                            *world.entities[0].get("_keepLights") != "0";
    if (text.empty() && !keepLights)
        out.notes.push_back("the map keeps no light entities and no .map source was found (--lights FILE.map): "
                            "only surface and sky lights are baked");
    for (std::string& n : set.notes) out.notes.push_back(std::move(n));
    for (std::string& w : warnings) out.notes.push_back(std::move(w));
    out.notes.push_back(fmt::format("{} point, {} spot, {} area (+{} backsplash), {} sun/sky lights", set.pointLights,
                                    set.spotLights, set.areaLights, set.backsplashLights, set.sunLights));
    out.lights = std::move(set.lights);
    out.rules.usePvs = true;  // q3map2's ClusterVisible
    out.rules.sampleOffset = 1.0f;   // DEFAULT_LIGHTMAP_SAMPLE_OFFSET
    out.rules.inhibitRadius = 1.5f;  // DEFAULT_INHIBIT_RADIUS
    out.rules.ambient = set.ambient;
    out.rules.minimum = set.minLight;
    // q3map2 -deluxe (IlluminateRawLightmap): each light adds its direction times the luminance of its
    // 0..255 colour / 255 (0.3 0.59 0.11), i.e. luxel light / 4, onto the luxel normal / 256: in luxel
    // units, times 4, the normal weighs 1 / 64. Stored in world space (-game quake3's deluxemode 0).
    out.rules.deluxeWeights = {0.3f, 0.59f, 0.11f};
    out.rules.deluxeNormal = 1.0f / 64;
    out.rules.arrival = arrivalsOf<quake3Arrival>;
    Quake3GridSettings grid;
    grid.ambient = set.ambient;
    grid.minGridLight = set.minGridLight;
    grid.maxLight = set.maxLight;
    out.rules.combine = [grid](const std::vector<LightArrival>& arrivals) {
        std::vector<GridArrival> g;
        g.reserve(arrivals.size());
        for (const LightArrival& a : arrivals) g.push_back({a.color, a.toLight, 0});
        return quake3GridCell(g, grid);
    };
    return out;
}

}  // namespace luxel
