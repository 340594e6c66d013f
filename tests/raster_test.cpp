#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "luxel/util/cpu.hpp"
#include "luxel/render/raster.hpp"

using namespace luxel;
using namespace luxel::raster;

namespace {

constexpr int kW = 128, kH = 96;  // two tiles across both ways, partial last row of tiles

// Clip-space vertex that lands exactly on screen point (sx, sy) with depth w (power-of-two sizes keep
// the round trip exact for 1/16-pixel positions).
ClipVertex onScreen(double sx, double sy, float w = 1.0f) {
    ClipVertex c;
    c.x = float((sx / kW * 2.0 - 1.0) * w);
    c.y = float((1.0 - sy / kH * 2.0) * w);
    c.w = w;
    return c;
}

struct Frame {
    std::vector<float> depth;
    std::vector<uint32_t> id;
    std::vector<uint16_t> writes;
};

// Rasterizes every tile of a kW x kH frame (tile grid moved left by shiftX pixels) into one frame.
Frame rasterAll(const std::vector<RasterTri>& tris, int shiftX = 0, const CutoutTest* cutouts = nullptr) {
    Frame f;
    f.depth.assign(size_t(kW) * kH, 0.0f);
    f.id.assign(size_t(kW) * kH, kNoTriangle);
    f.writes.assign(size_t(kW) * kH, 0);
    Bins bins = binTriangles(tris, kW, kH, shiftX);
    for (size_t t = 0; t < size_t(bins.tilesX) * size_t(bins.tilesY); ++t) {
        const TileRect r = tileRect(bins, t, kW, kH);
        const int x = r.x, y = r.y, w = r.w, h = r.h;
        std::vector<float> d(size_t(w) * h, 0.0f);
        std::vector<uint32_t> id(size_t(w) * h, kNoTriangle);
        std::vector<uint16_t> wc(size_t(w) * h, 0);
        rasterTile(tris.data(), bins.ids.data() + bins.offsets[t], bins.offsets[t + 1] - bins.offsets[t], x, y, w, h,
                   d.data(), id.data(), wc.data(), cutouts);
        for (int j = 0; j < h; ++j)
            for (int i = 0; i < w; ++i) {
                size_t o = size_t(y + j) * kW + size_t(x + i);
                f.depth[o] = d[size_t(j) * w + i];
                f.id[o] = id[size_t(j) * w + i];
                f.writes[o] = wc[size_t(j) * w + i];
            }
    }
    return f;
}

ScreenSetup screen() {
    ScreenSetup s;
    s.width = kW;
    s.height = kH;
    s.nearW = 0.01f;
    return s;
}

// Exact side test on the 1/16 grid: sign of the cross product (b - a) x (p - a) in 1/256 pixel^2 units.
int64_t side(double ax, double ay, double bx, double by, double px, double py) {
    auto q = [](double v) { return int64_t(std::llround(v * 16)); };
    return (q(bx) - q(ax)) * (q(py) - q(ay)) - (q(by) - q(ay)) * (q(px) - q(ax));
}

// Random position on the 1/16 pixel grid inside [lo, hi).
double gridRand(std::mt19937& rng, double lo, double hi) {
    std::uniform_int_distribution<int> d(int(lo * 16), int(hi * 16) - 1);
    return d(rng) / 16.0;
}

}  // namespace

TEST_CASE("fill rule: an axis-aligned square through pixel centres covers exactly its top-left-owned pixels",
          "[raster]") {
    // Corners on pixel centres: the top and left edges own their centres, bottom and right do not, and the
    // diagonal shared by the two triangles passes through centres (2.5,2.5)...(12.5,12.5).
    std::vector<RasterTri> tris;
    std::vector<ShadeTri> shade;
    ClipVertex a = onScreen(2.5, 2.5), b = onScreen(12.5, 2.5), c = onScreen(12.5, 12.5), d = onScreen(2.5, 12.5);
    ClipVertex t0[3] = {a, b, c}, t1[3] = {a, c, d};
    REQUIRE(setupTriangle(t0, 0, screen(), tris, shade) == 1);
    REQUIRE(setupTriangle(t1, 1, screen(), tris, shade) == 1);
    Frame f = rasterAll(tris);
    for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x) {
            int expected = (x >= 2 && x <= 11 && y >= 2 && y <= 11) ? 1 : 0;
            INFO("pixel " << x << "," << y);
            REQUIRE(int(f.writes[size_t(y) * kW + x]) == expected);
        }
}

TEST_CASE("fill rule: random quads split in two cover each inside pixel exactly once", "[raster]") {
    std::mt19937 rng(1234);
    for (int iter = 0; iter < 200; ++iter) {
        // A convex quad: four points at random angles around a centre, on the 1/16 grid.
        double cx = gridRand(rng, 30, 90), cy = gridRand(rng, 30, 60);
        double ang[4];
        for (double& g : ang) g = std::uniform_real_distribution<double>(0, 2 * M_PI)(rng);
        std::sort(ang, ang + 4);
        double px[4], py[4];
        for (int i = 0; i < 4; ++i) {
            double r = std::uniform_real_distribution<double>(5, 28)(rng);
            px[i] = std::round((cx + r * std::cos(ang[i])) * 16) / 16;
            py[i] = std::round((cy + r * std::sin(ang[i])) * 16) / 16;
        }
        // Skip the rare non-convex / degenerate draw: the expectation below assumes a convex quad.
        bool convex = true;
        int64_t s0 = side(px[0], py[0], px[1], py[1], px[2], py[2]);
        for (int i = 0; i < 4 && convex; ++i) {
            int64_t s = side(px[i], py[i], px[(i + 1) % 4], py[(i + 1) % 4], px[(i + 2) % 4], py[(i + 2) % 4]);
            convex = s != 0 && ((s > 0) == (s0 > 0));
        }
        if (!convex) continue;

        std::vector<RasterTri> tris;
        std::vector<ShadeTri> shade;
        ClipVertex v[4];
        for (int i = 0; i < 4; ++i) v[i] = onScreen(px[i], py[i]);
        // Second triangle wound the other way on purpose: setup must accept either winding.
        ClipVertex t0[3] = {v[0], v[1], v[2]}, t1[3] = {v[0], v[3], v[2]};
        setupTriangle(t0, 0, screen(), tris, shade);
        setupTriangle(t1, 1, screen(), tris, shade);
        Frame f = rasterAll(tris);
        for (int y = 0; y < kH; ++y)
            for (int x = 0; x < kW; ++x) {
                double sx = x + 0.5, sy = y + 0.5;
                bool in = true, out = false;
                for (int i = 0; i < 4; ++i) {
                    int64_t s = side(px[i], py[i], px[(i + 1) % 4], py[(i + 1) % 4], sx, sy);
                    if (s0 > 0 ? s <= 0 : s >= 0) in = false;
                    if (s0 > 0 ? s < 0 : s > 0) out = true;
                }
                int wc = f.writes[size_t(y) * kW + x];
                INFO("iteration " << iter << " pixel " << x << "," << y);
                REQUIRE(wc <= 1);  // never drawn twice, on the shared diagonal included
                if (in) REQUIRE(wc == 1);
                if (out) REQUIRE(wc == 0);
            }
    }
}

TEST_CASE("forEachCoveredPixel visits exactly the pixels and depths rasterTile writes, for any rectangle", "[raster]") {
    std::mt19937 rng(77);
    for (int iter = 0; iter < 300; ++iter) {
        // Random triangles, thin and large, partly off screen, with varying depths.
        ClipVertex v[3];
        for (ClipVertex& c : v)
            c = onScreen(gridRand(rng, -40, kW + 40), gridRand(rng, -40, kH + 40),
                         std::uniform_real_distribution<float>(1, 8)(rng));
        std::vector<RasterTri> tris;
        std::vector<ShadeTri> shade;
        setupTriangle(v, 0, screen(), tris, shade);
        const Frame f = rasterAll(tris);
        // One pass over the whole frame, one over a random sub-rectangle.
        const int rx0 = int(rng() % kW), ry0 = int(rng() % kH);
        const int rx1 = rx0 + int(rng() % unsigned(kW - rx0)), ry1 = ry0 + int(rng() % unsigned(kH - ry0));
        for (int pass = 0; pass < 2; ++pass) {
            const int x0 = pass ? rx0 : 0, y0 = pass ? ry0 : 0, x1 = pass ? rx1 : kW - 1, y1 = pass ? ry1 : kH - 1;
            std::vector<int> seen(size_t(kW) * kH, 0);
            for (const RasterTri& t : tris)  // a clipped triangle may come in pieces; they do not overlap
                forEachCoveredPixel(t, x0, y0, x1, y1, [&](int px, int py, float z) {
                    const size_t at = size_t(py) * kW + size_t(px);
                    ++seen[at];
                    CHECK(z == f.depth[at]);
                });
            for (int y = 0; y < kH; ++y)
                for (int x = 0; x < kW; ++x) {
                    const bool inRect = x >= x0 && x <= x1 && y >= y0 && y <= y1;
                    const int want = inRect && f.id[size_t(y) * kW + size_t(x)] != kNoTriangle ? 1 : 0;
                    INFO("iteration " << iter << " pass " << pass << " pixel " << x << "," << y);
                    REQUIRE(seen[size_t(y) * kW + size_t(x)] == want);
                }
        }
    }
}

TEST_CASE("fill rule: a fan of many thin triangles around a sub-pixel point has no gaps or overlaps", "[raster]") {
    std::mt19937 rng(99);
    for (int iter = 0; iter < 20; ++iter) {
        const int n = 40;
        double cx = gridRand(rng, 50, 70), cy = gridRand(rng, 40, 50);
        std::vector<double> px(n), py(n);
        for (int i = 0; i < n; ++i) {
            double a = 2 * M_PI * i / n, r = 35;
            px[i] = std::round((cx + r * std::cos(a)) * 16) / 16;
            py[i] = std::round((cy + r * std::sin(a)) * 16) / 16;
        }
        std::vector<RasterTri> tris;
        std::vector<ShadeTri> shade;
        for (int i = 0; i < n; ++i) {
            ClipVertex t[3] = {onScreen(cx, cy), onScreen(px[i], py[i]), onScreen(px[(i + 1) % n], py[(i + 1) % n])};
            setupTriangle(t, uint32_t(i), screen(), tris, shade);
        }
        Frame f = rasterAll(tris);
        for (int y = 0; y < kH; ++y)
            for (int x = 0; x < kW; ++x) {
                double sx = x + 0.5, sy = y + 0.5;
                bool in = true, out = false;
                for (int i = 0; i < n; ++i) {
                    // The outline runs counter-clockwise in y-down screen terms: inside is s > 0.
                    int64_t s = side(px[i], py[i], px[(i + 1) % n], py[(i + 1) % n], sx, sy);
                    if (s <= 0) in = false;
                    if (s < 0) out = true;
                }
                int wc = f.writes[size_t(y) * kW + x];
                INFO("iteration " << iter << " pixel " << x << "," << y);
                REQUIRE(wc <= 1);
                if (in) REQUIRE(wc == 1);
                if (out) REQUIRE(wc == 0);
            }
    }
}

TEST_CASE("depth test: the nearer triangle wins in either submission order", "[raster]") {
    for (int order = 0; order < 2; ++order) {
        std::vector<RasterTri> tris;
        std::vector<ShadeTri> shade;
        ClipVertex nearT[3] = {onScreen(10, 10, 2), onScreen(60, 10, 2), onScreen(10, 60, 2)};
        ClipVertex farT[3] = {onScreen(5, 5, 8), onScreen(70, 5, 8), onScreen(5, 70, 8)};
        if (order == 0) {
            setupTriangle(nearT, 7, screen(), tris, shade);
            setupTriangle(farT, 9, screen(), tris, shade);
        } else {
            setupTriangle(farT, 9, screen(), tris, shade);
            setupTriangle(nearT, 7, screen(), tris, shade);
        }
        Frame f = rasterAll(tris);
        size_t nearId = order == 0 ? 0 : 1, farId = order == 0 ? 1 : 0;
        REQUIRE(f.id[size_t(20) * kW + 20] == nearId);
        REQUIRE(f.depth[size_t(20) * kW + 20] == Approx(0.5f).epsilon(1e-5));  // 1/w
        REQUIRE(f.id[size_t(6) * kW + 6] == farId);                           // only the far one there
        REQUIRE(shade[nearId].source == 7);
    }
}

TEST_CASE("perspective-correct barycentric planes reproduce the original triangle's barycentrics", "[raster]") {
    // Vertices at different depths; the barycentrics at a pixel must be those of the 3D point it sees.
    ClipVertex t[3] = {onScreen(8, 8, 1), onScreen(100, 20, 4), onScreen(30, 90, 10)};
    t[1].b1 = 1;
    t[2].b2 = 1;
    std::vector<RasterTri> tris;
    std::vector<ShadeTri> shade;
    REQUIRE(setupTriangle(t, 0, screen(), tris, shade) == 1);
    Frame f = rasterAll(tris);
    int checked = 0;
    for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x) {
            size_t o = size_t(y) * kW + x;
            if (f.id[o] == kNoTriangle) continue;
            float invW = f.depth[o];
            double b1 = evalPlane(shade[0].b1W, shade[0].x0, shade[0].y0, x, y) / invW;
            double b2 = evalPlane(shade[0].b2W, shade[0].x0, shade[0].y0, x, y) / invW;
            // Independent: solve for the view-space point on the triangle seen through the pixel centre.
            // Screen -> clip: X = ndcX * w; a point with barycentrics (b0,b1,b2) has clip = sum b_i clip_i.
            double ndcX = (x + 0.5) / kW * 2 - 1, ndcY = 1 - (y + 0.5) / kH * 2;
            // Unknowns b1, b2: (sum b_i x_i) - ndcX (sum b_i w_i) = 0, same for y.
            double a11 = (t[1].x - ndcX * t[1].w) - (t[0].x - ndcX * t[0].w);
            double a12 = (t[2].x - ndcX * t[2].w) - (t[0].x - ndcX * t[0].w);
            double r1 = -(t[0].x - ndcX * t[0].w);
            double a21 = (t[1].y - ndcY * t[1].w) - (t[0].y - ndcY * t[0].w);
            double a22 = (t[2].y - ndcY * t[2].w) - (t[0].y - ndcY * t[0].w);
            double r2 = -(t[0].y - ndcY * t[0].w);
            double det = a11 * a22 - a12 * a21;
            double e1 = (r1 * a22 - a12 * r2) / det, e2 = (a11 * r2 - r1 * a21) / det;
            REQUIRE(b1 == Approx(e1).margin(2e-3));
            REQUIRE(b2 == Approx(e2).margin(2e-3));
            double ew = t[0].w * (1 - e1 - e2) + t[1].w * e1 + t[2].w * e2;
            REQUIRE(1.0 / invW == Approx(ew).epsilon(2e-3));
            ++checked;
        }
    REQUIRE(checked > 1000);
}

TEST_CASE("near-plane clipping: a triangle through the camera plane stays finite and inside the picture",
          "[raster]") {
    // One vertex behind the eye (w < 0), two in front; w spans the near plane.
    ClipVertex t[3];
    t[0] = {-0.5f, -0.5f, 2.0f, 0, 0};
    t[1] = {0.5f, -0.5f, 2.0f, 1, 0};
    t[2] = {0.0f, 3.0f, -1.0f, 0, 1};
    std::vector<RasterTri> tris;
    std::vector<ShadeTri> shade;
    REQUIRE(setupTriangle(t, 0, screen(), tris, shade) >= 1);
    for (const RasterTri& r : tris) {
        REQUIRE(r.x0 >= 0);
        REQUIRE(r.x1 < kW);
        REQUIRE(r.y0 >= 0);
        REQUIRE(r.y1 < kH);
        REQUIRE(std::isfinite(r.invW.a));
        REQUIRE(std::isfinite(r.invW.c));
    }
    Frame f = rasterAll(tris);
    size_t covered = 0;
    for (size_t i = 0; i < f.id.size(); ++i)
        if (f.id[i] != kNoTriangle) {
            ++covered;
            REQUIRE(std::isfinite(f.depth[i]));
            REQUIRE(f.depth[i] > 0);
            REQUIRE(f.depth[i] <= 1.0f / 0.01f * 1.001f);  // never nearer than the near plane
        }
    REQUIRE(covered > 0);
    REQUIRE(f.writes[size_t(kW / 2)] == 1);  // the part near the eye reaches the top edge
}

TEST_CASE("setup rejects degenerate, off-screen and non-finite triangles", "[raster]") {
    std::vector<RasterTri> tris;
    std::vector<ShadeTri> shade;
    ClipVertex line[3] = {onScreen(1, 1), onScreen(50, 50), onScreen(25, 25)};
    REQUIRE(setupTriangle(line, 0, screen(), tris, shade) == 0);
    ClipVertex behind[3] = {{0, 0, -1, 0, 0}, {1, 0, -2, 1, 0}, {0, 1, -3, 0, 1}};
    REQUIRE(setupTriangle(behind, 0, screen(), tris, shade) == 0);
    ClipVertex nan[3] = {onScreen(1, 1), onScreen(50, 1), onScreen(1, 50)};
    nan[1].x = std::nanf("");
    REQUIRE(setupTriangle(nan, 0, screen(), tris, shade) == 0);
    // Smaller than a pixel and between pixel centres: covers nothing.
    ClipVertex tiny[3] = {onScreen(10.6, 10.6), onScreen(10.9, 10.6), onScreen(10.6, 10.9)};
    REQUIRE(setupTriangle(tiny, 0, screen(), tris, shade) == 0);
    REQUIRE(tris.empty());
}

TEST_CASE("guard band: a huge triangle is clipped so edge values stay exact", "[raster]") {
    // Covers the whole screen from far outside; every pixel must be covered exactly once.
    ClipVertex t[3] = {{-1e6f, -1e6f, 1, 0, 0}, {1e6f, -1e6f, 1, 1, 0}, {0, 1e6f, 1, 0, 1}};
    std::vector<RasterTri> tris;
    std::vector<ShadeTri> shade;
    REQUIRE(setupTriangle(t, 0, screen(), tris, shade) >= 1);
    Frame f = rasterAll(tris);
    for (size_t i = 0; i < f.writes.size(); ++i) REQUIRE(f.writes[i] == 1);
}

namespace {

// `count` random triangles around centres up to `margin` pixels outside the frame, of radius
// [minSize, maxSize], at depths 0.5..20; every `behindEvery`-th (0: none) has a vertex behind the camera
// (clipped), every `tieEvery`-th is set up twice (the same triangle again: depth ties).
std::vector<RasterTri> randomTriangles(std::mt19937& rng, uint32_t count, double margin, double minSize, double maxSize,
                                       uint32_t behindEvery, uint32_t tieEvery) {
    std::uniform_real_distribution<double> pos(-margin, kW + margin), size(minSize, maxSize), depth(0.5, 20);
    std::vector<RasterTri> tris;
    std::vector<ShadeTri> shade;
    for (uint32_t i = 0; i < count; ++i) {
        const double cx = pos(rng), cy = pos(rng) * kH / kW, r = size(rng);
        ClipVertex v[3];
        for (int k = 0; k < 3; ++k) {
            const double a = std::uniform_real_distribution<double>(0, 6.283)(rng);
            v[k] = onScreen(cx + r * std::cos(a), cy + r * std::sin(a), float(depth(rng)));
        }
        if (behindEvery && i % behindEvery == 0) v[0].w = -1.0f;
        setupTriangle(v, i, screen(), tris, shade);
        if (tieEvery && i % tieEvery == 0) setupTriangle(v, i, screen(), tris, shade);
    }
    return tris;
}

}  // namespace

TEST_CASE("raster: AVX2 and portable loops and any tile grid give the same visibility buffer", "[raster]") {
    // (writeCount is not compared: which blocks hierarchical depth skips may differ.)
    // Overlapping random triangles of all sizes, at random depths, some exactly coplanar duplicates (depth
    // ties go to the lower id), some crossing the near plane or the frame edges.
    std::mt19937 rng(99);
    std::vector<RasterTri> tris = randomTriangles(rng, 400, 40, 0.5, 90, 17, 5);
    REQUIRE(tris.size() > 250);
    const bool hadAvx2 = useAvx2();
    const Frame ref = rasterAll(tris);
    allowAvx2(false);
    const Frame portable = rasterAll(tris), portableShifted = rasterAll(tris, 13);
    allowAvx2(true);
    const Frame shifted = rasterAll(tris, 5), shifted31 = rasterAll(tris, 31);
    INFO("AVX2 available: " << hadAvx2);
    size_t covered = 0;
    for (const Frame* f : {&portable, &portableShifted, &shifted, &shifted31}) {
        REQUIRE(f->id == ref.id);
        REQUIRE(std::memcmp(f->depth.data(), ref.depth.data(), ref.depth.size() * sizeof(float)) == 0);
    }
    for (uint32_t i : ref.id) covered += i != kNoTriangle;
    REQUIRE(covered > size_t(kW) * kH / 2);
    // Tiles of a shifted grid partition the frame.
    Bins bins = binTriangles(tris, kW, kH, 13);
    size_t area = 0;
    for (size_t t = 0; t < size_t(bins.tilesX) * size_t(bins.tilesY); ++t) {
        const TileRect r = tileRect(bins, t, kW, kH);
        REQUIRE(r.w >= 1);
        REQUIRE(r.w <= kTileSize);
        area += size_t(r.w) * size_t(r.h);
    }
    REQUIRE(area == size_t(kW) * kH);
    REQUIRE(tileRect(bins, 0, kW, kH).w == kTileSize - 13);
}

namespace {

// A cut-out test with a known answer: triangle t keeps pixel (x, y) unless (x * 7 + y * 3 + t) % 4 == 0.
bool keeps(uint32_t tri, int32_t x, int32_t y) { return (x * 7 + y * 3 + int32_t(tri)) % 4 != 0; }
void keepPattern(const void*, uint32_t tri, const int32_t* px, const int32_t* py, const float*, int n, uint8_t* keep) {
    for (int k = 0; k < n; ++k) keep[k] = keeps(tri, px[k], py[k]);
}

}  // namespace

TEST_CASE("raster: cut-out triangles cover only the pixels their test keeps, nearest kept one winning", "[raster]") {
    // Random overlapping triangles, every other one a cut-out. Expected per pixel, by brute force: the
    // nearest of the triangles whose own coverage (rasterized alone) reaches it and, for cut-outs, whose test
    // keeps it; equal depths go to the lower id.
    std::mt19937 rng(5);
    const std::vector<RasterTri> tris = randomTriangles(rng, 120, 20, 2, 70, 0, 6);
    std::vector<uint8_t> isCutout(tris.size());
    for (size_t i = 0; i < tris.size(); ++i) isCutout[i] = i % 2;
    const CutoutTest cut{isCutout.data(), keepPattern, nullptr};

    std::vector<float> wantDepth(size_t(kW) * kH, 0.0f);
    std::vector<uint32_t> wantId(size_t(kW) * kH, kNoTriangle);
    for (uint32_t i = 0; i < uint32_t(tris.size()); ++i) {
        const Frame alone = rasterAll({tris[i]});
        for (int y = 0; y < kH; ++y)
            for (int x = 0; x < kW; ++x) {
                const size_t at = size_t(y) * kW + size_t(x);
                if (alone.id[at] == kNoTriangle || (isCutout[i] && !keeps(i, x, y))) continue;
                const float z = alone.depth[at];
                if (z > wantDepth[at] || (z == wantDepth[at] && i < wantId[at])) wantDepth[at] = z, wantId[at] = i;
            }
    }
    size_t cutoutPixels = 0, dropped = 0;
    for (bool avx2 : {true, false}) {
        allowAvx2(avx2);
        for (int shift : {0, 7}) {
            const Frame f = rasterAll(tris, shift, &cut);
            INFO("avx2 " << avx2 << " shift " << shift);
            REQUIRE(f.id == wantId);
            REQUIRE(std::memcmp(f.depth.data(), wantDepth.data(), wantDepth.size() * sizeof(float)) == 0);
        }
    }
    allowAvx2(true);
    for (size_t at = 0; at < wantId.size(); ++at) cutoutPixels += wantId[at] != kNoTriangle && isCutout[wantId[at]];
    // The test must have something to show: cut-outs win many pixels, and without the test some pixels change.
    const Frame plain = rasterAll(tris);
    for (size_t at = 0; at < wantId.size(); ++at) dropped += plain.id[at] != wantId[at];
    CHECK(cutoutPixels > 1000);
    CHECK(dropped > 500);
}

TEST_CASE("setup: a triangle the caller found inside the frustum comes out as through the clip tests", "[raster]") {
    // Random triangles with every corner inside the frustum (|x|, |y| <= w, w >= near): setting up with the
    // caller's inFrustum skips the guard-band tests; the raster and shading triangles must be the same bits.
    std::mt19937 rng(29);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f), depth(0.01f, 50.0f);
    size_t emitted = 0;
    for (int n = 0; n < 20000; ++n) {
        ClipVertex c[3];
        for (ClipVertex& v : c) {
            v.w = depth(rng);
            v.x = unit(rng) * v.w, v.y = unit(rng) * v.w;
            if (n % 7 == 0) v.x = (n % 2 ? v.w : -v.w);  // on the frustum's sides exactly
            v.b1 = 0, v.b2 = 0;
        }
        c[1].b1 = 1, c[2].b2 = 1;
        std::vector<RasterTri> tested, skipped;
        std::vector<ShadeTri> testedShade, skippedShade;
        const int a = setupTriangle(c, uint32_t(n), screen(), tested, testedShade, false);
        const int b = setupTriangle(c, uint32_t(n), screen(), skipped, skippedShade, true);
        REQUIRE(a == b);
        REQUIRE(tested.size() == skipped.size());
        for (size_t i = 0; i < tested.size(); ++i) {
            REQUIRE(std::memcmp(&tested[i], &skipped[i], sizeof(RasterTri)) == 0);
            REQUIRE(std::memcmp(&testedShade[i], &skippedShade[i], sizeof(ShadeTri)) == 0);
        }
        emitted += tested.size();
    }
    CHECK(emitted > 10000);
}

TEST_CASE("sub-pixel precision at 8K: quads near the far corner of an 8192x4096 frame cover exactly the pixel "
          "centres the exact 1/16-pixel test puts inside, each once",
          "[raster]") {
    // Far from the origin the snapped coordinates need 17 bits and the edge products over 34: any loss of
    // precision there moves a centre across an edge. Power-of-two sizes keep the clip-space round trip exact.
    constexpr int W = 8192, H = 4096;
    auto at = [](double sx, double sy) {
        ClipVertex c;
        c.x = float(sx / W * 2.0 - 1.0), c.y = float(1.0 - sy / H * 2.0), c.w = 1.0f;
        return c;
    };
    ScreenSetup setup;
    setup.width = W, setup.height = H, setup.nearW = 0.01f;
    // Both raster paths (the portable loop, and AVX2 where the CPU has it).
    const bool vectorPath = GENERATE(false, true);
    struct Restore {
        ~Restore() { allowAvx2(true); }
    } restore;
    allowAvx2(vectorPath);
    std::mt19937 rng(8192);
    int checked = 0, wrong = 0;
    std::array<int, 4> firstWrong{};
    for (int iter = 0; iter < 60; ++iter) {
        // A thin convex quad (a sliver of 0.5-4 pixels across) near the bottom-right corner, on the 1/16 grid.
        const double x0 = gridRand(rng, 7700, 8100), y0 = gridRand(rng, 3700, 4000);
        const double dx = gridRand(rng, 20, 80), dy = gridRand(rng, -30, 30), thick = gridRand(rng, 0.5, 4);
        const double px[4] = {x0, x0 + dx, x0 + dx + 1.0 / 16, x0};
        const double py[4] = {y0, y0 + dy, y0 + dy + thick, y0 + thick};
        const int64_t s0 = side(px[0], py[0], px[1], py[1], px[2], py[2]);
        bool convex = true;
        for (int i = 0; i < 4 && convex; ++i) {
            const int64_t s = side(px[i], py[i], px[(i + 1) % 4], py[(i + 1) % 4], px[(i + 2) % 4], py[(i + 2) % 4]);
            convex = s != 0 && ((s > 0) == (s0 > 0));
        }
        if (!convex) continue;
        std::vector<RasterTri> tris;
        std::vector<ShadeTri> shade;
        ClipVertex t0[3] = {at(px[0], py[0]), at(px[1], py[1]), at(px[2], py[2])};
        ClipVertex t1[3] = {at(px[0], py[0]), at(px[3], py[3]), at(px[2], py[2])};
        setupTriangle(t0, 0, setup, tris, shade);
        setupTriangle(t1, 1, setup, tris, shade);
        const Bins bins = binTriangles(tris, W, H);
        // Every tile the pieces were binned to, written into a window around the quad.
        const int wx0 = int(x0) - 40, wy0 = int(y0) - 40, ww = 200, wh = 160;
        std::vector<uint16_t> writes(size_t(ww) * wh, 0);
        for (size_t t = 0; t + 1 < bins.offsets.size(); ++t) {
            if (bins.offsets[t] == bins.offsets[t + 1]) continue;
            const TileRect r = tileRect(bins, t, W, H);
            std::vector<float> d(size_t(r.w) * r.h, 0.0f);
            std::vector<uint32_t> id(size_t(r.w) * r.h, kNoTriangle);
            std::vector<uint16_t> wc(size_t(r.w) * r.h, 0);
            rasterTile(tris.data(), bins.ids.data() + bins.offsets[t], bins.offsets[t + 1] - bins.offsets[t], r.x, r.y, r.w,
                       r.h, d.data(), id.data(), wc.data(), nullptr);
            for (int j = 0; j < r.h; ++j)
                for (int i = 0; i < r.w; ++i) {
                    const int x = r.x + i - wx0, y = r.y + j - wy0;
                    const uint16_t n = wc[size_t(j) * r.w + i];
                    if (x < 0 || y < 0 || x >= ww || y >= wh) {
                        wrong += n != 0;  // nothing drawn outside the window around the quad
                        continue;
                    }
                    writes[size_t(y) * ww + x] = n;
                }
        }
        for (int y = 0; y < wh; ++y)
            for (int x = 0; x < ww; ++x) {
                const double sx = wx0 + x + 0.5, sy = wy0 + y + 0.5;
                bool in = true, out = false;
                for (int i = 0; i < 4; ++i) {
                    const int64_t s = side(px[i], py[i], px[(i + 1) % 4], py[(i + 1) % 4], sx, sy);
                    if (s0 > 0 ? s <= 0 : s >= 0) in = false;
                    if (s0 > 0 ? s < 0 : s > 0) out = true;
                }
                const int n = writes[size_t(y) * ww + x];
                // Counted, not a REQUIRE per pixel: millions of assertions are slow under the sanitizers.
                if (n > 1 || (in && n != 1) || (out && n != 0)) {
                    if (wrong++ == 0) firstWrong = {iter, wx0 + x, wy0 + y, n};
                }
                checked += in;
            }
    }
    INFO("vector path " << vectorPath << ": first wrong pixel in iteration " << firstWrong[0] << " at " << firstWrong[1]
                        << "," << firstWrong[2] << " drawn " << firstWrong[3] << " times");
    REQUIRE(wrong == 0);
    REQUIRE(checked > 1000);  // the slivers covered enough centres for the test to mean something
}
