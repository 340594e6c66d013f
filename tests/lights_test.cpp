// Quake 3 lights as q3map2 sees them (light/q3_lights.hpp) and q3map2's contribution rules
// (light/light_arrival.hpp): hand-computed answers for every kind of light and for the grid cell. The .map
// parser, placement, hostile input, shader keywords and the real oacmpdm8 build: lights_sources_test.cpp.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "luxel/light/light_arrival.hpp"
#include "luxel/light/q3_lights.hpp"
#include "luxel/material/q3_light_shaders.hpp"
#include "support/light_fixtures.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

Light onlyLight(const Quake3LightSet& set) {
    REQUIRE(set.lights.size() == 1);
    return set.lights.front();
}

// The corner form factor of an a x b rectangle seen from height h above one corner, parallel (the textbook
// formula): (1 / 2 pi) (X / sqrt(1 + X^2) atan(Y / sqrt(1 + X^2)) + Y / sqrt(1 + Y^2) atan(X / sqrt(1 + Y^2))).
double cornerFormFactor(double a, double b, double h) {
    const double x = a / h, y = b / h;
    return (x / std::sqrt(1 + x * x) * std::atan(y / std::sqrt(1 + x * x)) +
            y / std::sqrt(1 + y * y) * std::atan(x / std::sqrt(1 + y * y))) /
           (2 * std::numbers::pi);
}

}  // namespace

TEST_CASE("point light over a plane: photons cos(theta) / d^2 with q3map2's scale", "[lights]") {
    const auto set = lightsOfMap(R"({ "classname" "worldspawn" }
{ "classname" "light" "origin" "0 0 100" })");
    const Light& l = onlyLight(set);
    CHECK(set.pointLights == 1);
    CHECK(l.kind == Light::Kind::Point);
    // Default intensity 300 times pointScale 7500 photons; -fast envelope sqrt(photons / tolerance 1).
    CHECK(l.intensity == Approx(300 * 7500 * kQ3LightUnit));
    CHECK(l.envelope == Approx(std::sqrt(300.0 * 7500.0)));
    // At (30, 40, 0): d^2 = 12500, cos = 100 / sqrt(12500): 2.25e6 / 12500 * 0.894427 = 161.0 (q3map2 value).
    const LightArrival a = lightArrival(l, {30, 40, 0}, kUp);
    CHECK(a.color.x == Approx(180.0 * 100.0 / std::sqrt(12500.0) * kQ3LightUnit));
    CHECK(a.color.y == a.color.x);
    CHECK(a.distance == Approx(std::sqrt(12500.0)));
    CHECK(a.toLight.z == Approx(100 / std::sqrt(12500.0)));
    // Closer than 16 units the distance is clamped to 16: 2.25e6 / 256.
    CHECK(lightArrival(l, {0, 0, 95}, kUp).color.x == Approx(2.25e6 / 256 * kQ3LightUnit));
    // Behind the receiver's plane: nothing; at or beyond the envelope: nothing; a value at or below the
    // falloff tolerance (1): nothing.
    CHECK(!lightArrival(l, {0, 0, 150}, kUp).reaches());
    CHECK(lightArrival(l, {0, 0, 150}, kUp, true).reaches());  // two-sided receiver: |cos|
    CHECK(!lightArrival(l, {1600, 0, 0}, kUp).reaches());
    // _color normalised to a largest channel of 1; `scale` multiplies; grid points see no angle term.
    const Light c = onlyLight(lightsOfMap(R"({ "classname" "light" "origin" "0 0 100" "_color" "0.5 0.25 0" "light" "100" "scale" "2" })"));
    CHECK(c.color == Vec3{1, 0.5f, 0});
    CHECK(c.intensity == Approx(200 * 7500 * kQ3LightUnit));
    CHECK(lightArrivalAtPoint(c, {0, 0, 0}).color.x == Approx(200 * 7500 / 1e4 * kQ3LightUnit));  // d = 100
}

TEST_CASE("linear falloff and no angle attenuation", "[lights]") {
    // spawnflags 1: photons * linearScale - fade * d, no angle term: 300 * 7500 / 8000 = 281.25.
    const Light lin = onlyLight(lightsOfMap(R"({ "classname" "light" "origin" "0 0 100" "spawnflags" "1" })"));
    CHECK(lin.falloff == Light::Falloff::Linear);
    CHECK(!lin.angleAttenuation);
    CHECK(lightArrival(lin, {0, 0, 0}, kUp).color.x == Approx((281.25 - 100) * kQ3LightUnit));
    CHECK(lightArrival(lin, {100, 0, 0}, kUp).color.x == Approx((281.25 - 100 * std::sqrt(2.0)) * kQ3LightUnit));
    CHECK(!lightArrival(lin, {0, 0, -200}, {0, 0, 1}, true).reaches());  // 281.25 - 300 < 0
    CHECK(lin.envelope == Approx(281.25 - 1));  // (photons * linearScale - tolerance) / fade
    // fade doubles the slope.
    const Light fade = onlyLight(lightsOfMap(R"({ "classname" "light" "origin" "0 0 100" "spawnflags" "1" "fade" "2" })"));
    CHECK(lightArrival(fade, {0, 0, 0}, kUp).color.x == Approx((281.25 - 200) * kQ3LightUnit));
    // spawnflags 2: inverse square without the cosine: 2.25e6 / 12500 at (30, 40, 0).
    const Light flat = onlyLight(lightsOfMap(R"({ "classname" "light" "origin" "0 0 100" "spawnflags" "2" })"));
    CHECK(!flat.angleAttenuation);
    CHECK(lightArrival(flat, {30, 40, 0}, kUp).color.x == Approx(180 * kQ3LightUnit));
    // _anglescale 0.5: cos / 0.5 capped at 1.
    const Light as = onlyLight(lightsOfMap(R"({ "classname" "light" "origin" "0 0 100" "_anglescale" "0.5" })"));
    CHECK(lightArrival(as, {30, 40, 0}, kUp).color.x == Approx(180 * kQ3LightUnit));
    CHECK(lightArrival(as, {300, 0, 0}, kUp).color.x ==
          Approx(2.25e6 / 1e5 * (100 / std::sqrt(1e5) / 0.5) * kQ3LightUnit).epsilon(1e-4));
}

TEST_CASE("spotlight: q3map2's cone and its 32-unit edge", "[lights]") {
    const auto set = lightsOfMap(R"({ "classname" "light" "origin" "0 0 0" "target" "t1" }
{ "classname" "light_target" "targetname" "t1" "origin" "0 0 -100" })");
    // The target entity is a light by class prefix too (q3map2 makes it a point light): the spot is first.
    REQUIRE(set.lights.size() == 2);
    CHECK(set.spotLights == 1);
    const Light& spot = set.lights[0];
    REQUIRE(spot.kind == Light::Kind::Spot);
    // radius 64 by default: (64 + 16) / 100 units of radius per unit along the axis.
    CHECK(spot.spotRadiusPerDistance == Approx(0.8f));
    CHECK(spot.direction == Vec3{0, 0, -1});
    const Vec3 facing{0, 0, 1};
    // At 200 below the cone's radius is 160; inside the edge band (128..160) the light fades linearly.
    auto expected = [](double r, double factor) {
        const double d2 = r * r + 200.0 * 200.0;
        return 2.25e6 / d2 * (200.0 / std::sqrt(d2)) * factor * kQ3LightUnit;
    };
    CHECK(lightArrival(spot, {100, 0, -200}, facing).color.x == Approx(expected(100, 1.0)));
    CHECK(lightArrival(spot, {144, 0, -200}, facing).color.x == Approx(expected(144, 0.5)));
    CHECK(!lightArrival(spot, {0, 170, -200}, facing).reaches());
    CHECK(!lightArrival(spot, {0, 0, 50}, {0, 0, -1}).reaches());  // behind the light
    // A missing target leaves a point light.
    const auto lone = lightsOfMap(R"({ "classname" "light" "origin" "0 0 0" "target" "nowhere" })");
    CHECK(onlyLight(lone).kind == Light::Kind::Point);
    CHECK(lone.pointLights == 1);
}

TEST_CASE("suns: q3map_sun and a light with _sun", "[lights]") {
    // q3map_sun 1 1 1 100 0 90: straight down; a floor facing up gets 100, tilted by 60 degrees 50.
    Q3Shader::Sun sun{{1, 1, 1}, 100, 0, 90};
    const auto suns = quake3Suns(sun, 0);
    REQUIRE(suns.size() == 1);
    const Light& s = suns.front();
    CHECK(s.kind == Light::Kind::Sun);
    CHECK(s.direction.z == Approx(-1));
    LightArrival a = lightArrival(s, {5, 5, 5}, kUp);
    CHECK(a.color.x == Approx(100 * kQ3LightUnit));
    CHECK(std::isinf(a.distance));
    CHECK(a.toLight.z == Approx(1));
    const float c60 = std::cos(60.0f * std::numbers::pi_v<float> / 180);
    CHECK(lightArrival(s, {}, {std::sin(60.0f * std::numbers::pi_v<float> / 180), 0, c60}).color.x ==
          Approx(50 * kQ3LightUnit).epsilon(1e-4));
    CHECK(!lightArrival(s, {}, {0, 0, -1}).reaches());
    CHECK(lightArrivalAtPoint(s, {}).color.x == Approx(100 * kQ3LightUnit));  // grid: no angle term
    // degrees 90, elevation 0: from +y, travelling towards -y. Colour normalised.
    const auto east = quake3Suns({{2, 1, 0}, 50, 90, 0}, 0);
    CHECK(east.front().direction.y == Approx(-1));
    CHECK(east.front().color == Vec3{1, 0.5f, 0});
    // q3map_sunExt samples: the intensity shared, the first exact, the others within the deviance.
    Q3Shader::Sun ext{{1, 1, 1}, 90, 0, 90, 5, 3};
    const auto three = quake3Suns(ext, 0);
    REQUIRE(three.size() == 3);
    for (const Light& l : three) {
        CHECK(l.intensity == Approx(30 * kQ3LightUnit));
        CHECK(-l.direction.z >= std::cos(5.1f * std::numbers::pi_v<float> / 180));
    }
    // A light entity with a target and _sun 1 is a sun along the light -> target line.
    // (q3map2 reads only light entities back from the source; the target stays in the compiled map.)
    World w;
    w.entities = parseQuake3MapEntities(R"({ "classname" "info_null" "targetname" "t" "origin" "0 100 0" })", "bsp");
    const auto set = quake3Lights(w, {}, R"({ "classname" "light" "origin" "0 0 0" "target" "t" "_sun" "1" "light" "80" })");
    REQUIRE(set.lights.size() == 1);
    CHECK(set.sunLights == 1);
    CHECK(set.lights[0].kind == Light::Kind::Sun);
    CHECK(set.lights[0].direction.y == Approx(1));
    CHECK(set.lights[0].intensity == Approx(80 * kQ3LightUnit));
}

TEST_CASE("q3map_skyLight: q3map2's set of suns over the sky", "[lights]") {
    // (iterations - 1) * 4 suns a ring, iterations - 1 rings, one straight up; they share the value.
    for (auto [iterations, count] : {std::pair{8, 197}, std::pair{3, 17}, std::pair{2, 5}, std::pair{4, 37}}) {
        Q3Shader::SkyLight sky;
        sky.value = 220;
        sky.iterations = iterations;
        const auto suns = quake3SkyLights(sky, {1, 1, 0.9f}, {}, 0);
        REQUIRE(suns.size() == size_t(count));
        double total = 0;
        for (const Light& l : suns) {
            total += l.intensity;
            CHECK(l.direction.z < 0);  // all from above
            CHECK(l.color == Vec3{1, 1, 0.9f});
        }
        CHECK(total == Approx(220 * kQ3LightUnit));
        CHECK(suns.back().direction.z == Approx(-1));
    }
    // Iterations 3: rings at elevations 15 and 45 degrees, the second turned by half a step (45 / 2 degrees).
    Q3Shader::SkyLight sky;
    sky.value = 100;
    sky.iterations = 3;
    const auto suns = quake3SkyLights(sky, {1, 1, 1}, {}, 0);
    CHECK(-suns[0].direction.z == Approx(std::sin(15 * std::numbers::pi / 180)));
    CHECK(-suns[0].direction.x == Approx(std::cos(15 * std::numbers::pi / 180)));
    CHECK(-suns[8].direction.z == Approx(std::sin(45 * std::numbers::pi / 180)));
    CHECK(std::atan2(-suns[8].direction.y, -suns[8].direction.x) == Approx((360.0 + 22.5) * std::numbers::pi / 180 - 2 * std::numbers::pi));
    // Sampled colours: a sky box red above, blue below the horizon, seen only from above (probes with z >= 0,
    // the horizon row included): every sun red, the reddest 1 (colours share one normalisation).
    std::vector<RgbaImage> box(6);
    for (int f = 0; f < 6; ++f) {
        box[size_t(f)].width = box[size_t(f)].height = 8;
        for (int y = 0; y < 8; ++y)
            for (int x = 0; x < 8; ++x) {
                const bool up = f == 4 || (f != 5 && y < 5);  // rows 0..4: the cells of v < 40, z >= 0
                box[size_t(f)].rgba.insert(box[size_t(f)].rgba.end(), {uint8_t(up ? 200 : 0), 0, uint8_t(up ? 0 : 200), 255});
            }
    }
    const auto probes = skyProbes(box);
    CHECK(probes.size() == 6 * 64 * 64);
    const auto red = quake3SkyLights(sky, {1, 1, 1}, probes, 0);
    float reddest = 0;
    for (const Light& l : red) {
        CHECK(l.color.x > 0.5f);
        CHECK(l.color.y == 0);
        CHECK(l.color.z == 0);
        reddest = std::max(reddest, l.color.x);
    }
    CHECK(reddest == 1.0f);
}

TEST_CASE("area light: q3map2's form factor at a known distance", "[lights]") {
    // A 128 x 128 square 64 units above, centred: 4 corner rectangles of 64 x 64 at height 64.
    // Clockwise as seen from below, where it shines.
    const std::vector<Vec3> square{{-64, -64, 64}, {64, -64, 64}, {64, 64, 64}, {-64, 64, 64}};
    const double expected = 4 * cornerFormFactor(64, 64, 64);
    CHECK(expected == Approx(0.5541).epsilon(1e-3));
    CHECK(polygonFormFactor({0, 0, 0}, kUp, square) == Approx(expected).epsilon(1e-5));
    // The other winding order (counter-clockwise seen from the point) gives the negative.
    const std::vector<Vec3> reversed(square.rbegin(), square.rend());
    CHECK(polygonFormFactor({0, 0, 0}, kUp, reversed) == Approx(-expected).epsilon(1e-5));

    // The same square as a surface light (q3map_surfacelight 1000, no subdivision at 999), its face down.
    World w = polygonWorld(square, {0, 0, -1});
    const auto set = quake3Lights(w, {glowShader(1000)}, "");
    // Two triangles, each an emitter, each with a backsplash (5% x 7, 23 units below, facing up).
    CHECK(set.areaLights == 2);
    CHECK(set.backsplashLights == 2);
    REQUIRE(set.lights.size() == 4);
    const Light& tri = set.lights[0];
    CHECK(tri.kind == Light::Kind::Area);
    CHECK(tri.area == Approx(128 * 128 / 2));
    CHECK(tri.normal == Vec3{0, 0, -1});
    CHECK(tri.intensity == Approx(1000 * 3 * 0.25 * kQ3LightUnit));  // value * formFactorValueScale * areaScale
    CHECK(tri.origin.z == Approx(63));                       // bounds centre, 1 unit off the face
    const Light& splash = set.lights[1];
    CHECK(splash.normal == Vec3{0, 0, 1});
    CHECK(splash.intensity == Approx(1000 * 3 * 0.25 * 7 * 0.05 * kQ3LightUnit));
    CHECK(splash.origin.z == Approx(63 - 23));
    // Both triangles at the floor's centre add up to the whole square's form factor.
    Vec3 sum;
    for (size_t i : {0, 2}) sum += lightArrival(set.lights[i], {0, 0, 0}, kUp).color;
    CHECK(sum.x == Approx(expected * 750 * kQ3LightUnit).epsilon(1e-4));
    // Behind the emitter (one-sided): nothing; the -fast envelope is where |ff| * 750 falls to 1.
    CHECK(!lightArrival(tri, {0, 0, 100}, kUp, true).reaches());
    CHECK(tri.envelope > 100);
    CHECK(std::fabs(polygonFormFactor(tri.origin + tri.normal * tri.envelope, -tri.normal, tri.polygon)) * 750 <= 1.0f);
    CHECK(std::fabs(polygonFormFactor(tri.origin + tri.normal * (tri.envelope - 10), -tri.normal, tri.polygon)) * 750 > 1.0f);
    // Near the emitter's plane the point is pushed to 8 units in front before the form factor.
    const Vec3 near{0, 0, 60};  // s = 3 in front of the origin plane
    CHECK(lightArrival(tri, near, kUp).color.x ==
          Approx(polygonFormFactor(near + Vec3{0, 0, -1} * 5, kUp, tri.polygon) * 750 * kQ3LightUnit));

    // q3map_lightSubdivide 32: axial halving until no side is longer than 32: each 128 x 128 triangle gives
    // pieces; all area is kept except pieces under 1 square unit.
    const auto fine = quake3Lights(w, {glowShader(1000, 32)}, "");
    double area = 0;
    for (const Light& l : fine.lights)
        if (l.normal.z < 0) {
            area += l.area;
            Bounds b;
            for (const Vec3& p : l.polygon) b.grow(p);
            CHECK(b.size().x <= 32.0f);
            CHECK(b.size().y <= 32.0f);
        }
    CHECK(fine.areaLights > 16);
    CHECK(area == Approx(128.0 * 128.0).epsilon(1e-3));
}

TEST_CASE("grid cell: two known contributions combined as TraceGrid stores them", "[lights]") {
    // 40 from straight up and 30 from +x (q3map2 values): main direction (30, 0, 40) / 50.
    const GridArrival arrivals[] = {{Vec3{40, 40, 40} * kQ3LightUnit, {0, 0, 1}}, {Vec3{30, 30, 30} * kQ3LightUnit, {1, 0, 0}}};
    Quake3GridSettings g;
    const GridSample s = quake3GridCell(arrivals, g);
    // directed = 40 * 0.8 + 30 * 0.6 = 50; ambient = (40 * 0.2 + 30 * 0.4) / 4 = 5.
    CHECK(s.directed.x == Approx(50 * kQ3LightUnit));
    CHECK(s.ambient.x == Approx(5 * kQ3LightUnit));
    // Stored as latitude / longitude bytes: acos(0.8) = 36.87 degrees -> byte 26 -> 26 * 360 / 256 degrees.
    const double polar = 26 * 2 * std::numbers::pi / 256;
    CHECK(s.direction.x == Approx(std::sin(polar)));
    CHECK(s.direction.z == Approx(std::cos(polar)));
    g.quantize = false;
    const GridSample exact = quake3GridCell(arrivals, g);
    CHECK(exact.direction.x == Approx(0.6));
    CHECK(exact.directed.x == Approx(50 * kQ3LightUnit));
    // Worldspawn ambient starts the ambient; the _mingridlight floor raises it; bytes truncate.
    g.quantize = true;
    g.ambient = Vec3{2.5f, 2.5f, 2.5f} * kQ3LightUnit;
    CHECK(quake3GridCell(arrivals, g).ambient.x == Approx(7 * kQ3LightUnit));
    g.minGridLight = Vec3{20, 0, 0} * kQ3LightUnit;
    CHECK(quake3GridCell(arrivals, g).ambient.x == Approx(20 * kQ3LightUnit));
    CHECK(quake3GridCell(arrivals, g).ambient.y == Approx(7 * kQ3LightUnit));
    // Over 255 the brightest channel is scaled to 255 with the others (hue kept).
    const GridArrival bright[] = {{Vec3{510, 255, 0} * kQ3LightUnit, {0, 0, 1}}};
    const GridSample b = quake3GridCell(bright, {});
    CHECK(b.directed.x == Approx(255 * kQ3LightUnit));
    CHECK(b.directed.y == Approx(127 * kQ3LightUnit));  // 127.5 truncated
    // One light alone is all directed; the zero ambient is stored as 1 1 1 so the engine keeps the cell.
    CHECK(b.ambient == Vec3{kQ3LightUnit, kQ3LightUnit, kQ3LightUnit});
    // Nothing at all: zero light, direction stored as straight down.
    const GridSample none = quake3GridCell({}, {});
    CHECK(none.ambient == Vec3{});
    CHECK(none.direction.z == Approx(-1));
}
