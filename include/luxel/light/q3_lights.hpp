#pragma once
// A Quake 3 map's lights as q3map2 (2.5.17n, -game quake3 -light -fast) sees them, in the neutral model
// (light/lights.hpp), plus the rules q3map2 uses to turn light arriving at a grid point into the stored grid
// cell. Values are luxel light units: q3map2's 0..255 value v is 4 v / 255 (-game quake3 writes lightmap and
// grid bytes with ColorToBytes at lightmap gamma 1, compensate 1, exposure 0: byte = v truncated, the
// brightest channel first scaled down to _maxlight (255) with the others; the engine's overbright shift
// makes a byte b mean 4 b / 255, as luxel decodes stored light).
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/light/lights.hpp"
#include "luxel/material/q3_light_shaders.hpp"

namespace luxel {

// q3map2's light scales and switches (defaults: the compiler's, with -fast as the reference builds use).
struct Quake3LightSettings {
    float pointScale = 7500, spotScale = 7500;  // -pointscale / -spotscale: photons per `light` unit
    float areaScale = 0.25f;                    // -areascale
    float skyScale = 1;                         // -skyscale
    float falloffTolerance = 1;                 // q3map2 value below which -fast drops a contribution
    float formFactorValueScale = 3;             // area light strength per surface light unit
    float linearScale = 1.0f / 8000.0f;         // linear falloff lights: photons * linearScale at distance 0
    bool fast = true;                           // -fast: area lights get envelopes and the cutoff too
    int defaultLightSubdivide = 999;            // surface lights without q3map_lightSubdivide
    int patchSubdivisions = 8;                  // -subdivisions of the bsp stage (patch tessellation for lights)
    uint64_t seed = 1;                          // jitter of `_samples` copies and q3map_sunExt samples
    // Bounds against hostile input (q3map2 has none): copies of one jittered light, sky light iterations,
    // area light pieces and lights in all; past them the rest is left out with a note.
    int maxSamples = 256;
    int maxSkyIterations = 64;
    size_t maxLights = 1u << 20;
    size_t maxPieces = size_t(4) << 20;  // windings the surface-light subdivision may look at, over all surfaces
};

struct Quake3LightSet {
    std::vector<Light> lights;
    // Worldspawn (LightWorld): _ambient (or ambient) times _color (not normalised; white when it is black),
    // the value every luxel and grid point starts from; _minlight, _minvertexlight, _mingridlight floors;
    // _maxlight (0..255, default 255), the brightest channel a stored value may have.
    Vec3 ambient, minLight, minVertexLight, minGridLight;
    float maxLight = 4.0f;
    // As q3map2's log counts them ("point lights", "spotlights", "diffuse (area) lights", "sun/sky lights");
    // backsplash lights (the dimmer copies behind surface lights) are lights too but q3map2 does not count
    // them among the area lights.
    size_t pointLights = 0, spotLights = 0, areaLights = 0, backsplashLights = 0, sunLights = 0;
    std::vector<std::string> notes;  // what was approximated or left out, once each
};

// The entities of a Quake 3 .map source ({ "key" "value" ... } with brush and patch blocks, which are
// skipped), in file order. Throws DecodeError (file, "map", byte offset) on unbalanced braces or an
// unterminated string.
std::vector<Entity> parseQuake3MapEntities(std::string_view text, const std::string& file);

// Every light q3map2 makes for the map: light entities (CreateEntityLights) from the compiled map's entities
// and, unless worldspawn sets _keepLights, the light entities of the .map source `mapText` (q3map2 strips them
// from the compiled map and reads them back from the source: pass "" when there is none), then per surface in
// order (CreateSurfaceLights) the suns and sky lights of sky shaders (each shader once; none with worldspawn
// _noshadersun) and surface lights subdivided into area lights (RadLightForTriangles / RadLightForPatch /
// RadSubdivideDiffuseLight, backsplash lights included) or one point light for autosprite shaders.
// `shaders` has one entry per World::materials (quake3LightShaders); missing entries give no surface light.
Quake3LightSet quake3Lights(const World& world, const std::vector<Q3LightShader>& shaders, std::string_view mapText,
                            const Quake3LightSettings& settings = {});

// The suns of one q3map_sun (CreateSunLight): `samples` suns sharing the intensity, the first along the given
// direction, the others jittered inside `deviance`.
std::vector<Light> quake3Suns(const Q3Shader::Sun& sun, int style, const Quake3LightSettings& settings = {});
// The suns of one q3map_skyLight (CreateSkyLights): rings of (iterations - 1) * 4 suns between the horizons
// plus straight up / down, sharing value; coloured by the sky box probes when it samples colour and probes are
// given, else `color`.
std::vector<Light> quake3SkyLights(const Q3Shader::SkyLight& sky, Vec3 color,
                                   std::span<const Q3LightShader::SkyProbe> probes, int style,
                                   const Quake3LightSettings& settings = {});

// Where q3map2 (SetupEnvelopes) puts a non-sun light for culling: `clusterAt` gives the PVS cluster of a
// point (< 0 in solid; q3map2 also counts points inside opaque brushes as solid). When the origin is in solid,
// it tries 64 nudges (x, y, z) with each in {0, 0, 2, -2}, each from the origin as moved so far (a free nudge
// moves it), and the light survives only when the last nudge tried, (-2, -2, -2), is free (q3map2's loop never
// stops early). nullopt: the light is culled (q3map2's "culled lights"). The baker then also skips lights whose
// cluster the receiver's cluster cannot see (ClusterVisible); q3map2's envelope cut by the PVS bounds changes
// nothing beyond that test.
std::optional<Vec3> quake3LightPlacement(Vec3 origin, const std::function<int32_t(Vec3)>& clusterAt);

// Light arriving at a grid point from one light (lightArrivalAtPoint), with the light's style.
struct GridArrival {
    Vec3 color, toLight;
    uint8_t style = 0;
};

struct Quake3GridSettings {
    Vec3 ambient, minGridLight;  // Quake3LightSet::ambient / minGridLight
    float maxLight = 4.0f;
    float gridScale = 1, gridAmbientScale = 1;             // -gridscale, -gridambientscale
    float directionality = 1, ambientDirectionality = 0;   // -griddirectionality, -gridambientdirectionality
    bool quantize = true;  // the values as stored in bytes (and decoded as luxel decodes them); false: before
};

// The grid cell q3map2's TraceGrid writes from the light arriving at its point: the main direction is the
// sum of the arrivals' directions weighted by the length of their colours, normalised (zero when nothing
// arrives); each arrival of style 0 (styles take slots in order of appearance, at most 4, later ones fall back
// to slot 0) with d = max(0, ambientDirectionality + (direction . main) (directionality - ambientDirectionality))
// adds colour * d to directed and colour * (1 - d) / 4 to ambient. Ambient starts at `ambient`, is raised per
// channel to minGridLight, and both are stored as ColorToBytes does (brightest channel scaled to maxLight,
// truncated to bytes); an all-zero ambient with some directed light is stored as 1 1 1. The direction is the
// main one as NormalToLatLong stores it (degrees * 255 / 360 truncated; a zero direction is stored as straight
// down) and returned as luxel decodes it.
GridSample quake3GridCell(std::span<const GridArrival> arrivals, const Quake3GridSettings& settings);

}  // namespace luxel
