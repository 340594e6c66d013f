// The Quake 1 / Half-Life decoder on synthetic maps written by tests/support/q1_writer (BSP29, 2PSB, BSP2, BSP30):
// the neutral model, lightmap extents (with BSPX LMSHIFT and DECOUPLED_LM), luxel values, the light source's
// precedence (BSPX RGBLIGHTING, .lit, grey), styles, leaf-based visibility, viewpoints, the miptex decode through a
// palette and the material loader. Hostile input: q1_decode_errors_test.cpp; the shared builds: q1_decode_maps_test.cpp.
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
#include "support/q1_checks.hpp"
#include "support/q1_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

// Every luxel of surface `face`'s slot `slot` equals the floor map's byte (grey, or RGB when `rgb`).
void checkFloorBlock(const World& w, int face, int slot, bool rgb) {
    const Surface& s = w.surfaces[size_t(face)];
    const bool hl = w.format == MapFormat::HalfLife;
    size_t wrong = 0;
    for (int j = 0; j < s.lightmapRect[3]; ++j)
        for (int i = 0; i < s.lightmapRect[2]; ++i) {
            const Vec3 got = luxelAt(w, slot, s, i, j);
            Vec3 want;
            if (rgb) {
                const auto c = q1FloorRgb(face, slot, i, j);
                want = {stored(c[0], hl), stored(c[1], hl), stored(c[2], hl)};
            } else {
                const float g = stored(q1FloorGrey(face, slot, i, j), hl);
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
        // Luxel (0, 0) of face 0 by hand: grey byte 5 -> 5 x 264 / 256 / 255 (Half-Life: x 338 / 256 more).
        CHECK(luxelAt(w, 0, s0, 0, 0).x == Approx(5 * 1.03125 * (quake(v) ? 1.0 : 1.3203125) / 255.0));
        // Half-Life: luxel (2, 1) of face 1's second style: grey 5 + 20 + 25 + 100 + 60 = 210 -> (210, 45, 118).
        if (!quake(v)) CHECK(near(luxelAt(w, 1, s1, 2, 1), Vec3{stored(210, true), stored(45, true), stored(118, true)}));
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
        // R_BuildLightMap clears a block to no light and adds the face's maps: in a map with light data, a face
        // with no offset or no style gets one black luxel of style 0.
        auto checkDark = [](const World& w, const Surface& s) {
            REQUIRE(s.lightmapPage >= 0);
            CHECK(s.lightmapRect[2] == 1);
            CHECK(s.lightmapRect[3] == 1);
            CHECK(s.styles == std::array<uint8_t, 4>{0, 255, 255, 255});
            CHECK(luxelAt(w, 0, s, 0, 0) == Vec3{0, 0, 0});
        };
        DYNAMIC_SECTION("no lighting offset: black, " << q1VariantName(v)) {
            Q1MapBuilder b = makeQ1FloorMap(v);
            b.faces[1].lightOffset = -1;
            const World w = decodeQ1(b);
            checkDark(w, w.surfaces[1]);
            CHECK(w.surfaces[0].lightmapPage == 0);
            CHECK(w.extraLightmapSlots[0].empty());
        }
        DYNAMIC_SECTION("an offset but no style: black, " << q1VariantName(v)) {
            Q1MapBuilder b = makeQ1FloorMap(v);
            b.faces[1].styles = {255, 255, 255, 255};
            const World w = decodeQ1(b);
            checkDark(w, w.surfaces[1]);
            CHECK(w.surfaces[0].lightmapRect[2] > 1);
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
            b.miptex[1]->name = "!toxic";  // Half-Life's liquids
            CHECK((decodeQ1(b).surfaces[1].lightmapPage < 0) == !quake(v));
        }
        DYNAMIC_SECTION("lit water: liquids without TEX_SPECIAL keep their light (Quake), " << q1VariantName(v)) {
            Q1MapBuilder b = makeQ1FloorMap(v);
            const std::array<int32_t, 4> grateBlock = decodeQ1(b).surfaces[1].lightmapRect;
            b.miptex[1]->name = "*water1";
            const World lit = decodeQ1(b);
            CHECK((lit.surfaces[1].lightmapPage >= 0) == quake(v));
            if (quake(v)) CHECK(lit.surfaces[1].lightmapRect == grateBlock);  // the block it had as a wall
            b.texinfos[1].flags = kQ1TexSpecial;  // qbsp's usual liquids: warped unlit
            CHECK(decodeQ1(b).surfaces[1].lightmapPage < 0);
            // No liquid with light of its own: QuakeSpasm's map has no lit water, and every liquid is unlit.
            b.texinfos[1].flags = 0;
            b.faces[1].lightOffset = -1;
            CHECK(decodeQ1(b).surfaces[1].lightmapPage < 0);
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
