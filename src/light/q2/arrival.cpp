// Direct light of Quake 2 lights as qrad3 (GatherSampleLight) and ericw-tools (GetLightValue,
// GetLightValueWithAngle, LightFace_Sky) compute it; see q2_lights.hpp for the formulas.
#include <algorithm>
#include <cmath>
#include <limits>

#include "luxel/light/q2_lights.hpp"

namespace luxel {

namespace {

bool zeroNormal(Vec3 n) { return dot(n, n) < 0.25f; }

// (1 - s) + s cos: ericw-tools' anglescale; qrad3's lights have s = 1 (plain cos).
float angleFactor(const Light& l, float c) {
    if (!l.angleAttenuation) return 1;
    return (1 - l.angleMix) + l.angleMix * c;
}

// GetLightValue's falloffs, in units where the Light's intensity is the value at "1".
float falloff(const Light& l, float d) {
    switch (l.falloff) {
        case Light::Falloff::Linear: return l.range > 0 ? std::max(0.0f, 1 - d / l.range) : 0.0f;
        case Light::Falloff::Inverse: return 1 / d;
        case Light::Falloff::InverseSquare: {
            const float x = d + l.squareOffset;
            return 1 / (x * x);
        }
        case Light::Falloff::None: return 1;
        case Light::Falloff::Quadratic: {
            const float q = l.constant + l.linear * d + l.quadratic * d * d;
            return q > 0 ? 1 / q : 0.0f;
        }
    }
    return 0;
}

// GetLightValueWithAngle's spotscale: 0 outside the outer cone, 1 inside the inner, linear between.
float spotScale(const Light& l, Vec3 toLight) {
    const float k = -dot(toLight, l.direction);
    if (k < l.spotCosOuter) return 0;
    if (k >= l.spotCosInner) return 1;
    return (k - l.spotCosOuter) / (l.spotCosInner - l.spotCosOuter);
}

}  // namespace

LightArrival quake2LightArrival(const Light& light, Vec3 point, Vec3 normal) {
    LightArrival a;
    const bool noAngle = zeroNormal(normal);
    if (light.kind == Light::Kind::Sun) {
        a.toLight = -normalize(light.direction);
        a.distance = std::numeric_limits<float>::infinity();
        const float c = noAngle ? 1.0f : dot(normal, a.toLight);
        if (c < 0) return a;  // LightFace_Sky skips faces turned from the sun
        a.color = light.color * (light.intensity * angleFactor(light, noAngle ? 1.0f : std::max(0.0f, c)));
    } else if (light.kind == Light::Kind::Point || light.kind == Light::Kind::Spot) {
        const Vec3 delta = light.origin - point;
        const float length = std::sqrt(dot(delta, delta));
        a.distance = length;
        a.toLight = length > 0 ? delta / length : Vec3{0, 0, 1};
        const float d = std::max(length, 0.1f);  // GetLightContrib's floor against a light on the sample
        const float c = noAngle ? 1.0f : dot(normal, a.toLight);
        if (c < 0) return a;  // light behind the sample: nothing
        float value = light.intensity * falloff(light, d) * angleFactor(light, c);
        if (light.kind == Light::Kind::Spot) value *= spotScale(light, a.toLight);
        if (!(value > 0)) return a;
        a.color = light.color * value;
    } else if (light.kind == Light::Kind::Area) {
        // GetSurfaceLighting: the emitter's and the receiver's cosines, 1 / max(d, clamp)^2.
        const Vec3 delta = light.origin - point;
        const float length = std::sqrt(dot(delta, delta));
        a.distance = length;
        a.toLight = length > 0 ? delta / length : Vec3{0, 0, 1};
        const float receiver = noAngle ? 1.0f : dot(normal, a.toLight);
        float factor;
        if (light.twoSided) {
            factor = std::max(0.0f, receiver);
        } else {
            const float emitter = -dot(light.normal, a.toLight);
            constexpr float kEpsilon = 0.01f;  // LIGHT_ANGLE_EPSILON
            if (emitter < -kEpsilon || receiver < -kEpsilon) return a;
            factor = ((1 - light.emitterAngleMix) + light.emitterAngleMix * emitter) *
                     ((1 - light.angleMix) + light.angleMix * receiver);
            factor = std::max(0.0f, factor);
        }
        const float d = std::max(std::max(length, 0.01f), light.minDistance);
        const float value = light.intensity * factor / (d * d);
        if (!(value > 0)) return a;
        a.color = light.color * value;
        // ericw-tools skips a contribution no channel of which exceeds 0.01 of its 0..255 units.
        if (std::max({a.color.x, a.color.y, a.color.z}) <= light.cutoff) a.color = {};
    }
    if (!isFinite(a.color)) a.color = {};
    return a;
}

}  // namespace luxel
