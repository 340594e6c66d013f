#pragma once
// The renderer's rasterizer core (internal to the render stage; exposed for tests).
//
// Triangles arrive in clip space (x, y, w with w the view depth), are clipped against the near plane and a
// guard band in homogeneous space, snapped to a fixed-point grid of 1/16 pixel and stored as integer edge
// functions with the top-left fill rule folded into their constants. Tiles are rasterized independently
// into a visibility buffer (1/w depth, raster-triangle id). Attribute planes are screen-space planes of
// b1/w, b2/w and 1/w, where b1, b2 are barycentrics of the ORIGINAL triangle, so clipped pieces
// interpolate the original vertices perspective-correctly.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "luxel/util/math.hpp"

namespace luxel::raster {

constexpr int kSubBits = 4;
constexpr int kSub = 1 << kSubBits;  // fixed-point units per pixel
constexpr int kTileSize = 32;
// Screen coordinates stay within this many pixels of the image centre after guard-band clipping, which
// bounds every edge value inside a tile to well under 2^31 (see rasterTile).
constexpr float kGuardPixels = 8192.0f;
constexpr int kMaxImageSide = 16384;
constexpr uint32_t kNoTriangle = 0xffffffffu;

// Screen-space plane of one value: v(px, py) = c + a*(px - x0) + b*(py - y0) for pixel indices px, py
// (the value at the pixel centre), with (x0, y0) the triangle's first candidate pixel.
struct AttrPlane {
    float a = 0, b = 0, c = 0;
};

// Edge, bounds and depth: what the tile loop reads.
struct RasterTri {
    int32_t A[3], B[3];  // E(P) = A*Px + B*Py + C, P in fixed point; inside when E >= 0 for all three
    int64_t C[3];        // with the fill-rule bias folded in
    int32_t x0, y0, x1, y1;  // inclusive pixel range whose centres may be covered
    AttrPlane invW;          // 1/w: depth, larger is nearer
    float zNear = 0;         // largest 1/w of the vertices (binning order)
};

// What shading needs for the same triangle (same index).
struct ShadeTri {
    AttrPlane invW;      // copy of RasterTri::invW, so attribute/w planes can be combined from these three
    AttrPlane b1W, b2W;  // b1/w, b2/w of the original triangle
    int32_t x0, y0;
    uint32_t source = 0;  // caller's id for the original triangle
};

// Quake 3 winds faces clockwise as seen from their front (q3map2's PlaneFromPoints takes the normal as
// cross(c - a, b - a)), so a triangle faces the eye when its right-handed normal cross(b - a, c - a)
// points away from the eye. Frames drop the one-sided triangles that do not.
inline bool facesEye(Vec3 p0, Vec3 p1, Vec3 p2, Vec3 eye) { return dot(cross(p1 - p0, p2 - p0), eye - p0) < 0; }

// Which frustum planes a clip-space point is outside of (bits: +x, -x, +y, -y, near), as frames cull.
inline unsigned frustumCode(const Vec4& h, float nearW) {
    return (h.x > h.w ? 1u : 0u) | (h.x < -h.w ? 2u : 0u) | (h.y > h.w ? 4u : 0u) | (h.y < -h.w ? 8u : 0u) |
           (h.w < nearW ? 16u : 0u);
}

struct ClipVertex {
    float x = 0, y = 0, w = 0;  // clip space
    float b1 = 0, b2 = 0;       // barycentrics w.r.t. the original triangle
};

struct ScreenSetup {
    int width = 0, height = 0;
    float nearW = 1.0f;           // clip against w >= nearW
    float offsetX = 0, offsetY = 0;  // sample position inside the pixel, relative to its centre
};

// Clips, snaps and appends the pieces of one triangle (either winding is accepted; callers cull back
// faces before). Returns the number of raster triangles appended (0 when it covers no pixel centre).
// `inFrustum`: the caller found every corner inside the view frustum (|x| <= w, |y| <= w, w >= nearW), so
// inside the guard band too: the clip tests are skipped (the same triangles come out).
int setupTriangle(const ClipVertex tri[3], uint32_t source, const ScreenSetup& setup, std::vector<RasterTri>& out,
                  std::vector<ShadeTri>& shadeOut, bool inFrustum = false);
// A world-space triangle as frames draw it: its corners through viewProjection (barycentric attributes 0, 1, 2),
// frustum codes against setup.nearW, then setupTriangle. -1 when it lies wholly outside one frustum plane
// (nothing appended), else setupTriangle's count.
int setupWorldTriangle(const Vec3 corners[3], const Mat4& viewProjection, uint32_t source, const ScreenSetup& setup,
                       std::vector<RasterTri>& out, std::vector<ShadeTri>& shadeOut);

// Triangle ids per tile, nearest first (the order only affects speed: see rasterTile). Tiles are
// kTileSize squares on a grid moved left by shiftX pixels (0 <= shiftX < kTileSize): tile column c covers
// x in [c*kTileSize - shiftX, (c+1)*kTileSize - shiftX) within the image, so column 0 may be narrower.
// (The renderer draws into 64-byte aligned frames whose tile rows start on cache lines at shiftX 0.)
struct Bins {
    int tilesX = 0, tilesY = 0;
    int shiftX = 0;
    std::vector<uint32_t> offsets;  // tilesX*tilesY + 1
    std::vector<uint32_t> ids;
};
// `exclude` (one flag per triangle) leaves triangles out (those drawn by a later pass).
Bins binTriangles(const std::vector<RasterTri>& tris, int width, int height, int shiftX = 0,
                  const std::vector<uint8_t>* exclude = nullptr);
// Bins exactly the listed triangles, each tile keeping the list's order (passes that draw in order).
Bins binTrianglesInOrder(const std::vector<RasterTri>& tris, const std::vector<uint32_t>& order, int width,
                         int height, int shiftX = 0);

// Floor division for possibly negative numerators (fixed point -> pixel index, span ends).
inline int64_t floorDiv(int64_t a, int64_t b) {
    const int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// Calls f(py, lo, hi, zRow) for each row of the rectangle [x0, x1] x [y0, y1] whose pixel centres the triangle
// covers: they are the columns lo..hi (a row's covered pixels are one span: on a row each edge is
// a * px + b >= 0, which bounds px on one side). The bound is an exact integer floor / ceil of b / a, divided
// once and then stepped from row to row as quotient and remainder. rasterTile's coverage rule; spanDepth(t, px,
// zRow) is its depth value.
template <typename F>
void forEachCoveredSpan(const RasterTri& t, int x0, int y0, int x1, int y1, F&& f) {
    x0 = std::max(x0, t.x0), y0 = std::max(y0, t.y0), x1 = std::min(x1, t.x1), y1 = std::min(y1, t.y1);
    if (x0 > x1 || y0 > y1) return;
    // Per edge: q = floor(n / d) and r = n - q * d in [0, d), d = |a|, with n = b for a < 0 (px <= floor(b / -a))
    // and n = -b + a - 1 for a > 0 (px >= ceil(-b / a) = floor((-b + a - 1) / a)).
    struct Bound {
        int kind;  // 0: lower bound, 1: upper bound, 2: none (a = 0: the whole row or nothing)
        int64_t q, r, d, stepQ, stepR, b, stepB;
    } bound[3];
    const int64_t sy0 = int64_t(y0) * kSub + kSub / 2;
    for (int i = 0; i < 3; ++i) {
        const int64_t a = int64_t(t.A[i]) * kSub, b = int64_t(t.A[i]) * (kSub / 2) + int64_t(t.B[i]) * sy0 + t.C[i];
        const int64_t stepB = int64_t(t.B[i]) * kSub;
        Bound& e = bound[i];
        e.b = b, e.stepB = stepB;
        if (a == 0) {
            e.kind = 2;
            continue;
        }
        e.kind = a > 0 ? 0 : 1;
        e.d = a > 0 ? a : -a;
        const int64_t n = a > 0 ? -b + a - 1 : b, stepN = a > 0 ? -stepB : stepB;  // ceil(-b / a) = floor((-b + a - 1) / a)
        e.q = floorDiv(n, e.d), e.r = n - e.q * e.d;
        e.stepQ = floorDiv(stepN, e.d), e.stepR = stepN - e.stepQ * e.d;
    }
    for (int py = y0; py <= y1; ++py) {
        int64_t lo = x0, hi = x1;
        for (Bound& e : bound) {
            if (e.kind == 0)
                lo = std::max(lo, e.q);
            else if (e.kind == 1)
                hi = std::min(hi, e.q);
            else if (e.b < 0)
                hi = lo - 1;
            // The next row.
            e.b += e.stepB;
            if (e.kind != 2) {
                e.q += e.stepQ, e.r += e.stepR;
                if (e.r >= e.d) e.r -= e.d, ++e.q;
            }
        }
        if (lo <= hi) f(py, int(lo), int(hi), t.invW.b * float(py - t.y0));
    }
}

inline float spanDepth(const RasterTri& t, int px, float zRow) { return (t.invW.c + t.invW.a * float(px - t.x0)) + zRow; }

// Calls f(px, py, invW) for every pixel of the rectangle [x0, x1] x [y0, y1] whose centre the triangle covers,
// row by row: rasterTile's coverage rule and depth value, without its depth test (passes that blend).
template <typename F>
void forEachCoveredPixel(const RasterTri& t, int x0, int y0, int x1, int y1, F&& f) {
    forEachCoveredSpan(t, x0, y0, x1, y1, [&](int py, int lo, int hi, float zRow) {
        for (int px = lo; px <= hi; ++px) f(px, py, spanDepth(t, px, zRow));
    });
}

// Pixel rectangle of tile `tile` (row-major over tilesX x tilesY) of an image width x height.
struct TileRect {
    int x = 0, y = 0, w = 0, h = 0;
};
TileRect tileRect(const Bins& bins, size_t tile, int width, int height);

// Rasterizes the listed triangles into a tile-local visibility buffer of w x h pixels whose top-left pixel
// is (tileX, tileY); depth/id are row-major with stride w and must be initialised by the caller (depth 0,
// id kNoTriangle). Depth test: nearer wins and equal depth goes to the lower id, so the result does not
// depend on the order triangles are listed in (ids must be < 2^31). writeCount, when
// given, counts the pixels each triangle's coverage test accepts (ignoring the per-pixel depth test; blocks
// skipped by the hierarchical depth test are not visited): a test hook. `cutouts`: see CutoutTest.
// Cut-out (alpha-tested) triangles, which cover a pixel only where the caller's test keeps it: keep() sets
// keep[k] for the n <= 64 pixels (px[k], py[k]) of triangle tri whose depth test passes at 1/w z[k].
struct CutoutTest {
    const uint8_t* isCutout = nullptr;  // one flag per triangle
    void (*keep)(const void* context, uint32_t tri, const int32_t* px, const int32_t* py, const float* z, int n,
                 uint8_t* keep) = nullptr;
    const void* context = nullptr;
};
void rasterTile(const RasterTri* tris, const uint32_t* ids, size_t count, int tileX, int tileY, int w, int h,
                float* depth, uint32_t* id, uint16_t* writeCount = nullptr, const CutoutTest* cutouts = nullptr);

inline float evalPlane(const AttrPlane& p, int x0, int y0, int px, int py) {
    return p.c + p.a * float(px - x0) + p.b * float(py - y0);
}

}  // namespace luxel::raster
