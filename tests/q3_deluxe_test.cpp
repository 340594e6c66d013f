// Quake 3 deluxe maps (q3map2 -deluxe): direction pages interleaved with the light pages, recognised as
// the engines that draw them do, decoded to world-space directions, and compared by `luxel diff`.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "luxel/bsp/decode.hpp"
#include "luxel/diff/diff.hpp"
#include "luxel/geometry/geometry.hpp"
#include "support/decode_helpers.hpp"
#include "support/q3_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

RoomOptions deluxeRoom(std::array<uint8_t, 3> direction) {
    RoomOptions o;
    o.direction = [direction](int, int, int) { return direction; };
    return o;
}

}  // namespace

TEST_CASE("interleaved direction pages become deluxe maps: bytes (d + 1) * 127.5, the odd pages no light",
          "[q3decode][deluxe]") {
    const World w = decodeBytes(makeRoomMap(deluxeRoom({255, 0, 51})).build());
    REQUIRE(w.lightmaps.size() == 12);
    REQUIRE(w.deluxemaps.size() == 12);
    for (int wall = 0; wall < 6; ++wall) {
        INFO("wall " << wall);
        CHECK(w.surfaces[size_t(wall)].lightmapPage == 2 * wall);
        const LightmapPage& dir = w.deluxemaps[size_t(2 * wall)];
        REQUIRE(dir.width == 128);
        REQUIRE(dir.rgb.size() == 128 * 128 * 3);
        // 255 -> +1, 0 -> -1, 51 -> 2 * 51 / 255 - 1 = -0.6 exactly in decimal.
        CHECK(dir.rgb[0] == 1.0f);
        CHECK(dir.rgb[1] == -1.0f);
        CHECK(dir.rgb[2] == Approx(-0.6f));
        CHECK(w.lightmaps[size_t(2 * wall + 1)].width == 0);
        CHECK(w.deluxemaps[size_t(2 * wall + 1)].width == 0);
        CHECK(w.lightmaps[size_t(2 * wall)].width == 128);
    }
}

TEST_CASE("decoded without light samples, the deluxe split and page sizes are the full decode's", "[q3decode][deluxe]") {
    MapSource src;
    src.displayName = "deluxe.bsp";
    src.bytes = makeRoomMap(deluxeRoom({255, 0, 51})).build();
    const World full = decodeMap(src);
    DecodeOptions countsOnly;
    countsOnly.lightSamples = false;
    const World counted = decodeMap(src, countsOnly);
    REQUIRE(counted.lightmaps.size() == full.lightmaps.size());
    REQUIRE(counted.deluxemaps.size() == full.deluxemaps.size());
    for (size_t p = 0; p < full.lightmaps.size(); ++p) {
        INFO("page " << p);
        CHECK(counted.lightmaps[p].width == full.lightmaps[p].width);
        CHECK(counted.lightmaps[p].height == full.lightmaps[p].height);
        CHECK(counted.deluxemaps[p].width == full.deluxemaps[p].width);
        CHECK(counted.lightmaps[p].rgb.empty());
        CHECK(counted.deluxemaps[p].rgb.empty());
    }
}

TEST_CASE("pages are light only when a face uses an odd page, or two pages hold a black second one", "[q3decode][deluxe]") {
    SECTION("a face on an odd page") {
        Q3MapBuilder b = makeRoomMap(deluxeRoom({255, 255, 255}));
        b.faces[3].lightmap = 3;
        const World w = decodeBytes(b.build());
        CHECK(w.deluxemaps.empty());
        CHECK(w.lightmaps[1].width == 128);
    }
    SECTION("two pages, the second all zero") {
        RoomOptions o;
        o.sharedPage = true;
        Q3MapBuilder b = makeRoomMap(o);
        b.addLightmap(std::array<uint8_t, 3>{0, 0, 0});
        CHECK(decodeBytes(b.build()).deluxemaps.empty());
    }
    SECTION("an odd number of pages") {
        RoomOptions o;
        o.sharedPage = true;
        Q3MapBuilder b = makeRoomMap(o);
        b.addLightmap(std::array<uint8_t, 3>{9, 9, 9});
        b.addLightmap(std::array<uint8_t, 3>{9, 9, 9});
        CHECK(decodeBytes(b.build()).deluxemaps.empty());
    }
}

TEST_CASE("diff of deluxe maps: the angle between the builds' directions, hand-computed", "[diff][deluxe]") {
    // A's directions (1, 1, 1), B's (1, 1, -1): cos = (1 + 1 - 1) / 3, so acos(1/3) = 70.5288 degrees at
    // every lit luxel; the light itself is the same.
    World a = decodeBytes(makeRoomMap(deluxeRoom({255, 255, 255})).build());
    World b = decodeBytes(makeRoomMap(deluxeRoom({255, 255, 0})).build());
    const Geometry ga = tessellate(a), gb = tessellate(b);
    const LightmapDiff d = diffLightmaps(a, ga, b, gb, {});
    REQUIRE(d.deluxe);
    CHECK(d.deluxe->count == d.matchedA);
    CHECK(d.deluxe->count > 0);
    const double expected = std::acos(1.0 / 3.0) * 180.0 / std::numbers::pi;
    CHECK(d.deluxe->medianDeg == Approx(expected).epsilon(1e-5));
    CHECK(d.deluxe->maxDeg == Approx(expected).epsilon(1e-5));
    CHECK(d.deluxe->over10Deg == d.deluxe->count);
    REQUIRE_FALSE(d.styles.empty());
    CHECK(d.styles[0].stats.maxAbsLinear == 0.0);  // directions decide nothing about the light
    CHECK(d.styles[0].verdict == Verdict::Same);

    const LightmapDiff self = diffLightmaps(a, ga, a, ga, {});
    REQUIRE(self.deluxe);
    CHECK(self.deluxe->maxDeg == 0.0);
    // A map without deluxe maps against one with: nothing to compare.
    const World plain = decodeBytes(makeRoomMap().build());
    const Geometry gp = tessellate(plain);
    CHECK_FALSE(diffLightmaps(plain, gp, a, ga, {}).deluxe);
}

TEST_CASE("real deluxe maps: unit directions towards the light, in front of the lit surfaces", "[q3decode][deluxe][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    // maps/README.md: nexuiz_eggandbacon was lit with -deluxe, external 512x512 pages, faces on even files.
    MapSource src = openMapPath(*sharedMaps() + "/q3/nexuiz_eggandbacon.bsp");
    const World w = decodeMap(src);
    REQUIRE(w.deluxemaps.size() == w.lightmaps.size());
    const Geometry g = tessellate(w);
    // At every lit surface's vertices: the direction is unit length up to byte rounding, and light reaches a
    // surface from its front, so the direction towards the light faces the way the surface does.
    size_t measured = 0, unit = 0, inFront = 0;
    for (const DrawSurface& s : g.surfaces) {
        if (s.shading != SurfaceShading::Lightmap) continue;
        const LightmapPage& dir = w.deluxemaps[size_t(s.lightmapPage)];
        REQUIRE(dir.width == w.lightmaps[size_t(s.lightmapPage)].width);
        for (uint32_t v = s.firstVertex; v < s.firstVertex + s.numVertices; ++v) {
            const DrawVertex& dv = g.vertices[v];
            const int x = std::clamp(int(dv.lightmapUV.x * float(dir.width)), 0, dir.width - 1);
            const int y = std::clamp(int(dv.lightmapUV.y * float(dir.height)), 0, dir.height - 1);
            const float* t = dir.rgb.data() + (size_t(y) * size_t(dir.width) + size_t(x)) * 3;
            const Vec3 d{t[0], t[1], t[2]};
            ++measured;
            unit += std::fabs(std::sqrt(dot(d, d)) - 1.0f) < 0.05f ? 1 : 0;
            inFront += dot(d, dv.normal) > 0 ? 1 : 0;
        }
    }
    REQUIRE(measured > 100);
    CHECK(unit * 10 >= measured * 9);
    CHECK(inFront * 10 >= measured * 9);
}
