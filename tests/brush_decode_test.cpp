// World::brushes from Quake 2 and Source maps: which brushes block light by each compiler's rule (qrad3:
// the world tree's CONTENTS_SOLID brushes; vrad: its MASK_OPAQUE brushes, sky and displacement sides without
// faces), and hostile brush lumps refused with a DecodeError. Quake 3's rule is in shadow_casters_test.cpp.
#include <catch2/catch.hpp>

#include "luxel/bsp/decode.hpp"
#include "luxel/geometry/brush_faces.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/util/error.hpp"
#include "support/decode_helpers.hpp"
#include "support/q2_writer.hpp"
#include "support/test_paths.hpp"
#include "support/vbsp_writer.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

constexpr int32_t kQ2ContentsWindow = 2;

// makeQ2FloorMap (whose brush 0 is one side on the floor plane, in solid leaf 0) plus a 32 x 32 x 10 box
// brush at z 100..110 with this contents and side texinfo, listed by leaf 0 (under node 0) or, when
// `unreachable`, by a leaf no node names.
Q2MapBuilder q2Box(int32_t contents, int32_t texinfoFlags = 0, bool unreachable = false) {
    Q2MapBuilder b = makeQ2FloorMap();
    const int16_t texinfo = int16_t(b.addTexinfo({1, 0, 0, 0}, {0, 1, 0, 0}, texinfoFlags, "e1u1/box"));
    const int32_t first = int32_t(b.brushSides.size());
    for (const auto& [n, d] : std::vector<std::pair<Vec3, float>>{
             {{-1, 0, 0}, 16}, {{1, 0, 0}, 16}, {{0, -1, 0}, 16}, {{0, 1, 0}, 16}, {{0, 0, -1}, -100}, {{0, 0, 1}, 110}})
        b.brushSides.push_back({uint16_t(b.addPlane(n, d)), texinfo});
    b.brushes.push_back({first, 6, contents});
    b.leafBrushes.push_back(uint16_t(b.brushes.size() - 1));
    if (unreachable) {
        b.addLeaf(-1, {}, 0, kQ2ContentsSolid);
        b.leaves.back().firstLeafBrush = uint16_t(b.leafBrushes.size() - 1);
        b.leaves.back().numLeafBrushes = 1;
    } else {
        b.leaves.at(0).numLeafBrushes = 2;
    }
    return b;
}

}  // namespace

TEST_CASE("Quake 2 brushes: the world tree's solid brushes block light, sky brushes let suns through", "[blockers]") {
    const World box = decodeBytes(q2Box(kQ2ContentsSolid).build());
    REQUIRE(box.brushes.size() == 2);  // the floor map's one-sided brush and the box
    CHECK(box.brushes[1].numSides == 6);
    for (uint32_t s = box.brushes[1].firstSide; s < box.brushes[1].firstSide + 6; ++s) {
        CHECK_FALSE(box.brushSides[s].sky);
        CHECK_FALSE(box.brushSides[s].bevel);
    }
    // The one-sided brush closes nothing: only the box has faces.
    const BrushFaces faces = brushFaces(box);
    CHECK(faces.triangleCount() == 12);
    for (const Vec3& p : faces.vertices) {
        CHECK(std::abs(p.x) <= 16.001f);
        CHECK((p.z >= 99.999f && p.z <= 110.001f));
    }

    CHECK(decodeBytes(q2Box(kQ2ContentsWindow).build()).brushes.size() == 1);  // windows let light through
    CHECK(decodeBytes(q2Box(kQ2ContentsSolid, 0, true).build()).brushes.size() == 1);  // not in the world tree

    const World sky = decodeBytes(q2Box(kQ2ContentsSolid, kQ2SurfSky).build());
    REQUIRE(sky.brushes.size() == 2);
    for (uint32_t s = sky.brushes[1].firstSide; s < sky.brushes[1].firstSide + 6; ++s) CHECK(sky.brushSides[s].sky);

    // A side without texinfo is a bevel the compiler added.
    Q2MapBuilder bevel = q2Box(kQ2ContentsSolid);
    bevel.brushSides.back().texinfo = -1;
    const World b = decodeBytes(bevel.build());
    CHECK(b.brushSides.back().bevel);
}

TEST_CASE("Quake 2 brushes: hostile brush records give a DecodeError", "[blockers]") {
    Q2MapBuilder b = q2Box(kQ2ContentsSolid);
    for (int i = 0; i < 1019; ++i) b.brushSides.push_back(b.brushSides[size_t(1 + i % 6)]);
    b.brushes[1].numSides = 1025;
    const std::vector<uint8_t> file = b.build();
    try {
        decodeBytes(file, "mem.bsp");
        FAIL("no DecodeError");
    } catch (const DecodeError& e) {
        CHECK(e.lump() == "brushes");
        CHECK(e.offset() == q2LumpRange(file, kQ2Brushes).first + 12);
        CHECK(std::string(e.what()).find("1025 sides") != std::string::npos);
    }
    Q2MapBuilder plane = q2Box(kQ2ContentsSolid);
    plane.brushSides[3].plane = uint16_t(plane.planes.size());
    CHECK_THROWS_AS(decodeBytes(plane.build()), DecodeError);
}

TEST_CASE("Source brushes: vrad's opaque world brushes, inside the world; hostile brush lumps refused",
          "[blockers][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const std::string path = *sharedMaps() + "/source/sdk2013ce_sdk_vehicles_v20.bsp";
    const Bytes bytes = readFile(path);
    const World w = decodeMap(memorySource(bytes, "v20.bsp"));
    constexpr size_t kBrushes = 18, kBrushSides = 19;
    VbspFile m = readVbsp(bytes);
    const size_t numBrushes = m.lumps[kBrushes].size() / 12, numSides = m.lumps[kBrushSides].size() / 8;
    CHECK(w.brushes.size() > 10);
    CHECK(w.brushes.size() <= numBrushes);
    // Every face of a blocking brush lies inside the world model's bounds (vbsp's bounds enclose its brushes).
    const BrushFaces faces = brushFaces(w);
    CHECK(faces.triangleCount() > 100);
    const Model& world = w.models.at(0);
    for (const Vec3& p : faces.vertices) {
        CHECK(p.x >= world.mins.x - 1);
        CHECK(p.x <= world.maxs.x + 1);
        CHECK(p.z >= world.mins.z - 1);
        CHECK(p.z <= world.maxs.z + 1);
    }

    REQUIRE(numSides > 1);
    {
        // A side's plane index past the planes lump.
        VbspFile bad = m;
        bad.lumps[kBrushSides][0] = 0xff, bad.lumps[kBrushSides][1] = 0xff;
        try {
            decodeMap(memorySource(writeVbsp(bad), "v20.bsp"));
            FAIL("no DecodeError");
        } catch (const DecodeError& e) {
            CHECK(e.lump() == "brushsides");
            CHECK(std::string(e.what()).find("plane index 65535") != std::string::npos);
        }
    }
    {
        // Every brush on all the sides: the second blocking one lists more sides than are stored.
        VbspFile bad = m;
        for (size_t b = 0; b < numBrushes; ++b) {
            uint8_t* r = bad.lumps[kBrushes].data() + b * 12;
            r[0] = r[1] = r[2] = r[3] = 0;
            r[4] = uint8_t(numSides), r[5] = uint8_t(numSides >> 8), r[6] = r[7] = 0;
        }
        try {
            decodeMap(memorySource(writeVbsp(bad), "v20.bsp"));
            FAIL("no DecodeError");
        } catch (const DecodeError& e) {
            CHECK(e.lump() == "brushes");
            CHECK(std::string(e.what()).find("more than the " + std::to_string(numSides) + " brush sides") !=
                  std::string::npos);
        }
    }
}
