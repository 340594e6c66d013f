// End-to-end exact tests on synthetic Quake 3 maps: bytes written by the test map writer, decoded,
// tessellated, culled and rendered; pixel values checked against hand-computed light.
#include <catch2/catch.hpp>

#include <algorithm>

#include "luxel/bsp/decode.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/render/render.hpp"
#include "luxel/vis/visibility.hpp"
#include "support/decode_helpers.hpp"
#include "support/q3_writer.hpp"
#include "support/render_fixtures.hpp"

using namespace luxel;
using namespace luxel::test;

TEST_CASE("a room with known lightmap bytes renders the known linear light", "[q3render]") {
    RoomOptions room;
    World world = decodeBytes(makeRoomMap(room).build());
    Geometry geometry = tessellate(world);
    RenderOptions options;
    options.look = Look::Linear;

    // Looking +X (yaw 0) at the east wall, 256 units away. With a 90 degree horizontal FOV at 16:9 the
    // vertical half-angle tangent is 9/16, so the wall's top edge (128 units up) is at
    // ndc 128/256 / (9/16) = 0.889: rows above (1 - 0.889) / 2 * 180 = 10 show the ceiling.
    Image east = renderFrame(world, geometry, roomCamera({0, 0, 0}), options);
    auto wall = room.wallBytes;
    CHECK(pixelAt(east, 160, 90).x == Approx(q3Linear(wall[3][0])).margin(1e-5));
    CHECK(pixelAt(east, 160, 90).y == Approx(q3Linear(wall[3][1])).margin(1e-5));
    CHECK(pixelAt(east, 160, 90).z == Approx(q3Linear(wall[3][2])).margin(1e-5));
    CHECK(pixelAt(east, 160, 15).y == Approx(q3Linear(wall[3][1])).margin(1e-5));
    CHECK(pixelAt(east, 160, 5).x == Approx(q3Linear(wall[1][0])).margin(1e-5));    // ceiling
    CHECK(pixelAt(east, 160, 174).x == Approx(q3Linear(wall[0][0])).margin(1e-5));  // floor

    // Yaw 90 looks +Y: the north wall with its unequal channels.
    Image north = renderFrame(world, geometry, roomCamera({0, 90, 0}), options);
    CHECK(pixelAt(north, 160, 90).x == Approx(q3Linear(wall[5][0])).margin(1e-5));
    CHECK(pixelAt(north, 160, 90).z == Approx(q3Linear(wall[5][2])).margin(1e-5));
    // Yaw 180 looks -X (west, red); pitch 90 looks straight down at the floor.
    CHECK(pixelAt(renderFrame(world, geometry, roomCamera({0, 180, 0}), options), 160, 90).x ==
          Approx(q3Linear(wall[2][0])).margin(1e-5));
    Image down = renderFrame(world, geometry, roomCamera({90, 0, 0}), options);
    for (auto [x, y] : {std::pair{0, 0}, {319, 179}, {160, 90}, {17, 133}})
        CHECK(pixelAt(down, x, y).x == Approx(q3Linear(wall[0][0])).margin(1e-5));
}

TEST_CASE("the engine look applies Quake 3's hue-preserving overbright clamp", "[q3render]") {
    RoomOptions room;
    room.wallBytes[3] = {200, 100, 50};  // linear 3.137, 1.569, 0.784: brightest channel over 2
    room.wallBytes[0] = {100, 40, 20};   // linear 1.569, 0.627, 0.314: under 2, unchanged
    World world = decodeBytes(makeRoomMap(room).build());
    Geometry geometry = tessellate(world);
    RenderOptions options;
    options.look = Look::Engine;

    // Scaled by 2 / 3.137 (hue kept) to (2, 1, 0.5), then clamped to the display range: (1, 1, 0.5).
    Vec3 east = pixelAt(renderFrame(world, geometry, roomCamera({0, 0, 0}), options), 160, 90);
    CHECK(east.x == Approx(1.0f).margin(1e-5));
    CHECK(east.y == Approx(1.0f).margin(1e-5));
    CHECK(east.z == Approx(0.5f).margin(1e-5));
    // No scaling below 2; the display clamp alone: (1, 0.627, 0.314).
    Vec3 floor = pixelAt(renderFrame(world, geometry, roomCamera({90, 0, 0}), options), 160, 90);
    CHECK(floor.x == Approx(1.0f).margin(1e-5));
    CHECK(floor.y == Approx(q3Linear(40)).margin(1e-5));
    CHECK(floor.z == Approx(q3Linear(20)).margin(1e-5));
}

TEST_CASE("the windowed engine look shifts by the whole overbright with the clamp at 255, and has no ramp", "[q3render]") {
    // r_overBrightBits 0 (ref/README.md): bytes x4 at load, the largest channel clamped to 255 hue-preserving,
    // an identity ramp. Byte 200 -> 800 > 255: (200, 100, 50) * 255 / 800 = (63.75, 31.875, 15.9375) of 255.
    RoomOptions room;
    room.wallBytes[3] = {200, 100, 50};
    room.wallBytes[0] = {40, 20, 10};  // x4 = (160, 80, 40): under 255, unchanged
    World world = decodeBytes(makeRoomMap(room).build());
    Geometry geometry = tessellate(world);
    RenderOptions options;
    options.look = Look::EngineWindowed;
    const Vec3 east = pixelAt(renderFrame(world, geometry, roomCamera({0, 0, 0}), options), 160, 90);
    CHECK(east.x == Approx(1.0f).margin(1e-5));
    CHECK(east.y == Approx(0.5f).margin(1e-5));
    CHECK(east.z == Approx(0.25f).margin(1e-5));
    const Vec3 floor = pixelAt(renderFrame(world, geometry, roomCamera({90, 0, 0}), options), 160, 90);
    CHECK(floor.x == Approx(160.0f / 255.0f).margin(1e-5));
    CHECK(floor.y == Approx(80.0f / 255.0f).margin(1e-5));
    CHECK(floor.z == Approx(40.0f / 255.0f).margin(1e-5));
    // The full-screen look of the same warm wall clips per channel: hue lost, (1, 1, 0.5).
    options.look = Look::Engine;
    CHECK(pixelAt(renderFrame(world, geometry, roomCamera({0, 0, 0}), options), 160, 90).y == Approx(1.0f).margin(1e-5));
}

TEST_CASE("look names", "[q3render]") {
    for (Look l : {Look::Engine, Look::EngineWindowed, Look::Linear}) CHECK(parseLook(lookName(l)) == l);
    CHECK_FALSE(parseLook("windowed"));
}

TEST_CASE("vertex-lit and sky surfaces", "[q3render]") {
    RoomOptions room;
    room.vertexLit = true;
    World world = decodeBytes(makeRoomMap(room).build());
    Geometry geometry = tessellate(world);
    RenderOptions options;
    options.look = Look::Linear;
    // Lightmap mode falls back to the vertex colour of vertex-lit faces (lightmap index -3).
    Vec3 east = pixelAt(renderFrame(world, geometry, roomCamera({0, 0, 0}), options), 160, 90);
    CHECK(east.y == Approx(q3Linear(room.wallBytes[3][1])).margin(1e-5));
    CHECK(east.x == Approx(0.0f).margin(1e-6));

    RoomOptions skyRoom;
    skyRoom.textureFlags = kQ3SurfSky;
    World sky = decodeBytes(makeRoomMap(skyRoom).build());
    Geometry skyGeometry = tessellate(sky);
    options.skyColor = {0.25f, 0.5f, 0.75f};
    Vec3 s = pixelAt(renderFrame(sky, skyGeometry, roomCamera({0, 0, 0}), options), 160, 90);
    CHECK(s.x == Approx(0.25f));
    CHECK(s.y == Approx(0.5f));
    CHECK(s.z == Approx(0.75f));
}

TEST_CASE("a cluster the PVS hides is not drawn; culling leaves the picture unchanged", "[q3render]") {
    for (bool mutuallyVisible : {false, true}) {
        World world = decodeBytes(makeTwoRoomMap(mutuallyVisible).build());
        Geometry geometry = tessellate(world);
        // In room A (x in [-768, -256]) looking +X toward room B.
        Camera camera;
        camera.position = {-512, 0, 128};
        camera.width = 160;
        camera.height = 90;
        View view = makeView(camera);
        REQUIRE(findCluster(world, camera.position) == 0);
        CullStats stats;
        auto visible = visibleSurfaces(world, geometry, view, camera.position, CullOptions{}, &stats);
        bool anyOfB = std::any_of(visible.begin(), visible.end(), [](uint32_t s) { return s >= 6 && s < 12; });
        CHECK(anyOfB == mutuallyVisible);
        for (uint32_t face = 0; face < 6; ++face)  // each surface at most once
            CHECK(std::count(visible.begin(), visible.end(), face) <= 1);
        CHECK(std::count(visible.begin(), visible.end(), 3u) == 1);  // room A's east wall, straight ahead
        CullOptions noPvs;
        noPvs.usePvs = false;
        auto all = visibleSurfaces(world, geometry, view, camera.position, noPvs);
        CHECK(std::any_of(all.begin(), all.end(), [](uint32_t s) { return s >= 6 && s < 12; }));

        RenderOptions options;
        FrameStats culled, unculled;
        Image a = renderFrame(world, geometry, camera, options, &culled);
        options.usePvs = false;
        Image b = renderFrame(world, geometry, camera, options, &unculled);
        CHECK(a.pixels == b.pixels);
        if (!mutuallyVisible) CHECK(culled.trianglesIn < unculled.trianglesIn);
    }
}
