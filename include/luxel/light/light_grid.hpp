#pragma once
// The light a map stores for moving objects, behind one interface: Quake 3's light grid (lightvols, a
// regular lattice of ambient + directed light) and Source's ambient cubes (a few samples per leaf, six
// colours each). Rendering (--mode grid), `luxel grid` and the rebaker all go through this file.
#include <array>
#include <cstdint>
#include <vector>

#include "luxel/bsp/world.hpp"

namespace luxel {

enum class ProbeKind : uint8_t { None, Grid, Cubes };

// Grid when the map has a decoded light grid, Cubes when it has ambient samples, else None.
ProbeKind probeKind(const World& world);

using AmbientCube = std::array<Vec3, 6>;  // light from +X, -X, +Y, -Y, +Z, -Z

// --- Quake 3 light grid ---------------------------------------------------------------------------------

// World position of grid point `index` (x fastest, then y, then z): origin + (i, j, k) * cellSize.
Vec3 gridPointPosition(const LightGrid& grid, size_t index);

// The engine's R_SetupEntityLightingGrid: the point is clamped into the grid, the 8 surrounding points
// are blended trilinearly, corners whose ambient is all zero (inside walls) are skipped and the remaining
// weights renormalised; the direction is the weighted sum of the corners' directions, normalised.
// All corners in walls: a zero sample. Two deliberate differences, both small: the engine renormalises
// only when the kept weight is under 0.99 (here: always, at most a 1% change), and below the grid's
// origin it keeps the unclamped cell fraction (here: the position is clamped, so the boundary values).
GridSample sampleGrid(const LightGrid& grid, Vec3 p);

// Light on a surface with unit normal n: ambient + directed * max(0, n . direction).
Vec3 evalGridSample(const GridSample& s, Vec3 n);

// --- Source ambient cubes -------------------------------------------------------------------------------

// Light on a surface with unit normal n: sum over axes of n_i^2 * colour(side the sign of n_i picks).
Vec3 evalCube(const AmbientCube& cube, Vec3 n);

// --- Both -----------------------------------------------------------------------------------------------

// Built once per World; sampling is then thread-safe.
struct ProbeSampler {
    const World* world = nullptr;
    ProbeKind kind = ProbeKind::None;
    // Cubes: per leaf, the leaf whose samples stand for it (itself when it has samples; for a leaf in a
    // cluster without samples, the owner of the sample nearest the leaf's box centre, ties to the lower
    // sample index; -1 for solid leaves and when the map has none).
    std::vector<int32_t> sampleLeaf;
};
ProbeSampler makeProbeSampler(const World& world);

// Source: the cubes of the leaf holding p (see sampleLeaf) blended by inverse squared distance,
// weight 1 / (1 + d^2) so a sample at p itself does not divide by zero (Mod_LeafAmbientColorAtPos).
// Zero cube when none.
AmbientCube sampleCubes(const ProbeSampler& sampler, Vec3 p);

// Light arriving at point p on a surface with unit normal n, by whichever representation the map has;
// black for ProbeKind::None.
Vec3 probeLight(const ProbeSampler& sampler, Vec3 p, Vec3 n);

// --- Probe values: the stored data as one list, for rebaking, comparing and writing ----------------------

// Values at a map's probe points, in the map's own order: Grid -> one GridSample per grid point;
// Cubes -> one cube per World::ambientSamples entry.
struct ProbeValues {
    ProbeKind kind = ProbeKind::None;
    std::vector<GridSample> grid;
    std::vector<AmbientCube> cubes;
    size_t size() const { return kind == ProbeKind::Grid ? grid.size() : cubes.size(); }
};

ProbeValues storedProbes(const World& world);
// Grid: every grid point's position; Cubes: every ambient sample's position.
std::vector<Vec3> probePositions(const World& world);
// "light grid", "ambient cubes" or "no probes", for messages.
const char* probeKindName(ProbeKind kind);
// Throws UsageError unless `values` has the World's probe kind and one value per stored probe.
void checkProbeValues(const World& world, const ProbeValues& values);
// Replaces the World's grid samples / ambient cubes with `values` (checkProbeValues; a World without
// probes is a UsageError too).
void applyProbes(World& world, const ProbeValues& values);

// Luminance of linear RGB (Rec. 709 weights), used by comparisons and the rebaker's direction estimate.
inline float luminance(Vec3 c) { return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z; }

}  // namespace luxel
