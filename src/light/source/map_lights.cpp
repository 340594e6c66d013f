// Source's lights for the baker: the worldlights lump as vrad wrote it.
#include "../format_lights.hpp"

#include "luxel/light/source_lights.hpp"

namespace luxel {

// Source: the worldlights lump as vrad wrote it (sky ambient as dome suns). Its ambient cubes take only the
// lights vrad adds to them directly (direct_cubes.hpp says which); the rest of vrad's cube light is bounce.
MapLights sourceMapLights(const World& world) {
    MapLights out = withSkyDomes(world.lights, sourceLightArrivals);
    out.rules.cubeCombine = sourceAmbientCube;
    out.rules.cubesTakeFlaggedOnly = true;
    noteIfNoLights(out);
    return out;
}
}  // namespace luxel
