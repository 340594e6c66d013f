// Brush entities (bsp/brush_entities.hpp): which models each game draws at the start of a map, where it
// draws them, and how culling treats them (vis/visibility.hpp). Synthetic maps with known answers.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "luxel/bsp/brush_entities.hpp"
#include "luxel/bsp/decode.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/render/render.hpp"
#include "luxel/vis/visibility.hpp"
#include "support/decode_helpers.hpp"
#include "support/q2_writer.hpp"
#include "support/q3_writer.hpp"
#include "support/render_fixtures.hpp"
#include "support/test_paths.hpp"
#include "support/vbsp_writer.hpp"
#include "support/vec_checks.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

// A wall-like quad facing -X at x, over y in [-w, w], z in [z0, z1], on lightmap page `lightmap`: clockwise
// seen from -X (looking +X, +Y is on the left).
int32_t addQuadFacingMinusX(Q3MapBuilder& b, float x, float w, float z0, float z1, int32_t lightmap) {
    return b.addPolygon({{x, w, z1}, {x, -w, z1}, {x, -w, z0}, {x, w, z0}}, {-1, 0, 0}, 0, lightmap,
                        {{0, 0}, {1, 0}, {1, 1}, {0, 1}});
}

// makeTwoRoomMap(false) (room A x in [-768, -256] is cluster 0, room B x in [256, 768] cluster 1, and A does not
// see B) with brush models after the world's 12 faces, one face each:
//   *1 func_door in room A at x = -400 (bright page), *2 func_door in room B at x = 500 (behind A's east wall
//   from a camera in A looking +X), *3 func_static stored at x = 0 with "origin" "-450 0 0" (so drawn at
//   x = -450), *4 trigger_multiple in room A, *5 no entity, *6 func_plat 32 high stored at z 64..96.
struct DoorMap {
    Q3MapBuilder builder;
    World world;
};

DoorMap makeDoorMap(const std::string& extraEntities = "") {
    DoorMap d;
    Q3MapBuilder& b = d.builder;
    b = makeTwoRoomMap(false);
    const int32_t bright = b.addLightmap({200, 200, 200});
    auto model = [&](int32_t face) {
        Q3Model m;
        m.firstFace = face;
        m.numFaces = 1;
        const Q3Face& f = b.faces[size_t(face)];
        Bounds box;
        for (int32_t k = 0; k < f.numVertices; ++k) box.grow(b.vertices[size_t(f.firstVertex + k)].position);
        m.mins = box.mins;
        m.maxs = box.maxs;
        b.models.push_back(m);
    };
    model(addQuadFacingMinusX(b, -400, 64, 64, 192, bright));  // *1
    model(addQuadFacingMinusX(b, 500, 64, 64, 192, bright));   // *2
    model(addQuadFacingMinusX(b, 0, 32, 64, 128, bright));     // *3
    model(addQuadFacingMinusX(b, -300, 16, 64, 96, bright));   // *4
    model(addQuadFacingMinusX(b, -320, 16, 64, 96, bright));   // *5
    model(addQuadFacingMinusX(b, -600, 16, 64, 96, bright));   // *6
    b.entities += "{\n\"classname\" \"func_door\"\n\"model\" \"*1\"\n}\n"
                  "{\n\"classname\" \"func_door\"\n\"model\" \"*2\"\n}\n"
                  "{\n\"classname\" \"func_static\"\n\"model\" \"*3\"\n\"origin\" \"-450 0 0\"\n}\n"
                  "{\n\"classname\" \"trigger_multiple\"\n\"model\" \"*4\"\n}\n"
                  "{\n\"classname\" \"func_plat\"\n\"model\" \"*6\"\n}\n" +
                  extraEntities;
    d.world = decodeQ3(b);
    return d;
}

bool contains(const std::vector<uint32_t>& list, uint32_t s) { return std::find(list.begin(), list.end(), s) != list.end(); }

size_t differingPixels(const Image& a, const Image& b) {
    size_t n = 0;
    for (size_t i = 0; i < a.pixels.size(); ++i) n += a.pixels[i] != b.pixels[i];
    return n;
}

// Camera in room A at x = -700 looking +X: door *1 ahead, room A's east wall (x = -256) behind it, door *2
// beyond that wall.
Camera roomACamera() { return makeCamera({-700, 0, 128}, {0, 0, 0}, 320, 180); }

}  // namespace

TEST_CASE("Quake 3 brush entities: drawn classes, origins, plats lowered, the rest hidden", "[brush]") {
    DoorMap d = makeDoorMap();
    const World& w = d.world;
    REQUIRE(w.models.size() == 7);
    CHECK(w.models[0].drawn);
    CHECK(w.models[1].drawn);
    CHECK(w.models[2].drawn);
    CHECK(w.models[3].drawn);
    CHECK_FALSE(w.models[4].drawn);  // trigger_multiple
    CHECK_FALSE(w.models[5].drawn);  // no entity uses *5
    CHECK(w.models[6].drawn);
    CHECK(w.models[3].origin == Vec3{-450, 0, 0});
    // func_plat without "height": lowered by its model's height (96 - 64 = 32) less the default lip 8.
    CHECK(w.models[6].origin == Vec3{0, 0, -24});

    const Geometry g = tessellate(w);
    const DrawSurface& placed = g.surfaces[w.models[3].firstSurface];
    REQUIRE(placed.numVertices == 4);
    for (uint32_t k = 0; k < 4; ++k) CHECK(g.vertices[placed.firstVertex + k].position.x == -450.0f);
    CHECK(placed.bounds.mins.x == -450.0f);
    CHECK(g.surfaces[w.models[6].firstSurface].bounds.mins.z == 40.0f);  // 64 - 24
    CHECK(g.surfaces[w.models[4].firstSurface].shading == SurfaceShading::Hidden);
    CHECK(g.surfaces[w.models[5].firstSurface].shading == SurfaceShading::Hidden);

    SECTION("a plat's own height, and one another entity triggers, are still lowered in Quake 3") {
        DoorMap h = makeDoorMap();
        h.builder.entities = makeTwoRoomMap(false).entities +
                             "{\n\"classname\" \"func_plat\"\n\"model\" \"*6\"\n\"height\" \"100\"\n\"targetname\" \"p\"\n}\n";
        const World hw = decodeQ3(h.builder);
        CHECK(hw.models[6].origin == Vec3{0, 0, -100});
        CHECK_FALSE(hw.models[1].drawn);  // no entity uses *1 now
    }
}

TEST_CASE("brush entities are culled by their own box, and culling never changes the frame", "[brush]") {
    DoorMap d = makeDoorMap();
    const World& w = d.world;
    const Geometry g = tessellate(w);
    const Camera camera = roomACamera();
    const View view = makeView(camera);
    const uint32_t doorA = w.models[1].firstSurface, doorB = w.models[2].firstSurface, moved = w.models[3].firstSurface;

    CullOptions withPvs;
    const std::vector<uint32_t> culled = visibleSurfaces(w, g, view, camera.position, withPvs);
    CHECK(contains(culled, doorA));
    CHECK(contains(culled, moved));
    CHECK_FALSE(contains(culled, doorB));  // room B's cluster is not in room A's PVS row

    CullOptions noPvs;
    noPvs.usePvs = false;
    const std::vector<uint32_t> all = visibleSurfaces(w, g, view, camera.position, noPvs);
    CHECK(contains(all, doorB));  // in the frustum, behind the wall

    CullOptions worldOnly;
    worldOnly.worldOnly = true;
    const std::vector<uint32_t> world = visibleSurfaces(w, g, view, camera.position, worldOnly);
    for (size_t m = 1; m < w.models.size(); ++m) CHECK_FALSE(contains(world, w.models[m].firstSurface));
    CHECK(world.size() < culled.size());

    RenderOptions options;
    const Image a = renderFrame(w, g, camera, options);
    options.usePvs = false;
    const Image b = renderFrame(w, g, camera, options);
    CHECK(differingPixels(a, b) == 0);
    options.usePvs = true;
    options.worldOnly = true;
    const Image c = renderFrame(w, g, camera, options);
    CHECK(differingPixels(a, c) > 0);
    // The frame's centre column looks at door *1 (x = -400, z 64..192 around the eye's z = 128): lit by its
    // bright page (linear 4 * 200 / 255) in the full frame, by room A's east wall (byte 0, 64, 0) without it.
    const Vec3 centre = pixelAt(a, 160, 90), behind = pixelAt(c, 160, 90);
    CHECK(centre.x > behind.x);
    CHECK(centre.x == Approx(centre.y));
}

TEST_CASE("Quake 2 brush entities: func_wall placed at its origin, triggers and spawned-later walls hidden", "[brush]") {
    Q2MapBuilder b = makeQ2FloorMap();
    // Models *1..*3 over copies of face 0 (the 64x32 floor quad at z = 0).
    for (int i = 0; i < 3; ++i) {
        Q2Model m = b.models[0];
        m.firstFace = int32_t(b.faces.size());
        m.numFaces = 1;
        b.faces.push_back(b.faces[0]);
        b.models.push_back(m);
    }
    b.entities = "{\n\"classname\" \"worldspawn\"\n}\n"
                 "{\n\"classname\" \"func_wall\"\n\"model\" \"*1\"\n\"origin\" \"0 0 40\"\n}\n"
                 "{\n\"classname\" \"trigger_once\"\n\"model\" \"*2\"\n}\n"
                 "{\n\"classname\" \"func_wall\"\n\"model\" \"*3\"\n\"spawnflags\" \"1\"\n}\n";
    const World w = decodeBytes(b.build());
    REQUIRE(w.models.size() == 4);
    CHECK(w.models[1].drawn);
    CHECK(w.models[1].origin == Vec3{0, 0, 40});
    CHECK_FALSE(w.models[2].drawn);
    CHECK_FALSE(w.models[3].drawn);  // TRIGGER_SPAWN without START_ON: not in the world at the start
    const Geometry g = tessellate(w);
    const DrawSurface& wall = g.surfaces[w.models[1].firstSurface];
    CHECK(wall.bounds.mins.z == 40.0f);
    CHECK(wall.bounds.maxs.z == 40.0f);
    CHECK(g.surfaces[w.models[2].firstSurface].shading == SurfaceShading::Hidden);
    CHECK(g.surfaces[w.models[3].firstSurface].shading == SurfaceShading::Hidden);
}

TEST_CASE("Source brush entities: turned by their angles, volumes and invisible render modes hidden", "[brush]") {
    World w;
    w.format = MapFormat::Source;
    w.models.resize(6);
    auto entity = [&](std::vector<std::pair<std::string, std::string>> keys) { w.entities.push_back({std::move(keys)}); };
    entity({{"classname", "worldspawn"}});
    entity({{"classname", "func_door_rotating"}, {"model", "*1"}, {"origin", "10 20 30"}, {"angles", "0 90 0"}});
    entity({{"classname", "trigger_multiple"}, {"model", "*2"}});
    entity({{"classname", "func_brush"}, {"model", "*3"}, {"rendermode", "10"}});
    entity({{"classname", "func_brush"}, {"model", "*4"}, {"StartDisabled", "1"}});
    entity({{"classname", "func_illusionary"}, {"model", "*5"}, {"rendermode", "2"}, {"renderamt", "0"}});
    placeBrushModels(w);
    CHECK(w.models[1].drawn);
    CHECK_FALSE(w.models[2].drawn);
    CHECK_FALSE(w.models[3].drawn);
    CHECK_FALSE(w.models[4].drawn);
    CHECK_FALSE(w.models[5].drawn);
    CHECK(w.models[1].origin == Vec3{10, 20, 30});
    // Yaw 90: AngleMatrix's columns forward (0, 1, 0), left (-1, 0, 0), up (0, 0, 1).
    CHECK(w.models[1].axis[0] == Vec3{0, 1, 0});
    CHECK(w.models[1].axis[1] == Vec3{-1, 0, 0});
    CHECK(w.models[1].axis[2] == Vec3{0, 0, 1});
}

TEST_CASE("a real Quake 2 func_door (ericw-tools' q2_door) is drawn, culled alike with and without the PVS",
          "[maps][brush]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const World w = decodeMap(openMapPath(*sharedMaps() + "/pairs/ericw-q2/q2_door/q2_door.bsp"));
    REQUIRE(w.models.size() == 2);
    CHECK(w.models[1].drawn);  // its entity is the map's func_door
    const Geometry g = tessellate(w);
    // From the spawn's eye (-16 -32 40, +22) looking north at the door (x -48..48, y 48..64, z 16..112).
    const Camera camera = makeCamera({-16, -32, 62}, {0, 90, 0}, 160, 90);
    RenderOptions options;
    options.mode = RenderMode::Normals;  // the map has no light: its lightmaps are black
    const Image a = renderFrame(w, g, camera, options);
    options.usePvs = false;
    CHECK(differingPixels(a, renderFrame(w, g, camera, options)) == 0);
    options.usePvs = true;
    options.worldOnly = true;
    const Image world = renderFrame(w, g, camera, options);
    // The door fills the middle of the frame: a face towards the camera (normal -Y, shown as (0.5, 0, 0.5))
    // where the world alone shows the room's north wall further away, with the same normal. Its sides show.
    CHECK(differingPixels(a, world) > 160 * 90 / 20);
}

TEST_CASE("a real Source map's brush entities: placed at their origin, turned by their angles", "[maps][brush]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    // lanofdoom's CS:GO map: 9 func_breakable windows and 2 func_buyzone volumes, stored relative to their
    // origins by vbsp. Re-packed with the first breakable turned by "angles" "0 90 0".
    const std::string path = *sharedMaps() + "/source/lanofdoom_$2000$_csgo_v21.bsp";
    const World w = decodeMap(openMapPath(path));
    REQUIRE(w.models.size() == 12);
    size_t drawn = 0;
    int32_t first = -1;
    for (size_t m = 1; m < w.models.size(); ++m) {
        const std::string cls = *w.entities.at(size_t(w.models[m].entity)).get("classname");
        CHECK(w.models[m].drawn == (cls == "func_breakable"));
        drawn += w.models[m].drawn;
        if (first < 0 && cls == "func_breakable") first = int32_t(m);
    }
    CHECK(drawn == 9);
    REQUIRE(first > 0);
    const Model& model = w.models[size_t(first)];
    // Stored relative to the origin: the stored bounds hold 0 on every axis; drawn, they hold the origin.
    for (int a = 0; a < 3; ++a) {
        CHECK(model.mins[a] <= 0.0f);
        CHECK(model.maxs[a] >= 0.0f);
    }
    const Geometry g = tessellate(w);
    Bounds placed;
    for (uint32_t s = model.firstSurface; s < model.firstSurface + model.numSurfaces; ++s) placed.grow(g.surfaces[s].bounds);
    CHECK(placed.mins.x == Approx(model.origin.x + model.mins.x).margin(0.01));
    CHECK(placed.maxs.y == Approx(model.origin.y + model.maxs.y).margin(0.01));

    VbspFile file = readVbsp(readFile(path));
    std::string entities(file.lumps[0].begin(), file.lumps[0].end());
    const std::string key = "\"model\" \"*" + std::to_string(first) + "\"";
    const size_t at = entities.find(key);
    REQUIRE(at != std::string::npos);
    entities.insert(at, "\"angles\" \"0 90 0\"\n");
    file.lumps[0].assign(entities.begin(), entities.end());
    const World turned = decodeMap(memorySource(writeVbsp(file), "turned.bsp"));
    const Geometry tg = tessellate(turned);
    Bounds rotated;
    for (uint32_t s = model.firstSurface; s < model.firstSurface + model.numSurfaces; ++s) rotated.grow(tg.surfaces[s].bounds);
    // Yaw 90 takes local x to world y and local y to world -x (AngleMatrix's forward, left columns).
    CHECK(rotated.mins.y == Approx(model.origin.y + model.mins.x).margin(0.01));
    CHECK(rotated.maxs.y == Approx(model.origin.y + model.maxs.x).margin(0.01));
    CHECK(rotated.mins.x == Approx(model.origin.x - model.maxs.y).margin(0.01));
    CHECK(rotated.maxs.x == Approx(model.origin.x - model.mins.y).margin(0.01));
    CHECK(rotated.mins.z == Approx(placed.mins.z).margin(0.01));
}
