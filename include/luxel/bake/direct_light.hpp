#pragma once
// Direct light from a map's own lights (light/lights.hpp) into its light grid and lightmaps: at each grid
// point and each luxel (light/luxels.hpp) every light's arrival is added when a shadow ray to it is free
// (Embree's occlusion query; a sun needs the way to the sky, or out of the map, clear). Nothing stored in
// the map's lightmaps or grid is read. Parallel with TBB over points and surfaces, the same bytes for any
// thread count (each sample sums its lights in one fixed order).
#include <cstdint>
#include <functional>
#include <vector>

#include "luxel/bake/ray_scene.hpp"
#include "luxel/bsp/world.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/light/light_grid.hpp"
#include "luxel/light/lightmap_set.hpp"
#include "luxel/light/lights.hpp"
#include "luxel/light/luxels.hpp"

namespace luxel {

// How a format combines a grid point's arrivals into its stored sample.
using GridCombineFn = std::function<GridSample(const std::vector<LightArrival>& arrivals)>;
// How a format folds a probe point's arrivals into an ambient cube (Source; bake/direct_cubes.hpp bakes them).
using CubeCombineFn = std::function<AmbientCube(const std::vector<LightArrival>& arrivals)>;

// A format's rules around its lights' arrivals: whether a light must be in a cluster the receiver's PVS
// row sees (q3map2's ClusterVisible), where every luxel of the style-0 slot starts (worldspawn ambient) and the
// per-channel floor it is raised to (minlight; q3map2 leaves the other styles' slots alone), and how a luxel's
// light direction is summed for deluxe pages: each arrival's unit direction weighted by
// dot(|colour|, deluxeWeights), plus the luxel's normal times deluxeNormal (q3map2 -deluxe: 0.3 0.59 0.11 and
// 1 / 64 in luxel light units), then normalised.
struct DirectBakeRules {
    ArrivalFn arrival = nullptr;
    GridCombineFn combine;  // empty: the format has no grid
    bool usePvs = false;
    Vec3 ambient, minimum;
    CubeCombineFn cubeCombine{};  // empty: the format has no ambient cubes
    // Only lights with Light::inProbes reach the cubes directly (vrad: its other lights reach them as bounce).
    bool cubesTakeFlaggedOnly = false;
    Vec3 deluxeWeights{0.2126f, 0.7152f, 0.0722f};
    float deluxeNormal = 0;
    // Where a luxel samples its light: sampleOffset units along its normal (q3map2's MapSingleLuxel pushes the
    // luxel origin off the surface by the shader's lightmapSampleOffset, 1 by default, and both the light and
    // the shadow rays start there); 0: on the surface, shadow rays starting a hair off it. Shadow-ray hits
    // nearer than inhibitRadius to the luxel do not count (q3map2's TraceTriangle ignores hits within the
    // trace's inhibitRadius, DEFAULT_INHIBIT_RADIUS 1.5 for luxels): a luxel in a crease is not shadowed by
    // the wall it touches.
    float sampleOffset = 0, inhibitRadius = 0;
    // ericw-tools' sample placement (ltface.cc CalcPoints): a luxel whose sample point lies in a solid leaf
    // tries the eight offsets of +-0.5 on every axis and takes the first in open space; with none it is a
    // hole, which gets no light of its own and takes the mean of its lit neighbours (8-connected, repeated
    // until every hole of the surface is filled), as ericw-tools fills its occluded samples.
    bool fillSolidSamples = false;
    // Which texels outside a surface still get a sample of their own (luxels.hpp).
    LuxelReach luxelReach = LuxelReach::HalfTexel;
    // Per world surface (empty: none): smoothed vertex normals, one a vertex in the surface's vertex order, or
    // empty for a flat surface. A luxel of such a surface takes the normal interpolated across the triangle
    // of the fan that holds it (ericw-tools' phong shading); its sample point still lies off the plane.
    std::vector<std::vector<Vec3>> phongNormals{};
    // Per world surface (empty: none): the surfaces it is smoothed with, which its texels outside it may walk
    // onto (luxelCentres with LuxelReach::EricwCalcPoints); such a luxel takes its normal from the surface it
    // walked onto (Luxel::sampleSurface).
    std::vector<std::vector<uint32_t>> phongSmoothed{};
    // Per world surface (empty: none): phong asked for, whether or not its normals bend (see sunFaceCull).
    std::vector<bool> curved{};
    // With usePvs, ericw-tools' culling of point and spot lights (bake/face_pvs.hpp): a world face takes the
    // lights its marksurface leaves see; other lights and brush entities' faces go by each sample's cluster.
    bool facePvs = false;
    // ericw-tools' LightFace_AutoMin (bake/relaid_out_styles.hpp): a brush entity's samples in solid take the light
    // grid sample at the model's centre times this (light applies the rangescale to it twice).
    float autoMinlightScale = 1;
    // Whether windows tint the light through them (ShadowCast::Tint; ericw-tools does, qrad3 lets it through).
    bool tintedShadows = false;
    // Per world surface (empty: none): translucent (ericw-tools: liquids and windows): lit from both sides (the
    // cosine taken as |cos|), never dimmed by occlusion, and no obstacle to occlusion rays.
    std::vector<bool> translucent{};
    // Ambient occlusion (ericw-tools' dirt): when `occlusion.rays()` > 0 every luxel measures how enclosed it
    // is: rays at `azimuths` even turns about its normal and `elevations` even steps of angleDeg from it (in
    // ericw-tools' tangent frame), o = 1 - mean(min(hit distance, depth)) / depth, sky and misses counting
    // as depth; each light with Light::occlusionScale > 0 is dimmed there (lights.hpp says how).
    struct Occlusion {
        int azimuths = 0, elevations = 0;  // rays: azimuths x elevations; 0: no occlusion
        float depth = 128;                 // a ray's length; hits nearer count as enclosure
        float angleDeg = 88;               // the widest ray's angle from the normal
        // The floor (`minimum`) dimmed too, with these (ericw-tools' minlight_dirt); scale 0: not dimmed.
        float minimumScale = 0, minimumGain = 1;
        int rays() const { return azimuths * elevations; }
    } occlusion{};
    // Per world surface (empty: none): a floor of its own on style 0, as `minimum` (ericw-tools: an emitting
    // face lights itself at least with its emission).
    std::vector<Vec3> surfaceMinimum{};
    // Whether the floors are left to the caller (LightmapSet::floor) to raise to after bounce (ericw-tools
    // bounces the light before minlight), instead of raising the direct light to them here.
    bool floorAfterBounce = false;
    // The kind of shadow ray a sun's light takes (ShadowRay::SunToSky: ericw-tools').
    ShadowRay sunRay = ShadowRay::Sun;
    // ericw-tools' LightFace_Sky: a sun lights none of a one-sided face that does not ask for phong (`curved`,
    // `translucent`) whose plane turns from it by a cosine below -0.01 (LIGHT_ANGLE_EPSILON); each sample of
    // another face takes the arrival at its own normal, clamped there at 0, or for a translucent face at |cos|.
    bool sunFaceCull = false;
    // ericw-tools' CullLight: a point or spot light with a range (linear falloff) lights none of a face whose
    // bounding sphere (of its corners) lies wholly past that range, even where a texel of the face samples a
    // neighbour inside it.
    bool faceSphereCull = false;
};

struct DirectBakeStats {
    uint64_t shadowRays = 0, blocked = 0;
    size_t luxels = 0, gridPoints = 0, nudged = 0, solid = 0;
    double gridMs = 0, lightmapMs = 0;
    // Thread time spent on sun lights in lightmap bakes, summed over the threads (not wall time).
    double sunThreadMs = 0;
};

// Shadow rays start this far off the receiver along its normal (grid points: at the point) and stop this far
// short of a light, so neither the receiver nor an emitting surface shadows itself.
inline constexpr float kShadowBias = 0.25f;

// What a lightmap bake measures at each luxel before any light (luxelCentres order): where it samples light
// (DirectBakeRules::sampleOffset along its normal, moved out of solid), where its shadow rays start, its PVS
// cluster, whether it is a hole, its ambient occlusion. The same for every pass over the luxels with the same
// sampling rules (the direct light, then each bounce), so it is measured once.
struct LuxelSamples {
    std::vector<Luxel> luxels;
    std::vector<Vec3> sample, from;
    std::vector<int32_t> cluster;  // -1 without rules.usePvs
    std::vector<uint8_t> hole;
    std::vector<float> occlusion;  // 0 open .. 1 enclosed; 0 without occlusion rays, for holes and translucent surfaces
    double occlusionMs = 0;        // wall time of the occlusion (dirt) rays
};
// ericw-tools' nudge of a sample point in solid: p when it is in open space, else the first of the eight +-0.5
// offsets in open space in its order (PositionSamplePointOnFace: x outermost, z innermost, minus before plus);
// nullopt when all are in solid.
// `leaf`, when given, receives the leaf of the point returned.
std::optional<Vec3> openSamplePoint(const World& world, Vec3 p, int32_t* leaf = nullptr);
// ericw-tools' Light_PointInWorld: whether p is in the world's solid or sky, a point within 0.1 of a node's plane
// counting as solid when either side is.
bool pointInWorldSolid(const World& world, Vec3 p);
// ericw-tools' FixLightOnFace: p when it is not in the world's solid, else p moved `distance` along the first of
// -x, +x, -y, +y, -z, +z that leaves it; nullopt when none does.
std::optional<Vec3> movedOutOfSolid(const World& world, Vec3 p, float distance);

LuxelSamples luxelSamples(const World& world, const Geometry& geometry, const RayScene& scene, const DirectBakeRules& rules);

// The light at every luxel, every style slot: slot k of a surface gets exactly its lights of style
// Surface::styles[k] (a light whose style no slot holds lights nothing there), in pages laid out like the
// World's (texels no luxel covers stay 0). When the map has deluxe pages (World::deluxemaps) they are baked
// too, from the lights that have a slot on the surface or would take a free one (q3map2 gives a light's style
// a slot as it arrives, up to 4); a luxel's direction is the normalised sum described at DirectBakeRules.
// `samples`: luxelSamples for these rules, measured by the caller once for several passes (null: measured here).
LightmapSet bakeLightmapsDirect(const World& world, const Geometry& geometry, const RayScene& scene,
                                const std::vector<Light>& lights, const DirectBakeRules& rules, DirectBakeStats& stats,
                                const LuxelSamples* samples = nullptr);

// Style-0 light at every grid point (moved out of solid as q3map2 does; a point with no open space near stays
// zero), combined by rules.combine. The map must have a light grid.
ProbeValues bakeGridDirect(const World& world, const Geometry& geometry, const RayScene& scene, const std::vector<Light>& lights,
                           const DirectBakeRules& rules, DirectBakeStats& stats);

}  // namespace luxel
