#pragma once
// Bounced light on top of a baked direct light (never on the map's stored light): a gather per luxel. Bounce k
// at a luxel is the cosine-weighted mean, over the hemisphere around its normal, of what bounce k-1 shows where
// each ray first hits (the hit surface's albedo times its baked page, bilinear as the renderer reads it, through
// the rebaker's own lookup, bake/hit_light.hpp), times the compiler's re-emission scale; bounce 0 is the direct
// light. Sky and misses bring nothing back: neither q3map2, qrad3 nor vrad bounces light off the sky (their sky
// light is direct light). Light styles: style 0 only (the pages the direct baker makes).
//
// How the compilers differ, and what that means for the figures:
// * q3map2 -bounce N (light_bounce.cpp, RadCreateDiffuseLights): after each pass, every triangle of every
//   lightmapped surface that is not sky, nodraw, trans or autosprite is cut into windings of at most 256 units
//   (finer where its light varies), and each becomes an area light whose colour is the mean of albedo (the texel
//   under each sample) x luxel over up to 150 samples, reaching receivers through the polygon form factor, with
//   PVS and envelope culling and, under -fast, nothing below the falloff tolerance. luxel traces the hemisphere
//   of every luxel instead: the same integral (form factors of the surfaces seen, times their light) sampled by
//   rays rather than summed over windings, the mean texture colour standing in for the texel under each sample;
//   -fast's tolerance is kept by cutting the hit triangle as q3map2 would and dropping the ray when that piece's
//   form factor is under it (formFactorCutoff); no PVS test (a ray sees what it sees) and no envelopes. The grid
//   gets bounce only with -bouncegrid (luxel: --bounce-probes), there without the -fast cutoff.
// * vrad (numbounce 100, stopping when a bounce adds under 1 unit) and qrad3 (numbounce 8) shoot light between
//   patches (faces chopped to a few luxels) through precomputed transfers, then spread patch light back onto
//   luxels. Same integral again, with patches as the unit instead of luxels.
#include <cstdint>
#include <vector>

#include "luxel/bake/ray_scene.hpp"
#include "luxel/light/light_grid.hpp"
#include "luxel/light/q2_lights.hpp"
#include "luxel/light/luxels.hpp"
#include "luxel/material/material_set.hpp"

namespace luxel {

// What a map's compiler does with bounce by default, where the format says which compiler made it.
struct CompilerBounce {
    int bounces = 0;
    // Fraction of albedo x light a surface re-emits per bounce, in the baker's light units.
    float scale = 1;
    // Whether the compiler bounces light into the light grid / ambient cubes.
    bool probes = false;
    const char* compiler = "";
    // See BounceOptions.
    float formFactorCutoff = 0, pieceSize = 0;
};

// Quake 3 (q3map2): 0 bounces (it bounces only with -bounce N); scale 140.625 / 255: a bounce light's value is
// RADIOSITY_VALUE 500 x the shader's q3map_bounceScale (1) x 0.375, times formFactorValueScale 3 and the
// -bouncescale default 0.25, over a colour of albedo x luxel / 255; the -fast cutoff (1 / 140.625 on 256-unit
// pieces), as the usual -light -fast compiles make it (a map does not say); the grid gets none (only with
// -bouncegrid).
// Source (vrad): 100 bounces (numbounce; it stops early once a bounce adds almost nothing), scale 1, and its
// ambient cubes gather the bounced lightmaps. Quake 2 (qrad3): 8 bounces (numbounce), scale 1; no probes.
// Quake 2 lit by ericw-tools bounces its own way (bake/face_bounce.hpp), not through this gather.
CompilerBounce compilerBounce(const World& world);

struct BounceOptions {
    int bounces = 0;
    int rays = 64;       // hemisphere rays per luxel and bounce
    uint64_t seed = 1;   // the rays' jitter: the same seed gives the same bytes
    float scale = 1;
    // Stop before `bounces` once a bounce's mean luminance falls below this fraction of the direct light's (as
    // vrad stops when a bounce adds under one unit); 0: always do `bounces`.
    double stopBelow = 1e-3;
    // q3map2 -fast (the common compile) drops a bounce light's contribution at or below its falloff tolerance
    // (1 in its 0..255 units): a light is one triangle of a surface cut into pieces of at most pieceSize (256)
    // units along each axis, and its contribution form factor x 140.625 x colour, so a piece whose form factor
    // at the luxel is at or below 1 / 140.625 brings nothing, however bright. With formFactorCutoff > 0 a ray
    // hitting such a piece brings nothing. 0: no cutoff.
    float formFactorCutoff = 0, pieceSize = 256;
    // Quake 2 / 3: albedo from the textures' mean colours (see hit_light.hpp).
    const MaterialSet* materials = nullptr;
    // Probes: rays per grid point / cube sample.
    int probeRays = 256;
};

struct BounceStats {
    size_t luxels = 0;
    uint64_t rays = 0, probeRays = 0;
    std::vector<double> meanLuminance;  // of each bounce done, over the luxels
    double lightmapMs = 0, probeMs = 0;
};

struct BouncedLight {
    std::vector<LightmapPage> total;    // direct + every bounce
    std::vector<LightmapPage> bounced;  // the bounces alone
    BounceStats stats;
};

// Cosine-weighted unit directions about the unit normal n: one per equal-weight band of sin^2 of the angle to
// n (stratified), golden-ratio azimuths, jittered and turned by (seed, sample). Exposed for tests.
std::vector<Vec3> hemisphereDirections(int rays, uint64_t seed, uint64_t sample, Vec3 n);

// One bounce: the light every luxel gets from what `from` (pages laid out like World::lightmaps) shows where its
// rays hit, times options.scale; texels no luxel covers stay 0. Parallel over luxels with TBB, the same bytes
// for any thread count. `rays` counts the rays traced.
std::vector<LightmapPage> gatherBounce(const World& world, const Geometry& geometry, const RayScene& scene,
                                       const std::vector<Luxel>& luxels, const std::vector<LightmapPage>& from,
                                       const BounceOptions& options, uint64_t bounceIndex, uint64_t& rays);

// options.bounces bounces on top of `direct`; options.bounces == 0 returns `direct` itself as the total.
BouncedLight bounceLightmaps(const World& world, const Geometry& geometry, const RayScene& scene,
                             const std::vector<LightmapPage>& direct, const BounceOptions& options);

// The probes with the bounce, through the rebaker's gather (bake/rebake.hpp) over the baked pages:
// * Quake 3 grid: `direct` (the direct-light grid) plus the scaled gather of light.bounced at each grid point
//   (points in walls keep their direct value). The two ambient + directed models add as ambient + ambient and
//   directed + directed, the direction being the directed-luminance-weighted mean of the two: exact for the
//   ambients and for light from one side, an approximation where the two directions part.
// * Source ambient cubes: vrad's ComputePerLeafAmbientLighting: each cube gathers light.total (direct + bounce)
//   and the sky's ambient light; `direct` is not used (the direct baker makes no cubes).
ProbeValues bounceProbes(const World& world, const Geometry& geometry, const RayScene& scene, const ProbeValues& direct,
                         const BouncedLight& light, const BounceOptions& options, BounceStats& stats);

}  // namespace luxel
