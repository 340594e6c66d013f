// The Quake 1 / Half-Life decoder on synthetic maps written by tests/support/q1_writer (BSP29, 2PSB, BSP2, BSP30):
// the neutral model, lightmap extents (with BSPX LMSHIFT and DECOUPLED_LM), luxel values, the light source's
// precedence (BSPX RGBLIGHTING, .lit, grey), styles, leaf-based visibility, viewpoints, the miptex decode through a
// palette, and malformed input. Then the shared LibreQuake lqdm1 builds ([maps]): every style-0 luxel against an
// independent reading of the file (tests/support/q1_lighting_reader), and the BSP29 + .lit and BSP2 + BSPX builds
// against each other.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <random>
#include <set>

#include "luxel/bsp/decode.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/material/miptex.hpp"
#include "luxel/material/quake_palette.hpp"
#include "luxel/util/error.hpp"
#include "support/decode_helpers.hpp"
#include "support/q1_lighting_reader.hpp"
#include "support/q1_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

bool quake(Q1Variant v) { return v != Q1Variant::HalfLife; }

World decodeQ1(const Q1MapBuilder& b, std::map<std::string, Bytes> related = {},
               std::vector<std::string>* opened = nullptr) {
    return decodeMap(memorySource(b.build(), "test.bsp", std::move(related), opened));
}

// `run` must throw a DecodeError in lump `lump` whose message mentions `mentions`.
void expectDecodeError(const std::function<void()>& run, const std::string& lump, const std::string& mentions) {
    INFO("expected a DecodeError in lump " << lump << " mentioning '" << mentions << "'");
    try {
        run();
        FAIL("no error");
    } catch (const DecodeError& e) {
        INFO(e.what());
        CHECK(e.lump() == lump);
        CHECK_THAT(std::string(e.what()), Catch::Contains(mentions));
    }
}
void expectDecodeError(const Bytes& file, const std::string& lump, const std::string& mentions,
                       std::map<std::string, Bytes> related = {}) {
    expectDecodeError([&] { decodeMap(memorySource(file, "test.bsp", related)); }, lump, mentions);
}

// A stored light byte as the World holds it: QuakeSpasm's style 'm' (264) over 256, as a fraction of 255.
float stored(uint8_t b) { return float(double(b) * 264.0 / 256.0 / 255.0); }

// Luxel (i, j) of surface s's block in style slot `slot`.
Vec3 luxelAt(const World& w, int slot, const Surface& s, int i, int j) {
    REQUIRE(s.lightmapPage >= 0);
    const LightmapPage& page =
        slot == 0 ? w.lightmaps.at(size_t(s.lightmapPage)) : w.extraLightmapSlots[size_t(slot - 1)].at(size_t(s.lightmapPage));
    const size_t x = size_t(s.lightmapRect[0] + i), y = size_t(s.lightmapRect[1] + j);
    const float* t = page.rgb.data() + (y * size_t(page.width) + x) * 3;
    return {t[0], t[1], t[2]};
}

// Every luxel of surface `face`'s slot `slot` equals the floor map's byte (grey, or RGB when `rgb`).
void checkFloorBlock(const World& w, int face, int slot, bool rgb) {
    const Surface& s = w.surfaces[size_t(face)];
    size_t wrong = 0;
    for (int j = 0; j < s.lightmapRect[3]; ++j)
        for (int i = 0; i < s.lightmapRect[2]; ++i) {
            const Vec3 got = luxelAt(w, slot, s, i, j);
            Vec3 want;
            if (rgb) {
                const auto c = q1FloorRgb(face, slot, i, j);
                want = {stored(c[0]), stored(c[1]), stored(c[2])};
            } else {
                const float g = stored(q1FloorGrey(face, slot, i, j));
                want = {g, g, g};
            }
            wrong += !(got == want);
        }
    INFO("face " << face << " slot " << slot);
    CHECK(wrong == 0);
}

// Vertex k of surface s sits at luxel coordinate (u, v) of its block.
void checkLuxelCoord(const World& w, const Surface& s, uint32_t k, double u, double v) {
    const LightmapPage& page = w.lightmaps.at(size_t(s.lightmapPage));
    const Vec2 uv = w.vertices[s.firstVertex + k].lightmapUV;
    INFO("vertex " << k << " of a surface at " << s.lightmapRect[0] << "," << s.lightmapRect[1]);
    CHECK(double(uv.x) * page.width - 0.5 - s.lightmapRect[0] == Approx(u).margin(1e-4));
    CHECK(double(uv.y) * page.height - 0.5 - s.lightmapRect[1] == Approx(v).margin(1e-4));
}

// The miptex header of directory slot `slot` in a built file.
size_t miptexHeader(const Bytes& file, int slot) {
    const uint32_t lump = q1LumpRange(file, kQ1Textures).first;
    return lump + le32(file, lump + 4 + 4 * size_t(slot));
}

}  // namespace

// ---- Synthetic maps ------------------------------------------------------------------------------

TEST_CASE("q1: the floor map decodes into the neutral model in every variant", "[q1]") {
    for (const Q1Variant v : kQ1Variants) {
        INFO(q1VariantName(v));
        const Q1MapBuilder b = makeQ1FloorMap(v);
        const World w = decodeQ1(b);
        switch (v) {
            case Q1Variant::Bsp29: CHECK(w.formatName == "Quake 1 BSP29"); CHECK(w.layoutName.empty()); break;
            case Q1Variant::Bsp2Rmq: CHECK(w.formatName == "Quake 1 2PSB"); CHECK(w.layoutName == "2PSB"); break;
            case Q1Variant::Bsp2: CHECK(w.formatName == "Quake 1 BSP2"); CHECK(w.layoutName == "BSP2"); break;
            case Q1Variant::HalfLife: CHECK(w.formatName == "Half-Life BSP30"); CHECK(w.layoutName.empty()); break;
        }
        CHECK(w.format == (quake(v) ? MapFormat::Quake1 : MapFormat::HalfLife));
        CHECK(w.version == (quake(v) ? 29 : 30));
        REQUIRE(w.lumps.size() == 15);
        CHECK(w.lumps[7].name == "faces");
        CHECK(w.lumps[10].name == "leafs");
        // 5x3 luxels for face 0, 4x4 x 2 styles for face 1: bytes, or RGB bytes in Half-Life's lump.
        CHECK(w.lumps[8].length == (quake(v) ? 47u : 141u));
        CHECK(w.lumps[5].length == 2 * q1RecordBytes(v).node);
        CHECK(w.lumps[10].length == 3 * q1RecordBytes(v).leaf);

        // Geometry: two quads, each its own 4 vertices and 2 triangles.
        REQUIRE(w.surfaces.size() == 2);
        CHECK(w.vertices.size() == 8);
        CHECK(w.indices.size() == 12);
        const Surface& s0 = w.surfaces[0];
        const Surface& s1 = w.surfaces[1];
        CHECK(s0.kind == SurfaceKind::Polygon);
        CHECK(s0.numVertices == 4);
        CHECK(s1.numIndices == 6);
        CHECK(s0.normal == Vec3{0, 0, 1});
        CHECK(s1.material == 1);
        const std::vector<Vec3> quad1{{64, 0, 0}, {64, 32, 0}, {96, 32, 0}, {96, 0, 0}};
        for (uint32_t k = 0; k < 4; ++k) CHECK(w.vertices[s1.firstVertex + k].position == quad1[k]);
        // Texture coordinates in texels: face 1's texinfo is s = x + 8, t = y - 4.
        CHECK(w.vertices[s1.firstVertex].texUV.x == 72.0f);
        CHECK(w.vertices[s1.firstVertex].texUV.y == -4.0f);
        CHECK(w.vertices[s1.firstVertex + 2].texUV.x == 104.0f);
        CHECK(w.vertices[s1.firstVertex + 2].texUV.y == 28.0f);

        REQUIRE(w.materials.size() == 2);
        CHECK(w.materials[0].name == "floor1");
        CHECK(w.materials[1].name == "{grate");
        CHECK(w.materials[1].nativeValue == 1);
        CHECK(w.materials[0].flags == 0);
        CHECK(w.embeddedTextures.size() == w.lumps[2].length);

        // Lightmap extents: face 0 spans s 0..64, t 0..32 (5x3 luxels); face 1 s 72..104 (luxels 4..7) and
        // t -4..28 (luxels -1..2): 4x4.
        CHECK(s0.lightmapRect[2] == 5);
        CHECK(s0.lightmapRect[3] == 3);
        CHECK(s1.lightmapRect[2] == 4);
        CHECK(s1.lightmapRect[3] == 4);
        CHECK(s0.styles == std::array<uint8_t, 4>{0, 255, 255, 255});
        CHECK(s1.styles == std::array<uint8_t, 4>{0, 5, 255, 255});
        CHECK(!w.lightmaps.empty());
        CHECK(!w.extraLightmapSlots[0].empty());
        CHECK(w.extraLightmapSlots[1].empty());
        CHECK(w.lightSource == (quake(v) ? "lighting lump (grey)" : "lighting lump (RGB)"));
        checkFloorBlock(w, 0, 0, !quake(v));
        checkFloorBlock(w, 1, 0, !quake(v));
        checkFloorBlock(w, 1, 1, !quake(v));
        // Luxel (0, 0) of face 0 by hand: grey byte 5 -> 5 x 264 / 256 / 255.
        CHECK(luxelAt(w, 0, s0, 0, 0).x == Approx(5 * 1.03125 / 255.0));
        // Half-Life: luxel (2, 1) of face 1's second style: grey 5 + 20 + 25 + 100 + 60 = 210 -> (210, 45, 118).
        if (!quake(v)) CHECK(near(luxelAt(w, 1, s1, 2, 1), Vec3{stored(210), stored(45), stored(118)}));
        // Luxel coordinates: texture coordinate / 16 less the extents' mins (face 1: (4, -1)).
        checkLuxelCoord(w, s0, 0, 0, 0);
        checkLuxelCoord(w, s0, 2, 4, 2);
        checkLuxelCoord(w, s1, 0, 0.5, 0.75);
        checkLuxelCoord(w, s1, 2, 2.5, 2.75);

        // Tree: leaf 0 solid, leaves 1 and 2 are clusters 0 and 1.
        REQUIRE(w.leaves.size() == 3);
        CHECK(w.leaves[0].cluster == -1);
        CHECK(w.leaves[1].cluster == 0);
        CHECK(w.leaves[2].cluster == 1);
        CHECK(w.leaves[2].mins == Vec3{64, 0, 0});
        CHECK(w.leaves[2].maxs == Vec3{96, 32, 64});
        CHECK(w.leaves[2].firstLeafSurface == 1);
        CHECK(w.leaves[2].numLeafSurfaces == 1);
        CHECK(w.leafSurfaces == std::vector<uint32_t>{0, 1});
        REQUIRE(w.nodes.size() == 2);
        CHECK(w.nodes[0].children == std::array<int32_t, 2>{1, -1});
        CHECK(w.nodes[1].children == std::array<int32_t, 2>{-3, -2});
        CHECK(w.nodes[1].plane == 1);
        CHECK(w.nodes[0].maxs == Vec3{96, 32, 64});
        REQUIRE(w.models.size() == 1);
        CHECK(w.models[0].numSurfaces == 2);
        CHECK(w.models[0].maxs == Vec3{96, 32, 64});
        // Leaf-based PVS: leaf 1 sees itself, leaf 2 both.
        CHECK(w.pvs.numClusters == 2);
        CHECK(w.pvs.rowBytes == 1);
        CHECK(w.pvs.visible(0, 0));
        CHECK(!w.pvs.visible(0, 1));
        CHECK(w.pvs.visible(1, 0));
        CHECK(w.pvs.visible(1, 1));
        std::map<std::string, uint64_t> other(w.otherCounts.begin(), w.otherCounts.end());
        CHECK(other["edges"] == 8);  // the dummy, 4 of face 0, 3 of face 1 (one shared)
        CHECK(other["surfedges"] == 8);
        CHECK(other["clipnodes"] == 1);
        CHECK(other["miptex"] == 2);
        CHECK(other["bspx lumps"] == 0);

        // Entities and viewpoints: the start raised by the eye (Quake's 22, Half-Life's 28), the intermission
        // camera where it stands, aimed by its mangle.
        CHECK(w.entities.size() == 3);
        const float eye = quake(v) ? 22.0f : 28.0f;
        CHECK(w.eyeHeight == eye);
        REQUIRE(w.viewpoints.size() == 2);
        CHECK(w.viewpoints[0].kind == Viewpoint::Kind::Spawn);
        CHECK(w.viewpoints[0].className == "info_player_start");
        CHECK(w.viewpoints[0].position == Vec3{32, 16, 24 + eye});
        CHECK(w.viewpoints[0].angles == Vec3{0, 90, 0});
        CHECK(w.viewpoints[1].kind == Viewpoint::Kind::Intermission);
        CHECK(w.viewpoints[1].position == Vec3{48, 8, 64});
        CHECK(w.viewpoints[1].angles == Vec3{20, 135, 0});
    }
}

TEST_CASE("q1: the variants of one map decode to the same geometry and light", "[q1]") {
    const World bsp29 = decodeQ1(makeQ1FloorMap(Q1Variant::Bsp29));
    for (const Q1Variant v : {Q1Variant::Bsp2Rmq, Q1Variant::Bsp2}) {
        INFO(q1VariantName(v));
        requireSameGeometryAndLight(bsp29, decodeQ1(makeQ1FloorMap(v)));
    }
}

TEST_CASE("q1: BSPX LMSHIFT sizes each face's luxels", "[q1]") {
    for (const Q1Variant v : kQ1Variants) {
        INFO(q1VariantName(v));
        Q1FloorOptions o;
        o.lmShift = std::array<uint8_t, 2>{3, 5};
        const World w = decodeQ1(makeQ1FloorMap(v, o));
        CHECK(w.lumps.size() == 16);
        CHECK(w.lumps[15].name == "LMSHIFT");
        const Surface& s0 = w.surfaces[0];
        const Surface& s1 = w.surfaces[1];
        // Face 0 in 8-unit luxels: s 0..64 -> 0..8 (9), t 0..32 -> 0..4 (5).
        CHECK(s0.lightmapRect[2] == 9);
        CHECK(s0.lightmapRect[3] == 5);
        // Face 1 in 32-unit luxels: s 72..104 -> floor 2.25 .. ceil 3.25 = 2..4 (3), t -4..28 -> -1..1 (3).
        CHECK(s1.lightmapRect[2] == 3);
        CHECK(s1.lightmapRect[3] == 3);
        checkFloorBlock(w, 0, 0, !quake(v));
        checkFloorBlock(w, 1, 0, !quake(v));
        checkFloorBlock(w, 1, 1, !quake(v));
        checkLuxelCoord(w, s0, 2, 8, 4);
        checkLuxelCoord(w, s1, 0, 72.0 / 32 - 2, -4.0 / 32 + 1);
        checkLuxelCoord(w, s1, 2, 104.0 / 32 - 2, 28.0 / 32 + 1);
    }
}

TEST_CASE("q1: BSPX DECOUPLED_LM gives each face its own block, offset and luxel matrix", "[q1]") {
    for (const Q1Variant v : kQ1Variants) {
        INFO(q1VariantName(v));
        Q1FloorOptions o;
        o.decoupled = true;
        const Q1MapBuilder b = makeQ1FloorMap(v, o);
        CHECK(b.faces[1].lightOffset == 0);  // the record's offset counts, not the face's
        const World w = decodeQ1(b);
        const Surface& s0 = w.surfaces[0];
        const Surface& s1 = w.surfaces[1];
        CHECK(s0.lightmapRect[2] == 9);
        CHECK(s0.lightmapRect[3] == 5);
        CHECK(s1.lightmapRect[2] == 5);
        CHECK(s1.lightmapRect[3] == 5);
        CHECK(s1.styles == std::array<uint8_t, 4>{0, 5, 255, 255});
        checkFloorBlock(w, 0, 0, !quake(v));
        checkFloorBlock(w, 1, 0, !quake(v));
        checkFloorBlock(w, 1, 1, !quake(v));
        // (u, v) = (x / 8, y / 8) on face 0, ((x - 64) / 8, y / 8) on face 1.
        checkLuxelCoord(w, s0, 1, 0, 4);
        checkLuxelCoord(w, s0, 2, 8, 4);
        checkLuxelCoord(w, s1, 0, 0, 0);
        checkLuxelCoord(w, s1, 2, 4, 4);
    }
}

TEST_CASE("q1: BSPX LMOFFSET and LMSTYLE replace the face records' offsets and styles", "[q1]") {
    for (const Q1Variant v : kQ1Variants) {
        INFO(q1VariantName(v));
        Q1MapBuilder b = makeQ1FloorMap(v);
        // The records point elsewhere and name other styles; the BSPX lumps hold the real ones.
        const int32_t offset1 = b.faces[1].lightOffset;
        b.faces[0].lightOffset = 9999;
        b.faces[1].lightOffset = -1;
        b.faces[1].styles = {255, 255, 255, 255};
        Bytes offsets, styles{0, 255, 255, 255, 0, 7, 255, 255};
        append32(offsets, 0);
        append32(offsets, uint32_t(offset1));
        b.addBspx("LMOFFSET", offsets);
        b.addBspx("LMSTYLE", styles);
        const World w = decodeQ1(b);
        CHECK(w.surfaces[1].styles == std::array<uint8_t, 4>{0, 7, 255, 255});
        checkFloorBlock(w, 0, 0, !quake(v));
        checkFloorBlock(w, 1, 0, !quake(v));
        checkFloorBlock(w, 1, 1, !quake(v));
        // LMSTYLE16 is not read: a problem says so.
        b.addBspx("LMSTYLE16", Bytes(16, 0));
        const World w16 = decodeQ1(b);
        REQUIRE(w16.problems.size() == 1);
        CHECK_THAT(w16.problems[0], Catch::Contains("LMSTYLE16"));
    }
}

TEST_CASE("q1: the light comes from BSPX RGBLIGHTING, else the .lit beside the map, else the grey lump", "[q1]") {
    for (const Q1Variant v : {Q1Variant::Bsp29, Q1Variant::Bsp2Rmq, Q1Variant::Bsp2}) {
        INFO(q1VariantName(v));
        const Q1MapBuilder plain = makeQ1FloorMap(v);
        // A .lit whose every byte differs from the map's own RGB bytes.
        Bytes otherRgb(plain.rgbLighting.size());
        for (size_t k = 0; k < otherRgb.size(); ++k) otherRgb[k] = uint8_t(k * 7 + 1);
        const Bytes otherLit = q1LitFile(otherRgb);

        DYNAMIC_SECTION("grey: the .lit is asked for and absent, " << q1VariantName(v)) {
            std::vector<std::string> opened;
            const World w = decodeQ1(plain, {}, &opened);
            CHECK(w.lightSource == "lighting lump (grey)");
            CHECK(opened == std::vector<std::string>{"test.lit"});
            checkFloorBlock(w, 1, 1, false);
        }
        DYNAMIC_SECTION(".lit, " << q1VariantName(v)) {
            const World w = decodeQ1(plain, {{"test.lit", plain.litFile()}});
            CHECK(w.lightSource == ".lit (test.lit)");
            checkFloorBlock(w, 0, 0, true);
            checkFloorBlock(w, 1, 0, true);
            checkFloorBlock(w, 1, 1, true);
        }
        DYNAMIC_SECTION("BSPX RGBLIGHTING wins over a .lit, which is not even opened, " << q1VariantName(v)) {
            Q1FloorOptions o;
            o.bspxRgb = true;
            std::vector<std::string> opened;
            const World w = decodeQ1(makeQ1FloorMap(v, o), {{"test.lit", otherLit}}, &opened);
            CHECK(w.lightSource == "BSPX RGBLIGHTING");
            CHECK(opened.empty());
            checkFloorBlock(w, 0, 0, true);
            checkFloorBlock(w, 1, 1, true);
        }
        DYNAMIC_SECTION("the .lit's own bytes are what is shown, " << q1VariantName(v)) {
            const World w = decodeQ1(plain, {{"test.lit", otherLit}});
            const Surface& s1 = w.surfaces[1];
            // Face 1's grids start at grey offset 15, RGB byte 45; luxel (1, 2) of its second style is luxel
            // 16 + 2 x 4 + 1 = 25 of the face: RGB bytes 45 + 75 .. 77.
            const size_t at = 45 + 3 * 25;
            CHECK(luxelAt(w, 1, s1, 1, 2) == Vec3{stored(otherRgb[at]), stored(otherRgb[at + 1]), stored(otherRgb[at + 2])});
        }
    }
    SECTION("Half-Life: its lump is RGB; neither RGBLIGHTING nor a .lit is read") {
        Q1MapBuilder b = makeQ1FloorMap(Q1Variant::HalfLife);
        b.addBspx("RGBLIGHTING", Bytes(3 * b.lighting.size(), 9));
        std::vector<std::string> opened;
        const World w = decodeQ1(b, {{"test.lit", q1LitFile(Bytes(3 * b.lighting.size(), 9))}}, &opened);
        CHECK(w.lightSource == "lighting lump (RGB)");
        CHECK(opened.empty());
        checkFloorBlock(w, 1, 1, true);
    }
}

TEST_CASE("q1: faces without a lightmap", "[q1]") {
    for (const Q1Variant v : kQ1Variants) {
        INFO(q1VariantName(v));
        DYNAMIC_SECTION("no lighting offset, " << q1VariantName(v)) {
            Q1MapBuilder b = makeQ1FloorMap(v);
            b.faces[1].lightOffset = -1;
            const World w = decodeQ1(b);
            CHECK(w.surfaces[1].lightmapPage == -1);
            CHECK(w.surfaces[0].lightmapPage == 0);
            CHECK(w.extraLightmapSlots[0].empty());
        }
        DYNAMIC_SECTION("an offset but no style: black, " << q1VariantName(v)) {
            Q1MapBuilder b = makeQ1FloorMap(v);
            b.faces[1].styles = {255, 255, 255, 255};
            const World w = decodeQ1(b);
            CHECK(w.surfaces[1].lightmapPage == -1);
            const Vec4 black = w.vertices[w.surfaces[1].firstVertex].color, white = w.vertices[w.surfaces[0].firstVertex].color;
            CHECK((black.x == 0 && black.y == 0 && black.z == 0 && black.w == 1));
            CHECK((white.x == 1 && white.y == 1 && white.z == 1 && white.w == 1));
        }
        DYNAMIC_SECTION("TEX_SPECIAL: Quake's sky and liquids (Half-Life does not use the flag), " << q1VariantName(v)) {
            Q1MapBuilder b = makeQ1FloorMap(v);
            b.texinfos[1].flags = kQ1TexSpecial;
            const World w = decodeQ1(b);
            CHECK((w.surfaces[1].lightmapPage < 0) == quake(v));
        }
        DYNAMIC_SECTION("sky and liquid names, " << q1VariantName(v)) {
            Q1MapBuilder b = makeQ1FloorMap(v);
            b.miptex[1]->name = "sky4";
            const World w = decodeQ1(b);
            CHECK((w.materials[1].flags & kMaterialSky) != 0);
            CHECK(w.surfaces[1].lightmapPage < 0);
            b.miptex[1]->name = "*water1";
            CHECK(decodeQ1(b).surfaces[1].lightmapPage < 0);
            b.miptex[1]->name = "!toxic";  // Half-Life's liquids
            CHECK((decodeQ1(b).surfaces[1].lightmapPage < 0) == !quake(v));
        }
        DYNAMIC_SECTION("a texinfo naming no texture: a missing slot (-1) or one past the directory, " << q1VariantName(v)) {
            Q1MapBuilder b = makeQ1FloorMap(v);
            b.miptex.push_back(std::nullopt);
            b.texinfos[1].miptex = 2;
            World w = decodeQ1(b);
            CHECK(w.materials[1].name.empty());
            CHECK(w.materials[1].nativeValue == -1);
            CHECK(w.surfaces[1].lightmapPage == 0);  // still lit: the engine draws its notexture
            b.texinfos[1].miptex = 7;
            w = decodeQ1(b);
            CHECK(w.materials[1].nativeValue == -1);
        }
    }
}

TEST_CASE("q1: miptex textures through Quake's palette, fullbrights and fences, and Half-Life's own palettes", "[q1]") {
    for (const Q1Variant v : kQ1Variants) {
        INFO(q1VariantName(v));
        const World w = decodeQ1(makeQ1FloorMap(v));
        const std::vector<MiptexEntry> dir = readMiptexDirectory(w.embeddedTextures, "test.bsp");
        REQUIRE(dir.size() == 2);
        CHECK(dir[0].name == "floor1");
        CHECK(dir[0].width == 16);
        CHECK(dir[0].height == 16);
        CHECK(dir[0].embedded);
        CHECK(dir[0].offset == 12);  // after the count and two offsets
        CHECK(dir[1].name == "{grate");
        CHECK(dir[1].width == 8);
        const Palette& own = quake(v) ? defaultQuakePalette() : q1TestPalette();
        MiptexDecode how;
        how.palette = quake(v) ? &defaultQuakePalette() : nullptr;

        // Every index once, colour by colour.
        const MiptexImage whole = decodeMiptex(w.embeddedTextures, dir[0], how, "test.bsp");
        REQUIRE(whole.base.width == 16);
        REQUIRE(whole.base.rgba.size() == 256 * 4);
        CHECK(whole.fullbright.rgba.empty());
        size_t wrong = 0;
        for (size_t k = 0; k < 256; ++k)
            wrong += whole.base.rgba[k * 4] != own[k][0] || whole.base.rgba[k * 4 + 1] != own[k][1] ||
                     whole.base.rgba[k * 4 + 2] != own[k][2] || whole.base.rgba[k * 4 + 3] != 255;
        CHECK(wrong == 0);
        CHECK(hasFullbrights(w.embeddedTextures, dir[0], false));

        // The fence: index 255 transparent, the rest opaque.
        how.fence = true;
        const MiptexImage fence = decodeMiptex(w.embeddedTextures, dir[1], how, "test.bsp");
        REQUIRE(fence.base.rgba.size() == 64 * 4);
        for (int y = 0; y < 8; ++y)
            for (int x = 0; x < 8; ++x) {
                const uint8_t* t = fence.base.rgba.data() + size_t(y * 8 + x) * 4;
                if ((x + y) % 2) {
                    CHECK(t[3] == 0);
                } else {
                    const auto& c = own[size_t(32 + x + 8 * y)];
                    CHECK((t[0] == c[0] && t[1] == c[1] && t[2] == c[2] && t[3] == 255));
                }
            }
        if (!quake(v)) continue;

        // Quake's fullbright split: indices 224-255 black in the base, alone (opaque) in the fullbright image.
        how.fence = false;
        how.splitFullbrights = true;
        const MiptexImage split = decodeMiptex(w.embeddedTextures, dir[0], how, "test.bsp");
        REQUIRE(split.fullbright.rgba.size() == 256 * 4);
        size_t wrongBase = 0, wrongBright = 0;
        for (size_t k = 0; k < 256; ++k) {
            const uint8_t* b = split.base.rgba.data() + k * 4;
            const uint8_t* f = split.fullbright.rgba.data() + k * 4;
            const auto& c = own[k];
            if (k >= 224) {
                wrongBase += b[0] || b[1] || b[2] || b[3] != 255;
                wrongBright += f[0] != c[0] || f[1] != c[1] || f[2] != c[2] || f[3] != 255;
            } else {
                wrongBase += b[0] != c[0] || b[1] != c[1] || b[2] != c[2] || b[3] != 255;
                wrongBright += f[0] || f[1] || f[2] || f[3];
            }
        }
        CHECK(wrongBase == 0);
        CHECK(wrongBright == 0);
        // A fence whose only index past 223 is its transparent 255 has no fullbright texel.
        how.fence = true;
        CHECK(decodeMiptex(w.embeddedTextures, dir[1], how, "test.bsp").fullbright.rgba.empty());
    }
    SECTION("Half-Life: a texture left to a WAD file has a header and no pixels") {
        Q1MapBuilder b = makeQ1FloorMap(Q1Variant::HalfLife);
        b.miptex[1]->embedded = false;
        const World w = decodeQ1(b);
        const std::vector<MiptexEntry> dir = readMiptexDirectory(w.embeddedTextures, "test.bsp");
        REQUIRE(dir.size() == 2);
        CHECK(dir[0].embedded);
        CHECK(!dir[1].embedded);
        CHECK(dir[1].name == "{grate");
        CHECK(w.materials[1].name == "{grate");
    }
}

TEST_CASE("q1: the material loader draws the floor map's textures", "[q1]") {
    for (const Q1Variant v : kQ1Variants) {
        INFO(q1VariantName(v));
        const Q1MapBuilder b = makeQ1FloorMap(v);
        const MapSource source = memorySource(b.build());
        const World w = decodeMap(source);
        const MaterialSet set = loadMaterials(w, source, {});
        CHECK(set.warnings.empty());
        CHECK(set.missing.empty());
        REQUIRE(set.looks.size() == 2);
        CHECK(set.looks[0].texture >= 0);
        CHECK(set.looks[1].blend == BlendMode::AlphaTest);
        // Quake: gl_overbright's x 2 on lit textures and a fullbright program for floor1's indices 224-255.
        CHECK(set.looks[0].albedoScale == (quake(v) ? Vec3{2, 2, 2} : Vec3{1, 1, 1}));
        CHECK((set.looks[0].program != nullptr) == quake(v));
    }
}

TEST_CASE("q1: the material loader splits a sky texture into its two layers", "[q1]") {
    for (const Q1Variant v : kQ1Variants) {
        INFO(q1VariantName(v));
        for (const uint32_t width : {32u, 3u, 2u, 1u}) {
            INFO("sky " << width << " texels wide");  // 1 wide: two layers 0 texels wide
            Q1MapBuilder b = makeQ1FloorMap(v);
            std::vector<uint8_t> pixels(width * 8);
            for (size_t k = 0; k < pixels.size(); ++k) pixels[k] = uint8_t(k % 3);  // 0: the front layer's holes
            b.addMiptex("sky4", width, 8, pixels);
            b.texinfos[1].miptex = 2;
            const MapSource source = memorySource(b.build());
            const World w = decodeMap(source);
            CHECK((w.materials[1].flags & kMaterialSky) != 0);
            MaterialSet set;
            REQUIRE_NOTHROW(set = loadMaterials(w, source, {}));
            REQUIRE(!set.skies.empty());
            CHECK(set.looks[1].skyBox == 0);
            CHECK(set.skies[0].clouds.size() == 2);
        }
    }
}

// ---- Malformed input -----------------------------------------------------------------------------

TEST_CASE("q1: a miptex claiming a huge size is refused by the texture reader, not the map decoder", "[q1]") {
    for (const Q1Variant v : kQ1Variants) {
        INFO(q1VariantName(v));
        Bytes file = makeQ1FloorMap(v).build();
        const size_t header = miptexHeader(file, 0);
        put32(file, header + 16, 65536);
        put32(file, header + 20, 65536);
        const MapSource source = memorySource(file);
        World w;
        REQUIRE_NOTHROW(w = decodeMap(source));  // the decoder reads names only
        CHECK(w.materials[0].name == "floor1");
        expectDecodeError([&] { readMiptexDirectory(w.embeddedTextures, "test.bsp"); }, "textures", "65536x65536");
        // The loader keeps the map: a warning, every texture missing.
        MaterialSet set;
        REQUIRE_NOTHROW(set = loadMaterials(w, source, {}));
        REQUIRE(set.warnings.size() == 1);
        CHECK_THAT(set.warnings[0], Catch::Contains("floor1") && Catch::Contains("65536x65536"));
        CHECK(set.looks[0].missing);

        // A size inside the limit whose pixels leave the lump.
        put32(file, header + 16, 4096);
        put32(file, header + 20, 4096);
        const World big = decodeMap(memorySource(file));
        const std::vector<MiptexEntry> dir = readMiptexDirectory(big.embeddedTextures, "test.bsp");
        expectDecodeError([&] { decodeMiptex(big.embeddedTextures, dir[0], {&defaultQuakePalette()}, "test.bsp"); },
                          "textures", "outside the lump");
    }
}

TEST_CASE("q1: malformed files are DecodeErrors that name what is wrong", "[q1]") {
    for (const Q1Variant v : kQ1Variants) {
        INFO(q1VariantName(v));
        const Q1MapBuilder base = makeQ1FloorMap(v);
        const Q1RecordBytes rec = q1RecordBytes(v);

        DYNAMIC_SECTION("a miptex directory count past the lump, " << q1VariantName(v)) {
            Bytes file = base.build();
            const uint32_t lump = q1LumpRange(file, kQ1Textures).first;
            put32(file, lump, 1000000);
            expectDecodeError(file, "textures", "miptex count 1000000");
            put32(file, lump, uint32_t(-3));
            expectDecodeError(file, "textures", "miptex count -3");
        }
        DYNAMIC_SECTION("a miptex offset past the lump, " << q1VariantName(v)) {
            Bytes file = base.build();
            const auto [lump, length] = q1LumpRange(file, kQ1Textures);
            put32(file, lump + 8, length - 20);
            expectDecodeError(file, "textures", "miptex 1 offset");
        }
        DYNAMIC_SECTION("a face lightmap past the lighting lump, " << q1VariantName(v)) {
            Q1MapBuilder b = base;
            // Face 1 needs 4 x 4 x 2 luxels (x 3 bytes in Half-Life) of the 47 (141).
            b.faces[1].lightOffset = quake(v) ? 16 : 48;
            expectDecodeError(b.build(), "faces", "face 1 lightmap (4x4 luxels x 2 styles");
        }
        DYNAMIC_SECTION("a negative lighting offset, " << q1VariantName(v)) {
            Q1MapBuilder b = base;
            b.faces[0].lightOffset = -5;
            expectDecodeError(b.build(), "faces", "negative lighting offset -5");
        }
        DYNAMIC_SECTION("a face lightmap too large to be real, " << q1VariantName(v)) {
            Q1MapBuilder b = base;
            b.texinfos[0].s = {1000, 0, 0, 0};
            expectDecodeError(b.build(), "faces", "at most 1024");
        }
        DYNAMIC_SECTION("a node child out of range, " << q1VariantName(v)) {
            Q1MapBuilder b = base;
            b.nodes[1].children[1] = 7;  // BSP29: an unsigned 7 past the node count is leaf 65535 - 7
            expectDecodeError(b.build(), "nodes", "node 1 child");
            b = base;
            b.nodes[1].children[0] = -10;
            expectDecodeError(b.build(), "nodes", "child -10");
            b = base;
            b.nodes[1].children[0] = 0;  // back up the tree
            expectDecodeError(b.build(), "nodes", "neither a later node");
        }
        DYNAMIC_SECTION("a leaf visofs past the visibility lump, " << q1VariantName(v)) {
            Q1MapBuilder b = base;
            b.pvs.reset();
            b.rawLumps[kQ1Visibility] = Bytes{0x01, 0x03};
            b.leaves[1].visOffset = 0;
            b.leaves[2].visOffset = 100;
            expectDecodeError(b.build(), "leafs", "visibility offset 100");
        }
        DYNAMIC_SECTION("a model's visible leaves past the leaves, " << q1VariantName(v)) {
            Q1MapBuilder b = base;
            b.models[0].visLeaves = 3;
            expectDecodeError(b.build(), "models", "visible leaves");
        }
        DYNAMIC_SECTION("a leaf's marksurfaces past the lump, " << q1VariantName(v)) {
            Q1MapBuilder b = base;
            b.leaves[2].numMarkSurfaces = 2;
            expectDecodeError(b.build(), "leafs", "marksurface range");
        }
        DYNAMIC_SECTION("a record lump of the wrong size, " << q1VariantName(v)) {
            Bytes file = base.build();
            const auto [offset, length] = q1LumpRange(file, kQ1Faces);
            setQ1LumpRange(file, kQ1Faces, offset, length - 1);
            expectDecodeError(file, "faces", "multiple of the record size " + std::to_string(rec.face));
        }
        DYNAMIC_SECTION("a BSPX directory with an out-of-range lump, " << q1VariantName(v)) {
            Q1MapBuilder b = base;
            b.addBspx("LMSHIFT", {4, 4});
            Bytes file = b.build();
            const size_t dir = q1BspxDirectory(file);
            REQUIRE(dir > 0);
            put32(file, dir + 8 + 24, uint32_t(file.size() - 1));
            expectDecodeError(file, "bspx", "BSPX lump LMSHIFT");
            expectDecodeError(file, "bspx", "lies outside");
            put32(file, dir + 4, 100000);
            expectDecodeError(file, "bspx", "BSPX directory of 100000 lumps");
        }
        DYNAMIC_SECTION("a BSPX lump listed twice, " << q1VariantName(v)) {
            Q1MapBuilder b = base;
            b.addBspx("LMSHIFT", {4, 4});
            b.addBspx("LMSHIFT", {4, 4});
            expectDecodeError(b.build(), "bspx", "LMSHIFT listed twice");
        }
        DYNAMIC_SECTION("BSPX per-face lumps of the wrong size or with bad values, " << q1VariantName(v)) {
            Q1MapBuilder b = base;
            b.addBspx("LMSHIFT", {4, 4, 4});
            expectDecodeError(b.build(), "LMSHIFT", "LMSHIFT holds 3 bytes");
            b = base;
            b.addBspx("LMSHIFT", {4, 11});
            expectDecodeError(b.build(), "LMSHIFT", "luxel shift 11");
            b = base;
            b.addBspx("DECOUPLED_LM", Bytes(79));
            expectDecodeError(b.build(), "DECOUPLED_LM", "DECOUPLED_LM holds 79 bytes");
            b = base;
            Q1Decoupled d{4, 4, 0, {{{NAN, 0, 0, 0}, {0, 1, 0, 0}}}};
            b.addBspx("DECOUPLED_LM", q1DecoupledLump({d, d}));
            expectDecodeError(b.build(), "DECOUPLED_LM", "non-finite");
            b = base;
            b.addBspx("LMSHIFT", {2, 4});  // face 0's 17x9 luxels do not fit the lump
            expectDecodeError(b.build(), "faces", "extends past");
        }
        if (!quake(v)) continue;
        DYNAMIC_SECTION("RGBLIGHTING of the wrong length, " << q1VariantName(v)) {
            Q1MapBuilder b = base;
            Bytes rgb = b.rgbLighting;
            rgb.pop_back();
            b.addBspx("RGBLIGHTING", rgb);
            expectDecodeError(b.build(), "RGBLIGHTING", "RGBLIGHTING holds 140 bytes, not 3 x the 47");
        }
        DYNAMIC_SECTION("a .lit of the wrong length, " << q1VariantName(v)) {
            Bytes lit = base.litFile();
            lit.resize(lit.size() - 3);
            expectDecodeError(base.build(), "lit", ".lit holds 138 bytes of light, not 3 x the 47", {{"test.lit", lit}});
            try {
                decodeMap(memorySource(base.build(), "test.bsp", {{"test.lit", lit}}));
            } catch (const DecodeError& e) {
                CHECK(e.file() == "test.lit");
            }
        }
        DYNAMIC_SECTION("a .lit with a bad header or version, " << q1VariantName(v)) {
            Bytes lit = base.litFile();
            lit[3] = 'X';
            expectDecodeError(base.build(), "lit", "QLIT", {{"test.lit", lit}});
            expectDecodeError(base.build(), "lit", "QLIT", {{"test.lit", Bytes{'Q', 'L', 'I', 'T'}}});
            expectDecodeError(base.build(), "lit", "version 2", {{"test.lit", q1LitFile(base.rgbLighting, 2)}});
        }
        DYNAMIC_SECTION("a face lightmap past an RGB source, " << q1VariantName(v)) {
            // A .lit that holds what the grey lump holds is read at 3 x the offset: a face's block must fit it.
            Q1MapBuilder b = base;
            b.faces[1].lightOffset = 16;
            expectDecodeError(b.build(), "faces", "extends past the .lit", {{"test.lit", b.litFile()}});
        }
    }
}

TEST_CASE("q1: truncated and corrupted maps are DecodeErrors or decode, never anything else", "[q1]") {
    std::mt19937 rng(29);
    for (const Q1Variant v : kQ1Variants) {
        INFO(q1VariantName(v));
        Q1FloorOptions o;
        o.lmShift = std::array<uint8_t, 2>{3, 4};
        o.bspxRgb = quake(v);
        const Q1MapBuilder b = makeQ1FloorMap(v, o);
        const Bytes file = b.build();
        size_t errors = 0, decoded = 0;
        auto attempt = [&](const Bytes& bytes, bool lit) {
            std::map<std::string, Bytes> related;
            if (lit) related["test.lit"] = b.litFile();
            try {
                const World w = decodeMap(memorySource(bytes, "test.bsp", related));
                ++decoded;
            } catch (const DecodeError&) {
                ++errors;
            }
        };
        for (size_t cut = 0; cut < file.size(); cut += 3) attempt(Bytes(file.begin(), file.begin() + long(cut)), false);
        for (int k = 0; k < 3000; ++k) {
            Bytes bytes = file;
            const int flips = 1 + int(rng() % 4);
            for (int f = 0; f < flips; ++f) {
                const size_t at = rng() % bytes.size();
                switch (rng() % 3) {
                    case 0: bytes[at] = uint8_t(rng()); break;
                    case 1: bytes[at] ^= uint8_t(1u << (rng() % 8)); break;
                    default: bytes[at] = rng() % 2 ? 0xff : 0x00; break;
                }
            }
            attempt(bytes, k % 2 == 1);
        }
        CHECK(errors > 0);
        CHECK(decoded > 0);
    }
}

// ---- The shared LibreQuake builds ----------------------------------------------------------------

namespace {

std::string lqdm1(const std::string& build, const std::string& file) { return *sharedMaps() + "/q1/lqdm1/" + build + "/" + file; }

// Every face the reader found lit, against the decoded World: the same block size and every style-0 luxel
// byte x 264 / 256 / 255. Liquids ('*' textures) are the exception: ericw-tools lights them, the decoder draws
// them unlit (load_q1.cpp) and gives them no block.
void compareWithReader(const Q1Lighting& raw, const World& w) {
    REQUIRE(w.surfaces.size() == raw.faces);
    std::set<uint32_t> readerLit;
    size_t compared = 0, wrong = 0, sizes = 0, liquids = 0, outside = 0;
    for (const Q1FaceLight& f : raw.lit) {
        const Surface& s = w.surfaces[f.face];
        if (!f.texture.empty() && f.texture[0] == '*') {
            ++liquids;
            CHECK(s.lightmapPage < 0);
            continue;
        }
        readerLit.insert(f.face);
        REQUIRE(s.lightmapPage >= 0);
        if (s.lightmapRect[2] != f.width || s.lightmapRect[3] != f.height) {
            ++sizes;
            continue;
        }
        for (int32_t k = 0; k < 4; ++k) CHECK(s.styles[size_t(k)] == f.styles[size_t(k)]);
        // Every corner lies on the block: its luxel coordinate within 0..size - 1 (the extents are its bounds).
        const LightmapPage& page = w.lightmaps.at(size_t(s.lightmapPage));
        for (uint32_t k = 0; k < s.numVertices; ++k) {
            const Vec2 uv = w.vertices[s.firstVertex + k].lightmapUV;
            const double u = double(uv.x) * page.width - 0.5 - s.lightmapRect[0], v = double(uv.y) * page.height - 0.5 - s.lightmapRect[1];
            outside += u < -1e-3 || v < -1e-3 || u > f.width - 1 + 1e-3 || v > f.height - 1 + 1e-3;
        }
        for (int j = 0; j < f.height; ++j)
            for (int i = 0; i < f.width; ++i) {
                const Vec3 got = luxelAt(w, 0, s, i, j);
                const uint8_t* want = f.rgb.data() + (size_t(j) * size_t(f.width) + size_t(i)) * 3;
                wrong += !(got == Vec3{stored(want[0]), stored(want[1]), stored(want[2])});
                ++compared;
            }
    }
    // And no face the reader leaves unlit has a block.
    size_t extra = 0;
    for (size_t i = 0; i < w.surfaces.size(); ++i) extra += w.surfaces[i].lightmapPage >= 0 && !readerLit.count(uint32_t(i));
    INFO(raw.lit.size() << " lit faces, " << liquids << " liquids");
    CHECK(sizes == 0);
    CHECK(extra == 0);
    CHECK(outside == 0);
    CHECK(compared > 50000);
    CHECK(wrong == 0);
}

}  // namespace

TEST_CASE("q1 maps: lqdm1's luxels against an independent reading (BSP29 + .lit, BSP2 + BSPX RGBLIGHTING)", "[q1][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    if (!std::filesystem::exists(lqdm1("bsp29_lit", "lqdm1.bsp"))) {
        WARN("SKIPPED: " << lqdm1("bsp29_lit", "lqdm1.bsp") << " not found");
        return;
    }
    SECTION("BSP29 + .lit") {
        const Q1Lighting raw = readQ1Lighting(lqdm1("bsp29_lit", "lqdm1.bsp"), lqdm1("bsp29_lit", "lqdm1.lit"));
        CHECK(raw.variant == "BSP29");
        CHECK(raw.source == ".lit");
        const World w = decodeMap(openMapPath(lqdm1("bsp29_lit", "lqdm1.bsp")));
        CHECK(w.lightSource == ".lit (lqdm1.lit)");
        compareWithReader(raw, w);
    }
    SECTION("BSP29 without its .lit: the grey lump") {
        const Q1Lighting raw = readQ1Lighting(lqdm1("bsp29_lit", "lqdm1.bsp"));
        CHECK(raw.source == "grey");
        const Bytes bytes = readFile(lqdm1("bsp29_lit", "lqdm1.bsp"));
        const World w = decodeMap(memorySource(bytes, "lqdm1.bsp"));
        CHECK(w.lightSource == "lighting lump (grey)");
        compareWithReader(raw, w);
    }
    SECTION("BSP2 + BSPX RGBLIGHTING") {
        const Q1Lighting raw = readQ1Lighting(lqdm1("bsp2_bspx", "lqdm1.bsp"));
        CHECK(raw.variant == "BSP2");
        CHECK(raw.source == "BSPX RGBLIGHTING");
        const World w = decodeMap(openMapPath(lqdm1("bsp2_bspx", "lqdm1.bsp")));
        CHECK(w.lightSource == "BSPX RGBLIGHTING");
        compareWithReader(raw, w);
    }
}

TEST_CASE("q1 maps: the other shared builds against the independent reading (.lit, DECOUPLED_LM, unlit)", "[q1][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    struct Build {
        std::string map, lit, source;
        bool decoupled;
    };
    const std::string q1 = *sharedMaps() + "/q1/";
    const Build builds[] = {
        {"lq_e1m2/bsp29_lit/lq_e1m2.bsp", "lq_e1m2/bsp29_lit/lq_e1m2.lit", ".lit (lq_e1m2.lit)", false},
        {"lq_e1m2/bsp2_wupl8/lq_e1m2.bsp", "", "BSPX RGBLIGHTING", true},
        {"lq_e1m5/bsp29_lit/lq_e1m5.bsp", "lq_e1m5/bsp29_lit/lq_e1m5.lit", ".lit (lq_e1m5.lit)", false},
    };
    for (const Build& b : builds) {
        INFO(b.map);
        if (!std::filesystem::exists(q1 + b.map)) {
            WARN("SKIPPED: " << q1 + b.map << " not found");
            continue;
        }
        const Q1Lighting raw = readQ1Lighting(q1 + b.map, b.lit.empty() ? "" : q1 + b.lit);
        CHECK(raw.decoupled == b.decoupled);
        const World w = decodeMap(openMapPath(q1 + b.map));
        CHECK(w.lightSource == b.source);
        compareWithReader(raw, w);
    }
    // qbsp's output before light: no face has light, and none gets a block.
    for (const char* unlit : {"lqdm1/bsp29_lit/lqdm1.unlit.bsp", "lq_e1m2/bsp29_lit/lq_e1m2.unlit.bsp"}) {
        INFO(unlit);
        if (!std::filesystem::exists(q1 + unlit)) continue;
        CHECK(readQ1Lighting(q1 + unlit).lit.empty());
        const World w = decodeMap(memorySource(readFile(q1 + unlit), "x.bsp"));
        CHECK(w.lightmaps.empty());
        CHECK(std::none_of(w.surfaces.begin(), w.surfaces.end(), [](const Surface& s) { return s.lightmapPage >= 0; }));
    }
}

TEST_CASE("q1 maps: lqdm1's BSP29 + .lit and BSP2 + BSPX builds show the same light on every face", "[q1][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    if (!std::filesystem::exists(lqdm1("bsp2_bspx", "lqdm1.bsp"))) {
        WARN("SKIPPED: " << lqdm1("bsp2_bspx", "lqdm1.bsp") << " not found");
        return;
    }
    const World a = decodeMap(openMapPath(lqdm1("bsp29_lit", "lqdm1.bsp")));
    const World b = decodeMap(openMapPath(lqdm1("bsp2_bspx", "lqdm1.bsp")));
    CHECK(a.formatName == "Quake 1 BSP29");
    CHECK(b.formatName == "Quake 1 BSP2");
    REQUIRE(a.surfaces.size() == b.surfaces.size());
    CHECK(a.surfaces.size() == 4292);
    size_t lit = 0, differ = 0;
    for (size_t i = 0; i < a.surfaces.size(); ++i) {
        const Surface& sa = a.surfaces[i];
        const Surface& sb = b.surfaces[i];
        REQUIRE((sa.lightmapPage >= 0) == (sb.lightmapPage >= 0));
        CHECK(sa.styles == sb.styles);
        if (sa.lightmapPage < 0) continue;
        ++lit;
        REQUIRE(sa.lightmapRect[2] == sb.lightmapRect[2]);
        REQUIRE(sa.lightmapRect[3] == sb.lightmapRect[3]);
        for (int j = 0; j < sa.lightmapRect[3]; ++j)
            for (int k = 0; k < sa.lightmapRect[2]; ++k) differ += !(luxelAt(a, 0, sa, k, j) == luxelAt(b, 0, sb, k, j));
    }
    CHECK(lit == 3490);  // 3707 faces with light less 217 of *water0, which the decoder leaves unlit
    CHECK(differ == 0);
}
