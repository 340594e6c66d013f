// vrad's direct light (light/source/lights.cpp) at hand-computed points for every emit type and falloff, and
// the ambient cube sums of known arrivals.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "luxel/light/sky_dome.hpp"
#include "luxel/light/source_lights.hpp"
#include "support/vec_checks.hpp"

using namespace luxel;

namespace {

Vec3 v(float x, float y, float z) { return {x, y, z}; }

void checkNear(Vec3 a, Vec3 b, float eps = 1e-5f) { test::checkNearRelative(a, b, eps); }

}  // namespace

TEST_CASE("srclights: a point light with quadratic attenuation", "[srclights]") {
    Light l;
    l.kind = Light::Kind::Point;
    l.origin = v(0, 0, 100);
    l.intensity = 2;
    l.color = v(1, 0.5f, 0.25f);
    l.falloff = Light::Falloff::Quadratic;
    l.constant = 0, l.linear = 0, l.quadratic = 1;
    // Straight below, 100 units: 2 / 100^2.
    LightArrival a = sourceLightArrival(l, v(0, 0, 0), v(0, 0, 1));
    checkNear(a.color, v(2e-4f, 1e-4f, 5e-5f));
    checkNear(a.toLight, v(0, 0, 1));
    CHECK(a.distance == Approx(100));
    // At (0, 60, 20): d = 100, cos = 80 / 100: 2 x 0.8 / 10^4.
    a = sourceLightArrival(l, v(0, 60, 20), v(0, 0, 1));
    CHECK(a.color.x == Approx(1.6e-4));
    // Nearer than 1 unit the falloff is held at d = 1: 2 / 1.
    a = sourceLightArrival(l, v(0, 0, 99.5f), v(0, 0, 1));
    CHECK(a.color.x == Approx(2.0));
    // All three terms at d = 100: 1 / (1 + 0.01 x 100 + 0.0001 x 100^2) = 1 / 3.
    l.constant = 1, l.linear = 0.01f, l.quadratic = 0.0001f;
    a = sourceLightArrival(l, v(0, 0, 0), v(0, 0, 1));
    CHECK(a.color.x == Approx(2.0 / 3.0));
    // Behind the receiver: nothing; a zero normal: no receiver angle.
    CHECK_FALSE(sourceLightArrival(l, v(0, 0, 0), v(0, 0, -1)).reaches());
    CHECK(sourceLightArrival(l, v(0, 60, 20), v(0, 0, 0)).color.x == Approx(2.0 / 3.0));
}

TEST_CASE("srclights: fades, the capped falloff and the quake light", "[srclights]") {
    Light l;
    l.kind = Light::Kind::Point;
    l.intensity = 1;
    l.falloff = Light::Falloff::Quadratic;
    l.constant = 1, l.linear = 0, l.quadratic = 0;
    l.fadeStart = 175, l.fadeEnd = 200;
    // Half way through the fade: s = 0.5, s^3 (s (6 s - 15) + 10) = 0.125 x 4 = 0.5.
    CHECK(sourceLightArrival(l, v(187.5f, 0, 0), v(-1, 0, 0)).color.x == Approx(0.5));
    CHECK_FALSE(sourceLightArrival(l, v(201, 0, 0), v(-1, 0, 0)).reaches());
    // The fitted falloff capped at 500 and faded from 500 to 5000, at d = 1000: 1 / (1 + 50 - 25) x fade(1/9).
    l.constant = 1, l.linear = 0.1f, l.quadratic = -0.0001f;
    l.falloffCap = 500, l.fadeStart = 500, l.fadeEnd = 5000;
    const double s = 1 - 500.0 / 4500.0, faded = s * s * s * (s * (6 * s - 15) + 10);
    CHECK(sourceLightArrival(l, v(1000, 0, 0), v(-1, 0, 0)).color.x == Approx(faded / 26).epsilon(1e-4));
    // The engine's quake light: 0.5 x (300 - d), decoded as intensity 150 over range 300.
    Light q;
    q.kind = Light::Kind::Point;
    q.falloff = Light::Falloff::Linear;
    q.intensity = 150, q.range = 300;
    CHECK(sourceLightArrival(q, v(100, 0, 0), v(-1, 0, 0)).color.x == Approx(0.5 * 200));
    CHECK_FALSE(sourceLightArrival(q, v(301, 0, 0), v(-1, 0, 0)).reaches());
}

TEST_CASE("srclights: a spotlight at and around its cone edges", "[srclights]") {
    Light l;
    l.kind = Light::Kind::Spot;
    l.origin = v(0, 0, 100);
    l.direction = v(0, 0, -1);
    l.intensity = 1;
    l.falloff = Light::Falloff::Quadratic;
    l.constant = 1, l.linear = 0, l.quadratic = 0;
    l.spotCosInner = std::cos(degToRad(30)), l.spotCosOuter = std::cos(degToRad(45)), l.spotExponent = 1;
    auto at = [&](float degrees) {  // a floor point seen `degrees` off the axis
        return sourceLightArrival(l, v(100 * std::tan(degToRad(degrees)), 0, 0), v(0, 0, 1)).color.x;
    };
    CHECK(at(0) == Approx(1));  // cone cosine 1, receiver cosine 1
    CHECK(at(20) == Approx(std::pow(std::cos(degToRad(20)), 2)));  // inside the inner cone: k x cos
    CHECK(at(30) == Approx(0.75).epsilon(1e-4));  // inner edge: cos 30 x cos 30
    const double k44 = std::cos(44 * 3.14159265358979 / 180), inner = std::cos(30 * 3.14159265358979 / 180),
                 outer = std::cos(45 * 3.14159265358979 / 180), m = (k44 - outer) / (inner - outer);
    CHECK(at(44) == Approx(k44 * k44 * m).epsilon(1e-3));  // in the penumbra: k x m x cos = 0.03983
    CHECK(at(45.5f) == 0.0f);                                 // past the outer edge
    l.spotExponent = 2;
    CHECK(at(44) == Approx(k44 * k44 * m * m).epsilon(1e-3));  // 0.003066
    l.spotExponent = 0;                                        // 0 and 1 mean no power
    CHECK(at(44) == Approx(k44 * k44 * m).epsilon(1e-3));
}

TEST_CASE("srclights: a surface light's two cosines", "[srclights]") {
    Light l;
    l.kind = Light::Kind::Area;
    l.origin = v(0, 0, 100);
    l.normal = v(0, 0, -1);
    l.intensity = 1000;
    // Floor point 100 units aside: d^2 = 20000, both cosines 1/sqrt 2: 1000 x 0.5 / 20000.
    CHECK(sourceLightArrival(l, v(100, 0, 0), v(0, 0, 1)).color.x == Approx(0.025));
    // A cube point (zero normal): the emitter cosine only, 1000 x 0.7071 / 20000.
    CHECK(sourceLightArrival(l, v(100, 0, 0), v(0, 0, 0)).color.x == Approx(1000 * std::sqrt(0.5) / 20000));
    // Behind the emitter: nothing; grazing the emitter (cosine <= 0.01): nothing in cubes.
    CHECK_FALSE(sourceLightArrival(l, v(0, 0, 200), v(0, 0, -1)).reaches());
    CHECK_FALSE(sourceLightArrival(l, v(1000, 0, 99), v(0, 0, 0)).reaches());
    // A radius cuts cube points only (vrad's lightmaps never read it).
    l.radius = 50;
    CHECK_FALSE(sourceLightArrival(l, v(100, 0, 0), v(0, 0, 0)).reaches());
    CHECK(sourceLightArrival(l, v(100, 0, 0), v(0, 0, 1)).reaches());
}

TEST_CASE("srclights: the sun", "[srclights]") {
    Light sun;
    sun.kind = Light::Kind::Sun;
    sun.direction = v(0.6f, 0, -0.8f);
    sun.intensity = 2;
    LightArrival a = sourceLightArrival(sun, v(0, 0, 0), v(0, 0, 1));
    CHECK(a.color.x == Approx(1.6));
    checkNear(a.toLight, v(-0.6f, 0, 0.8f));
    CHECK(std::isinf(a.distance));
    CHECK_FALSE(sourceLightArrival(sun, v(0, 0, 0), v(1, 0, 0)).reaches());  // the wall it shines past

    // A sky light is a hemisphere: it must be expanded into its dome suns (sky_dome_test.cpp).
    Light sky;
    sky.kind = Light::Kind::Sky;
    sky.intensity = 1;
    CHECK_FALSE(sourceLightArrival(sky, v(0, 0, 0), v(0, 0, 1)).reaches());
}

TEST_CASE("srclights: ambient cube sums of known arrivals", "[srclights]") {
    LightArrival up, diagonal;
    up.color = v(1, 0, 0), up.toLight = v(0, 0, 1);
    diagonal.color = v(0, 2, 0), diagonal.toLight = normalize(v(1, -1, 0));
    const AmbientCube cube = sourceAmbientCube({up, diagonal});
    const float s = 2 * std::sqrt(0.5f);
    checkNear(cube[0], v(0, s, 0));  // +X
    checkNear(cube[1], v(0, 0, 0));  // -X
    checkNear(cube[2], v(0, 0, 0));  // +Y
    checkNear(cube[3], v(0, s, 0));  // -Y
    checkNear(cube[4], v(1, 0, 0));  // +Z
    checkNear(cube[5], v(0, 0, 0));  // -Z
    // An open sky dome fills every side with intensity x colour, as vrad's normalised sums do.
    Light sky;
    sky.kind = Light::Kind::Sky;
    sky.intensity = 0.5f;
    std::vector<LightArrival> arrivals;
    for (const Light& s2 : skyDomeSuns(sky)) arrivals.push_back(sourceLightArrival(s2, v(0, 0, 0), v(0, 0, 0)));
    for (const Vec3& side : sourceAmbientCube(arrivals)) checkNear(side, v(0.5f, 0.5f, 0.5f));
}
