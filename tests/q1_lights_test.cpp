// Quake 1 light entities as ericw-tools' light reads them, hand-computed: each delay kind at known distances in
// Quake's units (rangescale 0.5; luxel decodes a Quake 1 byte b as b x 264 / 256 / 255), the 40-degree default
// spotlight, garbage keys; and the choice of a face's styles when five styled lights reach it.
#include <catch2/catch.hpp>

#include <cmath>

#include "luxel/bake/relaid_out_styles.hpp"
#include "luxel/bsp/entities.hpp"
#include "luxel/light/ericw_lights.hpp"
#include "luxel/light/q2_lights.hpp"
#include "luxel/light/map_lights.hpp"
#include "luxel/bsp/decode.hpp"
#include "support/decode_helpers.hpp"
#include "support/q1_writer.hpp"

using namespace luxel;

namespace {

// The byte ericw-tools stores for a Quake 1 light value v (before its clamp), as luxel light.
double q1(double value) { return value * 0.5 * 264.0 / 256.0 / 255.0; }

std::vector<Entity> ents(const std::string& text) { return parseEntities(text, "test", 0); }

}  // namespace

TEST_CASE("q1 lights: each delay kind at known distances, in Quake's units", "[q1][q1lights]") {
    const std::vector<Entity> e = ents(
        "{\n\"classname\" \"worldspawn\"\n}\n"
        "{\n\"classname\" \"light\"\n\"origin\" \"0 0 0\"\n\"light\" \"300\"\n}\n"                          // linear
        "{\n\"classname\" \"light\"\n\"origin\" \"0 0 0\"\n\"light\" \"200\"\n\"delay\" \"1\"\n}\n"          // 1/d
        "{\n\"classname\" \"light\"\n\"origin\" \"0 0 0\"\n\"light\" \"200\"\n\"delay\" \"2\"\n}\n"          // 1/d^2
        "{\n\"classname\" \"light\"\n\"origin\" \"0 0 0\"\n\"light\" \"200\"\n\"delay\" \"3\"\n}\n"          // none
        "{\n\"classname\" \"light\"\n\"origin\" \"0 0 0\"\n\"light\" \"200\"\n\"delay\" \"5\"\n}\n"          // 1/(d+128)^2
        "{\n\"classname\" \"light\"\n\"origin\" \"0 0 0\"\n\"light\" \"300\"\n\"wait\" \"2\"\n\"_color\" \"255 128 0\"\n}\n");
    const std::vector<Light> l = ericwLights(e, EricwGame::Quake1);
    REQUIRE(l.size() == 6);
    const Vec3 up{0, 0, 1};
    // A receiver 100 units straight above each light, facing it (cos 1; anglescale 0.5 gives 1).
    const Vec3 at{0, 0, 100}, facing{0, 0, -1};
    CHECK(quake2LightArrival(l[0], at, facing).color.x == Approx(q1(300 - 100)));
    CHECK(quake2LightArrival(l[1], at, facing).color.x == Approx(q1(200 * 128.0 / 100)));
    CHECK(quake2LightArrival(l[2], at, facing).color.x == Approx(q1(200 * 128.0 * 128.0 / (100 * 100))));
    CHECK(quake2LightArrival(l[3], at, facing).color.x == Approx(q1(200)));
    CHECK(quake2LightArrival(l[4], at, facing).color.x == Approx(q1(200 * 128.0 * 128.0 / (228 * 228))));
    // wait 2 halves the linear reach: (300 - 2 x 100); _color 255 128 0 keeps red at the value, green at 128/255.
    const LightArrival w = quake2LightArrival(l[5], at, facing);
    CHECK(w.color.x == Approx(q1(100)));
    CHECK(w.color.y == Approx(q1(100) * 128 / 255));
    CHECK(w.color.z == 0);
    CHECK_FALSE(quake2LightArrival(l[5], Vec3{0, 0, 151}, facing).reaches());
    // A receiver facing away gets nothing; one at 60 degrees (anglescale 0.5): (1 - 0.5) + 0.5 cos 60 = 0.75.
    CHECK_FALSE(quake2LightArrival(l[0], at, up).reaches());
    const Vec3 tilted{0, std::sin(degToRad(60.0f)), -std::cos(degToRad(60.0f))};
    CHECK(quake2LightArrival(l[0], at, tilted).color.x == Approx(q1(200 * 0.75)).epsilon(1e-4));
}

TEST_CASE("q1 lights: a spotlight without angle is 40 degrees wide; _softangle softens it", "[q1][q1lights]") {
    const std::vector<Entity> e = ents(
        "{\n\"classname\" \"worldspawn\"\n}\n"
        "{\n\"classname\" \"light\"\n\"origin\" \"0 0 0\"\n\"light\" \"300\"\n\"mangle\" \"0 -90 0\"\n}\n"
        "{\n\"classname\" \"light\"\n\"origin\" \"0 0 0\"\n\"light\" \"300\"\n\"mangle\" \"0 -90 0\"\n\"angle\" \"60\"\n\"_softangle\" \"20\"\n}\n");
    const std::vector<Light> l = ericwLights(e, EricwGame::Quake1);
    REQUIRE(l.size() == 2);
    CHECK(l[0].kind == Light::Kind::Spot);
    CHECK(l[0].spotCosOuter == Approx(std::cos(degToRad(20.0f))));
    CHECK(l[0].spotCosInner == Approx(std::cos(degToRad(20.0f))));
    CHECK(l[1].spotCosOuter == Approx(std::cos(degToRad(30.0f))));
    CHECK(l[1].spotCosInner == Approx(std::cos(degToRad(10.0f))));
    // Straight below at 100 units the spot is full; 25 degrees off, outside 20 but inside 30 (soft).
    const Vec3 up{0, 0, 1};
    CHECK(quake2LightArrival(l[0], Vec3{0, 0, -100}, up).color.x == Approx(q1(200)));
    const float off = 100 * std::tan(degToRad(25.0f));
    CHECK_FALSE(quake2LightArrival(l[0], Vec3{off, 0, -100}, up).reaches());
    const LightArrival soft = quake2LightArrival(l[1], Vec3{off, 0, -100}, up);
    CHECK(soft.reaches());
    CHECK(soft.color.x < q1(300 - 100 / std::cos(degToRad(25.0f))));
}

TEST_CASE("q1 lights: garbage keys give finite lights or none, and 70,000 lights are read", "[q1][q1lights]") {
    std::string text = "{\n\"classname\" \"worldspawn\"\n\"_sunlight\" \"nan\"\n\"_range\" \"1e39\"\n}\n"
                       "{\n\"classname\" \"light\"\n\"origin\" \"1e39 x 3\"\n\"light\" \"-inf\"\n}\n"
                       "{\n\"classname\" \"light\"\n\"light\" \"300\"\n\"delay\" \"99\"\n\"wait\" \"-5\"\n\"_color\" \"nan 1 1\"\n}\n"
                       "{\n\"classname\" \"light\"\n\"light\" \"1e30\"\n\"mangle\" \"1e38 1e38 0\"\n\"angle\" \"1e9\"\n}\n";
    for (int i = 0; i < 70000; ++i) text += "{\n\"classname\" \"light\"\n\"origin\" \"" + std::to_string(i) + " 0 0\"\n}\n";
    std::vector<std::string> problems;
    const std::vector<Light> l = ericwLights(ents(text), EricwGame::Quake1, &problems);
    CHECK(l.size() >= 70000);
    for (const Light& x : l) {
        CHECK(std::isfinite(x.intensity));
        CHECK(isFinite(x.origin));
        CHECK(isFinite(x.color));
    }
}

TEST_CASE("relayout styles: a face reached by five styles keeps the four brightest, brightest first", "[q1][relayout]") {
    // One face of 2x1 luxels on one page; passes of styles 0, 1, 2, 3, 4 and 5 with hand-set light (compiler units
    // = linear x 255 here): style 3 0.5 (below 1: dropped), the others 10, 40, 20, 30, 50.
    World w;
    w.surfaces.resize(1);
    w.surfaces[0].lightmapPage = 0;
    w.surfaces[0].lightmapRect = {0, 0, 2, 1};
    const std::vector<std::pair<uint8_t, float>> styles{{0, 10}, {1, 40}, {2, 20}, {3, 0.5f}, {4, 30}, {5, 50}};
    std::vector<StylePass> passes;
    for (const auto& [style, value] : styles) {
        StylePass p;
        p.style = style;
        LightmapPage page;
        page.width = 2, page.height = 1;
        page.rgb.assign(6, value / 255.0f);
        p.set.slots[0] = {page};
        passes.push_back(p);
    }
    const StyleChoice c = chooseFaceStyles(w, passes, 255.0f, false);
    CHECK(w.surfaces[0].styles == std::array<uint8_t, 4>{5, 1, 4, 2});
    CHECK(c.facesOverflow == 1);
    REQUIRE(c.overflowNotes.size() == 1);
    CHECK(c.overflowNotes[0].find("5 styles") != std::string::npos);
    CHECK(c.set.slots[0][0].rgb[0] == Approx(50.0 / 255));
    CHECK(c.set.slots[3][0].rgb[3] == Approx(20.0 / 255));
    // A face whose only light is below 1 keeps no style (Quake 1), or style 0 (Quake 2).
    World dark = w;
    const std::vector<StylePass> dim(passes.begin() + 3, passes.begin() + 4);
    const StyleChoice none = chooseFaceStyles(dark, dim, 255.0f, false);
    CHECK(dark.surfaces[0].styles[0] == 255);
    CHECK(none.facesDark == 1);
    World q2 = w;
    std::vector<StylePass> zero(passes.begin(), passes.begin() + 1);
    zero[0].set.slots[0][0].rgb.assign(6, 0.0f);
    chooseFaceStyles(q2, zero, 255.0f, true);
    CHECK(q2.surfaces[0].styles == std::array<uint8_t, 4>{0, 255, 255, 255});
}

TEST_CASE("q1 lights: phong normals from texinfo.json, weighted by area and corner angle", "[q1][q1lights]") {
    using namespace luxel::test;
    // The floor map's face 0 (64 x 32 at z = 0, normal +z, texinfo 0) and a 32 x 32 wall on x = 64 facing -x
    // (texinfo 2) share the edge x = 64. With phong on both at 91 degrees they smooth (90 degrees apart); the
    // floor's corners on the edge sum 2048 x 90deg x (0, 0, 1) + 1024 x 90deg x (-1, 0, 0): (-1, 0, 2) / sqrt 5.
    // Face 1 (texinfo 1, no phong) takes no part. At 89 degrees they do not smooth: the floor stays flat.
    for (const int angle : {91, 89}) {
        INFO("phong_angle " << angle);
        Q1MapBuilder b = makeQ1FloorMap(Q1Variant::Bsp29);
        const int32_t wallTexinfo = b.addTexinfo({0, 1, 0, 0}, {0, 0, 1, 0}, 0);
        b.addFace({{64, 32, 0}, {64, 32, 32}, {64, 0, 32}, {64, 0, 0}}, 1, true, wallTexinfo);
        b.models[0].numFaces = int32_t(b.faces.size());
        const std::string json = "{\"0\":{\"phong_angle\":" + std::to_string(angle) + "},\"" + std::to_string(wallTexinfo) +
                                 "\":{\"phong_angle\":" + std::to_string(angle) + "}}";
        const MapSource source = memorySource(b.build(), "test.bsp", {{"test.texinfo.json", Bytes(json.begin(), json.end())}});
        const World w = decodeMap(source);
        REQUIRE(w.surfaces.size() == 3);
        REQUIRE(w.surfaces[2].normal.x == Approx(-1));
        const MapLights lights = mapLights(w, source, {});
        REQUIRE(lights.rules.phongNormals.size() == 3);
        CHECK(lights.rules.phongNormals[1].empty());
        if (angle == 89) {
            CHECK(lights.rules.phongNormals[0].empty());
            continue;
        }
        const Surface& floor = w.surfaces[0];
        REQUIRE(lights.rules.phongNormals[0].size() == floor.numVertices);
        for (uint32_t k = 0; k < floor.numVertices; ++k) {
            const Vec3 p = w.vertices[floor.firstVertex + k].position, n = lights.rules.phongNormals[0][k];
            INFO("vertex " << p.x << " " << p.y << " " << p.z);
            if (p.x == 64) {
                CHECK(n.x == Approx(-1 / std::sqrt(5.0f)));
                CHECK(n.y == Approx(0).margin(1e-6));
                CHECK(n.z == Approx(2 / std::sqrt(5.0f)));
            } else {
                CHECK(n.x == Approx(0).margin(1e-6));
                CHECK(n.z == Approx(1));
            }
        }
    }
}

TEST_CASE("q1 lights: _surface templates light nothing and put a copy on each 128-unit piece of their faces", "[q1][q1lights]") {
    using namespace luxel::test;
    // The floor map's face 0 ("floor1", 64 x 32 at z = 0, normal +z) is under 128 units: one light at its centroid
    // (32, 16, 0) + 2 x (0, 0, 1). A 256 x 32 face of "bigtex" (x 0..256, y 64..96) is cut at x = 128 (the multiple
    // of 128 nearest its middle, more than 8 units inside both ends): lights at (192, 80) then (64, 80), and with
    // _surface_offset 6 and _surface_spotlight 1 the second template's copies sit 6 units up, aimed along +z.
    Q1MapBuilder b = makeQ1FloorMap(Q1Variant::Bsp29);
    const int32_t big = b.addTexinfo({1, 0, 0, 0}, {0, 1, 0, 0}, b.addMiptex("bigtex", 16, 16, std::vector<uint8_t>(256, 3)));
    b.addFace({{0, 64, 0}, {0, 96, 0}, {256, 96, 0}, {256, 64, 0}}, 0, false, big);
    b.models[0].numFaces = int32_t(b.faces.size());
    b.entities = "{\n\"classname\" \"worldspawn\"\n}\n"
                 "{\n\"classname\" \"light\"\n\"origin\" \"0 0 500\"\n\"light\" \"200\"\n\"_surface\" \"FLOOR1\"\n}\n"
                 "{\n\"classname\" \"light\"\n\"origin\" \"0 0 500\"\n\"light\" \"100\"\n\"_surface\" \"bigtex\"\n"
                 "\"_surface_offset\" \"6\"\n\"_surface_spotlight\" \"1\"\n}\n";
    const MapSource source = memorySource(b.build(), "test.bsp");
    const World w = decodeMap(source);
    const MapLights lights = mapLights(w, source, {});
    REQUIRE(lights.lights.size() == 3);  // the templates themselves light nothing
    CHECK(lights.lights[0].origin.x == Approx(32));
    CHECK(lights.lights[0].origin.y == Approx(16));
    CHECK(lights.lights[0].origin.z == Approx(2));
    CHECK(lights.lights[0].kind == Light::Kind::Point);
    for (size_t i : {1, 2}) {
        CHECK(lights.lights[i].origin.x == Approx(i == 1 ? 192 : 64));  // the front piece (x >= 128) first, as GLQuake recurses
        CHECK(lights.lights[i].origin.y == Approx(80));
        CHECK(lights.lights[i].origin.z == Approx(6));
        CHECK(lights.lights[i].kind == Light::Kind::Spot);
        CHECK(lights.lights[i].direction.z == Approx(1).margin(1e-5));
    }
    // Each copy is its template's light: 200 linear, 100 units above the floor: (200 - 100) in Quake's units.
    CHECK(quake2LightArrival(lights.lights[0], Vec3{32, 16, 102}, Vec3{0, 0, -1}).color.x == Approx(q1(100)));
}

TEST_CASE("q1 lights: _deviance makes _samples copies within the deviance; inverse lights share their value", "[q1][q1lights]") {
    const std::vector<Entity> e = ents(
        "{\n\"classname\" \"worldspawn\"\n}\n"
        "{\n\"classname\" \"light\"\n\"origin\" \"100 0 0\"\n\"light\" \"400\"\n\"delay\" \"2\"\n\"_deviance\" \"8\"\n\"_samples\" \"4\"\n}\n"
        "{\n\"classname\" \"light\"\n\"origin\" \"0 0 0\"\n\"light\" \"300\"\n\"_deviance\" \"5\"\n}\n");
    const std::vector<Light> l = ericwLights(e, EricwGame::Quake1);
    REQUIRE(l.size() == 4 + 16);  // _samples 4; the default 16 with a deviance
    const Vec3 facing{-1, 0, 0};
    for (size_t i = 0; i < 4; ++i) {
        CHECK(std::abs(l[i].origin.x - 100) <= 8);
        CHECK(std::abs(l[i].origin.y) <= 8);
        CHECK(std::abs(l[i].origin.z) <= 8);
        // Each copy carries 400 / 4: at 100 units straight in front of the first, 100 x 128^2 / 100^2.
        if (i == 0) CHECK(quake2LightArrival(l[i], Vec3{200, 0, 0}, facing).color.x == Approx(q1(100 * 128.0 * 128.0 / (100 * 100))));
    }
    CHECK(l[0].origin == Vec3{100, 0, 0});
    CHECK(!(l[1].origin == l[0].origin));
    // Linear lights keep their whole value in every copy, as light leaves it.
    CHECK(quake2LightArrival(l[4], Vec3{0, 0, 100}, Vec3{0, 0, -1}).color.x == Approx(q1(200)));
    for (size_t i = 4; i < l.size(); ++i) CHECK(length(l[i].origin) <= 5 * std::sqrt(3.0f) + 1e-4f);
    // The same entities give the same copies.
    const std::vector<Light> again = ericwLights(e, EricwGame::Quake1);
    for (size_t i = 0; i < l.size(); ++i) CHECK(again[i].origin == l[i].origin);
}
