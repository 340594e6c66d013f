// Direct light of Quake 2 lights as qrad3 (GatherSampleLight) and ericw-tools (GetLightValue,
// GetLightValueWithAngle, LightFace_Sky) compute it; see q2_lights.hpp for the formulas.
#include <emmintrin.h>  // SSE2, in every x86-64

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
        // LightFace_Sky clamps each sample's cosine at 0, so a sample turned from the sun still gets the
        // (1 - anglescale) part; whole faces turned from it are culled by the baker (DirectBakeRules::sunFaceCull).
        const float c = noAngle ? 1.0f : std::max(0.0f, dot(normal, a.toLight));
        a.color = light.color * (light.intensity * angleFactor(light, c));
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

namespace {

__m128 lanes(const Vec3* v, float Vec3::*c) { return _mm_setr_ps(v[0].*c, v[1].*c, v[2].*c, v[3].*c); }
__m128 select(__m128 mask, __m128 a, __m128 b) { return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b)); }
__m128 dot4(__m128 ax, __m128 ay, __m128 az, __m128 bx, __m128 by, __m128 bz) {
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(ax, bx), _mm_mul_ps(ay, by)), _mm_mul_ps(az, bz));
}

// quake2LightArrival of an Area light at four points: the same operations in the same order, lane by lane
// (SSE's sqrt, divide and max round and pick as the scalar ones do), so the same bits. The bounce's lights
// are Area lights, and these arrivals are most of its time after the shadow rays.
void areaArrivals4(const Light& l, const Vec3* points, const Vec3* normals, LightArrival* out) {
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1);
    const __m128 px = lanes(points, &Vec3::x), py = lanes(points, &Vec3::y), pz = lanes(points, &Vec3::z);
    const __m128 nx = lanes(normals, &Vec3::x), ny = lanes(normals, &Vec3::y), nz = lanes(normals, &Vec3::z);
    const __m128 dx = _mm_sub_ps(_mm_set1_ps(l.origin.x), px), dy = _mm_sub_ps(_mm_set1_ps(l.origin.y), py),
                 dz = _mm_sub_ps(_mm_set1_ps(l.origin.z), pz);
    const __m128 length = _mm_sqrt_ps(dot4(dx, dy, dz, dx, dy, dz));
    const __m128 positive = _mm_cmpgt_ps(length, zero);
    const __m128 tx = select(positive, _mm_div_ps(dx, length), zero), ty = select(positive, _mm_div_ps(dy, length), zero),
                 tz = select(positive, _mm_div_ps(dz, length), one);
    const __m128 noAngle = _mm_cmplt_ps(dot4(nx, ny, nz, nx, ny, nz), _mm_set1_ps(0.25f));
    const __m128 receiver = select(noAngle, one, dot4(nx, ny, nz, tx, ty, tz));
    __m128 factor, reaches;
    if (l.twoSided) {
        factor = _mm_max_ps(receiver, zero);
        reaches = _mm_castsi128_ps(_mm_set1_epi32(-1));
    } else {
        const __m128 lnx = _mm_set1_ps(l.normal.x), lny = _mm_set1_ps(l.normal.y), lnz = _mm_set1_ps(l.normal.z);
        const __m128 emitter = _mm_xor_ps(dot4(lnx, lny, lnz, tx, ty, tz), _mm_set1_ps(-0.0f));  // negated
        const __m128 minusEpsilon = _mm_set1_ps(-0.01f);  // LIGHT_ANGLE_EPSILON
        reaches = _mm_andnot_ps(_mm_or_ps(_mm_cmplt_ps(emitter, minusEpsilon), _mm_cmplt_ps(receiver, minusEpsilon)),
                                _mm_castsi128_ps(_mm_set1_epi32(-1)));
        const __m128 emitterMix = _mm_set1_ps(l.emitterAngleMix), angleMix = _mm_set1_ps(l.angleMix);
        factor = _mm_mul_ps(_mm_add_ps(_mm_set1_ps(1 - l.emitterAngleMix), _mm_mul_ps(emitterMix, emitter)),
                            _mm_add_ps(_mm_set1_ps(1 - l.angleMix), _mm_mul_ps(angleMix, receiver)));
        factor = _mm_max_ps(factor, zero);
    }
    const __m128 d = _mm_max_ps(_mm_set1_ps(l.minDistance), _mm_max_ps(_mm_set1_ps(0.01f), length));
    const __m128 value = _mm_div_ps(_mm_mul_ps(_mm_set1_ps(l.intensity), factor), _mm_mul_ps(d, d));
    reaches = _mm_and_ps(reaches, _mm_cmpgt_ps(value, zero));
    __m128 cx = _mm_mul_ps(_mm_set1_ps(l.color.x), value), cy = _mm_mul_ps(_mm_set1_ps(l.color.y), value),
           cz = _mm_mul_ps(_mm_set1_ps(l.color.z), value);
    // Above the cutoff and finite (x - x is 0 only for finite x).
    reaches = _mm_and_ps(reaches, _mm_cmpgt_ps(_mm_max_ps(_mm_max_ps(cx, cy), cz), _mm_set1_ps(l.cutoff)));
    reaches = _mm_and_ps(reaches, _mm_cmpeq_ps(_mm_add_ps(_mm_add_ps(_mm_sub_ps(cx, cx), _mm_sub_ps(cy, cy)), _mm_sub_ps(cz, cz)), zero));
    cx = _mm_and_ps(reaches, cx), cy = _mm_and_ps(reaches, cy), cz = _mm_and_ps(reaches, cz);
    alignas(16) float c[3][4], t[3][4], len[4];
    _mm_store_ps(c[0], cx), _mm_store_ps(c[1], cy), _mm_store_ps(c[2], cz);
    _mm_store_ps(t[0], tx), _mm_store_ps(t[1], ty), _mm_store_ps(t[2], tz);
    _mm_store_ps(len, length);
    for (int k = 0; k < 4; ++k) out[k] = {{c[0][k], c[1][k], c[2][k]}, {t[0][k], t[1][k], t[2][k]}, len[k]};
}

}  // namespace

void quake2LightArrivals(const Light& light, const Vec3* points, const Vec3* normals, size_t count, LightArrival* out) {
    size_t i = 0;
    if (light.kind == Light::Kind::Area)
        for (; i + 4 <= count; i += 4) areaArrivals4(light, points + i, normals + i, out + i);
    arrivalsOf<quake2LightArrival>(light, points + i, normals + i, count - i, out + i);
}

}  // namespace luxel
