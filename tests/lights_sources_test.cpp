// Where Quake 3 lights come from: the .map parser (brushes and patches skipped), q3map2's nudges out of solid,
// hostile input, the shader light keywords, and the real oacmpdm8 build against q3map2's own log.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <limits>

#include "luxel/bsp/decode.hpp"
#include "luxel/light/light_arrival.hpp"
#include "luxel/light/q3_lights.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/material/q3_light_shaders.hpp"
#include "luxel/util/error.hpp"
#include "luxel/vis/visibility.hpp"
#include "support/light_fixtures.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

TEST_CASE("Quake 3 .map entities: brushes and patches skipped", "[lights]") {
    const std::string text = R"(// entity 0
{
"classname" "worldspawn"
"_ambient" "5"
"_color" "1 0.5 0"
"_minlight" "10"
// brush 0
{
( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) common/caulk 0 0 0 0.5 0.5 0 0 0
}
{
patchDef2
{
textures/test/curve
( 3 3 0 0 0 )
(
( ( 0 0 0 0 0 ) ( 0 64 0 0 1 ) ( 0 128 0 0 2 ) )
( ( 64 0 0 1 0 ) ( 64 64 64 1 1 ) ( 64 128 0 1 2 ) )
( ( 128 0 0 2 0 ) ( 128 64 0 2 1 ) ( 128 128 0 2 2 ) )
)
}
}
{
brushDef
{
( ( 1 0 0 ) ( 0 1 0 ) ) "weird{name}" 0 0 0
}
}
}
/* a block comment { */
{ "classname" "light" "origin" "1 2 3" "light" "150" }
{
"classname" "info_player_start"
"origin" "0 0 24"
}
)";
    const auto ents = parseQuake3MapEntities(text, "test.map");
    REQUIRE(ents.size() == 3);
    CHECK(*ents[0].get("_ambient") == "5");
    CHECK(ents[0].keys.size() == 4);
    CHECK(*ents[1].get("origin") == "1 2 3");
    CHECK(*ents[2].get("classname") == "info_player_start");
    CHECK_THROWS_AS(parseQuake3MapEntities("{ \"classname\" \"light\" ", "bad.map"), DecodeError);
    CHECK_THROWS_AS(parseQuake3MapEntities("{ \"classname\" }", "bad.map"), DecodeError);
    CHECK(*parseQuake3MapEntities("{ classname light }", "bare.map").at(0).get("classname") == "light");
    CHECK_THROWS_AS(parseQuake3MapEntities("{ { ( 0 0 0 ) }", "bad.map"), DecodeError);
    CHECK_THROWS_AS(parseQuake3MapEntities("{ \"unterminated }", "bad.map"), DecodeError);
    // Worldspawn: ambient and floors are _color (not normalised) times the value.
    World w;
    w.entities = {ents[0]};
    const auto set = quake3Lights(w, {}, text);
    CHECK(set.ambient.x == Approx(5 * kQ3LightUnit));
    CHECK(set.ambient.y == Approx(2.5 * kQ3LightUnit));
    CHECK(set.minLight.x == Approx(10 * kQ3LightUnit));
    CHECK(set.minGridLight.x == Approx(10 * kQ3LightUnit));
    CHECK(set.pointLights == 1);
    CHECK(set.lights.at(0).intensity == Approx(150 * 7500 * kQ3LightUnit));
    // _keepLights 1: the source is not read (the compiled map keeps its own lights).
    w.entities[0].keys.emplace_back("_keepLights", "1");
    CHECK(quake3Lights(w, {}, text).lights.empty());
}

TEST_CASE("light placement: q3map2's nudges out of solid", "[lights]") {
    // Free above z = 0: a light in the open stays; one at z = -1 walks up with the nudges and survives.
    auto solidBelow = [](Vec3 p) { return p.z >= 0 ? 0 : -1; };
    CHECK(quake3LightPlacement({0, 0, 5}, solidBelow) == Vec3{0, 0, 5});
    const auto up = quake3LightPlacement({0, 0, -1}, solidBelow);
    REQUIRE(up);
    CHECK(up->z >= 0);
    // Free only in a thin band 2 units up: the (0, 0, 2) nudge finds it, but the last nudge tried from there,
    // (-2, -2, -2), is in solid, so q3map2 culls the light all the same.
    auto band = [](Vec3 p) { return p.z > 1.5f && p.z < 2.5f ? 0 : -1; };
    CHECK(!quake3LightPlacement({0, 0, 0}, band));
    CHECK(!quake3LightPlacement({0, 0, 0}, [](Vec3) { return -1; }));
    // Solid only in a thin slab around z = 0: the light moves out and survives.
    auto slab = [](Vec3 p) { return std::fabs(p.z) < 0.5f ? -1 : 3; };
    const auto moved = quake3LightPlacement({0, 0, 0}, slab);
    REQUIRE(moved);
    CHECK(std::fabs(moved->z) >= 0.5f);
}

TEST_CASE("hostile light input neither crashes nor grows without bound", "[lights]") {
    const auto set = lightsOfMap(R"({ "classname" "light" "origin" "nan 0 0" }
{ "classname" "light" "origin" "0 0 0" "light" "1e38" "scale" "1e38" }
{ "classname" "light" "origin" "0 0 0" "light" "-300" }
{ "classname" "light" "origin" "0 0 0" "_samples" "1000000000" "_deviance" "1e30" }
{ "classname" "light" "origin" "0 0 0" "_color" "nan inf -1" "style" "999" "spawnflags" "-1" }
{ "classname" "light" "origin" "1e30 1e30 1e30" "target" "x" }
{ "classname" "light" "targetname" "x" "origin" "1e30 1e30 1e30" "_extradist" "nan" })");
    CHECK(set.lights.size() <= 2 + 256 + 4);
    for (const Light& l : set.lights) {
        const LightArrival a = lightArrival(l, {1, 2, 3}, kUp, true);
        CHECK(std::isfinite(a.color.x));
        CHECK(std::isfinite(lightArrivalAtPoint(l, {1, 2, 3}).color.x));
    }
    // The negative light subtracts.
    bool negative = false;
    for (const Light& l : set.lights) negative = negative || lightArrival(l, {0, 0, -20}, kUp).color.x < 0;
    CHECK(negative);
    // Absurd sky light iterations are bounded.
    Q3Shader::SkyLight sky;
    sky.value = 100;
    sky.iterations = 1000000;
    CHECK(quake3SkyLights(sky, {1, 1, 1}, {}, 0).size() <= size_t(63 * 4 * 63 + 1));
    // A huge face with subdivision 1 stops at the bound instead of making billions of pieces.
    World w = polygonWorld({{-60000, -60000, 0}, {-60000, 60000, 0}, {60000, 60000, 0}, {60000, -60000, 0}}, kUp);
    Quake3LightSettings s;
    s.maxLights = 20000;
    s.maxPieces = 200000;  // the bound under test, small enough for the sanitizer build
    const auto big = quake3Lights(w, {glowShader(100, 1)}, "", s);
    CHECK(big.lights.size() <= 20000);
    CHECK(!big.notes.empty());
    // NaN or degenerate polygons give no light.
    CHECK(polygonFormFactor({}, kUp, std::vector<Vec3>{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}) == 0);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    CHECK(polygonFormFactor({}, kUp, std::vector<Vec3>{{nan, 0, 1}, {1, 0, 1}, {0, 1, 1}}) == 0);
    CHECK(parseQuake3MapEntities("", "empty.map").empty());
    // Shader numbers that are no numbers, or absurd ones.
    const auto odd = parseShaderScript("textures/x/odd\n{\n q3map_skyLight 1e30 nan 1e30 nan\n q3map_lightSubdivide nan\n"
                                       " q3map_sunExt 1 1 1 1e30 0 90 nan 1e30\n q3map_lightStyle -1e30\n}\n", "odd.shader");
    REQUIRE(odd.size() == 1);
    const Q3LightShader o = lightShaderOf(odd[0], {}, {});
    CHECK(o.lightSubdivide == -1000000);
    for (const auto& k : o.skyLights) CHECK(quake3SkyLights(k, o.color, {}, 0).size() <= size_t(63 * 4 * 63 + 2));
    for (const auto& k : o.suns) CHECK(quake3Suns(k, 0).size() <= 256);
}

TEST_CASE("oacmpdm8: the light entities of the .map source", "[lights][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const std::string text = readFileText(*test::sharedMaps() + "/pairs/oacmpdm8/oacmpdm8.map");
    const auto ents = parseQuake3MapEntities(text, "oacmpdm8.map");
    size_t lights = 0;
    for (const Entity& e : ents)
        if (const std::string* c = e.get("classname"); c && *c == "light") ++lights;
    CHECK(lights == 90);
    const auto set = quake3Lights(World{}, {}, text);
    CHECK(set.pointLights == 90);  // q3map2's log: 90 point lights, 0 spotlights
    CHECK(set.spotLights == 0);
    // The light the "light" pair changes: (2 -283 326), light 100, _color 1 1 0.524193.
    bool found = false;
    for (const Light& l : set.lights)
        if (l.origin == Vec3{2, -283, 326}) {
            found = true;
            CHECK(l.intensity == Approx(100 * 7500 * kQ3LightUnit));
            CHECK(l.color.z == Approx(0.524193f));
            CHECK(l.envelope == Approx(std::sqrt(750000.0)));
        }
    CHECK(found);
}

TEST_CASE("oacmpdm8: surface, sky and point lights against q3map2's log", "[lights][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const std::string dir = *test::sharedMaps() + "/pairs/oacmpdm8";
    const std::string gameDir = "/usr/share/games/openarena/baseoa";
    std::error_code ec;
    if (!std::filesystem::exists(gameDir + "/z_oacmp-volume1-v3.pk3", ec)) {
        WARN("SKIPPED: OpenArena's oacmp1 pk3 (Debian openarena-oacmp1) not installed in " + gameDir);
        return;
    }
    const MapSource source = openMapPath(dir + "/base.bsp");
    const World world = decodeMap(source);
    MaterialOptions options;
    options.gameDirs = {gameDir};
    std::vector<std::string> warnings;
    const auto shaders = quake3LightShaders(world, source, options, &warnings);
    const auto set = quake3Lights(world, shaders, readFileText(dir + "/oacmpdm8.map"));
    // q3map2 -light -fast (logs/base.log): 90 point lights, 0 spotlights, 829 diffuse (area) lights,
    // 197 sun/sky lights; 1485 lights after 28 were culled, so 1513 made: 397 backsplash lights.
    CHECK(set.pointLights == 90);
    CHECK(set.spotLights == 0);
    CHECK(set.sunLights == 197);
    CHECK(set.areaLights == 829);
    CHECK(set.backsplashLights == 397);
    CHECK(set.lights.size() == 1513);
    // The sky shader's q3map_skyLight 220 8 shares 220 among its suns.
    double sky = 0;
    for (const Light& l : set.lights)
        if (l.kind == Light::Kind::Sun) sky += l.intensity;
    CHECK(sky == Approx(220 * kQ3LightUnit));
    // Real windings face the way q3map2's form factor expects: a point in front of each emitter, facing it,
    // sees a positive form factor (backsplash lights included).
    size_t facing = 0, areas = 0;
    for (const Light& l : set.lights)
        if (l.kind == Light::Kind::Area) {
            ++areas;
            if (polygonFormFactor(l.origin + l.normal * 50, -l.normal, l.polygon) > 0) ++facing;
        }
    CHECK(facing == areas);
    // q3map2 culls lights whose origin stays in solid after its nudges. Counted with the BSP tree alone
    // (q3map2 also counts points inside detail brushes as solid, which luxel's World does not keep).
    size_t culled = 0;
    for (const Light& l : set.lights)
        if (l.kind != Light::Kind::Sun && !quake3LightPlacement(l.origin, [&](Vec3 p) { return findCluster(world, p); }))
            ++culled;
    WARN("lights in structural solid after q3map2's nudges: " << culled << " (q3map2 culled 28)");
    CHECK(culled <= 28);
}

TEST_CASE("shader light keywords as q3map2 reads them", "[lights]") {
    const auto shaders = parseShaderScript(R"(
textures/test/lamp
{
	q3map_surfacelight 400
	q3map_lightSubdivide 64
	q3map_backsplash 10 8
	q3map_lightStyle 3
	{
		map textures/test/lamp_glow.tga
	}
	qer_editorimage textures/test/lamp_editor.tga
}
textures/test/sky
{
	skyParms env/test 512 -
	q3map_sunExt 1 0.5 0 120 45 30 2 4
	q3map_skyLight 80 6 10 80 0
	q3map_lightRGB 0 0 0
	surfaceparm nolightmap
}
textures/test/tinted
{
	qer_editorimage textures/test/editor.tga
	q3map_lightRGB 2 1 0
	cull none
	surfaceparm fog
	deformVertexes autosprite
	{
		map textures/test/stage.tga
	}
}
)", "test.shader");
    REQUIRE(shaders.size() == 3);
    const Q3Shader& lamp = shaders[0];
    CHECK(lamp.lightSubdivide == 64);
    CHECK(lamp.q3mapLightImage == "textures/test/lamp_glow.tga");  // a stage before any editor image
    // The light image's texel sum, normalised: two texels (200, 100, 0) and (0, 100, 50) -> (200, 200, 50).
    RgbaImage img;
    img.width = 2;
    img.height = 1;
    img.rgba = {200, 100, 0, 255, 0, 100, 50, 0};
    const Q3LightShader l = lightShaderOf(lamp, img, {});
    CHECK(l.surfaceLight == 400);
    CHECK(l.color == Vec3{1, 1, 0.25f});
    CHECK(l.backsplashFraction == Approx(0.1f));
    CHECK(l.backsplashDistance == 8);
    CHECK(l.lightStyle == 3);
    CHECK(!l.sky);

    const Q3Shader& sky = shaders[1];
    CHECK(sky.q3mapLightImage == "env/test_up");  // skyParms' top image
    REQUIRE(sky.suns.size() == 1);
    CHECK(sky.suns[0].deviance == 2);
    CHECK(sky.suns[0].samples == 4);
    REQUIRE(sky.skyLights.size() == 1);
    CHECK(sky.skyLights[0].iterations == 6);
    CHECK(sky.skyLights[0].horizonMin == 10);
    CHECK(sky.skyLights[0].horizonMax == 80);
    CHECK(!sky.skyLights[0].sampleColor);
    const Q3LightShader s = lightShaderOf(sky, {}, {});
    CHECK(s.sky);                      // q3map_sun applies surfaceparm sky
    CHECK(s.color == Vec3{1, 1, 1});   // a black q3map_lightRGB is ignored; no image: white
    // Horizons 10..80: rings from 10 + 7.5 to 80 - 7.5 degrees, no top sun, value * 70 / 90 shared.
    const auto suns = quake3SkyLights(s.skyLights[0], s.color, {}, 0);
    CHECK(suns.size() == size_t(20 * 5));
    double total = 0;
    for (const Light& x : suns) total += x.intensity;
    CHECK(total == Approx(80 * 70.0 / 90.0 * kQ3LightUnit));

    const Q3LightShader t = lightShaderOf(shaders[2], img, {});
    CHECK(shaders[2].q3mapLightImage.empty());  // the editor image came first
    CHECK(t.color == Vec3{1, 0.5f, 0});          // q3map_lightRGB wins over the image
    CHECK(t.twoSided);
    CHECK(t.fog);
    CHECK(t.autosprite);
    // An autosprite surface light is one point light at its bounds' centre: value * pointScale photons.
    Q3LightShader glow = t;
    glow.surfaceLight = 50;
    World w = polygonWorld({{0, 0, 0}, {0, 10, 0}, {10, 10, 0}}, kUp);
    const auto set = quake3Lights(w, {glow}, "");
    REQUIRE(set.lights.size() == 1);
    CHECK(set.pointLights == 1);
    CHECK(set.lights[0].origin == Vec3{5, 5, 0});
    CHECK(set.lights[0].intensity == Approx(50 * 7500 * kQ3LightUnit));
}
