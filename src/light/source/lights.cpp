// vrad's direct light and its ambient cube sums (see source_lights.hpp for the formulas and their sources).
#include "luxel/light/source_lights.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace luxel {

namespace {

// AddEmitSurfaceLights / Engine_WorldLightAngle: a surface light whose emitter cosine is this small or less
// adds nothing to a cube.
constexpr float kCubeEmitterMinCos = 0.01f;

bool zeroNormal(Vec3 n) { return dot(n, n) < 0.25f; }

// The quintic fade of GatherSampleStandardLightSSE (QuinticInterpolatingPolynomial of 1 - t).
float fade(const Light& l, float d) {
    float t = (d - l.fadeStart) / (l.fadeEnd - l.fadeStart);
    t = 1 - std::clamp(t, 0.0f, 1.0f);
    return t * t * t * (t * (6 * t - 15) + 10);
}

// Spot cone factor of GatherSampleStandardLightSSE's emit_spotlight case: the cone cosine, times the penumbra
// ramp between the cones.
float spotFactor(const Light& l, Vec3 toLight) {
    const float k = -dot(toLight, l.direction);
    if (!(k > l.spotCosOuter)) return 0;
    float f = k;
    if (k <= l.spotCosInner) {
        float m = std::clamp((k - l.spotCosOuter) / (l.spotCosInner - l.spotCosOuter), 0.0f, 1.0f);
        if (l.spotExponent != 0 && l.spotExponent != 1) m = std::pow(m, l.spotExponent);
        f *= m;
    }
    return f;
}

LightArrival positional(const Light& l, Vec3 point, Vec3 normal) {
    LightArrival a;
    const Vec3 delta = l.origin - point;
    const float d2 = dot(delta, delta);
    const float d = std::sqrt(d2);
    if (!(d > 0)) return a;
    a.toLight = delta / d;
    a.distance = d;
    const bool noAngle = zeroNormal(normal);
    const float c = noAngle ? 1.0f : dot(normal, a.toLight);
    if (!(c > 0)) return a;
    const bool hasFade = l.fadeEnd > l.fadeStart;
    if (hasFade && d > l.fadeEnd) return a;
    const float e = std::max(d, 1.0f);  // vrad evaluates falloff and fade no nearer than 1 unit
    float f = 0;
    if (l.kind == Light::Kind::Area) {
        const float k = -dot(a.toLight, l.normal);
        if (noAngle && (k <= kCubeEmitterMinCos || (l.radius > 0 && d > l.radius))) return a;
        f = std::max(k, 0.0f) / d2;
    } else if (l.falloff == Light::Falloff::Linear) {
        f = l.range > 0 ? std::max(0.0f, 1 - d / l.range) : 0.0f;
    } else {
        const float x = std::min(e, l.falloffCap);
        const float denominator = l.constant + l.linear * x + l.quadratic * x * x;
        if (!(denominator > 0)) return a;
        f = 1 / denominator;
        if (l.kind == Light::Kind::Spot) f *= spotFactor(l, a.toLight);
    }
    if (hasFade) f *= fade(l, e);
    a.color = l.color * (l.intensity * f * c);
    if (!isFinite(a.color)) a.color = {};
    return a;
}

}  // namespace

LightArrival sourceLightArrival(const Light& light, Vec3 point, Vec3 normal) {
    switch (light.kind) {
        case Light::Kind::Sky: return {};  // expand into dome suns first (sky_dome.hpp)
        case Light::Kind::Sun: {
            LightArrival a;
            a.toLight = -normalize(light.direction);
            a.distance = std::numeric_limits<float>::infinity();
            const float c = zeroNormal(normal) ? 1.0f : std::max(0.0f, dot(normal, a.toLight));
            a.color = light.color * (light.intensity * c);
            if (!isFinite(a.color)) a.color = {};
            return a;
        }
        default: return positional(light, point, normal);
    }
}

AmbientCube sourceAmbientCube(const std::vector<LightArrival>& arrivals) {
    static constexpr Vec3 kAxes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    AmbientCube cube{};
    for (const LightArrival& a : arrivals)
        for (size_t i = 0; i < 6; ++i) {
            const float t = dot(kAxes[i], a.toLight);
            if (t > 0) cube[i] += a.color * t;
        }
    return cube;
}

void sourceLightArrivals(const Light& light, const Vec3* points, const Vec3* normals, size_t count, LightArrival* out) {
    arrivalsOf<sourceLightArrival>(light, points, normals, count, out);
}

}  // namespace luxel
