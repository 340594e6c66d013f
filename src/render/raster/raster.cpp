#include "luxel/render/raster.hpp"
#include "luxel/util/cpu.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#define LUXEL_RASTER_AVX2 1
#define LUXEL_AVX2 __attribute__((target("avx2")))
#endif

namespace luxel::raster {

namespace {

constexpr int kBlock = 8;

// One block of a triangle: e0..e2 are the edge values at its top-left pixel centre, dx the block's first
// column relative to the triangle's plane origin, py its first row. `full`: every pixel is inside.
inline void rasterBlock(const RasterTri& t, uint32_t triId, int32_t e0, int32_t e1, int32_t e2, const int32_t sx[3],
                        const int32_t sy[3], int dx, int py, int bw, int bh, bool full, float* depth, uint32_t* id,
                        uint16_t* writeCount, int stride) {
    const float za = t.invW.a, zb = t.invW.b, zc = t.invW.c;
#if defined(__SSE2__)
    // Four pixels at a time; each lane does exactly the scalar operations, so results do not depend on
    // which path a pixel takes.
    const __m128i lane = _mm_setr_epi32(0, 1, 2, 3);
    const __m128 vza = _mm_set1_ps(za), vzc = _mm_set1_ps(zc);
    const __m128i vid = _mm_set1_epi32(int32_t(triId)), minusOne = _mm_set1_epi32(-1);
    // Ids compare unsigned, as in the scalar loop (the empty id is 0xffffffff): flip the sign bits.
    const __m128i signBit = _mm_set1_epi32(std::numeric_limits<int32_t>::min());
    const __m128i vidFlipped = _mm_xor_si128(vid, signBit);
    const __m128i step0 = _mm_setr_epi32(0, sx[0], 2 * sx[0], 3 * sx[0]);
    const __m128i step1 = _mm_setr_epi32(0, sx[1], 2 * sx[1], 3 * sx[1]);
    const __m128i step2 = _mm_setr_epi32(0, sx[2], 2 * sx[2], 3 * sx[2]);
#endif
    for (int j = 0; j < bh; ++j) {
        float* drow = depth + size_t(j) * size_t(stride);
        uint32_t* irow = id + size_t(j) * size_t(stride);
        uint16_t* wrow = writeCount ? writeCount + size_t(j) * size_t(stride) : nullptr;
        // Same expression order as evalPlane, so shading can recompute depth bit-exactly.
        const float zrowB = zb * float(py + j - t.y0);
        int i = 0;
#if defined(__SSE2__)
        const __m128 vrow = _mm_set1_ps(zrowB);
        for (; i + 4 <= bw; i += 4) {
            const __m128 fx = _mm_cvtepi32_ps(_mm_add_epi32(_mm_set1_epi32(dx + i), lane));
            const __m128 z = _mm_add_ps(_mm_add_ps(vzc, _mm_mul_ps(vza, fx)), vrow);
            const __m128 d = _mm_loadu_ps(drow + i);
            const __m128i old = _mm_loadu_si128(reinterpret_cast<const __m128i*>(irow + i));
            // Nearer wins; equal depth goes to the lower triangle id.
            __m128 m = _mm_or_ps(_mm_cmpgt_ps(z, d), _mm_and_ps(_mm_cmpeq_ps(z, d), _mm_castsi128_ps(_mm_cmplt_epi32(
                                                                     vidFlipped, _mm_xor_si128(old, signBit)))));
            __m128i cover = minusOne;
            if (!full) {
                const __m128i w0 = _mm_add_epi32(_mm_set1_epi32(e0 + sx[0] * i), step0);
                const __m128i w1 = _mm_add_epi32(_mm_set1_epi32(e1 + sx[1] * i), step1);
                const __m128i w2 = _mm_add_epi32(_mm_set1_epi32(e2 + sx[2] * i), step2);
                cover = _mm_cmpgt_epi32(_mm_or_si128(_mm_or_si128(w0, w1), w2), minusOne);
                m = _mm_and_ps(m, _mm_castsi128_ps(cover));
            }
            _mm_storeu_ps(drow + i, _mm_or_ps(_mm_and_ps(m, z), _mm_andnot_ps(m, d)));
            const __m128i mi = _mm_castps_si128(m);
            _mm_storeu_si128(reinterpret_cast<__m128i*>(irow + i),
                             _mm_or_si128(_mm_and_si128(mi, vid), _mm_andnot_si128(mi, old)));
            if (wrow) {
                const int bits = _mm_movemask_ps(_mm_castsi128_ps(cover));
                for (int k = 0; k < 4; ++k) wrow[i + k] = uint16_t(wrow[i + k] + ((bits >> k) & 1));
            }
        }
#endif
        int32_t w0 = e0 + sx[0] * i, w1 = e1 + sx[1] * i, w2 = e2 + sx[2] * i;
        for (; i < bw; ++i) {
            if (full || (w0 | w1 | w2) >= 0) {
                const float z = (zc + za * float(dx + i)) + zrowB;
                if (z > drow[i] || (z == drow[i] && triId < irow[i])) {
                    drow[i] = z;
                    irow[i] = triId;
                }
                if (wrow) ++wrow[i];
            }
            w0 += sx[0];
            w1 += sx[1];
            w2 += sx[2];
        }
        e0 += sy[0];
        e1 += sy[1];
        e2 += sy[2];
    }
}

constexpr int kBlocksPerSide = kTileSize / kBlock;

#if defined(LUXEL_RASTER_AVX2)
// The depth test of 8 pixels at depths z over stored depths d and ids old: nearer wins; equal depth goes to
// the lower triangle id (unsigned, as in the scalar loop: vidFlipped is the id with its sign bit flipped).
LUXEL_AVX2 inline __m256 depthPass8(__m256 z, __m256 d, __m256i old, __m256i vidFlipped) {
    const __m256i signBit = _mm256_set1_epi32(std::numeric_limits<int32_t>::min());
    return _mm256_or_ps(_mm256_cmp_ps(z, d, _CMP_GT_OQ),
                        _mm256_and_ps(_mm256_cmp_ps(z, d, _CMP_EQ_OQ),
                                      _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_xor_si256(old, signBit), vidFlipped))));
}

// rasterBlock for a block 8 pixels wide, one row per step; each lane does the scalar loop's operations.
// Returns the smallest depth left in the block's rows (0 while any pixel is empty).
LUXEL_AVX2 float rasterBlock8(const RasterTri& t, uint32_t triId, int32_t e0, int32_t e1, int32_t e2,
                              const int32_t sx[3], const int32_t sy[3], int dx, int py, int bh, bool full, float* depth,
                              uint32_t* id, uint16_t* writeCount, int stride) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256 zx = _mm256_add_ps(_mm256_set1_ps(t.invW.c), _mm256_mul_ps(_mm256_set1_ps(t.invW.a),
                                                                            _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32(dx), lane))));
    const __m256i vid = _mm256_set1_epi32(int32_t(triId));
    const __m256i signBit = _mm256_set1_epi32(std::numeric_limits<int32_t>::min());
    const __m256i vidFlipped = _mm256_xor_si256(vid, signBit), minusOne = _mm256_set1_epi32(-1);
    __m256i w0 = _mm256_add_epi32(_mm256_set1_epi32(e0), _mm256_mullo_epi32(_mm256_set1_epi32(sx[0]), lane));
    __m256i w1 = _mm256_add_epi32(_mm256_set1_epi32(e1), _mm256_mullo_epi32(_mm256_set1_epi32(sx[1]), lane));
    __m256i w2 = _mm256_add_epi32(_mm256_set1_epi32(e2), _mm256_mullo_epi32(_mm256_set1_epi32(sx[2]), lane));
    const __m256i sy0 = _mm256_set1_epi32(sy[0]), sy1 = _mm256_set1_epi32(sy[1]), sy2 = _mm256_set1_epi32(sy[2]);
    __m256 nearest = _mm256_set1_ps(std::numeric_limits<float>::infinity());
    for (int j = 0; j < bh; ++j) {
        float* drow = depth + size_t(j) * size_t(stride);
        uint32_t* irow = id + size_t(j) * size_t(stride);
        // Same expression order as evalPlane and the scalar loop.
        const __m256 z = _mm256_add_ps(zx, _mm256_set1_ps(t.invW.b * float(py + j - t.y0)));
        const __m256 d = _mm256_loadu_ps(drow);
        const __m256i old = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(irow));
        __m256 m = depthPass8(z, d, old, vidFlipped);
        __m256i cover = minusOne;
        if (!full) {
            cover = _mm256_cmpgt_epi32(_mm256_or_si256(_mm256_or_si256(w0, w1), w2), minusOne);
            m = _mm256_and_ps(m, _mm256_castsi256_ps(cover));
            w0 = _mm256_add_epi32(w0, sy0);
            w1 = _mm256_add_epi32(w1, sy1);
            w2 = _mm256_add_epi32(w2, sy2);
        }
        const __m256 nd = _mm256_blendv_ps(d, z, m);
        _mm256_storeu_ps(drow, nd);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(irow),
                            _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(old), _mm256_castsi256_ps(vid), m)));
        nearest = _mm256_min_ps(nearest, nd);
        if (writeCount) {
            uint16_t* wrow = writeCount + size_t(j) * size_t(stride);
            const int bits = _mm256_movemask_ps(_mm256_castsi256_ps(cover));
            for (int k = 0; k < 8; ++k) wrow[k] = uint16_t(wrow[k] + ((bits >> k) & 1));
        }
    }
    __m128 m4 = _mm_min_ps(_mm256_castps256_ps128(nearest), _mm256_extractf128_ps(nearest, 1));
    m4 = _mm_min_ps(m4, _mm_movehl_ps(m4, m4));
    m4 = _mm_min_ss(m4, _mm_shuffle_ps(m4, m4, 1));
    return _mm_cvtss_f32(m4);
}
#endif

// The smallest depth in a block of bw x bh pixels, four columns at a time (no depth is NaN: the depth test
// never stores one, so the order of the comparisons does not matter).
float blockNearest(const float* depth, int stride, int bw, int bh) {
    float nearest = std::numeric_limits<float>::infinity();
    int i0 = 0;
#if defined(__SSE2__)
    __m128 m = _mm_set1_ps(nearest);
    for (; i0 + 4 <= bw; i0 += 4)
        for (int j = 0; j < bh; ++j) m = _mm_min_ps(_mm_loadu_ps(depth + size_t(j) * size_t(stride) + size_t(i0)), m);
    m = _mm_min_ps(m, _mm_movehl_ps(m, m));
    nearest = _mm_cvtss_f32(_mm_min_ss(m, _mm_shuffle_ps(m, m, 1)));
#endif
    for (int j = 0; j < bh; ++j)
        for (int i = i0; i < bw; ++i) nearest = std::min(nearest, depth[size_t(j) * size_t(stride) + size_t(i)]);
    return nearest;
}

// A cut-out block's pixels that are covered and pass the depth test, row-major: their columns, rows, depths
// and offsets in the block. Returns how many.
struct CutoutCandidates {
    int32_t px[kBlock * kBlock], py[kBlock * kBlock];
    float z[kBlock * kBlock];
    uint16_t at[kBlock * kBlock];
};

int cutoutCandidates(const RasterTri& t, uint32_t triId, int32_t e0, int32_t e1, int32_t e2, const int32_t sx[3],
                     const int32_t sy[3], int dx, int px0, int py, int bw, int bh, bool full, const float* depth,
                     const uint32_t* id, uint16_t* writeCount, int stride, CutoutCandidates& c) {
    const float za = t.invW.a, zb = t.invW.b, zc = t.invW.c;
    int n = 0;
    for (int j = 0; j < bh; ++j) {
        const float zrowB = zb * float(py + j - t.y0);  // the expression order of rasterBlock and evalPlane
        int32_t w0 = e0 + sy[0] * j, w1 = e1 + sy[1] * j, w2 = e2 + sy[2] * j;
        for (int i = 0; i < bw; ++i, w0 += sx[0], w1 += sx[1], w2 += sx[2]) {
            if (!full && (w0 | w1 | w2) < 0) continue;
            const size_t o = size_t(j) * size_t(stride) + size_t(i);
            if (writeCount) ++writeCount[o];
            const float z = (zc + za * float(dx + i)) + zrowB;
            if (!(z > depth[o] || (z == depth[o] && triId < id[o]))) continue;
            c.px[n] = px0 + i, c.py[n] = py + j, c.z[n] = z, c.at[n] = uint16_t(o), ++n;
        }
    }
    return n;
}

#if defined(LUXEL_RASTER_AVX2)
// cutoutCandidates for a block 8 pixels wide, one row per step, each lane doing the scalar loop's operations.
LUXEL_AVX2 int cutoutCandidates8(const RasterTri& t, uint32_t triId, int32_t e0, int32_t e1, int32_t e2, const int32_t sx[3],
                                 const int32_t sy[3], int dx, int px0, int py, int bh, bool full, const float* depth,
                                 const uint32_t* id, uint16_t* writeCount, int stride, CutoutCandidates& c) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256 zx = _mm256_add_ps(_mm256_set1_ps(t.invW.c), _mm256_mul_ps(_mm256_set1_ps(t.invW.a),
                                                                            _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32(dx), lane))));
    const __m256i signBit = _mm256_set1_epi32(std::numeric_limits<int32_t>::min());
    const __m256i vidFlipped = _mm256_xor_si256(_mm256_set1_epi32(int32_t(triId)), signBit), minusOne = _mm256_set1_epi32(-1);
    __m256i w0 = _mm256_add_epi32(_mm256_set1_epi32(e0), _mm256_mullo_epi32(_mm256_set1_epi32(sx[0]), lane));
    __m256i w1 = _mm256_add_epi32(_mm256_set1_epi32(e1), _mm256_mullo_epi32(_mm256_set1_epi32(sx[1]), lane));
    __m256i w2 = _mm256_add_epi32(_mm256_set1_epi32(e2), _mm256_mullo_epi32(_mm256_set1_epi32(sx[2]), lane));
    const __m256i sy0 = _mm256_set1_epi32(sy[0]), sy1 = _mm256_set1_epi32(sy[1]), sy2 = _mm256_set1_epi32(sy[2]);
    int n = 0;
    for (int j = 0; j < bh; ++j) {
        const float* drow = depth + size_t(j) * size_t(stride);
        const uint32_t* irow = id + size_t(j) * size_t(stride);
        const __m256 z = _mm256_add_ps(zx, _mm256_set1_ps(t.invW.b * float(py + j - t.y0)));
        const __m256 d = _mm256_loadu_ps(drow);
        const __m256i old = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(irow));
        __m256 m = depthPass8(z, d, old, vidFlipped);
        int coverBits = 0xff;
        if (!full) {
            const __m256i cover = _mm256_cmpgt_epi32(_mm256_or_si256(_mm256_or_si256(w0, w1), w2), minusOne);
            m = _mm256_and_ps(m, _mm256_castsi256_ps(cover));
            coverBits = _mm256_movemask_ps(_mm256_castsi256_ps(cover));
            w0 = _mm256_add_epi32(w0, sy0);
            w1 = _mm256_add_epi32(w1, sy1);
            w2 = _mm256_add_epi32(w2, sy2);
        }
        if (writeCount) {
            uint16_t* wrow = writeCount + size_t(j) * size_t(stride);
            for (int k = 0; k < 8; ++k) wrow[k] = uint16_t(wrow[k] + ((coverBits >> k) & 1));
        }
        unsigned bits = unsigned(_mm256_movemask_ps(m));
        if (!bits) continue;
        alignas(32) float zs[8];
        _mm256_store_ps(zs, z);
        for (; bits; bits &= bits - 1) {
            const int i = std::countr_zero(bits);
            c.px[n] = px0 + i, c.py[n] = py + j, c.z[n] = zs[i], c.at[n] = uint16_t(size_t(j) * size_t(stride) + size_t(i)), ++n;
        }
    }
    return n;
}
#endif

// rasterBlock for a cut-out triangle: coverage and depth test first, then the caller's test on the passing
// pixels, then the writes (a triangle writes each pixel once, so testing before writing changes nothing).
// Returns the smallest depth left in the block (0 while any pixel is empty).
float rasterCutoutBlock(const RasterTri& t, uint32_t triId, int32_t e0, int32_t e1, int32_t e2, const int32_t sx[3],
                        const int32_t sy[3], int dx, int px0, int py, int bw, int bh, bool full, float* depth, uint32_t* id,
                        uint16_t* writeCount, int stride, const CutoutTest& cut, [[maybe_unused]] bool vec) {
    CutoutCandidates c;
#if defined(LUXEL_RASTER_AVX2)
    const int n = vec && bw == kBlock
                      ? cutoutCandidates8(t, triId, e0, e1, e2, sx, sy, dx, px0, py, bh, full, depth, id, writeCount, stride, c)
                      : cutoutCandidates(t, triId, e0, e1, e2, sx, sy, dx, px0, py, bw, bh, full, depth, id, writeCount, stride, c);
#else
    const int n = cutoutCandidates(t, triId, e0, e1, e2, sx, sy, dx, px0, py, bw, bh, full, depth, id, writeCount, stride, c);
#endif
    if (n > 0) {
        uint8_t keep[kBlock * kBlock];
        cut.keep(cut.context, triId, c.px, c.py, c.z, n, keep);
        // Masks, not a branch (which the compiler makes of a conditional): which pixels an alpha test keeps
        // is too irregular to predict.
        for (int k = 0; k < n; ++k) {
            const size_t at = c.at[k];
            const uint32_t take = 0u - uint32_t(keep[k] != 0);
            const uint32_t z = std::bit_cast<uint32_t>(c.z[k]), old = std::bit_cast<uint32_t>(depth[at]);
            depth[at] = std::bit_cast<float>((z & take) | (old & ~take));
            id[at] = (triId & take) | (id[at] & ~take);
        }
    }
    return blockNearest(depth, stride, bw, bh);
}

// Per 8x8 block of a tile, a lower bound of its pixels' 1/w (depths only grow).
struct HiZ {
    float farthest[kBlocksPerSide * kBlocksPerSide];
};

}  // namespace

void rasterTile(const RasterTri* tris, const uint32_t* ids, size_t count, int tileX, int tileY, int w, int h,
                float* depth, uint32_t* id, uint16_t* writeCount, const CutoutTest* cutouts) {
    HiZ hiz;  // the caller's buffer starts at depth 0 (nothing drawn)
    for (float& f : hiz.farthest) f = 0;
#if defined(LUXEL_RASTER_AVX2)
    const bool vec = useAvx2();
#endif
    for (size_t k = 0; k < count; ++k) {
        const uint32_t triId = ids[k];
        const RasterTri& t = tris[triId];
        const bool cutout = cutouts && cutouts->isCutout[triId];
        const int rx0 = std::max(t.x0, tileX), rx1 = std::min(t.x1, tileX + w - 1);
        const int ry0 = std::max(t.y0, tileY), ry1 = std::min(t.y1, tileY + h - 1);
        if (rx0 > rx1 || ry0 > ry1) continue;
        // The region grown to the tile's 8x8 block grid: whole blocks are stepped through, and pixels
        // outside the triangle's bounds are outside one of its edges, so edges alone decide coverage.
        const int ex0 = tileX + ((rx0 - tileX) & ~(kBlock - 1)), ey0 = tileY + ((ry0 - tileY) & ~(kBlock - 1));
        const int ex1 = std::min(tileX + ((rx1 - tileX) | (kBlock - 1)), tileX + w - 1);
        const int ey1 = std::min(tileY + ((ry1 - tileY) | (kBlock - 1)), tileY + h - 1);

        // Evaluate each edge at the region's corner samples: all outside rejects the triangle here, all
        // inside drops the edge. An edge that crosses the region varies by at most
        // (|A|+|B|) * kSub * kTileSize < 2^29 inside it (|A|,|B| <= 2^19 by the guard band), so its values
        // fit int32 from here on.
        const int64_t px0 = int64_t(ex0) * kSub + kSub / 2, py0 = int64_t(ey0) * kSub + kSub / 2;
        const int64_t spanX = int64_t(ex1 - ex0) * kSub, spanY = int64_t(ey1 - ey0) * kSub;
        int32_t e[3], sx[3], sy[3];
        bool rejected = false;
        for (int i = 0; i < 3; ++i) {
            int64_t e00 = int64_t(t.A[i]) * px0 + int64_t(t.B[i]) * py0 + t.C[i];
            int64_t e10 = e00 + int64_t(t.A[i]) * spanX, e01 = e00 + int64_t(t.B[i]) * spanY;
            int64_t e11 = e10 + int64_t(t.B[i]) * spanY;
            if (e00 < 0 && e10 < 0 && e01 < 0 && e11 < 0) { rejected = true; break; }
            if (e00 >= 0 && e10 >= 0 && e01 >= 0 && e11 >= 0) {
                e[i] = 0, sx[i] = 0, sy[i] = 0;
            } else {
                e[i] = int32_t(e00);
                sx[i] = t.A[i] * kSub;
                sy[i] = t.B[i] * kSub;
            }
        }
        if (rejected) continue;

        const int dx0 = ex0 - t.x0;
        // Block tests on the three edges at once (lane 3 is an edge that is always inside). Every block is
        // tested with a whole 8x8 block's corners: for a tile-edge block with fewer pixels that only makes
        // "outside" and "full" rarer, never wrong.
        const __m128i e4 = _mm_setr_epi32(e[0], e[1], e[2], 0);
        const __m128i sx8 = _mm_setr_epi32(sx[0] * kBlock, sx[1] * kBlock, sx[2] * kBlock, 0);
        const __m128i sy8 = _mm_setr_epi32(sy[0] * kBlock, sy[1] * kBlock, sy[2] * kBlock, 0);
        int32_t lo[4] = {0, 0, 0, 0}, hi[4] = {0, 0, 0, 0};
        for (int i = 0; i < 3; ++i) {
            const int32_t ex = sx[i] * (kBlock - 1), ey = sy[i] * (kBlock - 1);
            lo[i] = std::min(ex, 0) + std::min(ey, 0);
            hi[i] = std::max(ex, 0) + std::max(ey, 0);
        }
        const __m128i lo4 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(lo));
        const __m128i hi4 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(hi));
        const __m128i zero4 = _mm_setzero_si128();
        // Depth bounds per block column and row over the pixels the triangle's bounds reach there, and one
        // rounding allowance for the per-pixel (zc + za*fx) + zb*fy over the whole region.
        const float za = t.invW.a, zb = t.invW.b, zc = t.invW.c;
        float colMax[kBlocksPerSide], colMin[kBlocksPerSide], rowMax[kBlocksPerSide], rowMin[kBlocksPerSide];
        const int nbx = (ex1 - ex0) / kBlock + 1, nby = (ey1 - ey0) / kBlock + 1;
        for (int c = 0; c < nbx; ++c) {
            const int bx = ex0 + c * kBlock;
            const float f0 = za * float(std::max(bx, rx0) - t.x0), f1 = za * float(std::min(bx + kBlock - 1, rx1) - t.x0);
            colMax[c] = std::max(f0, f1);
            colMin[c] = std::min(f0, f1);
        }
        for (int r = 0; r < nby; ++r) {
            const int by = ey0 + r * kBlock;
            const float f0 = zb * float(std::max(by, ry0) - t.y0), f1 = zb * float(std::min(by + kBlock - 1, ry1) - t.y0);
            rowMax[r] = std::max(f0, f1);
            rowMin[r] = std::min(f0, f1);
        }
        const float slack = 1e-5f * (std::fabs(zc) + std::max(std::fabs(za * float(rx0 - t.x0)), std::fabs(za * float(rx1 - t.x0))) +
                                     std::max(std::fabs(zb * float(ry0 - t.y0)), std::fabs(zb * float(ry1 - t.y0))));
        // Blocks outside an edge are skipped, blocks inside all three need no edge tests, and blocks whose
        // stored depths are all nearer than the triangle can get there are skipped (hierarchical depth).
        __m128i eRow = e4;
        for (int r = 0; r < nby; ++r, eRow = _mm_add_epi32(eRow, sy8)) {
            const int by = ey0 + r * kBlock;
            const int bh = std::min(by + kBlock - 1, ey1) - by + 1;
            __m128i eb = eRow;
            for (int c = 0; c < nbx; ++c, eb = _mm_add_epi32(eb, sx8)) {
                if (_mm_movemask_epi8(_mm_cmpgt_epi32(zero4, _mm_add_epi32(eb, hi4)))) continue;  // outside an edge
                const int bx = ex0 + c * kBlock;
                const int blk = ((by - tileY) / kBlock) * kBlocksPerSide + (bx - tileX) / kBlock;
                const float zMax = ((zc + colMax[c]) + rowMax[r]) + slack;
                if (zMax < hiz.farthest[blk]) continue;
                const bool full = _mm_movemask_epi8(_mm_cmpgt_epi32(zero4, _mm_add_epi32(eb, lo4))) == 0;
                alignas(16) int32_t eAt[4];
                _mm_store_si128(reinterpret_cast<__m128i*>(eAt), eb);
                const int bw = std::min(bx + kBlock - 1, ex1) - bx + 1;
                const size_t at = size_t(by - tileY) * size_t(w) + size_t(bx - tileX);
                uint16_t* wc = writeCount ? writeCount + at : nullptr;
                if (cutout) {
#if defined(LUXEL_RASTER_AVX2)
                    const bool vecBlock = vec;
#else
                    const bool vecBlock = false;
#endif
                    const float nearestLeft = rasterCutoutBlock(t, triId, eAt[0], eAt[1], eAt[2], sx, sy, dx0 + (bx - ex0), bx,
                                                                by, bw, bh, full, depth + at, id + at, wc, w, *cutouts, vecBlock);
                    hiz.farthest[blk] = std::max(hiz.farthest[blk], nearestLeft);
                    continue;
                }
#if defined(LUXEL_RASTER_AVX2)
                if (vec && bw == kBlock) {
                    // The block is all the tile has there (bh rows), so the smallest depth left in it bounds it.
                    const float nearestLeft = rasterBlock8(t, triId, eAt[0], eAt[1], eAt[2], sx, sy, dx0 + (bx - ex0),
                                                           by, bh, full, depth + at, id + at, wc, w);
                    hiz.farthest[blk] = std::max(hiz.farthest[blk], nearestLeft);
                    continue;
                }
#endif
                rasterBlock(t, triId, eAt[0], eAt[1], eAt[2], sx, sy, dx0 + (bx - ex0), by, bw, bh, full, depth + at,
                            id + at, wc, w);
                // A block covered whole by the triangle is at least as near as the triangle's farthest point in it.
                if (full) hiz.farthest[blk] = std::max(hiz.farthest[blk], ((zc + colMin[c]) + rowMin[r]) - slack);
            }
        }
    }
}

}  // namespace luxel::raster
