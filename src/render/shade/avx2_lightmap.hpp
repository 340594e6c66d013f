#pragma once
// Internal to the render stage: the lightmap light of 8 pixels (lightmapLight8), the AVX2 form of
// lightAt's lightmap branch with the look applied. The lightmap loop (avx2.cpp) and the textured loop
// (avx2_textured.cpp) both use it; it is inlined into each.
#include "avx2.hpp"

#if defined(LUXEL_SHADE_AVX2)

namespace luxel::render::shading {

// Which look a run needs, resolved once per run so the pixel loop has no look branches.
enum class LookKind { Identity, HueClamp, General };

// lookOf on two pixels held as (r, g, b, junk) in each 128-bit half; the junk lane never mixes into the others.
// std::max(x, std::max(y, z)) is max_ps(max_ps(z, y), x) (see look8).
template <LookKind K>
static LUXEL_AVX2 inline __m256 lookPair(__m256 c, __m256 albedo, __m256 clampAt, const TriShade& t, const LookParams& lp) {
    if constexpr (K == LookKind::Identity) {
        (void)albedo, (void)clampAt, (void)t, (void)lp;
        return c;
    } else {
        if (K == LookKind::General && lp.linear) return t.hasAlbedo ? _mm256_mul_ps(c, albedo) : c;
        if (lp.clampPerChannel && lp.hueClampAt > 0) {
            c = _mm256_min_ps(clampAt, c);  // std::min per channel (see clampLight8)
        } else if (K == LookKind::HueClamp || lp.hueClampAt > 0) {
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
static LUXEL_AVX2 inline __m256 load2(const float* a, const float* b) {
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(a)), _mm_loadu_ps(b), 1);
}

// Texel (r, g, b, 0) read without touching the floats after it.
static LUXEL_AVX2 inline __m128 texel3(const float* t) {
    return _mm_movelh_ps(_mm_loadl_pi(_mm_setzero_ps(), reinterpret_cast<const __m64*>(t)), _mm_load_ss(t + 2));
}

// Bilinear sample of one style slot for pixels a and b (sampleView's lerps per lane), reading texels one
// by one: for groups with a pixel in the page's last column, where the right texel is the left one.
[[gnu::always_inline]] static LUXEL_AVX2 inline __m256 samplePair(const float* pg, const int32_t* i00, const int32_t* i01,
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
static LUXEL_AVX2 void lightmapPairs(const TriShade& t, const LookParams& lp, const int32_t* i00, const int32_t* i01,
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

// Rows First..First + 2 of the in-lane 4x4 transposes of a0..a3 (ymm k: pixel k low, pixel k + 4 high):
// three channel vectors over pixels 0..7 in order.
template <int First>
[[gnu::always_inline]] static LUXEL_AVX2 inline Rgb8 transpose3(__m256 a0, __m256 a1, __m256 a2, __m256 a3) {
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
[[gnu::always_inline]] static LUXEL_AVX2 inline void texelRow8(const float* pg, const int32_t* idx, Rgb8& left, Rgb8& right) {
    left = transpose3<0>(load2(pg + idx[0], pg + idx[4]), load2(pg + idx[1], pg + idx[5]),
                         load2(pg + idx[2], pg + idx[6]), load2(pg + idx[3], pg + idx[7]));
    right = transpose3<1>(load2(pg + idx[0] + 2, pg + idx[4] + 2), load2(pg + idx[1] + 2, pg + idx[5] + 2),
                          load2(pg + idx[2] + 2, pg + idx[6] + 2), load2(pg + idx[3] + 2, pg + idx[7] + 2));
}

// The same for a group whose pixels all lie in one texel cell (magnified lightmaps: about half the
// groups): six broadcasts per texel row.
[[gnu::always_inline]] static LUXEL_AVX2 inline void texelRowUniform(const float* t, Rgb8& left, Rgb8& right) {
    left = {_mm256_broadcast_ss(t), _mm256_broadcast_ss(t + 1), _mm256_broadcast_ss(t + 2)};
    right = {_mm256_broadcast_ss(t + 3), _mm256_broadcast_ss(t + 4), _mm256_broadcast_ss(t + 5)};
}

// One slot's bilinear samples of 8 pixels (sampleView's lerps per lane).
[[gnu::always_inline]] static LUXEL_AVX2 inline Rgb8 sampleGroup(const float* pg, const int32_t* i00, const int32_t* i01,
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
[[gnu::always_inline]] static LUXEL_AVX2 inline void lookGroup(Rgb8& c, const TriShade& t, const LookParams& lp) {
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
[[gnu::always_inline]] static LUXEL_AVX2 inline Rgb8 lightmapGroup(const TriShade& t, const LookParams& lp, const int32_t* i00,
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

static LUXEL_AVX2 inline LightmapRow lightmapRow(const TriShade& t, float fy) {
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

// The same with a row per lane (pixels gathered from several rows): r's row terms at rows fy.
static LUXEL_AVX2 inline LightmapRow lightmapRowAt(const TriShade& t, LightmapRow r, __m256 fy) {
    r.uRow = _mm256_mul_ps(_mm256_set1_ps(t.plane[0].b), fy);
    r.vRow = _mm256_mul_ps(_mm256_set1_ps(t.plane[1].b), fy);
    return r;
}

// The lightmap light (look K applied) of 8 pixels at columns fx with 1/w = iw: plane evaluation, clamping
// and texel coordinates for all 8, then the texels of the whole group or, when a lane sits in the page's
// last column, per pixel pair (gathers would be simpler but cost ~11 cycles each on the machines we run
// on). Lanes outside `valid` (all but the first `left`) read texel (0, 0); their values are junk.
template <bool Single, LookKind K>
[[gnu::always_inline]] static LUXEL_AVX2 inline Rgb8 lightmapLight8(const TriShade& t, const LookParams& lp, const LightmapRow& r,
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

}  // namespace luxel::render::shading

#endif
