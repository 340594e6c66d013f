// The Quake 3 decoder on synthetic maps written by tests/support/q3_writer: every record read back, the light
// grid, the PVS, winding, lightmap pages. Bad input: q3_decode_errors_test.cpp; real maps: q3_decode_maps_test.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include "luxel/bsp/decode.hpp"
#include "luxel/bsp/entities.hpp"
#include "luxel/util/error.hpp"
#include "support/decode_helpers.hpp"
#include "support/q3_writer.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

float ob(int byte) { return 4.0f * float(byte) / 255.0f; }

}  // namespace

TEST_CASE("room map decodes to the records written", "[q3decode]") {
    const Q3MapBuilder b = fullQ3Map();
    const World w = decodeQ3(b);

    CHECK(w.format == MapFormat::Quake3);
    CHECK(w.formatName == "Quake 3 IBSP");
    CHECK(w.version == 46);
    CHECK(w.look.hueClampAt == 2.0f);
    REQUIRE(w.lumps.size() == 17);
    CHECK(w.lumps[0].name == "entities");
    CHECK(w.lumps[13].name == "faces");
    CHECK(w.lumps[16].name == "visdata");
    const auto file = b.build();
    for (int i = 0; i < 17; ++i) {
        auto [off, len] = q3LumpRange(file, i);
        CHECK(w.lumps[size_t(i)].offset == off);
        CHECK(w.lumps[size_t(i)].length == len);
    }

    // Materials and neutral flags.
    REQUIRE(w.materials.size() == 6);
    CHECK(w.materials[0].name == "textures/luxel/wall");
    CHECK(w.materials[0].flags == 0);
    CHECK(w.materials[0].nativeContents == 1u);
    CHECK(w.materials[1].flags == kMaterialSky);
    CHECK(w.materials[1].nativeSurfaceFlags == 0x4u);
    CHECK(w.materials[2].flags == kMaterialNoDraw);
    CHECK(w.materials[3].flags == kMaterialNoDraw);
    CHECK(w.materials[4].flags == kMaterialNoDraw);
    CHECK(w.materials[5].flags == kMaterialNoLightmap);
    CHECK(w.materials[5].nativeContents == 0u);

    // Vertices: every field of every record.
    REQUIRE(w.vertices.size() == b.vertices.size());
    for (size_t i = 0; i < b.vertices.size(); ++i) {
        const auto& in = b.vertices[i];
        const auto& out = w.vertices[i];
        CHECK(out.position == in.position);
        CHECK(out.normal == in.normal);
        CHECK(out.texUV.x == in.texUV.x);
        CHECK(out.texUV.y == in.texUV.y);
        CHECK(out.lightmapUV.x == in.lightmapUV.x);
        CHECK(out.lightmapUV.y == in.lightmapUV.y);
        CHECK(out.color.x == Approx(ob(in.color[0])));
        CHECK(out.color.y == Approx(ob(in.color[1])));
        CHECK(out.color.z == Approx(ob(in.color[2])));
        CHECK(out.color.w == Approx(in.color[3] / 255.0));
    }
    // Floor vertex colour bytes 64 -> 4*64/255.
    CHECK(w.vertices[0].color.x == Approx(1.0039216));
    // The mesh's colour (10,20,30,128).
    CHECK(w.vertices[24].color.z == Approx(120.0 / 255.0));
    CHECK(w.vertices[24].color.w == Approx(128.0 / 255.0));

    // Surfaces.
    REQUIRE(w.surfaces.size() == 9);
    for (int i = 0; i < 6; ++i) {
        const Surface& s = w.surfaces[size_t(i)];
        CHECK(s.kind == SurfaceKind::Polygon);
        CHECK(s.material == 0);
        CHECK(s.lightmapPage == i);
        CHECK(s.firstVertex == uint32_t(4 * i));
        CHECK(s.numVertices == 4u);
        CHECK(s.numIndices == 6u);
        CHECK(s.normal == b.faces[size_t(i)].normal);
        // Fan (0,1,2)(0,2,3) relative to firstVertex.
        std::vector<uint32_t> idx(w.indices.begin() + s.firstIndex, w.indices.begin() + s.firstIndex + s.numIndices);
        CHECK(idx == std::vector<uint32_t>{0, 1, 2, 0, 2, 3});
    }
    CHECK(w.surfaces[1].normal == Vec3{0, 0, -1});
    const Surface& mesh = w.surfaces[6];
    CHECK(mesh.kind == SurfaceKind::Mesh);
    CHECK(mesh.lightmapPage == -3);
    CHECK(mesh.material == 5);
    std::vector<uint32_t> meshIdx(w.indices.begin() + mesh.firstIndex, w.indices.begin() + mesh.firstIndex + 6);
    CHECK(meshIdx == std::vector<uint32_t>{0, 1, 2, 0, 3, 3});
    const Surface& patch = w.surfaces[7];
    CHECK(patch.kind == SurfaceKind::Patch);
    CHECK(patch.patchWidth == 3);
    CHECK(patch.patchHeight == 3);
    CHECK(patch.numVertices == 9u);
    CHECK(patch.firstVertex == 28u);
    CHECK(patch.numIndices == 0u);
    CHECK(patch.lightmapPage == 1);
    const Surface& flare = w.surfaces[8];
    CHECK(flare.kind == SurfaceKind::Billboard);
    CHECK(flare.origin == Vec3{1, 2, 3});
    CHECK(flare.color == Vec3{0.25f, 0.5f, 1.0f});
    CHECK(flare.normal == Vec3{0, 0, -1});
    CHECK(flare.material == 2);
    CHECK(w.indices.size() == 6 * 6 + 6);

    // Lightmaps: 6 pages with the documented constant bytes.
    REQUIRE(w.lightmaps.size() == 6);
    RoomOptions defaults;
    for (int p = 0; p < 6; ++p) {
        const LightmapPage& page = w.lightmaps[size_t(p)];
        CHECK(page.width == 128);
        CHECK(page.height == 128);
        REQUIRE(page.rgb.size() == 128 * 128 * 3);
        for (size_t t : {size_t(0), size_t(5000), size_t(128 * 128 - 1)})
            for (int k = 0; k < 3; ++k) CHECK(page.rgb[t * 3 + size_t(k)] == Approx(ob(defaults.wallBytes[size_t(p)][size_t(k)])));
    }
    CHECK(w.lightmaps[2].rgb[0] == Approx(1.0039216));  // west wall is red
    CHECK(w.lightmaps[2].rgb[1] == 0.0f);

    // Planes, nodes, leaves, models.
    REQUIRE(w.planes.size() == b.planes.size());
    for (size_t i = 0; i < b.planes.size(); ++i) {
        CHECK(w.planes[i].normal == b.planes[i].normal);
        CHECK(w.planes[i].dist == b.planes[i].dist);
    }
    CHECK(w.planes[1].normal == Vec3{0, 0, -1});  // pair flip
    REQUIRE(w.nodes.size() == 6);
    for (size_t i = 0; i < 6; ++i) {
        CHECK(w.nodes[i].plane == b.nodes[i].plane);
        CHECK(w.nodes[i].children == b.nodes[i].children);
        CHECK(w.nodes[i].mins == Vec3{-256, -256, 0});
        CHECK(w.nodes[i].maxs == Vec3{256, 256, 256});
    }
    REQUIRE(w.leaves.size() == 7);
    CHECK(w.leaves[0].cluster == 0);
    CHECK(w.leaves[0].firstLeafSurface == 0u);
    CHECK(w.leaves[0].numLeafSurfaces == 8u);
    CHECK(w.leaves[1].cluster == -1);
    CHECK(w.leaves[3].maxs == Vec3{256, 256, 256});
    CHECK(w.leafSurfaces == std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7});
    REQUIRE(w.models.size() == 1);
    CHECK(w.models[0].mins == Vec3{-256, -256, 0});
    CHECK(w.models[0].maxs == Vec3{256, 256, 256});
    CHECK(w.models[0].firstSurface == 0u);
    CHECK(w.models[0].numSurfaces == 9u);

    // Visibility: one cluster that sees itself.
    CHECK(w.pvs.numClusters == 1);
    CHECK(w.pvs.rowBytes == 1);
    CHECK(w.pvs.visible(0, 0));

    // Counted extras.
    std::map<std::string, uint64_t> other(w.otherCounts.begin(), w.otherCounts.end());
    CHECK(other["brushes"] == 1);
    CHECK(other["brush sides"] == 6);
    CHECK(other["leaf brushes"] == 1);
    CHECK(other["effects"] == 1);

    // Entities.
    CHECK(w.entityText == b.entities);
    REQUIRE(w.entities.size() == 3);
    auto players = findEntities(w, "info_player_deathmatch");
    REQUIRE(players.size() == 1);
    CHECK(*players[0]->get("origin") == "0 0 128");
    CHECK(w.problems.empty());
}

TEST_CASE("light grid layout, colours and directions", "[q3decode]") {
    SECTION("default cell size over the room bounds") {
        RoomOptions opt;
        opt.lightGrid = true;
        opt.gridAmbient = {16, 32, 48};
        opt.gridDirected = {255, 0, 1};
        opt.gridAngles = {64, 0};  // polar 90 deg, azimuth 0: +X
        World w = decodeQ3(makeRoomMap(opt));
        REQUIRE(w.grid);
        // (-256..256)/64 -> 9 points, (0..256)/128 -> 3 points.
        CHECK(w.grid->dims == std::array<int32_t, 3>{9, 9, 3});
        CHECK(w.grid->origin == Vec3{-256, -256, 0});
        CHECK(w.grid->cellSize == Vec3{64, 64, 128});
        REQUIRE(w.grid->samples.size() == 243);
        const GridSample& s = w.grid->samples[100];
        CHECK(s.ambient.x == Approx(64.0 / 255));
        CHECK(s.ambient.z == Approx(192.0 / 255));
        CHECK(s.directed.x == Approx(4.0));
        CHECK(s.directed.y == 0.0f);
        CHECK(s.direction.x == Approx(1.0));
        CHECK(s.direction.y == Approx(0.0).margin(1e-6));
        CHECK(s.direction.z == Approx(0.0).margin(1e-6));
    }
    SECTION("angle bytes: [0] polar from +Z, [1] azimuth") {
        struct Case { uint8_t polar, azimuth; Vec3 dir; };
        const double r = std::sqrt(0.5);
        for (Case c : {Case{0, 77, {0, 0, 1}}, Case{128, 0, {0, 0, -1}}, Case{64, 64, {0, 1, 0}},
                       Case{64, 128, {-1, 0, 0}}, Case{32, 0, {float(r), 0, float(r)}}}) {
            RoomOptions opt;
            opt.lightGrid = true;
            opt.gridAngles = {c.polar, c.azimuth};
            World w = decodeQ3(makeRoomMap(opt));
            REQUIRE(w.grid);
            Vec3 d = w.grid->samples[0].direction;
            CHECK(d.x == Approx(c.dir.x).margin(1e-6));
            CHECK(d.y == Approx(c.dir.y).margin(1e-6));
            CHECK(d.z == Approx(c.dir.z).margin(1e-6));
        }
    }
    SECTION("worldspawn gridsize overrides the cell size") {
        Q3MapBuilder b = makeRoomMap();
        b.entities = "{\n\"classname\" \"worldspawn\"\n\"gridsize\" \"32 128 64\"\n}\n";
        // x: 512/32+1 = 17, y: ceil(-2) .. floor(2) -> 5, z: 0..256/64 -> 5.
        b.lightGrid.assign(17 * 5 * 5 * 8, 7);
        World w = decodeQ3(b);
        REQUIRE(w.grid);
        CHECK(w.grid->dims == std::array<int32_t, 3>{17, 5, 5});
        CHECK(w.grid->cellSize == Vec3{32, 128, 64});
        CHECK(w.grid->origin == Vec3{-256, -256, 0});
    }
    SECTION("bounds off the cell grid round inward") {
        Q3MapBuilder b = makeRoomMap();
        b.models[0].mins = {-250, -100.5f, 10};
        b.models[0].maxs = {130, 63.9f, 300};
        // x: ceil(-3.9)=-3 -> -192 .. floor(2.03)=2 -> 128: 6; y: -64 .. 0: 2; z: 128 .. 256: 2.
        b.lightGrid.assign(6 * 2 * 2 * 8, 1);
        World w = decodeQ3(b);
        REQUIRE(w.grid);
        CHECK(w.grid->dims == std::array<int32_t, 3>{6, 2, 2});
        CHECK(w.grid->origin == Vec3{-192, -64, 128});
    }
    SECTION("size mismatch drops the grid with a problem message") {
        RoomOptions opt;
        opt.lightGrid = true;
        Q3MapBuilder b = makeRoomMap(opt);
        b.lightGrid.resize(b.lightGrid.size() - 8);
        World w = decodeQ3(b);
        CHECK_FALSE(w.grid);
        REQUIRE(w.problems.size() == 1);
        CHECK_THAT(w.problems[0], Catch::Contains("light grid"));
    }
    SECTION("no lightvols lump: no grid, no problem") {
        World w = decodeQ3(makeRoomMap());
        CHECK_FALSE(w.grid);
        CHECK(w.problems.empty());
    }
}

TEST_CASE("two-room map carries a PVS where the rooms cannot see each other", "[q3decode]") {
    World w = decodeQ3(makeTwoRoomMap(false));
    REQUIRE(w.pvs.numClusters == 2);
    CHECK(w.pvs.visible(0, 0));
    CHECK(w.pvs.visible(1, 1));
    CHECK_FALSE(w.pvs.visible(0, 1));
    CHECK_FALSE(w.pvs.visible(1, 0));
    CHECK(w.surfaces.size() == 12);
    CHECK(w.nodes.size() == 13);
    CHECK(w.leaves.size() == 14);
    CHECK(w.leaves[0].cluster == 0);
    CHECK(w.leaves[7].cluster == 1);
    CHECK(w.nodes[0].children == std::array<int32_t, 2>{7, 1});
    World v = decodeQ3(makeTwoRoomMap(true));
    CHECK(v.pvs.visible(0, 1));
    CHECK(v.pvs.visible(1, 0));
}

TEST_CASE("room walls are wound clockwise seen from inside", "[q3decode]") {
    World w = decodeQ3(makeRoomMap());
    for (const Surface& s : w.surfaces) {
        Vec3 a = w.vertices[s.firstVertex + w.indices[s.firstIndex]].position;
        Vec3 b = w.vertices[s.firstVertex + w.indices[s.firstIndex + 1]].position;
        Vec3 c = w.vertices[s.firstVertex + w.indices[s.firstIndex + 2]].position;
        CHECK(dot(cross(b - a, c - a), s.normal) < 0);
        // Normals point into the room (toward its centre at 0,0,128).
        CHECK(dot(Vec3{0, 0, 128} - a, s.normal) > 0);
    }
}

TEST_CASE("shared-page and vertex-lit rooms", "[q3decode]") {
    RoomOptions shared;
    shared.sharedPage = true;
    shared.sharedBytes = {10, 20, 30};
    World w = decodeQ3(makeRoomMap(shared));
    REQUIRE(w.lightmaps.size() == 1);
    for (const Surface& s : w.surfaces) CHECK(s.lightmapPage == 0);
    CHECK(w.lightmaps[0].rgb[3 * 777 + 1] == Approx(80.0 / 255));

    RoomOptions vl;
    vl.vertexLit = true;
    World v = decodeQ3(makeRoomMap(vl));
    CHECK(v.lightmaps.empty());
    for (const Surface& s : v.surfaces) CHECK(s.lightmapPage == -3);
    CHECK(v.vertices[8].color.x == Approx(ob(64)));  // west wall red
    CHECK(v.vertices[8].color.y == 0.0f);
}
