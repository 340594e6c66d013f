// Quake 3 lightmaps written back as external images (bsp/write_lightmaps.hpp): a -external -deluxe map's
// baked pages land in OUT/lm_NNNN.tga beside OUT.bsp, light and direction pages interleaved as q3map2 numbers
// them; decoding OUT.bsp gives the baked pages within byte quantisation and the map file is unchanged.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "luxel/bake/direct_light.hpp"
#include "luxel/bsp/decode.hpp"
#include "luxel/bsp/write_lightmaps.hpp"
#include "luxel/image/image.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/light/luxels.hpp"
#include "luxel/util/error.hpp"
#include "support/point_arrival.hpp"
#include "support/q3_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;

namespace {

std::string lmName(size_t i) {
    char name[32];
    std::snprintf(name, sizeof name, "lm_%04zu.tga", i);
    return name;
}

// A -external -deluxe room written to `dir`: room.bsp with an empty lightmaps lump and room/lm_NNNN.tga,
// the walls' light pages on even numbers and their direction pages after them.
std::string writeExternalRoom(const std::string& dir) {
    RoomOptions o;
    o.direction = [](int wall, int, int) { return std::array<uint8_t, 3>{uint8_t(100 + wall), 128, 255}; };
    Q3MapBuilder b = makeRoomMap(o);
    fs::create_directories(dir + "/room");
    for (size_t i = 0; i < b.lightmaps.size(); ++i) {
        Image img(128, 128, 3);
        for (size_t k = 0; k < img.pixels.size(); ++k) img.pixels[k] = float(b.lightmaps[i][k]) / 255.0f;
        writeImage(dir + "/room/" + lmName(i), img);
    }
    b.lightmaps.clear();
    const std::string map = dir + "/room.bsp";
    writeFile(map, b.build());
    return map;
}

}  // namespace

TEST_CASE("external lightmaps: baked pages written as OUT/lm_NNNN.tga decode back, the map file unchanged", "[bake]") {
    const std::string dir = tempDir("write-external-lightmaps");
    const std::string in = writeExternalRoom(dir);
    const MapSource src = openMapPath(in);
    const World world = decodeMap(src);
    // Pages up to the last one a face uses (10): the last direction page, lm_0011.tga, has no slot of its own.
    REQUIRE(world.lightmaps.size() == 11);
    REQUIRE(world.deluxemaps.size() == 11);
    CHECK(world.lightmaps[0].width == 128);
    CHECK(world.lightmaps[1].width == 0);  // lm_0001.tga is wall 0's direction page
    const Geometry geometry = tessellate(world);
    const RayScene scene(world, geometry);
    Light light;
    light.origin = {30, 20, 128};
    light.intensity = 40000;  // at most 40000 / 128^2 = 2.44 on a wall: below the 4.0 a byte holds
    light.color = {1, 0.75f, 0.5f};
    DirectBakeStats stats;
    const LightmapSet set = bakeLightmapsDirect(world, geometry, scene, {light}, DirectBakeRules{pointArrivals, {}, false, {}, {}}, stats);

    const LightmapFiles files = writeLightmaps(src, world, set);
    CHECK(files.map == src.bytes);  // the lightmaps are not in the file: every byte kept
    REQUIRE(files.images.size() == 12);
    for (size_t i = 0; i < 12; ++i) CHECK(files.images[i].first == lmName(i));
    const std::string out = dir + "/out/baked.bsp";
    fs::create_directories(dir + "/out");
    writeFileAtomic(out, files.map);
    writeExternalLightmaps(out, files);
    for (size_t i = 0; i < 12; ++i) CHECK(fs::exists(dir + "/out/baked/" + lmName(i)));

    const World back = decodeMap(openMapPath(out));
    REQUIRE(back.lightmaps.size() == 11);
    REQUIRE(back.deluxemaps.size() == 11);
    size_t checked = 0;
    for (size_t p = 0; p < 11; p += 2) {
        const LightmapPage &baked = set.slots[0][p], &decoded = back.lightmaps[p];
        REQUIRE(decoded.width == 128);
        // Light: bytes of linear * 255 / 4, rounded: within half a byte step (2/255).
        for (size_t i = 0; i < baked.rgb.size(); ++i) REQUIRE(std::abs(decoded.rgb[i] - baked.rgb[i]) <= 2.0f / 255 + 1e-5f);
        // Directions: truncated (d + 1) * 127.5, at most 2/255 below.
        const LightmapPage &dir0 = set.deluxe[p], &dir1 = back.deluxemaps[p];
        for (size_t i = 0; i < dir0.rgb.size(); ++i) {
            REQUIRE(dir1.rgb[i] <= dir0.rgb[i] + 1e-5f);
            REQUIRE(dir1.rgb[i] >= dir0.rgb[i] - 2.0f / 255 - 1e-5f);
        }
        checked += baked.rgb.size();
    }
    CHECK(checked == 6 * 128 * 128 * 3);
    // The bake is lit: not a round trip of black pages.
    CHECK(set.slots[0][0].rgb[(64 * 128 + 64) * 3] > 0.1f);

    // A set laid out unlike the map's is refused.
    LightmapSet wrong = set;
    wrong.slots[0][2].width = 64;
    CHECK_THROWS_AS(writeLightmaps(src, world, wrong), UsageError);
}
