#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <set>

#include "luxel/light/lightmap_sample.hpp"
#include "luxel/render/shade.hpp"

using namespace luxel;
using namespace luxel::render;

TEST_CASE("shade: the renderer's lightmap lookup is bit-identical to sampleLightmap", "[render]") {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> texel(0.0f, 4.0f), uv(-0.3f, 1.3f);
    for (auto [w, h] : {std::pair{1, 1}, {3, 5}, {128, 128}, {7, 2}}) {
        LightmapPage page;
        page.width = w;
        page.height = h;
        page.rgb.resize(size_t(w) * h * 3);
        for (float& f : page.rgb) f = texel(rng);
        std::vector<Vec2> uvs = {{0, 0}, {1, 1}, {0.5f, 0.5f}, {-1, 2}, {std::nanf(""), 0.5f},
                                 {0.5f, std::numeric_limits<float>::infinity()}, {-0.0f, -0.0f}};
        for (int i = 0; i < 5000; ++i) uvs.push_back({uv(rng), uv(rng)});
        for (Vec2 p : uvs) {
            Vec3 a = sampleLightmap(page, p), b = sampleLightmapFast(page, p);
            INFO("page " << w << "x" << h << " uv " << p.x << "," << p.y);
            REQUIRE(std::memcmp(&a, &b, sizeof(Vec3)) == 0);
        }
    }
}

TEST_CASE("shade: engine look keeps hue above the clamp, clamps, then applies gamma", "[render]") {
    EngineLook q3;
    q3.hueClampAt = 2;
    q3.gamma = 1;
    Vec3 c = applyLook({4, 2, 1}, {1, 1, 1}, Look::Engine, q3);  // max 4 > 2: scaled by 1/2 -> (2,1,0.5)
    REQUIRE(c.x == 1.0f);
    REQUIRE(c.y == 1.0f);
    REQUIRE(c.z == Approx(0.5f));
    c = applyLook({1.5f, 0.5f, 0.25f}, {0.5f, 1, 1}, Look::Engine, q3);  // below the clamp: unchanged
    REQUIRE(c.x == Approx(0.75f));
    REQUIRE(c.y == Approx(0.5f));
    REQUIRE(c.z == Approx(0.25f));
    EngineLook g;
    g.gamma = 2;
    c = applyLook({0.25f, -1, 9}, {1, 1, 1}, Look::Engine, g);
    REQUIRE(c.x == Approx(0.5f));  // 0.25^(1/2)
    REQUIRE(c.y == 0.0f);
    REQUIRE(c.z == 1.0f);
    c = applyLook({4, 2, 1}, {0.5f, 0.5f, 0.5f}, Look::Linear, q3);
    REQUIRE(c == Vec3{2, 1, 0.5f});
    c = applyLook({std::nanf(""), 0.5f, 0.5f}, {1, 1, 1}, Look::Engine, EngineLook{});
    REQUIRE(c.x == 0.0f);
}

TEST_CASE("shade: cluster colours are distinct, not grey and not black; -1 is grey", "[render]") {
    REQUIRE(clusterColor(-1) == Vec3{0.5f, 0.5f, 0.5f});
    std::set<std::tuple<float, float, float>> seen;
    for (int i = 0; i < 500; ++i) {
        Vec3 c = clusterColor(i);
        REQUIRE(c.x + c.y + c.z > 0.45f);
        REQUIRE(clusterColor(i) == c);  // stable
        seen.insert({c.x, c.y, c.z});
    }
    REQUIRE(seen.size() == 500);
}

TEST_CASE("shade: depth ramp is 1 at the nearest, 0.1 at the farthest, monotone between", "[render]") {
    REQUIRE(depthGrey(10, 10, 1000) == Approx(1.0f));
    REQUIRE(depthGrey(1000, 10, 1000) == Approx(0.1f));
    REQUIRE(depthGrey(100, 10, 1000) == Approx(0.55f));  // log scale: halfway
    REQUIRE(depthGrey(50, 50, 50) == 1.0f);             // a flat frame
}

TEST_CASE("shade: the gamma table follows pow within 3e-7 relative, 0 -> 0 and 1 -> 1 exactly", "[render]") {
    for (float gamma : {1.2f, 2.2f, 2.0f, 0.5f, 0.8f}) {
        const GammaTable t = makeGammaTable(gamma);
        REQUIRE(t.valid);
        REQUIRE(applyGamma(0.0f, t) == 0.0f);
        REQUIRE(applyGamma(1.0f, t) == 1.0f);
        std::mt19937 rng(3);
        std::uniform_real_distribution<float> unit(0.0f, 1.0f), logv(-30.0f, 0.0f);
        double worst = 0;
        for (int i = 0; i < 200000; ++i) {
            const float v = i % 2 ? unit(rng) : std::exp2(logv(rng));  // uniform and across exponents
            const double want = std::pow(double(v), 1.0 / double(gamma));
            worst = std::max(worst, std::fabs(double(applyGamma(v, t)) - want) / want);
        }
        INFO("gamma " << gamma);
        REQUIRE(worst < 3e-7);
    }
    REQUIRE_FALSE(makeGammaTable(0.1f).valid);  // 1/gamma = 10: outside the table's range, pow is used
    REQUIRE_FALSE(makeGammaTable(0.0f).valid);
    REQUIRE_FALSE(makeGammaTable(std::nanf("")).valid);
    // The engine look through applyLook uses the table: sqrt(0.5) for gamma 2 to within the table's error.
    EngineLook g;
    g.gamma = 2;
    REQUIRE(applyLook({0.5f, 0.5f, 0.5f}, {1, 1, 1}, Look::Engine, g).x == Approx(std::sqrt(0.5f)).epsilon(1e-6));
}
