// The direct-light baker (see direct_light.hpp).
#include "luxel/bake/direct_light.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>

#include "luxel/bake/grid_points.hpp"
#include "luxel/light/luxels.hpp"
#include "luxel/vis/visibility.hpp"

namespace luxel {

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// Shadow rays start this far off the receiver along its normal (grid points: at the point) and stop this far
// short of a light, so neither the receiver nor an emitting surface shadows itself.
constexpr float kShadowBias = 0.25f;
// Suns are this far away: past every map (Quake 3 and Source worlds end within 2^16 units).
constexpr float kSunDistance = 1.0e6f;

// Whether the light's arrival at `from` is unblocked: a sun's ray must leave the map through the sky (sky
// triangles let it through; the map is sealed, so nothing lies beyond them); any other light's must reach it.
bool visible(const RayScene& scene, const Light& light, const LightArrival& a, Vec3 from) {
    if (light.kind == Light::Kind::Sun) return !scene.occluded(from, a.toLight, 0.0f, kSunDistance, ShadowRay::Sun);
    const float far = a.distance - kShadowBias;
    if (!(far > 0)) return true;
    return !scene.occluded(from, a.toLight, 0.0f, far);
}

// The lights that can reach a box: within their envelope of it (suns always).
std::vector<uint32_t> lightsNear(const std::vector<Light>& lights, Vec3 mins, Vec3 maxs) {
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < lights.size(); ++i) {
        const Light& l = lights[i];
        if (l.kind != Light::Kind::Sun && std::isfinite(l.envelope)) {
            const Vec3 q{std::clamp(l.origin.x, mins.x, maxs.x), std::clamp(l.origin.y, mins.y, maxs.y),
                         std::clamp(l.origin.z, mins.z, maxs.z)};
            const Vec3 d = q - l.origin;
            if (dot(d, d) > l.envelope * l.envelope) continue;
        }
        out.push_back(i);
    }
    return out;
}

// Each light's PVS cluster (-1, seen from everywhere, for suns and when the rules use no PVS).
std::vector<int32_t> lightClusters(const World& world, const std::vector<Light>& lights, const DirectBakeRules& rules) {
    std::vector<int32_t> out(lights.size(), -1);
    if (!rules.usePvs) return out;
    for (size_t i = 0; i < lights.size(); ++i)
        if (lights[i].kind != Light::Kind::Sun) out[i] = findCluster(world, lights[i].origin);
    return out;
}

// Pages of the same sizes as `like`, black.
std::vector<LightmapPage> blankPages(const std::vector<LightmapPage>& like) {
    std::vector<LightmapPage> out(like.size());
    for (size_t i = 0; i < like.size(); ++i)
        out[i] = {like[i].width, like[i].height, std::vector<float>(like[i].rgb.size(), 0.0f)};
    return out;
}

// The luxel's texel in `pages` (nullptr when the page is absent or the luxel outside it).
float* texel(std::vector<LightmapPage>& pages, const Luxel& x) {
    if (x.page < 0 || size_t(x.page) >= pages.size()) return nullptr;
    LightmapPage& p = pages[size_t(x.page)];
    if (x.x < 0 || x.y < 0 || x.x >= p.width || x.y >= p.height || p.rgb.size() < size_t(p.width) * size_t(p.height) * 3) return nullptr;
    return p.rgb.data() + (size_t(x.y) * size_t(p.width) + size_t(x.x)) * 3;
}

constexpr uint8_t kNoStyle = 255;                       // Surface::styles of an unused slot
constexpr size_t kNoSlot = std::numeric_limits<size_t>::max();

}  // namespace

LightmapSet bakeLightmapsDirect(const World& world, const Geometry& geometry, const RayScene& scene,
                                const std::vector<Light>& lights, const DirectBakeRules& rules, DirectBakeStats& stats) {
    const ArrivalFn& arrival = rules.arrival;
    const std::vector<int32_t> lightCluster = lightClusters(world, lights, rules);
    const auto start = Clock::now();
    LightmapSet out;
    out.slots[0] = blankPages(world.lightmaps);
    for (size_t k = 1; k < 4; ++k) out.slots[k] = blankPages(world.extraLightmapSlots[k - 1]);
    const bool deluxe = !world.deluxemaps.empty();
    out.deluxe = blankPages(world.deluxemaps);
    const std::vector<Luxel> luxels = luxelCentres(world, geometry);
    stats.luxels = luxels.size();
    // Runs of one surface's luxels: a surface's light list is made once. Each run's luxels keep one value
    // per slot the surface uses (slots 0 .. used - 1) from `first` on, plus a direction when deluxe.
    struct Run {
        size_t begin, end, first, used;
    };
    std::vector<Run> runs;
    size_t values = 0;
    for (size_t i = 0; i < luxels.size();) {
        size_t j = i;
        while (j < luxels.size() && luxels[j].surface == luxels[i].surface) ++j;
        const auto& styles = world.surfaces[luxels[i].surface].styles;
        size_t used = 0;
        for (size_t k = 0; k < 4; ++k)
            if (styles[k] != kNoStyle) used = k + 1;
        runs.push_back({i, j, values, used});
        values += (j - i) * used;
        i = j;
    }
    std::vector<Vec3> light(values), direction(deluxe ? luxels.size() : 0);
    std::atomic<uint64_t> rays{0}, blocked{0};
    tbb::parallel_for(tbb::blocked_range<size_t>(0, runs.size(), 1), [&](const tbb::blocked_range<size_t>& r) {
        uint64_t myRays = 0, myBlocked = 0;
        for (size_t k = r.begin(); k != r.end(); ++k) {
            const Run& run = runs[k];
            const auto& styles = world.surfaces[luxels[run.begin].surface].styles;
            const bool freeSlot = std::find(styles.begin(), styles.end(), kNoStyle) != styles.end();
            Vec3 mins = luxels[run.begin].position, maxs = mins;
            for (size_t i = run.begin; i < run.end; ++i)
                mins = {std::min(mins.x, luxels[i].position.x), std::min(mins.y, luxels[i].position.y), std::min(mins.z, luxels[i].position.z)},
                maxs = {std::max(maxs.x, luxels[i].position.x), std::max(maxs.y, luxels[i].position.y), std::max(maxs.z, luxels[i].position.z)};
            // Each near light with the slot it lights (kNoSlot: none, counted only in the direction).
            std::vector<std::pair<uint32_t, size_t>> near;
            for (uint32_t li : lightsNear(lights, mins, maxs)) {
                const size_t slot = size_t(std::find(styles.begin(), styles.end(), lights[li].style) - styles.begin());
                if (slot < 4 || (deluxe && freeSlot)) near.push_back({li, slot < 4 ? slot : kNoSlot});
            }
            for (size_t i = run.begin; i < run.end; ++i) {
                const Luxel& x = luxels[i];
                const Vec3 from = x.position + x.normal * kShadowBias;
                const int32_t cluster = rules.usePvs ? findCluster(world, from) : -1;
                Vec3* sum = light.data() + run.first + (i - run.begin) * run.used;
                for (size_t s = 0; s < run.used; ++s) sum[s] = styles[s] == 0 ? rules.ambient : Vec3{};
                Vec3 dir = x.normal * rules.deluxeNormal;
                for (const auto& [li, slot] : near) {
                    const Light& l = lights[li];
                    if (!world.pvs.visible(cluster, lightCluster[li])) continue;
                    const LightArrival a = arrival(l, x.position, x.normal);
                    if (!a.reaches()) continue;
                    ++myRays;
                    if (!visible(scene, l, a, from)) {
                        ++myBlocked;
                        continue;
                    }
                    if (slot != kNoSlot) sum[slot] += a.color;
                    if (deluxe) {
                        const Vec3 c{std::fabs(a.color.x), std::fabs(a.color.y), std::fabs(a.color.z)};
                        dir += a.toLight * dot(c, rules.deluxeWeights);
                    }
                }
                for (size_t s = 0; s < run.used; ++s)
                    if (styles[s] == 0)
                        sum[s] = {std::max(sum[s].x, rules.minimum.x), std::max(sum[s].y, rules.minimum.y), std::max(sum[s].z, rules.minimum.z)};
                if (deluxe) direction[i] = dir;
            }
        }
        rays += myRays;
        blocked += myBlocked;
    });
    // Written in luxel order: surfaces that share texels (q3map2's identical-lightmap twins) end the same for
    // any thread count.
    for (const Run& run : runs)
        for (size_t i = run.begin; i < run.end; ++i) {
            const Luxel& x = luxels[i];
            for (size_t s = 0; s < run.used; ++s)
                if (float* t = texel(out.slots[s], x)) {
                    const Vec3 v = light[run.first + (i - run.begin) * run.used + s];
                    t[0] = v.x, t[1] = v.y, t[2] = v.z;
                }
            if (float* t = deluxe ? texel(out.deluxe, x) : nullptr) {
                const Vec3 d = direction[i];
                const float len = length(d);
                const Vec3 u = len > 0 ? d / len : Vec3{};
                t[0] = u.x, t[1] = u.y, t[2] = u.z;
            }
        }
    stats.shadowRays += rays.load();
    stats.blocked += blocked.load();
    stats.lightmapMs = msSince(start);
    return out;
}

ProbeValues bakeGridDirect(const World& world, const Geometry&, const RayScene& scene, const std::vector<Light>& lights,
                           const DirectBakeRules& rules, DirectBakeStats& stats) {
    const ArrivalFn& arrival = rules.arrival;
    const GridCombineFn& combine = rules.combine;
    const std::vector<int32_t> lightCluster = lightClusters(world, lights, rules);
    const auto start = Clock::now();
    ProbeValues out;
    if (!world.grid || !combine) return out;
    const LightGrid& grid = *world.grid;
    out.kind = ProbeKind::Grid;
    out.grid.assign(grid.samples.size(), GridSample{});
    stats.gridPoints = grid.samples.size();
    std::atomic<uint64_t> rays{0}, blocked{0};
    std::atomic<size_t> nudged{0}, solid{0};
    tbb::parallel_for(tbb::blocked_range<size_t>(0, grid.samples.size(), 64), [&](const tbb::blocked_range<size_t>& r) {
        uint64_t myRays = 0, myBlocked = 0;
        std::vector<LightArrival> arrivals;
        for (size_t i = r.begin(); i != r.end(); ++i) {
            Vec3 p = gridPointPosition(grid, i);
            if (inSolid(world, p)) {
                const std::optional<Vec3> free = nudgeOutOfSolid(world, p, grid.cellSize);
                if (!free) {
                    ++solid;
                    continue;
                }
                p = *free;
                ++nudged;
            }
            arrivals.clear();
            const int32_t cluster = rules.usePvs ? findCluster(world, p) : -1;
            for (size_t li = 0; li < lights.size(); ++li) {
                const Light& l = lights[li];
                if (l.style != 0 || !world.pvs.visible(cluster, lightCluster[li])) continue;
                const LightArrival a = arrival(l, p, Vec3{});
                if (!a.reaches()) continue;
                ++myRays;
                if (!visible(scene, l, a, p)) {
                    ++myBlocked;
                    continue;
                }
                arrivals.push_back(a);
            }
            out.grid[i] = combine(arrivals);
        }
        rays += myRays;
        blocked += myBlocked;
    });
    stats.shadowRays += rays.load();
    stats.blocked += blocked.load();
    stats.nudged = nudged.load();
    stats.solid = solid.load();
    stats.gridMs = msSince(start);
    return out;
}

}  // namespace luxel
