// The AVX2 loops of lightmapped and vertex-coloured triangles without a texture (lightmap and vertex
// modes), and shadeLightBlock's row helpers: run starts and streaming stores.
#include "avx2_lightmap.hpp"

#if defined(LUXEL_SHADE_AVX2)

namespace luxel::render::shading {

namespace {

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

}  // namespace

RunFn lightmapRunFor(const TriShade& t, const LookParams& lp) {
    const bool single = t.slots == 1 && t.unitWeight;
    if (!t.hasAlbedo && lp.linear)
        return single ? lightmapRunAvx2<true, LookKind::Identity> : lightmapRunAvx2<false, LookKind::Identity>;
    if (!t.hasAlbedo && !lp.linear && !lp.gamma && lp.hueClampAt > 0 && !lp.clampPerChannel)
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

// A finished row segment to the image with streaming stores: the frame is written once and not read
// again here, so its cache lines need not be fetched first. Returns false when dst is not 32-byte aligned.
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

}  // namespace luxel::render::shading

#endif
