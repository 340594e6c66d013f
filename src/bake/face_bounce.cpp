// ericw-tools' face bounce (see face_bounce.hpp).
#include "luxel/bake/face_bounce.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <fmt/format.h>

#include "luxel/bake/bounce.hpp"
#include "luxel/light/face_emitter.hpp"

namespace luxel {

namespace {

constexpr uint8_t kNoStyle = 255;
// Luxels this close outside a bounce light's probed box still count (the probes are sparse at grazing angles).
constexpr float kReachMargin = 32;

// Mean of the surface's rectangle in `page` (every texel: ericw-tools divides by the whole lightmap's count).
Vec3 rectMean(const LightmapPage& page, const std::array<int32_t, 4>& rect) {
    const int32_t x0 = std::max(0, rect[0]), y0 = std::max(0, rect[1]);
    const int32_t x1 = std::min(page.width, rect[0] + rect[2]), y1 = std::min(page.height, rect[1] + rect[3]);
    if (x1 <= x0 || y1 <= y0 || page.rgb.size() < size_t(page.width) * size_t(page.height) * 3) return {};
    double r = 0, g = 0, b = 0;
    for (int32_t y = y0; y < y1; ++y)
        for (int32_t x = x0; x < x1; ++x) {
            const float* t = page.rgb.data() + (size_t(y) * size_t(page.width) + size_t(x)) * 3;
            r += t[0], g += t[1], b += t[2];
        }
    const double n = double(rect[2]) * double(rect[3]);
    return {float(r / n), float(g / n), float(b / n)};
}

double meanLuminance(const std::array<std::vector<LightmapPage>, 4>& slots) {
    double sum = 0;
    size_t count = 0;
    for (const LightmapPage& p : slots[0]) {
        for (size_t i = 0; i + 2 < p.rgb.size(); i += 3) sum += luminance(Vec3{p.rgb[i], p.rgb[i + 1], p.rgb[i + 2]});
        count += p.rgb.size() / 3;
    }
    return count ? sum / double(count) : 0;
}

// ericw-tools' RAYS visibility estimate: rays from each light's point over the half space in front of it;
// the box of where they end (at the envelope when they hit nothing) is where it can reach.
void setReachBounds(const RayScene& scene, std::vector<Light>& lights, int rays) {
    if (rays <= 0) return;
    tbb::parallel_for(tbb::blocked_range<size_t>(0, lights.size(), 8), [&](const tbb::blocked_range<size_t>& r) {
        std::vector<Vec3> dirs;
        RayHit hits[16];
        for (size_t i = r.begin(); i != r.end(); ++i) {
            Light& l = lights[i];
            dirs = hemisphereDirections(rays, 1, i, l.normal);
            const float far = std::isfinite(l.envelope) ? l.envelope : 1.0e6f;
            Vec3 lo = l.origin, hi = l.origin;
            for (size_t first = 0; first < dirs.size(); first += 16) {
                const int count = int(std::min<size_t>(16, dirs.size() - first));
                scene.intersect(l.origin, dirs.data() + first, count, 0.0f, far, hits);
                for (int k = 0; k < count; ++k) {
                    const Vec3 end = l.origin + dirs[first + size_t(k)] * (hits[k].hit ? hits[k].t : far);
                    lo = vmin(lo, end), hi = vmax(hi, end);
                }
            }
            const Vec3 margin{kReachMargin, kReachMargin, kReachMargin};
            l.reachMins = lo - margin, l.reachMaxs = hi + margin;
        }
    });
}

}  // namespace

std::vector<Light> faceBounceLights(const World& world, const std::array<std::vector<LightmapPage>, 4>& from,
                                    const FaceBounceModel& model) {
    std::vector<Light> out;
    EmitterRules rules;  // plain cosines, the bounce's clamp and scale
    rules.scale = model.scale, rules.minDistance = model.minDistance;
    rules.occlusionScale = model.occlusionScale, rules.occlusionGain = model.occlusionGain;
    for (size_t i = 0; i < world.surfaces.size(); ++i) {
        const Surface& s = world.surfaces[i];
        if (i >= model.emits.size() || !model.emits[i] || s.lightmapPage < 0 || s.lightmapRect[2] <= 0 || s.lightmapRect[3] <= 0)
            continue;
        const FaceEmitter e = faceEmitter(world, s);
        if (!(e.area > 0)) continue;
        const Vec3 albedo = i < model.albedo.size() ? model.albedo[i] : Vec3{1, 1, 1};
        for (size_t k = 0; k < 4; ++k) {
            if (s.styles[k] == kNoStyle || size_t(s.lightmapPage) >= from[k].size()) continue;
            const Vec3 emit = rectMean(from[k][size_t(s.lightmapPage)], s.lightmapRect) * albedo;
            if (!(std::max({emit.x, emit.y, emit.z}) > 0)) continue;
            Light l = emitterLight(e.point, e.normal, emit * 255.0f, e.area, rules);
            l.style = s.styles[k];
            l.source = fmt::format("bounce of surface {}", i);
            out.push_back(std::move(l));
        }
    }
    return out;
}

FaceBounceStats bounceFaces(const World& world, const Geometry& geometry, const RayScene& scene, LightmapSet& set,
                            const DirectBakeRules& rules, const FaceBounceModel& model, const LuxelSamples* samples) {
    const auto start = std::chrono::steady_clock::now();
    FaceBounceStats stats;
    DirectBakeRules bounceRules = rules;
    bounceRules.ambient = {}, bounceRules.minimum = {};
    bounceRules.surfaceMinimum.clear();
    bounceRules.occlusion.minimumScale = 0;
    bounceRules.floorAfterBounce = true;  // floors are the caller's
    // The floors, ambient and dirt-dimmed floor differ from the direct bake's; where luxels sample light does not.
    LuxelSamples measured;
    if (!samples) {
        measured = luxelSamples(world, geometry, scene, bounceRules);
        samples = &measured;
    }
    std::array<std::vector<LightmapPage>, 4> from = set.slots;
    for (int pass = 0; pass < model.bounces; ++pass) {
        std::vector<Light> lights = faceBounceLights(world, from, model);
        setReachBounds(scene, lights, model.probeRays);
        stats.lights += lights.size();
        if (lights.empty()) break;  // "No bounces; indirect lighting halted"
        DirectBakeStats direct;
        LightmapSet added = bakeLightmapsDirect(world, geometry, scene, lights, bounceRules, direct, samples);
        stats.shadowRays += direct.shadowRays;
        stats.luxels = direct.luxels;
        for (size_t k = 0; k < 4; ++k)
            for (size_t p = 0; p < set.slots[k].size() && p < added.slots[k].size(); ++p) {
                std::vector<float>& total = set.slots[k][p].rgb;
                const std::vector<float>& more = added.slots[k][p].rgb;
                for (size_t t = 0; t < total.size() && t < more.size(); ++t) total[t] += more[t];
            }
        stats.meanLuminance.push_back(meanLuminance(added.slots));
        from = std::move(added.slots);
    }
    stats.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return stats;
}

}  // namespace luxel
