#pragma once
// A map's lights and the rules its compiler applies to them, whatever the format: the lights (lights.hpp),
// how one arrives at a point (each compiler's falloff) and how a probe point's arrivals are stored (Quake 3
// grid: q3map2's ambient + directed split; Source: vrad's ambient cube). The light baker takes this and
// knows no format.
#include <optional>
#include <string>
#include <vector>

#include "luxel/bake/direct_light.hpp"
#include "luxel/bake/face_bounce.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/light/q2_lights.hpp"
#include "luxel/material/material_set.hpp"

namespace luxel {

struct MapLights {
    std::vector<Light> lights;
    DirectBakeRules rules;   // how they arrive and how a grid point stores them
    std::vector<std::string> notes;  // what the decoder could not find or left out, one line each
    std::optional<Q2LightCompiler> quake2Compiler;  // Quake 2: whose reading was used (bounce defaults follow it)
    // Quake 2 lit by ericw-tools: its bounce (bake/face_bounce.hpp), which faces bounce and how much.
    std::optional<FaceBounceModel> faceBounce;
    // Per surface (empty: every surface casts): surfaces the compiler traces no shadow from (ericw-tools:
    // brush entities without _shadow 1, texinfos marked no_shadow); for RayScene.
    std::vector<bool> castsNoShadow;
};

struct MapLightOptions {
    std::string lightsFile;          // Quake 3: a .map source holding the light entities the compile removed
    MaterialOptions materials;       // Quake 3 surface and sky lights need the shaders and their images
    // Quake 2: the map's loaded materials, whose textures' mean colours colour surface lights and bounce
    // (none: every texture counts as not found, as ericw-tools without its textures).
    const MaterialSet* loaded = nullptr;
    // Quake 2, ericw-tools' -emissivequality high: surface lights diced by the worldspawn's
    // _surflightsubdivision (16 by default) instead of one point a face.
    bool emissiveHigh = false;
    // Quake 2: whose reading of the light entities to use; unset: quake2CompilerOf's guess.
    std::optional<Q2LightCompiler> quake2Compiler;
    // Quake 3: q3map2's -pointscale (point and spot light entities, autosprite surface lights), -areascale
    // (surface lights and their backsplash) and -skyscale (suns and sky light, _sun entities too), as
    // factors on the compiler's defaults.
    float pointScale = 1, areaScale = 1, skyScale = 1;
};

// The lights of `world` as its compiler saw them. Throws UsageError for a lights file that cannot be read.
MapLights mapLights(const World& world, const MapSource& source, const MapLightOptions& options);

}  // namespace luxel
