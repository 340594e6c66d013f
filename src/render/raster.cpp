#include "luxel/render/raster.hpp"

#include <algorithm>
#include <bit>
#include <atomic>
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
std::atomic<bool> gAvx2Allowed{true};
}  // namespace

bool useAvx2() {
#if defined(LUXEL_RASTER_AVX2)
    static const bool has = __builtin_cpu_supports("avx2");
    return has && gAvx2Allowed.load(std::memory_order_relaxed);
#else
    return false;
#endif
}

void allowAvx2(bool allowed) { gAvx2Allowed.store(allowed, std::memory_order_relaxed); }

namespace {

// Floor division for possibly negative numerators (fixed point -> pixel index).
inline int64_t floorDiv(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

struct Poly {
    ClipVertex v[3 + 5];
    int n = 0;
};

// Signed distance of a vertex to clip plane k (>= 0 inside): 0 near, 1..4 guard band +x, -x, +y, -y.
inline float planeDist(const ClipVertex& v, int k, float nearW, float gx, float gy) {
    switch (k) {
        case 0: return v.w - nearW;
        case 1: return gx * v.w - v.x;
        case 2: return gx * v.w + v.x;
        case 3: return gy * v.w - v.y;
        default: return gy * v.w + v.y;
    }
}

// Sutherland-Hodgman against one plane; attributes are linear in clip space so they lerp directly.
void clipPoly(Poly& p, int k, float nearW, float gx, float gy) {
    Poly out;
    for (int i = 0; i < p.n; ++i) {
        const ClipVertex& a = p.v[i];
        const ClipVertex& b = p.v[(i + 1) % p.n];
        float da = planeDist(a, k, nearW, gx, gy), db = planeDist(b, k, nearW, gx, gy);
        if (da >= 0) out.v[out.n++] = a;
        if ((da >= 0) != (db >= 0)) {
            float t = da / (da - db);
            ClipVertex c;
            c.x = a.x + (b.x - a.x) * t;
            c.y = a.y + (b.y - a.y) * t;
            c.w = a.w + (b.w - a.w) * t;
            c.b1 = a.b1 + (b.b1 - a.b1) * t;
            c.b2 = a.b2 + (b.b2 - a.b2) * t;
            if (k == 0) c.w = std::max(c.w, nearW);  // keep w exactly on the safe side of the plane
            out.v[out.n++] = c;
        }
    }
    p = out;
}

struct Snapped {
    int32_t X, Y;
    double invW, b1W, b2W;
};

// Plane through three (u, v, f) points; (u, v) in pixels relative to the first candidate pixel centre.
AttrPlane fitPlane(const double u[3], const double v[3], const double f[3], double det) {
    double du1 = u[1] - u[0], du2 = u[2] - u[0], dv1 = v[1] - v[0], dv2 = v[2] - v[0];
    double df1 = f[1] - f[0], df2 = f[2] - f[0];
    double a = (df1 * dv2 - df2 * dv1) / det;
    double b = (du1 * df2 - du2 * df1) / det;
    double c = f[0] - a * u[0] - b * v[0];
    return {float(a), float(b), float(c)};
}

bool emitTriangle(const Snapped& s0, const Snapped& s1In, const Snapped& s2In, uint32_t source,
                  const ScreenSetup& setup, std::vector<RasterTri>& out, std::vector<ShadeTri>& shadeOut) {
    Snapped s[3] = {s0, s1In, s2In};
    int64_t area = int64_t(s[1].X - s[0].X) * (s[2].Y - s[0].Y) - int64_t(s[2].X - s[0].X) * (s[1].Y - s[0].Y);
    if (area == 0) return false;
    if (area < 0) std::swap(s[1], s[2]);

    int32_t minX = std::min({s[0].X, s[1].X, s[2].X}), maxX = std::max({s[0].X, s[1].X, s[2].X});
    int32_t minY = std::min({s[0].Y, s[1].Y, s[2].Y}), maxY = std::max({s[0].Y, s[1].Y, s[2].Y});
    // Pixel px has its centre at px*kSub + kSub/2.
    int64_t x0 = -floorDiv(-(int64_t(minX) - kSub / 2), kSub), x1 = floorDiv(int64_t(maxX) - kSub / 2, kSub);
    int64_t y0 = -floorDiv(-(int64_t(minY) - kSub / 2), kSub), y1 = floorDiv(int64_t(maxY) - kSub / 2, kSub);
    x0 = std::max<int64_t>(x0, 0);
    y0 = std::max<int64_t>(y0, 0);
    x1 = std::min<int64_t>(x1, setup.width - 1);
    y1 = std::min<int64_t>(y1, setup.height - 1);
    if (x0 > x1 || y0 > y1) return false;

    RasterTri t;
    for (int e = 0; e < 3; ++e) {
        const Snapped& a = s[e];
        const Snapped& b = s[(e + 1) % 3];
        int32_t A = a.Y - b.Y, B = b.X - a.X;
        int64_t C = -(int64_t(A) * a.X + int64_t(B) * a.Y);
        // Top-left rule (y down, positive area): a left edge goes up (A > 0), a top edge goes right along a
        // horizontal line. Other edges own no pixel centre lying exactly on them.
        bool topLeft = A > 0 || (A == 0 && B > 0);
        if (!topLeft) C -= 1;
        t.A[e] = A;
        t.B[e] = B;
        t.C[e] = C;
    }
    t.x0 = int32_t(x0);
    t.y0 = int32_t(y0);
    t.zNear = float(std::max({s[0].invW, s[1].invW, s[2].invW}));
    t.x1 = int32_t(x1);
    t.y1 = int32_t(y1);

    double u[3], v[3], fz[3], f1[3], f2[3];
    for (int i = 0; i < 3; ++i) {
        u[i] = double(s[i].X) / kSub - (double(x0) + 0.5);
        v[i] = double(s[i].Y) / kSub - (double(y0) + 0.5);
        fz[i] = s[i].invW;
        f1[i] = s[i].b1W;
        f2[i] = s[i].b2W;
    }
    double det = double(area < 0 ? -area : area) / (double(kSub) * kSub);
    t.invW = fitPlane(u, v, fz, det);
    ShadeTri st;
    st.invW = t.invW;
    st.b1W = fitPlane(u, v, f1, det);
    st.b2W = fitPlane(u, v, f2, det);
    st.x0 = t.x0;
    st.y0 = t.y0;
    st.source = source;
    out.push_back(t);
    shadeOut.push_back(st);
    return true;
}

}  // namespace

int setupTriangle(const ClipVertex tri[3], uint32_t source, const ScreenSetup& setup, std::vector<RasterTri>& out,
                  std::vector<ShadeTri>& shadeOut) {
    if (setup.width <= 0 || setup.height <= 0 || setup.width > kMaxImageSide || setup.height > kMaxImageSide)
        return 0;
    for (int i = 0; i < 3; ++i)
        if (!std::isfinite(tri[i].x) || !std::isfinite(tri[i].y) || !std::isfinite(tri[i].w)) return 0;
    const float halfW = float(setup.width) * 0.5f, halfH = float(setup.height) * 0.5f;
    const float gx = kGuardPixels / halfW, gy = kGuardPixels / halfH;
    const float nearW = setup.nearW;

    unsigned outAll = 0x1f, outAny = 0;
    for (int i = 0; i < 3; ++i) {
        unsigned code = 0;
        for (int k = 0; k < 5; ++k)
            if (planeDist(tri[i], k, nearW, gx, gy) < 0) code |= 1u << k;
        outAll &= code;
        outAny |= code;
    }
    if (outAll) return 0;

    Poly p;
    p.n = 3;
    for (int i = 0; i < 3; ++i) p.v[i] = tri[i];
    for (int k = 0; k < 5 && p.n >= 3; ++k)
        if (outAny & (1u << k)) clipPoly(p, k, nearW, gx, gy);
    if (p.n < 3) return 0;

    // Project and snap. Guard-band clipping keeps |x/w| <= gx, so the clamp only absorbs rounding.
    Snapped sv[8];
    const float lim = kGuardPixels + 2.0f;
    for (int i = 0; i < p.n; ++i) {
        const ClipVertex& c = p.v[i];
        float iw = 1.0f / c.w;
        float sx = (c.x * iw * 0.5f + 0.5f) * float(setup.width) - setup.offsetX;
        float sy = (0.5f - c.y * iw * 0.5f) * float(setup.height) - setup.offsetY;
        sx = std::clamp(sx, halfW - lim, halfW + lim);
        sy = std::clamp(sy, halfH - lim, halfH + lim);
        sv[i].X = int32_t(std::lrint(double(sx) * kSub));
        sv[i].Y = int32_t(std::lrint(double(sy) * kSub));
        double dw = 1.0 / double(c.w);
        sv[i].invW = dw;
        sv[i].b1W = double(c.b1) * dw;
        sv[i].b2W = double(c.b2) * dw;
    }
    int emitted = 0;
    for (int i = 1; i + 1 < p.n; ++i)
        emitted += emitTriangle(sv[0], sv[i], sv[i + 1], source, setup, out, shadeOut) ? 1 : 0;
    return emitted;
}

Bins binTrianglesInOrder(const std::vector<RasterTri>& tris, const std::vector<uint32_t>& order, int width,
                         int height, int shiftX) {
    Bins bins;
    bins.shiftX = std::clamp(shiftX, 0, kTileSize - 1);
    const int sx = bins.shiftX;
    bins.tilesX = (width + sx + kTileSize - 1) / kTileSize;
    bins.tilesY = (height + kTileSize - 1) / kTileSize;
    size_t numTiles = size_t(bins.tilesX) * size_t(bins.tilesY);
    bins.offsets.assign(numTiles + 1, 0);
    for (uint32_t i : order) {
        const RasterTri& t = tris[i];
        for (int ty = t.y0 / kTileSize; ty <= t.y1 / kTileSize; ++ty)
            for (int tx = (t.x0 + sx) / kTileSize; tx <= (t.x1 + sx) / kTileSize; ++tx)
                ++bins.offsets[size_t(ty) * bins.tilesX + tx + 1];
    }
    for (size_t i = 0; i < numTiles; ++i) bins.offsets[i + 1] += bins.offsets[i];
    bins.ids.resize(bins.offsets[numTiles]);
    std::vector<uint32_t> cursor(bins.offsets.begin(), bins.offsets.end() - 1);
    for (uint32_t i : order) {
        const RasterTri& t = tris[i];
        for (int ty = t.y0 / kTileSize; ty <= t.y1 / kTileSize; ++ty)
            for (int tx = (t.x0 + sx) / kTileSize; tx <= (t.x1 + sx) / kTileSize; ++tx)
                bins.ids[cursor[size_t(ty) * bins.tilesX + tx]++] = i;
    }
    return bins;
}

Bins binTriangles(const std::vector<RasterTri>& tris, int width, int height, int shiftX,
                  const std::vector<uint8_t>* exclude) {
    // Bins list triangles nearest first so hierarchical depth rejects more; the depth test's tie-break on
    // the id makes the picture independent of this order.
    std::vector<uint32_t> order;
    order.reserve(tris.size());
    for (uint32_t i = 0; i < uint32_t(tris.size()); ++i)
        if (!exclude || !(*exclude)[i]) order.push_back(i);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        if (tris[a].zNear != tris[b].zNear) return tris[a].zNear > tris[b].zNear;
        return a < b;
    });
    return binTrianglesInOrder(tris, order, width, height, shiftX);
}

TileRect tileRect(const Bins& bins, size_t tile, int width, int height) {
    const int c = int(tile % size_t(bins.tilesX)), r = int(tile / size_t(bins.tilesX));
    TileRect t;
    t.x = std::max(0, c * kTileSize - bins.shiftX);
    t.w = std::min(width, (c + 1) * kTileSize - bins.shiftX) - t.x;
    t.y = r * kTileSize;
    t.h = std::min(height, t.y + kTileSize) - t.y;
    return t;
}

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
        // Nearer wins; equal depth goes to the lower triangle id (unsigned, as in the scalar loop).
        __m256 m = _mm256_or_ps(_mm256_cmp_ps(z, d, _CMP_GT_OQ),
                                _mm256_and_ps(_mm256_cmp_ps(z, d, _CMP_EQ_OQ),
                                              _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_xor_si256(old, signBit), vidFlipped))));
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
        __m256 m = _mm256_or_ps(_mm256_cmp_ps(z, d, _CMP_GT_OQ),
                                _mm256_and_ps(_mm256_cmp_ps(z, d, _CMP_EQ_OQ),
                                              _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_xor_si256(old, signBit), vidFlipped))));
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
        for (int k = 0; k < n; ++k)
            if (keep[k]) depth[c.at[k]] = c.z[k], id[c.at[k]] = triId;
    }
    float nearest = std::numeric_limits<float>::infinity();
    for (int j = 0; j < bh; ++j)
        for (int i = 0; i < bw; ++i) nearest = std::min(nearest, depth[size_t(j) * size_t(stride) + size_t(i)]);
    return nearest;
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
