// Quake 2 light entities as qrad3 and ericw-tools read them, and their arrivals at hand-computed points.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "luxel/bsp/decode.hpp"
#include "luxel/bsp/entities.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/light/q2_lights.hpp"
#include "support/decode_helpers.hpp"
#include "support/q2_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

const std::string kEntities =
    "{\n\"classname\" \"worldspawn\"\n\"_sunlight\" \"100\"\n\"_sun_mangle\" \"0 -60 0\"\n\"_sunlight2\" \"65\"\n}\n"
    "{\n\"classname\" \"light\"\n\"origin\" \"0 0 100\"\n\"light\" \"200\"\n\"_color\" \"255 128 0\"\n\"style\" \"2\"\n}\n"
    "{\n\"classname\" \"light_spot\"\n\"origin\" \"0 0 300\"\n\"_cone\" \"30\"\n\"angle\" \"-2\"\n}\n"
    "{\n\"classname\" \"light\"\n\"origin\" \"64 0 64\"\n\"target\" \"t1\"\n\"_light\" \"150\"\n}\n"
    "{\n\"classname\" \"info_null\"\n\"origin\" \"64 0 0\"\n\"targetname\" \"t1\"\n}\n"
    "{\n\"classname\" \"light\"\n\"origin\" \"-64 0 32\"\n\"light\" \"-50\"\n}\n"
    "{\n\"classname\" \"light\"\n\"origin\" \"0 64 32\"\n\"light\" \"300\"\n\"delay\" \"2\"\n\"wait\" \"2\"\n}\n";

std::vector<Entity> entities() { return parseEntities(kEntities, "test", 0); }

bool hasProblem(const std::vector<std::string>& problems, const std::string& part) {
    return std::any_of(problems.begin(), problems.end(), [&](const std::string& p) { return p.find(part) != std::string::npos; });
}

Vec3 v(float x, float y, float z) { return {x, y, z}; }

}  // namespace

TEST_CASE("srclights: Quake 2 light entities as qrad3 reads them, through the decoder", "[srclights][q2lights]") {
    Q2MapBuilder b = makeQ2FloorMap();
    b.entities = kEntities;
    const World w = decodeBytes(b.build());
    REQUIRE(w.lights.size() == 4);  // the antilight lights nothing in qrad3
    CHECK(hasProblem(w.problems, "light -50 lights nothing in qrad3"));

    const Light& a = w.lights[0];
    CHECK(a.kind == Light::Kind::Point);
    CHECK(a.origin == v(0, 0, 100));
    CHECK(a.falloff == Light::Falloff::Linear);
    CHECK(a.intensity == Approx(200.0 / 255));
    CHECK(a.range == 200.0f);
    CHECK(a.envelope == 200.0f);
    CHECK(a.style == 2);
    CHECK(a.color.x == 1.0f);
    CHECK(a.color.y == Approx(128.0 / 255));
    CHECK(a.color.z == 0.0f);
    CHECK(a.angleMix == 1.0f);
    CHECK(a.source == "light entity 1 (light) at 0 0 100");

    const Light& spot = w.lights[1];  // light_spot, "angle" -2: straight down, 30 degree hard cone, light 300
    CHECK(spot.kind == Light::Kind::Spot);
    CHECK(spot.direction == v(0, 0, -1));
    CHECK(spot.spotCosOuter == Approx(std::cos(degToRad(30))));
    CHECK(spot.spotCosInner == spot.spotCosOuter);
    CHECK(spot.range == 300.0f);

    const Light& targeted = w.lights[2];  // a "target" makes a spot towards the target; "_light" when no "light"
    CHECK(targeted.kind == Light::Kind::Spot);
    CHECK(targeted.direction == v(0, 0, -1));
    CHECK(targeted.range == 150.0f);
    CHECK(targeted.spotCosOuter == Approx(std::cos(degToRad(10))));  // default _cone 10

    const Light& delayed = w.lights[3];  // qrad3 knows no "delay": linear as every light
    CHECK(delayed.falloff == Light::Falloff::Linear);
    CHECK(delayed.range == 300.0f);
}

TEST_CASE("srclights: qrad3's (light - d) x cos arrivals", "[srclights][q2lights]") {
    const std::vector<Light> lights = quake2Lights(entities(), Q2LightCompiler::Qrad3);
    REQUIRE(lights.size() == 4);
    // 100 units below the light of 200: (200 - 100) / 255 x colour.
    LightArrival a = quake2LightArrival(lights[0], v(0, 0, 0), v(0, 0, 1));
    CHECK(a.color.x == Approx(100.0 / 255));
    CHECK(a.color.y == Approx(100.0 / 255 * 128 / 255));
    CHECK(a.color.z == 0.0f);
    CHECK(a.distance == Approx(100));
    // At (60, 0, 20): d = 100, cos = 0.8: 100 x 0.8 / 255.
    a = quake2LightArrival(lights[0], v(60, 0, 20), v(0, 0, 1));
    CHECK(a.color.x == Approx(80.0 / 255));
    CHECK_FALSE(quake2LightArrival(lights[0], v(0, 0, -150), v(0, 0, 1)).reaches());  // past the light value
    // The spot, 200 units below it, inside its 30 degree cone: (300 - 200) / 255.
    CHECK(quake2LightArrival(lights[1], v(0, 0, 100), v(0, 0, 1)).color.x == Approx(100.0 / 255));
    CHECK_FALSE(quake2LightArrival(lights[1], v(150, 0, 100), v(0, 0, 1)).reaches());  // 37 degrees off
}

TEST_CASE("srclights: the same entities as ericw-tools reads them", "[srclights][q2lights]") {
    std::vector<std::string> problems;
    const std::vector<Light> lights = quake2Lights(entities(), Q2LightCompiler::Ericw, &problems);
    CHECK(hasProblem(problems, "antilight"));
    // Light entities (point, spot, targeted spot, inverse square), the sun, then the 65 dome suns.
    REQUIRE(lights.size() == 4 + 1 + 65);
    const Light& a = lights[0];
    CHECK(a.angleMix == 0.5f);
    CHECK(a.intensity == Approx(200.0 / 255));
    // Anglescale 0.5: at (60, 0, 20), (200 - 100) x (0.5 + 0.5 x 0.8) / 255.
    CHECK(quake2LightArrival(a, v(60, 0, 20), v(0, 0, 1)).color.x == Approx(90.0 / 255));

    const Light& spot = lights[1];  // "_cone" 30 is a radius: a 60 degree cone; "angle" -2 is no direction
    CHECK(spot.kind == Light::Kind::Point);
    const Light& targeted = lights[2];
    CHECK(targeted.kind == Light::Kind::Spot);
    CHECK(targeted.spotCosOuter == Approx(std::cos(degToRad(10))));  // default: diameter 20

    const Light& inverse2 = lights[3];  // delay 2, wait 2: 300 x 128^2 / (2 d)^2
    CHECK(inverse2.falloff == Light::Falloff::InverseSquare);
    const LightArrival i2 = quake2LightArrival(inverse2, v(0, 64, 0), v(0, 0, 1));
    CHECK(i2.color.x == Approx(300.0 * 128 * 128 / ((2 * 32.0) * (2 * 32.0)) / 255));  // d = 32, cos 1: 1200 / 255

    const Light& sun = lights[4];  // _sun_mangle 0 -60 0: (cos 60, 0, -sin 60)
    CHECK(sun.kind == Light::Kind::Sun);
    CHECK(sun.direction.x == Approx(0.5));
    CHECK(sun.direction.z == Approx(-std::sqrt(0.75)));
    const LightArrival s = quake2LightArrival(sun, v(0, 0, 0), v(0, 0, 1));
    CHECK(s.color.x == Approx(100 * (0.5 + 0.5 * std::sqrt(0.75)) / 255));
    CHECK(std::isinf(s.distance));
    // A sample turned from the sun keeps the (1 - anglescale) part (LightFace_Sky clamps its cosine at 0); whole
    // faces turned from it are the baker's cull (DirectBakeRules::sunFaceCull).
    CHECK(quake2LightArrival(sun, v(0, 0, 0), v(0, 0, -1)).color.x == Approx(100 * 0.5 / 255));

    float dome = 0;  // 65 suns of 65 / 65 each
    for (size_t i = 5; i < lights.size(); ++i) {
        CHECK(lights[i].kind == Light::Kind::Sun);
        CHECK(lights[i].direction.z < 0);
        dome += lights[i].intensity;
    }
    CHECK(dome == Approx(65.0 / 255));
}

TEST_CASE("srclights: ericw-tools' falloff kinds and soft spot cones", "[srclights][q2lights]") {
    auto one = [](const std::string& keys) {
        const std::vector<Light> l = quake2Lights(
            parseEntities("{\n\"classname\" \"worldspawn\"\n}\n{\n\"classname\" \"light\"\n\"origin\" \"0 0 0\"\n" + keys + "}\n",
                          "test", 0),
            Q2LightCompiler::Ericw);
        REQUIRE(l.size() == 1);
        return l[0];
    };
    auto at = [](const Light& l, Vec3 p) { return quake2LightArrival(l, p, normalize(-p)).color.x * 255; };
    CHECK(at(one(""), v(100, 0, 0)) == Approx(200));                                       // 300 - 100
    CHECK(at(one("\"wait\" \"2\"\n"), v(100, 0, 0)) == Approx(100));                       // 300 - 200
    CHECK(at(one("\"_falloff\" \"400\"\n"), v(100, 0, 0)) == Approx(225));                  // 300 (1 - 1/4)
    CHECK(at(one("\"delay\" \"1\"\n"), v(256, 0, 0)) == Approx(150));                       // 300 x 128 / 256
    CHECK(at(one("\"delay\" \"2\"\n"), v(256, 0, 0)) == Approx(75));                        // 300 / 4
    CHECK(at(one("\"delay\" \"3\"\n"), v(256, 0, 0)) == Approx(300));                       // no falloff
    CHECK(at(one("\"delay\" \"5\"\n"), v(128, 0, 0)) == Approx(75));                        // 300 x 128^2 / 256^2
    CHECK(at(one("\"_color\" \"0.5 0.5 0.5\"\n\"delay\" \"3\"\n"), v(1, 0, 0)) == Approx(150));  // 0..1 colours
    CHECK(quake2Lights(parseEntities("{\n\"classname\" \"light\"\n\"delay\" \"4\"\n}\n", "t", 0), Q2LightCompiler::Ericw).empty());

    // A soft spot down -Z: cone diameter 90 (outer cos 45), soft diameter 30 (inner cos 15), light 300, no falloff.
    const Light spot = one("\"mangle\" \"0 -90 0\"\n\"angle\" \"90\"\n\"_softangle\" \"30\"\n\"delay\" \"3\"\n");
    REQUIRE(spot.kind == Light::Kind::Spot);
    auto off = [&](float degrees) {  // 100 units away, `degrees` off the axis, facing the light
        return at(spot, v(100 * std::sin(degToRad(degrees)), 0, -100 * std::cos(degToRad(degrees))));
    };
    CHECK(off(10) == Approx(300));
    const double k = std::cos(degToRad(30)), inner = std::cos(degToRad(15)), outer = std::cos(degToRad(45));
    CHECK(off(30) == Approx(300 * (k - outer) / (inner - outer)));
    CHECK(off(46) == 0.0f);
}

TEST_CASE("srclights: hostile Quake 2 light keys give finite lights or none", "[srclights][q2lights]") {
    const std::string ents =
        "{\n\"classname\" \"worldspawn\"\n\"_sunlight\" \"1e39\"\n\"_range\" \"nan\"\n\"_sun_mangle\" \"inf 5\"\n}\n"
        "{\n\"classname\" \"light\"\n\"style\" \"1e30\"\n\"light\" \"nan\"\n\"origin\" \"nan 1 2\"\n}\n"
        "{\n\"classname\" \"light\"\n\"_style\" \"-1e30\"\n\"_color\" \"inf 0 0\"\n\"delay\" \"99\"\n}\n"
        "{\n\"classname\" \"light_spot\"\n\"light\" \"1e38\"\n\"wait\" \"1e-38\"\n\"delay\" \"2\"\n\"_cone\" \"1e30\"\n"
        "\"target\" \"self\"\n\"targetname\" \"self\"\n}\n";
    for (Q2LightCompiler c : {Q2LightCompiler::Qrad3, Q2LightCompiler::Ericw}) {
        std::vector<std::string> problems;
        for (const Light& l : quake2Lights(parseEntities(ents, "test", 0), c, &problems)) {
            INFO(l.source);
            CHECK(isFinite(l.origin));
            CHECK(std::isfinite(l.intensity));
            for (Vec3 n : {v(0, 0, 1), v(0, 0, 0)}) CHECK(isFinite(quake2LightArrival(l, v(1, 2, 3), n).color));
        }
    }
}

TEST_CASE("srclights: the real Quake 2 maps' lights", "[srclights][q2lights][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    for (const std::string& path : sharedMapFiles("q2")) {
        const World w = decodeMap(openMapPath(path));
        size_t n = 0;
        for (const Entity& e : w.entities)
            if (const std::string* c = e.get("classname"); c && c->rfind("light", 0) == 0) ++n;
        INFO(path);
        CHECK(w.lights.size() == n);  // every real light entity is a plain positive point light
        for (const Light& l : w.lights) {
            CHECK(l.kind == Light::Kind::Point);
            CHECK(std::isfinite(l.intensity));
            CHECK(l.intensity > 0);
        }
    }
}

TEST_CASE("q2 lights: the compiler guessed from keys only ericw-tools reads", "[lights][q2]") {
    auto ents = [](const std::string& text) { return parseEntities(text, "test", 0); };
    std::string why;
    CHECK(quake2CompilerOf(ents("{\"classname\" \"worldspawn\"}{\"classname\" \"light\" \"light\" \"300\"}"), &why) ==
          Q2LightCompiler::Qrad3);
    CHECK(why == "no entity has a key only ericw-tools reads");
    CHECK(quake2CompilerOf(ents("{\"classname\" \"worldspawn\" \"_dirt\" \"1\"}"), &why) == Q2LightCompiler::Ericw);
    CHECK(why == "worldspawn has the key dirt, which only ericw-tools reads");
    CHECK(quake2CompilerOf(ents("{\"classname\" \"worldspawn\"}{\"classname\" \"light\" \"delay\" \"2\"}")) ==
          Q2LightCompiler::Ericw);
    // Keys of other entities do not count (a door has its own delay).
    CHECK(quake2CompilerOf(ents("{\"classname\" \"worldspawn\"}{\"classname\" \"func_door\" \"delay\" \"2\"}")) ==
          Q2LightCompiler::Qrad3);
}

namespace {

bool sameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool sameBits(const LightArrival& a, const LightArrival& b) {
    return sameBits(a.color.x, b.color.x) && sameBits(a.color.y, b.color.y) && sameBits(a.color.z, b.color.z) &&
           sameBits(a.toLight.x, b.toLight.x) && sameBits(a.toLight.y, b.toLight.y) && sameBits(a.toLight.z, b.toLight.z) &&
           sameBits(a.distance, b.distance);
}

}  // namespace

TEST_CASE("quake2LightArrivals: the batch (four Area points at a time in SSE) gives the one-point formula's bits") {
    // Two code paths: the batch must agree with quake2LightArrival on every field, bit for bit, for emitters
    // of every mix, two-sided ones, receivers facing away, zero normals, points on the light and hostile values.
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1, 1);
    auto unit = [&] {
        const Vec3 v{u(rng), u(rng), u(rng)};
        return v * (1 / std::sqrt(dot(v, v)));
    };
    size_t compared = 0, lit = 0, dark = 0;
    for (int k = 0; k < 400; ++k) {
        Light l;
        l.kind = Light::Kind::Area;
        l.origin = {u(rng) * 200, u(rng) * 200, u(rng) * 200};
        l.normal = unit();
        l.color = {0.5f + 0.5f * u(rng), 1, 0.25f};
        l.intensity = k % 50 == 7 ? INFINITY : 1000 + 900 * u(rng) * 100;
        l.minDistance = k % 3 == 0 ? 16.0f : 0.0f;
        l.twoSided = k % 5 == 0;
        l.emitterAngleMix = k % 2 ? 0.5f : 1.0f;
        l.angleMix = k % 4 < 2 ? 0.5f : 1.0f;
        l.cutoff = 0.01f / 255;
        std::vector<Vec3> points(16), normals(16);
        for (size_t i = 0; i < 16; ++i) {
            points[i] = l.origin + unit() * (i == 3 ? 0.0f : i == 4 ? 0.004f : 300 * (u(rng) + 1));
            normals[i] = i % 7 == 2 ? Vec3{} : i == 9 ? Vec3{NAN, 0, 1} : unit();
        }
        if (k % 50 == 11) points[5] = {NAN, 0, 0};
        for (size_t count : {16, 13, 4, 3}) {
            std::vector<LightArrival> batch(count);
            quake2LightArrivals(l, points.data(), normals.data(), count, batch.data());
            for (size_t i = 0; i < count; ++i) {
                const LightArrival one = quake2LightArrival(l, points[i], normals[i]);
                INFO("light " << k << " point " << i << " of " << count);
                CHECK(sameBits(batch[i], one));
                ++compared;
                (one.reaches() ? lit : dark)++;
            }
        }
    }
    CHECK(lit > 1000);  // both outcomes are exercised
    CHECK(dark > 1000);
    CHECK(compared == 400 * 36);
}
