#include "luxel/render/shade.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <optional>

#if defined(__x86_64__)
#include <immintrin.h>
#define LUXEL_SHADE_AVX2 1
// AVX2 loops are compiled for that target only and picked at run time (raster::useAvx2), so the library
// still runs on plain x86-64.
#define LUXEL_AVX2 __attribute__((target("avx2")))
#endif

#include "luxel/light/light_grid.hpp"
#include "luxel/light/lightmap_sample.hpp"
#include "luxel/vis/visibility.hpp"

namespace luxel::render {

Vec3 clusterColor(int32_t cluster) {
    if (cluster < 0) return {0.5f, 0.5f, 0.5f};
    // murmur3 finaliser: neighbouring ids get unrelated colours.
    uint32_t h = uint32_t(cluster) + 0x9e3779b9u;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    // Keep channels in [0.15, 1] so no cluster is black like the background.
    auto ch = [&](int shift) { return 0.15f + 0.85f * float((h >> shift) & 0xff) / 255.0f; };
    return {ch(0), ch(8), ch(16)};
}

float depthGrey(float w, float wNear, float wFar) {
    if (!(wFar > wNear) || !(wNear > 0)) return 1.0f;
    float t = std::log(w / wNear) / std::log(wFar / wNear);
    t = std::clamp(t, 0.0f, 1.0f);
    return 1.0f - 0.9f * t;
}

GammaTable makeGammaTable(float gamma) {
    GammaTable t;
    if (!(gamma > 0) || !std::isfinite(gamma)) return t;
    const double p = 1.0 / double(gamma);
    if (!(p >= 0.25 && p <= 4.0)) return t;
    for (int e = -126; e <= 0; ++e) t.power[e + 126] = float(std::exp2(double(e) * p));
    t.power[127] = 1.0f;
    for (int i = 0; i < 1024; ++i) {
        const double a = std::pow(1.0 + double(i) / 1024.0, p), b = std::pow(1.0 + double(i + 1) / 1024.0, p);
        t.value[i] = float(a);
        t.slope[i] = float(b - a);
    }
    t.valid = true;
    return t;
}

float applyGamma(float v, const GammaTable& t) {
    const int32_t bits = std::bit_cast<int32_t>(v);
    // Zero (and denormals, whose power is below 2^-31 for 1/gamma <= 4).
    if (bits < 0x00800000) return 0.0f;
    const int e = std::min((bits >> 23) - 1, 127);
    const int i = (bits >> 13) & 1023;
    const float frac = float(bits & 0x1fff) * (1.0f / 8192.0f);
    return t.power[e] * (t.value[i] + t.slope[i] * frac);
}

namespace {

struct Bary {
    float b0, b1, b2;
};

inline Vec3 interp3(const Vec3& a, const Vec3& b, const Vec3& c, const Bary& w) {
    return {a.x * w.b0 + b.x * w.b1 + c.x * w.b2, a.y * w.b0 + b.y * w.b1 + c.y * w.b2,
            a.z * w.b0 + b.z * w.b1 + c.z * w.b2};
}

inline Vec2 interp2(const Vec2& a, const Vec2& b, const Vec2& c, const Bary& w) {
    return {a.x * w.b0 + b.x * w.b1 + c.x * w.b2, a.y * w.b0 + b.y * w.b1 + c.y * w.b2};
}

inline Vec4 interp4(const Vec4& a, const Vec4& b, const Vec4& c, const Bary& w) {
    return {a.x * w.b0 + b.x * w.b1 + c.x * w.b2, a.y * w.b0 + b.y * w.b1 + c.y * w.b2,
            a.z * w.b0 + b.z * w.b1 + c.z * w.b2, a.w * w.b0 + b.w * w.b1 + c.w * w.b2};
}

inline Vec3 rgb(const Vec4& c) { return {c.x, c.y, c.z}; }

struct Pixel {
    const SourceTri* src;
    const DrawVertex *v0, *v1, *v2;
    Bary bary;
};

inline Pixel resolve(const ShadeContext& ctx, uint32_t triId, int px, int py, float invW) {
    const raster::ShadeTri& st = ctx.tris[triId];
    const SourceTri& s = ctx.sources[st.source];
    const float iw = 1.0f / invW;
    float b1 = raster::evalPlane(st.b1W, st.x0, st.y0, px, py) * iw;
    float b2 = raster::evalPlane(st.b2W, st.x0, st.y0, px, py) * iw;
    const DrawVertex* base = vertexBase(ctx, s);
    return {&s, base + s.v[0], base + s.v[1], base + s.v[2], {1.0f - b1 - b2, b1, b2}};
}

inline Vec3 positionOf(const Pixel& p) { return interp3(p.v0->position, p.v1->position, p.v2->position, p.bary); }
inline Vec3 normalOf(const Pixel& p) { return normalize(interp3(p.v0->normal, p.v1->normal, p.v2->normal, p.bary)); }

template <RenderMode M>
inline Vec3 shadeOne(const ShadeContext& ctx, uint32_t triId, int px, int py, float invW) {
    if constexpr (M == RenderMode::Depth) {
        (void)triId;
        (void)px;
        (void)py;
        float g = depthGrey(1.0f / invW, ctx.depthNear, ctx.depthFar);
        return {g, g, g};
    } else {
        Pixel p = resolve(ctx, triId, px, py, invW);
        if constexpr (M == RenderMode::Normals) {
            return normalOf(p) * 0.5f + Vec3{0.5f, 0.5f, 0.5f};
        } else {
            static_assert(M == RenderMode::Clusters, "light-bearing modes are shaded by shadeLightBlock");
            // Step off the surface along its normal: the surface itself lies on a leaf boundary.
            return clusterColor(findCluster(*ctx.world, positionOf(p) + normalOf(p)));
        }
    }
}

// The look with its branches resolved once per block.
struct LookParams {
    bool linear = false;
    float hueClampAt = 0;
    bool gamma = false;
    float invGamma = 1;
    const GammaTable* table = nullptr;  // gamma through the table; nullptr: pow
};

LookParams lookParams(Look look, const EngineLook& engine, const GammaTable* table) {
    LookParams lp;
    lp.linear = look == Look::Linear;
    lp.hueClampAt = look == Look::EngineWindowed && engine.windowedHueClampAt > 0 ? engine.windowedHueClampAt
                                                                                 : engine.hueClampAt;
    lp.gamma = engine.gamma > 0 && engine.gamma != 1.0f;
    lp.invGamma = lp.gamma ? 1.0f / engine.gamma : 1.0f;
    lp.table = lp.gamma && table && table->valid ? table : nullptr;
    return lp;
}

LookParams lookParams(const ShadeContext& ctx) { return lookParams(ctx.look, ctx.world->look, ctx.gamma); }

inline float clamp01(float v) { return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; }  // NaN -> 0

inline Vec3 lookOf(Vec3 light, Vec3 albedo, const LookParams& lp) {
    if (lp.linear) return light * albedo;
    if (lp.hueClampAt > 0) {
        float m = std::max(light.x, std::max(light.y, light.z));
        if (m > lp.hueClampAt) light *= lp.hueClampAt / m;
    }
    Vec3 c{clamp01(light.x * albedo.x), clamp01(light.y * albedo.y), clamp01(light.z * albedo.z)};
    if (lp.gamma) {
        if (lp.table)
            c = {applyGamma(c.x, *lp.table), applyGamma(c.y, *lp.table), applyGamma(c.z, *lp.table)};
        else
            c = {std::pow(c.x, lp.invGamma), std::pow(c.y, lp.invGamma), std::pow(c.z, lp.invGamma)};
    }
    return c;
}

inline void put(float* out, Vec3 c, bool accumulate) {
    if (accumulate) {
        out[0] += c.x;
        out[1] += c.y;
        out[2] += c.z;
    } else {
        out[0] = c.x;
        out[1] = c.y;
        out[2] = c.z;
    }
}

// Clusters of a run. On a flat triangle the stepped-off points of a run lie on one 3D segment, and BSP
// leaves are convex: when both ends of a piece are in the same leaf, all of it is. Split until they are.
void shadeClusterRun(const ShadeContext& ctx, uint32_t tri, int px0, int py, const float* depth, int n, float* out,
                     bool accumulate) {
    const raster::ShadeTri& st = ctx.tris[tri];
    const SourceTri& src = ctx.sources[st.source];
    const DrawVertex* vb = vertexBase(ctx, src);
    const DrawVertex &a = vb[src.v[0]], &b = vb[src.v[1]], &c = vb[src.v[2]];
    if (!(a.normal == b.normal && a.normal == c.normal)) {
        for (int k = 0; k < n; ++k)
            put(out + 3 * k, shadeOne<RenderMode::Clusters>(ctx, tri, px0 + k, py, depth[k]), accumulate);
        return;
    }
    const Vec3 nrm = normalize(a.normal);
    auto leafAt = [&](int k) {
        const Pixel p = resolve(ctx, tri, px0 + k, py, depth[k]);
        return findLeaf(*ctx.world, positionOf(p) + nrm);
    };
    auto colorOf = [&](int32_t leaf) {
        return leaf < 0 ? clusterColor(-1) : clusterColor(ctx.world->leaves[size_t(leaf)].cluster);
    };
    // Explicit stack of [k0, k1] pieces with their end leaves known.
    struct Piece {
        int k0, k1;
        int32_t l0, l1;
    };
    Piece stack[64];
    int top = 0;
    stack[top++] = {0, n - 1, leafAt(0), n > 1 ? leafAt(n - 1) : -2};
    if (n == 1) stack[0].l1 = stack[0].l0;
    while (top > 0) {
        const Piece pc = stack[--top];
        if (pc.l0 == pc.l1) {
            const Vec3 col = colorOf(pc.l0);
            for (int k = pc.k0; k <= pc.k1; ++k) put(out + 3 * k, col, accumulate);
        } else if (pc.k1 - pc.k0 <= 1) {
            put(out + 3 * pc.k0, colorOf(pc.l0), accumulate);
            put(out + 3 * pc.k1, colorOf(pc.l1), accumulate);
        } else {
            const int mid = (pc.k0 + pc.k1) / 2;
            const int32_t lm = leafAt(mid);
            stack[top++] = {mid, pc.k1, lm, pc.l1};
            stack[top++] = {pc.k0, mid, pc.l0, lm};
        }
    }
}

// attribute/w plane of a value with vertex values f0, f1, f2: f = f0 + b1 (f1 - f0) + b2 (f2 - f0), so
// f/w = f0 (1/w) + (f1 - f0) (b1/w) + (f2 - f0) (b2/w), coefficient by coefficient.
inline raster::AttrPlane combine(const raster::ShadeTri& t, float f0, float f1, float f2) {
    const float d1 = f1 - f0, d2 = f2 - f0;
    return {f0 * t.invW.a + d1 * t.b1W.a + d2 * t.b2W.a, f0 * t.invW.b + d1 * t.b1W.b + d2 * t.b2W.b,
            f0 * t.invW.c + d1 * t.b1W.c + d2 * t.b2W.c};
}

// sampleLightmap with the page's constants hoisted and the lerps done on (r,g,b,0) vectors. Every lane
// sees the same IEEE single operations in the same order as sampleLightmap, so results are bit-identical
// (checked by a test).
struct PageView {
    const float* p;
    int w, h;
    float fw, fh, wMax, hMax;
};

inline PageView pageView(const float* rgb, int width, int height) {
    return {rgb, width, height, float(width), float(height), float(width - 1), float(height - 1)};
}

#if defined(__SSE2__)
using Rgb = __m128;
inline Rgb loadTexel(const float* t) {
    __m128 rg = _mm_loadl_pi(_mm_setzero_ps(), reinterpret_cast<const __m64*>(t));
    return _mm_movelh_ps(rg, _mm_load_ss(t + 2));
}
inline Rgb lerpRgb(Rgb a, Rgb b, Rgb t) { return _mm_add_ps(a, _mm_mul_ps(_mm_sub_ps(b, a), t)); }
inline Vec3 toVec3(Rgb c) {
    alignas(16) float f[4];
    _mm_store_ps(f, c);
    return {f[0], f[1], f[2]};
}
#endif

inline Vec3 sampleView(const PageView& pg, float u, float v) {
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

// Pixel loops of the light-bearing modes. A run is n pixels of one triangle on one row; dx is its first
// column relative to the triangle's plane origin, fy its row. The scalar loop is the reference; the AVX2
// loops do the same IEEE operations per lane and may write up to 8 pixels past the run (callers give
// them room and overwrite them).

// The light of a Lightmap or Vertex triangle at one pixel; Constant: the textured triangle's constantLight.
inline Vec3 lightAt(const TriShade& t, const PageView* pages, float fx, float fy, float iw) {
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

inline void pageViews(const TriShade& t, PageView* pages) {
    if (t.path == ShadePath::Lightmap)
        for (int s = 0; s < t.slots; ++s) pages[s] = pageView(t.page[s], t.pageWidth, t.pageHeight);
}

void lightRunScalar(const TriShade& t, const LookParams& lp, int dx, float fy, const float* depth, int n, float* out) {
    if (t.path == ShadePath::Constant || t.path == ShadePath::Probe) {  // Probe: shaded by probeRun, never here
        for (int k = 0; k < n; ++k) put(out + 3 * k, t.color, false);
        return;
    }
    PageView pages[kMaxLightmapSlots];
    pageViews(t, pages);
    for (int k = 0; k < n; ++k) {
        const float fx = float(dx + k), iw = 1.0f / depth[k];
        put(out + 3 * k, lookOf(lightAt(t, pages, fx, fy, iw), t.albedo, lp), false);
    }
}

// Grid mode: each pixel lit by the map's probes at its own position and normal. The point is stepped one
// unit off the surface along the normal first: the surface lies on a leaf boundary, and the light of
// the leaf in front of it is wanted (as the clusters mode does).
void probeRun(const ShadeContext& ctx, uint32_t tri, const LookParams& lp, int px0, int py, const float* depth, int n,
              float* out) {
    const Vec3 white{1, 1, 1};
    for (int k = 0; k < n; ++k) {
        const Pixel p = resolve(ctx, tri, px0 + k, py, depth[k]);
        const Vec3 nrm = normalOf(p);
        put(out + 3 * k, lookOf(probeLight(*ctx.probes, positionOf(p) + nrm, nrm), white, lp), false);
    }
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

inline TexFootprint texFootprint(const raster::AttrPlane& u, const raster::AttrPlane& v, const raster::AttrPlane& w,
                                 const Texture& tex) {
    const float width = float(tex.width()), height = float(tex.height());
    return {u,
            v,
            int(tex.mips.size()) - 1,
            {(u.a * w.c - u.c * w.a) * width, (u.a * w.b - u.b * w.a) * width},
            {(v.a * w.c - v.c * w.a) * height, (v.a * w.b - v.b * w.a) * height},
            {(u.b * w.c - u.c * w.b) * width, (u.b * w.a - u.a * w.b) * width},
            {(v.b * w.c - v.c * w.b) * height, (v.b * w.a - v.a * w.b) * height}};
}
inline TexFootprint texFootprint(const ShadeContext& ctx, const TriShade& t, uint32_t tri, const Texture& tex) {
    return texFootprint(t.texPlane[0], t.texPlane[1], ctx.tris[tri].invW, tex);
}
inline TexFootprint texFootprint(const ShadeContext& ctx, const TriShade& t, uint32_t tri) {
    return texFootprint(ctx, t, tri, *t.texture);
}

// |d(u, v)/dx|^2 * W^4 in texels^2: the same for a whole row.
inline float rowFootprint(const TexFootprint& f, float fy) {
    const float x = f.dxU[0] + f.dxU[1] * fy, y = f.dxV[0] + f.dxV[1] * fy;
    return x * x + y * y;
}

inline int pixelMipLevel(const TexFootprint& f, float rowSquare, float fx, float iw) {
    const float p = f.dyU[0] + f.dyU[1] * fx, q = f.dyV[0] + f.dyV[1] * fx;
    const float iw2 = iw * iw;
    return mipLevelFromSquare(std::max(rowSquare, p * p + q * q) * (iw2 * iw2), f.maxLevel);
}

// The texture's albedo (rgb) and alpha at one pixel.
inline Vec4 texelAt(const ShadeContext& ctx, const Texture& tex, const TexFootprint& f, float fx, float fy, float iw) {
    const float u = ((f.tu.c + f.tu.a * fx) + f.tu.b * fy) * iw, v = ((f.tv.c + f.tv.a * fx) + f.tv.b * fy) * iw;
    return sampleLevel(levelView(tex, pixelMipLevel(f, rowFootprint(f, fy), fx, iw)), u, v, *ctx.albedoTable);
}

// The surface's texture, or with a blend texture the mix of both by the interpolated vertex alpha.
inline Vec4 albedoAt(const ShadeContext& ctx, const TriShade& t, const TexFootprint& f, const TexFootprint* f2,
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

inline TexturedSetup texturedSetup(const ShadeContext& ctx, const TriShade& t, uint32_t tri) {
    TexturedSetup s{texFootprint(ctx, t, tri), std::nullopt, {}, {}};
    if (t.texture2) s.f2 = texFootprint(t.tex2Plane[0], t.tex2Plane[1], ctx.tris[tri].invW, *t.texture2);
    for (int d = 0; d < t.details; ++d)
        s.detail[d] = texFootprint(t.detailPlane[d][0], t.detailPlane[d][1], ctx.tris[tri].invW, *t.detail[d]);
    pageViews(t, s.pages);
    return s;
}

// x 2 * detail, per detail texture (the engine's GL_DST_COLOR GL_SRC_COLOR stages).
inline Vec4 withDetail(const ShadeContext& ctx, const TriShade& t, const TexturedSetup& s, Vec4 a, float fx, float fy,
                       float iw) {
    for (int d = 0; d < t.details; ++d) {
        const Vec4 k = texelAt(ctx, *t.detail[d], s.detail[d], fx, fy, iw);
        a = {a.x * (2 * k.x), a.y * (2 * k.y), a.z * (2 * k.z), a.w};
    }
    return a;
}

// One textured pixel: rgb with the look applied, and the albedo's alpha.
inline Vec4 texturedPixel(const ShadeContext& ctx, const TriShade& t, const TexturedSetup& s, const LookParams& lp,
                          float fx, float fy, float iw) {
    const Vec4 a = withDetail(ctx, t, s, albedoAt(ctx, t, s.f, s.f2 ? &*s.f2 : nullptr, fx, fy, iw), fx, fy, iw);
    const Vec3 c = lookOf(lightAt(t, s.pages, fx, fy, iw), Vec3{a.x, a.y, a.z} * t.albedo, lp);
    return {c.x, c.y, c.z, a.w};
}

void texturedRun(const ShadeContext& ctx, const TriShade& t, const LookParams& lp, uint32_t tri, int dx, float fy,
                 const float* depth, int n, float* out) {
    const TexturedSetup s = texturedSetup(ctx, t, tri);
    for (int k = 0; k < n; ++k) {
        const Vec4 c = texturedPixel(ctx, t, s, lp, float(dx + k), fy, 1.0f / depth[k]);
        put(out + 3 * k, Vec3{c.x, c.y, c.z}, false);
    }
}

// --- Stage programs ----------------------------------------------------------------------------------------
// A program's pixel is computed the way the engine's framebuffer builds it: each stage's colour (texture, the
// lightmap or white, times its colour generator) is blended over the result so far and clamped to [0, 1].
// Light enters the framebuffer as the engine loads it: the look's hue-preserving clamp, divided by the
// overbright ramp the display applies at the end (engine look: 2, so the lightmap is half of luxel's light
// and identityLight is 1/2; engine-windowed: 1). The linear look has no clamps and no ramp.

// GL blend factor values for source colour/alpha and destination colour/alpha.
Vec3 blendFactorOf(BlendFactor f, Vec3 src, float srcAlpha, Vec3 dst, float dstAlpha);

struct ProgramLight {
    bool linear = false;
    float ramp = 1;      // the display ramp: framebuffer values are light / ramp
    float clampAt = 0;   // the look's hue clamp (light units)
    Vec3 fb(Vec3 light) const {  // light as the framebuffer holds it
        if (linear) return light;
        if (clampAt > 0) {
            const float m = std::max(light.x, std::max(light.y, light.z));
            if (m > clampAt) light *= clampAt / m;
        }
        return light * (1.0f / ramp);
    }
};

inline ProgramLight programLight(const LookParams& lp) {
    ProgramLight p;
    p.linear = lp.linear;
    p.clampAt = lp.hueClampAt;
    p.ramp = !lp.linear && lp.hueClampAt > 0 ? lp.hueClampAt : 1.0f;
    return p;
}

// The largest squared stretch of the stage's affine map (its footprint scale).
inline float affineScale2(const MaterialStage& s) {
    return std::max(s.affine[0] * s.affine[0] + s.affine[1] * s.affine[1], s.affine[2] * s.affine[2] + s.affine[3] * s.affine[3]);
}

// The pixel's framebuffer value after every stage, starting from `behind` (what is drawn there already, in
// framebuffer units); `drawn` is false when the first stage's alpha test discards the pixel (it writes
// nothing, depth included). Returns the display value before the look (framebuffer x ramp).
Vec3 programPixel(const ShadeContext& ctx, const TriShade& t, const TexFootprint* feet, const PageView* pages,
                  const ProgramLight& pl, const Pixel& p, float fx, float fy, float iw, Vec3 behind = {},
                  bool* drawn = nullptr) {
    const Vec3 light = pl.fb(lightAt(t, pages, fx, fy, iw));
    const Vec4 vcolor = interp4(p.v0->color, p.v1->color, p.v2->color, p.bary);
    const Vec3 vertexLight = pl.fb({vcolor.x, vcolor.y, vcolor.z});
    const float identityLight = 1.0f / pl.ramp;
    Vec3 fb = behind;
    float fbAlpha = 1;
    if (drawn) *drawn = true;
    const auto& stages = t.program->stages;
    for (size_t k = 0; k < stages.size(); ++k) {
        const MaterialStage& s = stages[k];
        Vec3 c{1, 1, 1};
        float a = 1;
        if (s.source == MaterialStage::Source::Lightmap) {
            c = light;
        } else if (s.source == MaterialStage::Source::Texture && s.texture >= 0) {
            const Texture& tex = *ctx.materials->textures[size_t(s.texture)];
            Vec2 st;
            int level = 0;
            if (s.texGen == MaterialStage::TexGen::Environment) {
                // RB_CalcEnvironmentTexCoords: the view vector reflected about the normal.
                const Vec3 n = normalize(interp3(p.v0->normal, p.v1->normal, p.v2->normal, p.bary));
                const Vec3 viewer = normalize(ctx.eye - interp3(p.v0->position, p.v1->position, p.v2->position, p.bary));
                const Vec3 r = n * (2.0f * dot(n, viewer)) - viewer;
                st = {0.5f + r.y * 0.5f, 0.5f - r.z * 0.5f};
            } else {
                st = s.texGen == MaterialStage::TexGen::Lightmap
                         ? interp2(p.v0->lightmapUV, p.v1->lightmapUV, p.v2->lightmapUV, p.bary)
                         : interp2(p.v0->texUV, p.v1->texUV, p.v2->texUV, p.bary);
                const TexFootprint& f = feet[k];
                const float q = f.dyU[0] + f.dyU[1] * fx, r = f.dyV[0] + f.dyV[1] * fx;
                const float iw2 = iw * iw;
                level = mipLevelFromSquare(std::max(rowFootprint(f, fy), q * q + r * r) * (iw2 * iw2) * affineScale2(s),
                                           f.maxLevel);
            }
            st = {st.x * s.affine[0] + st.y * s.affine[2] + s.affine[4], st.x * s.affine[1] + st.y * s.affine[3] + s.affine[5]};
            if (s.clamp) st = {std::clamp(st.x, 0.0f, 1.0f), std::clamp(st.y, 0.0f, 1.0f)};
            const Vec4 texel = sampleLevel(levelView(tex, level), st.x, st.y, *ctx.albedoTable);
            c = {texel.x, texel.y, texel.z};
            a = texel.w;
        }
        switch (s.color) {
            case MaterialStage::Color::One: break;
            case MaterialStage::Color::IdentityLighting: c *= identityLight; break;
            case MaterialStage::Color::Vertex: c = c * vertexLight * identityLight; break;
            case MaterialStage::Color::ExactVertex: c = c * vertexLight; break;
            case MaterialStage::Color::OneMinusVertex: c = c * (Vec3{1, 1, 1} - vertexLight); break;
            case MaterialStage::Color::Constant: c = c * s.constant; break;
            case MaterialStage::Color::Wave: c = c * clamp01(s.constant.x * identityLight); break;
        }
        switch (s.alpha) {
            case MaterialStage::Alpha::Texture: break;
            case MaterialStage::Alpha::Vertex: a = vcolor.w; break;
            case MaterialStage::Alpha::OneMinusVertex: a = 1 - vcolor.w; break;
            case MaterialStage::Alpha::Constant: a = s.alphaConstant; break;
            case MaterialStage::Alpha::LightingSpecular: {
                const Vec3 pos = interp3(p.v0->position, p.v1->position, p.v2->position, p.bary);
                const Vec3 n = normalize(interp3(p.v0->normal, p.v1->normal, p.v2->normal, p.bary));
                const Vec3 l = normalize(Vec3{-960, 1980, 96} - pos);
                const Vec3 reflected = n * (2.0f * dot(n, l)) - l;
                const float v = dot(reflected, normalize(ctx.eye - pos));
                a = v < 0 ? 0.0f : std::min(1.0f, (v * v) * (v * v));
                break;
            }
        }
        const bool kept = s.alphaTest == MaterialStage::AlphaTest::None ||
                          (s.alphaTest == MaterialStage::AlphaTest::Gt0 && a > 0) ||
                          (s.alphaTest == MaterialStage::AlphaTest::Lt128 && a < 0.5f) ||
                          (s.alphaTest == MaterialStage::AlphaTest::Ge128 && a >= 0.5f);
        if (!kept) {
            if (k == 0 && drawn) {
                *drawn = false;
                return fb * pl.ramp;
            }
            continue;
        }
        if (s.blends) {
            c = c * blendFactorOf(s.src, c, a, fb, fbAlpha) + fb * blendFactorOf(s.dst, c, a, fb, fbAlpha);
        }
        fb = pl.linear ? c : Vec3{clamp01(c.x), clamp01(c.y), clamp01(c.z)};
        fbAlpha = a;
    }
    return fb * pl.ramp;
}

// What a program triangle's pixels share: lightmap page views, the look's light transform, and one
// footprint per stage texture (base coordinates; the stage's own scale enters per pixel).
struct ProgramSetup {
    PageView pages[kMaxLightmapSlots];
    ProgramLight pl;
    TexFootprint feet[kMaxProgramStages];
};

ProgramSetup programSetup(const ShadeContext& ctx, const TriShade& t, uint32_t tri, const LookParams& lp) {
    ProgramSetup s;
    pageViews(t, s.pages);
    s.pl = programLight(lp);
    const auto& stages = t.program->stages;
    for (size_t k = 0; k < stages.size() && k < kMaxProgramStages; ++k)
        if (stages[k].source == MaterialStage::Source::Texture && stages[k].texture >= 0)
            s.feet[k] = texFootprint(ctx, t, tri, *ctx.materials->textures[size_t(stages[k].texture)]);
    return s;
}

void programRun(const ShadeContext& ctx, const TriShade& t, const LookParams& lp, uint32_t tri, int px0, int py,
                const float* depth, int n, float* out) {
    const ProgramSetup s = programSetup(ctx, t, tri, lp);
    const float fy = float(py - t.y0);
    const Vec3 white{1, 1, 1};
    for (int k = 0; k < n; ++k) {
        const Pixel p = resolve(ctx, tri, px0 + k, py, depth[k]);
        const Vec3 c = programPixel(ctx, t, s.feet, s.pages, s.pl, p, float(px0 + k - t.x0), fy, 1.0f / depth[k]);
        put(out + 3 * k, lookOf(c, white, lp), false);
    }
}

}  // namespace

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

namespace {

// The fog of the run's surface over its pixels (display values), in the fog's colour.
void fogRun(const ShadeContext& ctx, const TriShade& t, uint32_t tri, int px0, int py, const float* depth, int n,
            float* out) {
    const FogVolume& fog = ctx.world->fogs[size_t(t.fog)];
    const MaterialSet::Fog& look = ctx.materials->fogs[size_t(t.fog)];
    for (int k = 0; k < n; ++k) {
        const Pixel p = resolve(ctx, tri, px0 + k, py, depth[k]);
        const float a = fogFactor(fog, look.distance, ctx.eye, ctx.viewForward, positionOf(p));
        float* o = out + 3 * k;
        o[0] += (look.color.x - o[0]) * a, o[1] += (look.color.y - o[1]) * a, o[2] += (look.color.z - o[2]) * a;
    }
}

}  // namespace

bool programOverPixel(const ShadeContext& ctx, uint32_t tri, int px, int py, float invW, float* rgb) {
    const TriShade& t = ctx.triShade[tri];
    const LookParams lp = lookParams(ctx);
    const ProgramSetup s = programSetup(ctx, t, tri, lp);
    const ProgramLight& pl = s.pl;
    // What is behind, back in framebuffer units (the display clamps at 1: exact below it).
    const Vec3 behind = Vec3{rgb[0], rgb[1], rgb[2]} * (1.0f / pl.ramp);
    bool drawn = true;
    const Pixel p = resolve(ctx, tri, px, py, invW);
    const Vec3 c = programPixel(ctx, t, s.feet, s.pages, pl, p, float(px - t.x0), float(py - t.y0), 1.0f / invW, behind, &drawn);
    if (!drawn) return false;
    const Vec3 out = lookOf(c, Vec3{1, 1, 1}, lp);
    rgb[0] = out.x, rgb[1] = out.y, rgb[2] = out.z;
    return true;
}

namespace {

// The texture of sky box face `face` (0..5), or nullptr when the face has none (drawn in the sky colour).
const Texture* skyFaceTexture(const ShadeContext& ctx, int face) {
    const int32_t index = ctx.materials->sky.faces[size_t(face)];
    if (index < 0 || size_t(index) >= ctx.materials->textures.size()) return nullptr;
    return ctx.materials->textures[size_t(index)].get();
}

// Where face coordinates (s, t) in [-1, 1] sample a face texture: clamped to the edge texels' centres,
// as the engines load sky images (clamp to edge), so a face's border does not mix in the opposite one.
inline Vec2 skyFaceUV(const Texture& tex, float s, float t) {
    const float du = 0.5f / float(tex.width()), dv = 0.5f / float(tex.height());
    return {std::clamp((s + 1.0f) * 0.5f, du, 1.0f - du), std::clamp((1.0f - t) * 0.5f, dv, 1.0f - dv)};
}

// Quake's sky box faces (tr_sky.c st_to_vec): rt +X, bk -X, lf +Y, ft -Y, up +Z, dn -Z, with the face's
// (s, t) in [-1, 1] and the picture's top row at t = +1.
Vec3 skyBoxColor(const ShadeContext& ctx, Vec3 d) {
    const Vec3 a{std::abs(d.x), std::abs(d.y), std::abs(d.z)};
    int face;
    float s, t;
    if (a.x >= a.y && a.x >= a.z) {
        face = d.x > 0 ? 0 : 1;
        s = d.x > 0 ? -d.y / a.x : d.y / a.x;
        t = d.z / a.x;
    } else if (a.y >= a.z) {
        face = d.y > 0 ? 2 : 3;
        s = d.y > 0 ? d.x / a.y : -d.x / a.y;
        t = d.z / a.y;
    } else {
        face = d.z > 0 ? 4 : 5;
        s = -d.y / a.z;
        t = d.z > 0 ? -d.x / a.z : d.x / a.z;
    }
    const Texture* tex = skyFaceTexture(ctx, face);
    if (!tex) return ctx.skyColor;
    const Vec4 c = sampleTexture(*tex, 0, skyFaceUV(*tex, s, t), *ctx.albedoTable);
    return {c.x, c.y, c.z};
}

// Where the view direction d meets the cloud dome, as ioquake3's R_InitSkyTexCoords places it: a sphere
// of radius R + h around (0, 0, -R) seen from the eye at the origin (R = 4096, h = the cloud height), the
// hit point v taken from the sphere's centre and normalised, s = acos(v.x), t = acos(v.y) (radians: the
// cloud stage's tcMods then scale them).
Vec2 cloudCoords(Vec3 d, float height) {
    constexpr float R = 4096.0f;
    d = normalize(d);
    const float p = -R * d.z + std::sqrt(R * R * d.z * d.z + 2.0f * R * height + height * height);
    const Vec3 v = normalize(d * p + Vec3{0, 0, R});
    return {std::acos(std::clamp(v.x, -1.0f, 1.0f)), std::acos(std::clamp(v.y, -1.0f, 1.0f))};
}

Vec3 blendFactorOf(BlendFactor f, Vec3 src, float srcAlpha, Vec3 dst, float dstAlpha) {
    switch (f) {
        case BlendFactor::One: return {1, 1, 1};
        case BlendFactor::Zero: return {0, 0, 0};
        case BlendFactor::SrcAlpha: return {srcAlpha, srcAlpha, srcAlpha};
        case BlendFactor::OneMinusSrcAlpha: return {1 - srcAlpha, 1 - srcAlpha, 1 - srcAlpha};
        case BlendFactor::DstColor: return dst;
        case BlendFactor::OneMinusDstColor: return Vec3{1, 1, 1} - dst;
        case BlendFactor::SrcColor: return src;
        case BlendFactor::OneMinusSrcColor: return Vec3{1, 1, 1} - src;
        case BlendFactor::DstAlpha: return {dstAlpha, dstAlpha, dstAlpha};
        case BlendFactor::OneMinusDstAlpha: return {1 - dstAlpha, 1 - dstAlpha, 1 - dstAlpha};
    }
    return {1, 1, 1};
}

// The sky in direction d: the far box (or the sky colour), then each cloud layer at the frame's time
// blended over it, each clamped to [0, 1] like a framebuffer. `footprint2`: squared change of the dome
// coordinates (radians) to the next pixel, for the layers' mip levels.
Vec3 skyColorAt(const ShadeContext& ctx, Vec3 d, Vec2 dome, float footprint2) {
    const SkyBox& sky = ctx.materials->sky;
    Vec3 c = sky.hasBox() ? skyBoxColor(ctx, d) : ctx.skyColor;
    for (const CloudLayer& layer : sky.clouds) {
        if (layer.texture < 0 || size_t(layer.texture) >= ctx.materials->textures.size()) continue;
        const Texture* tex = ctx.materials->textures[size_t(layer.texture)].get();
        if (!tex || tex->mips.empty()) continue;
        const Vec2 st = applyTexMods(layer.mods, dome, ctx.materials->time);
        // The mods scale the footprint by their scale factors (scroll and rotation keep it).
        float scale2 = 1;
        for (const TexMod& m : layer.mods)
            if (m.kind == TexMod::Kind::Scale) scale2 *= std::max(m.p[0] * m.p[0], m.p[1] * m.p[1]);
        const float texels = float(std::max(tex->width(), tex->height()));
        const int level = mipLevelFromSquare(footprint2 * scale2 * texels * texels, int(tex->mips.size()) - 1);
        const Vec4 s = sampleLevel(levelView(*tex, level), st.x, st.y, *ctx.albedoTable);
        const Vec3 src{s.x, s.y, s.z};
        // (The sky behind is opaque: destination alpha 1.)
        const Vec3 blended = src * blendFactorOf(layer.src, src, s.w, c, 1) + c * blendFactorOf(layer.dst, src, s.w, c, 1);
        c = {clamp01(blended.x), clamp01(blended.y), clamp01(blended.z)};
    }
    return c;
}

constexpr int kMaxSkyRun = 64;

void skyBoxRun(const ShadeContext& ctx, uint32_t tri, const LookParams& lp, int px0, int py, const float* depth, int n,
               float* out) {
    const Vec3 white{1, 1, 1};
    const SkyBox& sky = ctx.materials->sky;
    if (sky.clouds.empty()) {
        for (int k = 0; k < n; ++k) {
            const Pixel p = resolve(ctx, tri, px0 + k, py, depth[k]);
            put(out + 3 * k, lookOf(white, skyBoxColor(ctx, positionOf(p) - ctx.eye), lp), false);
        }
        return;
    }
    // Dome coordinates of the run's pixels and one past its end (the footprint of the last pixel), from
    // the triangle's planes extended outside it: the direction is a smooth function of the pixel.
    Vec3 dirs[kMaxSkyRun + 1];
    Vec2 dome[kMaxSkyRun + 1];
    if (n > kMaxSkyRun) {  // callers pass at most a segment; split anything longer
        skyBoxRun(ctx, tri, lp, px0, py, depth, kMaxSkyRun, out);
        skyBoxRun(ctx, tri, lp, px0 + kMaxSkyRun, py, depth + kMaxSkyRun, n - kMaxSkyRun, out + 3 * kMaxSkyRun);
        return;
    }
    const raster::ShadeTri& st = ctx.tris[tri];
    for (int k = 0; k <= n; ++k) {
        const float invW = k < n ? depth[k] : raster::evalPlane(st.invW, st.x0, st.y0, px0 + k, py);
        const Pixel p = resolve(ctx, tri, px0 + k, py, invW);
        dirs[size_t(k)] = positionOf(p) - ctx.eye;
        dome[size_t(k)] = cloudCoords(dirs[size_t(k)], sky.cloudHeight);
    }
    for (int k = 0; k < n; ++k) {
        const Vec2 a = dome[size_t(k)], b = dome[size_t(k) + 1];
        const float f2 = (b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y);
        put(out + 3 * k, lookOf(white, skyColorAt(ctx, dirs[size_t(k)], a, f2), lp), false);
    }
}

#if defined(LUXEL_SHADE_AVX2)

LUXEL_AVX2 inline __m256 gather(const float* base, __m256i index) { return _mm256_i32gather_ps(base, index, 4); }

// a + (b - a) * t, as lerp() and lerpRgb.
LUXEL_AVX2 inline __m256 lerp8(__m256 a, __m256 b, __m256 t) { return _mm256_add_ps(a, _mm256_mul_ps(_mm256_sub_ps(b, a), t)); }

// applyGamma on 8 values in [0,1].
LUXEL_AVX2 inline __m256 gamma8(__m256 v, const GammaTable& t) {
    const __m256i bits = _mm256_castps_si256(v);
    const __m256i small = _mm256_cmpgt_epi32(_mm256_set1_epi32(0x00800000), bits);
    __m256i e = _mm256_sub_epi32(_mm256_srai_epi32(bits, 23), _mm256_set1_epi32(1));
    e = _mm256_max_epi32(_mm256_min_epi32(e, _mm256_set1_epi32(127)), _mm256_setzero_si256());  // small lanes
    const __m256i i = _mm256_and_si256(_mm256_srli_epi32(bits, 13), _mm256_set1_epi32(1023));
    const __m256 frac =
        _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_and_si256(bits, _mm256_set1_epi32(0x1fff))), _mm256_set1_ps(1.0f / 8192.0f));
    const __m256 g = _mm256_add_ps(gather(t.value, i), _mm256_mul_ps(gather(t.slope, i), frac));
    return _mm256_andnot_ps(_mm256_castsi256_ps(small), _mm256_mul_ps(gather(t.power, e), g));
}

// lookOf's hue-keeping clamp on 8 pixels: light above clampAt scaled down with all three channels.
LUXEL_AVX2 inline void hueClamp8(__m256& r, __m256& g, __m256& b, float hueClampAt) {
    const __m256 clampAt = _mm256_set1_ps(hueClampAt);
    const __m256 m = _mm256_max_ps(_mm256_max_ps(b, g), r);
    const __m256 over = _mm256_cmp_ps(m, clampAt, _CMP_GT_OQ);
    if (_mm256_movemask_ps(over)) {
        const __m256 s = _mm256_div_ps(clampAt, m);
        r = _mm256_blendv_ps(r, _mm256_mul_ps(r, s), over);
        g = _mm256_blendv_ps(g, _mm256_mul_ps(g, s), over);
        b = _mm256_blendv_ps(b, _mm256_mul_ps(b, s), over);
    }
}

// lookOf on 8 pixels. std::max(a, b) is (a < b ? b : a), which is _mm256_max_ps(b, a); clamp01 is
// min(max(v, 0), 1) in that operand order, NaN -> 0 included.
LUXEL_AVX2 inline void look8(__m256& r, __m256& g, __m256& b, const TriShade& t, const LookParams& lp) {
    const __m256 ar = _mm256_set1_ps(t.albedo.x), ag = _mm256_set1_ps(t.albedo.y), ab = _mm256_set1_ps(t.albedo.z);
    if (lp.linear) {
        if (t.hasAlbedo) r = _mm256_mul_ps(r, ar), g = _mm256_mul_ps(g, ag), b = _mm256_mul_ps(b, ab);
        return;
    }
    if (lp.hueClampAt > 0) hueClamp8(r, g, b, lp.hueClampAt);
    if (t.hasAlbedo) r = _mm256_mul_ps(r, ar), g = _mm256_mul_ps(g, ag), b = _mm256_mul_ps(b, ab);
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    r = _mm256_min_ps(_mm256_max_ps(r, zero), one);
    g = _mm256_min_ps(_mm256_max_ps(g, zero), one);
    b = _mm256_min_ps(_mm256_max_ps(b, zero), one);
    if (lp.gamma) {  // callers only take this loop with a table
        r = gamma8(r, *lp.table);
        g = gamma8(g, *lp.table);
        b = gamma8(b, *lp.table);
    }
}

// One output vector of storeRgb8: lanes from r, g (lanes set in G) and b (lanes set in B) at index idx.
template <int G, int B>
LUXEL_AVX2 inline __m256 interleave8(__m256 r, __m256 g, __m256 b, __m256i idx) {
    return _mm256_blend_ps(_mm256_blend_ps(_mm256_permutevar8x32_ps(r, idx), _mm256_permutevar8x32_ps(g, idx), G),
                           _mm256_permutevar8x32_ps(b, idx), B);
}

// 8 pixels' r, g, b vectors to 24 interleaved floats: output float k is channel k % 3 of pixel k / 3.
LUXEL_AVX2 inline void storeRgb8(float* out, __m256 r, __m256 g, __m256 b) {
    _mm256_storeu_ps(out, interleave8<0x92, 0x24>(r, g, b, _mm256_setr_epi32(0, 0, 0, 1, 1, 1, 2, 2)));
    _mm256_storeu_ps(out + 8, interleave8<0x24, 0x49>(r, g, b, _mm256_setr_epi32(2, 3, 3, 3, 4, 4, 4, 5)));
    _mm256_storeu_ps(out + 16, interleave8<0x49, 0x92>(r, g, b, _mm256_setr_epi32(5, 5, 6, 6, 6, 7, 7, 7)));
}

// 24 interleaved floats (8 pixels' r, g, b) to r, g and b vectors: storeRgb8 backwards.
LUXEL_AVX2 inline void loadRgb8(const float* in, __m256& r, __m256& g, __m256& b) {
    const __m256 v0 = _mm256_loadu_ps(in), v1 = _mm256_loadu_ps(in + 8), v2 = _mm256_loadu_ps(in + 16);
    r = _mm256_permutevar8x32_ps(_mm256_blend_ps(_mm256_blend_ps(v0, v1, 0x92), v2, 0x24),
                                 _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5));
    g = _mm256_permutevar8x32_ps(_mm256_blend_ps(_mm256_blend_ps(v0, v1, 0x24), v2, 0x49),
                                 _mm256_setr_epi32(1, 4, 7, 2, 5, 0, 3, 6));
    b = _mm256_permutevar8x32_ps(_mm256_blend_ps(_mm256_blend_ps(v0, v1, 0x49), v2, 0x92),
                                 _mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7));
}

// Which look a run needs, resolved once per run so the pixel loop has no look branches.
enum class LookKind { Identity, HueClamp, General };

// lookOf on two pixels held as (r, g, b, junk) in each 128-bit half; the junk lane never mixes into the others.
// std::max(x, std::max(y, z)) is max_ps(max_ps(z, y), x) (see look8).
template <LookKind K>
LUXEL_AVX2 inline __m256 lookPair(__m256 c, __m256 albedo, __m256 clampAt, const TriShade& t, const LookParams& lp) {
    if constexpr (K == LookKind::Identity) {
        (void)albedo, (void)clampAt, (void)t, (void)lp;
        return c;
    } else {
        if (K == LookKind::General && lp.linear) return t.hasAlbedo ? _mm256_mul_ps(c, albedo) : c;
        if (K == LookKind::HueClamp || lp.hueClampAt > 0) {
            const __m256 m = _mm256_max_ps(_mm256_max_ps(_mm256_permute_ps(c, 0xaa), _mm256_permute_ps(c, 0x55)),
                                           _mm256_permute_ps(c, 0x00));
            const __m256 over = _mm256_cmp_ps(m, clampAt, _CMP_GT_OQ);
            if (_mm256_movemask_ps(over)) c = _mm256_blendv_ps(c, _mm256_mul_ps(c, _mm256_div_ps(clampAt, m)), over);
        }
        if (K == LookKind::General && t.hasAlbedo) c = _mm256_mul_ps(c, albedo);
        c = _mm256_min_ps(_mm256_max_ps(c, _mm256_setzero_ps()), _mm256_set1_ps(1.0f));
        if (K == LookKind::General && lp.gamma) c = gamma8(c, *lp.table);
        return c;
    }
}

// Two 128-bit loads into one register (pixel a low, pixel b high).
LUXEL_AVX2 inline __m256 load2(const float* a, const float* b) {
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(a)), _mm_loadu_ps(b), 1);
}

// Texel (r, g, b, 0) read without touching the floats after it.
LUXEL_AVX2 inline __m128 texel3(const float* t) {
    return _mm_movelh_ps(_mm_loadl_pi(_mm_setzero_ps(), reinterpret_cast<const __m64*>(t)), _mm_load_ss(t + 2));
}

// Bilinear sample of one style slot for pixels a and b (sampleView's lerps per lane), reading texels one
// by one: for groups with a pixel in the page's last column, where the right texel is the left one.
[[gnu::always_inline]] LUXEL_AVX2 inline __m256 samplePair(const float* pg, const int32_t* i00, const int32_t* i01,
                                                           const int32_t* step, int a, __m256 pax, __m256 pay) {
    const int b = a + 1;
    const __m256 t00 = _mm256_set_m128(texel3(pg + i00[b]), texel3(pg + i00[a]));
    const __m256 t10 = _mm256_set_m128(texel3(pg + i00[b] + step[b]), texel3(pg + i00[a] + step[a]));
    const __m256 t01 = _mm256_set_m128(texel3(pg + i01[b]), texel3(pg + i01[a]));
    const __m256 t11 = _mm256_set_m128(texel3(pg + i01[b] + step[b]), texel3(pg + i01[a] + step[a]));
    return lerp8(lerp8(t00, t10, pax), lerp8(t01, t11, pax), pay);
}

// The texels and look of `count` pixels of an 8-pixel group, two at a time (the last-column case); each
// pixel is stored as 16 bytes whose fourth float lands on the next pixel, which is stored after it.
template <bool Single, LookKind K>
LUXEL_AVX2 void lightmapPairs(const TriShade& t, const LookParams& lp, const int32_t* i00, const int32_t* i01,
                              const int32_t* step, __m256 ax, __m256 ay, int count, float* out) {
    const __m256 albedo = _mm256_setr_ps(t.albedo.x, t.albedo.y, t.albedo.z, 1, t.albedo.x, t.albedo.y, t.albedo.z, 1);
    const __m256 clampAt = _mm256_set1_ps(lp.hueClampAt);
    const __m256i pairLanes = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    for (int a = 0; a < count; a += 2) {
        const __m256i pairIdx = _mm256_add_epi32(_mm256_set1_epi32(a), pairLanes);
        const __m256 pax = _mm256_permutevar8x32_ps(ax, pairIdx), pay = _mm256_permutevar8x32_ps(ay, pairIdx);
        __m256 light = samplePair(t.page[0], i00, i01, step, a, pax, pay);
        if constexpr (!Single) {
            if (!t.unitWeight) light = _mm256_mul_ps(light, _mm256_set1_ps(t.weight[0]));
            for (int s = 1; s < t.slots; ++s)
                light = _mm256_add_ps(light, _mm256_mul_ps(samplePair(t.page[s], i00, i01, step, a, pax, pay),
                                                           _mm256_set1_ps(t.weight[s])));
        }
        light = lookPair<K>(light, albedo, clampAt, t, lp);
        _mm_storeu_ps(out + 3 * a, _mm256_castps256_ps128(light));
        _mm_storeu_ps(out + 3 * (a + 1), _mm256_extractf128_ps(light, 1));
    }
}

// Three channel vectors over 8 pixels (named, not an array, so they stay in registers).
struct Rgb8 {
    __m256 r, g, b;
};

// Rows First..First + 2 of the in-lane 4x4 transposes of a0..a3 (ymm k: pixel k low, pixel k + 4 high):
// three channel vectors over pixels 0..7 in order.
template <int First>
[[gnu::always_inline]] LUXEL_AVX2 inline Rgb8 transpose3(__m256 a0, __m256 a1, __m256 a2, __m256 a3) {
    const __m256 t0 = _mm256_unpacklo_ps(a0, a1), t1 = _mm256_unpackhi_ps(a0, a1);
    const __m256 t2 = _mm256_unpacklo_ps(a2, a3), t3 = _mm256_unpackhi_ps(a2, a3);
    if constexpr (First == 0)
        return {_mm256_shuffle_ps(t0, t2, 0x44), _mm256_shuffle_ps(t0, t2, 0xee), _mm256_shuffle_ps(t1, t3, 0x44)};
    else
        return {_mm256_shuffle_ps(t0, t2, 0xee), _mm256_shuffle_ps(t1, t3, 0x44), _mm256_shuffle_ps(t1, t3, 0xee)};
}

// One texel row of 8 pixels: the left texels (at float index idx[k]) and the right ones. Each is read per
// pixel as a 16-byte load, one at the left texel (r0 g0 b0 r1) and one two floats on (b0 r1 g1 b1),
// both inside the two texels, so nothing past the page is read; needs x1 = x0 + 1 in every lane.
[[gnu::always_inline]] LUXEL_AVX2 inline void texelRow8(const float* pg, const int32_t* idx, Rgb8& left, Rgb8& right) {
    left = transpose3<0>(load2(pg + idx[0], pg + idx[4]), load2(pg + idx[1], pg + idx[5]),
                         load2(pg + idx[2], pg + idx[6]), load2(pg + idx[3], pg + idx[7]));
    right = transpose3<1>(load2(pg + idx[0] + 2, pg + idx[4] + 2), load2(pg + idx[1] + 2, pg + idx[5] + 2),
                          load2(pg + idx[2] + 2, pg + idx[6] + 2), load2(pg + idx[3] + 2, pg + idx[7] + 2));
}

// The same for a group whose pixels all lie in one texel cell (magnified lightmaps: about half the
// groups): six broadcasts per texel row.
[[gnu::always_inline]] LUXEL_AVX2 inline void texelRowUniform(const float* t, Rgb8& left, Rgb8& right) {
    left = {_mm256_broadcast_ss(t), _mm256_broadcast_ss(t + 1), _mm256_broadcast_ss(t + 2)};
    right = {_mm256_broadcast_ss(t + 3), _mm256_broadcast_ss(t + 4), _mm256_broadcast_ss(t + 5)};
}

// One slot's bilinear samples of 8 pixels (sampleView's lerps per lane).
[[gnu::always_inline]] LUXEL_AVX2 inline Rgb8 sampleGroup(const float* pg, const int32_t* i00, const int32_t* i01,
                                                          bool oneCell, __m256 ax, __m256 ay) {
    Rgb8 l0, r0, l1, r1;
    if (oneCell) {
        texelRowUniform(pg + i00[0], l0, r0);
        texelRowUniform(pg + i01[0], l1, r1);
    } else {
        texelRow8(pg, i00, l0, r0);
        texelRow8(pg, i01, l1, r1);
    }
    return {lerp8(lerp8(l0.r, r0.r, ax), lerp8(l1.r, r1.r, ax), ay), lerp8(lerp8(l0.g, r0.g, ax), lerp8(l1.g, r1.g, ax), ay),
            lerp8(lerp8(l0.b, r0.b, ax), lerp8(l1.b, r1.b, ax), ay)};
}

// lookOf on 8 pixels for the run's look kind (see look8).
template <LookKind K>
[[gnu::always_inline]] LUXEL_AVX2 inline void lookGroup(Rgb8& c, const TriShade& t, const LookParams& lp) {
    if constexpr (K == LookKind::General) {
        look8(c.r, c.g, c.b, t, lp);
    } else if constexpr (K == LookKind::HueClamp) {
        const __m256 clampAt = _mm256_set1_ps(lp.hueClampAt);
        const __m256 m = _mm256_max_ps(_mm256_max_ps(c.b, c.g), c.r);
        const __m256 over = _mm256_cmp_ps(m, clampAt, _CMP_GT_OQ);
        // No branch: which pixels pass the clamp is too irregular to predict.
        const __m256 s = _mm256_div_ps(clampAt, m), zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
        c.r = _mm256_min_ps(_mm256_max_ps(_mm256_blendv_ps(c.r, _mm256_mul_ps(c.r, s), over), zero), one);
        c.g = _mm256_min_ps(_mm256_max_ps(_mm256_blendv_ps(c.g, _mm256_mul_ps(c.g, s), over), zero), one);
        c.b = _mm256_min_ps(_mm256_max_ps(_mm256_blendv_ps(c.b, _mm256_mul_ps(c.b, s), over), zero), one);
    } else {
        (void)c, (void)t, (void)lp;
    }
}

// The texels and look of a whole 8-pixel group whose lanes all have x1 = x0 + 1.
template <bool Single, LookKind K>
[[gnu::always_inline]] LUXEL_AVX2 inline Rgb8 lightmapGroup(const TriShade& t, const LookParams& lp, const int32_t* i00,
                                                            const int32_t* i01, bool oneCell, __m256 ax, __m256 ay) {
    Rgb8 c = sampleGroup(t.page[0], i00, i01, oneCell, ax, ay);
    if constexpr (!Single) {
        if (!t.unitWeight) {
            const __m256 w = _mm256_set1_ps(t.weight[0]);
            c = {_mm256_mul_ps(c.r, w), _mm256_mul_ps(c.g, w), _mm256_mul_ps(c.b, w)};
        }
        for (int s = 1; s < t.slots; ++s) {
            const Rgb8 more = sampleGroup(t.page[s], i00, i01, oneCell, ax, ay);
            const __m256 w = _mm256_set1_ps(t.weight[s]);
            c = {_mm256_add_ps(c.r, _mm256_mul_ps(more.r, w)), _mm256_add_ps(c.g, _mm256_mul_ps(more.g, w)),
                 _mm256_add_ps(c.b, _mm256_mul_ps(more.b, w))};
        }
    }
    lookGroup<K>(c, t, lp);
    return c;
}

// What every 8-pixel group of one lightmap run shares: the u/w, v/w planes on its row and the page's
// clamp limits and row length.
struct LightmapRow {
    __m256 ua, uc, uRow, va, vc, vRow;
    __m256 fw, fh, wMax, hMax;
    __m256i wLast, hLast, rowFloats;
    bool narrowPage;  // every texel is in the last column
};

LUXEL_AVX2 inline LightmapRow lightmapRow(const TriShade& t, float fy) {
    const raster::AttrPlane &pu = t.plane[0], &pv = t.plane[1];
    return {_mm256_set1_ps(pu.a),
            _mm256_set1_ps(pu.c),
            _mm256_set1_ps(pu.b * fy),
            _mm256_set1_ps(pv.a),
            _mm256_set1_ps(pv.c),
            _mm256_set1_ps(pv.b * fy),
            _mm256_set1_ps(float(t.pageWidth)),
            _mm256_set1_ps(float(t.pageHeight)),
            _mm256_set1_ps(float(t.pageWidth - 1)),
            _mm256_set1_ps(float(t.pageHeight - 1)),
            _mm256_set1_epi32(t.pageWidth - 1),
            _mm256_set1_epi32(t.pageHeight - 1),
            _mm256_set1_epi32(t.pageWidth * 3),
            t.pageWidth < 2};
}

// The lightmap light (look K applied) of 8 pixels at columns fx with 1/w = iw: plane evaluation, clamping
// and texel coordinates for all 8, then the texels of the whole group or, when a lane sits in the page's
// last column, per pixel pair (gathers would be simpler but cost ~11 cycles each on the machines we run
// on). Lanes outside `valid` (all but the first `left`) read texel (0, 0); their values are junk.
template <bool Single, LookKind K>
[[gnu::always_inline]] LUXEL_AVX2 inline Rgb8 lightmapLight8(const TriShade& t, const LookParams& lp, const LightmapRow& r,
                                                             __m256 fx, __m256 iw, __m256i valid, int left) {
    const __m256 half = _mm256_set1_ps(0.5f), zero = _mm256_setzero_ps();
    const __m256 u = _mm256_mul_ps(_mm256_add_ps(_mm256_add_ps(r.uc, _mm256_mul_ps(r.ua, fx)), r.uRow), iw);
    const __m256 v = _mm256_mul_ps(_mm256_add_ps(_mm256_add_ps(r.vc, _mm256_mul_ps(r.va, fx)), r.vRow), iw);
    // sampleView per lane: clamp to the page (NaN -> 0).
    __m256 tx = _mm256_sub_ps(_mm256_mul_ps(u, r.fw), half), ty = _mm256_sub_ps(_mm256_mul_ps(v, r.fh), half);
    tx = _mm256_and_ps(_mm256_cmp_ps(tx, zero, _CMP_GE_OQ), tx);
    ty = _mm256_and_ps(_mm256_cmp_ps(ty, zero, _CMP_GE_OQ), ty);
    tx = _mm256_min_ps(r.wMax, tx);
    ty = _mm256_min_ps(r.hMax, ty);
    const __m256i x0 = _mm256_and_si256(_mm256_cvttps_epi32(tx), valid);
    const __m256i y0 = _mm256_and_si256(_mm256_cvttps_epi32(ty), valid);
    const __m256i xStep = _mm256_cmpgt_epi32(r.wLast, x0);  // -1 where x1 = x0 + 1
    const __m256i y1 = _mm256_sub_epi32(y0, _mm256_cmpgt_epi32(r.hLast, y0));
    const __m256 ax = _mm256_sub_ps(tx, _mm256_cvtepi32_ps(x0)), ay = _mm256_sub_ps(ty, _mm256_cvtepi32_ps(y0));
    const __m256i col = _mm256_add_epi32(x0, _mm256_add_epi32(x0, x0));
    const __m256i v00 = _mm256_add_epi32(_mm256_mullo_epi32(y0, r.rowFloats), col);
    alignas(32) int32_t i00[8], i01[8], step[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(i00), v00);
    _mm256_store_si256(reinterpret_cast<__m256i*>(i01), _mm256_add_epi32(_mm256_mullo_epi32(y1, r.rowFloats), col));
    if (!r.narrowPage && _mm256_movemask_ps(_mm256_castsi256_ps(xStep)) == 0xff) {
        // One cell: every valid pixel has lane 0's top-left texel (then its bottom row matches too).
        const __m256i same = _mm256_cmpeq_epi32(v00, _mm256_permutevar8x32_epi32(v00, _mm256_setzero_si256()));
        const __m256i sameOrInvalid = _mm256_or_si256(same, _mm256_xor_si256(valid, _mm256_set1_epi32(-1)));
        const bool oneCell = _mm256_movemask_ps(_mm256_castsi256_ps(sameOrInvalid)) == 0xff;
        return lightmapGroup<Single, K>(t, lp, i00, i01, oneCell, ax, ay);
    }
    _mm256_store_si256(reinterpret_cast<__m256i*>(step), _mm256_and_si256(xStep, _mm256_set1_epi32(3)));
    alignas(32) float pairs[3 * 8 + 1] = {};  // the last pair's 16-byte store reaches one float past pixel 7
    lightmapPairs<Single, K>(t, lp, i00, i01, step, ax, ay, left, pairs);
    Rgb8 c;
    loadRgb8(pairs, c.r, c.g, c.b);
    return c;
}

// Lightmap runs, 8 pixels at a time.
template <bool Single, LookKind K>
LUXEL_AVX2 void lightmapRunAvx2(const TriShade& t, const LookParams& lp, int dx, float fy, const float* depth, int n,
                                float* out) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256 one = _mm256_set1_ps(1.0f);
    const LightmapRow row = lightmapRow(t, fy);
    for (int k = 0; k < n; k += 8) {
        const int left = std::min(8, n - k);
        const __m256i valid = _mm256_cmpgt_epi32(_mm256_set1_epi32(left), lane);
        // Lanes past the run read depth 0 (masked load: no access past the row); their values are dropped.
        const __m256 d = left == 8 ? _mm256_loadu_ps(depth + k) : _mm256_maskload_ps(depth + k, valid);
        const __m256 fx = _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32(dx + k), lane));
        const Rgb8 c = lightmapLight8<Single, K>(t, lp, row, fx, _mm256_div_ps(one, d), valid, left);
        storeRgb8(out + 3 * k, c.r, c.g, c.b);
    }
}

using RunFn = void (*)(const TriShade&, const LookParams&, int, float, const float*, int, float*);

// The lightmap loop for a triangle: single unit-weight slot (Quake 3) and the common looks get their own.
RunFn lightmapRunFor(const TriShade& t, const LookParams& lp) {
    const bool single = t.slots == 1 && t.unitWeight;
    if (!t.hasAlbedo && lp.linear)
        return single ? lightmapRunAvx2<true, LookKind::Identity> : lightmapRunAvx2<false, LookKind::Identity>;
    if (!t.hasAlbedo && !lp.linear && !lp.gamma && lp.hueClampAt > 0)
        return single ? lightmapRunAvx2<true, LookKind::HueClamp> : lightmapRunAvx2<false, LookKind::HueClamp>;
    return single ? lightmapRunAvx2<true, LookKind::General> : lightmapRunAvx2<false, LookKind::General>;
}

// Vertex-colour runs: three planes and the divide, 8 pixels at a time.
LUXEL_AVX2 void vertexRunAvx2(const TriShade& t, const LookParams& lp, int dx, float fy, const float* depth, int n,
                              float* out) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256 one = _mm256_set1_ps(1.0f);
    const raster::AttrPlane &p0 = t.plane[0], &p1 = t.plane[1], &p2 = t.plane[2];
    const __m256 a0 = _mm256_set1_ps(p0.a), c0 = _mm256_set1_ps(p0.c), row0 = _mm256_set1_ps(p0.b * fy);
    const __m256 a1 = _mm256_set1_ps(p1.a), c1 = _mm256_set1_ps(p1.c), row1 = _mm256_set1_ps(p1.b * fy);
    const __m256 a2 = _mm256_set1_ps(p2.a), c2 = _mm256_set1_ps(p2.c), row2 = _mm256_set1_ps(p2.b * fy);
    for (int k = 0; k < n; k += 8) {
        // Lanes past the run read depth 0 (masked load: no access past the row); their values are dropped.
        const __m256 d = n - k >= 8 ? _mm256_loadu_ps(depth + k)
                                    : _mm256_maskload_ps(depth + k, _mm256_cmpgt_epi32(_mm256_set1_epi32(n - k), lane));
        const __m256 fx = _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32(dx + k), lane));
        const __m256 iw = _mm256_div_ps(one, d);
        __m256 r = _mm256_mul_ps(_mm256_add_ps(_mm256_add_ps(c0, _mm256_mul_ps(a0, fx)), row0), iw);
        __m256 g = _mm256_mul_ps(_mm256_add_ps(_mm256_add_ps(c1, _mm256_mul_ps(a1, fx)), row1), iw);
        __m256 b = _mm256_mul_ps(_mm256_add_ps(_mm256_add_ps(c2, _mm256_mul_ps(a2, fx)), row2), iw);
        look8(r, g, b, t, lp);
        storeRgb8(out + 3 * k, r, g, b);
    }
}

LUXEL_AVX2 inline __m256 plane8(const raster::AttrPlane& p, __m256 fx, float fy, __m256 iw) {
    return _mm256_mul_ps(
        _mm256_add_ps(_mm256_add_ps(_mm256_set1_ps(p.c), _mm256_mul_ps(_mm256_set1_ps(p.a), fx)), _mm256_set1_ps(p.b * fy)),
        iw);
}

// Byte `c` of each texel: as a float (identity table: filtered first, scaled by 1/255 after, as
// sampleLevel does) or through the albedo table.
template <int C>
LUXEL_AVX2 inline __m256 texelChannel8(__m256i texel, bool identity, const float* lut) {
    constexpr char z = char(0x80);  // pshufb: a set high bit writes zero
    const __m256i pick = _mm256_setr_epi8(C, z, z, z, C + 4, z, z, z, C + 8, z, z, z, C + 12, z, z, z, C, z, z, z, C + 4, z,
                                          z, z, C + 8, z, z, z, C + 12, z, z, z);
    const __m256i b = _mm256_shuffle_epi8(texel, pick);
    return identity ? _mm256_cvtepi32_ps(b) : gather(lut, b);
}

template <int C>
LUXEL_AVX2 inline __m256 texBilerp8(__m256i ta, __m256i tb, __m256i tc, __m256i td, __m256 ax, __m256 ay, bool identity,
                                    const float* lut) {
    const __m256 top = lerp8(texelChannel8<C>(ta, identity, lut), texelChannel8<C>(tb, identity, lut), ax);
    const __m256 bottom = lerp8(texelChannel8<C>(tc, identity, lut), texelChannel8<C>(td, identity, lut), ax);
    const __m256 v = lerp8(top, bottom, ay);
    return identity ? _mm256_mul_ps(v, _mm256_set1_ps(1.0f / 255.0f)) : v;
}

// The 16 bytes at column-pair entries a (low half) and b (high half).
LUXEL_AVX2 inline __m256i loadQuads(const uint32_t* base, int32_t a, int32_t b) {
    return _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(base + 2 * size_t(a)))),
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + 2 * size_t(b))), 1);
}

// The four texels around each of 8 sample points, and the points' bilinear weights.
struct TexelQuad8 {
    __m256i topLeft, topRight, bottomLeft, bottomRight;
    __m256 ax, ay;
};

[[gnu::always_inline]] LUXEL_AVX2 inline TexelQuad8 fetchTexels8(const Texture& tex, int level, __m256 u, __m256 v) {
    const LevelView view = levelView(tex, level);
    const __m256 half = _mm256_set1_ps(0.5f);
    const __m256 limit = _mm256_set1_ps(4194304.0f), negLimit = _mm256_set1_ps(-4194304.0f);
    __m256 sx = _mm256_sub_ps(_mm256_mul_ps(u, _mm256_set1_ps(view.fw)), half);
    __m256 sy = _mm256_sub_ps(_mm256_mul_ps(v, _mm256_set1_ps(view.fh)), half);
    sx = _mm256_blendv_ps(negLimit, _mm256_min_ps(sx, limit), _mm256_cmp_ps(sx, negLimit, _CMP_GT_OQ));
    sy = _mm256_blendv_ps(negLimit, _mm256_min_ps(sy, limit), _mm256_cmp_ps(sy, negLimit, _CMP_GT_OQ));
    const __m256 flx = _mm256_floor_ps(sx), fly = _mm256_floor_ps(sy);
    TexelQuad8 q;
    q.ax = _mm256_sub_ps(sx, flx), q.ay = _mm256_sub_ps(sy, fly);
    const __m256i x0 = _mm256_and_si256(_mm256_cvttps_epi32(flx), _mm256_set1_epi32(view.width - 1));
    const __m256i y0 = _mm256_and_si256(_mm256_cvttps_epi32(fly), _mm256_set1_epi32(view.height - 1));
    // Texture::columnPairs: one 16-byte load per lane gives (top left, bottom left, top right, bottom right).
    alignas(32) int32_t entry[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(entry),
                       _mm256_add_epi32(_mm256_mullo_epi32(y0, _mm256_set1_epi32(view.width + 1)), x0));
    const uint32_t* base = tex.columnPairs[size_t(level)].data();
    const __m256i r0 = loadQuads(base, entry[0], entry[4]), r1 = loadQuads(base, entry[1], entry[5]);
    const __m256i r2 = loadQuads(base, entry[2], entry[6]), r3 = loadQuads(base, entry[3], entry[7]);
    // In-lane 4x4 transpose: texel corner by lane.
    const __m256i t0 = _mm256_unpacklo_epi32(r0, r1), t1 = _mm256_unpackhi_epi32(r0, r1);
    const __m256i t2 = _mm256_unpacklo_epi32(r2, r3), t3 = _mm256_unpackhi_epi32(r2, r3);
    q.topLeft = _mm256_unpacklo_epi64(t0, t2), q.bottomLeft = _mm256_unpackhi_epi64(t0, t2);
    q.topRight = _mm256_unpacklo_epi64(t1, t3), q.bottomRight = _mm256_unpackhi_epi64(t1, t3);
    return q;
}

[[gnu::always_inline]] LUXEL_AVX2 inline Rgb8 filterTexels8(const TexelQuad8& q, bool identity, const float* lut) {
    return {texBilerp8<0>(q.topLeft, q.topRight, q.bottomLeft, q.bottomRight, q.ax, q.ay, identity, lut),
            texBilerp8<1>(q.topLeft, q.topRight, q.bottomLeft, q.bottomRight, q.ax, q.ay, identity, lut),
            texBilerp8<2>(q.topLeft, q.topRight, q.bottomLeft, q.bottomRight, q.ax, q.ay, identity, lut)};
}

// lookOf(light, albedo) on 8 pixels.
LUXEL_AVX2 inline Rgb8 litLook8(__m256 lr, __m256 lg, __m256 lb, __m256 ar, __m256 ag, __m256 ab, const LookParams& lp) {
    if (lp.linear) return {_mm256_mul_ps(lr, ar), _mm256_mul_ps(lg, ag), _mm256_mul_ps(lb, ab)};
    if (lp.hueClampAt > 0) hueClamp8(lr, lg, lb, lp.hueClampAt);
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    Rgb8 c{_mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(lr, ar), zero), one),
           _mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(lg, ag), zero), one),
           _mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(lb, ab), zero), one)};
    if (lp.gamma) c = {gamma8(c.r, *lp.table), gamma8(c.g, *lp.table), gamma8(c.b, *lp.table)};
    return c;
}

// One axis of positionOf(p) - eye: (a0 * b0 + a1 * b1) + a2 * b2 - eye.
LUXEL_AVX2 inline __m256 skyAxis8(float a0, float a1, float a2, float eye, __m256 b0, __m256 b1, __m256 b2) {
    const __m256 p = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(a0), b0), _mm256_mul_ps(_mm256_set1_ps(a1), b1)),
                                   _mm256_mul_ps(_mm256_set1_ps(a2), b2));
    return _mm256_sub_ps(p, _mm256_set1_ps(eye));
}

// std::clamp(v, lo, hi) per lane (NaN stays NaN).
LUXEL_AVX2 inline __m256 clamp8(__m256 v, float lo, float hi) {
    const __m256 l = _mm256_set1_ps(lo), h = _mm256_set1_ps(hi);
    const __m256 upper = _mm256_blendv_ps(v, h, _mm256_cmp_ps(h, v, _CMP_LT_OQ));
    return _mm256_blendv_ps(upper, l, _mm256_cmp_ps(v, l, _CMP_LT_OQ));
}

// Sky box runs, 8 pixels at a time with the scalar loop's operations per lane (resolve, positionOf,
// skyBoxColor, lookOf): view direction from the barycentric planes, cube face, clamped bilinear sample.
// A group whose lanes see several faces, or a face texture that is not a power of two, goes pixel by pixel.
LUXEL_AVX2 void skyBoxRunAvx2(const ShadeContext& ctx, uint32_t tri, const LookParams& lp, int px0, int py,
                              const float* depth, int n, float* out) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256 one = _mm256_set1_ps(1.0f), zero = _mm256_setzero_ps();
    const __m256 signBit = _mm256_set1_ps(-0.0f);
    const raster::ShadeTri& st = ctx.tris[tri];
    const SourceTri& src = ctx.sources[st.source];
    const DrawVertex* base = vertexBase(ctx, src);
    const Vec3 p0 = base[src.v[0]].position, p1 = base[src.v[1]].position, p2 = base[src.v[2]].position;
    const float fy = float(py - st.y0);
    const bool identity = ctx.albedoTable->identity;
    const float* lut = ctx.albedoTable->value.data();
    for (int k = 0; k < n; k += 8) {
        const int left = std::min(8, n - k);
        const __m256i valid = _mm256_cmpgt_epi32(_mm256_set1_epi32(left), lane);
        const __m256 d = left == 8 ? _mm256_loadu_ps(depth + k) : _mm256_maskload_ps(depth + k, valid);
        const __m256 fx = _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32(px0 + k - st.x0), lane));
        const __m256 iw = _mm256_div_ps(one, d);
        const __m256 b1 = plane8(st.b1W, fx, fy, iw), b2 = plane8(st.b2W, fx, fy, iw);
        const __m256 b0 = _mm256_sub_ps(_mm256_sub_ps(one, b1), b2);
        const __m256 dx = skyAxis8(p0.x, p1.x, p2.x, ctx.eye.x, b0, b1, b2);
        const __m256 dy = skyAxis8(p0.y, p1.y, p2.y, ctx.eye.y, b0, b1, b2);
        const __m256 dz = skyAxis8(p0.z, p1.z, p2.z, ctx.eye.z, b0, b1, b2);
        const __m256 ax = _mm256_andnot_ps(signBit, dx), ay = _mm256_andnot_ps(signBit, dy), az = _mm256_andnot_ps(signBit, dz);
        const __m256 xMajor = _mm256_and_ps(_mm256_cmp_ps(ax, ay, _CMP_GE_OQ), _mm256_cmp_ps(ax, az, _CMP_GE_OQ));
        const __m256 yMajor = _mm256_andnot_ps(xMajor, _mm256_cmp_ps(ay, az, _CMP_GE_OQ));
        const __m256 positive = _mm256_cmp_ps(_mm256_blendv_ps(_mm256_blendv_ps(dz, dy, yMajor), dx, xMajor), zero, _CMP_GT_OQ);
        // face = 2 * axis + (positive ? 0 : 1), axis 0 x, 1 y, 2 z
        const __m256i axisIndex = _mm256_sub_epi32(_mm256_set1_epi32(2), _mm256_add_epi32(
            _mm256_and_si256(_mm256_castps_si256(xMajor), _mm256_set1_epi32(2)),
            _mm256_and_si256(_mm256_castps_si256(yMajor), _mm256_set1_epi32(1))));
        const __m256i faces = _mm256_add_epi32(_mm256_add_epi32(axisIndex, axisIndex),
                                               _mm256_andnot_si256(_mm256_castps_si256(positive), _mm256_set1_epi32(1)));
        const __m256i sameFace = _mm256_cmpeq_epi32(faces, _mm256_permutevar8x32_epi32(faces, _mm256_setzero_si256()));
        const int face = _mm256_cvtsi256_si32(faces);
        const Texture* tex = skyFaceTexture(ctx, face);
        const bool powerOfTwo = tex && (tex->width() & (tex->width() - 1)) == 0 && (tex->height() & (tex->height() - 1)) == 0;
        if (!_mm256_testc_si256(sameFace, valid) || (tex && !powerOfTwo)) {
            skyBoxRun(ctx, tri, lp, px0 + k, py, depth + k, left, out + 3 * k);
            continue;
        }
        Rgb8 color;
        if (!tex) {
            color = {_mm256_set1_ps(ctx.skyColor.x), _mm256_set1_ps(ctx.skyColor.y), _mm256_set1_ps(ctx.skyColor.z)};
        } else {
            // skyBoxColor's (s, t) for this face: -x is x with its sign flipped (exact, as in the scalar code).
            __m256 sNum, tNum, major;
            switch (face) {
                case 0: sNum = _mm256_xor_ps(dy, signBit), tNum = dz, major = ax; break;
                case 1: sNum = dy, tNum = dz, major = ax; break;
                case 2: sNum = dx, tNum = dz, major = ay; break;
                case 3: sNum = _mm256_xor_ps(dx, signBit), tNum = dz, major = ay; break;
                case 4: sNum = _mm256_xor_ps(dy, signBit), tNum = _mm256_xor_ps(dx, signBit), major = az; break;
                default: sNum = _mm256_xor_ps(dy, signBit), tNum = dx, major = az; break;
            }
            const __m256 sFace = _mm256_div_ps(sNum, major), tFace = _mm256_div_ps(tNum, major);
            const __m256 half = _mm256_set1_ps(0.5f);
            const float du = 0.5f / float(tex->width()), dv = 0.5f / float(tex->height());
            const __m256 u = clamp8(_mm256_mul_ps(_mm256_add_ps(sFace, one), half), du, 1.0f - du);
            const __m256 v = clamp8(_mm256_mul_ps(_mm256_sub_ps(one, tFace), half), dv, 1.0f - dv);
            color = filterTexels8(fetchTexels8(*tex, 0, u, v), identity, lut);
        }
        const Rgb8 c = litLook8(one, one, one, color.r, color.g, color.b, lp);
        storeRgb8(out + 3 * k, c.r, c.g, c.b);
    }
}

// What the textured loop needs per row: the planes of the texture and of its mip level footprint.
struct TexturedRow {
    const Texture* texture;
    raster::AttrPlane tu, tv;
    float fy;
    __m256 rowSquare, dyU0, dyU1, dyV0, dyV1;
    __m256i maxLevel;
};

// Each lane's mip level (pixelMipLevel) and texture coordinates.
[[gnu::always_inline]] LUXEL_AVX2 inline __m256i mipLevels8(const TexturedRow& r, __m256 fx, __m256 iw) {
    const __m256 p = _mm256_add_ps(r.dyU0, _mm256_mul_ps(r.dyU1, fx)), q = _mm256_add_ps(r.dyV0, _mm256_mul_ps(r.dyV1, fx));
    const __m256 columnSquare = _mm256_add_ps(_mm256_mul_ps(p, p), _mm256_mul_ps(q, q));
    const __m256 iw2 = _mm256_mul_ps(iw, iw);
    // std::max(rowSquare, columnSquare) * (iw2 * iw2)
    const __m256 f2 = _mm256_mul_ps(_mm256_max_ps(columnSquare, r.rowSquare), _mm256_mul_ps(iw2, iw2));
    const __m256i minified = _mm256_castps_si256(_mm256_cmp_ps(f2, _mm256_set1_ps(1.0f), _CMP_GT_OQ));
    const __m256i level = _mm256_srai_epi32(
        _mm256_sub_epi32(_mm256_srli_epi32(_mm256_castps_si256(f2), 23), _mm256_set1_epi32(126)), 1);  // (e + 1) >> 1
    return _mm256_and_si256(_mm256_min_epi32(level, r.maxLevel), minified);
}

// Albedo of a group whose lanes are on several mip levels: one pass per distinct level among the valid
// lanes, each lane taking its own.
[[gnu::noinline]] LUXEL_AVX2 Rgb8 mixedLevelAlbedo8(const TexturedRow& r, __m256 fx, __m256 iw, __m256i valid, bool identity,
                                                   const float* lut) {
    const __m256 u = plane8(r.tu, fx, r.fy, iw), v = plane8(r.tv, fx, r.fy, iw);
    const __m256i level = mipLevels8(r, fx, iw);
    alignas(32) int32_t levels[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(levels), level);
    Rgb8 c{_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()};
    __m256i todo = valid;
    while (!_mm256_testz_si256(todo, todo)) {
        const int first = std::countr_zero(unsigned(_mm256_movemask_ps(_mm256_castsi256_ps(todo))));
        const __m256i mine = _mm256_and_si256(todo, _mm256_cmpeq_epi32(level, _mm256_set1_epi32(levels[first])));
        const Rgb8 s = filterTexels8(fetchTexels8(*r.texture, levels[first], u, v), identity, lut);
        const __m256 take = _mm256_castsi256_ps(mine);
        c = {_mm256_blendv_ps(c.r, s.r, take), _mm256_blendv_ps(c.g, s.g, take), _mm256_blendv_ps(c.b, s.b, take)};
        todo = _mm256_andnot_si256(mine, todo);
    }
    return c;
}

constexpr int kMaxRun = 64;  // shadeLightBlock's segment: no run is longer

// Textured runs in two passes over the run's 8-pixel groups: first the divide, mip levels and texel
// fetches of every group (gathers, whose latency the next groups' fetches then overlap), then light,
// filtering and look.
LUXEL_AVX2 inline TexturedRow texturedRow(const Texture* tex, const TexFootprint& f, float fy) {
    return {tex,
            f.tu,
            f.tv,
            fy,
            _mm256_set1_ps(rowFootprint(f, fy)),
            _mm256_set1_ps(f.dyU[0]),
            _mm256_set1_ps(f.dyU[1]),
            _mm256_set1_ps(f.dyV[0]),
            _mm256_set1_ps(f.dyV[1]),
            _mm256_set1_epi32(f.maxLevel)};
}

// A texture at each lane's own mip level, as the scalar texelAt samples it.
LUXEL_AVX2 inline Rgb8 sampleRow8(const TexturedRow& r, __m256 fx, __m256 iw, __m256i valid, bool identity, const float* lut) {
    const __m256i level = mipLevels8(r, fx, iw);
    const __m256i onFirst = _mm256_cmpeq_epi32(level, _mm256_permutevar8x32_epi32(level, _mm256_setzero_si256()));
    if (!_mm256_testc_si256(onFirst, valid)) return mixedLevelAlbedo8(r, fx, iw, valid, identity, lut);
    return filterTexels8(fetchTexels8(*r.texture, _mm256_cvtsi256_si32(level), plane8(r.tu, fx, r.fy, iw), plane8(r.tv, fx, r.fy, iw)),
                         identity, lut);
}

LUXEL_AVX2 void texturedRunAvx2(const ShadeContext& ctx, const TriShade& t, const LookParams& lp, uint32_t tri, int dx,
                                float fy, const float* depth, int n, float* out) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256 one = _mm256_set1_ps(1.0f);
    const TexFootprint f = texFootprint(ctx, t, tri);
    const bool identityTable = ctx.albedoTable->identity;
    const float* lut = ctx.albedoTable->value.data();
    const TexturedRow row{t.texture,
                          f.tu,
                          f.tv,
                          fy,
                          _mm256_set1_ps(rowFootprint(f, fy)),
                          _mm256_set1_ps(f.dyU[0]),
                          _mm256_set1_ps(f.dyU[1]),
                          _mm256_set1_ps(f.dyV[0]),
                          _mm256_set1_ps(f.dyV[1]),
                          _mm256_set1_epi32(f.maxLevel)};
    constexpr int kGroups = kMaxRun / 8;
    TexelQuad8 quads[kGroups];
    __m256 invW[kGroups];
    uint32_t mixed = 0;  // groups whose lanes are on several levels
    for (int k = 0, g = 0; k < n; k += 8, ++g) {
        const __m256i valid = _mm256_cmpgt_epi32(_mm256_set1_epi32(n - k), lane);
        const __m256 d = n - k >= 8 ? _mm256_loadu_ps(depth + k) : _mm256_maskload_ps(depth + k, valid);
        const __m256 fx = _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32(dx + k), lane));
        const __m256 iw = _mm256_div_ps(one, d);
        invW[g] = iw;
        const __m256i level = mipLevels8(row, fx, iw);
        const __m256i onFirst = _mm256_cmpeq_epi32(level, _mm256_permutevar8x32_epi32(level, _mm256_setzero_si256()));
        if (!_mm256_testc_si256(onFirst, valid)) {  // some valid lane is on another level
            mixed |= 1u << g;
            continue;
        }
        quads[g] = fetchTexels8(*t.texture, _mm256_cvtsi256_si32(level), plane8(f.tu, fx, fy, iw), plane8(f.tv, fx, fy, iw));
    }
    // Lightmapped: the light is what the lightmap loop returns in its identity look (no albedo, no clamp),
    // which is exactly sampleView * weight (the scalar loop's light).
    TexturedRow texture2Row{};
    if (t.texture2)
        texture2Row = texturedRow(t.texture2, texFootprint(t.tex2Plane[0], t.tex2Plane[1], ctx.tris[tri].invW, *t.texture2), fy);
    TexturedRow detailRows[2];
    for (int d = 0; d < t.details; ++d)
        detailRows[d] = texturedRow(t.detail[d], texFootprint(t.detailPlane[d][0], t.detailPlane[d][1], ctx.tris[tri].invW, *t.detail[d]), fy);
    const bool lightmapped = t.path == ShadePath::Lightmap, unitLight = t.unitWeight;
    const LightmapRow lightRow = lightmapped ? lightmapRow(t, fy) : LightmapRow{};
    for (int k = 0, g = 0; k < n; k += 8, ++g) {
        const int left = std::min(8, n - k);
        const __m256i valid = _mm256_cmpgt_epi32(_mm256_set1_epi32(left), lane);
        const __m256 fx = _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32(dx + k), lane));
        const __m256 iw = invW[g];
        // Light.
        __m256 lr, lg, lb;
        if (lightmapped) {
            const Rgb8 l = unitLight ? lightmapLight8<true, LookKind::Identity>(t, lp, lightRow, fx, iw, valid, left)
                                     : lightmapLight8<false, LookKind::Identity>(t, lp, lightRow, fx, iw, valid, left);
            lr = l.r, lg = l.g, lb = l.b;
        } else if (t.path == ShadePath::Vertex) {
            lr = plane8(t.plane[0], fx, fy, iw), lg = plane8(t.plane[1], fx, fy, iw), lb = plane8(t.plane[2], fx, fy, iw);
        } else {
            lr = _mm256_set1_ps(t.constantLight.x), lg = _mm256_set1_ps(t.constantLight.y);
            lb = _mm256_set1_ps(t.constantLight.z);
        }
        Rgb8 albedo = (mixed >> g) & 1u ? mixedLevelAlbedo8(row, fx, iw, valid, identityTable, lut)
                                        : filterTexels8(quads[g], identityTable, lut);
        if (t.texture2) {  // albedoAt: lerp(texture, texture2 x its scale, clamped vertex alpha)
            const Rgb8 b = sampleRow8(texture2Row, fx, iw, valid, identityTable, lut);
            const __m256 k = _mm256_set1_ps(t.texture2Scale);
            const __m256 s = _mm256_min_ps(_mm256_max_ps(plane8(t.blendPlane, fx, fy, iw), _mm256_setzero_ps()), one);
            albedo = {_mm256_add_ps(albedo.r, _mm256_mul_ps(_mm256_sub_ps(_mm256_mul_ps(b.r, k), albedo.r), s)),
                      _mm256_add_ps(albedo.g, _mm256_mul_ps(_mm256_sub_ps(_mm256_mul_ps(b.g, k), albedo.g), s)),
                      _mm256_add_ps(albedo.b, _mm256_mul_ps(_mm256_sub_ps(_mm256_mul_ps(b.b, k), albedo.b), s))};
        }
        for (int d = 0; d < t.details; ++d) {  // x 2 * detail (withDetail)
            const Rgb8 k = sampleRow8(detailRows[d], fx, iw, valid, identityTable, lut);
            const __m256 two = _mm256_set1_ps(2.0f);
            albedo = {_mm256_mul_ps(albedo.r, _mm256_mul_ps(two, k.r)), _mm256_mul_ps(albedo.g, _mm256_mul_ps(two, k.g)),
                      _mm256_mul_ps(albedo.b, _mm256_mul_ps(two, k.b))};
        }
        const __m256 ar = _mm256_mul_ps(albedo.r, _mm256_set1_ps(t.albedo.x));
        const __m256 ag = _mm256_mul_ps(albedo.g, _mm256_set1_ps(t.albedo.y));
        const __m256 ab = _mm256_mul_ps(albedo.b, _mm256_set1_ps(t.albedo.z));
        const Rgb8 c = litLook8(lr, lg, lb, ar, ag, ab, lp);
        storeRgb8(out + 3 * k, c.r, c.g, c.b);
    }
}

// A finished row segment to the image with streaming stores: the frame is written once and not read
// again here, so its cache lines need not be fetched first. Returns false when dst is not 32-byte aligned.
LUXEL_AVX2 bool streamRow(float* dst, const float* src, int nf) {
    if (reinterpret_cast<uintptr_t>(dst) % 32 != 0) return false;
    int f = 0;
    for (; f + 8 <= nf; f += 8) _mm256_stream_ps(dst + f, _mm256_load_ps(src + f));
    for (; f < nf; ++f) dst[f] = src[f];
    return true;
}

LUXEL_AVX2 void streamFence() { _mm_sfence(); }

// Bit k set where a run starts: k = 0, or id[k] != id[k - 1] (n <= 64).
LUXEL_AVX2 uint64_t runStartsAvx2(const uint32_t* id, int n) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    uint64_t starts = 1;
    for (int k = 0; k < n; k += 8) {
        const __m256i valid = _mm256_cmpgt_epi32(_mm256_set1_epi32(n - k), lane);
        const __m256i cur = _mm256_maskload_epi32(reinterpret_cast<const int*>(id + k), valid);
        const __m256i prev = k == 0 ? _mm256_permutevar8x32_epi32(cur, _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6))
                                    : _mm256_loadu_si256(reinterpret_cast<const __m256i*>(id + k - 1));
        const uint32_t same = uint32_t(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(cur, prev))));
        starts |= uint64_t(~same & 0xffu) << k;
    }
    return n == 64 ? starts : starts & ((uint64_t(1) << n) - 1);
}

#endif

void texturedRunFor(const ShadeContext& ctx, const TriShade& t, const LookParams& lp, uint32_t tri, int dx, float fy,
                    const float* depth, int n, float* out, bool vec) {
#if defined(LUXEL_SHADE_AVX2)
    const RgbaImage& base = t.texture->mips[0];
    const bool powerOfTwo = (base.width & (base.width - 1)) == 0 && (base.height & (base.height - 1)) == 0;
    const bool texture2PowerOfTwo =
        !t.texture2 || ((t.texture2->mips[0].width & (t.texture2->mips[0].width - 1)) == 0 &&
                        (t.texture2->mips[0].height & (t.texture2->mips[0].height - 1)) == 0);
    if (vec && powerOfTwo && texture2PowerOfTwo && (t.path != ShadePath::Lightmap || t.narrowIndices) &&
        size_t(base.width) * size_t(base.height) < (size_t(1) << 31))
        return texturedRunAvx2(ctx, t, lp, tri, dx, fy, depth, n, out);
#else
    (void)vec;
#endif
    texturedRun(ctx, t, lp, tri, dx, fy, depth, n, out);
}

// Light-bearing modes: runs of one triangle per row are shaded into a row buffer (the vector loop
// overruns a run's end into the next run's pixels, which that run then overwrites), and each row goes to
// the image in one pass.
uint32_t shadeLightBlock(const ShadeContext& ctx, const float* depth, const uint32_t* id, int stride, int x, int y,
                         int w, int h, Image& image, bool accumulate, uint32_t* missingTexture) {
    uint32_t missing = 0;
    const Vec3 bg = ctx.background;
    const LookParams lp = lookParams(ctx);
#if defined(LUXEL_SHADE_AVX2)
    const bool vec = raster::useAvx2() && (!lp.gamma || lp.table);
#endif
    constexpr int kSegment = kMaxRun;
    alignas(32) float buf[(kSegment + 9) * 3];
    uint32_t covered = 0;
    bool streamed = false;
    for (int j = 0; j < h; ++j) {
        const float* drow = depth + size_t(j) * size_t(stride);
        const uint32_t* irow = id + size_t(j) * size_t(stride);
        float* out = image.at(x, y + j);
        for (int s0 = 0; s0 < w; s0 += kSegment) {
            const int s1 = std::min(w, s0 + kSegment);
            uint64_t starts;
#if defined(LUXEL_SHADE_AVX2)
            if (vec)
                starts = runStartsAvx2(irow + s0, s1 - s0);
            else
#endif
            {
                starts = 1;
                for (int k = s0 + 1; k < s1; ++k) starts |= uint64_t(irow[k] != irow[k - 1]) << (k - s0);
            }
            starts &= starts - 1;  // the first run's start is i = s0
            int i = s0;
            while (i < s1) {
                const uint32_t tri = irow[i];
                const int end = starts ? s0 + std::countr_zero(starts) : s1;
                starts &= starts - 1;
                float* o = buf + 3 * (i - s0);
                if (tri == raster::kNoTriangle) {
                    for (int k = 0; k < end - i; ++k) put(o + 3 * k, bg, false);
                } else {
                    covered += uint32_t(end - i);
                    const TriShade& t = ctx.triShade[tri];
                    if (t.missingTexture) missing += uint32_t(end - i);
                    const float fy = float(y + j - t.y0);
                    const int dx = x + i - t.x0;
                    if (t.path == ShadePath::Probe)
                        probeRun(ctx, tri, lp, x + i, y + j, drow + i, end - i, o);
                    else if (t.skyBox)
#if defined(LUXEL_SHADE_AVX2)
                        vec && ctx.materials->sky.clouds.empty() ? skyBoxRunAvx2(ctx, tri, lp, x + i, y + j, drow + i, end - i, o) :
#endif
                              skyBoxRun(ctx, tri, lp, x + i, y + j, drow + i, end - i, o);
                    else if (t.program)
                        programRun(ctx, t, lp, tri, x + i, y + j, drow + i, end - i, o);
                    else if (t.texture)
                        texturedRunFor(ctx, t, lp, tri, dx, fy, drow + i, end - i, o,
#if defined(LUXEL_SHADE_AVX2)
                                       vec
#else
                                       false
#endif
                        );
                    else
#if defined(LUXEL_SHADE_AVX2)
                    if (vec && t.path == ShadePath::Lightmap && t.narrowIndices)
                        lightmapRunFor(t, lp)(t, lp, dx, fy, drow + i, end - i, o);
                    else if (vec && t.path == ShadePath::Vertex)
                        vertexRunAvx2(t, lp, dx, fy, drow + i, end - i, o);
                    else
#endif
                        lightRunScalar(t, lp, dx, fy, drow + i, end - i, o);
                    if (t.fog >= 0) fogRun(ctx, t, tri, x + i, y + j, drow + i, end - i, o);
                }
                i = end;
            }
            float* dst = out + 3 * s0;
            const int nf = 3 * (s1 - s0);
            if (accumulate) {
                for (int f = 0; f < nf; ++f) dst[f] += buf[f];
                continue;
            }
#if defined(LUXEL_SHADE_AVX2)
            if (vec && streamRow(dst, buf, nf)) {
                streamed = true;
                continue;
            }
#endif
            std::memcpy(dst, buf, size_t(nf) * sizeof(float));
        }
    }
#if defined(LUXEL_SHADE_AVX2)
    if (streamed) streamFence();  // streaming stores are weakly ordered: finish them before others read
#endif
    if (missingTexture) *missingTexture = missing;
    return covered;
}

template <RenderMode M>
uint32_t shadeBlockT(const ShadeContext& ctx, const float* depth, const uint32_t* id, int stride, int x, int y, int w,
                     int h, Image& image, bool accumulate) {
    const Vec3 bg = ctx.background;
    uint32_t covered = 0;
    for (int j = 0; j < h; ++j) {
        const float* drow = depth + size_t(j) * size_t(stride);
        const uint32_t* irow = id + size_t(j) * size_t(stride);
        float* out = image.at(x, y + j);
        int i = 0;
        while (i < w) {
            const uint32_t tri = irow[i];
            if (tri == raster::kNoTriangle) {
                put(out + 3 * i, bg, accumulate);
                ++i;
                continue;
            }
            int end = i + 1;
            while (end < w && irow[end] == tri) ++end;
            covered += uint32_t(end - i);
            int k = i;
            if constexpr (M == RenderMode::Clusters) {
                shadeClusterRun(ctx, tri, x + i, y + j, drow + i, end - i, out + 3 * i, accumulate);
                k = end;
            }
            for (; k < end; ++k) put(out + 3 * k, shadeOne<M>(ctx, tri, x + k, y + j, drow[k]), accumulate);
            i = end;
        }
    }
    return covered;
}

}  // namespace

TriShade prepareTriangle(const ShadeContext& ctx, const raster::ShadeTri& tri) {
    TriShade t;
    t.x0 = tri.x0;
    t.y0 = tri.y0;
    const SourceTri& s = ctx.sources[tri.source];
    const LookParams lp = lookParams(ctx);
    const World& world = *ctx.world;
    // Lightmap mode under r_lightmap's rules: surfaces without a lightmap stage are drawn as in lit mode; with
    // unlit black, they are black.
    const int32_t materialIndex = s.kind == SourceKind::Flare ? -1 : ctx.geometry->surfaces[s.surface].material;
    const SurfaceLook* ownLook = ctx.materials && materialIndex >= 0 && size_t(materialIndex) < ctx.materials->looks.size()
                                     ? &ctx.materials->looks[size_t(materialIndex)]
                                     : nullptr;
    const bool withoutLightmapStage = s.kind == SourceKind::Vertex || s.kind == SourceKind::Sky || (ownLook && ownLook->unlit);
    if (ctx.mode == RenderMode::Lightmap && ctx.unlit == UnlitSurfaces::Black && withoutLightmapStage) {
        t.color = {0, 0, 0};
        return t;
    }
    const RenderMode mode =
        ctx.mode == RenderMode::Lightmap && ctx.unlit == UnlitSurfaces::Engine && ctx.materials && withoutLightmapStage
            ? RenderMode::Lit
            : ctx.mode;
    const bool albedoMode = mode == RenderMode::Lit || mode == RenderMode::Albedo;
    const SurfaceLook* look = nullptr;
    if (albedoMode && (s.kind == SourceKind::Lightmap || s.kind == SourceKind::Vertex)) {
        const int32_t m = ctx.geometry->surfaces[s.surface].material;
        if (m >= 0 && size_t(m) < world.materials.size()) t.albedo = world.materials[size_t(m)].reflectivity;
        if (ctx.materials && m >= 0 && size_t(m) < ctx.materials->looks.size()) look = &ctx.materials->looks[size_t(m)];
    }
    if (look) {
        t.opacity = look->opacity;
        const int32_t ti = look->texture;
        if (ti >= 0 && size_t(ti) < ctx.materials->textures.size() && ctx.materials->textures[size_t(ti)] &&
            !ctx.materials->textures[size_t(ti)]->mips.empty()) {
            const DrawVertex* vb = vertexBase(ctx, s);
            const DrawVertex &a = vb[s.v[0]], &b = vb[s.v[1]], &c = vb[s.v[2]];
            const Vec2 sc = look->tcScale;
            t.texture = ctx.materials->textures[size_t(ti)].get();
            t.texPlane[0] = combine(tri, a.texUV.x * sc.x, b.texUV.x * sc.x, c.texUV.x * sc.x);
            t.texPlane[1] = combine(tri, a.texUV.y * sc.y, b.texUV.y * sc.y, c.texUV.y * sc.y);
            for (int d = 0; d < 2; ++d) {
                const int32_t di = look->detail[size_t(d)];
                if (di < 0 || size_t(di) >= ctx.materials->textures.size() || !ctx.materials->textures[size_t(di)] ||
                    ctx.materials->textures[size_t(di)]->mips.empty())
                    continue;
                const Vec2 ds = look->detailScale[size_t(d)];
                t.detail[t.details] = ctx.materials->textures[size_t(di)].get();
                t.detailPlane[t.details][0] = combine(tri, a.texUV.x * ds.x, b.texUV.x * ds.x, c.texUV.x * ds.x);
                t.detailPlane[t.details][1] = combine(tri, a.texUV.y * ds.y, b.texUV.y * ds.y, c.texUV.y * ds.y);
                ++t.details;
            }
            const int32_t t2 = look->texture2;
            if (t2 >= 0 && size_t(t2) < ctx.materials->textures.size() && ctx.materials->textures[size_t(t2)] &&
                !ctx.materials->textures[size_t(t2)]->mips.empty()) {
                t.texture2 = ctx.materials->textures[size_t(t2)].get();
                t.blendPlane = combine(tri, a.color.w, b.color.w, c.color.w);
                const Vec2 s2 = look->texture2TcScale.x != 0 ? look->texture2TcScale : sc;
                t.tex2Plane[0] = combine(tri, a.texUV.x * s2.x, b.texUV.x * s2.x, c.texUV.x * s2.x);
                t.tex2Plane[1] = combine(tri, a.texUV.y * s2.y, b.texUV.y * s2.y, c.texUV.y * s2.y);
                if (look->texture2IdentityLighting) t.texture2Scale = 1.0f / programLight(lp).ramp;
            }
            t.albedo = {look->albedoScale, look->albedoScale, look->albedoScale};
        } else if (look->missing) {
            t.albedo = {0.5f, 0.5f, 0.5f};  // the neutral grey of a texture that was not found
            t.missingTexture = true;
        }
    }
    // Opaque programs in lit mode: every stage per pixel, instead of the one texture; base coordinates kept
    // unscaled in texPlane for the stages' footprints.
    if (look && look->program && mode == RenderMode::Lit &&
        (s.kind == SourceKind::Lightmap || s.kind == SourceKind::Vertex)) {
        const DrawVertex* vb = vertexBase(ctx, s);
        const DrawVertex &a = vb[s.v[0]], &b = vb[s.v[1]], &c = vb[s.v[2]];
        t.program = look->program.get();
        t.texture = nullptr;
        t.texture2 = nullptr;
        t.missingTexture = false;
        t.albedo = {1, 1, 1};
        t.texPlane[0] = combine(tri, a.texUV.x, b.texUV.x, c.texUV.x);
        t.texPlane[1] = combine(tri, a.texUV.y, b.texUV.y, c.texUV.y);
    }
    // x * 1 is x, so surfaces without a material skip the multiply and keep the same values.
    t.hasAlbedo = !(t.albedo == Vec3{1, 1, 1});
    if (mode == RenderMode::Lit && ctx.materials && s.kind != SourceKind::Flare && s.surface < world.surfaces.size()) {
        const int32_t f = world.surfaces[s.surface].fog;
        if (f >= 0 && size_t(f) < world.fogs.size() && size_t(f) < ctx.materials->fogs.size() &&
            ctx.materials->fogs[size_t(f)].present)
            t.fog = f;
    }
    if (s.kind == SourceKind::Sky && albedoMode && ctx.materials && ctx.materials->sky.present() && !ctx.skyColorOverride) {
        t.skyBox = true;
        return t;
    }
    // Albedo mode, and unlit materials in lit mode: light 1 (an unlit Quake 3 rgbGen vertex stage is lit by
    // its vertex colours instead).
    if (mode == RenderMode::Albedo ||
        (look && !t.program && look->unlit && !(look->vertexColor && s.kind == SourceKind::Vertex))) {
        t.constantLight = {1, 1, 1};
        if (!t.texture) t.color = lookOf(t.constantLight, t.albedo, lp);
        if (s.kind == SourceKind::Lightmap || s.kind == SourceKind::Vertex) return t;
    }
    if (s.kind == SourceKind::Sky || s.kind == SourceKind::Flare) {
        t.color = lookOf(s.kind == SourceKind::Sky ? ctx.skyColor : rgb(ctx.flareVertices[s.v[0]].color), t.albedo, lp);
        return t;
    }
    if (ctx.mode == RenderMode::Grid) {
        t.path = ctx.probes ? ShadePath::Probe : ShadePath::Constant;
        t.color = lookOf({0, 0, 0}, t.albedo, lp);
        return t;
    }
    const DrawVertex* vb = vertexBase(ctx, s);
    const DrawVertex &v0 = vb[s.v[0]], &v1 = vb[s.v[1]], &v2 = vb[s.v[2]];
    if (mode != RenderMode::Vertex && s.kind == SourceKind::Lightmap) {
        const int32_t pageIndex = ctx.geometry->surfaces[s.surface].lightmapPage;
        const LightmapPage& page0 = world.lightmaps[size_t(pageIndex)];
        const std::array<uint8_t, 4> styles = s.surface < world.surfaces.size()
                                                  ? world.surfaces[s.surface].styles
                                                  : std::array<uint8_t, 4>{0, 255, 255, 255};
        // Light = sum over the surface's style slots of weight(style) * sample(slot page). A slot with
        // weight 0 adds nothing (and is skipped); a slot whose page is missing or shaped unlike slot 0's
        // is left out.
        int n = 0;
        for (int k = 0; k < kMaxLightmapSlots; ++k) {
            const uint8_t style = styles[size_t(k)];
            if (style == 255) continue;
            const float weight = ctx.styleWeights ? (*ctx.styleWeights)[style] : (style == 0 ? 1.0f : 0.0f);
            if (weight == 0.0f) continue;
            const LightmapPage* page = &page0;
            if (k > 0) {
                const std::vector<LightmapPage>& slot = world.extraLightmapSlots[size_t(k - 1)];
                page = size_t(pageIndex) < slot.size() ? &slot[size_t(pageIndex)] : nullptr;
                if (!page || page->width != page0.width || page->height != page0.height ||
                    page->rgb.size() != page0.rgb.size())
                    continue;
            }
            t.page[n] = page->rgb.data();
            t.weight[n] = weight;
            ++n;
        }
        if (n == 0) {
            t.color = lookOf({0, 0, 0}, t.albedo, lp);
            return t;
        }
        t.path = ShadePath::Lightmap;
        t.slots = uint8_t(n);
        t.unitWeight = n == 1 && t.weight[0] == 1.0f;
        t.pageWidth = page0.width;
        t.pageHeight = page0.height;
        t.plane[0] = combine(tri, v0.lightmapUV.x, v1.lightmapUV.x, v2.lightmapUV.x);
        t.plane[1] = combine(tri, v0.lightmapUV.y, v1.lightmapUV.y, v2.lightmapUV.y);
        // Texel indices are 32-bit in the vector loop; a page that large (2^31 floats) takes the scalar one.
        t.narrowIndices = size_t(page0.width) * size_t(page0.height) * 3 < (size_t(1) << 31);
    } else {
        t.path = ShadePath::Vertex;
        t.plane[0] = combine(tri, v0.color.x, v1.color.x, v2.color.x);
        t.plane[1] = combine(tri, v0.color.y, v1.color.y, v2.color.y);
        t.plane[2] = combine(tri, v0.color.z, v1.color.z, v2.color.z);
    }
    return t;
}

Vec4 shadePixelWithAlpha(const ShadeContext& ctx, uint32_t tri, int px, int py, float invW) {
    const TriShade& t = ctx.triShade[tri];
    const LookParams lp = lookParams(ctx);
    float out[3];
    const int dx = px - t.x0;
    const float fy = float(py - t.y0);
    float alpha = 1.0f;
    if (t.skyBox) {
        skyBoxRun(ctx, tri, lp, px, py, &invW, 1, out);
    } else if (t.program) {
        programRun(ctx, t, lp, tri, px, py, &invW, 1, out);
    } else if (t.texture) {
        const TexturedSetup s = texturedSetup(ctx, t, tri);
        const float fx = float(dx), iw = 1.0f / invW;
        const Vec4 c = texturedPixel(ctx, t, s, lp, fx, fy, iw);
        out[0] = c.x, out[1] = c.y, out[2] = c.z;
        // Cut-outs and blending follow the base texture's alpha, not the displacement blend's.
        alpha = s.f2 ? texelAt(ctx, *t.texture, s.f, fx, fy, iw).w : c.w;
    } else {
        lightRunScalar(t, lp, dx, fy, &invW, 1, out);
    }
    return {out[0], out[1], out[2], alpha * t.opacity};
}

Vec3 applyLook(Vec3 light, Vec3 albedo, Look look, const EngineLook& engine) {
    const GammaTable table = makeGammaTable(engine.gamma);
    return lookOf(light, albedo, lookParams(look, engine, &table));
}

Vec3 sampleLightmapFast(const LightmapPage& page, Vec2 uv) {
    return sampleView(pageView(page.rgb.data(), page.width, page.height), uv.x, uv.y);
}

uint32_t shadeBlock(const ShadeContext& ctx, const float* depth, const uint32_t* id, int stride, int x, int y, int w,
                    int h, Image& image, bool accumulate, uint32_t* missingTexture) {
    switch (ctx.mode) {
        case RenderMode::Lightmap:
        case RenderMode::Vertex:
        case RenderMode::Lit:
        case RenderMode::Albedo:
        case RenderMode::Grid: return shadeLightBlock(ctx, depth, id, stride, x, y, w, h, image, accumulate, missingTexture);
        case RenderMode::Normals: return shadeBlockT<RenderMode::Normals>(ctx, depth, id, stride, x, y, w, h, image, accumulate);
        case RenderMode::Depth: return shadeBlockT<RenderMode::Depth>(ctx, depth, id, stride, x, y, w, h, image, accumulate);
        case RenderMode::Clusters: return shadeBlockT<RenderMode::Clusters>(ctx, depth, id, stride, x, y, w, h, image, accumulate);
    }
    return 0;
}

}  // namespace luxel::render
