// The direct-light baker (see direct_light.hpp).
#include "luxel/bake/direct_light.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

#include "luxel/bake/face_pvs.hpp"
#include "luxel/bake/grid_points.hpp"
#include "luxel/bake/occlusion.hpp"
#include "luxel/light/luxels.hpp"
#include "luxel/vis/visibility.hpp"

namespace luxel {

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// Suns are this far away: past every map (Quake 3 and Source worlds end within 2^16 units).
constexpr float kSunDistance = 1.0e6f;

// Shadow rays of one receiver point or of a run of luxels, fired as Embree packets of up to 16: a sun's ray
// must leave the map through the sky (sky triangles let it through; the rules' sunRay says whether it must
// also meet one), any other light's must reach it, stopping kShadowBias short. Hits nearer than `tNear` do not
// count (q3map2's inhibit radius).
class ShadowPackets {
public:
    ShadowPackets(const RayScene& scene, float tNear, ShadowRay sunRay) : scene_(scene), tNear_(tNear), sunRay_(sunRay) {}
    // Queues the ray from `from` towards the light of `a`; returns false (and queues nothing) when the ray is
    // too short to be blocked. Up to 16 rays of one kind at a time.
    bool add(const Light& light, const LightArrival& a, Vec3 from) {
        const bool sun = light.kind == Light::Kind::Sun;
        const float far = sun ? kSunDistance : a.distance - kShadowBias;
        if (!(far > tNear_)) return false;
        kind_ = sun ? sunRay_ : ShadowRay::Light;
        origins_[count_] = from, directions_[count_] = a.toLight, far_[count_] = far;
        ++count_;
        return true;
    }
    bool full() const { return count_ == 16; }
    int size() const { return count_; }
    // Fires the queued rays: bit i set when ray i is blocked; with `tint`, what windows leave of ray i's light.
    // Empties the queue.
    uint32_t fire(Vec3* tint = nullptr) {
        const uint32_t blocked = count_ > 0 ? scene_.occluded(origins_, directions_, far_, count_, tNear_, kind_, tint) : 0;
        count_ = 0;
        return blocked;
    }

private:
    const RayScene& scene_;
    float tNear_;
    ShadowRay sunRay_;
    ShadowRay kind_ = ShadowRay::Light;
    int count_ = 0;
    Vec3 origins_[16], directions_[16];
    float far_[16] = {};
};

// Whether the whole box lies past the light's envelope (never for suns).
bool beyondEnvelope(const Light& l, Vec3 mins, Vec3 maxs) {
    if (l.kind == Light::Kind::Sun || !std::isfinite(l.envelope)) return false;
    const Vec3 q{std::clamp(l.origin.x, mins.x, maxs.x), std::clamp(l.origin.y, mins.y, maxs.y),
                 std::clamp(l.origin.z, mins.z, maxs.z)};
    const Vec3 d = q - l.origin;
    return dot(d, d) > l.envelope * l.envelope;
}

// The lights that can reach a box: within their envelope of it (suns always).
std::vector<uint32_t> lightsNear(const std::vector<Light>& lights, Vec3 mins, Vec3 maxs) {
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < lights.size(); ++i) {
        const Light& l = lights[i];
        if (maxs.x < l.reachMins.x || maxs.y < l.reachMins.y || maxs.z < l.reachMins.z || mins.x > l.reachMaxs.x ||
            mins.y > l.reachMaxs.y || mins.z > l.reachMaxs.z)
            continue;
        if (beyondEnvelope(l, mins, maxs)) continue;
        out.push_back(i);
    }
    return out;
}

// Whether every point of the box (mins, maxs) lies where a cosine-culled light's emitter cosine, or the
// cosine at a receiver plane of unit normal `receiver` (when given), is below -0.01. Both tests are
// dot(a, p - q) + 0.01 |p - q| < 0 for the whole box, a convex function of p: its corners decide.
bool outsideCosines(const Light& l, Vec3 mins, Vec3 maxs, const Vec3* receiver) {
    bool emitterOut = true, receiverOut = receiver != nullptr;
    for (int c = 0; c < 8; ++c) {
        const Vec3 p{c & 1 ? maxs.x : mins.x, c & 2 ? maxs.y : mins.y, c & 4 ? maxs.z : mins.z};
        const Vec3 d = p - l.origin;
        const float len = length(d);
        if (dot(l.normal, d) + 0.01f * len >= 0) emitterOut = false;
        if (receiver && -dot(*receiver, d) + 0.01f * len >= 0) receiverOut = false;
    }
    return emitterOut || receiverOut;
}

// Each light's PVS cluster (-1, seen from everywhere, for suns and when the rules use no PVS).
std::vector<int32_t> lightClusters(const World& world, const std::vector<Light>& lights, const DirectBakeRules& rules) {
    std::vector<int32_t> out(lights.size(), -1);
    if (!rules.usePvs) return out;
    for (size_t i = 0; i < lights.size(); ++i)
        if (lights[i].kind != Light::Kind::Sun)
            out[i] = rules.facePvs ? lightCullCluster(world, lights[i].origin) : findCluster(world, lights[i].origin);
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
                                const std::vector<Light>& lights, const DirectBakeRules& rules, DirectBakeStats& stats,
                                const LuxelSamples* given) {
    const ArrivalFn arrival = rules.arrival;
    const std::vector<int32_t> lightCluster = lightClusters(world, lights, rules);
    const auto start = Clock::now();
    LuxelSamples measured;
    if (!given) measured = luxelSamples(world, geometry, scene, rules);
    const LuxelSamples& samples = given ? *given : measured;
    LightmapSet out;
    out.slots[0] = blankPages(world.lightmaps);
    for (size_t k = 1; k < 4; ++k) out.slots[k] = blankPages(world.extraLightmapSlots[k - 1]);
    const bool deluxe = !world.deluxemaps.empty();
    out.deluxe = blankPages(world.deluxemaps);
    if (rules.floorAfterBounce) out.floor = blankPages(world.lightmaps);
    auto flagged = [](const std::vector<bool>& v, uint32_t i) { return i < v.size() && v[i]; };
    const std::vector<Luxel>& luxels = samples.luxels;
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
    std::vector<Vec3> light(values), direction(deluxe ? luxels.size() : 0), floor(rules.floorAfterBounce ? luxels.size() : 0);
    const std::vector<uint8_t>& hole = samples.hole;
    // ericw-tools' vis culling of light entities by the leaves listing a world face.
    const bool facePvs = rules.usePvs && rules.facePvs;
    const std::vector<std::vector<uint32_t>> listing = facePvs ? leavesListing(world) : std::vector<std::vector<uint32_t>>{};
    const uint32_t worldBegin = world.models.empty() ? 0 : world.models[0].firstSurface;
    const uint32_t worldEnd = world.models.empty() ? uint32_t(world.surfaces.size()) : worldBegin + world.models[0].numSurfaces;
    auto entityLight = [](const Light& l) { return l.kind == Light::Kind::Point || l.kind == Light::Kind::Spot; };
    std::atomic<uint64_t> rays{0}, blocked{0}, sunNs{0};
    tbb::parallel_for(tbb::blocked_range<size_t>(0, runs.size(), 1), [&](const tbb::blocked_range<size_t>& r) {
        uint64_t myRays = 0, myBlocked = 0;
        Clock::duration mySun{};  // this thread's time in sun lights
        for (size_t k = r.begin(); k != r.end(); ++k) {
            const Run& run = runs[k];
            const auto& styles = world.surfaces[luxels[run.begin].surface].styles;
            const bool freeSlot = std::find(styles.begin(), styles.end(), kNoStyle) != styles.end();
            Vec3 mins = luxels[run.begin].position, maxs = mins;
            for (size_t i = run.begin; i < run.end; ++i)
                mins = vmin(mins, luxels[i].position), maxs = vmax(maxs, luxels[i].position);
            // Each near light with the slot it lights (kNoSlot: none, counted only in the direction).
            std::vector<std::pair<uint32_t, size_t>> near;
            // One plane for the run's luxels (the receiver side of Light::cosineCulled), unless translucent.
            const Vec3 runNormal = luxels[run.begin].normal;
            const uint32_t surface = luxels[run.begin].surface;
            const bool translucent = flagged(rules.translucent, surface);
            bool planar = !translucent;
            for (size_t i = run.begin; i < run.end && planar; ++i) planar = luxels[i].normal == runNormal;
            const bool byFace = facePvs && surface >= worldBegin && surface < worldEnd && surface < listing.size();
            const FaceSight sight = byFace ? faceSight(world, listing[surface]) : FaceSight{};
            const bool sunCull = rules.sunFaceCull && !flagged(rules.curved, surface) && !translucent;
            Vec3 sphereCentre;
            float sphereRadius = -1;  // < 0: no sphere cull
            if (rules.faceSphereCull && surface < geometry.surfaces.size() && geometry.surfaces[surface].numVertices > 0) {
                const DrawSurface& d = geometry.surfaces[surface];
                Vec3 lo = geometry.vertices[d.firstVertex].position, hi = lo;
                for (uint32_t k = 1; k < d.numVertices; ++k)
                    lo = vmin(lo, geometry.vertices[d.firstVertex + k].position), hi = vmax(hi, geometry.vertices[d.firstVertex + k].position);
                sphereCentre = lo + (hi - lo) * 0.5f;
                sphereRadius = length((hi - lo) * 0.5f);
            }
            for (uint32_t li : lightsNear(lights, mins, maxs)) {
                if (byFace && entityLight(lights[li]) && !sight.sees(lightCluster[li])) continue;
                if (sunCull && lights[li].kind == Light::Kind::Sun && dot(runNormal, normalize(lights[li].direction)) > 0.01f) continue;
                if (sphereRadius >= 0 && entityLight(lights[li]) && std::isfinite(lights[li].envelope) &&
                    length(lights[li].origin - sphereCentre) - sphereRadius >= lights[li].envelope)
                    continue;
                if (lights[li].cosineCulled && outsideCosines(lights[li], mins, maxs, planar ? &runNormal : nullptr)) continue;
                const size_t slot = size_t(std::find(styles.begin(), styles.end(), lights[li].style) - styles.begin());
                if (slot < 4 || (deluxe && freeSlot)) near.push_back({li, slot < 4 ? slot : kNoSlot});
            }
            // Up to 16 luxels at a time, light by light: each light's shadow rays of the group go as one packet
            // (one surface's luxels lie close together, so the rays are coherent). Every luxel still adds its
            // lights in the list's order, so the sums are the same bits for any grouping and thread count.
            LightArrival arrivals[16];
            size_t queued[16];
            ShadowPackets packet(scene, rules.inhibitRadius, rules.sunRay);
            for (size_t g = run.begin; g < run.end; g += 16) {
                const size_t count = std::min<size_t>(16, run.end - g);
                const Vec3* sample = samples.sample.data() + g;
                const Vec3* from = samples.from.data() + g;
                const int32_t* cluster = samples.cluster.data() + g;
                const float* occlusion = samples.occlusion.data() + g;
                Vec3 dir[16], normal[16];
                for (size_t j = 0; j < count; ++j) {
                    const Luxel& x = luxels[g + j];
                    normal[j] = x.normal;
                    dir[j] = x.normal * rules.deluxeNormal;
                    Vec3* sum = light.data() + run.first + (g + j - run.begin) * run.used;
                    for (size_t s = 0; s < run.used; ++s) sum[s] = styles[s] == 0 ? rules.ambient : Vec3{};
                }
                Vec3 groupMins = sample[0], groupMaxs = sample[0];
                for (size_t j = 1; j < count; ++j)
                    groupMins = vmin(groupMins, sample[j]), groupMaxs = vmax(groupMaxs, sample[j]);
                // The dirt factors of the last (scale, gain) asked for: a bounce's lights all share one.
                float dirtScale = NAN, dirtGain = NAN, dirt[16];
                Clock::time_point sunStart;
                bool inSun = false;
                for (const auto& [li, slot] : near) {
                    const Light& l = lights[li];
                    if ((l.kind == Light::Kind::Sun) != inSun) {
                        const Clock::time_point now = Clock::now();
                        if (inSun) mySun += now - sunStart;
                        sunStart = now, inSun = !inSun;
                    }
                    // The run's culls again on the group's own, smaller box (of the points the light is taken
                    // at: past the envelope every arrival there is below the cutoff).
                    if (beyondEnvelope(l, groupMins, groupMaxs)) continue;
                    if (l.cosineCulled && outsideCosines(l, groupMins, groupMaxs, planar ? &runNormal : nullptr)) continue;
                    uint32_t lit = 0;  // bit j: luxel j gets this light
                    const bool perSample = !(byFace && entityLight(l));  // else the face saw it above
                    arrival(l, sample, normal, count, arrivals);
                    if (l.occlusionScale > 0 && !(l.occlusionScale == dirtScale && l.occlusionGain == dirtGain)) {
                        dirtScale = l.occlusionScale, dirtGain = l.occlusionGain;
                        for (size_t j = 0; j < count; ++j) dirt[j] = occlusionFactor(occlusion[j], dirtScale, dirtGain);
                    }
                    for (size_t j = 0; j < count; ++j) {
                        if (hole[g + j] || (perSample && !world.pvs.visible(cluster[j], lightCluster[li]))) continue;
                        // Lit from both sides: the cosine as |cos| (a sun's arrival reaches either way, so the brighter).
                        if (translucent && (!arrivals[j].reaches() || l.kind == Light::Kind::Sun)) {
                            const LightArrival back = arrivalAt(arrival, l, sample[j], -normal[j]);
                            auto sum = [](Vec3 c) { return std::fabs(c.x) + std::fabs(c.y) + std::fabs(c.z); };
                            if (sum(back.color) > sum(arrivals[j].color)) arrivals[j] = back;
                        }
                        if (!arrivals[j].reaches()) continue;
                        if (l.occlusionScale > 0) arrivals[j].color = arrivals[j].color * dirt[j];
                        ++myRays;
                        lit |= 1u << j;
                        if (packet.add(l, arrivals[j], from[j])) queued[packet.size() - 1] = j;
                    }
                    const int fired = packet.size();
                    Vec3 tint[16];
                    const uint32_t hit = packet.fire(rules.tintedShadows ? tint : nullptr);
                    for (int q = 0; q < fired; ++q) {
                        if (hit & (1u << q)) lit &= ~(1u << queued[q]), ++myBlocked;
                        else if (rules.tintedShadows) arrivals[queued[q]].color = arrivals[queued[q]].color * tint[q];
                    }
                    for (size_t j = 0; j < count; ++j) {
                        if (!(lit & (1u << j))) continue;
                        const LightArrival& a = arrivals[j];
                        if (slot != kNoSlot) light[run.first + (g + j - run.begin) * run.used + slot] += a.color;
                        if (deluxe) {
                            const Vec3 c{std::fabs(a.color.x), std::fabs(a.color.y), std::fabs(a.color.z)};
                            dir[j] += a.toLight * dot(c, rules.deluxeWeights);
                        }
                    }
                }
                if (inSun) mySun += Clock::now() - sunStart;
                const Vec3 surfaceFloor =
                    surface < rules.surfaceMinimum.size() ? vmax(rules.minimum, rules.surfaceMinimum[surface]) : rules.minimum;
                for (size_t j = 0; j < count; ++j) {
                    Vec3* sum = light.data() + run.first + (g + j - run.begin) * run.used;
                    const Vec3 f = surfaceFloor * occlusionFactor(occlusion[j], rules.occlusion.minimumScale, rules.occlusion.minimumGain);
                    if (rules.floorAfterBounce) floor[g + j] = f;
                    for (size_t s = 0; s < run.used; ++s)
                        if (styles[s] == 0 && !rules.floorAfterBounce)
                            sum[s] = {std::max(sum[s].x, f.x), std::max(sum[s].y, f.y), std::max(sum[s].z, f.z)};
                    if (deluxe) direction[g + j] = dir[j];
                }
            }
        }
        rays += myRays;
        blocked += myBlocked;
        sunNs += uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(mySun).count());
    });
    stats.sunThreadMs += double(sunNs.load()) / 1e6;
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
            if (float* t = rules.floorAfterBounce ? texel(out.floor, x) : nullptr) t[0] = floor[i].x, t[1] = floor[i].y, t[2] = floor[i].z;
            if (hole[i]) out.holes.push_back({x.page, x.x, x.y, world.surfaces[x.surface].lightmapRect});
            if (float* t = deluxe ? texel(out.deluxe, x) : nullptr) {
                const Vec3 d = direction[i];
                const float len = length(d);
                const Vec3 u = len > 0 ? d / len : Vec3{};
                t[0] = u.x, t[1] = u.y, t[2] = u.z;
            }
        }
    if (rules.fillSolidSamples) {
        // The texels of a surface's rectangle no luxel samples (outside its polygon) are holes too: ericw-tools
        // lights every texel of a face's lightmap, filling those whose sample point it cannot place.
        for (const Run& run : runs) {
            const Surface& s = world.surfaces[luxels[run.begin].surface];
            const auto& rect = s.lightmapRect;
            if (rect[2] <= 0 || rect[3] <= 0 || s.lightmapPage < 0) continue;
            std::vector<uint8_t> covered(size_t(rect[2]) * size_t(rect[3]), 0);
            for (size_t i = run.begin; i < run.end; ++i) {
                const int32_t x = luxels[i].x - rect[0], y = luxels[i].y - rect[1];
                if (x >= 0 && y >= 0 && x < rect[2] && y < rect[3]) covered[size_t(y) * size_t(rect[2]) + size_t(x)] = 1;
            }
            for (int32_t y = 0; y < rect[3]; ++y)
                for (int32_t x = 0; x < rect[2]; ++x)
                    if (!covered[size_t(y) * size_t(rect[2]) + size_t(x)]) out.holes.push_back({s.lightmapPage, rect[0] + x, rect[1] + y, rect});
        }
    }
    for (std::vector<LightmapPage>& slot : out.slots) fillHoles(slot, out.holes);
    stats.shadowRays += rays.load();
    stats.blocked += blocked.load();
    stats.lightmapMs = msSince(start);
    return out;
}

ProbeValues bakeGridDirect(const World& world, const Geometry&, const RayScene& scene, const std::vector<Light>& lights,
                           const DirectBakeRules& rules, DirectBakeStats& stats) {
    const ArrivalFn arrival = rules.arrival;
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
        struct Candidate {
            size_t light;
            LightArrival arrival;
            bool open;
        };
        std::vector<Candidate> candidates;
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
            const int32_t cluster = rules.usePvs ? findCluster(world, p) : -1;
            // The point's rays go out in packets of one kind (suns, other lights); the arrivals are kept in
            // the lights' order whatever the packets.
            candidates.clear();
            for (size_t li = 0; li < lights.size(); ++li) {
                const Light& l = lights[li];
                if (l.style != 0 || !world.pvs.visible(cluster, lightCluster[li])) continue;
                const LightArrival a = arrivalAt(arrival, l, p, Vec3{});
                if (!a.reaches()) continue;
                ++myRays;
                candidates.push_back({li, a, true});
            }
            for (const bool suns : {true, false}) {
                ShadowPackets packet(scene, 0.0f, rules.sunRay);
                size_t queued[16];
                auto fire = [&] {
                    const int fired = packet.size();
                    const uint32_t hit = packet.fire();
                    for (int q = 0; q < fired; ++q)
                        if (hit & (1u << q)) candidates[queued[q]].open = false, ++myBlocked;
                };
                for (size_t c = 0; c < candidates.size(); ++c) {
                    const Light& l = lights[candidates[c].light];
                    if ((l.kind == Light::Kind::Sun) != suns) continue;
                    if (packet.add(l, candidates[c].arrival, p)) queued[packet.size() - 1] = c;
                    if (packet.full()) fire();
                }
                fire();
            }
            arrivals.clear();
            for (const Candidate& c : candidates)
                if (c.open) arrivals.push_back(c.arrival);
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
