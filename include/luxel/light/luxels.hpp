#pragma once
// The luxels of a map's lightmaps as points in the world: every texel of a lit surface's page that the
// surface's triangles cover (rasterised in lightmap texel space), with its world position and plane. The
// one mapping from lightmap texels to the world, shared by the lightmap comparison (luxel diff) and the
// light baker.
#include <cstdint>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/geometry/geometry.hpp"

namespace luxel {

// One luxel centre on a lit surface.
struct Luxel {
    uint32_t surface = 0;
    // The surface whose polygon holds the sample point: `surface`, or the neighbour a texel outside it walked
    // onto (ericw-tools' CalcPointNormal), whose plane `position` and `normal` then lie on.
    uint32_t sampleSurface = 0;
    int32_t page = -1, x = 0, y = 0;
    Vec3 position, normal;
    Vec3 inset;  // position moved a hair inside its triangle
    Vec2 uv;     // where the luxel is sampled, normalised to the page (the texel centre, or a point of a thin strip)
};

// The unit normal of triangle (a, b, c) on the side its vertex normals face (zero for a degenerate one).
Vec3 triangleNormal(const DrawVertex& a, const DrawVertex& b, const DrawVertex& c);

// The luxels of every lit surface, surface by surface in index order. A luxel is a texel of the surface's
// page sampled at a point of the surface: at its centre when a triangle covers the centre (first pass), else
// at the surface point nearest the centre when the texel's square still touches a triangle (second pass:
// strips thinner than a texel, which q3map2 lights, have no centre inside). A texel is taken once a surface.
// Surfaces in parallel, concatenated in surface order (the same list for any thread count). `areas`, when
// given, receives each surface's area.
// `reach`: how far outside the surface a texel may lie and still be a luxel of the second pass.
enum class LuxelReach : uint8_t {
    HalfTexel,  // the nearest surface point within half a texel of the centre on both axes (the first triangle's)
    // ericw-tools' CalcPoints for a Quake face with a texinfo frame (World::texinfoLuxels): every texel of its
    // block where light samples it (light/ericw_sample_points.hpp): inside the face, walked onto a coplanar or
    // smoothed neighbour, or snapped to its boundary within a luxel; other faces as HalfTexel.
    EricwCalcPoints,
};
// `smoothed` (EricwCalcPoints): per surface, the surfaces it is phong-smoothed with, which a texel outside it
// may walk onto as onto a coplanar neighbour (Face_EdgeIndexSmoothed).
std::vector<Luxel> luxelCentres(const World& w, const Geometry& g, std::vector<double>* areas = nullptr,
                                LuxelReach reach = LuxelReach::HalfTexel,
                                const std::vector<std::vector<uint32_t>>* smoothed = nullptr);

}  // namespace luxel
