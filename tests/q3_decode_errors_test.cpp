// The Quake 3 decoder on bad input: each validation rule's DecodeError names the lump and byte offset; lump
// ranges outside the file, every truncation and random corruption give a DecodeError and nothing else; external
// lightmap files beside the map.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <set>

#include "luxel/bsp/decode.hpp"
#include "luxel/util/error.hpp"
#include "support/decode_helpers.hpp"
#include "support/q3_writer.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

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
        Q3MapBuilder b = fullQ3Map();
        REQUIRE_NOTHROW(decodeQ3(b));
        m.apply(b);
        auto file = b.build();
        try {
            decodeMap(q3MemorySource(file));
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
    Q3MapBuilder b = fullQ3Map();
    b.faces[1].effect = 1;
    b.faces[4].effect = 7;
    World w = decodeQ3(b);
    REQUIRE(w.problems.size() == 1);
    CHECK_THAT(w.problems[0], Catch::Contains("2 faces (first: face 1)"));
    CHECK(w.surfaces.size() == 9);
}

TEST_CASE("lump directory entries outside the file are rejected", "[q3decode]") {
    auto file = fullQ3Map().build();
    SECTION("length past the end") {
        auto bad = file;
        uint32_t len = 0x10000000;
        std::memcpy(bad.data() + 8 + 13 * 8 + 4, &len, 4);
        CHECK_THROWS_MATCHES(decodeMap(q3MemorySource(bad)), DecodeError, Catch::Predicate<DecodeError>([](const DecodeError& e) {
                                 return e.lump() == "faces" && e.offset() == 8 + 13 * 8;
                             }));
    }
    SECTION("negative offset") {
        auto bad = file;
        int32_t off = -8;
        std::memcpy(bad.data() + 8 + 2 * 8, &off, 4);
        CHECK_THROWS_MATCHES(decodeMap(q3MemorySource(bad)), DecodeError, Catch::Predicate<DecodeError>([](const DecodeError& e) {
                                 return e.lump() == "planes" && e.offset() == 8 + 2 * 8;
                             }));
    }
    SECTION("offset + length overflowing 32 bits") {
        auto bad = file;
        int32_t off = 0x7ffffff0, len = 0x7ffffff0;
        std::memcpy(bad.data() + 8 + 10 * 8, &off, 4);
        std::memcpy(bad.data() + 8 + 10 * 8 + 4, &len, 4);
        CHECK_THROWS_MATCHES(decodeMap(q3MemorySource(bad)), DecodeError, Catch::Predicate<DecodeError>([](const DecodeError& e) {
                                 return e.lump() == "vertexes" && e.offset() == 8 + 10 * 8;
                             }));
    }
    SECTION("wrong version") {
        auto bad = file;
        bad[4] = 47;
        CHECK_THROWS_AS(decodeQuake3(q3MemorySource(bad)), DecodeError);
    }
}

TEST_CASE("truncated files throw DecodeError at every cut point", "[q3decode]") {
    auto file = fullQ3Map().build();
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
        if (c < lastLumpEnd) CHECK_THROWS_AS(decodeMap(q3MemorySource(part)), DecodeError);
    }
}

TEST_CASE("random byte corruption gives a World or a DecodeError, nothing else", "[q3decode]") {
    const auto file = fullQ3Map().build();
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
            decodeMap(q3MemorySource(bad));
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
    World w = decodeMap(q3MemorySource(b.build(), files, &opened));
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
        auto src = q3MemorySource(b.build(), files);
        try {
            decodeMap(src);
            FAIL("no error");
        } catch (const DecodeError& e) {
            CHECK_THAT(std::string(e.what()), Catch::Contains("mem/lm_0002.tga"));
            CHECK(e.lump() == "lightmaps");
        }
    }
    SECTION("no openRelated at all") {
        auto src = q3MemorySource(b.build());
        src.openRelated = nullptr;
        CHECK_THROWS_AS(decodeMap(src), DecodeError);
    }
}

// ---- Real maps --------------------------------------------------------------------------------------
