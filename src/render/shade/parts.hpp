#pragma once
// Internal to the render stage: what the parts of the shading share. shade.cpp runs the visibility buffer's
// blocks (run by run, each run to its loop) and holds the scalar loops and the look; prepare.cpp
// resolves each triangle's shading once per frame; program.cpp draws stage programs, sky.cpp sky
// boxes and cloud layers, fog.cpp fog volumes; avx2.cpp, avx2_textured.cpp and
// avx2_program.cpp (with program_parts.hpp) hold the vector loops (their shared pieces in
// avx2.hpp and avx2_lightmap.hpp). The helpers here run per pixel in several parts, so they
// stay inline in this header, and static: each part has its own copy, as when they were file-local in one
// shade.cpp, because GCC inlines a file's own functions more readily than shared inline ones (with plain
// inline, loops that had lightAt and lightmapPairs inlined called them).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>

#if defined(__x86_64__)
#include <immintrin.h>
#define LUXEL_SHADE_AVX2 1
// AVX2 loops are compiled for that target only and picked at run time (useAvx2, util/cpu.hpp), so the library
// still runs on plain x86-64.
#define LUXEL_AVX2 __attribute__((target("avx2")))
#endif

#include "luxel/render/look.hpp"
#include "luxel/render/shade.hpp"

namespace luxel::render::shading {

struct Bary {
    float b0, b1, b2;
};

static inline Vec3 interp3(const Vec3& a, const Vec3& b, const Vec3& c, const Bary& w) {
    return {a.x * w.b0 + b.x * w.b1 + c.x * w.b2, a.y * w.b0 + b.y * w.b1 + c.y * w.b2,
            a.z * w.b0 + b.z * w.b1 + c.z * w.b2};
}

static inline Vec2 interp2(const Vec2& a, const Vec2& b, const Vec2& c, const Bary& w) {
    return {a.x * w.b0 + b.x * w.b1 + c.x * w.b2, a.y * w.b0 + b.y * w.b1 + c.y * w.b2};
}

static inline Vec4 interp4(const Vec4& a, const Vec4& b, const Vec4& c, const Bary& w) {
    return {a.x * w.b0 + b.x * w.b1 + c.x * w.b2, a.y * w.b0 + b.y * w.b1 + c.y * w.b2,
            a.z * w.b0 + b.z * w.b1 + c.z * w.b2, a.w * w.b0 + b.w * w.b1 + c.w * w.b2};
}

struct Pixel {
    const SourceTri* src;
    const DrawVertex *v0, *v1, *v2;
    Bary bary;
};

static inline Pixel resolve(const ShadeContext& ctx, uint32_t triId, int px, int py, float invW) {
    const raster::ShadeTri& st = ctx.tris[triId];
    const SourceTri& s = ctx.sources[st.source];
    const float iw = 1.0f / invW;
    float b1 = raster::evalPlane(st.b1W, st.x0, st.y0, px, py) * iw;
    float b2 = raster::evalPlane(st.b2W, st.x0, st.y0, px, py) * iw;
    const DrawVertex* base = vertexBase(ctx, s);
    return {&s, base + s.v[0], base + s.v[1], base + s.v[2], {1.0f - b1 - b2, b1, b2}};
}

// attribute/w plane of a value with vertex values f0, f1, f2: f = f0 + b1 (f1 - f0) + b2 (f2 - f0), so
// f/w = f0 (1/w) + (f1 - f0) (b1/w) + (f2 - f0) (b2/w), coefficient by coefficient.
static inline raster::AttrPlane combine(const raster::ShadeTri& t, float f0, float f1, float f2) {
    const float d1 = f1 - f0, d2 = f2 - f0;
    return {f0 * t.invW.a + d1 * t.b1W.a + d2 * t.b2W.a, f0 * t.invW.b + d1 * t.b1W.b + d2 * t.b2W.b,
            f0 * t.invW.c + d1 * t.b1W.c + d2 * t.b2W.c};
}

static inline Vec3 positionOf(const Pixel& p) { return interp3(p.v0->position, p.v1->position, p.v2->position, p.bary); }
static inline Vec3 normalOf(const Pixel& p) { return normalize(interp3(p.v0->normal, p.v1->normal, p.v2->normal, p.bary)); }

// The look with its branches resolved once per block.
struct LookParams {
    bool linear = false;
    float hueClampAt = 0;
    bool clampPerChannel = false;  // the clamp at hueClampAt per channel (EngineLook::clampPerChannel)
    bool gamma = false;
    float invGamma = 1;
    const GammaTable* table = nullptr;  // gamma through the table; nullptr: pow
};

// The look of a context or of a look name, gamma through `table` when it is valid (defined in shade.cpp).
LookParams lookParams(Look look, const EngineLook& engine, const GammaTable* table);
LookParams lookParams(const ShadeContext& ctx);

static inline float clamp01(float v) { return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; }  // NaN -> 0

static inline Vec3 lookOf(Vec3 light, Vec3 albedo, const LookParams& lp) {
    if (lp.linear) return light * albedo;
    light = clampLight(light, lp.hueClampAt, lp.clampPerChannel);
    Vec3 c{clamp01(light.x * albedo.x), clamp01(light.y * albedo.y), clamp01(light.z * albedo.z)};
    if (lp.gamma) {
        if (lp.table)
            c = {applyGamma(c.x, *lp.table), applyGamma(c.y, *lp.table), applyGamma(c.z, *lp.table)};
        else
            c = {std::pow(c.x, lp.invGamma), std::pow(c.y, lp.invGamma), std::pow(c.z, lp.invGamma)};
    }
    return c;
}

// rgb moved a share `a` of the way to `c` (fog and water over a pixel): rgb + (c - rgb) x a per channel.
static inline void blendToward(float* rgb, Vec3 c, float a) {
    rgb[0] += (c.x - rgb[0]) * a, rgb[1] += (c.y - rgb[1]) * a, rgb[2] += (c.z - rgb[2]) * a;
}

static inline void put(float* out, Vec3 c) {
    out[0] = c.x;
    out[1] = c.y;
    out[2] = c.z;
}

// A cut-out's test, keep = !(alpha * opacity < ref), on a footprint's alpha bytes: it keeps whatever the
// filter weights when its smallest byte is at least passMin, and drops when its largest is at most failMax.
// The filtered alpha (three lerps of table values in [0, 1]) lies within the footprint's table values up to a
// rounding error below 1e-6; the margin kCutoutMargin keeps the decision on the same side as filtering's.
struct CutoutBytes {
    int passMin, failMax;  // 256 / -1 when no byte decides
    float ref, opacity;
};
constexpr float kCutoutMargin = 1e-5f;
static inline CutoutBytes cutoutBytes(float ref, float opacity) {
    if (!(opacity >= 0.0f)) return {256, -1, ref, opacity};  // the bounds below need alpha * opacity nondecreasing
    auto scaled = [opacity](float a) { return opacity != 1.0f ? a * opacity : a; };
    auto passes = [&](int b) { return scaled(kAlphaLut[size_t(b)] - kCutoutMargin) >= ref; };  // nondecreasing in b
    auto fails = [&](int b) { return scaled(kAlphaLut[size_t(b)] + kCutoutMargin) < ref; };    // nonincreasing in b
    int lo = 0, hi = 256;  // first b that passes, by bisection
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        passes(mid) ? hi = mid : lo = mid + 1;
    }
    CutoutBytes c{lo, -1, ref, opacity};
    lo = -1, hi = 255;  // last b that fails
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        fails(mid) ? lo = mid : hi = mid - 1;
    }
    c.failMax = lo;
    return c;
}

// n pixels of one colour: whole 8-pixel groups copied from a pattern (three vector stores each), the rest
// one by one. Sky and missing textures fill most of some frames.
static inline void fillRgb(float* out, Vec3 c, int n) {
    float pattern[24];
    for (int k = 0; k < 8; ++k) pattern[3 * k] = c.x, pattern[3 * k + 1] = c.y, pattern[3 * k + 2] = c.z;
    int k = 0;
    for (; k + 8 <= n; k += 8) std::memcpy(out + 3 * k, pattern, sizeof pattern);
    for (; k < n; ++k) put(out + 3 * k, c);
}

// sampleLightmap with the page's constants hoisted and the lerps done on (r,g,b,0) vectors. Every lane
// sees the same IEEE single operations in the same order as sampleLightmap, so results are bit-identical
// (checked by a test).
struct PageView {
    const float* p;
    int w, h;
    float fw, fh, wMax, hMax;
};

static inline PageView pageView(const float* rgb, int width, int height) {
    return {rgb, width, height, float(width), float(height), float(width - 1), float(height - 1)};
}

#if defined(__SSE2__)
using Rgb = __m128;
static inline Rgb loadTexel(const float* t) {
    __m128 rg = _mm_loadl_pi(_mm_setzero_ps(), reinterpret_cast<const __m64*>(t));
    return _mm_movelh_ps(rg, _mm_load_ss(t + 2));
}
static inline Rgb lerpRgb(Rgb a, Rgb b, Rgb t) { return _mm_add_ps(a, _mm_mul_ps(_mm_sub_ps(b, a), t)); }
static inline Vec3 toVec3(Rgb c) {
    alignas(16) float f[4];
    _mm_store_ps(f, c);
    return {f[0], f[1], f[2]};
}
#endif

static inline Vec3 sampleView(const PageView& pg, float u, float v) {
    float fx = u * pg.fw - 0.5f, fy = v * pg.fh - 0.5f;
    if (!(fx >= 0)) fx = 0;
    if (!(fy >= 0)) fy = 0;
    fx = std::min(fx, pg.wMax);
    fy = std::min(fy, pg.hMax);
    const int x0 = int(fx), y0 = int(fy);
    const int x1 = std::min(x0 + 1, pg.w - 1), y1 = std::min(y0 + 1, pg.h - 1);
    const float ax = fx - float(x0), ay = fy - float(y0);
    const size_t r0 = size_t(y0) * size_t(pg.w), r1 = size_t(y1) * size_t(pg.w);
    const float* t00 = pg.p + (r0 + size_t(x0)) * 3;
    const float* t10 = pg.p + (r0 + size_t(x1)) * 3;
    const float* t01 = pg.p + (r1 + size_t(x0)) * 3;
    const float* t11 = pg.p + (r1 + size_t(x1)) * 3;
#if defined(__SSE2__)
    const Rgb vax = _mm_set1_ps(ax), vay = _mm_set1_ps(ay);
    Rgb top = lerpRgb(loadTexel(t00), loadTexel(t10), vax);
    Rgb bottom = lerpRgb(loadTexel(t01), loadTexel(t11), vax);
    return toVec3(lerpRgb(top, bottom, vay));
#else
    Vec3 top = lerp(Vec3{t00[0], t00[1], t00[2]}, Vec3{t10[0], t10[1], t10[2]}, ax);
    Vec3 bottom = lerp(Vec3{t01[0], t01[1], t01[2]}, Vec3{t11[0], t11[1], t11[2]}, ax);
    return lerp(top, bottom, ay);
#endif
}

// The light of a Lightmap or Vertex triangle at one pixel; Constant: the textured triangle's constantLight.
static inline Vec3 lightAt(const TriShade& t, const PageView* pages, float fx, float fy, float iw) {
    if (t.path == ShadePath::Lightmap) {
        const raster::AttrPlane &pu = t.plane[0], &pv = t.plane[1];
        const float u = ((pu.c + pu.a * fx) + pu.b * fy) * iw, v = ((pv.c + pv.a * fx) + pv.b * fy) * iw;
        Vec3 light = sampleView(pages[0], u, v) * t.weight[0];
        for (int s = 1; s < t.slots; ++s) light = light + sampleView(pages[s], u, v) * t.weight[s];
        return light;
    }
    if (t.path == ShadePath::Vertex) {
        const raster::AttrPlane &pr = t.plane[0], &pg = t.plane[1], &pb = t.plane[2];
        return {((pr.c + pr.a * fx) + pr.b * fy) * iw, ((pg.c + pg.a * fx) + pg.b * fy) * iw,
                ((pb.c + pb.a * fx) + pb.b * fy) * iw};
    }
    return t.constantLight;
}

static inline void pageViews(const TriShade& t, PageView* pages) {
    if (t.path == ShadePath::Lightmap)
        for (int s = 0; s < t.slots; ++s) pages[s] = pageView(t.page[s], t.pageWidth, t.pageHeight);
}

// Lit / Albedo with a texture: the light as lightRunScalar computes it, times the texture's albedo at the
// pixel's own mip level, so a pixel's value never depends on how rows are split into runs. The level
// comes from the screen derivatives of u = U/W (U, W the u/w and 1/w planes): du/dx = (Ua W - U Wa) / W^2,
// whose numerator has no x term (it cancels), and du/dy's numerator has no y term. So the numerators are
// constant along a row (x derivatives) or linear in x (y derivatives), and only the 1/W^2 is per pixel.
struct TexFootprint {
    raster::AttrPlane tu, tv;
    int maxLevel;
    // In texels: du/dx * W^2 = dxU[0] + dxU[1] * fy, du/dy * W^2 = dyU[0] + dyU[1] * fx; the same for v.
    float dxU[2], dxV[2], dyU[2], dyV[2];
};

static inline TexFootprint texFootprint(const raster::AttrPlane& u, const raster::AttrPlane& v, const raster::AttrPlane& w,
                                        float width, float height, int maxLevel) {
    return {u,
            v,
            maxLevel,
            {(u.a * w.c - u.c * w.a) * width, (u.a * w.b - u.b * w.a) * width},
            {(v.a * w.c - v.c * w.a) * height, (v.a * w.b - v.b * w.a) * height},
            {(u.b * w.c - u.c * w.b) * width, (u.b * w.a - u.a * w.b) * width},
            {(v.b * w.c - v.c * w.b) * height, (v.b * w.a - v.a * w.b) * height}};
}
static inline TexFootprint texFootprint(const raster::AttrPlane& u, const raster::AttrPlane& v, const raster::AttrPlane& w,
                                        const Texture& tex) {
    return texFootprint(u, v, w, float(tex.width()), float(tex.height()), int(tex.mips.size()) - 1);
}
static inline TexFootprint texFootprint(const ShadeContext& ctx, const TriShade& t, uint32_t tri, const Texture& tex) {
    return texFootprint(t.texPlane[0], t.texPlane[1], ctx.tris[tri].invW, tex);
}
static inline TexFootprint texFootprint(const ShadeContext& ctx, const TriShade& t, uint32_t tri) {
    return texFootprint(ctx, t, tri, *t.texture);
}

// |d(u, v)/dx|^2 * W^4 in texels^2: the same for a whole row.
static inline float rowFootprint(const TexFootprint& f, float fy) {
    const float x = f.dxU[0] + f.dxU[1] * fy, y = f.dxV[0] + f.dxV[1] * fy;
    return x * x + y * y;
}

// The squared length of the pixel's longer footprint side, in the footprint's texels.
static inline float pixelFootprint2(const TexFootprint& f, float rowSquare, float fx, float iw) {
    const float p = f.dyU[0] + f.dyU[1] * fx, q = f.dyV[0] + f.dyV[1] * fx;
    const float iw2 = iw * iw;
    return std::max(rowSquare, p * p + q * q) * (iw2 * iw2);
}

static inline int pixelMipLevel(const TexFootprint& f, float rowSquare, float fx, float iw) {
    return mipLevelFromSquare(pixelFootprint2(f, rowSquare, fx, iw), f.maxLevel);
}

// The texture's albedo (rgb) and alpha at one pixel.
static inline Vec4 texelAt(const ShadeContext& ctx, const Texture& tex, const TexFootprint& f, float fx, float fy, float iw) {
    const float u = ((f.tu.c + f.tu.a * fx) + f.tu.b * fy) * iw, v = ((f.tv.c + f.tv.a * fx) + f.tv.b * fy) * iw;
    return sampleLevel(levelView(tex, pixelMipLevel(f, rowFootprint(f, fy), fx, iw)), u, v, *ctx.albedoTable);
}

// texelAt's alpha alone.
static inline float texelAlphaAt(const Texture& tex, const TexFootprint& f, float fx, float fy, float iw) {
    const float u = ((f.tu.c + f.tu.a * fx) + f.tu.b * fy) * iw, v = ((f.tv.c + f.tv.a * fx) + f.tv.b * fy) * iw;
    return sampleAlphaLevel(levelView(tex, pixelMipLevel(f, rowFootprint(f, fy), fx, iw)), u, v);
}

// The surface's texture, or with a blend texture the mix of both by the interpolated vertex alpha.
static inline Vec4 albedoAt(const ShadeContext& ctx, const TriShade& t, const TexFootprint& f, const TexFootprint* f2,
                     float fx, float fy, float iw) {
    const Vec4 a = texelAt(ctx, *t.texture, f, fx, fy, iw);
    if (!f2) return a;
    Vec4 b = texelAt(ctx, *t.texture2, *f2, fx, fy, iw);
    b = {b.x * t.texture2Scale, b.y * t.texture2Scale, b.z * t.texture2Scale, b.w};
    const raster::AttrPlane& p = t.blendPlane;
    const float s = std::clamp(((p.c + p.a * fx) + p.b * fy) * iw, 0.0f, 1.0f);
    return {a.x + (b.x - a.x) * s, a.y + (b.y - a.y) * s, a.z + (b.z - a.z) * s, a.w + (b.w - a.w) * s};
}

// What a textured triangle's pixels share: texture footprints and lightmap page views.
struct TexturedSetup {
    TexFootprint f;
    std::optional<TexFootprint> f2;  // the blend texture's
    PageView pages[kMaxLightmapSlots];
    TexFootprint detail[2];          // t.details of them
};

static inline TexturedSetup texturedSetup(const ShadeContext& ctx, const TriShade& t, uint32_t tri) {
    TexturedSetup s{texFootprint(ctx, t, tri), std::nullopt, {}, {}};
    if (t.texture2) s.f2 = texFootprint(t.tex2Plane[0], t.tex2Plane[1], ctx.tris[tri].invW, *t.texture2);
    for (int d = 0; d < t.details; ++d)
        s.detail[d] = texFootprint(t.detailPlane[d][0], t.detailPlane[d][1], ctx.tris[tri].invW, *t.detail[d]);
    pageViews(t, s.pages);
    return s;
}

// x 2 * detail, per detail texture (the engine's GL_DST_COLOR GL_SRC_COLOR stages).
static inline Vec4 withDetail(const ShadeContext& ctx, const TriShade& t, const TexturedSetup& s, Vec4 a, float fx, float fy,
                       float iw) {
    for (int d = 0; d < t.details; ++d) {
        const Vec4 k = texelAt(ctx, *t.detail[d], s.detail[d], fx, fy, iw);
        a = {a.x * (2 * k.x), a.y * (2 * k.y), a.z * (2 * k.z), a.w};
    }
    return a;
}

// One textured pixel: rgb with the look applied, and the albedo's alpha.
static inline Vec4 texturedPixel(const ShadeContext& ctx, const TriShade& t, const TexturedSetup& s, const LookParams& lp,
                          float fx, float fy, float iw) {
    const Vec4 a = withDetail(ctx, t, s, albedoAt(ctx, t, s.f, s.f2 ? &*s.f2 : nullptr, fx, fy, iw), fx, fy, iw);
    const Vec3 c = lookOf(lightAt(t, s.pages, fx, fy, iw), Vec3{a.x, a.y, a.z} * t.albedo, lp);
    return {c.x, c.y, c.z, a.w};
}

// Stage programs (program.cpp): light as the engine's framebuffer holds it.
struct ProgramLight {
    bool linear = false;
    float ramp = 1;      // the display ramp: framebuffer values are light / ramp
    float clampAt = 0;   // the look's clamp (light units)
    bool clampPerChannel = false;
    Vec3 fb(Vec3 light) const {  // light as the framebuffer holds it
        if (linear) return light;
        return clampLight(light, clampAt, clampPerChannel) * (1.0f / ramp);
    }
};

static inline ProgramLight programLight(const LookParams& lp) {
    ProgramLight p;
    p.linear = lp.linear;
    p.clampAt = lp.hueClampAt;
    p.clampPerChannel = lp.clampPerChannel;
    p.ramp = !lp.linear && lp.hueClampAt > 0 ? lp.hueClampAt : 1.0f;
    return p;
}

// GL blend factor values for source colour/alpha and destination colour/alpha.
Vec3 blendFactorOf(BlendFactor f, Vec3 src, float srcAlpha, Vec3 dst, float dstAlpha);

constexpr int kMaxRun = 64;  // shadeLightBlock's segment: no run is longer

// Whether the vector loops can index a texture's levels with int32 lanes and masks: a power-of-two top
// level (so every level) of fewer than 2^31 texels.
static inline bool vectorIndexable(const Texture& tex) {
    const LevelView base = levelView(tex, 0);
    return base.powerOfTwo && size_t(base.width) * size_t(base.height) < (size_t(1) << 31);
}

// Whether a textured triangle's runs take the vector loop (texturedRunAvx2, texturedPixelsAvx2): its texture
// vectorIndexable, a blend texture of power-of-two size, lightmap indices that fit 32 bits.
static inline bool texturedVectorFits(const TriShade& t) {
    return vectorIndexable(*t.texture) && (!t.texture2 || levelView(*t.texture2, 0).powerOfTwo) &&
           (t.path != ShadePath::Lightmap || t.narrowIndices);
}

// Pixel loops of the light-bearing modes. A run is n pixels of one triangle on one row; dx is its first
// column relative to the triangle's plane origin, fy its row. The scalar loop is the reference; the AVX2
// loops do the same IEEE operations per lane and may write up to 8 pixels past the run (callers give
// them room and overwrite them).
// programRun: program.cpp; skyBoxRun, skyBoxRunAvx2: sky.cpp; fogRun: fog.cpp;
// lightmapRunFor, vertexRunAvx2, runStartsAvx2: avx2.cpp; texturedRunAvx2:
// avx2_textured.cpp.
void programRun(const ShadeContext& ctx, const TriShade& t, const LookParams& lp, uint32_t tri, int px0, int py,
                const float* depth, int n, float* out);
void skyBoxRun(const ShadeContext& ctx, uint32_t tri, const LookParams& lp, int px0, int py, const float* depth, int n,
               float* out);
// The fog of the run's surface over its pixels (display values), in the fog's colour.
void fogRun(const ShadeContext& ctx, const TriShade& t, uint32_t tri, int px0, int py, const float* depth, int n,
            float* out);
// The share of a pixel's colour QuakeSpasm's world fog keeps at 1/w `invW`.
float distanceFogKeep(const MaterialSet::DistanceFog& fog, float invW);
// QuakeSpasm's world fog over the run's pixels (1/w depth[k]); distanceFogRunAvx2: the same bits, 8 at a time.
void distanceFogRun(const MaterialSet::DistanceFog& fog, const float* depth, int n, float* out);
#if defined(LUXEL_SHADE_AVX2)
LUXEL_AVX2 void distanceFogRunAvx2(const MaterialSet::DistanceFog& fog, const float* depth, int n, float* out);
#endif

#if defined(LUXEL_SHADE_AVX2)
LUXEL_AVX2 void skyBoxRunAvx2(const ShadeContext& ctx, uint32_t tri, const LookParams& lp, int px0, int py,
                              const float* depth, int n, float* out);

using RunFn = void (*)(const TriShade&, const LookParams&, int, float, const float*, int, float*);
// The lightmap loop for a triangle: single unit-weight slot (Quake 3) and the common looks get their own.
RunFn lightmapRunFor(const TriShade& t, const LookParams& lp);
LUXEL_AVX2 void vertexRunAvx2(const TriShade& t, const LookParams& lp, int dx, float fy, const float* depth, int n,
                              float* out);
LUXEL_AVX2 void texturedRunAvx2(const ShadeContext& ctx, const TriShade& t, const LookParams& lp, uint32_t tri, int dx,
                                float fy, const float* depth, int n, float* out);
// texturedRunAvx2 on n pixels anywhere in the triangle (dx[k], dy[k] relative to its plane origin, 1/w
// depth[k]): the pixels of several short runs packed into whole groups. Writes whole groups to out (3 floats
// per pixel, up to 7 pixels past n).
LUXEL_AVX2 void texturedPixelsAvx2(const ShadeContext& ctx, const TriShade& t, const LookParams& lp, uint32_t tri,
                                   const int32_t* dx, const int32_t* dy, const float* depth, int n, float* out);
// pixelCutoutKeeps' answer for n pixels (columns px[k], rows py[k]; the planes' origin x0, y0; 1/w invW[k]) of
// a power-of-two texture, 8 at a time, each lane on its own mip level: footprints whose alpha byte range lies
// wholly on one side of the test (CutoutBytes) are decided from the range, the rest filtered (texelAlphaAt).
LUXEL_AVX2 void cutoutKeepsAvx2(const Texture& tex, const TexFootprint& f, int x0, int y0, const int32_t* px,
                                const int32_t* py, const float* invW, int n, const CutoutBytes& test, uint8_t* keep);

// A finished row segment to the image with streaming stores; false when dst is not 32-byte aligned.
// Bit k set where a run starts: k = 0, or id[k] != id[k - 1] (n <= 64).
LUXEL_AVX2 uint64_t runStartsAvx2(const uint32_t* id, int n);
#endif

}  // namespace luxel::render::shading
