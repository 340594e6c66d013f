// Sky lights as geodesic domes of suns (light/sky_dome.cpp): the directions, their normalisation, and how
// close an open dome comes to vrad's exact hemisphere.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>

#include "luxel/light/sky_dome.hpp"
#include "luxel/light/source_lights.hpp"
#include "support/vec_checks.hpp"

using namespace luxel;

namespace {

Vec3 v(float x, float y, float z) { return {x, y, z}; }

void checkNear(Vec3 a, Vec3 b, float eps = 1e-5f) { test::checkNearRelative(a, b, eps); }

}  // namespace

TEST_CASE("srclights: geodesic directions are Quake's 162 anorms", "[srclights]") {
    const std::vector<Vec3> dirs = geodesicDirections(4);
    REQUIRE(dirs.size() == 162);
    for (size_t i = 0; i < dirs.size(); ++i) {
        CHECK(length(dirs[i]) == Approx(1));
        for (size_t j = 0; j < i; ++j) CHECK(length(dirs[i] - dirs[j]) > 0.1f);
    }
    CHECK(geodesicDirections(1).size() == 12);
    double sums[6] = {};
    const Vec3 axes[6] = {v(1, 0, 0), v(-1, 0, 0), v(0, 1, 0), v(0, -1, 0), v(0, 0, 1), v(0, 0, -1)};
    for (Vec3 d : dirs)
        for (int i = 0; i < 6; ++i) sums[i] += std::max(0.0f, dot(d, axes[i]));
    for (int i = 0; i < 6; ++i) CHECK(sums[i] == Approx(sums[4]));
    // vrad's NORMALFORMFACTOR, the same sum over Quake's 162 anorms, is 40.156979: these are those directions.
    CHECK(sums[4] == Approx(40.156979).epsilon(1e-6));
}

TEST_CASE("srclights: a sky light's dome of suns", "[srclights]") {
    Light sun;
    sun.kind = Light::Kind::Sun;
    sun.direction = v(0.6f, 0, -0.8f);
    sun.intensity = 2;
    Light sky;
    sky.kind = Light::Kind::Sky;
    sky.intensity = 0.4f;
    sky.color = v(0.5f, 0.75f, 1);
    sky.inProbes = true;
    const std::vector<Light> suns = expandSkyLights({sun, sky});
    REQUIRE(suns.size() == 163);
    CHECK(suns[0].intensity == 2.0f);
    CHECK(suns[1].kind == Light::Kind::Sun);
    CHECK(suns[1].inProbes);
    const std::vector<Vec3> dirs = geodesicDirections(kSkyDomeFrequency);
    for (size_t i = 0; i < dirs.size(); ++i) CHECK(suns[1 + i].direction == -dirs[i]);  // coming from each direction
    CHECK(skyDomeSuns(sun).empty());
    // An open sky over an axis-facing surface gives exactly intensity x colour; other normals come close.
    auto total = [&](Vec3 n) {
        Vec3 sum;
        for (size_t i = 1; i < suns.size(); ++i) sum += sourceLightArrival(suns[i], v(0, 0, 0), n).color;
        return sum;
    };
    checkNear(total(v(0, 0, 1)), v(0.2f, 0.3f, 0.4f));
    checkNear(total(v(-1, 0, 0)), v(0.2f, 0.3f, 0.4f));
    float worst = 0;
    std::mt19937 rng(7);
    std::normal_distribution<float> g;
    for (int i = 0; i < 2000; ++i) {
        const Vec3 n = normalize(v(g(rng), g(rng), g(rng)));
        worst = std::max(worst, std::fabs(total(n).z / 0.4f - 1));
    }
    INFO("largest deviation from an exact hemisphere: " << worst * 100 << "%");
    CHECK(worst < 0.016f);  // 1.49% measured
}
