// Where a lightmap bake samples each luxel, and ericw-tools' tests of points in solid (see direct_light.hpp).
#include "luxel/bake/direct_light.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#include <optional>

#include "luxel/bake/occlusion.hpp"
#include "luxel/light/luxels.hpp"
#include "luxel/vis/visibility.hpp"

namespace luxel {

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// ericw-tools' Light_PointInSolid_r: a point within 0.1 of a node's plane is looked up on both sides, and a solid
// or sky leaf on either makes it solid. `budget` bounds the walk on hostile trees (each node visited at most
// once on a path; both sides only near planes).
bool solidForSamples(const World& world, int32_t index, Vec3 p, int& budget) {
    if (--budget < 0) return false;
    if (index < 0) {
        const int64_t l = -(int64_t(index) + 1);
        if (l >= int64_t(world.leaves.size())) return false;
        const Leaf& leaf = world.leaves[size_t(l)];
        return leaf.cluster < 0 || leaf.sky;
    }
    if (size_t(index) >= world.nodes.size()) return false;
    const Node& node = world.nodes[size_t(index)];
    if (node.plane < 0 || size_t(node.plane) >= world.planes.size()) return false;
    const Plane& plane = world.planes[size_t(node.plane)];
    const double d = double(dot(plane.normal, p)) - double(plane.dist);
    if (d > 0.1) return solidForSamples(world, node.children[0], p, budget);
    if (d < -0.1) return solidForSamples(world, node.children[1], p, budget);
    return solidForSamples(world, node.children[0], p, budget) || solidForSamples(world, node.children[1], p, budget);
}

}  // namespace

bool pointInWorldSolid(const World& world, Vec3 p) {
    int budget = 4096;
    return !world.nodes.empty() && solidForSamples(world, 0, p, budget);
}

std::optional<Vec3> movedOutOfSolid(const World& world, Vec3 p, float distance) {
    if (!pointInWorldSolid(world, p)) return p;
    for (int i = 0; i < 6; ++i) {
        Vec3 q = p;
        (i / 2 == 0 ? q.x : i / 2 == 1 ? q.y : q.z) += i % 2 ? distance : -distance;
        if (!pointInWorldSolid(world, q)) return q;
    }
    return std::nullopt;
}

std::optional<Vec3> openSamplePoint(const World& world, Vec3 p, int32_t* leaf) {
    auto open = [&](Vec3 q) {
        const int32_t l = findLeaf(world, q);
        if (leaf) *leaf = l;
        return !pointInWorldSolid(world, q);
    };
    if (open(p)) return p;
    for (int i = 0; i < 8; ++i) {
        const Vec3 q = p + Vec3{i & 4 ? 0.5f : -0.5f, i & 2 ? 0.5f : -0.5f, i & 1 ? 0.5f : -0.5f};
        if (open(q)) return q;
    }
    return std::nullopt;
}

namespace {

// ericw-tools' InterpolateNormal: the normal at `p` of a convex polygon (`points`, fan from the first) with a
// normal at each corner, barycentric in the fan triangle that holds p (the nearest one when none quite does).
Vec3 interpolatedNormal(const DrawVertex* points, uint32_t count, const std::vector<Vec3>& normals, Vec3 p, Vec3 fallback) {
    float bestInside = -1e30f;
    Vec3 best = fallback;
    for (uint32_t k = 1; k + 1 < count; ++k) {
        const Vec3 a = points[0].position, b = points[k].position, c = points[k + 1].position;
        const Vec3 n = cross(b - a, c - a);
        const float area = dot(n, n);
        if (!(area > 0)) continue;
        const float wb = dot(cross(p - a, c - a), n) / area, wc = dot(cross(b - a, p - a), n) / area, wa = 1 - wb - wc;
        const float inside = std::min({wa, wb, wc});
        if (inside <= bestInside) continue;
        bestInside = inside;
        const Vec3 v = normals[0] * wa + normals[k] * wb + normals[k + 1] * wc;
        best = length(v) > 0 ? normalize(v) : fallback;
    }
    return best;
}

}  // namespace

LuxelSamples luxelSamples(const World& world, const Geometry& geometry, const RayScene& scene, const DirectBakeRules& rules) {
    LuxelSamples out;
    out.luxels = luxelCentres(world, geometry, nullptr, rules.luxelReach, rules.phongSmoothed.empty() ? nullptr : &rules.phongSmoothed);
    const size_t n = out.luxels.size();
    out.sample.resize(n), out.from.resize(n), out.cluster.resize(n), out.hole.assign(n, 0), out.occlusion.assign(n, 0.0f);
    const std::vector<Vec3> occlusionRays = occlusionDirections(rules.occlusion);
    // A map with no clusters (no vis) says nothing about where solid is.
    const bool solidKnown = rules.fillSolidSamples &&
                            std::any_of(world.leaves.begin(), world.leaves.end(), [](const Leaf& l) { return l.cluster >= 0; });
    // Blocks of 16 luxels (fixed by index, so the dirt packets are the same for any thread count): first every
    // block's sample points, then, timed apart, its dirt.
    const size_t blocks = (n + 15) / 16;
    std::vector<uint16_t> dirtyOf(blocks, 0);  // bit i - i0: luxel i takes dirt
    tbb::parallel_for(tbb::blocked_range<size_t>(0, blocks, 16), [&](const tbb::blocked_range<size_t>& r) {
        for (size_t block = r.begin(); block != r.end(); ++block) {
            const size_t i0 = block * 16, i1 = std::min(n, i0 + 16);
            uint32_t dirty = 0;
            for (size_t i = i0; i < i1; ++i) {
                const Luxel& x = out.luxels[i];
                Vec3 sample = x.position + x.normal * rules.sampleOffset;
                int32_t leaf = -2;  // -2: not looked up
                if (solidKnown) {
                    const std::optional<Vec3> open = openSamplePoint(world, sample, &leaf);
                    if (open) sample = *open;
                    else out.hole[i] = 1, leaf = -2;
                }
                // Shadow rays start off the plane; the light's angle and the dirt rays take the phong normal.
                out.from[i] = rules.sampleOffset > 0 ? sample : x.position + x.normal * kShadowBias;
                if (x.sampleSurface < rules.phongNormals.size() && !rules.phongNormals[x.sampleSurface].empty()) {
                    const DrawSurface& d = geometry.surfaces[x.sampleSurface];
                    const std::vector<Vec3>& normals = rules.phongNormals[x.sampleSurface];
                    if (normals.size() == d.numVertices)
                        out.luxels[i].normal = interpolatedNormal(geometry.vertices.data() + d.firstVertex, d.numVertices, normals, x.position, x.normal);
                }
                const bool translucent = x.surface < rules.translucent.size() && rules.translucent[x.surface];
                if (!occlusionRays.empty() && !translucent && !out.hole[i]) dirty |= 1u << (i - i0);
                out.sample[i] = sample;
                // The sample's leaf when the shadow rays start at the sample (looked up above), else the start's.
                if (!rules.usePvs) out.cluster[i] = -1;
                else if (leaf != -2 && rules.sampleOffset > 0) out.cluster[i] = leaf < 0 ? -1 : world.leaves[size_t(leaf)].cluster;
                else out.cluster[i] = findCluster(world, out.from[i]);
            }
            dirtyOf[block] = uint16_t(dirty);
        }
    });
    if (occlusionRays.empty()) return out;
    const auto start = Clock::now();
    tbb::parallel_for(tbb::blocked_range<size_t>(0, blocks, 16), [&](const tbb::blocked_range<size_t>& r) {
        for (size_t block = r.begin(); block != r.end(); ++block) {
            const size_t i0 = block * 16;
            uint32_t dirty = dirtyOf[block];
            // The block's dirt, its luxels of one normal (bit for bit: the rays' frame) at a time.
            while (dirty) {
                const Vec3 n = out.luxels[i0 + size_t(std::countr_zero(dirty))].normal;
                Vec3 points[16];
                size_t index[16], count = 0;
                for (uint32_t rest = dirty; rest; rest &= rest - 1) {
                    const size_t i = i0 + size_t(std::countr_zero(rest));
                    if (std::memcmp(&out.luxels[i].normal, &n, sizeof n) != 0) continue;
                    points[count] = out.sample[i], index[count++] = i;
                    dirty &= ~(1u << (i - i0));
                }
                float occlusion[16];
                occlusionOfPoints(scene, geometry, rules, occlusionRays, points, n, count, occlusion);
                for (size_t k = 0; k < count; ++k) out.occlusion[index[k]] = occlusion[k];
            }
        }
    });
    out.occlusionMs = msSince(start);
    return out;
}

}  // namespace luxel
