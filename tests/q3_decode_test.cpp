#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <unistd.h>

#include "luxel/bsp/decode.hpp"
#include "luxel/bsp/entities.hpp"
#include "luxel/util/error.hpp"
#include "support/decode_helpers.hpp"
#include "support/q3_writer.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;

namespace {

// In-memory maps are "mem.bsp" here (errors name it; external lightmaps are looked up under "mem/").
MapSource memSource(std::vector<uint8_t> bytes, std::map<std::string, Bytes> related = {},
                    std::vector<std::string>* opened = nullptr) {
    return memorySource(std::move(bytes), "mem.bsp", std::move(related), opened);
}

World decode(const Q3MapBuilder& b) { return decodeMap(memSource(b.build())); }

float ob(int byte) { return 4.0f * float(byte) / 255.0f; }

Bytes readBytes(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    return Bytes(std::istreambuf_iterator<char>(f), {});
}

MapSource fileSource(const fs::path& p) {
    MapSource s;
    s.displayName = p.string();
    s.mapName = p.stem().string();
    s.bytes = readBytes(p);
    fs::path dir = p.parent_path();
    s.openRelated = [dir](const std::string& rel) -> std::optional<Bytes> {
        fs::path q = dir / rel;
        if (!fs::exists(q)) return std::nullopt;
        return readBytes(q);
    };
    return s;
}

// An uncompressed 24-bit TGA with top-left origin, every pixel `rgb`.
Bytes makeTga(int w, int h, std::array<uint8_t, 3> rgb) {
    Bytes t(18, 0);
    t[2] = 2;
    t[12] = uint8_t(w & 255); t[13] = uint8_t(w >> 8);
    t[14] = uint8_t(h & 255); t[15] = uint8_t(h >> 8);
    t[16] = 24;
    t[17] = 0x20;
    for (int i = 0; i < w * h; ++i) { t.push_back(rgb[2]); t.push_back(rgb[1]); t.push_back(rgb[0]); }
    return t;
}

// The room map plus one of everything else: flagged textures, a mesh, a patch, a billboard, a brush with
// sides, leaf brushes, an effect and a light grid.
Q3MapBuilder fullMap() {
    RoomOptions opt;
    opt.lightGrid = true;
    opt.gridAngles = {64, 64};  // polar 90 deg, azimuth 90 deg: +Y
    Q3MapBuilder b = makeRoomMap(opt);
    b.addTexture("textures/skies/sky", kQ3SurfSky);             // 1
    b.addTexture("textures/common/nodraw", kQ3SurfNoDraw);      // 2
    b.addTexture("textures/common/hint", kQ3SurfHint);          // 3
    b.addTexture("textures/common/skip", kQ3SurfSkip);          // 4
    b.addTexture("textures/luxel/vertexlit", kQ3SurfNoLightmap, 0);  // 5
    // 6: mesh (triangle soup) with two triangles over 4 vertices, vertex lit.
    int32_t mesh = b.addPolygon({{0, 0, 8}, {16, 0, 8}, {16, 16, 8}, {0, 16, 8}}, {0, 0, 1}, 5, -3,
                                {{0, 0}, {0, 0}, {0, 0}, {0, 0}}, {10, 20, 30, 128});
    b.faces[size_t(mesh)].type = kQ3Mesh;
    b.meshVerts[size_t(b.faces[size_t(mesh)].firstMeshVert) + 4] = 3;  // (0,2,3) stays in range
    // 7: 3x3 patch on lightmap 1.
    std::vector<Q3Vertex> cps(9);
    for (int i = 0; i < 9; ++i) {
        cps[size_t(i)].position = {float(i % 3) * 32, float(i / 3) * 32, 64};
        cps[size_t(i)].lightmapUV = {float(i % 3) * 0.5f, float(i / 3) * 0.5f};
        cps[size_t(i)].normal = {0, 0, 1};
    }
    b.addPatch(3, 3, cps, 0, 1);
    // 8: flare.
    b.addBillboard({1, 2, 3}, {0.25f, 0.5f, 1.0f}, {0, 0, -1}, 2);
    b.models[0].numFaces = int32_t(b.faces.size());
    b.leafFaces.push_back(6);
    b.leafFaces.push_back(7);
    b.leaves[0].numLeafFaces = 8;
    // One brush with 6 sides on the room's planes, in leaf 0 and models[0].
    for (int i = 0; i < 6; ++i) b.brushSides.push_back({2 * i, 0});
    b.brushes.push_back({0, 6, 0});
    b.leafBrushes.push_back(0);
    b.leaves[0].firstLeafBrush = 0;
    b.leaves[0].numLeafBrushes = 1;
    b.models[0].numBrushes = 1;
    b.effects.push_back({"textures/fog/thick", 0, 5});
    b.faces[0].effect = 0;
    return b;
}

}  // namespace

TEST_CASE("room map decodes to the records written", "[q3decode]") {
    const Q3MapBuilder b = fullMap();
    const World w = decode(b);

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
        World w = decode(makeRoomMap(opt));
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
            World w = decode(makeRoomMap(opt));
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
        World w = decode(b);
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
        World w = decode(b);
        REQUIRE(w.grid);
        CHECK(w.grid->dims == std::array<int32_t, 3>{6, 2, 2});
        CHECK(w.grid->origin == Vec3{-192, -64, 128});
    }
    SECTION("size mismatch drops the grid with a problem message") {
        RoomOptions opt;
        opt.lightGrid = true;
        Q3MapBuilder b = makeRoomMap(opt);
        b.lightGrid.resize(b.lightGrid.size() - 8);
        World w = decode(b);
        CHECK_FALSE(w.grid);
        REQUIRE(w.problems.size() == 1);
        CHECK_THAT(w.problems[0], Catch::Contains("light grid"));
    }
    SECTION("no lightvols lump: no grid, no problem") {
        World w = decode(makeRoomMap());
        CHECK_FALSE(w.grid);
        CHECK(w.problems.empty());
    }
}

TEST_CASE("two-room map carries a PVS where the rooms cannot see each other", "[q3decode]") {
    World w = decode(makeTwoRoomMap(false));
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
    World v = decode(makeTwoRoomMap(true));
    CHECK(v.pvs.visible(0, 1));
    CHECK(v.pvs.visible(1, 0));
}

TEST_CASE("room walls are wound clockwise seen from inside", "[q3decode]") {
    World w = decode(makeRoomMap());
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
    World w = decode(makeRoomMap(shared));
    REQUIRE(w.lightmaps.size() == 1);
    for (const Surface& s : w.surfaces) CHECK(s.lightmapPage == 0);
    CHECK(w.lightmaps[0].rgb[3 * 777 + 1] == Approx(80.0 / 255));

    RoomOptions vl;
    vl.vertexLit = true;
    World v = decode(makeRoomMap(vl));
    CHECK(v.lightmaps.empty());
    for (const Surface& s : v.surfaces) CHECK(s.lightmapPage == -3);
    CHECK(v.vertices[8].color.x == Approx(ob(64)));  // west wall red
    CHECK(v.vertices[8].color.y == 0.0f);
}

namespace {
struct Mutation {
    const char* what;
    std::function<void(Q3MapBuilder&)> apply;
    int lump;           // lump whose name the error must carry
    size_t record;      // record index in that lump
    size_t recordSize;  // bytes per record
    size_t field;       // byte offset of the field in the record
    const char* lumpName;
};
}  // namespace

TEST_CASE("each validation rule throws DecodeError naming the lump and byte offset", "[q3decode]") {
    const std::vector<Mutation> cases = {
        {"face texture", [](Q3MapBuilder& b) { b.faces[2].texture = 6; }, kQ3Faces, 2, 104, 0, "faces"},
        {"face negative texture", [](Q3MapBuilder& b) { b.faces[0].texture = -1; }, kQ3Faces, 0, 104, 0, "faces"},
        {"face type", [](Q3MapBuilder& b) { b.faces[3].type = 9; }, kQ3Faces, 3, 104, 8, "faces"},
        {"face vertex range", [](Q3MapBuilder& b) { b.faces[4].numVertices = 1000; }, kQ3Faces, 4, 104, 12, "faces"},
        {"face negative first vertex", [](Q3MapBuilder& b) { b.faces[4].firstVertex = -4; }, kQ3Faces, 4, 104, 12, "faces"},
        {"face meshvert range", [](Q3MapBuilder& b) { b.faces[5].firstMeshVert = 40; }, kQ3Faces, 5, 104, 20, "faces"},
        {"face meshvert count", [](Q3MapBuilder& b) { b.faces[5].numMeshVerts = 5; }, kQ3Faces, 5, 104, 24, "faces"},
        {"meshvert index >= face vertex count", [](Q3MapBuilder& b) { b.meshVerts[13] = 4; }, kQ3MeshVerts, 13, 4, 0, "meshverts"},
        {"meshvert index negative", [](Q3MapBuilder& b) { b.meshVerts[0] = -1; }, kQ3MeshVerts, 0, 4, 0, "meshverts"},
        {"lightmap index", [](Q3MapBuilder& b) { b.faces[1].lightmap = 6; }, kQ3Faces, 1, 104, 28, "faces"},
        {"patch even width", [](Q3MapBuilder& b) { b.faces[7].size = {2, 3}; b.faces[7].numVertices = 6; }, kQ3Faces, 7, 104, 96, "faces"},
        {"patch too small", [](Q3MapBuilder& b) { b.faces[7].size = {1, 9}; }, kQ3Faces, 7, 104, 96, "faces"},
        {"patch too large", [](Q3MapBuilder& b) { b.faces[7].size = {33, 3}; }, kQ3Faces, 7, 104, 96, "faces"},
        {"patch size vs vertices", [](Q3MapBuilder& b) { b.faces[7].size = {3, 5}; }, kQ3Faces, 7, 104, 96, "faces"},
        {"leaf face range", [](Q3MapBuilder& b) { b.leaves[0].numLeafFaces = 9; }, kQ3Leafs, 0, 48, 32, "leafs"},
        {"leaf brush range", [](Q3MapBuilder& b) { b.leaves[2].firstLeafBrush = 1; b.leaves[2].numLeafBrushes = 1; }, kQ3Leafs, 2, 48, 40, "leafs"},
        {"leaf cluster past visdata", [](Q3MapBuilder& b) { b.leaves[0].cluster = 1; }, kQ3Leafs, 0, 48, 0, "leafs"},
        {"leaf cluster below -1", [](Q3MapBuilder& b) { b.leaves[3].cluster = -2; }, kQ3Leafs, 3, 48, 0, "leafs"},
        {"leaf face value", [](Q3MapBuilder& b) { b.leafFaces[3] = 9; }, kQ3LeafFaces, 3, 4, 0, "leaffaces"},
        {"leaf brush value", [](Q3MapBuilder& b) { b.leafBrushes[0] = 1; }, kQ3LeafBrushes, 0, 4, 0, "leafbrushes"},
        {"node plane", [](Q3MapBuilder& b) { b.nodes[2].plane = 12; }, kQ3Nodes, 2, 36, 0, "nodes"},
        {"node child cycle", [](Q3MapBuilder& b) { b.nodes[3].children[0] = 1; }, kQ3Nodes, 3, 36, 4, "nodes"},
        {"node child self", [](Q3MapBuilder& b) { b.nodes[1].children[1] = 1; }, kQ3Nodes, 1, 36, 8, "nodes"},
        {"node child node past end", [](Q3MapBuilder& b) { b.nodes[5].children[0] = 6; }, kQ3Nodes, 5, 36, 4, "nodes"},
        {"node child leaf", [](Q3MapBuilder& b) { b.nodes[0].children[1] = -8; }, kQ3Nodes, 0, 36, 8, "nodes"},
        {"model face range", [](Q3MapBuilder& b) { b.models[0].numFaces = 10; }, kQ3Models, 0, 40, 24, "models"},
        {"model brush range", [](Q3MapBuilder& b) { b.models[0].firstBrush = 1; }, kQ3Models, 0, 40, 32, "models"},
        {"brush side range", [](Q3MapBuilder& b) { b.brushes[0].numSides = 7; }, kQ3Brushes, 0, 12, 0, "brushes"},
        {"brush texture", [](Q3MapBuilder& b) { b.brushes[0].texture = 6; }, kQ3Brushes, 0, 12, 8, "brushes"},
        {"brush side plane", [](Q3MapBuilder& b) { b.brushSides[4].plane = 12; }, kQ3BrushSides, 4, 8, 0, "brushsides"},
        {"brush side texture", [](Q3MapBuilder& b) { b.brushSides[5].texture = -1; }, kQ3BrushSides, 5, 8, 4, "brushsides"},
        {"effect brush", [](Q3MapBuilder& b) { b.effects[0].brush = 1; }, kQ3Effects, 0, 72, 64, "effects"},
        {"vis row size", [](Q3MapBuilder& b) { b.vis = Q3Vis{9, 1, std::vector<uint8_t>(9, 0)}; }, kQ3VisData, 0, 0, 4, "visdata"},
        {"vis negative clusters", [](Q3MapBuilder& b) { b.vis = Q3Vis{-1, 1, {}}; }, kQ3VisData, 0, 0, 0, "visdata"},
        {"vis rows past lump", [](Q3MapBuilder& b) { b.vis = Q3Vis{3, 2, std::vector<uint8_t>(5, 0)}; }, kQ3VisData, 0, 0, 0, "visdata"},
        {"vis rows overflow", [](Q3MapBuilder& b) { b.vis = Q3Vis{0x7fffffff, 0x7fffffff, {}}; }, kQ3VisData, 0, 0, 0, "visdata"},
        {"faces record size", [](Q3MapBuilder& b) { b.rawLumps[kQ3Faces] = std::vector<uint8_t>(105, 0); }, kQ3Faces, 0, 0, 0, "faces"},
        {"vertex record size", [](Q3MapBuilder& b) { b.rawLumps[kQ3Vertexes] = std::vector<uint8_t>(45, 0); }, kQ3Vertexes, 0, 0, 0, "vertexes"},
        {"lightmap record size", [](Q3MapBuilder& b) { b.rawLumps[kQ3Lightmaps] = std::vector<uint8_t>(49151, 0); }, kQ3Lightmaps, 0, 0, 0, "lightmaps"},
        {"plane record size", [](Q3MapBuilder& b) { b.rawLumps[kQ3Planes] = std::vector<uint8_t>(17, 0); }, kQ3Planes, 0, 0, 0, "planes"},
        {"unbalanced entity braces", [](Q3MapBuilder& b) { b.entities = "{\n\"classname\" \"worldspawn\"\n"; }, kQ3Entities, 0, 0, 0, "entities"},
    };
    for (const auto& m : cases) {
        INFO(m.what);
        Q3MapBuilder b = fullMap();
        REQUIRE_NOTHROW(decode(b));
        m.apply(b);
        auto file = b.build();
        try {
            decodeMap(memSource(file));
            FAIL("no DecodeError");
        } catch (const DecodeError& e) {
            INFO(e.what());
            CHECK(e.lump() == m.lumpName);
            CHECK(e.file() == "mem.bsp");
            CHECK(e.offset() == q3LumpRange(file, m.lump).first + m.record * m.recordSize + m.field);
        }
    }
}

TEST_CASE("a face naming a missing effect is noted, not rejected", "[q3decode]") {
    Q3MapBuilder b = fullMap();
    b.faces[1].effect = 1;
    b.faces[4].effect = 7;
    World w = decode(b);
    REQUIRE(w.problems.size() == 1);
    CHECK_THAT(w.problems[0], Catch::Contains("2 faces (first: face 1)"));
    CHECK(w.surfaces.size() == 9);
}

TEST_CASE("lump directory entries outside the file are rejected", "[q3decode]") {
    auto file = fullMap().build();
    SECTION("length past the end") {
        auto bad = file;
        uint32_t len = 0x10000000;
        std::memcpy(bad.data() + 8 + 13 * 8 + 4, &len, 4);
        CHECK_THROWS_MATCHES(decodeMap(memSource(bad)), DecodeError, Catch::Predicate<DecodeError>([](const DecodeError& e) {
                                 return e.lump() == "faces" && e.offset() == 8 + 13 * 8;
                             }));
    }
    SECTION("negative offset") {
        auto bad = file;
        int32_t off = -8;
        std::memcpy(bad.data() + 8 + 2 * 8, &off, 4);
        CHECK_THROWS_MATCHES(decodeMap(memSource(bad)), DecodeError, Catch::Predicate<DecodeError>([](const DecodeError& e) {
                                 return e.lump() == "planes" && e.offset() == 8 + 2 * 8;
                             }));
    }
    SECTION("offset + length overflowing 32 bits") {
        auto bad = file;
        int32_t off = 0x7ffffff0, len = 0x7ffffff0;
        std::memcpy(bad.data() + 8 + 10 * 8, &off, 4);
        std::memcpy(bad.data() + 8 + 10 * 8 + 4, &len, 4);
        CHECK_THROWS_MATCHES(decodeMap(memSource(bad)), DecodeError, Catch::Predicate<DecodeError>([](const DecodeError& e) {
                                 return e.lump() == "vertexes" && e.offset() == 8 + 10 * 8;
                             }));
    }
    SECTION("wrong version") {
        auto bad = file;
        bad[4] = 47;
        CHECK_THROWS_AS(decodeQuake3(memSource(bad)), DecodeError);
    }
}

TEST_CASE("truncated files throw DecodeError at every cut point", "[q3decode]") {
    auto file = fullMap().build();
    auto [visOff, visLen] = q3LumpRange(file, kQ3VisData);
    const size_t lastLumpEnd = visOff + visLen;
    std::vector<size_t> cuts = {0, 1, 4, 7, 8, 9, 100, 143, 144, 145};
    for (int l = 0; l < kQ3LumpCount; ++l) {
        auto [off, len] = q3LumpRange(file, l);
        for (size_t c : {size_t(off), size_t(off) + 1, size_t(off) + len / 2, size_t(off) + len - 1}) cuts.push_back(c);
    }
    for (size_t c = 0; c < file.size(); c += 997) cuts.push_back(c);
    for (size_t c : cuts) {
        if (c >= file.size()) continue;
        INFO("cut at " << c << " of " << file.size());
        std::vector<uint8_t> part(file.begin(), file.begin() + long(c));
        if (c < lastLumpEnd) CHECK_THROWS_AS(decodeMap(memSource(part)), DecodeError);
    }
}

TEST_CASE("random byte corruption gives a World or a DecodeError, nothing else", "[q3decode]") {
    const auto file = fullMap().build();
    std::mt19937 rng(1234);
    int decoded = 0, rejected = 0;
    for (int trial = 0; trial < 400; ++trial) {
        auto bad = file;
        int flips = 1 + int(rng() % 8);
        for (int i = 0; i < flips; ++i) {
            // Bias toward the small structural lumps rather than lightmap texels.
            size_t at = trial % 2 ? rng() % file.size() : rng() % std::min<size_t>(file.size(), 2048 + q3LumpRange(file, kQ3Faces).first);
            bad[at] = uint8_t(rng());
        }
        try {
            decodeMap(memSource(bad));
            ++decoded;
        } catch (const DecodeError&) {
            ++rejected;
        }
    }
    CHECK(decoded + rejected == 400);
    CHECK(rejected > 0);
}

TEST_CASE("external lightmaps load the referenced lm_NNNN.tga files, and probe their odd successors for deluxe maps",
          "[q3decode]") {
    Q3MapBuilder b = makeRoomMap();
    b.lightmaps.clear();  // empty lightmap lump: pages come from files beside the map
    for (int i = 0; i < 6; ++i) b.faces[size_t(i)].lightmap = (i % 3) * 2;  // 0, 2, 4 like -deluxe output
    std::map<std::string, Bytes> files = {{"mem/lm_0000.tga", makeTga(4, 2, {255, 0, 51})},
                                          {"mem/lm_0001.tga", makeTga(4, 2, {1, 1, 1})},
                                          {"mem/lm_0002.tga", makeTga(8, 8, {0, 102, 0})},
                                          {"mem/lm_0004.tga", makeTga(2, 2, {17, 34, 68})}};
    std::vector<std::string> opened;
    World w = decodeMap(memSource(b.build(), files, &opened));
    std::set<std::string> openedSet(opened.begin(), opened.end());
    // Every face on an even page: lm_0001 (present) and lm_0003 (missing) are looked for as direction pages;
    // with lm_0003 missing the map has no deluxe maps.
    CHECK(openedSet == std::set<std::string>{"mem/lm_0000.tga", "mem/lm_0001.tga", "mem/lm_0002.tga",
                                             "mem/lm_0003.tga", "mem/lm_0004.tga"});
    CHECK(w.deluxemaps.empty());
    REQUIRE(w.lightmaps.size() == 5);
    CHECK(w.lightmaps[1].width == 0);
    CHECK(w.lightmaps[3].width == 0);
    CHECK(w.lightmaps[0].width == 4);
    CHECK(w.lightmaps[0].height == 2);
    REQUIRE(w.lightmaps[0].rgb.size() == 4 * 2 * 3);
    CHECK(w.lightmaps[0].rgb[0] == Approx(4.0));
    CHECK(w.lightmaps[0].rgb[1] == Approx(0.0));
    CHECK(w.lightmaps[0].rgb[2] == Approx(0.8));
    CHECK(w.lightmaps[2].width == 8);
    CHECK(w.lightmaps[2].rgb[7 * 3 + 1] == Approx(1.6));
    CHECK(w.lightmaps[4].rgb[3 * 3 + 2] == Approx(4.0 * 68 / 255));
    for (int i = 0; i < 6; ++i) CHECK(w.surfaces[size_t(i)].lightmapPage == (i % 3) * 2);

    SECTION("a missing file is a DecodeError naming it") {
        files.erase("mem/lm_0002.tga");
        auto src = memSource(b.build(), files);
        try {
            decodeMap(src);
            FAIL("no error");
        } catch (const DecodeError& e) {
            CHECK_THAT(std::string(e.what()), Catch::Contains("mem/lm_0002.tga"));
            CHECK(e.lump() == "lightmaps");
        }
    }
    SECTION("no openRelated at all") {
        auto src = memSource(b.build());
        src.openRelated = nullptr;
        CHECK_THROWS_AS(decodeMap(src), DecodeError);
    }
}

// ---- Real maps --------------------------------------------------------------------------------------

namespace {

// Invariants every decoded real map must satisfy, checked from the file's own lump directory.
void checkRealMap(const MapSource& src, const World& w) {
    const auto& f = src.bytes;
    auto lumpLen = [&](int l) { return q3LumpRange(f, l).second; };
    CHECK(w.lumps.size() == 17);
    CHECK(w.materials.size() == lumpLen(kQ3Textures) / 72);
    CHECK(w.planes.size() == lumpLen(kQ3Planes) / 16);
    CHECK(w.nodes.size() == lumpLen(kQ3Nodes) / 36);
    CHECK(w.leaves.size() == lumpLen(kQ3Leafs) / 48);
    CHECK(w.leafSurfaces.size() == lumpLen(kQ3LeafFaces) / 4);
    CHECK(w.models.size() == lumpLen(kQ3Models) / 40);
    CHECK(w.vertices.size() == lumpLen(kQ3Vertexes) / 44);
    CHECK(w.surfaces.size() == lumpLen(kQ3Faces) / 104);
    if (lumpLen(kQ3Lightmaps) > 0) CHECK(w.lightmaps.size() == lumpLen(kQ3Lightmaps) / (128 * 128 * 3));
    bool allValid = true;
    for (const Surface& s : w.surfaces) {
        allValid &= s.firstVertex + s.numVertices <= w.vertices.size();
        allValid &= s.firstIndex + s.numIndices <= w.indices.size();
        for (uint32_t k = 0; k < s.numIndices; ++k) allValid &= w.indices[s.firstIndex + k] < s.numVertices;
        allValid &= s.material >= 0 && size_t(s.material) < w.materials.size();
        if (s.lightmapPage >= 0) {
            allValid &= size_t(s.lightmapPage) < w.lightmaps.size() && w.lightmaps[size_t(s.lightmapPage)].width > 0;
        }
        if (s.kind == SurfaceKind::Patch) allValid &= uint32_t(s.patchWidth * s.patchHeight) == s.numVertices;
    }
    CHECK(allValid);
    for (uint32_t ls : w.leafSurfaces) allValid &= ls < w.surfaces.size();
    for (const Leaf& l : w.leaves) {
        allValid &= l.firstLeafSurface + l.numLeafSurfaces <= w.leafSurfaces.size();
        allValid &= w.pvs.empty() || l.cluster < w.pvs.numClusters;
    }
    CHECK(allValid);
    // Quake 3 planes come in flipped pairs (q3map2 recomputes the flip, so allow float noise).
    bool pairs = w.planes.size() % 2 == 0;
    for (size_t i = 0; pairs && i + 1 < w.planes.size(); i += 2)
        pairs = length(w.planes[i].normal + w.planes[i + 1].normal) < 1e-5f &&
                std::abs(w.planes[i].dist + w.planes[i + 1].dist) < 1e-3f;
    CHECK(pairs);
    // Overbright colour: vertex rgb never exceeds 4, alpha never exceeds 1.
    bool colours = true;
    for (const Vertex& v : w.vertices) colours &= v.color.x <= 4.0f && v.color.w <= 1.0f && v.color.x >= 0.0f;
    CHECK(colours);
    REQUIRE_FALSE(w.entities.empty());
    CHECK(*w.entities[0].get("classname") == "worldspawn");
    // Grid present exactly when the lump is, and then the sizes agree (the engine's float32 rule).
    if (lumpLen(kQ3LightVols) > 0) {
        REQUIRE(w.grid);
        CHECK(w.grid->samples.size() * 8 == lumpLen(kQ3LightVols));
        CHECK(size_t(w.grid->dims[0]) * size_t(w.grid->dims[1]) * size_t(w.grid->dims[2]) == w.grid->samples.size());
    } else {
        CHECK_FALSE(w.grid);
    }
    // Only tolerated oddities: faces naming fogs that do not exist (OpenArena aggressor has them).
    for (const auto& p : w.problems) CHECK_THAT(p, Catch::Contains("effects that do not exist"));
}

}  // namespace

TEST_CASE("every shared Quake 3 map decodes and satisfies the invariants", "[q3decode][maps]") {
    fs::path dir = fs::path(LUXEL_SHARED_MAPS) / "q3";
    if (!fs::exists(dir)) {
        WARN("SKIPPED: " << dir << " not found");
        return;
    }
    int n = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.path().extension() != ".bsp") continue;
        INFO(entry.path());
        MapSource src = fileSource(entry.path());
        World w = decodeMap(src);
        checkRealMap(src, w);
        ++n;
    }
    CHECK(n >= 6);
}

TEST_CASE("known facts of the shared Quake 3 maps", "[q3decode][maps]") {
    fs::path dir = fs::path(LUXEL_SHARED_MAPS) / "q3";
    if (!fs::exists(dir)) {
        WARN("SKIPPED: " << dir << " not found");
        return;
    }
    auto load = [&](const char* name) { return decodeMap(fileSource(dir / name)); };
    auto countKind = [](const World& w, SurfaceKind k) {
        return std::count_if(w.surfaces.begin(), w.surfaces.end(), [k](const Surface& s) { return s.kind == k; });
    };
    SECTION("bsptool_q3_mp_lobby: 6 polygons, 2 lightmaps, light grid, 8 clusters") {
        World w = load("bsptool_q3_mp_lobby.bsp");
        CHECK(countKind(w, SurfaceKind::Polygon) == 6);
        CHECK(w.lightmaps.size() == 2);
        CHECK(w.grid.has_value());
        CHECK(w.pvs.numClusters == 8);
    }
    SECTION("oa081_oa_ctf2: no lightmaps, no grid, no vis, 42 patches") {
        World w = load("oa081_oa_ctf2.bsp");
        CHECK(w.lightmaps.empty());
        CHECK_FALSE(w.grid.has_value());
        CHECK(w.pvs.empty());
        CHECK(countKind(w, SurfaceKind::Patch) == 42);
    }
    SECTION("oa088_am_thornish: 520 patches, 226 meshes, 135 flares, 8 lightmaps") {
        World w = load("oa088_am_thornish.bsp");
        CHECK(countKind(w, SurfaceKind::Patch) == 520);
        CHECK(countKind(w, SurfaceKind::Mesh) == 226);
        CHECK(countKind(w, SurfaceKind::Billboard) == 135);
        CHECK(w.lightmaps.size() == 8);
    }
    SECTION("oa088_aggressor: 66 flares, 402 clusters, 3 lightmaps") {
        World w = load("oa088_aggressor.bsp");
        CHECK(countKind(w, SurfaceKind::Billboard) == 66);
        CHECK(w.pvs.numClusters == 402);
        CHECK(w.lightmaps.size() == 3);
    }
    SECTION("oa085_ctf_compromise: 4628 faces, 102 lightmaps, 3364 clusters") {
        World w = load("oa085_ctf_compromise.bsp");
        CHECK(w.surfaces.size() == 4628);
        CHECK(w.lightmaps.size() == 102);
        CHECK(w.pvs.numClusters == 3364);
    }
    SECTION("nexuiz_eggandbacon: external 512x512 lightmaps, even indices only") {
        World w = load("nexuiz_eggandbacon.bsp");
        CHECK(q3LumpRange(fileSource(dir / "nexuiz_eggandbacon.bsp").bytes, kQ3Lightmaps).second == 0);
        bool anyLit = false, evenOnly = true;
        for (const Surface& s : w.surfaces)
            if (s.lightmapPage >= 0) {
                anyLit = true;
                evenOnly &= s.lightmapPage % 2 == 0;
            }
        CHECK(anyLit);
        CHECK(evenOnly);
        for (size_t i = 0; i < w.lightmaps.size(); ++i) {
            INFO("page " << i);
            if (i % 2 == 0) {
                CHECK(w.lightmaps[i].width == 512);
                CHECK(w.lightmaps[i].height == 512);
                CHECK(w.lightmaps[i].rgb.size() == 512u * 512u * 3u);
            } else {
                CHECK(w.lightmaps[i].width == 0);  // deluxe direction maps are not loaded
            }
        }
        MapSource noFiles = fileSource(dir / "nexuiz_eggandbacon.bsp");
        noFiles.openRelated = [](const std::string&) { return std::optional<Bytes>(); };
        CHECK_THROWS_WITH(decodeMap(noFiles), Catch::Contains("nexuiz_eggandbacon/lm_0000.tga"));
    }
}

TEST_CASE("OpenArena pk3 maps decode and satisfy the invariants", "[q3decode][maps]") {
    const fs::path base = "/usr/share/games/openarena/baseoa";
    if (!fs::exists(base) || std::system("command -v unzip >/dev/null 2>&1") != 0) {
        WARN("SKIPPED: " << base << " or unzip not available");
        return;
    }
    int n = 0;
    for (const char* pk3 : {"pak1-maps.pk3", "pak6-patch085.pk3", "pak6-patch088.pk3"}) {
        if (!fs::exists(base / pk3)) continue;
        fs::path tmp = fs::temp_directory_path() / ("luxel_q3decode_" + std::to_string(::getpid()));
        fs::create_directories(tmp);
        std::string cmd = "unzip -qq -o '" + (base / pk3).string() + "' 'maps/*.bsp' -d '" + tmp.string() + "' >/dev/null 2>&1";
        if (std::system(cmd.c_str()) == 0) {
            for (const auto& entry : fs::directory_iterator(tmp / "maps")) {
                if (entry.path().extension() != ".bsp") continue;
                INFO(pk3 << ": " << entry.path().filename());
                MapSource src = fileSource(entry.path());
                World w = decodeMap(src);
                checkRealMap(src, w);
                ++n;
            }
        }
        fs::remove_all(tmp);
    }
    if (n == 0) WARN("SKIPPED: no OpenArena maps could be extracted");
}

TEST_CASE("decode time of the largest shared map", "[.][q3bench]") {
    fs::path p = fs::path(LUXEL_SHARED_MAPS) / "q3" / "oa085_ctf_compromise.bsp";
    if (!fs::exists(p)) return;
    MapSource src = fileSource(p);
    double best = 1e9;
    for (int i = 0; i < 10; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        World w = decodeMap(src);
        best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    WARN("oa085_ctf_compromise decode: best of 10 = " << best << " ms");
}
