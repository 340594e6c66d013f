// The Quake 2 decoder on synthetic maps written by tests/support/q2_writer: the neutral model, winding, lightmap
// extents and styles, flags, the PVS, and every validation rule. Real maps: q2_decode_maps_test.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <set>

#include "luxel/bsp/decode.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/light/lightmap_sample.hpp"
#include "luxel/util/error.hpp"
#include "support/decode_helpers.hpp"
#include "support/q2_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

// Decoding must fail with a DecodeError naming `lump`.
void expectError(const std::vector<uint8_t>& bytes, const std::string& lump) {
    INFO("expected a DecodeError in lump " << lump);
    try {
        decodeBytes(bytes);
        FAIL("decoded without error");
    } catch (const DecodeError& e) {
        INFO(e.what());
        CHECK(e.lump() == lump);
    }
}
void expectError(const Q2MapBuilder& b, const std::string& lump) { expectError(b.build(), lump); }

Vec3 rgb(int r, int g, int b) { return {float(r) / 255.0f, float(g) / 255.0f, float(b) / 255.0f}; }

std::vector<std::array<uint8_t, 3>> gridOf(int w, int h, std::array<uint8_t, 3> (*f)(int, int)) {
    std::vector<std::array<uint8_t, 3>> g;
    for (int j = 0; j < h; ++j)
        for (int i = 0; i < w; ++i) g.push_back(f(i, j));
    return g;
}

}  // namespace

// ---- Synthetic maps ------------------------------------------------------------------------------

TEST_CASE("q2: floor map decodes into the neutral model", "[q2decode]") {
    Q2MapBuilder b = makeQ2FloorMap();
    World w = decodeBytes(b.build());
    CHECK(w.format == MapFormat::Quake2);
    CHECK(w.formatName == "Quake 2 IBSP");
    CHECK(w.version == 38);
    REQUIRE(w.lumps.size() == 19);
    CHECK(w.lumps[0].name == "entities");
    CHECK(w.lumps[7].name == "lighting");
    CHECK(w.lumps[18].name == "areaportals");
    CHECK(w.lumps[7].length == 45);  // 5 x 3 luxels x 3 bytes

    REQUIRE(w.surfaces.size() == 1);
    const Surface& s = w.surfaces[0];
    CHECK(s.kind == SurfaceKind::Polygon);
    CHECK(s.material == 0);
    CHECK(s.normal == Vec3{0, 0, 1});
    CHECK(s.styles == std::array<uint8_t, 4>{0, 255, 255, 255});
    REQUIRE(s.numVertices == 4);
    REQUIRE(s.numIndices == 6);
    CHECK(std::vector<uint32_t>(w.indices.begin() + s.firstIndex, w.indices.begin() + s.firstIndex + 6) ==
          std::vector<uint32_t>{0, 1, 2, 0, 2, 3});
    const Vertex* v = &w.vertices[s.firstVertex];
    CHECK(v[0].position == Vec3{0, 0, 0});
    CHECK(v[1].position == Vec3{0, 32, 0});
    CHECK(v[2].position == Vec3{64, 32, 0});
    CHECK(v[3].position == Vec3{64, 0, 0});
    CHECK(v[2].normal == Vec3{0, 0, 1});
    CHECK(v[2].texUV.x == 64.0f);  // texel units: s = x, t = y
    CHECK(v[2].texUV.y == 32.0f);

    // One 5x3 block + 1-texel border = a 7x5 page; luxel (0,0) is texel (1,1), its centre at (1.5, 1.5).
    REQUIRE(w.lightmaps.size() == 1);
    CHECK(w.lightmaps[0].width == 7);
    CHECK(w.lightmaps[0].height == 5);
    CHECK(s.lightmapPage == 0);
    CHECK(v[0].lightmapUV.x == Approx(1.5 / 7));
    CHECK(v[0].lightmapUV.y == Approx(1.5 / 5));
    CHECK(v[2].lightmapUV.x == Approx(5.5 / 7));  // s = 64 -> luxel 4
    CHECK(v[2].lightmapUV.y == Approx(3.5 / 5));  // t = 32 -> luxel 2
    // Luxel (i, j) holds bytes (10i, 10j, 7): linear = byte / 255.
    CHECK(near(sampleLightmap(w.lightmaps[0], v[0].lightmapUV), rgb(0, 0, 7)));
    CHECK(near(sampleLightmap(w.lightmaps[0], v[1].lightmapUV), rgb(0, 20, 7)));
    CHECK(near(sampleLightmap(w.lightmaps[0], v[2].lightmapUV), rgb(40, 20, 7)));
    Vec2 mid{(v[0].lightmapUV.x + v[2].lightmapUV.x) / 2, (v[0].lightmapUV.y + v[2].lightmapUV.y) / 2};
    CHECK(near(sampleLightmap(w.lightmaps[0], mid), rgb(20, 10, 7)));
    for (const auto& slot : w.extraLightmapSlots) CHECK(slot.empty());
    CHECK(w.look.hueClampAt == 1.0f);

    // Tree, models, vis, entities.
    REQUIRE(w.leaves.size() == 2);
    CHECK(w.leaves[0].cluster == -1);
    CHECK(w.leaves[1].cluster == 0);
    CHECK(w.leaves[1].area == 1);
    CHECK(w.leaves[1].numLeafSurfaces == 1);
    CHECK(w.leafSurfaces == std::vector<uint32_t>{0});
    REQUIRE(w.nodes.size() == 1);
    CHECK(w.nodes[0].children == std::array<int32_t, 2>{-2, -1});
    REQUIRE(w.models.size() == 1);
    CHECK(w.models[0].numSurfaces == 1);
    CHECK(w.models[0].maxs == Vec3{64, 32, 0});
    CHECK(w.pvs.numClusters == 1);
    CHECK(w.pvs.visible(0, 0));
    CHECK(w.entityText.find("worldspawn") != std::string::npos);
    std::map<std::string, uint64_t> other(w.otherCounts.begin(), w.otherCounts.end());
    CHECK(other["brushes"] == 1);
    CHECK(other["brush sides"] == 1);
    CHECK(other["areas"] == 2);
    CHECK(other["area portals"] == 1);
}

TEST_CASE("q2: faces from edges, reversed and shared, keep their vertex order and winding", "[q2decode]") {
    Q2MapBuilder b = makeQ2FloorMap();
    const int32_t tex = 0;
    // A pentagon clockwise seen from above, and a quad sharing its edge P2->P3 (walked P3->P2 there).
    const std::vector<Vec3> pent{{0, 0, 0}, {0, 40, 0}, {30, 60, 0}, {60, 40, 0}, {60, 0, 0}};
    const int32_t f1 = b.addFace(pent, 0, false, tex);
    const int32_t f2 = b.addFace({{30, 60, 0}, {30, 90, 0}, {60, 90, 0}, {60, 40, 0}}, 0, false, tex, {0, 255, 255, 255},
                                 -1, false);
    // A ceiling face: the back side of plane 0 (normal -z), clockwise seen from below.
    const int32_t f3 = b.addFace({{0, 0, 64}, {10, 0, 64}, {10, 10, 64}, {0, 10, 64}}, 0, true, tex);
    // The builder really produced negative surfedges: odd edges of the pentagon, and the shared edge.
    CHECK(b.surfEdges[size_t(b.faces[size_t(f1)].firstEdge) + 1] < 0);
    CHECK(b.surfEdges[size_t(b.faces[size_t(f2)].firstEdge) + 3] < 0);
    World w = decodeBytes(b.build());
    REQUIRE(w.surfaces.size() == 4);

    const Surface& s1 = w.surfaces[size_t(f1)];
    REQUIRE(s1.numVertices == 5);
    for (size_t k = 0; k < 5; ++k) CHECK(w.vertices[s1.firstVertex + k].position == pent[k]);
    CHECK(std::vector<uint32_t>(w.indices.begin() + s1.firstIndex, w.indices.begin() + s1.firstIndex + s1.numIndices) ==
          std::vector<uint32_t>{0, 1, 2, 0, 2, 3, 0, 3, 4});
    const Surface& s2 = w.surfaces[size_t(f2)];
    CHECK(w.vertices[s2.firstVertex + 3].position == Vec3{60, 40, 0});
    CHECK(w.vertices[s2.firstVertex + 0].position == Vec3{30, 60, 0});
    const Surface& s3 = w.surfaces[size_t(f3)];
    CHECK(s3.normal == Vec3{0, 0, -1});
    CHECK(w.vertices[s3.firstVertex].normal == Vec3{0, 0, -1});

    // Front faces are clockwise: cross(b - a, c - a) points against the normal, as in Quake 3 data.
    for (const Surface& s : w.surfaces)
        for (uint32_t t = 0; t < s.numIndices; t += 3) {
            Vec3 a = w.vertices[s.firstVertex + w.indices[s.firstIndex + t]].position;
            Vec3 bb = w.vertices[s.firstVertex + w.indices[s.firstIndex + t + 1]].position;
            Vec3 c = w.vertices[s.firstVertex + w.indices[s.firstIndex + t + 2]].position;
            CHECK(dot(cross(bb - a, c - a), s.normal) < 0);
        }
}

TEST_CASE("q2: lightmap extents follow CalcSurfaceExtents", "[q2decode]") {
    SECTION("offsets and negative coordinates") {
        // s = x + 8 in [8, 72]: floor(0.5) = 0, ceil(4.5) = 5 -> 6 luxels; t = y - 20 in [-20, 12]:
        // floor(-1.25) = -2, ceil(0.75) = 1 -> 4 luxels. Page 8x6 with the border.
        Q2MapBuilder b = makeQ2FloorMap();
        b.texinfos[0].s = {1, 0, 0, 8};
        b.texinfos[0].t = {0, 1, 0, -20};
        b.lighting.clear();
        b.addLighting({gridOf(6, 4, [](int i, int j) { return std::array<uint8_t, 3>{uint8_t(10 * i), uint8_t(10 * j), 7}; })});
        World w = decodeBytes(b.build());
        REQUIRE(w.lightmaps.size() == 1);
        CHECK(w.lightmaps[0].width == 8);
        CHECK(w.lightmaps[0].height == 6);
        // Vertex (0,0,0): s = 8 -> luxel 0.5; t = -20 -> luxel -1.25 + 2 = 0.75.
        const Vertex& v0 = w.vertices[0];
        CHECK(v0.lightmapUV.x == Approx((1 + 0.5 + 0.5) / 8));
        CHECK(v0.lightmapUV.y == Approx((1 + 0.75 + 0.5) / 6));
        CHECK(near(sampleLightmap(w.lightmaps[0], v0.lightmapUV), rgb(5, 0, 7) + Vec3{0, 7.5f / 255, 0}));
        // One byte less lighting and the block no longer fits.
        b.lighting.pop_back();
        expectError(b, "faces");
    }
    SECTION("coordinates are rounded to float after a double evaluation, as the engine does") {
        // s = x + 1e-9 y reaches 32 + 3.2e-8 at (32, 32): in double ceil(2.000000002) = 3 (4 luxels), but the
        // engine stores the value in a float (32.0 exactly), so ceil(2) = 2 and the face is 3 luxels wide.
        Q2MapBuilder b = makeQ2FloorMap();
        b.faces.clear();
        b.surfEdges.clear();
        b.texinfos[0].s = {1, 1e-9f, 0, 0};
        b.lighting.clear();
        const int32_t ofs = b.addLighting({gridOf(3, 3, [](int, int) { return std::array<uint8_t, 3>{1, 2, 3}; })});
        b.addFace({{0, 0, 0}, {0, 32, 0}, {32, 32, 0}, {32, 0, 0}}, 0, false, 0, {0, 255, 255, 255}, ofs);
        World w = decodeBytes(b.build());
        REQUIRE(w.lightmaps.size() == 1);
        CHECK(w.lightmaps[0].width == 3 + 2);
        CHECK(w.lightmaps[0].height == 3 + 2);
    }
}

TEST_CASE("q2: a styled face's blocks land in slot 0 and slot 1 pages at the same uv", "[q2decode]") {
    Q2MapBuilder b = makeQ2FloorMap();
    b.faces[0].styles = {0, 5, 255, 255};
    b.lighting.clear();
    b.addLighting({gridOf(5, 3, [](int i, int j) { return std::array<uint8_t, 3>{uint8_t(10 * i), uint8_t(10 * j), 7}; }),
                   gridOf(5, 3, [](int i, int j) { return std::array<uint8_t, 3>{200, uint8_t(100 + i), uint8_t(50 + j)}; })});
    World w = decodeBytes(b.build());
    const Surface& s = w.surfaces[0];
    CHECK(s.styles == std::array<uint8_t, 4>{0, 5, 255, 255});
    REQUIRE(w.lightmaps.size() == 1);
    REQUIRE(w.extraLightmapSlots[0].size() == 1);
    CHECK(w.extraLightmapSlots[1].empty());
    CHECK(w.extraLightmapSlots[2].empty());
    const LightmapPage &slot0 = w.lightmaps[0], &slot1 = w.extraLightmapSlots[0][0];
    CHECK(slot1.width == slot0.width);
    CHECK(slot1.height == slot0.height);
    const Vertex* v = &w.vertices[s.firstVertex];
    CHECK(near(sampleLightmap(slot0, v[2].lightmapUV), rgb(40, 20, 7)));
    CHECK(near(sampleLightmap(slot1, v[2].lightmapUV), rgb(200, 104, 52)));
    CHECK(near(sampleLightmap(slot1, v[0].lightmapUV), rgb(200, 100, 50)));

    // Two styles need twice the bytes: with only one grid present the face does not fit.
    b.lighting.resize(45);
    expectError(b, "faces");
}

TEST_CASE("q2: faces without a lightmap are full bright", "[q2decode]") {
    auto check = [](const World& w, float alpha) {
        REQUIRE(w.surfaces.size() == 1);
        CHECK(w.surfaces[0].lightmapPage == -1);
        for (uint32_t k = 0; k < 4; ++k) {
            const Vec4 c = w.vertices[k].color;
            CHECK(c.x == 1.0f);
            CHECK(c.y == 1.0f);
            CHECK(c.z == 1.0f);
            CHECK(c.w == Approx(alpha));
        }
    };
    SECTION("lighting offset -1") {
        Q2MapBuilder b = makeQ2FloorMap();
        b.faces[0].lightOffset = -1;
        World w = decodeBytes(b.build());
        check(w, 1);
        CHECK(w.lightmaps.empty());
    }
    SECTION("no lighting lump") {
        Q2MapBuilder b = makeQ2FloorMap();
        b.lighting.clear();
        b.faces[0].lightOffset = 0;  // as vgio_q2_test writes it
        check(decodeBytes(b.build()), 1);
    }
    auto withFlags = [](int32_t flags) {
        Q2MapBuilder b = makeQ2FloorMap();
        b.texinfos[0].flags = flags;
        return decodeBytes(b.build());
    };
    SECTION("warping surface") {
        World w = withFlags(kQ2SurfWarp);
        check(w, 1);
        CHECK(w.materials[0].flags & kMaterialNoLightmap);
    }
    SECTION("sky") {
        World w = withFlags(kQ2SurfSky);
        check(w, 1);
        CHECK(w.materials[0].flags & kMaterialSky);
    }
    SECTION("translucent 33") { check(withFlags(kQ2SurfTrans33), 0.33f); }
    SECTION("lit but without styles: the engine sums no maps, so black") {
        Q2MapBuilder b = makeQ2FloorMap();
        b.faces[0].styles = {255, 255, 255, 255};
        World w = decodeBytes(b.build());
        CHECK(w.surfaces[0].lightmapPage == -1);
        CHECK(w.vertices[0].color.x == 0.0f);
    }
}

TEST_CASE("q2: texinfo flags become material flags", "[q2decode]") {
    Q2MapBuilder b = makeQ2FloorMap();
    b.addTexinfo({1, 0, 0, 0}, {0, 1, 0, 0}, kQ2SurfNoDraw, "common/nodraw");
    b.addTexinfo({1, 0, 0, 0}, {0, 1, 0, 0}, kQ2SurfHint, "common/hint");
    b.addTexinfo({1, 0, 0, 0}, {0, 1, 0, 0}, kQ2SurfSkip | kQ2SurfLight, "common/skip");
    b.texinfos[0].next = 2;  // animation chain: validated, kept decoder-side
    World w = decodeBytes(b.build());
    REQUIRE(w.materials.size() == 4);
    CHECK(w.materials[0].name == "e1u1/floor1_1");
    CHECK(w.materials[0].flags == 0);
    CHECK(w.materials[1].name == "common/nodraw");
    CHECK(w.materials[1].flags == kMaterialNoDraw);
    CHECK(w.materials[2].flags == kMaterialNoDraw);
    CHECK(w.materials[3].flags == kMaterialNoDraw);
    CHECK(w.materials[3].nativeSurfaceFlags == uint32_t(kQ2SurfSkip | kQ2SurfLight));
}

TEST_CASE("q2: run-length encoded PVS with a hidden cluster", "[q2decode]") {
    CHECK(compressQ2PvsRow(std::vector<uint8_t>{0x01, 0x00, 0x00}) == std::vector<uint8_t>{0x01, 0x00, 0x02});

    // 20 clusters, 3 bytes a row, compressed by hand. Row 0 sees cluster 0; row 1 sees 1 and 19; row 2 sees
    // everything but cluster 10; rows 3..19 reuse row 0's bytes.
    Q2MapBuilder b = makeQ2FloorMap();
    b.pvs.reset();
    for (int16_t c = 1; c < 20; ++c) b.addLeaf(c, {});
    const std::vector<uint8_t> row0{0x01, 0x00, 0x02}, row1{0x02, 0x00, 0x01, 0x08}, row2{0xFF, 0xFB, 0x0F};
    const uint32_t header = 4 + 8 * 20;
    std::vector<uint8_t> vis(header);
    auto put = [&](size_t at, uint32_t v) { std::memcpy(vis.data() + at, &v, 4); };
    put(0, 20);
    const uint32_t o0 = header, o1 = o0 + 3, o2 = o1 + 4;
    for (uint32_t c = 0; c < 20; ++c) {
        const uint32_t o = c == 1 ? o1 : c == 2 ? o2 : o0;
        put(4 + 8 * c, o);
        put(8 + 8 * c, o);
    }
    for (const auto* r : {&row0, &row1, &row2}) vis.insert(vis.end(), r->begin(), r->end());
    b.rawLumps[kQ2Visibility] = vis;
    World w = decodeBytes(b.build());
    REQUIRE(w.pvs.numClusters == 20);
    REQUIRE(w.pvs.rowBytes == 3);
    CHECK(std::vector<uint8_t>(w.pvs.rows.begin(), w.pvs.rows.begin() + 9) ==
          std::vector<uint8_t>{0x01, 0x00, 0x00, 0x02, 0x00, 0x08, 0xFF, 0xFB, 0x0F});
    CHECK(w.pvs.visible(0, 0));
    CHECK_FALSE(w.pvs.visible(0, 1));
    CHECK(w.pvs.visible(1, 19));
    CHECK_FALSE(w.pvs.visible(1, 18));
    CHECK_FALSE(w.pvs.visible(2, 10));  // the hidden cluster
    CHECK(w.pvs.visible(2, 9));
    CHECK(w.pvs.visible(2, 11));
    CHECK(w.pvs.visible(2, 19));
    CHECK(w.pvs.visible(7, 0));
    CHECK_FALSE(w.pvs.visible(7, 7));

    SECTION("a zero run past the row end") {
        vis[o0 + 2] = 0x03;
        b.rawLumps[kQ2Visibility] = vis;
        expectError(b, "visibility");
    }
    SECTION("a row offset outside the lump") {
        put(4 + 8 * 5, uint32_t(vis.size()));
        b.rawLumps[kQ2Visibility] = vis;
        expectError(b, "visibility");
    }
    SECTION("a PHS offset into the directory") {
        put(8 + 8 * 5, 4);
        b.rawLumps[kQ2Visibility] = vis;
        expectError(b, "visibility");
    }
    SECTION("a row running off the end of the lump") {
        vis.resize(vis.size() - 1);  // row 2 loses its last byte
        b.rawLumps[kQ2Visibility] = vis;
        expectError(b, "visibility");
    }
    SECTION("more clusters than leaves") {
        put(0, 22);  // 21 leaves
        vis.insert(vis.begin() + header, 16, 0);  // keep the directory whole
        b.rawLumps[kQ2Visibility] = vis;
        expectError(b, "visibility");
    }
    SECTION("negative cluster count") {
        put(0, uint32_t(-1));
        b.rawLumps[kQ2Visibility] = vis;
        expectError(b, "visibility");
    }
    SECTION("a leaf in a cluster the PVS does not have") {
        b.leaves.back().cluster = 20;
        expectError(b, "leafs");
    }
}

TEST_CASE("q2: the writer's compressed PVS decodes to the same bits", "[q2decode]") {
    std::mt19937 rng(7);
    const int n = 300;
    Q2MapBuilder b = makeQ2FloorMap();
    for (int16_t c = 1; c < n; ++c) b.addLeaf(c, {});
    std::vector<std::vector<uint8_t>> rows(n, std::vector<uint8_t>((n + 7) / 8));
    for (int a = 0; a < n; ++a)
        for (int c = 0; c < n; ++c)
            if (c == a || (rng() % 10 == 0 && a % 3 != 0)) rows[size_t(a)][size_t(c) / 8] |= uint8_t(1 << (c % 8));
    b.pvs = rows;
    World w = decodeBytes(b.build());
    REQUIRE(w.pvs.numClusters == n);
    for (int a = 0; a < n; ++a)
        for (int c = 0; c < n; ++c)
            if (w.pvs.visible(a, c) != bool((rows[size_t(a)][size_t(c) / 8] >> (c % 8)) & 1)) FAIL("bit " << a << "," << c);
}

TEST_CASE("q2: every validation rule throws a DecodeError naming its lump", "[q2decode]") {
    const Q2MapBuilder base = makeQ2FloorMap();
    REQUIRE_NOTHROW(decodeBytes(base.build()));
    auto with = [&](auto change) {
        Q2MapBuilder b = base;
        change(b);
        return b;
    };
    // Record sizes.
    expectError(with([](Q2MapBuilder& b) { b.rawLumps[kQ2Planes] = std::vector<uint8_t>(19); }), "planes");
    expectError(with([](Q2MapBuilder& b) { b.rawLumps[kQ2Faces] = std::vector<uint8_t>(21); }), "faces");
    expectError(with([](Q2MapBuilder& b) { b.rawLumps[kQ2Texinfo] = std::vector<uint8_t>(75); }), "texinfo");
    expectError(with([](Q2MapBuilder& b) { b.rawLumps[kQ2Leafs] = std::vector<uint8_t>(29); }), "leafs");
    // Indices and ranges.
    expectError(with([](Q2MapBuilder& b) { b.edges.push_back({0, 99}); }), "edges");
    expectError(with([](Q2MapBuilder& b) { b.surfEdges[1] = 99; }), "surfedges");
    expectError(with([](Q2MapBuilder& b) { b.surfEdges[1] = INT32_MIN; }), "surfedges");
    expectError(with([](Q2MapBuilder& b) { b.faces[0].plane = 5; }), "faces");
    expectError(with([](Q2MapBuilder& b) { b.faces[0].texinfo = 1; }), "faces");
    expectError(with([](Q2MapBuilder& b) { b.faces[0].texinfo = -1; }), "faces");
    expectError(with([](Q2MapBuilder& b) { b.faces[0].numEdges = 5; }), "faces");
    expectError(with([](Q2MapBuilder& b) { b.faces[0].numEdges = 2; }), "faces");
    // A lit face without corners has no lightmap extents (found by the fuzzer: inf converted to int).
    expectError(with([](Q2MapBuilder& b) { b.faces[0].numEdges = 0; }), "faces");
    expectError(with([](Q2MapBuilder& b) { b.faces[0].lightOffset = -2; }), "faces");
    expectError(with([](Q2MapBuilder& b) { b.faces[0].lightOffset = 1; }), "faces");  // 45 bytes from 1: past the end
    expectError(with([](Q2MapBuilder& b) { b.texinfos[0].next = 1; }), "texinfo");
    expectError(with([](Q2MapBuilder& b) { b.leafFaces[0] = 1; }), "leaffaces");
    expectError(with([](Q2MapBuilder& b) { b.leafBrushes[0] = 1; }), "leafbrushes");
    expectError(with([](Q2MapBuilder& b) { b.leaves[1].numLeafFaces = 2; }), "leafs");
    expectError(with([](Q2MapBuilder& b) { b.leaves[0].numLeafBrushes = 2; }), "leafs");
    expectError(with([](Q2MapBuilder& b) { b.leaves[1].cluster = -2; }), "leafs");
    expectError(with([](Q2MapBuilder& b) { b.leaves[1].cluster = 1; }), "leafs");
    expectError(with([](Q2MapBuilder& b) { b.leaves[1].area = 2; }), "leafs");
    expectError(with([](Q2MapBuilder& b) {
                    b.leaves.clear();
                    b.pvs.reset();
                }),
                "leafs");
    expectError(with([](Q2MapBuilder& b) { b.nodes[0].plane = 1; }), "nodes");
    expectError(with([](Q2MapBuilder& b) { b.nodes[0].children[0] = -3; }), "nodes");
    expectError(with([](Q2MapBuilder& b) { b.nodes[0].children[0] = 0; }), "nodes");  // a cycle
    expectError(with([](Q2MapBuilder& b) { b.nodes[0].numFaces = 2; }), "nodes");
    expectError(with([](Q2MapBuilder& b) { b.nodes.clear(); }), "nodes");
    expectError(with([](Q2MapBuilder& b) { b.models.clear(); }), "models");
    expectError(with([](Q2MapBuilder& b) { b.models[0].numFaces = 2; }), "models");
    expectError(with([](Q2MapBuilder& b) { b.models[0].headNode = 1; }), "models");
    expectError(with([](Q2MapBuilder& b) { b.models[0].headNode = -3; }), "models");
    expectError(with([](Q2MapBuilder& b) { b.brushes[0].numSides = 2; }), "brushes");
    expectError(with([](Q2MapBuilder& b) { b.brushSides[0].plane = 1; }), "brushsides");
    expectError(with([](Q2MapBuilder& b) { b.brushSides[0].texinfo = 1; }), "brushsides");
    expectError(with([](Q2MapBuilder& b) { b.areas[1].numPortals = 2; }), "areas");
    expectError(with([](Q2MapBuilder& b) { b.areaPortals[0].otherArea = 2; }), "areaportals");
    expectError(with([](Q2MapBuilder& b) { b.areaPortals[0].portal = -1; }), "areaportals");
    expectError(with([](Q2MapBuilder& b) { b.entities = "{ \"classname\" \"worldspawn\""; }), "entities");
    // Lightmap sizes: a face stretched to 600 luxels (9600 texels at 16 a luxel) is refused.
    expectError(with([](Q2MapBuilder& b) { b.texinfos[0].s = {150, 0, 0, 0}; }), "faces");
    // Faces may not reuse the same surfedges over and over.
    expectError(with([](Q2MapBuilder& b) {
                    for (int k = 0; k < 4; ++k) b.faces.push_back(b.faces[0]);
                }),
                "faces");
    // Faces may not claim the same lighting bytes over and over (more than 4x the lump).
    expectError(with([](Q2MapBuilder& b) {
                    for (int k = 0; k < 4; ++k) {
                        b.faces.push_back(b.faces[0]);
                        b.faces.back().firstEdge = int32_t(b.surfEdges.size());
                        const std::vector<int32_t> quad(b.surfEdges.begin(), b.surfEdges.begin() + 4);
                        b.surfEdges.insert(b.surfEdges.end(), quad.begin(), quad.end());
                    }
                }),
                "lighting");
    // Header.
    auto bytes = base.build();
    bytes[4] = 37;
    try {
        decodeQuake2(memorySource(bytes));
        FAIL("version 37 accepted");
    } catch (const DecodeError& e) {
        CHECK(e.lump() == "header");
    }
    bytes = base.build();
    setQ2LumpRange(bytes, kQ2Models, uint32_t(bytes.size()) - 10, 48);
    expectError(bytes, "models");
}

TEST_CASE("q2: truncated and corrupted files fail cleanly", "[q2decode]") {
    Q2MapBuilder b = makeQ2FloorMap();
    b.addFace({{0, 0, 64}, {10, 0, 64}, {10, 10, 64}, {0, 10, 64}}, 0, true, 0);
    b.pvs = std::vector<std::vector<uint8_t>>{{0x01}, {0x03}};
    b.addLeaf(1, {1});
    const std::vector<uint8_t> good = b.build();
    REQUIRE_NOTHROW(decodeBytes(good));

    // Every truncation of the file cuts some lump: always a DecodeError.
    for (size_t n = 0; n < good.size(); ++n) {
        std::vector<uint8_t> cut(good.begin(), good.begin() + long(n));
        CHECK_THROWS_AS(decodeBytes(cut), DecodeError);
    }
    // Every shorter length of every lump in the directory, and single-byte corruptions everywhere:
    // either a map or a DecodeError, never anything else.
    size_t decoded = 0, rejected = 0;
    auto attempt = [&](const std::vector<uint8_t>& bytes) {
        try {
            decodeBytes(bytes);
            ++decoded;
        } catch (const DecodeError&) {
            ++rejected;
        }
    };
    for (int lump = 0; lump < kQ2LumpCount; ++lump) {
        auto [offset, length] = q2LumpRange(good, lump);
        for (uint32_t l = 0; l < length; ++l) {
            auto bytes = good;
            setQ2LumpRange(bytes, lump, offset, l);
            attempt(bytes);
        }
    }
    for (size_t i = 0; i < good.size(); ++i)
        for (uint8_t v : {uint8_t(0x00), uint8_t(0xFF), uint8_t(0x80), uint8_t(good[i] + 1)}) {
            auto bytes = good;
            bytes[i] = v;
            attempt(bytes);
        }
    CHECK(rejected > 0);
    CHECK(decoded > 0);
}
