// The engine's light for static props without baked vertex light (see prop_lighting.hpp).
#include "luxel/model/prop_lighting.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "luxel/bake/hit_light.hpp"
#include "luxel/bake/ray_scene.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/light/sky_dome.hpp"
#include "luxel/light/source_lights.hpp"
#include "luxel/vis/visibility.hpp"

namespace luxel {
namespace {

constexpr Vec3 kGray{0.299f, 0.587f, 0.114f};  // the light cache's RGB to grey weights
constexpr float kFar = 32768.0f * 1.74f;       // COORD_EXTENT * 1.74: every ray crosses the whole map
constexpr float kShadowSlack = 8;              // a blocker this close to the light does not count
constexpr Vec3 kAxes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};

// The light's distance falloff alone at `at` (the engine's "ratio", before any cone or emitter angle) times
// its intensity: the light as a point light with the same falloff (surface lights: 1 / d^2).
LightArrival falloffOnly(const Light& light, Vec3 at) {
    if (light.kind == Light::Kind::Sun) return sourceLightArrival(light, at, {});
    Light point = light;
    point.kind = Light::Kind::Point;
    if (light.kind == Light::Kind::Area) {
        point.falloff = Light::Falloff::Quadratic;
        point.constant = point.linear = 0;
        point.quadratic = 1;
    }
    return sourceLightArrival(point, at, {});
}

// What the light adds to the ambient cube when it is not a local light: its full arrival at the lighting
// origin (falloff and cone or emitter angle) along the direction to it.
void foldIntoCube(AmbientCube& cube, const Light& light, Vec3 origin) {
    const AmbientCube add = sourceAmbientCube({sourceLightArrival(light, origin, {})});
    for (size_t i = 0; i < 6; ++i) cube[i] += add[i];
}

float maxComponent(Vec3 v) { return std::max({v.x, v.y, v.z}); }

// ComputeLightcacheBounds: the 32 x 32 x 128 unit cell (2^5, 2^5, 2^7) holding p, snapped toward -infinity.
void lightcacheCell(Vec3 p, Vec3& mins, Vec3& maxs) {
    auto snap = [](float v, int bits) {
        const int i = int(std::fabs(v)) >> bits;
        return float((v >= 0 ? i : -(i + 1)) * (1 << bits));
    };
    mins = {snap(p.x, 5), snap(p.y, 5), snap(p.z, 7)};
    maxs = mins + Vec3{32, 32, 128};
}

// Whether a sphere touches the cone of half angle acos(cosAngle) about `axis` from `apex`.
bool sphereTouchesCone(Vec3 centre, float radius, Vec3 apex, Vec3 axis, float cosAngle) {
    const Vec3 delta = centre - apex;
    const float d = length(delta);
    if (d <= radius) return true;
    const float excess = std::acos(std::clamp(dot(delta / d, axis), -1.0f, 1.0f)) - std::acos(std::clamp(cosAngle, -1.0f, 1.0f));
    if (excess <= 0) return true;
    return excess < std::numbers::pi_v<float> / 2 && d * std::sin(excess) <= radius;
}

// LightIntensityAndDirectionInBox's radius tests against the cell around the lighting origin.
bool reachesCell(const Light& light, Vec3 origin) {
    Vec3 mins, maxs;
    lightcacheCell(origin, mins, maxs);
    const float sphere = length(maxs - origin);
    switch (light.kind) {
        case Light::Kind::Point: {
            const Vec3 closest{std::clamp(light.origin.x, mins.x, maxs.x), std::clamp(light.origin.y, mins.y, maxs.y),
                               std::clamp(light.origin.z, mins.z, maxs.z)};
            return length(closest - light.origin) <= light.radius;
        }
        case Light::Kind::Spot:
            return length(light.origin - origin) <= sphere + light.radius &&
                   sphereTouchesCone(origin, sphere, light.origin, light.direction, light.spotCosOuter);
        case Light::Kind::Area:
            return length(light.origin - origin) <= sphere + light.radius &&
                   sphereTouchesCone(origin, sphere, light.origin, light.normal, 0.0f);
        default: return true;
    }
}

}  // namespace

std::vector<Light> engineWorldLights(const std::vector<Light>& lights, bool hdr) {
    std::vector<Light> out = lights;
    const float minLight = hdr ? 0.015f : 0.03f;  // ComputeLightRadius's LIGHT_MIN_LIGHT_VALUE, halved in HDR
    for (Light& l : out) {
        if (l.kind == Light::Kind::Spot && l.constant == 0 && l.linear == 0 && l.quadratic == 0) l.quadratic = 1;
        if (l.radius >= 1) continue;
        const float intensity = length(l.color * l.intensity);
        float r = 2000;  // "infinite, but we're not going to draw it as such"
        if (l.quadratic == 0) {
            if (l.linear != 0) r = (intensity / minLight - l.constant) / l.linear;
        } else {
            const float c = l.constant - intensity / minLight;
            const float discriminant = l.linear * l.linear - 4 * l.quadratic * c;
            if (discriminant >= 0) r = std::max(0.0f, (-l.linear + std::sqrt(discriminant)) / (2 * l.quadratic));
        }
        l.radius = std::isfinite(r) ? r : 2000;
    }
    return out;
}

void addPropLight(PropLightState& state, const Light& light, Vec3 origin) {
    const float illum = dot(falloffOnly(light, origin).color, kGray);
    if (light.kind == Light::Kind::Area || illum >= kWorldLightMin) {
        if (state.locals.size() < kPropLocalLights) {
            state.locals.push_back(light);
            state.localIllum.push_back(illum);
            return;
        }
        // FindDarkestWorldLight: the dimmest held light darker than this one, the first of equals.
        size_t darkest = kPropLocalLights;
        float least = illum;
        for (size_t j = 0; j < state.locals.size(); ++j)
            if (state.localIllum[j] < least) least = state.localIllum[j], darkest = j;
        if (darkest != kPropLocalLights) {
            const Light out = state.locals[darkest];
            state.locals[darkest] = light;
            state.localIllum[darkest] = illum;
            // A displaced skylight is folded with a zero direction (AddWorldLightToLightingState), which adds
            // nothing to any side.
            if (out.kind != Light::Kind::Sun) foldIntoCube(state.cube, out, origin);
            return;
        }
    }
    foldIntoCube(state.cube, light, origin);
}

Vec3 propVertexLight(const PropLightState& state, Vec3 position, Vec3 normal) {
    Vec3 c = evalCube(state.cube, normal);
    for (const Light& l : state.locals) {
        const LightArrival a = sourceLightArrival(l, position, normal);
        if (l.kind != Light::Kind::Sun && l.radius > 0 && a.distance > l.radius) continue;  // the light's range
        c += a.color;
    }
    return c;
}

struct PropLighter::Impl {
    const World& world;
    Geometry geometry;
    RayScene scene;
    HitLight hits;
    std::vector<Light> lights;
    std::vector<int32_t> lightCluster;
    std::vector<Vec3> directions;

    static Vec3 skyAmbient(const World& w) {  // FindAmbientLight: the first emit_skyambient light
        for (const Light& l : w.lights)
            if (l.kind == Light::Kind::Sky) return l.color * l.intensity;
        return {};
    }

    explicit Impl(const World& w)
        : world(w), geometry(tessellate(w)), scene(w, geometry), hits(w, geometry, scene, skyAmbient(w), nullptr),
          lights(engineWorldLights(w.lights, w.hdrLighting)), directions(geodesicDirections(kSkyDomeFrequency)) {
        for (const Light& l : lights) lightCluster.push_back(findCluster(w, l.origin));
    }

    bool seesSky(Vec3 origin, Vec3 dir) const {
        HitKind kind;
        hits.radiance(scene.closest(origin, dir, 0, kFar), dir, kind);
        return kind == HitKind::Sky;
    }

    AmbientCube sphericalSamples(Vec3 origin) const {
        AmbientCube sum{};
        float weight[6] = {};
        for (size_t first = 0; first < directions.size(); first += 16) {
            const int count = int(std::min<size_t>(16, directions.size() - first));
            RayHit found[16];
            scene.intersect(origin, directions.data() + first, count, 0, kFar, found);
            for (int k = 0; k < count; ++k) {
                const Vec3 dir = directions[first + size_t(k)];
                HitKind kind;
                const Vec3 radiance = hits.radiance(found[k], dir, kind);
                for (size_t i = 0; i < 6; ++i) {
                    const float c = dot(dir, kAxes[i]);
                    if (c <= 0) continue;
                    weight[i] += c;
                    sum[i] += radiance * c;
                }
            }
        }
        for (size_t i = 0; i < 6; ++i)
            if (weight[i] > 0) sum[i] = sum[i] / weight[i];
        return sum;
    }
};

PropLighter::PropLighter(const World& world) : impl_(std::make_unique<Impl>(world)) {}
PropLighter::~PropLighter() = default;

PropLightState PropLighter::state(Vec3 origin) const {
    const Impl& m = *impl_;
    PropLightState s;
    s.cube = m.sphericalSamples(origin);
    const int32_t cluster = findCluster(m.world, origin);
    bool hasSun = false;  // only one skylight lights a prop (the first that gets through)
    for (size_t i = 0; i < m.lights.size(); ++i) {
        const Light& l = m.lights[i];
        if (l.style != 0 || l.kind == Light::Kind::Sky || l.falloff == Light::Falloff::Linear) continue;
        if (l.kind == Light::Kind::Sun) {
            if (hasSun || !m.seesSky(origin, -normalize(l.direction))) continue;
            hasSun = true;
            addPropLight(s, l, origin);
            continue;
        }
        if (!m.world.pvs.empty() && (m.lightCluster[i] < 0 || !m.world.pvs.visible(cluster, m.lightCluster[i]))) continue;
        if (!reachesCell(l, origin)) continue;
        const LightArrival ratio = falloffOnly(l, origin);
        if (!ratio.reaches() || ratio.distance <= 0) continue;
        if (l.kind == Light::Kind::Area && l.radius > 0 && ratio.distance > l.radius) continue;
        if (l.kind != Light::Kind::Area && maxComponent(ratio.color) < kWorldLightMin) continue;
        if (ratio.distance > kShadowSlack && m.scene.occluded(origin, ratio.toLight, 0, ratio.distance - kShadowSlack))
            continue;
        addPropLight(s, l, origin);
    }
    return s;
}

}  // namespace luxel
