#pragma once
// Rebaking a map's light probes (Quake 3 light grid, Source ambient cubes) from its own lit geometry: from
// each probe point, rays in stratified directions return the lightmap light where they hit (the renderer's
// bilinear lookup) times the surface albedo, sky where they hit sky, nothing where they leave the map.
#include <cstdint>
#include <optional>
#include <vector>

#include "luxel/bake/ray_scene.hpp"
#include "luxel/light/light_grid.hpp"
#include "luxel/material/material_set.hpp"

namespace luxel {

struct RebakeOptions {
    int rays = 256;          // directions per probe point
    uint64_t seed = 1;       // the directions' jitter; the same seed gives the same bytes
    std::optional<Vec3> sky; // linear light of sky surfaces; nullopt: defaultSkyLight(world)
    // Quake 2 / 3: each surface's albedo is its texture's mean colour (the 1x1 mip) instead of 1, as
    // radiosity compilers bounce light. Source keeps its texdata reflectivity, which is that mean already.
    const MaterialSet* materials = nullptr;
    // Style-0 light laid out like World::lightmaps to gather instead of the stored light (the bounce baker's
    // pages; vertex-lit surfaces then return nothing): see bake/hit_light.hpp.
    const std::vector<LightmapPage>* pages = nullptr;
};

// What happened at each probe point.
enum class ProbeStatus : uint8_t {
    Baked,   // rebaked at the stored position
    Nudged,  // Quake 3: the grid point is in solid space; rebaked at a free spot nearby (as q3map2 does)
    Solid,   // Quake 3: in solid space with no free spot near: left as stored
};

struct RebakeStats {
    size_t points = 0, baked = 0, nudged = 0, solid = 0;
    uint64_t rays = 0, hits = 0, skyHits = 0, backHits = 0;
    double bakeMs = 0;
};

struct RebakeResult {
    ProbeValues values;                 // same kind and count as storedProbes(world)
    std::vector<ProbeStatus> status;    // one per probe point
    std::vector<Vec3> bakedAt;          // where each point was baked (its position, or the nudged spot)
    Vec3 sky;                           // the sky light used
    RebakeStats stats;
};

// The sky light a map asks for, in linear units: Source light_environment's sky ambient as vrad takes it
// (`_ambientHDR` for HDR lighting when set, else `_ambient`, else half the sun; "r g b brightness" is gamma
// 2.2 colour times brightness / 255); 0 when the map says nothing (Quake 3 sky light lives in shaders,
// which luxel does not read yet).
Vec3 defaultSkyLight(const World& world);

// N unit directions for probe point `point`: stratified in z (one direction per equal-area band), with
// golden-ratio azimuths and a per-point random jitter and rotation from (seed, point). Exposed for tests.
std::vector<Vec3> probeDirections(int rays, uint64_t seed, uint64_t point);

// Rebakes every probe point; parallel over points with TBB, identical bytes for any thread count.
// Quake 3: ambient and directed split of the gathered light (see rebake.cpp); Source: each cube side
// = sum max(dir . axis, 0) * radiance / sum max(dir . axis, 0).
RebakeResult rebakeProbes(const World& world, const Geometry& geometry, const RayScene& scene,
                          const RebakeOptions& options);

}  // namespace luxel
