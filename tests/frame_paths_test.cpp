// The AVX2 and portable shading paths give the same bytes in every mode, look and style mix, and lightmap
// frames are the same bytes at 1, 2 and 8 threads.
#include <catch2/catch.hpp>
#include <tbb/global_control.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "luxel/util/cpu.hpp"
#include "luxel/light/styles.hpp"
#include "luxel/render/render.hpp"
#include "luxel/render/raster.hpp"
#include "support/render_fixtures.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;
TEST_CASE("render: AVX2 and portable shading give the same bytes in every mode, look and style mix", "[render]") {
    // Random walls with lightmap pages of several shapes (1 texel wide included), uv beyond the page (edge
    // clamping, the last column), light above the hue clamp, a few NaN and infinite texels, style slots 1..3,
    // vertex-lit surfaces, a sky surface and a flare.
    RenderScene s;
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> texel(0.0f, 3.0f), unit(0.0f, 1.0f), pos(-300, 300);
    const std::pair<int, int> shapes[] = {{16, 16}, {1, 9}, {7, 1}, {128, 128}, {2, 2}};
    for (auto [w, h] : shapes) {
        auto fill = [&](int x, int y) {
            if ((x * 7 + y * 3) % 97 == 5) return Vec3{std::nanf(""), 1.0f, std::numeric_limits<float>::infinity()};
            return Vec3{texel(rng), texel(rng), texel(rng)};
        };
        addLightmapPage(s, w, h, fill);
        for (auto& slot : s.world.extraLightmapSlots) {
            LightmapPage p;
            p.width = w;
            p.height = h;
            for (int i = 0; i < w * h * 3; ++i) p.rgb.push_back(texel(rng));
            slot.push_back(p);
        }
    }
    s.world.materials.push_back({"m", 0, 0, 0, {0.5f, 0.8f, 1.0f}});
    for (int i = 0; i < 150; ++i) {
        const Vec3 c{pos(rng) * 0.5f + 400, pos(rng), pos(rng) * 0.6f};
        std::vector<FixtureVertex> v;
        for (int k = 0; k < 3; ++k)
            v.push_back({c + Vec3{pos(rng) * 0.1f, pos(rng) * 0.4f, pos(rng) * 0.4f},
                         {unit(rng) * 2, unit(rng) * 2, unit(rng) * 2, 1},
                         {unit(rng) * 1.6f - 0.3f, unit(rng) * 1.6f - 0.3f}});
        const bool lit = i % 4 != 3;
        const uint32_t surf = addPolygon(s, v, {-1, 0, 0}, lit ? SurfaceShading::Lightmap : SurfaceShading::Vertex,
                                         lit ? int32_t(i % std::size(shapes)) : -1, true, i % 3 == 0 ? 0 : -1);
        if (i % 5 == 1) s.world.surfaces[surf].styles = {0, 3, 255, 255};
        if (i % 5 == 2) s.world.surfaces[surf].styles = {7, 3, 9, 255};
        if (i % 7 == 0) s.world.surfaces[surf].styles = {0, 3, 7, 9};
    }
    const uint32_t sky = addColoredPolygon(s, {{900, -2000, 400}, {900, 2000, 400}, {900, 2000, 900}, {900, -2000, 900}},
                                           {-1, 0, 0}, {1, 1, 1}, true);
    s.geometry.surfaces[sky].shading = SurfaceShading::Sky;
    addBillboard(s, {300, 20, 10}, {0.9f, 3.0f, 0.2f}, 40);
    const Camera cam = makeCamera({0, 0, 0}, {0, 0, 0}, 203, 117, 100);
    StyleWeights weights{};
    weights[0] = 1.0f, weights[3] = 0.5f, weights[7] = 1.25f, weights[9] = 0.0f;

    struct LookCase {
        Look look;
        float hueClampAt, gamma;
        bool perChannel = false;  // Half-Life's clamp
    };
    const LookCase looks[] = {{Look::Engine, 2, 1},      {Look::Engine, 0, 2.2f},       {Look::Engine, 2, 1.2f},
                              {Look::Linear, 0, 1},      {Look::Engine, 1, 1, true},    {Look::Engine, 1.5f, 1.2f, true}};
    const bool hadAvx2 = useAvx2();
    INFO("AVX2 available: " << hadAvx2);
    size_t compared = 0;
    for (RenderMode mode : {RenderMode::Lightmap, RenderMode::Lit, RenderMode::Vertex})
        for (const LookCase& lc : looks)
            for (int spp : {1, 2}) {
                s.world.look.hueClampAt = lc.hueClampAt;
                s.world.look.gamma = lc.gamma;
                s.world.look.clampPerChannel = lc.perChannel;
                RenderOptions o;
                o.mode = mode;
                o.look = lc.look;
                o.spp = spp;
                o.styleWeights = weights;
                allowAvx2(false);
                const Image portable = renderScene(s, cam, o);
                allowAvx2(true);
                FrameStats st;
                const Image fast = renderScene(s, cam, o, &st);
                INFO("mode " << renderModeName(mode) << " look " << int(lc.look) << " gamma " << lc.gamma << " per channel "
                             << lc.perChannel << " spp " << spp);
                REQUIRE(st.pixelsCovered > size_t(cam.width) * cam.height / 2);
                size_t finite = 0;
                for (float f : fast.pixels) finite += std::isfinite(f);
                REQUIRE(finite > fast.pixels.size() / 2);
                for (size_t i = 0; i < fast.pixels.size(); ++i) {
                    const float a = portable.pixels[i], b = fast.pixels[i];
                    if (std::isnan(a) && std::isnan(b)) continue;  // NaN light in the linear look
                    if (std::memcmp(&a, &b, sizeof(float)) != 0) {
                        INFO("float " << i << " (pixel " << (i / 3) % size_t(cam.width) << "," << (i / 3) / size_t(cam.width)
                                      << "): " << a << " vs " << b);
                        REQUIRE(false);
                    }
                }
                ++compared;
            }
    REQUIRE(compared == 36);
}

TEST_CASE("render: lightmap frames are the same bytes for 1, 2 and 8 threads", "[render]") {
    RenderScene s;
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> texel(0.0f, 3.0f), unit(0.0f, 1.0f), pos(-300, 300);
    for (int p = 0; p < 3; ++p) addLightmapPage(s, 32, 32, [&](int, int) { return Vec3{texel(rng), texel(rng), texel(rng)}; });
    for (int i = 0; i < 300; ++i) {
        const Vec3 c{pos(rng) + 400, pos(rng), pos(rng)};
        std::vector<FixtureVertex> v;
        for (int k = 0; k < 3; ++k)
            v.push_back({c + Vec3{pos(rng) * 0.3f, pos(rng) * 0.3f, pos(rng) * 0.3f}, {1, 1, 1, 1}, {unit(rng), unit(rng)}});
        addPolygon(s, v, {-1, 0, 0}, SurfaceShading::Lightmap, i % 3, true);
    }
    s.world.look.hueClampAt = 2;
    const Camera cam = makeCamera({0, 0, 0}, {0, 0, 0}, 333, 190);
    tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 8);
    RenderOptions o;
    o.mode = RenderMode::Lightmap;
    requireSameBytesAtThreadCounts(s, cam, o);
}
