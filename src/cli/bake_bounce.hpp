#pragma once
// `luxel bake --bounce N`: the bounce step of the bake (bake/bounce.hpp), its options and figures, kept apart
// from the direct bake's driver (bake.cpp), which calls it once after baking the lightmaps.
#include <CLI/CLI.hpp>

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "common.hpp"
#include "luxel/bake/ray_scene.hpp"
#include "luxel/light/light_grid.hpp"
#include "luxel/light/map_lights.hpp"
#include "luxel/light/q2_lights.hpp"
#include "luxel/material/material_set.hpp"

namespace luxel::cli {

struct BounceArgs {
    std::optional<int> bounces;  // unset: what the map's compiler does (compilerBounce)
    int rays = 64;
    bool probes = false;         // bounce into the Quake 3 grid even though q3map2 does not by default
};

void addBounceOptions(CLI::App& bake, BounceArgs& args);

// `materials`: the map's, loaded by the caller (their textures' mean colours are the albedo when the map has
// game directories). Adds the bounces to `pages` (the direct bake, laid out like World::lightmaps) and, where the compiler does,
// to the probes (`probes`: the direct grid, or nullopt; Source: set to the gathered ambient cubes), prints how
// the result compares with the stored light, and returns the figures for the JSON report (null: no bounce).
nlohmann::json bakeBounce(const BounceArgs& args, const MapArgs& map, const World& world, const MaterialSet& materials,
                          const Geometry& geometry, const RayScene& scene, std::vector<LightmapPage>& pages,
                          std::optional<ProbeValues>& probes);

// What ericw-tools does last to slot `slot` of a bake (`pages`, with `baked`'s floors and holes): slot 0 raised
// to the floors, the holes filled again, then clamped to what a byte holds, hue kept.
void finishAsEricwStores(std::vector<LightmapPage>& pages, const LightmapSet& baked, size_t slot);

// Quake 2 lit by ericw-tools: its face bounce (bake/face_bounce.hpp; --bounce N overrides the passes), then
// the floors left for after bounce and the holes filled; prints how the result compares with the stored light.
// Returns the figures for the JSON report (null: no bounce asked). `samples`: the direct bake's luxelSamples.
nlohmann::json bakeFaceBounce(const BounceArgs& args, const World& world, const Geometry& geometry, const RayScene& scene,
                              LightmapSet& baked, const MapLights& lights, const LuxelSamples& samples);

}  // namespace luxel::cli
