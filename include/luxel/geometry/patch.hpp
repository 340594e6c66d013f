#pragma once
// Quake 3 Bezier patches: a control grid w x h (both odd) is a set of (w-1)/2 x (h-1)/2 biquadratic 3x3
// pieces sharing their edges. Each piece column gets a number of segments along u and each piece row a
// number along v (like ioquake3's R_SubdividePatchToGrid, but uniform per piece), chosen from the largest
// midpoint-to-chord error of the quadratic curves in that column/row. Neighbouring patches that share a
// piece edge are given the same count on it and evaluate its vertices with one canonical curve, so they
// meet without cracks. Used by tessellate(); exposed for tests.
#include <cstdint>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/geometry/geometry.hpp"

namespace luxel {

// Control grids larger than this per side are rejected as malformed (the engine's own limit is 32).
constexpr int32_t kMaxPatchSide = 129;
// Total patch grid vertices per map; past it every patch's subdivision is lowered until it fits, so a
// hostile map cannot make tessellation allocate without bound.
constexpr uint64_t kPatchVertexBudget = uint64_t(1) << 23;
// Hard ceiling on TessellationOptions::maxPatchLevel (segments per piece side).
constexpr int32_t kMaxPatchLevelCeiling = 64;

// True when the surface is a patch whose control grid is well formed and inside world.vertices.
bool validPatch(const World& world, const Surface& surface);

// Largest midpoint-to-chord distance |a - 2b + c| / 4 of the quadratic curves of each piece column
// (curves along u, over all control rows) and each piece row (curves along v, over all control columns).
// A curve split into n equal parameter steps has n^2 times smaller error, which gives the segment count.
struct PatchErrors {
    std::vector<float> columns, rows;
};
PatchErrors patchErrors(const Vertex* ctrl, int32_t width, int32_t height);

// Segments for one piece side: ceil(sqrt(error / tolerance)) within [1, maxLevel], maxLevel itself
// clamped to [1, kMaxPatchLevelCeiling]; NaN error gives 1, infinite error or tolerance <= 0 the maximum.
int32_t patchLevel(float error, float tolerance, int32_t maxLevel);

// Segments per piece column (along u) and per piece row (along v).
struct PatchLevels {
    std::vector<int32_t> columns, rows;
};

// Levels for every surface (empty for anything that is not a valid, drawn patch), with the levels of piece
// sides that coincide with another patch's boundary piece edge (same three control points, either
// direction) joined so both take the larger one. Deterministic; within kPatchVertexBudget.
std::vector<PatchLevels> stitchedPatchLevels(const World& world, const TessellationOptions& options);

// Where one grid column (or row) sits: piece index and step k of n within it; t = float(k) / float(n).
struct GridParam {
    int32_t piece = 0, k = 0, n = 1;
    float t = 0;
};
std::vector<GridParam> gridParams(const std::vector<int32_t>& levels);

struct PatchGrid {
    int32_t width = 0, height = 0;     // vertices per row, rows
    std::vector<DrawVertex> vertices;  // row-major: vertices[row * width + column]
    std::vector<GridParam> columns;    // u of each grid column (size width)
    std::vector<GridParam> rows;       // v of each grid row (size height)
};

// Evaluates the grid: every attribute is interpolated with the same Bernstein weights; normals are
// renormalised. Vertices on the patch's boundary take their position from quadraticEdge().
PatchGrid evaluatePatch(const Vertex* ctrl, int32_t width, int32_t height, const PatchLevels& levels);

// Appends the grid's triangles (indices into grid.vertices + base), dropping those of zero area.
// Winding as geometry.hpp states: cross(b - a, c - a) points away from the patch's front (its normals).
void patchTriangles(const PatchGrid& grid, uint32_t base, std::vector<uint32_t>& out);

// Quadratic Bezier a, b, c at t.
Vec3 evalQuadratic(Vec3 a, Vec3 b, Vec3 c, float t);
// The same curve at step k of n, evaluated from its lexicographically smaller endpoint, so the curve
// given backwards (c, b, a at step n - k) yields bit-identical floats.
Vec3 quadraticEdge(Vec3 a, Vec3 b, Vec3 c, int32_t k, int32_t n);

}  // namespace luxel
