// Direct light into ambient cubes (see direct_cubes.hpp).
#include "luxel/bake/direct_cubes.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <chrono>


namespace luxel {

namespace {

// Past every map: Source worlds end within +-16384 units (vrad's rays are COORD_EXTENT * 1.74 long).
constexpr float kSkyRayLength = 1.0e6f;
// Shadow rays to a light stop this far short of it, so the face it sits on does not shadow it.
constexpr float kShadowBias = 0.25f;

// A sun's ray must leave through the sky (vrad's TestLine_DoesHitSky: the map is sealed, so a ray that meets
// nothing but sky gets out); any other light's must reach it.
bool visible(const RayScene& scene, const Light& light, const LightArrival& a, Vec3 from) {
    if (light.kind == Light::Kind::Sun) return !scene.occluded(from, a.toLight, 0.0f, kSkyRayLength, ShadowRay::Sun);
    const float far = a.distance - kShadowBias;
    return !(far > 0) || !scene.occluded(from, a.toLight, 0.0f, far);
}

}  // namespace

ProbeValues bakeCubesDirect(const World& world, const Geometry&, const RayScene& scene,
                            const std::vector<Light>& lights, const DirectBakeRules& rules, DirectBakeStats& stats) {
    ProbeValues out;
    if (world.ambientSamples.empty() || !rules.cubeCombine) return out;
    const auto start = std::chrono::steady_clock::now();
    std::vector<uint32_t> probeLights;
    for (uint32_t i = 0; i < lights.size(); ++i)
        if (lights[i].style == 0 && (!rules.cubesTakeFlaggedOnly || lights[i].inProbes)) probeLights.push_back(i);
    out.kind = ProbeKind::Cubes;
    out.cubes.assign(world.ambientSamples.size(), AmbientCube{});
    std::atomic<uint64_t> rays{0}, blocked{0};
    tbb::parallel_for(tbb::blocked_range<size_t>(0, world.ambientSamples.size(), 16), [&](const tbb::blocked_range<size_t>& r) {
        uint64_t myRays = 0, myBlocked = 0;
        std::vector<LightArrival> arrivals;
        for (size_t i = r.begin(); i != r.end(); ++i) {
            const Vec3 p = world.ambientSamples[i].position;
            arrivals.clear();
            for (uint32_t li : probeLights) {
                const Light& l = lights[li];
                const LightArrival a = arrivalAt(rules.arrival, l, p, Vec3{});
                if (!a.reaches()) continue;
                ++myRays;
                if (!visible(scene, l, a, p)) {
                    ++myBlocked;
                    continue;
                }
                arrivals.push_back(a);
            }
            out.cubes[i] = rules.cubeCombine(arrivals);
        }
        rays += myRays;
        blocked += myBlocked;
    });
    stats.shadowRays += rays.load();
    stats.blocked += blocked.load();
    stats.gridPoints = world.ambientSamples.size();
    stats.gridMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return out;
}

}  // namespace luxel
