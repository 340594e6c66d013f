// Quake 2 light as ericw-tools bakes it: surface lights, face bounce, its worldspawn keys, hostile values, and
// luxel bake against ericw-tools' own builds read back by an independent reader of the lighting lump.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fmt/format.h>

#include "luxel/bake/face_bounce.hpp"
#include "luxel/bake/ray_scene.hpp"
#include "luxel/bsp/decode.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/light/luxels.hpp"
#include "luxel/light/map_lights.hpp"
#include "luxel/light/q2_surface_lights.hpp"
#include "support/decode_helpers.hpp"
#include "support/material_fixtures.hpp"
#include "support/q2_lighting_reader.hpp"
#include "support/q2_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

// A 64 x 64 floor at z = 0 (face 0, a 5 x 5 lightmap) under a 16 x 16 face at z = 64 facing down (face 1),
// whose texinfo has SURF_LIGHT and `value`, textured test/light.
std::vector<uint8_t> emitterOverFloor(int32_t value, const std::string& worldspawn = "", int32_t flags = kQ2SurfLight) {
    Q2MapBuilder b;
    b.entities = "{\n\"classname\" \"worldspawn\"\n\"_bounce\" \"0\"\n" + worldspawn + "}\n";
    const int32_t floor = b.addPlane({0, 0, 1}, 0), ceiling = b.addPlane({0, 0, 1}, 64);
    const int32_t tex = b.addTexinfo({1, 0, 0, 0}, {0, 1, 0, 0});
    const int32_t glow = b.addTexinfo({1, 0, 0, 0}, {0, 1, 0, 0}, flags, "test/light");
    b.texinfos[size_t(glow)].value = value;
    const int32_t light = b.addLighting({std::vector<std::array<uint8_t, 3>>(25, {0, 0, 0})});
    b.addFace({{0, 0, 0}, {0, 64, 0}, {64, 64, 0}, {64, 0, 0}}, floor, false, tex, {0, 255, 255, 255}, light);
    // Clockwise seen from below.
    b.addFace({{24, 24, 64}, {40, 24, 64}, {40, 40, 64}, {24, 40, 64}}, ceiling, true, glow, {255, 255, 255, 255}, -1);
    addQ2FloorWorld(b, floor, tex, 2, {64, 64, 64});
    return b.build();
}

// A game folder holding textures/test/light.png of one grey level.
std::string glowGame(uint8_t grey) {
    const std::string dir = tempDir("q2_ericw_glow_" + std::to_string(grey));
    writePng(std::filesystem::path(dir) / "textures/test/light.png", 2, 2, Texels(4, {grey, grey, grey, 255}));
    return dir;
}

struct Baked {
    World world;
    Geometry geometry;
    MapLights lights;
    LightmapSet set;
};

Baked bakeEricw(const std::vector<uint8_t>& bytes, const std::string& gameDir) {
    Baked b;
    MapSource source = memorySource(bytes);
    b.world = decodeMap(source, {});
    b.geometry = tessellate(b.world);
    MaterialOptions mo;
    if (!gameDir.empty()) mo.gameDirs = {gameDir};
    const MaterialSet materials = loadMaterials(b.world, source, mo);
    MapLightOptions o;
    o.quake2Compiler = Q2LightCompiler::Ericw;
    o.loaded = &materials;
    b.lights = mapLights(b.world, source, o);
    const RayScene scene(b.world, b.geometry, &materials);
    DirectBakeStats stats;
    b.set = bakeLightmapsDirect(b.world, b.geometry, scene, b.lights.lights, b.lights.rules, stats);
    return b;
}

Vec3 texelAt(const std::vector<LightmapPage>& pages, const Luxel& x) {
    const LightmapPage& p = pages.at(size_t(x.page));
    const float* t = p.rgb.data() + (size_t(x.y) * size_t(p.width) + size_t(x.x)) * 3;
    return {t[0], t[1], t[2]};
}

}  // namespace

TEST_CASE("ericw surface light: one emissive face over a floor gives the hand-computed luxel", "[bake][q2lights]") {
    // Texture mean T = 200, value 1000: c = 200 / 255 x 1000 = 784.3, I = 784.3 (> 1: colour white), area 256,
    // total I x 256 = 200784. The luxel under the centre samples at (32, 32, 1); the emitter point is the
    // face's centre one unit below it, (32, 32, 63): d = 62, both cosines 1, so (0.5 + 0.5)^2 = 1, and it gets
    // 200784 x 0.65 / 62^2 = 33.95 in 0..255 units: 33.95 / 255 in luxel units.
    const Baked b = bakeEricw(emitterOverFloor(1000), glowGame(200));
    REQUIRE(b.lights.lights.size() == 1);
    const Light& l = b.lights.lights[0];
    CHECK(l.kind == Light::Kind::Area);
    CHECK(l.origin.x == Approx(32));
    CHECK(l.origin.z == Approx(63));
    const double expected = 200.0 / 255 * 1000 * 256 * 0.65 / (62.0 * 62.0) / 255;
    bool found = false;
    for (const Luxel& x : luxelCentres(b.world, b.geometry)) {
        if (x.surface != 0 || x.position.x != 32 || x.position.y != 32) continue;
        found = true;
        const Vec3 v = texelAt(b.set.slots[0], x);
        CHECK(v.x == Approx(expected).epsilon(1e-3));
        CHECK(v.y == Approx(expected).epsilon(1e-3));
    }
    CHECK(found);
    // Off to the side the emitter's and the receiver's cosines enter rescaled: (0.5 + 0.5 cos)^2 at (0, 32, 1).
    for (const Luxel& x : luxelCentres(b.world, b.geometry)) {
        if (x.surface != 0 || x.position.x != 0 || x.position.y != 32) continue;
        const double d = std::sqrt(32.0 * 32 + 62.0 * 62), c = 62 / d, f = (0.5 + 0.5 * c) * (0.5 + 0.5 * c);
        CHECK(texelAt(b.set.slots[0], x).x == Approx(200.0 / 255 * 1000 * 256 * 0.65 * f / (d * d) / 255).epsilon(1e-3));
    }
    // The emitting face is raised to T x value / 255 of its own (self-minlight), in luxel units.
    REQUIRE(b.lights.rules.surfaceMinimum.size() == 2);
    CHECK(b.lights.rules.surfaceMinimum[1].x == Approx(200.0 * 1000 / 255 / 255));
}

TEST_CASE("ericw surface light: a sky face emits everywhere, half the receiver's cosine, surflightskyscale", "[bake][q2lights]") {
    // The same face as a sky (SURF_SKY | SURF_LIGHT): no emitter cosine, 0.5 x the receiver's, scale 0.65.
    const Baked b = bakeEricw(emitterOverFloor(1000, "\"_surflightskyscale\" \"0.5\"\n", kQ2SurfLight | kQ2SurfSky), glowGame(200));
    REQUIRE(b.lights.lights.size() == 1);
    CHECK(b.lights.lights[0].twoSided);
    for (const Luxel& x : luxelCentres(b.world, b.geometry)) {
        if (x.surface != 0 || x.position.y != 32 || (x.position.x != 32 && x.position.x != 0)) continue;
        const double dx = x.position.x - 32, d = std::sqrt(dx * dx + 62.0 * 62), r = 62 / d;
        CHECK(texelAt(b.set.slots[0], x).x == Approx(200.0 / 255 * 1000 * 256 * 0.5 * 0.5 * r / (d * d) / 255).epsilon(1e-3));
    }
}

TEST_CASE("ericw windows: light through a TRANS33 pane is tinted by its texel, once, and only under the pane", "[bake][q2lights]") {
    // A light of 150 with no falloff and no angle term (delay 3, _anglesense 0) at (32 32 64) over a floor; a
    // 32 x 32 pane of pure green between them (its top face at z 32 facing up, its bottom at z 30 facing
    // down), TRANS33. ericw-tools: C ((1 - 0.33) + 0.33 (0, 255, 0) / 255) = (100.5, 150, 100.5) under the pane
    // (its own test map expects (100, 150, 100) after truncating), 150 beside it; the ray crosses two faces of
    // the pane and is tinted once, out through the top face's front.
    Q2MapBuilder b;
    b.entities = "{\n\"classname\" \"worldspawn\"\n\"_bounce\" \"0\"\n}\n"
                 "{\n\"classname\" \"light\"\n\"origin\" \"32 32 64\"\n\"light\" \"150\"\n\"delay\" \"3\"\n\"_anglesense\" \"0\"\n}\n";
    const int32_t floor = b.addPlane({0, 0, 1}, 0), top = b.addPlane({0, 0, 1}, 32), bottom = b.addPlane({0, 0, 1}, 30);
    const int32_t tex = b.addTexinfo({1, 0, 0, 0}, {0, 1, 0, 0});
    const int32_t glass = b.addTexinfo({1, 0, 0, 0}, {0, 1, 0, 0}, kQ2SurfTrans33, "test/green");
    const int32_t light = b.addLighting({std::vector<std::array<uint8_t, 3>>(25, {0, 0, 0})});
    b.addFace({{0, 0, 0}, {0, 64, 0}, {64, 64, 0}, {64, 0, 0}}, floor, false, tex, {0, 255, 255, 255}, light);
    b.addFace({{16, 16, 32}, {16, 48, 32}, {48, 48, 32}, {48, 16, 32}}, top, false, glass, {255, 255, 255, 255}, -1);
    b.addFace({{16, 16, 30}, {48, 16, 30}, {48, 48, 30}, {16, 48, 30}}, bottom, true, glass, {255, 255, 255, 255}, -1);
    addQ2FloorWorld(b, floor, tex, 3, {64, 64, 64});
    const std::string game = tempDir("q2_ericw_green");
    writePng(std::filesystem::path(game) / "textures/test/green.png", 2, 2, Texels(4, {0, 255, 0, 255}));
    const Baked baked = bakeEricw(b.build(), game);
    bool under = false, beside = false;
    for (const Luxel& x : luxelCentres(baked.world, baked.geometry)) {
        if (x.surface != 0) continue;
        const Vec3 v = texelAt(baked.set.slots[0], x) * 255.0f;
        if (x.position.x == 32 && x.position.y == 32) {
            under = true;
            CHECK(v.x == Approx(100.5).epsilon(1e-3));
            CHECK(v.y == Approx(150).epsilon(1e-3));
            CHECK(v.z == Approx(100.5).epsilon(1e-3));
        }
        if (x.position.x == 0 && x.position.y == 0) {
            beside = true;
            CHECK(v.x == Approx(150).epsilon(1e-3));
        }
    }
    CHECK(under);
    CHECK(beside);
}

TEST_CASE("ericw surface light: a texture not found emits nothing, with a note, as ericw-tools", "[bake][q2lights]") {
    const Baked b = bakeEricw(emitterOverFloor(1000), "");
    CHECK(b.lights.lights.empty());
    bool noted = false;
    for (const std::string& n : b.lights.notes) noted = noted || n.find("textures were not found") != std::string::npos;
    CHECK(noted);
}

TEST_CASE("ericw surface light: hostile values and huge faces give bounded work and a warning", "[bake][q2lights]") {
    // A value of 2^31 is stored as the int32 -2^31: nothing is emitted, and a note says so.
    {
        const Baked b = bakeEricw(emitterOverFloor(int32_t(0x80000000u)), glowGame(200));
        CHECK(b.lights.lights.empty());
        bool noted = false;
        for (const std::string& n : b.lights.notes) noted = noted || n.find("negative value") != std::string::npos;
        CHECK(noted);
    }
    // A face 2^20 units square diced by 16 would be 2^32 pieces: diced coarser, at most maxPiecesPerFace.
    World w = decodeBytes(emitterOverFloor(300));
    const float big = 1048576;
    const uint32_t first = w.surfaces[1].firstVertex;
    w.vertices[first + 0].position = {0, 0, 64}, w.vertices[first + 1].position = {big, 0, 64};
    w.vertices[first + 2].position = {big, big, 64}, w.vertices[first + 3].position = {0, big, 64};
    MaterialOptions mo;
    mo.gameDirs = {glowGame(200)};
    const MaterialSet materials = loadMaterials(w, memorySource(emitterOverFloor(300)), mo);
    Q2SurfaceLightOptions o;
    o.subdivide = 16;
    std::vector<Vec3> self;
    std::vector<std::string> problems;
    const std::vector<Light> lights = quake2SurfaceLights(w, &materials, ericwWorld(w.entities), o, self, &problems);
    CHECK(!lights.empty());
    CHECK(lights.size() <= o.maxPiecesPerFace);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].find("diced coarser") != std::string::npos);
    // The pieces share the face's total: their intensities sum to the one point's of the undiced face.
    o.subdivide = 0;
    const std::vector<Light> one = quake2SurfaceLights(w, &materials, ericwWorld(w.entities), o, self, nullptr);
    REQUIRE(one.size() == 1);
    double sum = 0;
    for (const Light& l : lights) sum += l.intensity;
    CHECK(sum == Approx(one[0].intensity).epsilon(1e-3));
}

TEST_CASE("ericw face bounce: a face lit evenly becomes one light of mean x albedo x area", "[bake][q2lights]") {
    World w = decodeBytes(emitterOverFloor(0));
    // The floor's pages: every texel of its 5 x 5 rectangle at 0.4 red, 0.2 green, 0.
    std::array<std::vector<LightmapPage>, 4> from;
    from[0] = w.lightmaps;
    for (LightmapPage& p : from[0])
        for (size_t i = 0; i + 2 < p.rgb.size(); i += 3) p.rgb[i] = 0.4f, p.rgb[i + 1] = 0.2f, p.rgb[i + 2] = 0;
    FaceBounceModel m;
    m.emits = {true, false};
    m.albedo = {Vec3{0.5f, 0.5f, 0.5f}, Vec3{}};
    m.scale = 0.425f;
    const std::vector<Light> lights = faceBounceLights(w, from, m);
    REQUIRE(lights.size() == 1);
    const Light& l = lights[0];
    CHECK(l.origin.x == Approx(32));
    CHECK(l.origin.z == Approx(1));  // the floor's centre, one unit up its normal
    CHECK(l.minDistance == 128);
    // emit = (0.2, 0.1, 0): intensity 0.2 x area 4096 x 0.425, colour (1, 0.5, 0).
    CHECK(l.intensity == Approx(0.2 * 4096 * 0.425));
    CHECK(l.color.y == Approx(0.5));
    CHECK(l.color.z == 0);
}

TEST_CASE("ericw worldspawn keys: _bounce, _bouncescale, _minlight x 128, _dirt", "[bake][q2lights]") {
    const Baked b = bakeEricw(emitterOverFloor(0, "\"_bouncescale\" \"0.5\"\n\"_minlight\" \"0.5\"\n\"_dirt\" \"1\"\n"), "");
    REQUIRE(b.lights.faceBounce);
    CHECK(b.lights.faceBounce->bounces == 0);     // _bounce 0
    CHECK(b.lights.faceBounce->scale == Approx(0.25));  // bouncescale / 2
    CHECK(b.lights.rules.minimum.x == Approx(64.0 / 255));  // 0.5 x 128 in 0..255 units
    CHECK(b.lights.rules.occlusion.rays() == 48);
    CHECK(b.lights.rules.occlusion.minimumScale == 1);  // _dirt 1 turns minlight_dirt on
    // The floor is open above: no occlusion, so its floor is the whole minlight (left for after bounce).
    REQUIRE(!b.set.floor.empty());
    for (const Luxel& x : luxelCentres(b.world, b.geometry))
        if (x.surface == 0 && x.position.x == 32 && x.position.y == 32) CHECK(texelAt(b.set.floor, x).x == Approx(64.0 / 255));
}

TEST_CASE("ericw bake: the same bytes for 1 and 2 threads, surface lights, dirt and bounce included", "[bake][maps][q2lights]") {
    const auto maps = sharedMaps();
    if (!maps) {
        WARN("../shared/maps is absent: skipping the thread-count check");
        return;
    }
    const std::string map = *maps + "/pairs/ericw-q2/quakeless-ii_test1/base/quakeless-ii_test1.bsp";
    const std::string out = tempDir("q2_ericw_threads");
    for (const char* t : {"1", "2"}) {
        const CommandResult r = runLuxel("bake '" + map + "' --compiler ericw --game-dir '" + *maps +
                                         "/q2/quakeless-ii_textures' --threads " + t + " --write '" + out + "/t" + t + ".bsp'");
        REQUIRE(r.exitCode == 0);
    }
    const Q2LightingLuxels one = readQ2Lighting(out + "/t1.bsp"), two = readQ2Lighting(out + "/t2.bsp");
    CHECK(one.rgb == two.rgb);
    CHECK(one.faces > 900);
}

TEST_CASE("luxel bake against ericw-tools' own Quake 2 builds, read back independently", "[bake][maps][q2lights]") {
    const auto maps = sharedMaps();
    if (!maps) {
        WARN("../shared/maps is absent: skipping the ericw-tools builds");
        return;
    }
    const std::string pairs = *maps + "/pairs/ericw-q2/";
    struct Case {
        std::string map, args;
        double median;  // the bound: 10% direct (built with bounce off), 15% with bounce
    };
    const std::string textures = " --game-dir " + *maps + "/q2/quakeless-ii_textures";
    const Case cases[] = {
        {"q2_light_cone/q2_light_cone.bsp", "", 0.10},  // _bounce 0 in the map
        {"q2_dirt/q2_dirt.bsp", "", 0.10},              // _bounce 0, _dirt, _minlight
        {"q2_light_translucency/nobounce/q2_light_translucency.bsp", " --bounce 0", 0.10},
        {"q2_light_translucency/base/q2_light_translucency.bsp", "", 0.15},  // its _bounce 0 is honoured
        {"quakeless-ii_test1/nobounce/quakeless-ii_test1.bsp", " --bounce 0" + textures, 0.10},
        {"quakeless-ii_test1/base/quakeless-ii_test1.bsp", textures, 0.15},
        {"light_q2_emissive_cube/light_q2_emissive_cube.bsp", "", 0.10},  // black: its emitter's texture is missing
    };
    const std::string out = tempDir("q2_ericw_builds");
    for (const Case& c : cases) {
        INFO(c.map);
        const std::string baked = out + "/baked.bsp";
        const CommandResult r = runLuxel("bake '" + pairs + c.map + "' --compiler ericw --write '" + baked + "'" + c.args);
        INFO(r.err);
        REQUIRE(r.exitCode == 0);
        const Q2LightingComparison cmp = compareQ2Lighting(readQ2Lighting(pairs + c.map), readQ2Lighting(baked));
        INFO(fmt::format("median {:.4f} over {} lit luxels; mean {:.3f} -> {:.3f}", cmp.medianRelative, cmp.lit,
                         cmp.meanReference, cmp.meanBaked));
        CHECK(cmp.medianRelative <= c.median);
        if (cmp.meanReference > 0) {
            CHECK(std::abs(cmp.meanBaked / cmp.meanReference - 1) <= 0.05);
        } else {
            CHECK(cmp.meanBaked == 0);
        }
    }
}
