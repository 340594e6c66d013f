// Grid slices of a light grid change (writeGridSlices): one picture per level, each point a square in the
// heat colours of the lightmap heatmaps, hand-computed for a small grid.
#include <catch2/catch.hpp>

#include <filesystem>

#include "luxel/diff/heatmap.hpp"
#include "luxel/image/image.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;

namespace {

constexpr int kNx = 4, kNy = 3, kNz = 2;

size_t at(int x, int y, int z) { return size_t(x) + size_t(kNx) * (size_t(y) + size_t(kNy) * size_t(z)); }

// A 4 x 3 x 2 grid, every point ambient 0.2 + directed 0.2 (linear; display 0.4 with the default look: no
// clamp, gamma 1), except point (0, 0, 0) inside a wall (all zero).
World gridWorld() {
    World w;
    LightGrid g;
    g.origin = {0, 0, 0};
    g.cellSize = {64, 64, 128};
    g.dims = {kNx, kNy, kNz};
    g.samples.assign(size_t(kNx * kNy * kNz), GridSample{{0.2f, 0.2f, 0.2f}, {0.2f, 0.2f, 0.2f}, {0, 0, 1}});
    g.samples[at(0, 0, 0)] = GridSample{};
    w.grid = g;
    return w;
}

// The pixel at the middle of grid point (x, y)'s square: 16 pixels a point (512 / 4 clamped to 16), +Y up.
Vec3 cellPixel(const Image& img, int x, int y) {
    const float* p = img.at(x * 16 + 8, (kNy - 1 - y) * 16 + 8);
    return {p[0], p[1], p[2]};
}

void checkColor(Vec3 got, Vec3 want) {
    CHECK(got.x == Approx(want.x).margin(1.0 / 255));
    CHECK(got.y == Approx(want.y).margin(1.0 / 255));
    CHECK(got.z == Approx(want.z).margin(1.0 / 255));
}

}  // namespace

TEST_CASE("grid slices: one picture per level; the changed point warm or cool, the rest grey, walls black", "[heatmap]") {
    const World a = gridWorld();
    World b = gridWorld();
    b.grid->samples[at(2, 1, 1)].ambient = {0.3f, 0.3f, 0.3f};   // +0.1: the largest change, full warm
    b.grid->samples[at(3, 2, 0)].directed = {0.15f, 0.15f, 0.15f};  // -0.05: half way to cool
    const std::string dir = tempDir("grid_slices");
    const std::vector<std::string> files = writeGridSlices(a, b, dir);
    REQUIRE(files.size() == 2);
    CHECK(files[0] == dir + "/grid/z_000.png");
    CHECK(files[1] == dir + "/grid/z_001.png");

    const Image z0 = readImage(files[0]), z1 = readImage(files[1]);
    REQUIRE(z0.width == 300);               // 4 * 16 = 64, widened for the legend
    REQUIRE(z0.height == kNy * 16 + 68);    // the squares and the legend band
    const Vec3 grey{0.2f, 0.2f, 0.2f};      // half of A's display 0.4
    // Warm (1, 0.35, 0) at full scale; cool (0, 0.55, 1) at half: grey + (cool - grey) / 2.
    checkColor(cellPixel(z1, 2, 1), {1.0f, 0.35f, 0.0f});
    checkColor(cellPixel(z0, 3, 2), {0.1f, 0.375f, 0.6f});
    checkColor(cellPixel(z0, 0, 0), {0, 0, 0});
    for (int y = 0; y < kNy; ++y)
        for (int x = 0; x < kNx; ++x) {
            if (!(x == 2 && y == 1)) checkColor(cellPixel(z1, x, y), grey);
            if (!(x == 3 && y == 2) && !(x == 0 && y == 0)) checkColor(cellPixel(z0, x, y), grey);
        }

    SECTION("an explicit scale: the +0.1 change at scale 0.2 is half way to warm") {
        HeatmapOptions o;
        o.scale = 0.2;
        const Image half = readImage(writeGridSlices(a, b, dir, o)[1]);
        checkColor(cellPixel(half, 2, 1), {0.6f, 0.275f, 0.1f});
    }
    SECTION("no grid in either build: nothing written") {
        CHECK(writeGridSlices(World{}, b, dir + "/none").empty());
        CHECK_FALSE(fs::exists(dir + "/none"));
    }
}
