// mapLights: the per-format light readers (one folder each) behind one call (see map_lights.hpp).
#include "luxel/light/map_lights.hpp"

#include <fmt/format.h>

#include "format_lights.hpp"
#include "luxel/light/sky_dome.hpp"
#include "luxel/util/error.hpp"

namespace luxel {

MapLights withSkyDomes(const std::vector<Light>& lights, ArrivalFn arrival) {
    MapLights out;
    out.lights = expandSkyLights(lights);
    out.rules.arrival = arrival;
    out.notes.push_back(fmt::format("{} lights ({} after sky lights became dome suns)", lights.size(), out.lights.size()));
    return out;
}

void noteIfNoLights(MapLights& out) {
    if (out.lights.empty()) out.notes.push_back("the map has no lights: nothing to bake");
}

MapLights mapLights(const World& world, const MapSource& source, const MapLightOptions& options) {
    switch (world.format) {
        case MapFormat::Quake3: return quake3MapLights(world, source, options);
        case MapFormat::Source: return sourceMapLights(world);
        case MapFormat::Quake2: return quake2MapLights(world, source, options);
        case MapFormat::Quake1:
        case MapFormat::HalfLife: return quake1MapLights(world, source, options);
    }
    throw UsageError(world.file + ": luxel cannot read the lights of " + world.formatName + " maps");
}

}  // namespace luxel
