#include "luxel/light/light_grid.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "luxel/util/error.hpp"
#include "luxel/vis/visibility.hpp"

namespace luxel {

ProbeKind probeKind(const World& world) {
    if (world.grid && !world.grid->samples.empty()) return ProbeKind::Grid;
    if (!world.ambientSamples.empty()) return ProbeKind::Cubes;
    return ProbeKind::None;
}

Vec3 gridPointPosition(const LightGrid& grid, size_t index) {
    const size_t nx = size_t(std::max(grid.dims[0], 1)), ny = size_t(std::max(grid.dims[1], 1));
    const size_t i = index % nx, j = (index / nx) % ny, k = index / (nx * ny);
    return {grid.origin.x + float(i) * grid.cellSize.x, grid.origin.y + float(j) * grid.cellSize.y,
            grid.origin.z + float(k) * grid.cellSize.z};
}

GridSample sampleGrid(const LightGrid& grid, Vec3 p) {
    GridSample out;
    const int32_t nx = grid.dims[0], ny = grid.dims[1], nz = grid.dims[2];
    if (nx < 1 || ny < 1 || nz < 1 || grid.samples.size() != size_t(nx) * size_t(ny) * size_t(nz)) return out;
    int32_t pos[3];
    float frac[3];
    for (int a = 0; a < 3; ++a) {
        // The engine clamps the cell index but keeps the fraction it computed before clamping, so below
        // the origin it blends the first two points with a stray weight. Clamping the position instead
        // gives points outside the grid the boundary values; inside the grid both agree.
        float v = (p[a] - grid.origin[a]) / grid.cellSize[a];
        const float top = float(grid.dims[size_t(a)] - 1);
        v = v > 0.0f ? (v < top ? v : top) : 0.0f;  // NaN -> 0
        pos[a] = int32_t(std::floor(v));
        frac[a] = v - float(pos[a]);
    }
    const size_t step[3] = {1, size_t(nx), size_t(nx) * size_t(ny)};
    const size_t base = size_t(pos[0]) * step[0] + size_t(pos[1]) * step[1] + size_t(pos[2]) * step[2];
    float total = 0;
    Vec3 direction;
    for (int corner = 0; corner < 8; ++corner) {
        float factor = 1.0f;
        size_t at = base;
        bool inside = true;
        for (int a = 0; a < 3; ++a) {
            if (corner & (1 << a)) {
                if (pos[a] + 1 > grid.dims[size_t(a)] - 1) {
                    inside = false;  // beyond the last point (its weight is 0 here anyway)
                    break;
                }
                factor *= frac[a];
                at += step[a];
            } else {
                factor *= 1.0f - frac[a];
            }
        }
        if (!inside) continue;
        const GridSample& s = grid.samples[at];
        if (s.ambient.x == 0.0f && s.ambient.y == 0.0f && s.ambient.z == 0.0f) continue;  // inside a wall
        total += factor;
        out.ambient += s.ambient * factor;
        out.directed += s.directed * factor;
        direction += s.direction * factor;
    }
    // The engine renormalises only when 0 < total < 0.99; doing it for every positive total differs by
    // at most 1% (one skipped corner holding under 1% of the weight) and keeps the blend a weighted mean.
    if (total > 0.0f) {
        out.ambient *= 1.0f / total;
        out.directed *= 1.0f / total;
    }
    out.direction = normalize(direction);
    return out;
}

Vec3 evalGridSample(const GridSample& s, Vec3 n) {
    return s.ambient + s.directed * std::max(0.0f, dot(n, s.direction));
}

Vec3 evalCube(const AmbientCube& cube, Vec3 n) {
    const Vec3 sq = n * n;
    return cube[n.x >= 0.0f ? 0 : 1] * sq.x + cube[n.y >= 0.0f ? 2 : 3] * sq.y + cube[n.z >= 0.0f ? 4 : 5] * sq.z;
}

namespace {

// Samples in a coarse uniform grid of buckets, for nearest-sample queries over the whole map.
struct SampleBuckets {
    Vec3 origin;
    float cell = 1;
    int32_t dims[3] = {1, 1, 1};
    std::vector<uint32_t> start;  // per bucket, into items; one extra at the end
    std::vector<uint32_t> items;  // sample indices, ascending within a bucket

    int32_t coord(float v, int a) const {
        const float c = std::floor((v - origin[a]) / cell);
        return c > 0.0f ? (c < float(dims[a] - 1) ? int32_t(c) : dims[a] - 1) : 0;  // NaN -> 0
    }
    size_t bucket(int32_t x, int32_t y, int32_t z) const {
        return (size_t(z) * size_t(dims[1]) + size_t(y)) * size_t(dims[0]) + size_t(x);
    }
};

SampleBuckets makeBuckets(const std::vector<AmbientSample>& samples, const std::vector<uint32_t>& usable) {
    SampleBuckets b;
    Bounds box;
    for (uint32_t k : usable) box.grow(samples[k].position);
    const Vec3 size = box.size();
    // About two samples a bucket; the edge never below 1 unit, and at most ~2M buckets.
    const double volume = std::max(double(size.x), 1.0) * std::max(double(size.y), 1.0) * std::max(double(size.z), 1.0);
    const double target = std::clamp(double(usable.size()) / 2.0, 1.0, double(1 << 21));
    b.cell = float(std::max(std::cbrt(volume / target), 1.0));
    b.origin = box.mins;
    size_t total = 1;
    for (int a = 0; a < 3; ++a) {
        b.dims[a] = std::clamp(int32_t(std::floor(size[a] / b.cell)) + 1, 1, 1 << 10);
        total *= size_t(b.dims[a]);
    }
    std::vector<uint32_t> count(total + 1, 0);
    std::vector<size_t> of(usable.size());
    for (size_t i = 0; i < usable.size(); ++i) {
        const Vec3 p = samples[usable[i]].position;
        of[i] = b.bucket(b.coord(p.x, 0), b.coord(p.y, 1), b.coord(p.z, 2));
        ++count[of[i] + 1];
    }
    for (size_t i = 0; i < total; ++i) count[i + 1] += count[i];
    b.start = count;
    b.items.resize(usable.size());
    for (size_t i = 0; i < usable.size(); ++i) b.items[count[of[i]]++] = usable[i];
    return b;
}

float distSq(Vec3 a, Vec3 b) {
    const Vec3 d = a - b;
    return dot(d, d);
}

// Index of the usable sample nearest q (ties: lowest index), searching rings of buckets outward until no
// unvisited bucket can hold anything nearer.
uint32_t nearestSample(const SampleBuckets& b, const std::vector<AmbientSample>& samples, Vec3 q) {
    const int32_t c[3] = {b.coord(q.x, 0), b.coord(q.y, 1), b.coord(q.z, 2)};
    const int32_t maxRing = std::max(b.dims[0], std::max(b.dims[1], b.dims[2]));
    uint32_t best = std::numeric_limits<uint32_t>::max();
    float bestD = std::numeric_limits<float>::infinity();
    auto visit = [&](int32_t x, int32_t y, int32_t z) {
        const size_t bk = b.bucket(x, y, z);
        for (uint32_t i = b.start[bk]; i < b.start[bk + 1]; ++i) {
            const uint32_t k = b.items[i];
            const float d = distSq(samples[k].position, q);
            if (d < bestD || (d == bestD && k < best)) {
                bestD = d;
                best = k;
            }
        }
    };
    for (int32_t r = 0; r <= maxRing; ++r) {
        // Only the shell of the ring (Chebyshev distance r): inner buckets were searched by smaller rings.
        const int32_t x0 = c[0] - r, x1 = c[0] + r;
        for (int32_t z = std::max(c[2] - r, 0); z <= std::min(c[2] + r, b.dims[2] - 1); ++z)
            for (int32_t y = std::max(c[1] - r, 0); y <= std::min(c[1] + r, b.dims[1] - 1); ++y) {
                if (std::abs(z - c[2]) == r || std::abs(y - c[1]) == r) {
                    for (int32_t x = std::max(x0, 0); x <= std::min(x1, b.dims[0] - 1); ++x) visit(x, y, z);
                } else {
                    if (x0 >= 0) visit(x0, y, z);
                    if (r > 0 && x1 < b.dims[0]) visit(x1, y, z);
                }
            }
        // Every bucket outside ring r is at least r whole buckets from q's (clamped) bucket.
        const float reach = float(r) * b.cell;
        if (best != std::numeric_limits<uint32_t>::max() && bestD < reach * reach) break;
    }
    return best;
}

}  // namespace

ProbeSampler makeProbeSampler(const World& world) {
    ProbeSampler s;
    s.world = &world;
    s.kind = probeKind(world);
    if (s.kind != ProbeKind::Cubes) return s;
    const size_t numLeaves = world.leaves.size();
    s.sampleLeaf.assign(numLeaves, -1);
    // Owner leaf of each sample (the decoder guarantees at most one); unowned samples are unreachable.
    const size_t numSamples = world.ambientSamples.size();
    std::vector<int32_t> owner(numSamples, -1);
    for (size_t i = 0; i < numLeaves && i < world.leafAmbient.size(); ++i) {
        const auto [first, count] = world.leafAmbient[i];
        if (count == 0 || size_t(first) + count > numSamples) continue;
        for (uint32_t k = first; k < first + count; ++k)
            if (owner[k] < 0) owner[k] = int32_t(i);
        s.sampleLeaf[i] = int32_t(i);
    }
    std::vector<uint32_t> usable;
    for (size_t k = 0; k < numSamples; ++k)
        if (owner[k] >= 0 && isFinite(world.ambientSamples[k].position)) usable.push_back(uint32_t(k));
    if (usable.empty()) return s;
    const SampleBuckets buckets = makeBuckets(world.ambientSamples, usable);
    // Each leaf's answer depends on nothing but the leaf: any thread count gives the same table.
    tbb::parallel_for(tbb::blocked_range<size_t>(0, numLeaves, 256), [&](const tbb::blocked_range<size_t>& r) {
        for (size_t i = r.begin(); i != r.end(); ++i) {
            const Leaf& leaf = world.leaves[i];
            if (s.sampleLeaf[i] >= 0 || leaf.cluster < 0) continue;
            const Vec3 centre = (leaf.mins + leaf.maxs) * 0.5f;
            const uint32_t k = nearestSample(buckets, world.ambientSamples, isFinite(centre) ? centre : Vec3{});
            if (k < numSamples) s.sampleLeaf[i] = owner[k];
        }
    });
    return s;
}

AmbientCube sampleCubes(const ProbeSampler& sampler, Vec3 p) {
    AmbientCube out{};
    if (sampler.kind != ProbeKind::Cubes || !sampler.world) return out;
    const World& world = *sampler.world;
    const int32_t leaf = findLeaf(world, p);
    if (leaf < 0 || size_t(leaf) >= sampler.sampleLeaf.size()) return out;
    const int32_t from = sampler.sampleLeaf[size_t(leaf)];
    if (from < 0 || size_t(from) >= world.leafAmbient.size()) return out;
    const auto [first, count] = world.leafAmbient[size_t(from)];
    if (count == 0 || size_t(first) + count > world.ambientSamples.size()) return out;
    float total = 0;
    for (uint32_t k = first; k < first + count; ++k) {
        const AmbientSample& s = world.ambientSamples[k];
        const float w = 1.0f / (1.0f + distSq(s.position, p));
        total += w;
        for (size_t side = 0; side < 6; ++side) out[side] += s.sides[side] * w;
    }
    if (total > 0.0f)
        for (Vec3& side : out) side *= 1.0f / total;
    return out;
}

Vec3 probeLight(const ProbeSampler& sampler, Vec3 p, Vec3 n) {
    switch (sampler.kind) {
        case ProbeKind::Grid:
            return sampler.world && sampler.world->grid ? evalGridSample(sampleGrid(*sampler.world->grid, p), n)
                                                        : Vec3{};
        case ProbeKind::Cubes: return evalCube(sampleCubes(sampler, p), n);
        case ProbeKind::None: break;
    }
    return {};
}

ProbeValues storedProbes(const World& world) {
    ProbeValues v;
    v.kind = probeKind(world);
    if (v.kind == ProbeKind::Grid) v.grid = world.grid->samples;
    if (v.kind == ProbeKind::Cubes) {
        v.cubes.reserve(world.ambientSamples.size());
        for (const AmbientSample& s : world.ambientSamples) v.cubes.push_back(s.sides);
    }
    return v;
}

std::vector<Vec3> probePositions(const World& world) {
    std::vector<Vec3> out;
    switch (probeKind(world)) {
        case ProbeKind::Grid:
            out.reserve(world.grid->samples.size());
            for (size_t i = 0; i < world.grid->samples.size(); ++i) out.push_back(gridPointPosition(*world.grid, i));
            break;
        case ProbeKind::Cubes:
            out.reserve(world.ambientSamples.size());
            for (const AmbientSample& s : world.ambientSamples) out.push_back(s.position);
            break;
        case ProbeKind::None: break;
    }
    return out;
}

const char* probeKindName(ProbeKind kind) {
    switch (kind) {
        case ProbeKind::Grid: return "light grid";
        case ProbeKind::Cubes: return "ambient cubes";
        case ProbeKind::None: break;
    }
    return "no probes";
}

void checkProbeValues(const World& world, const ProbeValues& values) {
    const ProbeKind kind = probeKind(world);
    const size_t have = kind == ProbeKind::Grid    ? world.grid->samples.size()
                        : kind == ProbeKind::Cubes ? world.ambientSamples.size()
                                                   : 0;
    if (values.kind != kind || values.size() != have)
        throw UsageError(world.file + ": " + std::to_string(values.size()) + " probe values (" +
                         probeKindName(values.kind) + ") do not fit the map's " + std::to_string(have) + " (" +
                         probeKindName(kind) + ")");
}

void applyProbes(World& world, const ProbeValues& values) {
    const ProbeKind kind = probeKind(world);
    if (kind == ProbeKind::None) throw UsageError(world.file + ": the map has no light grid or ambient cubes");
    checkProbeValues(world, values);
    if (kind == ProbeKind::Grid)
        world.grid->samples = values.grid;
    else
        for (size_t k = 0; k < world.ambientSamples.size(); ++k) world.ambientSamples[k].sides = values.cubes[k];
}

}  // namespace luxel
