// Binning: which triangles each tile lists, and in what order (raster::binTriangles).
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "luxel/render/raster.hpp"

using namespace luxel;
using namespace luxel::raster;

TEST_CASE("binning: tiles list triangles nearest first, equal depths by id, excluded ones left out", "[raster]") {
    // Every triangle spans the whole 256 x 128 frame, so every tile lists all those kept; depths repeat (ties
    // go by id) and include negative and zero values, as the sort's integer keys must order them as floats do.
    std::mt19937 rng(17);
    const float depths[] = {0.5f, 0.25f, 1.0f, 0.0f, -0.125f, 3.0f, 1e-20f, 0.5f};
    std::vector<RasterTri> tris(500);
    std::vector<uint8_t> exclude(tris.size(), 0);
    for (size_t i = 0; i < tris.size(); ++i) {
        tris[i].x0 = 0, tris[i].y0 = 0, tris[i].x1 = 255, tris[i].y1 = 127;
        tris[i].zNear = depths[rng() % 8] * (rng() % 4 == 0 ? 1.0f : float(rng() % 1000) / 500.0f);
        exclude[i] = rng() % 5 == 0;
    }
    std::vector<uint32_t> expected;
    for (uint32_t i = 0; i < tris.size(); ++i)
        if (!exclude[i]) expected.push_back(i);
    std::stable_sort(expected.begin(), expected.end(), [&](uint32_t a, uint32_t b) { return tris[a].zNear > tris[b].zNear; });
    const Bins bins = binTriangles(tris, 256, 128, 0, &exclude);
    REQUIRE(bins.tilesX * bins.tilesY > 1);
    for (int tile = 0; tile < bins.tilesX * bins.tilesY; ++tile) {
        INFO("tile " << tile);
        const std::vector<uint32_t> listed(bins.ids.begin() + bins.offsets[size_t(tile)],
                                           bins.ids.begin() + bins.offsets[size_t(tile) + 1]);
        CHECK(listed == expected);
    }
    // A frame under 128 x 128 pixels (the camera searches' scoring renders) keeps the ids' order (ranges inside
    // the frame, as set-up leaves them).
    for (RasterTri& t : tris) t.x1 = 63, t.y1 = 35;
    const Bins small = binTriangles(tris, 64, 36, 0, &exclude);
    std::vector<uint32_t> byId;
    for (uint32_t i = 0; i < tris.size(); ++i)
        if (!exclude[i]) byId.push_back(i);
    CHECK(std::vector<uint32_t>(small.ids.begin() + small.offsets[0], small.ids.begin() + small.offsets[1]) == byId);
}
