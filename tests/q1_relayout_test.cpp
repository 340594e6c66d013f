// Quake 1 maps laid out anew for the baker, as ericw-tools' light lays out a map fresh from qbsp and vis:
// extents hand-computed for synthetic faces, the faces it gives no lightmap, switchable styles, the lighting
// writer read back by the independent reader, and the shared builds baked from their unlit state against
// ericw-tools' own build of the same file.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "luxel/bsp/decode.hpp"
#include "luxel/bsp/decoupled_layout.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/bsp/write_relaid_lighting.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/light/luxels.hpp"
#include "luxel/light/ericw_lights.hpp"
#include "support/q1_checks.hpp"
#include "support/q1_lighting_reader.hpp"
#include "support/q1_writer.hpp"
#include "support/q2_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;


TEST_CASE("relayout: extents at 16 units a luxel and only the faces light would light", "[q1][relayout]") {
    for (Q1Variant v : kQ1Variants) {
        INFO(q1VariantName(v));
        const Bytes file = makeQ1LayoutMap(v).build();
        DecodeOptions o;
        o.relayoutLightmaps = true;
        const World w = decodeMap(memorySource(file, "test.bsp"), o);
        REQUIRE(w.surfaces.size() == 5);
        // Face 0: s 0..64 -> luxels 0..4, t 0..32 -> 0..2. Face 1: s 72..104 -> 4..7, t -4..28 -> -1..2.
        // Face 2: corners (s, t) (3, 0) (19, 16) (51, -16) (35, -32): s 3..51 -> floor 0, ceil 3.19 = 4: 5 wide;
        // t -32..16 -> -2..1: 4 high.
        const std::array<std::array<int32_t, 2>, 3> sizes{{{5, 3}, {4, 4}, {5, 4}}};
        for (size_t f = 0; f < 3; ++f) {
            const Surface& s = w.surfaces[f];
            REQUIRE(s.lightmapPage >= 0);
            CHECK(s.lightmapRect[2] == sizes[f][0]);
            CHECK(s.lightmapRect[3] == sizes[f][1]);
            CHECK(s.styles == std::array<uint8_t, 4>{0, 255, 255, 255});
        }
        CHECK(w.surfaces[3].lightmapPage < 0);  // TEX_SPECIAL
        CHECK(w.surfaces[4].lightmapPage < 0);  // "trigger"
        // The stored light is not read: every page texel is zero.
        for (const LightmapPage& p : w.lightmaps) CHECK(std::all_of(p.rgb.begin(), p.rgb.end(), [](float x) { return x == 0; }));
        CHECK(w.extraLightmapSlots[0].empty());
    }
}

TEST_CASE("relayout: light entities with a targetname get switchable styles from 32", "[q1][relayout]") {
    std::vector<Entity> e(6);
    e[0].keys = {{"classname", "worldspawn"}};
    e[1].keys = {{"classname", "light"}, {"targetname", "a"}};
    e[2].keys = {{"classname", "light_flame_small_white"}, {"style", "5"}, {"targetname", "b"}, {"light", "200"}};
    e[3].keys = {{"classname", "light"}, {"targetname", "a"}};
    e[4].keys = {{"classname", "info_null"}, {"targetname", "c"}};
    e[5].keys = {{"classname", "light"}, {"style", "3"}};
    const std::vector<Entity> s = withSwitchableStyles(e);
    CHECK(s[1].keys.back() == std::pair<std::string, std::string>{"style", "32"});
    CHECK(s[2].keys[1] == std::pair<std::string, std::string>{"style", "33"});  // replaced where it stood
    CHECK(s[2].keys.size() == 4);
    CHECK(s[3].keys.back() == std::pair<std::string, std::string>{"style", "32"});
    CHECK(s[4].keys == e[4].keys);
    CHECK(s[5].keys == e[5].keys);
    const std::vector<Light> lights = ericwLights(e, EricwGame::Quake1);
    REQUIRE(lights.size() == 4);
    CHECK(lights[0].style == 32);
    CHECK(lights[1].style == 33);
    CHECK(lights[3].style == 3);
    CHECK(entitiesLumpText({e[4]}) == std::string("{\n\"classname\" \"info_null\"\n\"targetname\" \"c\"\n}\n") + '\0');
}

TEST_CASE("relayout: the lighting writer's bytes read back by the independent reader", "[q1][relayout]") {
    for (Q1Variant v : {Q1Variant::Bsp29, Q1Variant::Bsp2}) {
        INFO(q1VariantName(v));
        const Bytes file = makeQ1LayoutMap(v).build();
        const MapSource source = memorySource(file, "test.bsp");
        DecodeOptions o;
        o.relayoutLightmaps = true;
        World w = decodeMap(source, o);
        // Face 0 keeps styles 0 and 7, face 1 none (stored unlit), face 2 style 0. Luxel value b at texel b of
        // a slot: linear b x 264 / 256 / 255 must come back as byte b; the colour (b, b / 2, 3) so the grey
        // byte (the largest channel) is b.
        w.surfaces[0].styles = {0, 7, 255, 255};
        w.surfaces[1].styles = {255, 255, 255, 255};
        LightmapSet set;
        set.slots[0] = w.lightmaps;
        set.slots[1] = w.lightmaps;
        auto fill = [&](size_t slot, const Surface& s, int base) {
            LightmapPage& p = set.slots[slot][size_t(s.lightmapPage)];
            for (int y = 0; y < s.lightmapRect[3]; ++y)
                for (int x = 0; x < s.lightmapRect[2]; ++x) {
                    const int b = base + y * s.lightmapRect[2] + x;
                    float* t = p.rgb.data() + (size_t(s.lightmapRect[1] + y) * size_t(p.width) + size_t(s.lightmapRect[0] + x)) * 3;
                    t[0] = stored(uint8_t(b)), t[1] = stored(uint8_t(b / 2)), t[2] = stored(3);
                }
        };
        fill(0, w.surfaces[0], 10);
        fill(1, w.surfaces[0], 100);
        fill(0, w.surfaces[2], 200);
        RelaidOutLightingOptions options;
        options.lit = options.bspxLit = true;
        const RelaidOutLightingFiles out = writeRelaidOutLighting(source, w, set, options);
        REQUIRE(out.lit);
        const std::string dir = tempDir("q1-relayout-writer");
        const std::string bsp = dir + "/out.bsp", lit = dir + "/out.lit";
        std::ofstream(bsp, std::ios::binary).write(reinterpret_cast<const char*>(out.map.data()), std::streamsize(out.map.size()));
        std::ofstream(lit, std::ios::binary).write(reinterpret_cast<const char*>(out.lit->data()), std::streamsize(out.lit->size()));
        const Q1Lighting read = readQ1Lighting(bsp, lit);
        CHECK(read.source == "BSPX RGBLIGHTING");
        REQUIRE(read.lit.size() == 2);
        CHECK(read.lit[0].face == 0);
        CHECK(read.lit[0].styles == std::array<uint8_t, 4>{0, 7, 255, 255});
        CHECK(read.lit[1].face == 2);
        CHECK(read.lit[1].width == 5);
        CHECK(read.lit[1].height == 4);
        for (const Q1FaceLight& f : read.lit) {
            const int base = f.face == 0 ? 10 : 200;
            for (int k = 0; k < f.width * f.height; ++k) {
                CHECK(f.rgb[size_t(k) * 3] == uint8_t(base + k));
                CHECK(f.rgb[size_t(k) * 3 + 1] == uint8_t((base + k) / 2));
                CHECK(f.rgb[size_t(k) * 3 + 2] == 3);
            }
        }
        // The .lit is 3 x the grey lump, whose byte is the brightest channel; face 0's second style sits right
        // after its first, face 2 after both.
        const auto [lightOffset, lightLength] = q1LumpRange(out.map, kQ1Lighting);
        CHECK(out.lit->size() == 8 + 3 * size_t(lightLength));
        const uint8_t* grey = out.map.data() + lightOffset;
        CHECK(grey[15] == 100);  // face 0 slot 1 luxel 0, after the 5 x 3 luxels of slot 0
        CHECK(grey[30] == 200);  // face 2 luxel 0, after face 0's two slots
    }
}

TEST_CASE("relayout: a texinfo whose extents run to millions of luxels is refused before anything is allocated", "[q1][relayout]") {
    for (const float scale : {1.0e5f, 1.0e12f}) {
        Q1MapBuilder b = makeQ1FloorMap(Q1Variant::Bsp29);
        b.texinfos[0].s = {scale, 0, 0, 0};
        DecodeOptions o;
        o.relayoutLightmaps = true;
        const Bytes file = b.build();
        try {
            (void)decodeMap(memorySource(file, "test.bsp"), o);
            FAIL("decoded a face " << scale << " texels a unit wide");
        } catch (const DecodeError& e) {
            CHECK(e.lump() == "faces");
            CHECK_THAT(e.what(), Catch::Contains("face 0"));
        }
    }
}

TEST_CASE("relayout: LIGHTINGDIR holds each luxel's light direction in the face's texture space", "[q1][relayout]") {
    // The floor map's face 0: plane z = 0 facing +z, texture s = x, t = y, so light's axes are s (1, 0, 0),
    // -t (0, -1, 0) and the normal (0, 0, 1). Directions (0, 0, 1), (0.6, 0, 0.8), (0, 0.6, 0.8) and none give
    // (0, 0, 1), (0.6, 0, 0.8), (0, -0.6, 0.8), (0, 0, 1), each c stored as int((c + 1) x 128) at most 255:
    // (128, 128, 255), (204, 128, 230), (128, 51, 230), (128, 128, 255).
    const Bytes file = makeQ1LayoutMap(Q1Variant::Bsp29).build();
    const MapSource source = memorySource(file, "test.bsp");
    DecodeOptions o;
    o.relayoutLightmaps = true;
    World w = decodeMap(source, o);
    w.surfaces[1].styles = w.surfaces[2].styles = {255, 255, 255, 255};
    LightmapSet set;
    set.slots[0] = w.lightmaps;
    std::array<std::vector<LightmapPage>, 4> directions;
    directions[0] = w.lightmaps;
    const Surface& s = w.surfaces[0];
    LightmapPage& d = directions[0][size_t(s.lightmapPage)];
    const std::array<Vec3, 4> dirs{Vec3{0, 0, 1}, Vec3{0.6f, 0, 0.8f}, Vec3{0, 0.6f, 0.8f}, Vec3{}};
    for (size_t k = 0; k < dirs.size(); ++k) {
        float* t = d.rgb.data() + (size_t(s.lightmapRect[1]) * size_t(d.width) + size_t(s.lightmapRect[0]) + k) * 3;
        t[0] = dirs[k].x, t[1] = dirs[k].y, t[2] = dirs[k].z;
    }
    RelaidOutLightingOptions options;
    options.bspxLux = true;
    options.directions = &directions;
    const RelaidOutLightingFiles out = writeRelaidOutLighting(source, w, set, options);
    const size_t dir = q1BspxDirectory(out.map);
    REQUIRE(dir > 0);
    REQUIRE(le32(out.map, dir + 4) == 1);
    CHECK(std::string(reinterpret_cast<const char*>(out.map.data() + dir + 8)) == "LIGHTINGDIR");
    const uint32_t at = le32(out.map, dir + 8 + 24), length = le32(out.map, dir + 8 + 28);
    CHECK(length == 3 * 15);  // face 0's 5 x 3 luxels, the only lit face
    const std::array<std::array<uint8_t, 3>, 4> expected{{{128, 128, 255}, {204, 128, 230}, {128, 51, 230}, {128, 128, 255}}};
    for (size_t k = 0; k < expected.size(); ++k)
        for (size_t c = 0; c < 3; ++c) CHECK(int(out.map[at + k * 3 + c]) == int(expected[k][c]));
}

TEST_CASE("relayout: qbsp's LMSHIFT sizes the new blocks and stays in the written map", "[q1][relayout]") {
    // LMSHIFT 3 on face 0 (8 units a luxel): s 0..64 -> luxels 0..8, t 0..32 -> 0..4: 9 x 5. LMSHIFT 5 on face 1
    // (32 units): s 72..104 -> floor 2.25 = 2 .. ceil 3.25 = 4, t -4..28 -> -1..1: 3 x 3.
    Q1FloorOptions shift;
    shift.lmShift = std::array<uint8_t, 2>{3, 5};
    const Bytes file = makeQ1FloorMap(Q1Variant::Bsp29, shift).build();
    const MapSource source = memorySource(file, "test.bsp");
    DecodeOptions o;
    o.relayoutLightmaps = true;
    const World w = decodeMap(source, o);
    REQUIRE(w.surfaces[0].lightmapPage >= 0);
    CHECK(w.surfaces[0].lightmapRect[2] == 9);
    CHECK(w.surfaces[0].lightmapRect[3] == 5);
    CHECK(w.surfaces[1].lightmapRect[2] == 3);
    CHECK(w.surfaces[1].lightmapRect[3] == 3);
    LightmapSet set;
    set.slots[0] = w.lightmaps;
    const RelaidOutLightingFiles out = writeRelaidOutLighting(source, w, set, {});
    const size_t dir = q1BspxDirectory(out.map);
    REQUIRE(dir > 0);
    bool kept = false;
    for (uint32_t k = 0; k < le32(out.map, dir + 4); ++k)
        kept = kept || std::string(reinterpret_cast<const char*>(out.map.data() + dir + 8 + 32 * k)) == "LMSHIFT";
    CHECK(kept);
}

TEST_CASE("relayout: --lmshift lays every face out at 2^N units and replaces the map's LMSHIFT", "[q1][relayout][cli]") {
    // qbsp's LMSHIFT {3, 5} on the floor map, baked with --lmshift 2 (4 units a luxel): face 0 s 0..64 -> luxels
    // 0..16, t 0..32 -> 0..8: 17 x 9; face 1 s 72..104 -> 18..26, t -4..28 -> -1..7: 9 x 9. The written map carries
    // LMSHIFT 2 for both faces, and luxel's decoder reads those sizes back from it.
    Q1FloorOptions qbspShift;
    qbspShift.lmShift = std::array<uint8_t, 2>{3, 5};
    const std::string dir = tempDir("q1-relayout-lmshift");
    Q1MapBuilder b = makeQ1FloorMap(Q1Variant::Bsp29, qbspShift);
    b.entities += "{\n\"classname\" \"light\"\n\"origin\" \"48 16 48\"\n\"light\" \"300\"\n}\n";  // both faces lit
    const Bytes file = b.build();
    writeFile(dir + "/floor.bsp", file);
    const CommandResult r = runLuxel("bake " + dir + "/floor.bsp --lmshift 2 --write " + dir + "/out.bsp");
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    const std::string outText = readFileText(dir + "/out.bsp");
    const Bytes out(outText.begin(), outText.end());
    const size_t bspx = q1BspxDirectory(out);
    REQUIRE(bspx > 0);
    size_t found = 0;
    for (uint32_t k = 0; k < le32(out, bspx + 4); ++k) {
        const size_t entry = bspx + 8 + 32 * k;
        if (std::string(reinterpret_cast<const char*>(out.data() + entry)) != "LMSHIFT") continue;
        ++found;
        REQUIRE(le32(out, entry + 28) == 2);  // one byte per face
        CHECK(out[le32(out, entry + 24)] == 2);
        CHECK(out[le32(out, entry + 24) + 1] == 2);
    }
    CHECK(found == 1);
    const World w = decodeMap(memorySource(out, "out.bsp"));
    CHECK(w.surfaces[0].lightmapRect[2] == 17);
    CHECK(w.surfaces[0].lightmapRect[3] == 9);
    CHECK(w.surfaces[1].lightmapRect[2] == 9);
    CHECK(w.surfaces[1].lightmapRect[3] == 9);
    // Out of range, or on a map laid out as stored: one clear line.
    const CommandResult bad = runLuxel("bake " + dir + "/floor.bsp --lmshift 11 --write " + dir + "/bad.bsp");
    CHECK(bad.exitCode != 0);
    CHECK_THAT(bad.err, Catch::Contains("lmshift"));
}

TEST_CASE("relayout: a sun straight down leaves the floor under a roof dark, its edge where the roof ends", "[q1][relayout][cli]") {
    // The floor map's face 0 (x 0..64, y 0..32 at z = 0, 5 x 3 luxels at x = 0, 16, 32, 48, 64) under a roof over
    // x 0..32 at z = 64 and a sky face over all of it at z = 128, and worldspawn "_sunlight" 100 along "_sun_mangle"
    // 0 -90 0 (straight down). Luxels at x = 0 and 16 are shadowed; those at 48 and 64 see the sky: 100 x ((1 - 0.5)
    // + 0.5 cos 0) x rangescale 0.5 = 50 in the grey lump. Without the sky face the sun's rays leave the map meeting
    // nothing, and ericw-tools' LightFace_Sky (its first hit must be a sky face) lights nothing.
    const std::string dir = tempDir("q1-relayout-sun");
    auto bake = [&](bool skyFace) {
        Q1MapBuilder b = makeQ1FloorMap(Q1Variant::Bsp29);
        const int32_t roofPlane = b.addPlane({0, 0, 1}, 64);
        b.addFace({{0, 0, 64}, {32, 0, 64}, {32, 32, 64}, {0, 32, 64}}, roofPlane, true, 0);
        if (skyFace) {
            const int32_t skyPlane = b.addPlane({0, 0, 1}, 128);
            const int32_t skyTexinfo = b.addTexinfo({1, 0, 0, 0}, {0, 1, 0, 0}, b.addMiptex("sky1", 16, 16, std::vector<uint8_t>(256, 3)), 1);
            b.addFace({{-64, -64, 128}, {160, -64, 128}, {160, 96, 128}, {-64, 96, 128}}, skyPlane, true, skyTexinfo);
        }
        b.models[0].numFaces = int32_t(b.faces.size());
        b.entities = "{\n\"classname\" \"worldspawn\"\n\"_sunlight\" \"100\"\n\"_sun_mangle\" \"0 -90 0\"\n}\n";
        const Bytes map = b.build();
        const std::string name = skyFace ? "sun" : "nosky";
        std::ofstream(dir + "/" + name + ".bsp", std::ios::binary).write(reinterpret_cast<const char*>(map.data()), std::streamsize(map.size()));
        const CommandResult r = runLuxel("bake " + dir + "/" + name + ".bsp --write " + dir + "/" + name + "-out.bsp");
        INFO(r.err);
        REQUIRE(r.exitCode == 0);
        return readQ1Lighting(dir + "/" + name + "-out.bsp");
    };
    const Q1Lighting noSky = bake(false);
    CHECK(std::none_of(noSky.lit.begin(), noSky.lit.end(), [](const Q1FaceLight& f) { return f.face == 0; }));
    const Q1Lighting lit = bake(true);
    const auto face = std::find_if(lit.lit.begin(), lit.lit.end(), [](const Q1FaceLight& f) { return f.face == 0; });
    REQUIRE(face != lit.lit.end());
    REQUIRE(face->width == 5);
    for (int row = 0; row < face->height; ++row) {
        INFO("row " << row);
        const uint8_t* luxel = face->rgb.data() + size_t(row) * 5 * 3;
        CHECK(int(luxel[0]) == 0);
        CHECK(int(luxel[3]) == 0);
        CHECK(int(luxel[9]) == 50);
        CHECK(int(luxel[12]) == 50);
    }
}

TEST_CASE("relayout: a sun just below the horizon lights a floor at (1 - anglescale); one further below lights none of it", "[q1][relayout][cli]") {
    // The floor map's face 0 (z = 0, 5 x 3 luxels, samples 1 unit above it) and a sky wall at x = -32 that the
    // sun's rays meet when they leave the floor toward -x. The sun travels along +x, "pitch" degrees upward: it
    // stands below the floor's horizon. ericw-tools' LightFace_Sky culls a flat face only when its plane turns
    // from the sun by a cosine below -0.01 (0.3 degrees: -0.0052, lit; 5 degrees: -0.087, culled), and clamps each
    // sample's cosine at 0: 100 x ((1 - 0.5) + 0.5 x 0) x rangescale 0.5 = 25 at every luxel. The rays dip only
    // 0.5 units (0.3 degrees) on their way to the wall, so nothing shadows them; at 5 degrees they would reach the
    // wall too (below the floor's level, past its edge), so only the cull keeps the face dark.
    const std::string dir = tempDir("q1-relayout-low-sun");
    auto bake = [&](const std::string& name, const std::string& pitch) {
        Q1MapBuilder b = makeQ1FloorMap(Q1Variant::Bsp29);
        const int32_t wallPlane = b.addPlane({1, 0, 0}, -32);
        const int32_t skyTexinfo = b.addTexinfo({0, 1, 0, 0}, {0, 0, 1, 0}, b.addMiptex("sky1", 16, 16, std::vector<uint8_t>(256, 3)), 1);
        b.addFace({{-32, -64, -64}, {-32, 96, -64}, {-32, 96, 128}, {-32, -64, 128}}, wallPlane, false, skyTexinfo);
        b.models[0].numFaces = int32_t(b.faces.size());
        b.entities = "{\n\"classname\" \"worldspawn\"\n\"_sunlight\" \"100\"\n\"_sun_mangle\" \"0 " + pitch + " 0\"\n}\n";
        const Bytes map = b.build();
        std::ofstream(dir + "/" + name + ".bsp", std::ios::binary).write(reinterpret_cast<const char*>(map.data()), std::streamsize(map.size()));
        const CommandResult r = runLuxel("bake " + dir + "/" + name + ".bsp --write " + dir + "/" + name + "-out.bsp --json " +
                                         dir + "/" + name + ".json");
        INFO(r.err);
        REQUIRE(r.exitCode == 0);
        // The report's split: the sun's thread time is part of the direct pass (none where the sun is culled);
        // no dirt rays, no dirt time.
        const auto report = nlohmann::json::parse(readFileText(dir + "/" + name + ".json"));
        CHECK((report["time_ms"]["sun_thread"].get<double>() > 0) == (name == "grazing"));
        CHECK(report["time_ms"]["dirt"].get<double>() == 0);
        return readQ1Lighting(dir + "/" + name + "-out.bsp");
    };
    auto face0 = [](const Q1Lighting& l) {
        return std::find_if(l.lit.begin(), l.lit.end(), [](const Q1FaceLight& f) { return f.face == 0; });
    };
    const Q1Lighting grazing = bake("grazing", "0.3");
    const auto lit = face0(grazing);
    REQUIRE(lit != grazing.lit.end());
    REQUIRE(lit->width * lit->height == 15);
    for (size_t k = 0; k < lit->rgb.size(); ++k) CHECK(int(lit->rgb[k]) == 25);
    const Q1Lighting below = bake("below", "5");
    CHECK(face0(below) == below.lit.end());
}

TEST_CASE("relayout: a light placed on a face is moved 2 units out of the solid, as ericw-tools' FixLightsOnFaces", "[q1][relayout][cli]") {
    // A light on the floor plane (z = 0) of the floor map is in solid by Light_PointInSolid_r's rule (within 0.1 of
    // a plane with solid behind it). Moved along -x, +x, -y, +y it stays on the plane, -z is under the floor: +z is
    // the first way out, so it lights as a light at z = 2 does (the same bytes). With "_nonudge" "1" it stays on
    // the plane, below every sample point (1 unit above the floor): nothing reaches the floor, which keeps no style.
    const std::string dir = tempDir("q1-relayout-nudge");
    auto bake = [&](const std::string& name, const std::string& light) {
        Q1MapBuilder b = makeQ1FloorMap(Q1Variant::Bsp29);
        b.entities += "{\n\"classname\" \"light\"\n" + light + "\"light\" \"200\"\n}\n";
        const Bytes map = b.build();
        std::ofstream(dir + "/" + name + ".bsp", std::ios::binary).write(reinterpret_cast<const char*>(map.data()), std::streamsize(map.size()));
        const CommandResult r = runLuxel("bake " + dir + "/" + name + ".bsp --write " + dir + "/" + name + "-out.bsp");
        INFO(r.err);
        REQUIRE(r.exitCode == 0);
        return std::make_pair(readQ1Lighting(dir + "/" + name + "-out.bsp"), r.err);
    };
    const auto [onFace, onFaceLog] = bake("on", "\"origin\" \"32 16 0\"\n");
    const auto [above, aboveLog] = bake("above", "\"origin\" \"32 16 2\"\n");
    const auto [stays, staysLog] = bake("stays", "\"origin\" \"32 16 0\"\n\"_nonudge\" \"1\"\n");
    CHECK_THAT(onFaceLog, Catch::Contains("to 32 16 2"));
    CHECK_THAT(aboveLog, !Catch::Contains("FixLightsOnFaces"));
    auto face0 = [](const Q1Lighting& l) {
        return std::find_if(l.lit.begin(), l.lit.end(), [](const Q1FaceLight& f) { return f.face == 0; });
    };
    REQUIRE(face0(onFace) != onFace.lit.end());
    REQUIRE(face0(above) != above.lit.end());
    CHECK(face0(onFace)->rgb == face0(above)->rgb);
    CHECK(*std::max_element(face0(onFace)->rgb.begin(), face0(onFace)->rgb.end()) > 50);
    CHECK(face0(stays) == stays.lit.end());
}

TEST_CASE("relayout: a texinfo's minlight from texinfo.json floors its faces, in Quake's units", "[q1][relayout][cli]") {
    // No lights; texinfo 0 (the floor map's face 0) has "minlight" 100: every luxel 100 x rangescale 0.5 = 50.
    // Face 1 (texinfo 1) has none: no style reaches 1, so it keeps none.
    const Bytes map = makeQ1FloorMap(Q1Variant::Bsp29).build();
    const std::string dir = tempDir("q1-relayout-minlight");
    std::ofstream(dir + "/floor.bsp", std::ios::binary).write(reinterpret_cast<const char*>(map.data()), std::streamsize(map.size()));
    std::ofstream(dir + "/floor.texinfo.json") << "{\"0\":{\"minlight\":100.0}}";
    const CommandResult r = runLuxel("bake " + dir + "/floor.bsp --write " + dir + "/out.bsp");
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    const Q1Lighting lit = readQ1Lighting(dir + "/out.bsp");
    REQUIRE(lit.lit.size() == 1);
    CHECK(lit.lit[0].face == 0);
    for (uint8_t b : lit.lit[0].rgb) CHECK(int(b) == 50);
}

namespace {

// A surface's vertices in luxel coordinates of its own block (atlasUV undone).
std::vector<Vec2> luxelCoordinates(const World& w, size_t surface) {
    const Surface& s = w.surfaces[surface];
    const LightmapPage& page = w.lightmaps[size_t(s.lightmapPage)];
    std::vector<Vec2> out;
    for (uint32_t k = 0; k < s.numVertices; ++k) {
        const Vec2 uv = w.vertices[s.firstVertex + k].lightmapUV;
        out.push_back({uv.x * float(page.width) - float(s.lightmapRect[0]) - 0.5f,
                       uv.y * float(page.height) - float(s.lightmapRect[1]) - 0.5f});
    }
    return out;
}

}  // namespace

TEST_CASE("q1 relayout at world units per luxel: hand-computed decoupled extents", "[q1][relayout]") {
    // Face 0 of the floor map, (0,0,0)-(64,32,0) facing up: snapped normal +z, tangent cross(z, x) = y,
    // bitangent cross(z, y) = -x; cross(y, -x) = z, so no swap. At 8 units: i = y / 8 in [0, 4], j = -x / 8 in
    // [-8, 0]: 5 x 9 luxels, row 0 (0, 1/8, 0, 0), row 1 (-1/8, 0, 0, 8).
    const Vec3 corners[4] = {{0, 0, 0}, {0, 32, 0}, {64, 32, 0}, {64, 0, 0}};
    const DecoupledLayout d = decoupledLayout(corners, 4, {0, 0, 1}, 8);
    CHECK(d.width == 5);
    CHECK(d.height == 9);
    CHECK(d.worldToLuxel[0] == std::array<float, 4>{0, 0.125f, 0, 0});
    CHECK(d.worldToLuxel[1] == std::array<float, 4>{-0.125f, 0, 0, 8});
    // A wall facing -x, from y = 3 to 21 (not on a luxel boundary): snapped -x, tangent cross(-x, y) = -z,
    // bitangent cross(-x, z) = y; cross(-z, y) = x points against -x: swapped, rows y / 8 and -z / 8.
    const Vec3 wall[4] = {{0, 3, 0}, {0, 3, 20}, {0, 21, 20}, {0, 21, 0}};
    const DecoupledLayout e = decoupledLayout(wall, 4, {-1, 0, 0}, 8);
    CHECK(e.worldToLuxel[0] == std::array<float, 4>{0, 0.125f, 0, -0.0f});  // floor(3 / 8) = 0
    CHECK(e.width == 4);   // ceil(21 / 8) - floor(3 / 8) = 3, plus one
    CHECK(e.height == 4);  // -z / 8 in [-2.5, 0]: ceil 0 - floor -3 = 3, plus one
    CHECK(e.worldToLuxel[1] == std::array<float, 4>{0, 0, -0.125f, 3});
    // Bad geometry gives no layout rather than an overflowing one.
    const Vec3 far[3] = {{0, 0, 0}, {0, 1e30f, 0}, {0, 0, 1}};
    CHECK(decoupledLayout(far, 3, {1, 0, 0}, 8).width == 0);
}

TEST_CASE("q1 relayout at 8 world units per luxel: every face's extents and luxel mapping as ericw-tools' DECOUPLED_LM",
          "[q1][relayout][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const std::string file = *sharedMaps() + "/q1/lq_e1m2/bsp2_wupl8/lq_e1m2.bsp";
    const MapSource source = openMapPath(file);
    const World stored = decodeMap(source);  // light's layout, read from its DECOUPLED_LM lump
    DecodeOptions options;
    options.relayoutLightmaps = true;
    options.relayoutWorldUnitsPerLuxel = 8;
    const World ours = decodeMap(source, options);
    REQUIRE(stored.surfaces.size() == ours.surfaces.size());
    // Every face light wrote a lightmap for is laid out; ours has more (the faces no light reached, which get
    // their styles, or none, from the bake).
    size_t compared = 0, sizes = 0, mappings = 0, missing = 0;
    for (size_t i = 0; i < stored.surfaces.size(); ++i) {
        const bool a = stored.surfaces[i].lightmapPage >= 0 && !darkBlock(stored, stored.surfaces[i]),
                   b = ours.surfaces[i].lightmapPage >= 0;
        if (a && !b) ++missing;
        if (!a || !b) continue;
        ++compared;
        const auto &ra = stored.surfaces[i].lightmapRect, &rb = ours.surfaces[i].lightmapRect;
        if (ra[2] != rb[2] || ra[3] != rb[3]) {
            if (sizes < 5) WARN("face " << i << ": " << ra[2] << "x" << ra[3] << " stored, " << rb[2] << "x" << rb[3] << " ours");
            ++sizes;
            continue;
        }
        const std::vector<Vec2> pa = luxelCoordinates(stored, i), pb = luxelCoordinates(ours, i);
        for (size_t k = 0; k < pa.size(); ++k)
            if (std::fabs(pa[k].x - pb[k].x) > 1e-3f || std::fabs(pa[k].y - pb[k].y) > 1e-3f) {
                ++mappings;
                break;
            }
    }
    INFO(compared << " lit faces compared");
    CHECK(compared > 5000);
    CHECK(missing == 0);
    CHECK(sizes == 0);
    CHECK(mappings == 0);
}

TEST_CASE("relayout: the DECOUPLED_LM writer, its record and the copy at 16 units a luxel, hand-computed", "[q1][relayout]") {
    // Face 0 of the layout map, (0,0,0)-(64,32,0) facing +z, texture s = x, t = y. At 8 world units a luxel its
    // block is 5 x 9 (i = y / 8, j = 8 - x / 8: see the test above); luxel (i, j) is given the byte 10 + i + 5j.
    // The engines' layout is 5 x 3 (s 0..64, t 0..32 over 16); its luxel (u, v) is the world point (16u, 16v, 0),
    // decoupled (2v, 8 - 2u), a whole luxel: the byte 10 + 2v + 5 (8 - 2u) = 50 + 2v - 10u.
    const Bytes file = makeQ1LayoutMap(Q1Variant::Bsp29).build();
    const MapSource source = memorySource(file, "test.bsp");
    DecodeOptions o;
    o.relayoutLightmaps = true;
    o.relayoutWorldUnitsPerLuxel = 8;
    World w = decodeMap(source, o);
    const Surface& s = w.surfaces[0];
    REQUIRE(s.lightmapRect[2] == 5);
    REQUIRE(s.lightmapRect[3] == 9);
    for (size_t i = 1; i < w.surfaces.size(); ++i) w.surfaces[i].styles = {255, 255, 255, 255};
    LightmapSet set;
    set.slots[0] = w.lightmaps;
    LightmapPage& p = set.slots[0][size_t(s.lightmapPage)];
    for (int j = 0; j < 9; ++j)
        for (int i = 0; i < 5; ++i) {
            float* t = p.rgb.data() + (size_t(s.lightmapRect[1] + j) * size_t(p.width) + size_t(s.lightmapRect[0] + i)) * 3;
            t[0] = t[1] = t[2] = stored(uint8_t(10 + i + 5 * j));
        }
    RelaidOutLightingOptions options;
    options.worldUnitsPerLuxel = 8;
    const Bytes map = writeRelaidOutLighting(source, w, set, options).map;
    // The BSPX DECOUPLED_LM record of face 0: 5, 9, offset 0, then the two rows.
    const size_t dir = q1BspxDirectory(map);
    REQUIRE(dir > 0);
    REQUIRE(le32(map, dir + 4) == 1);
    CHECK(std::string(reinterpret_cast<const char*>(map.data() + dir + 8)) == "DECOUPLED_LM");
    const uint32_t at = le32(map, dir + 8 + 24);
    CHECK(le32(map, dir + 8 + 28) == 40 * w.surfaces.size());
    uint16_t size[2];
    std::memcpy(size, map.data() + at, 4);
    CHECK(size[0] == 5);
    CHECK(size[1] == 9);
    CHECK(int32_t(le32(map, at + 4)) == 0);
    float rows[8];
    std::memcpy(rows, map.data() + at + 8, 32);
    CHECK(std::vector<float>(rows, rows + 8) == std::vector<float>{0, 0.125f, 0, 0, -0.125f, 0, 0, 8});
    CHECK(int32_t(le32(map, at + 40 + 4)) == -1);  // face 1: no light
    // The lighting lump: the decoupled block, then the copy the face's lightofs names.
    const uint32_t lighting = le32(map, 4 + 8 * 8), faces = le32(map, 4 + 8 * 7);
    CHECK(le32(map, 4 + 8 * 8 + 4) == 45 + 15);
    CHECK(int32_t(le32(map, faces + 16)) == 45);
    for (int j = 0; j < 9; ++j)
        for (int i = 0; i < 5; ++i) CHECK(int(map[lighting + size_t(j * 5 + i)]) == 10 + i + 5 * j);
    for (int v = 0; v < 3; ++v)
        for (int u = 0; u < 5; ++u) CHECK(int(map[lighting + 45 + size_t(v * 5 + u)]) == 50 + 2 * v - 10 * u);
    // Without the copy the face's lightofs is -1, and the luxel decoder reads the block back through the record.
    options.vanilla = false;
    const Bytes bare = writeRelaidOutLighting(source, w, set, options).map;
    CHECK(int32_t(le32(bare, le32(bare, 4 + 8 * 7) + 16)) == -1);
    const World back = decodeMap(memorySource(bare, "back.bsp"));
    const Surface& b = back.surfaces[0];
    REQUIRE(b.lightmapRect[2] == 5);
    REQUIRE(b.lightmapRect[3] == 9);
    const LightmapPage& bp = back.lightmaps[size_t(b.lightmapPage)];
    CHECK(bp.rgb[(size_t(b.lightmapRect[1] + 2) * size_t(bp.width) + size_t(b.lightmapRect[0] + 3)) * 3] ==
          Approx(stored(uint8_t(10 + 3 + 5 * 2))));
}

TEST_CASE("relayout: --world-units-per-luxel bakes the decoupled layout; wrong uses are one line before any bake",
          "[q1][relayout][cli]") {
    const std::string dir = tempDir("q1-relayout-wupl");
    Q1MapBuilder b = makeQ1FloorMap(Q1Variant::Bsp29);
    b.entities += "{\n\"classname\" \"light\"\n\"origin\" \"48 16 48\"\n\"light\" \"300\"\n}\n";
    writeFile(dir + "/floor.bsp", b.build());
    const CommandResult r = runLuxel("bake " + dir + "/floor.bsp --world-units-per-luxel 8 --write " + dir + "/out.bsp");
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    const std::string outText = readFileText(dir + "/out.bsp");
    const World w = decodeMap(memorySource(Bytes(outText.begin(), outText.end()), "out.bsp"));
    CHECK(w.surfaces[0].lightmapRect[2] == 5);  // face 0 at 8 units: 5 x 9 (hand-computed above)
    CHECK(w.surfaces[0].lightmapRect[3] == 9);
    // qbsp's texinfo.json may give a texinfo its own units (light: extended_flags.world_units_per_luxel, in place
    // of the option's): texinfo 0 at 4 units makes face 0 9 x 17 (i = y / 4 over 0..32, j = 16 - x / 4 over 0..64);
    // face 1 (texinfo 1) keeps the option's 8.
    writeTextFile(dir + "/floor.texinfo.json", R"({"0": {"world_units_per_luxel": 4}, "1": {"no_shadow": true}})");
    const CommandResult own = runLuxel("bake " + dir + "/floor.bsp --world-units-per-luxel 8 --write " + dir + "/own.bsp");
    INFO(own.err);
    REQUIRE(own.exitCode == 0);
    const std::string ownText = readFileText(dir + "/own.bsp");
    const World wo = decodeMap(memorySource(Bytes(ownText.begin(), ownText.end()), "own.bsp"));
    CHECK(wo.surfaces[0].lightmapRect[2] == 9);
    CHECK(wo.surfaces[0].lightmapRect[3] == 17);
    CHECK(wo.surfaces[1].lightmapRect[2] == w.surfaces[1].lightmapRect[2]);
    CHECK(wo.surfaces[1].lightmapRect[3] == w.surfaces[1].lightmapRect[3]);
    // Without the option the texinfo's units are not used: the engines' 16-unit layout, face 0 5 x 3.
    const CommandResult plain = runLuxel("bake " + dir + "/floor.bsp --write " + dir + "/plain.bsp");
    REQUIRE(plain.exitCode == 0);
    const std::string plainText = readFileText(dir + "/plain.bsp");
    const World wp = decodeMap(memorySource(Bytes(plainText.begin(), plainText.end()), "plain.bsp"));
    CHECK(wp.surfaces[0].lightmapRect[2] == 5);
    CHECK(wp.surfaces[0].lightmapRect[3] == 3);
    std::filesystem::remove(dir + "/floor.texinfo.json");
    for (const std::string& args : {std::string("--novanilla"), std::string("--world-units-per-luxel 0"),
                                    std::string("--world-units-per-luxel 8 --lmshift 3")}) {
        INFO(args);
        const CommandResult bad = runLuxel("bake " + dir + "/floor.bsp " + args + " --write " + dir + "/bad.bsp");
        CHECK(bad.exitCode != 0);
        CHECK(bad.err.find('\n') == bad.err.size() - 1);  // one line
        CHECK_FALSE(std::filesystem::exists(dir + "/bad.bsp"));
    }
    // A Quake 2 map is refused before the bake (it was refused only when writing, after it).
    writeFile(dir + "/q2.bsp", makeQ2FloorMap().build());
    for (const std::string& args : {std::string("--lmshift 3"), std::string("--world-units-per-luxel 8")}) {
        const CommandResult q2 = runLuxel("bake " + dir + "/q2.bsp --relayout " + args + " --write " + dir + "/bad.bsp");
        CHECK(q2.exitCode != 0);
        CHECK_THAT(q2.err, Catch::Contains("for Quake 1 maps"));
        CHECK_THAT(q2.out, !Catch::Contains("styles:"));  // no bake report: nothing was baked
    }
}
