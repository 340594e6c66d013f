// Quake 3 fog volumes over opaque surfaces: ioquake3's fog factor of a point (RB_CalcFogTexCoords and
// R_FogFactor), and the run loop that blends a surface's pixels towards its fog's colour; Source water's fog.
#include <algorithm>
#include <cmath>
#include <limits>

#include "avx2.hpp"

namespace luxel::render {

float fogFactor(const FogVolume& fog, float distanceToOpaque, Vec3 eye, Vec3 forward, Vec3 p) {
    const float tcScale = 1.0f / (std::max(distanceToOpaque, 1.0f) * 8.0f);
    float s = dot(p - eye, forward) * tcScale + 1.0f / 512.0f;
    const float eyeT = fog.hasSurface ? dot(fog.surface.normal, eye) - fog.surface.dist : 1.0f;
    const float tRaw = fog.hasSurface ? dot(fog.surface.normal, p) - fog.surface.dist : 1.0f;
    float t;
    if (eyeT < 0)  // the eye outside: the distance is cut at the fog's surface
        t = tRaw < 1.0f ? 1.0f / 32.0f : 1.0f / 32.0f + 30.0f / 32.0f * tRaw / (tRaw - eyeT);
    else
        t = tRaw < 0 ? 1.0f / 32.0f : 31.0f / 32.0f;
    // R_FogFactor
    s -= 1.0f / 512.0f;
    if (s < 0 || t < 1.0f / 32.0f) return 0;
    if (t < 31.0f / 32.0f) s *= (t - 1.0f / 32.0f) / (30.0f / 32.0f);
    s = std::min(s * 8.0f, 1.0f);
    return std::sqrt(s);
}

float fogAt(const ShadeContext& ctx, uint32_t tri, int px, int py, float invW) {
    const TriShade& t = ctx.triShade[tri];
    if (t.fog < 0) return 0;
    const shading::Pixel p = shading::resolve(ctx, tri, px, py, invW);
    return fogFactor(ctx.world->fogs[size_t(t.fog)], ctx.materials->fogs[size_t(t.fog)].distance, ctx.eye, ctx.viewForward,
                     shading::positionOf(p));
}

void fogOverPixel(const ShadeContext& ctx, uint32_t tri, int px, int py, float invW, float* rgb) {
    const float a = fogAt(ctx, tri, px, py, invW);
    if (a <= 0) return;
    shading::blendToward(rgb, ctx.materials->fogs[size_t(ctx.triShade[tri].fog)].color, a);
}

void waterOverPixel(const TriShade& t, float invW, float behindInvW, float* rgb) {
    // View depths are 1 / (1/w); the distance seen through the water is the depth behind minus the water's.
    const float through = behindInvW > 0 ? 1.0f / behindInvW - 1.0f / invW : std::numeric_limits<float>::infinity();
    const float a = through >= t.waterRange ? 1.0f : std::max(0.0f, through / t.waterRange);
    shading::blendToward(rgb, t.waterColor, a);
}

}  // namespace luxel::render

namespace luxel::render::shading {

void fogRun(const ShadeContext& ctx, const TriShade& t, uint32_t tri, int px0, int py, const float* depth, int n,
            float* out) {
    const FogVolume& fog = ctx.world->fogs[size_t(t.fog)];
    const MaterialSet::Fog& look = ctx.materials->fogs[size_t(t.fog)];
    for (int k = 0; k < n; ++k) {
        const Pixel p = resolve(ctx, tri, px0 + k, py, depth[k]);
        blendToward(out + 3 * k, look.color, fogFactor(fog, look.distance, ctx.eye, ctx.viewForward, positionOf(p)));
    }
}

namespace {

// exp(-x) for x in [0, 16] at steps of 1/256, linearly interpolated between them (off by under 2e-6), 0 past 16
// (exp(-16) is 1e-7): a table and one lerp a pixel instead of a libm call.
struct FogCurve {
    float at[16 * 256 + 1];
    FogCurve() {
        for (int i = 0; i <= 16 * 256; ++i) at[i] = float(std::exp(-double(i) / 256.0));
    }
    float operator()(float x) const {
        if (!(x < 16.0f)) return 0.0f;  // and NaN
        const float s = x * 256.0f;
        const int i = int(s);
        return at[i] + (at[i + 1] - at[i]) * (s - float(i));
    }
};

const FogCurve& fogCurve() {
    static const FogCurve curve;
    return curve;
}

}  // namespace

// The share of a pixel's colour the fog keeps: GL_EXP2 with QuakeSpasm's density / 64, of the eye-space depth
// (w: what llvmpipe's fog coordinate holds).
float distanceFogKeep(const MaterialSet::DistanceFog& fog, float invW) {
    const float d = fog.density / 64.0f / invW;
    return fogCurve()(d * d);
}

void distanceFogRun(const MaterialSet::DistanceFog& fog, const float* depth, int n, float* out) {
    for (int k = 0; k < n; ++k) blendToward(out + 3 * k, fog.color, 1.0f - distanceFogKeep(fog, depth[k]));
}

#if defined(LUXEL_SHADE_AVX2)
// distanceFogRun 8 pixels at a time, each lane through the scalar loop's operations; the last n % 8 by it.
LUXEL_AVX2 void distanceFogRunAvx2(const MaterialSet::DistanceFog& fog, const float* depth, int n, float* out) {
    const FogCurve& keep = fogCurve();
    const __m256 density = _mm256_set1_ps(fog.density / 64.0f), limit = _mm256_set1_ps(16.0f), steps = _mm256_set1_ps(256.0f);
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256 cr = _mm256_set1_ps(fog.color.x), cg = _mm256_set1_ps(fog.color.y), cb = _mm256_set1_ps(fog.color.z);
    int k = 0;
    for (; k + 8 <= n; k += 8) {
        const __m256 d = _mm256_div_ps(density, _mm256_loadu_ps(depth + k));
        const __m256 x = _mm256_mul_ps(d, d);
        const __m256 inside = _mm256_cmp_ps(x, limit, _CMP_LT_OQ);  // false for NaN: those lanes take 0
        const __m256 s = _mm256_mul_ps(_mm256_and_ps(x, inside), steps);
        const __m256i i = _mm256_cvttps_epi32(s);
        const __m256 a = _mm256_i32gather_ps(keep.at, i, 4), b = _mm256_i32gather_ps(keep.at + 1, i, 4);
        const __m256 f = _mm256_and_ps(_mm256_add_ps(a, _mm256_mul_ps(_mm256_sub_ps(b, a), _mm256_sub_ps(s, _mm256_cvtepi32_ps(i)))), inside);
        const __m256 w = _mm256_sub_ps(one, f);
        __m256 r, g, bl;
        loadRgb8(out + 3 * k, r, g, bl);
        r = _mm256_add_ps(r, _mm256_mul_ps(_mm256_sub_ps(cr, r), w));
        g = _mm256_add_ps(g, _mm256_mul_ps(_mm256_sub_ps(cg, g), w));
        bl = _mm256_add_ps(bl, _mm256_mul_ps(_mm256_sub_ps(cb, bl), w));
        storeRgb8(out + 3 * k, r, g, bl);
    }
    distanceFogRun(fog, depth + k, n - k, out + 3 * k);
}
#endif

}  // namespace luxel::render::shading

namespace luxel::render {

void distanceFogOverPixel(const ShadeContext& ctx, float invW, float* rgb, bool additive) {
    const MaterialSet::DistanceFog& fog = *ctx.materials->distanceFog;
    const float keep = shading::distanceFogKeep(fog, invW);
    if (additive)
        rgb[0] *= keep, rgb[1] *= keep, rgb[2] *= keep;
    else
        shading::blendToward(rgb, fog.color, 1.0f - keep);
}

}  // namespace luxel::render
