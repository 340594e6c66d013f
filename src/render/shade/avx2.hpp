#pragma once
// Internal to the render stage: the inline pieces the AVX2 loops (avx2.cpp, avx2_textured.cpp,
// sky.cpp) are built of: gamma and look on 8 pixels, r/g/b (de)interleaving, plane evaluation and
// bilinear texture fetches. Each lane sees the same IEEE operations as the scalar code it mirrors
// (parts.hpp), so the vector loops give the same bits. Static like the helpers there (see there why).
#include <bit>

#include "parts.hpp"

#if defined(LUXEL_SHADE_AVX2)

namespace luxel::render::shading {

static LUXEL_AVX2 inline __m256 gather(const float* base, __m256i index) { return _mm256_i32gather_ps(base, index, 4); }

// a + (b - a) * t, as lerp() and lerpRgb.
static LUXEL_AVX2 inline __m256 lerp8(__m256 a, __m256 b, __m256 t) { return _mm256_add_ps(a, _mm256_mul_ps(_mm256_sub_ps(b, a), t)); }

// applyGamma on 8 values in [0,1].
static LUXEL_AVX2 inline __m256 gamma8(__m256 v, const GammaTable& t) {
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

// lookOf's clamp on 8 pixels (clampLight): light above clampAt scaled down with all three channels, or each
// channel clamped on its own. std::min(v, at) is (at < v ? at : v), which is _mm256_min_ps(at, v) (NaN stays).
static LUXEL_AVX2 inline void clampLight8(__m256& r, __m256& g, __m256& b, float at, bool perChannel) {
    const __m256 clampAt = _mm256_set1_ps(at);
    if (perChannel) {
        r = _mm256_min_ps(clampAt, r), g = _mm256_min_ps(clampAt, g), b = _mm256_min_ps(clampAt, b);
        return;
    }
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
// min(max(v, 0), 1) in that operand order, NaN -> 0 included. Always inlined: GCC keeps it out of the
// lightmap and vertex loops of avx2.cpp otherwise (it did inline it when all loops shared a file).
[[gnu::always_inline]] static LUXEL_AVX2 inline void look8(__m256& r, __m256& g, __m256& b, const TriShade& t, const LookParams& lp) {
    const __m256 ar = _mm256_set1_ps(t.albedo.x), ag = _mm256_set1_ps(t.albedo.y), ab = _mm256_set1_ps(t.albedo.z);
    if (lp.linear) {
        if (t.hasAlbedo) r = _mm256_mul_ps(r, ar), g = _mm256_mul_ps(g, ag), b = _mm256_mul_ps(b, ab);
        return;
    }
    if (lp.hueClampAt > 0) clampLight8(r, g, b, lp.hueClampAt, lp.clampPerChannel);
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
static LUXEL_AVX2 inline __m256 interleave8(__m256 r, __m256 g, __m256 b, __m256i idx) {
    return _mm256_blend_ps(_mm256_blend_ps(_mm256_permutevar8x32_ps(r, idx), _mm256_permutevar8x32_ps(g, idx), G),
                           _mm256_permutevar8x32_ps(b, idx), B);
}

// 8 pixels' r, g, b vectors to 24 interleaved floats: output float k is channel k % 3 of pixel k / 3.
static LUXEL_AVX2 inline void storeRgb8(float* out, __m256 r, __m256 g, __m256 b) {
    _mm256_storeu_ps(out, interleave8<0x92, 0x24>(r, g, b, _mm256_setr_epi32(0, 0, 0, 1, 1, 1, 2, 2)));
    _mm256_storeu_ps(out + 8, interleave8<0x24, 0x49>(r, g, b, _mm256_setr_epi32(2, 3, 3, 3, 4, 4, 4, 5)));
    _mm256_storeu_ps(out + 16, interleave8<0x49, 0x92>(r, g, b, _mm256_setr_epi32(5, 5, 6, 6, 6, 7, 7, 7)));
}

// 24 interleaved floats (8 pixels' r, g, b) to r, g and b vectors: storeRgb8 backwards.
static LUXEL_AVX2 inline void loadRgb8(const float* in, __m256& r, __m256& g, __m256& b) {
    const __m256 v0 = _mm256_loadu_ps(in), v1 = _mm256_loadu_ps(in + 8), v2 = _mm256_loadu_ps(in + 16);
    r = _mm256_permutevar8x32_ps(_mm256_blend_ps(_mm256_blend_ps(v0, v1, 0x92), v2, 0x24),
                                 _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5));
    g = _mm256_permutevar8x32_ps(_mm256_blend_ps(_mm256_blend_ps(v0, v1, 0x24), v2, 0x49),
                                 _mm256_setr_epi32(1, 4, 7, 2, 5, 0, 3, 6));
    b = _mm256_permutevar8x32_ps(_mm256_blend_ps(_mm256_blend_ps(v0, v1, 0x49), v2, 0x92),
                                 _mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7));
}

// Three channel vectors over 8 pixels (named, not an array, so they stay in registers).
struct Rgb8 {
    __m256 r, g, b;
};

// ((c + a fx) + b fy) / w per lane, as evalPlane: on one row fy, or with a row per lane (the same values).
static LUXEL_AVX2 inline __m256 plane8(const raster::AttrPlane& p, __m256 fx, float fy, __m256 iw) {
    return _mm256_mul_ps(
        _mm256_add_ps(_mm256_add_ps(_mm256_set1_ps(p.c), _mm256_mul_ps(_mm256_set1_ps(p.a), fx)), _mm256_set1_ps(p.b * fy)),
        iw);
}
static LUXEL_AVX2 inline __m256 plane8(const raster::AttrPlane& p, __m256 fx, __m256 fy, __m256 iw) {
    return _mm256_mul_ps(
        _mm256_add_ps(_mm256_add_ps(_mm256_set1_ps(p.c), _mm256_mul_ps(_mm256_set1_ps(p.a), fx)), _mm256_mul_ps(_mm256_set1_ps(p.b), fy)),
        iw);
}

// Byte `c` of each texel: as a float (identity table: filtered first, scaled by 1/255 after, as
// sampleLevel does) or through the albedo table.
template <int C>
static LUXEL_AVX2 inline __m256 texelChannel8(__m256i texel, bool identity, const float* lut) {
    constexpr char z = char(0x80);  // pshufb: a set high bit writes zero
    const __m256i pick = _mm256_setr_epi8(C, z, z, z, C + 4, z, z, z, C + 8, z, z, z, C + 12, z, z, z, C, z, z, z, C + 4, z,
                                          z, z, C + 8, z, z, z, C + 12, z, z, z);
    const __m256i b = _mm256_shuffle_epi8(texel, pick);
    return identity ? _mm256_cvtepi32_ps(b) : gather(lut, b);
}

// kAlphaLut per lane: byte / 255 divided as the table's entries are (the same bits, no gather).
static LUXEL_AVX2 inline __m256 alphaOfBytes8(__m256i bytes) {
    return _mm256_div_ps(_mm256_cvtepi32_ps(bytes), _mm256_set1_ps(255.0f));
}

template <int C>
static LUXEL_AVX2 inline __m256 texBilerp8(__m256i ta, __m256i tb, __m256i tc, __m256i td, __m256 ax, __m256 ay, bool identity,
                                    const float* lut) {
    const __m256 top = lerp8(texelChannel8<C>(ta, identity, lut), texelChannel8<C>(tb, identity, lut), ax);
    const __m256 bottom = lerp8(texelChannel8<C>(tc, identity, lut), texelChannel8<C>(td, identity, lut), ax);
    const __m256 v = lerp8(top, bottom, ay);
    return identity ? _mm256_mul_ps(v, _mm256_set1_ps(1.0f / 255.0f)) : v;
}

// The bilinear footprints at padded-level entries a (low half) and b (high half), each as (top left, top right,
// bottom left, bottom right): 8 bytes from its row and 8 from the row below (`stride` entries on).
static LUXEL_AVX2 inline __m128i loadFootprint(const uint32_t* at, size_t stride) {
    return _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(at)),
                              _mm_loadl_epi64(reinterpret_cast<const __m128i*>(at + stride)));
}
static LUXEL_AVX2 inline __m256i loadQuads(const uint32_t* base, size_t stride, int32_t a, int32_t b) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(loadFootprint(base + a, stride)), loadFootprint(base + b, stride), 1);
}

// std::clamp(v, lo, hi) per lane (NaN stays NaN).
static LUXEL_AVX2 inline __m256 clamp8(__m256 v, float lo, float hi) {
    const __m256 l = _mm256_set1_ps(lo), h = _mm256_set1_ps(hi);
    const __m256 upper = _mm256_blendv_ps(v, h, _mm256_cmp_ps(h, v, _CMP_LT_OQ));
    return _mm256_blendv_ps(upper, l, _mm256_cmp_ps(v, l, _CMP_LT_OQ));
}

// The four texels around each of 8 sample points, and the points' bilinear weights.
struct TexelQuad8 {
    __m256i topLeft, topRight, bottomLeft, bottomRight;
    __m256 ax, ay;
};

// bilinearTaps' top-left texel (wrapped) and weights on 8 points of a power-of-two level.
struct TexelCoords8 {
    __m256i x0, y0;
    __m256 ax, ay;
};

[[gnu::always_inline]] static LUXEL_AVX2 inline TexelCoords8 texelCoords8(const LevelView& view, __m256 u, __m256 v) {
    const __m256 half = _mm256_set1_ps(0.5f);
    const __m256 limit = _mm256_set1_ps(4194304.0f), negLimit = _mm256_set1_ps(-4194304.0f);
    __m256 sx = _mm256_sub_ps(_mm256_mul_ps(u, _mm256_set1_ps(view.fw)), half);
    __m256 sy = _mm256_sub_ps(_mm256_mul_ps(v, _mm256_set1_ps(view.fh)), half);
    sx = _mm256_blendv_ps(negLimit, _mm256_min_ps(sx, limit), _mm256_cmp_ps(sx, negLimit, _CMP_GT_OQ));
    sy = _mm256_blendv_ps(negLimit, _mm256_min_ps(sy, limit), _mm256_cmp_ps(sy, negLimit, _CMP_GT_OQ));
    const __m256 flx = _mm256_floor_ps(sx), fly = _mm256_floor_ps(sy);
    return {_mm256_and_si256(_mm256_cvttps_epi32(flx), _mm256_set1_epi32(view.width - 1)),
            _mm256_and_si256(_mm256_cvttps_epi32(fly), _mm256_set1_epi32(view.height - 1)), _mm256_sub_ps(sx, flx),
            _mm256_sub_ps(sy, fly)};
}

[[gnu::always_inline]] static LUXEL_AVX2 inline TexelQuad8 fetchTexels8(const Texture& tex, int level, __m256 u, __m256 v) {
    const LevelView view = levelView(tex, level);
    const TexelCoords8 tc = texelCoords8(view, u, v);
    TexelQuad8 q;
    q.ax = tc.ax, q.ay = tc.ay;
    const __m256i x0 = tc.x0, y0 = tc.y0;
    // Texture::paddedLevels: per lane (top left, top right, bottom left, bottom right) from two 8-byte loads.
    const size_t stride = size_t(view.width) + 1;
    alignas(32) int32_t entry[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(entry), _mm256_add_epi32(_mm256_mullo_epi32(y0, _mm256_set1_epi32(int32_t(stride))), x0));
    const uint32_t* base = reinterpret_cast<const uint32_t*>(view.texels);  // the level levelView settled on
    const __m256i r0 = loadQuads(base, stride, entry[0], entry[4]), r1 = loadQuads(base, stride, entry[1], entry[5]);
    const __m256i r2 = loadQuads(base, stride, entry[2], entry[6]), r3 = loadQuads(base, stride, entry[3], entry[7]);
    // In-lane 4x4 transpose: texel corner by lane.
    const __m256i t0 = _mm256_unpacklo_epi32(r0, r1), t1 = _mm256_unpackhi_epi32(r0, r1);
    const __m256i t2 = _mm256_unpacklo_epi32(r2, r3), t3 = _mm256_unpackhi_epi32(r2, r3);
    q.topLeft = _mm256_unpacklo_epi64(t0, t2), q.topRight = _mm256_unpackhi_epi64(t0, t2);
    q.bottomLeft = _mm256_unpacklo_epi64(t1, t3), q.bottomRight = _mm256_unpackhi_epi64(t1, t3);
    return q;
}

// The texels' alpha filtered as bilinearChannel(taps, 3, kAlphaLut) does.
[[gnu::always_inline]] static LUXEL_AVX2 inline __m256 filterAlpha8(const TexelQuad8& q) {
    const __m256 top = lerp8(alphaOfBytes8(_mm256_srli_epi32(q.topLeft, 24)), alphaOfBytes8(_mm256_srli_epi32(q.topRight, 24)), q.ax);
    const __m256 bottom =
        lerp8(alphaOfBytes8(_mm256_srli_epi32(q.bottomLeft, 24)), alphaOfBytes8(_mm256_srli_epi32(q.bottomRight, 24)), q.ax);
    return lerp8(top, bottom, q.ay);
}

[[gnu::always_inline]] static LUXEL_AVX2 inline Rgb8 filterTexels8(const TexelQuad8& q, bool identity, const float* lut) {
    return {texBilerp8<0>(q.topLeft, q.topRight, q.bottomLeft, q.bottomRight, q.ax, q.ay, identity, lut),
            texBilerp8<1>(q.topLeft, q.topRight, q.bottomLeft, q.bottomRight, q.ax, q.ay, identity, lut),
            texBilerp8<2>(q.topLeft, q.topRight, q.bottomLeft, q.bottomRight, q.ax, q.ay, identity, lut)};
}

// Whether the vector fetches can read a texture: every level a power of two, entries that fit int32.
static inline bool textureFits(const Texture& tex) {
    if (tex.mips.empty() || tex.paddedLevels.size() != tex.mips.size()) return false;
    if (size_t(tex.width() + 1) * size_t(tex.height() + 1) >= (size_t(1) << 31)) return false;  // entries fit int32
    for (size_t l = 0; l < tex.mips.size(); ++l)
        if (!levelView(tex, int(l)).powerOfTwo) return false;
    return true;
}

struct Rgba8 {
    Rgb8 c;
    __m256 a;
};

// Calls f(level, mine) once per distinct mip level among the valid lanes, `mine` the valid lanes on it (lanes
// on several levels are sampled a level at a time, each taking its own).
template <typename F>
[[gnu::always_inline]] static LUXEL_AVX2 inline void forEachLevel8(__m256i level, __m256i valid, F&& f) {
    alignas(32) int32_t levels[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(levels), level);
    __m256i todo = valid;
    while (!_mm256_testz_si256(todo, todo)) {
        const int l = levels[std::countr_zero(unsigned(_mm256_movemask_ps(_mm256_castsi256_ps(todo))))];
        const __m256i mine = _mm256_and_si256(todo, _mm256_cmpeq_epi32(level, _mm256_set1_epi32(l)));
        f(l, mine);
        todo = _mm256_andnot_si256(mine, todo);
    }
}

// A stage texture at each lane's mip level (sampleLevel per lane).
static LUXEL_AVX2 inline Rgba8 sampleLevels8(const Texture& tex, __m256i level, __m256 u, __m256 v, __m256i valid, bool identity,
                               const float* lut, bool clampToEdge = false) {
    const __m256 zero = _mm256_setzero_ps();
    Rgba8 out{{zero, zero, zero}, zero};
    forEachLevel8(level, valid, [&](int l, __m256i mine) LUXEL_AVX2 {
        TexelQuad8 q;
        if (clampToEdge) {  // clampMap: never past the level's edge texels' centres
            const LevelView view = levelView(tex, l);
            const float hu = 0.5f / float(view.width), hv = 0.5f / float(view.height);
            q = fetchTexels8(tex, l, clamp8(u, hu, 1.0f - hu), clamp8(v, hv, 1.0f - hv));
        } else {
            q = fetchTexels8(tex, l, u, v);
        }
        const Rgb8 c = filterTexels8(q, identity, lut);
        const __m256 a = filterAlpha8(q);
        const __m256 take = _mm256_castsi256_ps(mine);
        out = {{_mm256_blendv_ps(out.c.r, c.r, take), _mm256_blendv_ps(out.c.g, c.g, take), _mm256_blendv_ps(out.c.b, c.b, take)},
               _mm256_blendv_ps(out.a, a, take)};
    });
    return out;
}

// blendFactorOf on 8 pixels.
static LUXEL_AVX2 inline Rgb8 blendFactor8(BlendFactor f, const Rgb8& src, __m256 srcAlpha, const Rgb8& dst, __m256 dstAlpha) {
    const __m256 one = _mm256_set1_ps(1.0f);
    switch (f) {
        case BlendFactor::One: return {one, one, one};
        case BlendFactor::Zero: return {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()};
        case BlendFactor::SrcAlpha: return {srcAlpha, srcAlpha, srcAlpha};
        case BlendFactor::OneMinusSrcAlpha: {
            const __m256 k = _mm256_sub_ps(one, srcAlpha);
            return {k, k, k};
        }
        case BlendFactor::DstColor: return dst;
        case BlendFactor::OneMinusDstColor: return {_mm256_sub_ps(one, dst.r), _mm256_sub_ps(one, dst.g), _mm256_sub_ps(one, dst.b)};
        case BlendFactor::SrcColor: return src;
        case BlendFactor::OneMinusSrcColor: return {_mm256_sub_ps(one, src.r), _mm256_sub_ps(one, src.g), _mm256_sub_ps(one, src.b)};
        case BlendFactor::DstAlpha: return {dstAlpha, dstAlpha, dstAlpha};
        case BlendFactor::OneMinusDstAlpha: {
            const __m256 k = _mm256_sub_ps(one, dstAlpha);
            return {k, k, k};
        }
    }
    return {one, one, one};
}

static LUXEL_AVX2 inline Rgb8 mul8(const Rgb8& a, const Rgb8& b) {
    return {_mm256_mul_ps(a.r, b.r), _mm256_mul_ps(a.g, b.g), _mm256_mul_ps(a.b, b.b)};
}
static LUXEL_AVX2 inline Rgb8 scale8(const Rgb8& a, __m256 k) { return {_mm256_mul_ps(a.r, k), _mm256_mul_ps(a.g, k), _mm256_mul_ps(a.b, k)}; }

// clamp01 per lane (NaN -> 0).
static LUXEL_AVX2 inline __m256 clamp01x8(__m256 v) {
    return _mm256_min_ps(_mm256_max_ps(v, _mm256_setzero_ps()), _mm256_set1_ps(1.0f));
}

// lookOf(light, albedo) on 8 pixels.
static LUXEL_AVX2 inline Rgb8 litLook8(__m256 lr, __m256 lg, __m256 lb, __m256 ar, __m256 ag, __m256 ab, const LookParams& lp) {
    if (lp.linear) return {_mm256_mul_ps(lr, ar), _mm256_mul_ps(lg, ag), _mm256_mul_ps(lb, ab)};
    if (lp.hueClampAt > 0) clampLight8(lr, lg, lb, lp.hueClampAt, lp.clampPerChannel);
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    Rgb8 c{_mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(lr, ar), zero), one),
           _mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(lg, ag), zero), one),
           _mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(lb, ab), zero), one)};
    if (lp.gamma) c = {gamma8(c.r, *lp.table), gamma8(c.g, *lp.table), gamma8(c.b, *lp.table)};
    return c;
}

}  // namespace luxel::render::shading

#endif
