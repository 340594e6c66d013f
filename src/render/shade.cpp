#include "luxel/render/shade.hpp"

#include <algorithm>
#include <cmath>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

namespace {

struct Bary {
    float b0, b1, b2;
};

template <typename T>
inline T interp3(const T& a, const T& b, const T& c, const Bary& w);

template <>
inline Vec3 interp3(const Vec3& a, const Vec3& b, const Vec3& c, const Bary& w) {
    return {a.x * w.b0 + b.x * w.b1 + c.x * w.b2, a.y * w.b0 + b.y * w.b1 + c.y * w.b2,
            a.z * w.b0 + b.z * w.b1 + c.z * w.b2};
}

template <>
inline Vec2 interp3(const Vec2& a, const Vec2& b, const Vec2& c, const Bary& w) {
    return {a.x * w.b0 + b.x * w.b1 + c.x * w.b2, a.y * w.b0 + b.y * w.b1 + c.y * w.b2};
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
    const DrawVertex* base = s.kind == SourceKind::Flare ? ctx.flareVertices : ctx.geometry->vertices.data();
    return {&s, base + s.v[0], base + s.v[1], base + s.v[2], {1.0f - b1 - b2, b1, b2}};
}

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
            Vec3 n = normalize(interp3(p.v0->normal, p.v1->normal, p.v2->normal, p.bary));
            return n * 0.5f + Vec3{0.5f, 0.5f, 0.5f};
        } else {
            static_assert(M == RenderMode::Clusters, "light-bearing modes are shaded by shadeLightRun");
            Vec3 pos = interp3(p.v0->position, p.v1->position, p.v2->position, p.bary);
            Vec3 n = normalize(interp3(p.v0->normal, p.v1->normal, p.v2->normal, p.bary));
            // Step off the surface along its normal: the surface itself lies on a leaf boundary.
            return clusterColor(findCluster(*ctx.world, pos + n));
        }
    }
}

// The look with its branches resolved once per block.
struct LookParams {
    bool linear = false;
    float hueClampAt = 0;
    bool gamma = false;
    float invGamma = 1;
};

LookParams lookParams(Look look, const EngineLook& engine) {
    LookParams lp;
    lp.linear = look == Look::Linear;
    lp.hueClampAt = engine.hueClampAt;
    lp.gamma = engine.gamma > 0 && engine.gamma != 1.0f;
    lp.invGamma = lp.gamma ? 1.0f / engine.gamma : 1.0f;
    return lp;
}

inline float clamp01(float v) { return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; }  // NaN -> 0

inline Vec3 lookOf(Vec3 light, Vec3 albedo, const LookParams& lp) {
    if (lp.linear) return light * albedo;
    if (lp.hueClampAt > 0) {
        float m = std::max(light.x, std::max(light.y, light.z));
        if (m > lp.hueClampAt) light *= lp.hueClampAt / m;
    }
    Vec3 c{clamp01(light.x * albedo.x), clamp01(light.y * albedo.y), clamp01(light.z * albedo.z)};
    if (lp.gamma) c = {std::pow(c.x, lp.invGamma), std::pow(c.y, lp.invGamma), std::pow(c.z, lp.invGamma)};
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
    const DrawVertex* vb = src.kind == SourceKind::Flare ? ctx.flareVertices : ctx.geometry->vertices.data();
    const DrawVertex &a = vb[src.v[0]], &b = vb[src.v[1]], &c = vb[src.v[2]];
    if (!(a.normal == b.normal && a.normal == c.normal)) {
        for (int k = 0; k < n; ++k)
            put(out + 3 * k, shadeOne<RenderMode::Clusters>(ctx, tri, px0 + k, py, depth[k]), accumulate);
        return;
    }
    const Vec3 nrm = normalize(a.normal);
    auto leafAt = [&](int k) {
        const Pixel p = resolve(ctx, tri, px0 + k, py, depth[k]);
        return findLeaf(*ctx.world, interp3(p.v0->position, p.v1->position, p.v2->position, p.bary) + nrm);
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
// (checked by a test); it exists because this lookup is most of a frame's shading time.
struct PageView {
    const float* p;
    int w, h;
    float fw, fh, wMax, hMax;
};

inline PageView pageView(const LightmapPage& page) {
    return {page.rgb.data(), page.width, page.height, float(page.width), float(page.height),
            float(page.width - 1), float(page.height - 1)};
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

#if defined(__SSE2__)
// lookOf on an (r,g,b,0) vector; same per-lane operations, so the same values (gamma is left to lookOf).
inline Rgb lookRgb(Rgb light, Rgb albedo, const LookParams& lp) {
    if (lp.linear) return _mm_mul_ps(light, albedo);
    if (lp.hueClampAt > 0) {
        const Rgb g = _mm_shuffle_ps(light, light, _MM_SHUFFLE(1, 1, 1, 1));
        const Rgb b = _mm_shuffle_ps(light, light, _MM_SHUFFLE(2, 2, 2, 2));
        const float m = _mm_cvtss_f32(_mm_max_ps(light, _mm_max_ps(g, b)));
        if (m > lp.hueClampAt) light = _mm_mul_ps(light, _mm_set1_ps(lp.hueClampAt / m));
    }
    const Rgb c = _mm_mul_ps(light, albedo);
    return _mm_min_ps(_mm_max_ps(c, _mm_setzero_ps()), _mm_set1_ps(1.0f));  // NaN -> 0 like clamp01
}

inline void putRgb(float* out, Rgb c, bool accumulate) {
    if (accumulate) {
        Rgb o = _mm_movelh_ps(_mm_loadl_pi(_mm_setzero_ps(), reinterpret_cast<const __m64*>(out)), _mm_load_ss(out + 2));
        c = _mm_add_ps(o, c);
    }
    _mm_storel_pi(reinterpret_cast<__m64*>(out), c);
    _mm_store_ss(out + 2, _mm_movehl_ps(c, c));
}

// Four pixels at a time: uv and the texel coordinates in lanes, then the texel lerps per pixel. Returns
// how many pixels it shaded (a multiple of 4). Lane for lane the same operations as the scalar path.
int shadeLightmapQuads(const PageView& pg, const raster::AttrPlane& pu, const raster::AttrPlane& pv, float uRow,
                       float vRow, int dx, const float* depth, int n, Vec3 albedo, const LookParams& lp, float* out,
                       bool accumulate) {
    const __m128i lane = _mm_setr_epi32(0, 1, 2, 3);
    const __m128 pua = _mm_set1_ps(pu.a), puc = _mm_set1_ps(pu.c), pva = _mm_set1_ps(pv.a), pvc = _mm_set1_ps(pv.c);
    const __m128 ur = _mm_set1_ps(uRow), vr = _mm_set1_ps(vRow), one = _mm_set1_ps(1.0f), half = _mm_set1_ps(0.5f);
    const __m128 fw = _mm_set1_ps(pg.fw), fh = _mm_set1_ps(pg.fh), wMax = _mm_set1_ps(pg.wMax), hMax = _mm_set1_ps(pg.hMax);
    const __m128i wLast = _mm_set1_epi32(pg.w - 1), hLast = _mm_set1_epi32(pg.h - 1);
    const Rgb alb = _mm_setr_ps(albedo.x, albedo.y, albedo.z, 0.0f);
    int k = 0;
    for (; k + 4 <= n; k += 4) {
        const __m128 fx = _mm_cvtepi32_ps(_mm_add_epi32(_mm_set1_epi32(dx + k), lane));
        const __m128 iw = _mm_div_ps(one, _mm_loadu_ps(depth + k));
        const __m128 u = _mm_mul_ps(_mm_add_ps(_mm_add_ps(puc, _mm_mul_ps(pua, fx)), ur), iw);
        const __m128 v = _mm_mul_ps(_mm_add_ps(_mm_add_ps(pvc, _mm_mul_ps(pva, fx)), vr), iw);
        __m128 tx = _mm_sub_ps(_mm_mul_ps(u, fw), half), ty = _mm_sub_ps(_mm_mul_ps(v, fh), half);
        tx = _mm_and_ps(_mm_cmpge_ps(tx, _mm_setzero_ps()), tx);  // !(t >= 0) -> 0, NaN included
        ty = _mm_and_ps(_mm_cmpge_ps(ty, _mm_setzero_ps()), ty);
        tx = _mm_min_ps(tx, wMax);
        ty = _mm_min_ps(ty, hMax);
        const __m128i x0 = _mm_cvttps_epi32(tx), y0 = _mm_cvttps_epi32(ty);
        const __m128i x1 = _mm_sub_epi32(x0, _mm_cmplt_epi32(x0, wLast));  // min(x0 + 1, w - 1)
        const __m128i y1 = _mm_sub_epi32(y0, _mm_cmplt_epi32(y0, hLast));
        alignas(16) float ax[4], ay[4];
        alignas(16) int32_t ix0[4], ix1[4], iy0[4], iy1[4];
        _mm_store_ps(ax, _mm_sub_ps(tx, _mm_cvtepi32_ps(x0)));
        _mm_store_ps(ay, _mm_sub_ps(ty, _mm_cvtepi32_ps(y0)));
        _mm_store_si128(reinterpret_cast<__m128i*>(ix0), x0);
        _mm_store_si128(reinterpret_cast<__m128i*>(ix1), x1);
        _mm_store_si128(reinterpret_cast<__m128i*>(iy0), y0);
        _mm_store_si128(reinterpret_cast<__m128i*>(iy1), y1);
        for (int l = 0; l < 4; ++l) {
            const size_t r0 = size_t(iy0[l]) * size_t(pg.w), r1 = size_t(iy1[l]) * size_t(pg.w);
            const Rgb vax = _mm_set1_ps(ax[l]);
            const Rgb top = lerpRgb(loadTexel(pg.p + (r0 + size_t(ix0[l])) * 3), loadTexel(pg.p + (r0 + size_t(ix1[l])) * 3), vax);
            const Rgb bottom = lerpRgb(loadTexel(pg.p + (r1 + size_t(ix0[l])) * 3), loadTexel(pg.p + (r1 + size_t(ix1[l])) * 3), vax);
            putRgb(out + 3 * (k + l), lookRgb(lerpRgb(top, bottom, _mm_set1_ps(ay[l])), alb, lp), accumulate);
        }
    }
    return k;
}
#endif

// A run of n pixels of one triangle on row py, light-bearing modes: per-triangle work is done once and
// the per-pixel loop is plane evaluations, one divide and the lookup.
template <RenderMode M>
[[gnu::flatten]] void shadeLightRun(const ShadeContext& ctx, const LookParams& lp, uint32_t triId, int px0, int py,
                                    const float* depth, int n, float* out, bool accumulate) {
    const raster::ShadeTri& t = ctx.tris[triId];
    const SourceTri& s = ctx.sources[t.source];
    Vec3 albedo{1, 1, 1};
    if (M == RenderMode::Lit && (s.kind == SourceKind::Lightmap || s.kind == SourceKind::Vertex)) {
        int32_t m = ctx.geometry->surfaces[s.surface].material;
        if (m >= 0 && size_t(m) < ctx.world->materials.size()) albedo = ctx.world->materials[size_t(m)].reflectivity;
    }
    if (s.kind == SourceKind::Sky || s.kind == SourceKind::Flare) {
        Vec3 c = lookOf(s.kind == SourceKind::Sky ? ctx.skyColor : rgb(ctx.flareVertices[s.v[0]].color), albedo, lp);
        for (int k = 0; k < n; ++k) put(out + 3 * k, c, accumulate);
        return;
    }
    const DrawVertex* vb = ctx.geometry->vertices.data();
    const DrawVertex &v0 = vb[s.v[0]], &v1 = vb[s.v[1]], &v2 = vb[s.v[2]];
    const float fy = float(py - t.y0);
    const int dx = px0 - t.x0;
    if (M != RenderMode::Vertex && s.kind == SourceKind::Lightmap) {
        const PageView page = pageView(ctx.world->lightmaps[size_t(ctx.geometry->surfaces[s.surface].lightmapPage)]);
        const raster::AttrPlane pu = combine(t, v0.lightmapUV.x, v1.lightmapUV.x, v2.lightmapUV.x);
        const raster::AttrPlane pv = combine(t, v0.lightmapUV.y, v1.lightmapUV.y, v2.lightmapUV.y);
        const float uRow = pu.b * fy, vRow = pv.b * fy;
        int k = 0;
#if defined(__SSE2__)
        if (!lp.gamma) k = shadeLightmapQuads(page, pu, pv, uRow, vRow, dx, depth, n, albedo, lp, out, accumulate);
#endif
        for (; k < n; ++k) {
            const float fx = float(dx + k), iw = 1.0f / depth[k];
            const float u = ((pu.c + pu.a * fx) + uRow) * iw, v = ((pv.c + pv.a * fx) + vRow) * iw;
            put(out + 3 * k, lookOf(sampleView(page, u, v), albedo, lp), accumulate);
        }
    } else {
        const raster::AttrPlane pr = combine(t, v0.color.x, v1.color.x, v2.color.x);
        const raster::AttrPlane pg = combine(t, v0.color.y, v1.color.y, v2.color.y);
        const raster::AttrPlane pb = combine(t, v0.color.z, v1.color.z, v2.color.z);
        for (int k = 0; k < n; ++k) {
            const float fx = float(dx + k), iw = 1.0f / depth[k];
            Vec3 light{((pr.c + pr.a * fx) + pr.b * fy) * iw, ((pg.c + pg.a * fx) + pg.b * fy) * iw,
                       ((pb.c + pb.a * fx) + pb.b * fy) * iw};
            put(out + 3 * k, lookOf(light, albedo, lp), accumulate);
        }
    }
}

template <RenderMode M>
void shadeBlockT(const ShadeContext& ctx, const float* depth, const uint32_t* id, int stride, int x, int y, int w,
                 int h, Image& image, bool accumulate) {
    const Vec3 bg = ctx.background;
    const LookParams lp = lookParams(ctx.look, ctx.world->look);
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
            if constexpr (M == RenderMode::Lightmap || M == RenderMode::Vertex || M == RenderMode::Lit) {
                shadeLightRun<M>(ctx, lp, tri, x + i, y + j, drow + i, end - i, out + 3 * i, accumulate);
            } else {
                int k = i;
                if constexpr (M == RenderMode::Clusters) {
                    shadeClusterRun(ctx, tri, x + i, y + j, drow + i, end - i, out + 3 * i, accumulate);
                    k = end;
                }
                for (; k < end; ++k) put(out + 3 * k, shadeOne<M>(ctx, tri, x + k, y + j, drow[k]), accumulate);
            }
            i = end;
        }
    }
}

}  // namespace

Vec3 applyLook(Vec3 light, Vec3 albedo, Look look, const EngineLook& engine) {
    return lookOf(light, albedo, lookParams(look, engine));
}

Vec3 sampleLightmapFast(const LightmapPage& page, Vec2 uv) { return sampleView(pageView(page), uv.x, uv.y); }

void shadeBlock(const ShadeContext& ctx, const float* depth, const uint32_t* id, int stride, int x, int y, int w,
                int h, Image& image, bool accumulate) {
    switch (ctx.mode) {
        case RenderMode::Lightmap: return shadeBlockT<RenderMode::Lightmap>(ctx, depth, id, stride, x, y, w, h, image, accumulate);
        case RenderMode::Vertex: return shadeBlockT<RenderMode::Vertex>(ctx, depth, id, stride, x, y, w, h, image, accumulate);
        case RenderMode::Normals: return shadeBlockT<RenderMode::Normals>(ctx, depth, id, stride, x, y, w, h, image, accumulate);
        case RenderMode::Depth: return shadeBlockT<RenderMode::Depth>(ctx, depth, id, stride, x, y, w, h, image, accumulate);
        case RenderMode::Clusters: return shadeBlockT<RenderMode::Clusters>(ctx, depth, id, stride, x, y, w, h, image, accumulate);
        case RenderMode::Lit: return shadeBlockT<RenderMode::Lit>(ctx, depth, id, stride, x, y, w, h, image, accumulate);
    }
}

}  // namespace luxel::render
