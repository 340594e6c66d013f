// Triangle set-up for the rasterizer (near-plane clipping, snapping to the sub-pixel grid, edge equations and
// the 1/w and barycentric planes) and binning into tiles.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "luxel/render/raster.hpp"

namespace luxel::raster {

namespace {

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

// To nearest, ties to even: lrint in the default rounding mode, without its libm call (math errno keeps the
// compiler from inlining it). The guard band keeps every value far inside int32.
inline int32_t roundToInt32(double v) {
#if defined(__SSE2__)
    return _mm_cvtsd_si32(_mm_set_sd(v));
#else
    return int32_t(std::lrint(v));
#endif
}

struct Snapped {
    int32_t X, Y;
    double invW, b1W, b2W;
};

// The pixels whose centres (pixel px's at px * kSub + kSub / 2) lie in the snapped box, clamped to the image.
struct PixelBox {
    int64_t x0, x1, y0, y1;
};
PixelBox pixelBox(int32_t minX, int32_t maxX, int32_t minY, int32_t maxY, const ScreenSetup& setup) {
    PixelBox b;
    b.x0 = std::max<int64_t>(-floorDiv(-(int64_t(minX) - kSub / 2), kSub), 0);
    b.x1 = std::min<int64_t>(floorDiv(int64_t(maxX) - kSub / 2, kSub), setup.width - 1);
    b.y0 = std::max<int64_t>(-floorDiv(-(int64_t(minY) - kSub / 2), kSub), 0);
    b.y1 = std::min<int64_t>(floorDiv(int64_t(maxY) - kSub / 2, kSub), setup.height - 1);
    return b;
}
bool coversPixelCentre(int32_t minX, int32_t maxX, int32_t minY, int32_t maxY, const ScreenSetup& setup) {
    const PixelBox b = pixelBox(minX, maxX, minY, maxY, setup);
    return b.x0 <= b.x1 && b.y0 <= b.y1;
}

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
    const PixelBox box = pixelBox(minX, maxX, minY, maxY, setup);
    if (box.x0 > box.x1 || box.y0 > box.y1) return false;
    const int64_t x0 = box.x0, y0 = box.y0, x1 = box.x1, y1 = box.y1;

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
                  std::vector<ShadeTri>& shadeOut, bool inFrustum) {
    if (setup.width <= 0 || setup.height <= 0 || setup.width > kMaxImageSide || setup.height > kMaxImageSide)
        return 0;
    for (int i = 0; i < 3; ++i)
        if (!std::isfinite(tri[i].x) || !std::isfinite(tri[i].y) || !std::isfinite(tri[i].w)) return 0;
    const float halfW = float(setup.width) * 0.5f, halfH = float(setup.height) * 0.5f;
    const float gx = kGuardPixels / halfW, gy = kGuardPixels / halfH;
    const float nearW = setup.nearW;

    // Corners inside the frustum (|x|, |y| <= w) are inside a guard band at least as wide (gx, gy >= 1: images
    // up to 16384 pixels a side; gx * w rounds to no less than w): nothing to test or clip.
    unsigned outAny = 0;
    if (!(inFrustum && gx >= 1.0f && gy >= 1.0f)) {
        unsigned outAll = 0x1f;
        for (int i = 0; i < 3; ++i) {
            unsigned code = 0;
            for (int k = 0; k < 5; ++k)
                if (planeDist(tri[i], k, nearW, gx, gy) < 0) code |= 1u << k;
            outAll &= code;
            outAny |= code;
        }
        if (outAll) return 0;
    }

    Poly clipped;
    const ClipVertex* corners = tri;
    int count = 3;
    if (outAny) {
        clipped.n = 3;
        for (int i = 0; i < 3; ++i) clipped.v[i] = tri[i];
        for (int k = 0; k < 5 && clipped.n >= 3; ++k)
            if (outAny & (1u << k)) clipPoly(clipped, k, nearW, gx, gy);
        if (clipped.n < 3) return 0;
        corners = clipped.v, count = clipped.n;
    }

    // Project and snap. Guard-band clipping keeps |x/w| <= gx, so the clamp only absorbs rounding.
    Snapped sv[8];
    const float lim = kGuardPixels + 2.0f;
    int32_t minX = std::numeric_limits<int32_t>::max(), maxX = std::numeric_limits<int32_t>::min();
    int32_t minY = minX, maxY = maxX;
    for (int i = 0; i < count; ++i) {
        const ClipVertex& c = corners[i];
        float iw = 1.0f / c.w;
        float sx = (c.x * iw * 0.5f + 0.5f) * float(setup.width) - setup.offsetX;
        float sy = (0.5f - c.y * iw * 0.5f) * float(setup.height) - setup.offsetY;
        sx = std::clamp(sx, halfW - lim, halfW + lim);
        sy = std::clamp(sy, halfH - lim, halfH + lim);
        sv[i].X = roundToInt32(double(sx) * kSub);
        sv[i].Y = roundToInt32(double(sy) * kSub);
        minX = std::min(minX, sv[i].X), maxX = std::max(maxX, sv[i].X);
        minY = std::min(minY, sv[i].Y), maxY = std::max(maxY, sv[i].Y);
    }
    // No pixel centre in the polygon's box: none in any triangle of its fan (emitTriangle's own test, on the
    // union of their boxes), so nothing more is worked out (most triangles of a small or distant view).
    if (!coversPixelCentre(minX, maxX, minY, maxY, setup)) return 0;
    for (int i = 0; i < count; ++i) {
        const ClipVertex& c = corners[i];
        double dw = 1.0 / double(c.w);
        sv[i].invW = dw;
        sv[i].b1W = double(c.b1) * dw;
        sv[i].b2W = double(c.b2) * dw;
    }
    int emitted = 0;
    for (int i = 1; i + 1 < count; ++i)
        emitted += emitTriangle(sv[0], sv[i], sv[i + 1], source, setup, out, shadeOut) ? 1 : 0;
    return emitted;
}

int setupWorldTriangle(const Vec3 corners[3], const Mat4& viewProjection, uint32_t source, const ScreenSetup& setup,
                       std::vector<RasterTri>& out, std::vector<ShadeTri>& shadeOut) {
    ClipVertex cv[3];
    unsigned outAll = 0x1f, outAny = 0;
    for (int k = 0; k < 3; ++k) {
        const Vec4 h = transform(viewProjection, corners[k]);
        cv[k] = {h.x, h.y, h.w, k == 1 ? 1.0f : 0.0f, k == 2 ? 1.0f : 0.0f};
        const unsigned code = frustumCode(h, setup.nearW);
        outAll &= code;
        outAny |= code;
    }
    if (outAll) return -1;  // wholly outside one frustum plane
    return setupTriangle(cv, source, setup, out, shadeOut, outAny == 0);
}

namespace {

// A float's bits as an unsigned integer in the float's own order (negative values reversed below the positive).
uint32_t orderedBits(float f) {
    const uint32_t u = std::bit_cast<uint32_t>(f);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

}  // namespace

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
    // the id makes the picture independent of this order. A frame of a few tiles (the camera searches'
    // 64 x 36 scoring renders) rejects too little to pay for the sort: its triangles stay in id order.
    constexpr int64_t kSortFromPixels = 128 * 128;
    std::vector<uint32_t> order;
    order.reserve(tris.size());
    for (uint32_t i = 0; i < uint32_t(tris.size()); ++i)
        if (!exclude || !(*exclude)[i]) order.push_back(i);
    if (int64_t(width) * height >= kSortFromPixels) {
        // Sorted as one 64-bit integer per triangle (largest zNear first, then the id), not through the
        // triangles themselves: a comparison then reads no 100-byte RasterTri, and the sort of oasago2's 6,000
        // triangles was the largest serial part of its set-up.
        std::vector<uint64_t> keys(order.size());
        for (size_t k = 0; k < order.size(); ++k)
            keys[k] = uint64_t(~orderedBits(tris[order[k]].zNear)) << 32 | order[k];
        std::sort(keys.begin(), keys.end());
        for (size_t k = 0; k < order.size(); ++k) order[k] = uint32_t(keys[k]);
    }
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

}  // namespace luxel::raster
