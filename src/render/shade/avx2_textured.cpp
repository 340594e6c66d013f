// The AVX2 loop of textured triangles (lit and albedo modes): texturedRun's pixels 8 at a time, with
// the blend texture and detail textures, each lane on its own mip level.
#include <bit>

#include "avx2_lightmap.hpp"

#if defined(LUXEL_SHADE_AVX2)

namespace luxel::render::shading {

namespace {

// What sampling a texture needs on any pixel: its coordinate planes and the terms of its mip level footprint.
struct TextureSampler {
    const Texture* texture;
    raster::AttrPlane tu, tv;
    __m256 dxU0, dxU1, dxV0, dxV1, dyU0, dyU1, dyV0, dyV1;
    __m256i maxLevel;
};

LUXEL_AVX2 inline TextureSampler textureSampler(const Texture* tex, const TexFootprint& f) {
    return {tex,
            f.tu,
            f.tv,
            _mm256_set1_ps(f.dxU[0]),
            _mm256_set1_ps(f.dxU[1]),
            _mm256_set1_ps(f.dxV[0]),
            _mm256_set1_ps(f.dxV[1]),
            _mm256_set1_ps(f.dyU[0]),
            _mm256_set1_ps(f.dyU[1]),
            _mm256_set1_ps(f.dyV[0]),
            _mm256_set1_ps(f.dyV[1]),
            _mm256_set1_epi32(f.maxLevel)};
}

// Each lane's mip level (pixelMipLevel, rowFootprint per lane).
[[gnu::always_inline]] LUXEL_AVX2 inline __m256i mipLevels8(const TextureSampler& r, __m256 fx, __m256 fy, __m256 iw) {
    const __m256 x = _mm256_add_ps(r.dxU0, _mm256_mul_ps(r.dxU1, fy)), y = _mm256_add_ps(r.dxV0, _mm256_mul_ps(r.dxV1, fy));
    const __m256 rowSquare = _mm256_add_ps(_mm256_mul_ps(x, x), _mm256_mul_ps(y, y));
    const __m256 p = _mm256_add_ps(r.dyU0, _mm256_mul_ps(r.dyU1, fx)), q = _mm256_add_ps(r.dyV0, _mm256_mul_ps(r.dyV1, fx));
    const __m256 columnSquare = _mm256_add_ps(_mm256_mul_ps(p, p), _mm256_mul_ps(q, q));
    const __m256 iw2 = _mm256_mul_ps(iw, iw);
    // std::max(rowSquare, columnSquare) * (iw2 * iw2)
    const __m256 f2 = _mm256_mul_ps(_mm256_max_ps(columnSquare, rowSquare), _mm256_mul_ps(iw2, iw2));
    const __m256i minified = _mm256_castps_si256(_mm256_cmp_ps(f2, _mm256_set1_ps(1.0f), _CMP_GT_OQ));
    const __m256i level = _mm256_srai_epi32(
        _mm256_sub_epi32(_mm256_srli_epi32(_mm256_castps_si256(f2), 23), _mm256_set1_epi32(126)), 1);  // (e + 1) >> 1
    return _mm256_and_si256(_mm256_min_epi32(level, r.maxLevel), minified);
}

// Albedo of a group whose lanes are on several mip levels: one pass per distinct level among the valid
// lanes, each lane taking its own.
[[gnu::noinline]] LUXEL_AVX2 Rgb8 mixedLevelAlbedo8(const TextureSampler& r, __m256 fx, __m256 fy, __m256 iw, __m256i valid,
                                                   bool identity, const float* lut) {
    const __m256 u = plane8(r.tu, fx, fy, iw), v = plane8(r.tv, fx, fy, iw);
    Rgb8 c{_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()};
    forEachLevel8(mipLevels8(r, fx, fy, iw), valid, [&](int level, __m256i mine) LUXEL_AVX2 {
        const Rgb8 s = filterTexels8(fetchTexels8(*r.texture, level, u, v), identity, lut);
        const __m256 take = _mm256_castsi256_ps(mine);
        c = {_mm256_blendv_ps(c.r, s.r, take), _mm256_blendv_ps(c.g, s.g, take), _mm256_blendv_ps(c.b, s.b, take)};
    });
    return c;
}

// A texture at each lane's own mip level, as the scalar texelAt samples it.
LUXEL_AVX2 inline Rgb8 sample8(const TextureSampler& r, __m256 fx, __m256 fy, __m256 iw, __m256i valid, bool identity,
                               const float* lut) {
    const __m256i level = mipLevels8(r, fx, fy, iw);
    const __m256i onFirst = _mm256_cmpeq_epi32(level, _mm256_permutevar8x32_epi32(level, _mm256_setzero_si256()));
    if (!_mm256_testc_si256(onFirst, valid)) return mixedLevelAlbedo8(r, fx, fy, iw, valid, identity, lut);
    return filterTexels8(fetchTexels8(*r.texture, _mm256_cvtsi256_si32(level), plane8(r.tu, fx, fy, iw), plane8(r.tv, fx, fy, iw)),
                         identity, lut);
}

// Where the pixels of a textured call are, relative to the triangle's plane origin: a run (columns dx,
// dx + 1, ... on row fy) or a list (dxs[k], dys[k]). Lanes past n read 0. A template parameter, not a
// branch, so that a run's row terms stay out of its loop.
struct TexturedPoints {
    int dx;
    float fy;
    const int32_t* dxs;
    const int32_t* dys;
};

template <bool List>
[[gnu::always_inline]] LUXEL_AVX2 inline void pointsAt8(const TexturedPoints& p, int k, __m256i valid, __m256& fx, __m256& fy) {
    if constexpr (List) {
        fx = _mm256_cvtepi32_ps(_mm256_maskload_epi32(p.dxs + k, valid));
        fy = _mm256_cvtepi32_ps(_mm256_maskload_epi32(p.dys + k, valid));
    } else {
        fx = _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32(p.dx + k), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)));
        fy = _mm256_set1_ps(p.fy);
    }
}

// Textured pixels in two passes over their 8-pixel groups: first the divide, mip levels and texel fetches
// of every group (gathers, whose latency the next groups' fetches then overlap), then light, filtering and
// look. Writes whole groups (up to 7 pixels past n).
template <bool List>
LUXEL_AVX2 void texturedGroupsAvx2(const ShadeContext& ctx, const TriShade& t, const LookParams& lp, uint32_t tri,
                                   const TexturedPoints& points, const float* depth, int n, float* out) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256 one = _mm256_set1_ps(1.0f);
    const TexFootprint f = texFootprint(ctx, t, tri);
    const bool identityTable = ctx.albedoTable->identity;
    const float* lut = ctx.albedoTable->value.data();
    const TextureSampler base = textureSampler(t.texture, f);
    constexpr int kGroups = kMaxRun / 8;
    TexelQuad8 quads[kGroups];
    __m256 invW[kGroups];
    uint32_t mixed = 0;  // groups whose lanes are on several levels
    // Quake 3 detail textures: fetched in the first pass too where a group's lanes share a level (bit g of
    // detailFetched[d]); the rest sampled in the second.
    TextureSampler details[2];
    for (int d = 0; d < t.details; ++d)
        details[d] = textureSampler(t.detail[d], texFootprint(t.detailPlane[d][0], t.detailPlane[d][1], ctx.tris[tri].invW, *t.detail[d]));
    TexelQuad8 detailQuads[2][kGroups];
    uint32_t detailFetched[2] = {0, 0};
    for (int k = 0, g = 0; k < n; k += 8, ++g) {
        const __m256i valid = _mm256_cmpgt_epi32(_mm256_set1_epi32(n - k), lane);
        const __m256 d = n - k >= 8 ? _mm256_loadu_ps(depth + k) : _mm256_maskload_ps(depth + k, valid);
        __m256 fx, fy;
        pointsAt8<List>(points, k, valid, fx, fy);
        const __m256 iw = _mm256_div_ps(one, d);
        invW[g] = iw;
        for (int dt = 0; dt < t.details; ++dt) {
            const TextureSampler& ds = details[dt];
            const __m256i level = mipLevels8(ds, fx, fy, iw);
            if (!_mm256_testc_si256(_mm256_cmpeq_epi32(level, _mm256_permutevar8x32_epi32(level, _mm256_setzero_si256())), valid))
                continue;
            detailQuads[dt][g] = fetchTexels8(*ds.texture, _mm256_cvtsi256_si32(level), plane8(ds.tu, fx, fy, iw), plane8(ds.tv, fx, fy, iw));
            detailFetched[dt] |= 1u << g;
        }
        const __m256i level = mipLevels8(base, fx, fy, iw);
        const __m256i onFirst = _mm256_cmpeq_epi32(level, _mm256_permutevar8x32_epi32(level, _mm256_setzero_si256()));
        if (!_mm256_testc_si256(onFirst, valid)) {  // some valid lane is on another level
            mixed |= 1u << g;
            continue;
        }
        quads[g] = fetchTexels8(*t.texture, _mm256_cvtsi256_si32(level), plane8(f.tu, fx, fy, iw), plane8(f.tv, fx, fy, iw));
    }
    // Lightmapped: the light is what the lightmap loop returns in its identity look (no albedo, no clamp),
    // which is exactly sampleView * weight (the scalar loop's light).
    // Initialised only when used: zeroing these costs more than a short run's pixels (foliage).
    const TextureSampler texture2 =
        t.texture2 ? textureSampler(t.texture2, texFootprint(t.tex2Plane[0], t.tex2Plane[1], ctx.tris[tri].invW, *t.texture2)) : base;
    const bool lightmapped = t.path == ShadePath::Lightmap, unitLight = t.unitWeight;
    LightmapRow lightRow;
    if (lightmapped) lightRow = lightmapRow(t, points.fy);
    for (int k = 0, g = 0; k < n; k += 8, ++g) {
        const int left = std::min(8, n - k);
        const __m256i valid = _mm256_cmpgt_epi32(_mm256_set1_epi32(left), lane);
        __m256 fx, fy;
        pointsAt8<List>(points, k, valid, fx, fy);
        const __m256 iw = invW[g];
        // Light.
        __m256 lr, lg, lb;
        if (lightmapped) {
            if constexpr (List) lightRow = lightmapRowAt(t, lightRow, fy);
            const Rgb8 l = unitLight ? lightmapLight8<true, LookKind::Identity>(t, lp, lightRow, fx, iw, valid, left)
                                     : lightmapLight8<false, LookKind::Identity>(t, lp, lightRow, fx, iw, valid, left);
            lr = l.r, lg = l.g, lb = l.b;
        } else if (t.path == ShadePath::Vertex) {
            lr = plane8(t.plane[0], fx, fy, iw), lg = plane8(t.plane[1], fx, fy, iw), lb = plane8(t.plane[2], fx, fy, iw);
        } else {
            lr = _mm256_set1_ps(t.constantLight.x), lg = _mm256_set1_ps(t.constantLight.y);
            lb = _mm256_set1_ps(t.constantLight.z);
        }
        Rgb8 albedo = (mixed >> g) & 1u ? mixedLevelAlbedo8(base, fx, fy, iw, valid, identityTable, lut)
                                        : filterTexels8(quads[g], identityTable, lut);
        if (t.texture2) {  // albedoAt: lerp(texture, texture2 x its scale, clamped vertex alpha)
            const Rgb8 b = sample8(texture2, fx, fy, iw, valid, identityTable, lut);
            const __m256 k2 = _mm256_set1_ps(t.texture2Scale);
            const __m256 s = _mm256_min_ps(_mm256_max_ps(plane8(t.blendPlane, fx, fy, iw), _mm256_setzero_ps()), one);
            albedo = {_mm256_add_ps(albedo.r, _mm256_mul_ps(_mm256_sub_ps(_mm256_mul_ps(b.r, k2), albedo.r), s)),
                      _mm256_add_ps(albedo.g, _mm256_mul_ps(_mm256_sub_ps(_mm256_mul_ps(b.g, k2), albedo.g), s)),
                      _mm256_add_ps(albedo.b, _mm256_mul_ps(_mm256_sub_ps(_mm256_mul_ps(b.b, k2), albedo.b), s))};
        }
        for (int d = 0; d < t.details; ++d) {  // x 2 * detail (withDetail)
            const Rgb8 kd = (detailFetched[d] >> g) & 1u ? filterTexels8(detailQuads[d][g], identityTable, lut)
                                                          : sample8(details[d], fx, fy, iw, valid, identityTable, lut);
            const __m256 two = _mm256_set1_ps(2.0f);
            albedo = {_mm256_mul_ps(albedo.r, _mm256_mul_ps(two, kd.r)), _mm256_mul_ps(albedo.g, _mm256_mul_ps(two, kd.g)),
                      _mm256_mul_ps(albedo.b, _mm256_mul_ps(two, kd.b))};
        }
        const __m256 ar = _mm256_mul_ps(albedo.r, _mm256_set1_ps(t.albedo.x));
        const __m256 ag = _mm256_mul_ps(albedo.g, _mm256_set1_ps(t.albedo.y));
        const __m256 ab = _mm256_mul_ps(albedo.b, _mm256_set1_ps(t.albedo.z));
        const Rgb8 c = litLook8(lr, lg, lb, ar, ag, ab, lp);
        storeRgb8(out + 3 * k, c.r, c.g, c.b);
    }
}

}  // namespace

LUXEL_AVX2 void texturedRunAvx2(const ShadeContext& ctx, const TriShade& t, const LookParams& lp, uint32_t tri, int dx,
                                float fy, const float* depth, int n, float* out) {
    texturedGroupsAvx2<false>(ctx, t, lp, tri, {dx, fy, nullptr, nullptr}, depth, n, out);
}

LUXEL_AVX2 void texturedPixelsAvx2(const ShadeContext& ctx, const TriShade& t, const LookParams& lp, uint32_t tri,
                                   const int32_t* dx, const int32_t* dy, const float* depth, int n, float* out) {
    texturedGroupsAvx2<true>(ctx, t, lp, tri, {0, 0.0f, dx, dy}, depth, n, out);
}

namespace {

// Texture coordinates and mip levels of the 8 cut-out pixels from k on, each lane on its own row (plane8 and
// rowFootprint per lane). Lanes past n read nothing (masked loads: 1/w 0, pixel 0, 0) and are not valid.
struct CutoutPoints8 {
    __m256 u, v;
    __m256i level, valid;
};

LUXEL_AVX2 inline CutoutPoints8 cutoutPoints8(const TextureSampler& sampler, int x0, int y0, const int32_t* px,
                                              const int32_t* py, const float* invW, int k, int n) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i valid = _mm256_cmpgt_epi32(_mm256_set1_epi32(n - k), lane);
    const __m256 d = _mm256_maskload_ps(invW + k, valid);
    const __m256 fx = _mm256_cvtepi32_ps(_mm256_sub_epi32(_mm256_maskload_epi32(px + k, valid), _mm256_set1_epi32(x0)));
    const __m256 fy = _mm256_cvtepi32_ps(_mm256_sub_epi32(_mm256_maskload_epi32(py + k, valid), _mm256_set1_epi32(y0)));
    const __m256 iw = _mm256_div_ps(_mm256_set1_ps(1.0f), d);
    return {plane8(sampler.tu, fx, fy, iw), plane8(sampler.tv, fx, fy, iw), mipLevels8(sampler, fx, fy, iw), valid};
}

// sampleAlphaLevel on 8 points of one level, from their texel coordinates and weights on it (texelCoords8):
// the four taps read from the level's alpha bytes (Texture::alphaLevels) and filtered through the alpha table
// as the scalar bilinearChannel does.
LUXEL_AVX2 inline __m256 alphaBilinear8(const Texture& tex, int level, const LevelView& view, const TexelCoords8& tc) {
    const __m256i wMask = _mm256_set1_epi32(view.width - 1), hMask = _mm256_set1_epi32(view.height - 1);
    const __m256i one = _mm256_set1_epi32(1), w = _mm256_set1_epi32(view.width);
    const __m256i x1 = _mm256_and_si256(_mm256_add_epi32(tc.x0, one), wMask);
    const __m256i y1 = _mm256_and_si256(_mm256_add_epi32(tc.y0, one), hMask);
    const __m256i row0 = _mm256_mullo_epi32(tc.y0, w), row1 = _mm256_mullo_epi32(y1, w);
    const int* bytes = reinterpret_cast<const int*>(tex.alphaLevels[size_t(std::max(level, tex.firstLevel))].data());
    const __m256i low = _mm256_set1_epi32(0xff);
    auto tap = [&](__m256i row, __m256i x) LUXEL_AVX2 {
        const __m256i b = _mm256_and_si256(_mm256_i32gather_epi32(bytes, _mm256_add_epi32(row, x), 1), low);
        return alphaOfBytes8(b);
    };
    const __m256 top = lerp8(tap(row0, tc.x0), tap(row0, x1), tc.ax), bottom = lerp8(tap(row1, tc.x0), tap(row1, x1), tc.ax);
    return lerp8(top, bottom, tc.ay);
}

}  // namespace

// In two passes over the 8-pixel groups, as texturedRunAvx2 does: first every group's footprint byte ranges
// (gathers from tables too large for the cache, whose latency the next groups' gathers then overlap), then
// the decisions, filtering only the lanes whose range straddles the reference.
LUXEL_AVX2 void cutoutKeepsAvx2(const Texture& tex, const TexFootprint& f, int x0, int y0, const int32_t* px,
                                const int32_t* py, const float* invW, int n, const CutoutBytes& test, uint8_t* keep) {
    const TextureSampler sampler = textureSampler(&tex, f);
    const __m256i passBelow = _mm256_set1_epi32(test.passMin - 1), failAbove = _mm256_set1_epi32(test.failMax + 1);
    const __m256i low = _mm256_set1_epi32(0xff);
    const __m256 ref = _mm256_set1_ps(test.ref), opacity = _mm256_set1_ps(test.opacity);
    constexpr int kGroups = kMaxRun / 8;
    CutoutPoints8 points[kGroups];
    __m256i ranges[kGroups];
    for (int k = 0, g = 0; k < n; k += 8, ++g) {
        points[g] = cutoutPoints8(sampler, x0, y0, px, py, invW, k, n);
        const CutoutPoints8& p = points[g];
        __m256i range = _mm256_setzero_si256();
        forEachLevel8(p.level, p.valid, [&](int level, __m256i mine) LUXEL_AVX2 {
            const LevelView view = levelView(tex, level);
            const TexelCoords8 tc = texelCoords8(view, p.u, p.v);
            // The footprint's byte range: a 4-byte gather at the 2-byte entry (the padding entry keeps the last inside).
            const __m256i entry = _mm256_add_epi32(_mm256_mullo_epi32(tc.y0, _mm256_set1_epi32(view.width)), tc.x0);
            const int* table = reinterpret_cast<const int*>(tex.alphaCellRanges[size_t(std::max(level, tex.firstLevel))].data());
            range = _mm256_mask_i32gather_epi32(range, table, entry, mine, 2);
        });
        ranges[g] = range;
    }
    for (int k = 0, g = 0; k < n; k += 8, ++g) {
        const CutoutPoints8& p = points[g];
        const __m256i lo = _mm256_and_si256(ranges[g], low), hi = _mm256_and_si256(_mm256_srli_epi32(ranges[g], 8), low);
        const __m256i pass = _mm256_cmpgt_epi32(lo, passBelow), fail = _mm256_cmpgt_epi32(failAbove, hi);
        __m256i kept = pass;
        const __m256i undecided = _mm256_andnot_si256(_mm256_or_si256(pass, fail), p.valid);
        if (!_mm256_testz_si256(undecided, undecided)) {  // the reference inside the range: filter (pixelAlphas)
            forEachLevel8(p.level, undecided, [&](int level, __m256i mine) LUXEL_AVX2 {
                const LevelView view = levelView(tex, level);
                __m256 a = alphaBilinear8(tex, level, view, texelCoords8(view, p.u, p.v));
                if (test.opacity != 1.0f) a = _mm256_mul_ps(a, opacity);
                kept = _mm256_blendv_epi8(kept, _mm256_castps_si256(_mm256_cmp_ps(a, ref, _CMP_NLT_UQ)), mine);
            });
        }
        const unsigned bits = unsigned(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_and_si256(kept, p.valid))));
        for (int i = 0; i < std::min(8, n - k); ++i) keep[k + i] = uint8_t((bits >> i) & 1u);
    }
}

}  // namespace luxel::render::shading

#endif
