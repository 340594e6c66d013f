// The vector shading loops against the portable ones on textured scenes made to reach every branch of the
// vector code: mip levels mixed within a group, wrapped texels, styles, details, blend textures, and short
// runs that the vector path shades a triangle at a time across rows.
#include <catch2/catch.hpp>

#include <cstring>

#include "luxel/render/raster.hpp"
#include "luxel/render/render.hpp"
#include "support/render_fixtures.hpp"

using namespace luxel;
using namespace luxel::test;

TEST_CASE("the vector and portable textured loops give the same bits", "[textured]") {
    RenderScene s;
    // An oblique lightmapped floor and a vertex-lit wall, both textured with noise, seen at a slant so runs
    // cross several mip levels and texels wrap.
    const int32_t page = addLightmapPage(s, 16, 16, [](int x, int y) {
        return Vec3{0.1f + 0.13f * float(x % 7), 0.2f + 0.05f * float(y % 5), 1.7f + 0.01f * float(x * y % 11)};
    });
    s.world.materials.resize(2);
    std::vector<FixtureVertex> floor{{{0, -300, -40}, {1, 1, 1, 1}, {0, 0}, {0, 0}},
                                     {{900, -300, -40}, {1, 1, 1, 1}, {1, 0}, {9, 0}},
                                     {{900, 300, -40}, {1, 1, 1, 0.2f}, {1, 1}, {9, 6}},
                                     {{0, 300, -40}, {1, 1, 1, 1}, {0, 1}, {0, 6}}};
    addPolygon(s, floor, {0, 0, 1}, SurfaceShading::Lightmap, page, false, 0);
    // The floor's y > 0 half again, styled: two light style slots summed with weights.
    for (auto& f : floor) f.position.y = std::max(f.position.y, 0.0f), f.position.z += 0.5f;
    const uint32_t styled = addPolygon(s, floor, {0, 0, 1}, SurfaceShading::Lightmap, page, false, 0);
    s.world.surfaces[styled].styles = {0, 3, 255, 255};
    LightmapPage second = s.world.lightmaps[size_t(page)];
    for (float& c : second.rgb) c = 2.0f - c * 0.5f;
    s.world.extraLightmapSlots[0].push_back(second);
    addTexturedWall(s, 400, 1, {0.3f, 2.5f, 0.9f});
    const RgbaImage noise = noiseImage(64, 64, 12345);
    MaterialSet m;
    m.textures.push_back(std::make_shared<const Texture>(makeTexture("noise", noise)));
    m.looks.resize(2);
    m.looks[0].texture = m.looks[1].texture = 0;
    m.looks[1].tcScale = {3.0f, 2.0f};
    const Camera cam = makeCamera({0, 0, 0}, {10, 15, 0}, 160, 96);
    // With and without Quake 3 detail textures (two of them on the floor, at their own scales) and a second
    // texture blended in by vertex alpha at its own scale and colour factor.
    RgbaImage grain = noise;
    for (size_t i = 0; i < grain.rgba.size(); ++i) grain.rgba[i] = uint8_t(96 + grain.rgba[i] / 4);
    m.textures.push_back(std::make_shared<const Texture>(makeTexture("grain", grain)));
    for (bool details : {false, true})
    for (float gamma : {1.0f, 2.2f})
        for (Look look : {Look::Engine, Look::Linear}) {
            if (details) {
                m.looks[0].detail = {1, 1};
                m.looks[0].detailScale = {Vec2{4, 4}, Vec2{0.5f, 3}};
                m.looks[0].texture2 = 1;
                m.looks[0].texture2TcScale = {7, 2};
                m.looks[0].texture2IdentityLighting = true;
            }
            m.textureGamma = gamma;
            s.world.look = {2.0f, gamma};
            RenderOptions o = materialOptions(RenderMode::Lit, m);
            o.look = look;
            StyleWeights weights{};
            weights[0] = 1.0f, weights[3] = 0.75f;
            o.styleWeights = weights;
            const BothPaths both = renderBothPaths(s, cam, o);
            const Image &vec = both.vec, &portable = both.portable;
            REQUIRE(vec.pixels.size() == portable.pixels.size());
            for (size_t i = 0; i < vec.pixels.size(); ++i)
                if (vec.pixels[i] != portable.pixels[i]) {
                    FAIL_CHECK("gamma " << gamma << " look " << int(look) << " pixel " << i / 3 % 160 << "," << i / 3 / 160
                                        << " channel " << i % 3 << ": " << vec.pixels[i] << " vs " << portable.pixels[i]);
                    break;
                }
            CHECK(std::memcmp(vec.pixels.data(), portable.pixels.data(), vec.pixels.size() * sizeof(float)) == 0);
            // The styled floor is in view: its second slot changes pixels.
            weights[3] = 0.0f;
            o.styleWeights = weights;
            const Image unstyled = renderScene(s, cam, o);
            size_t changed = 0;
            for (size_t i = 0; i < vec.pixels.size(); ++i) changed += unstyled.pixels[i] != vec.pixels[i];
            CHECK(changed > vec.pixels.size() / 20);
        }
}

TEST_CASE("short runs of thin triangles, shaded a triangle at a time across rows, give the portable loop's bits",
          "[textured]") {
    // A lightmapped floor and a vertex-lit wall cut into strips two or three pixels wide on screen, alternating
    // between two textures: every row crosses each strip in a short run, so the vector path shades each
    // strip's pixels from many rows together (and the run bodies of 8 and more on their own).
    RenderScene s;
    const int32_t page = addLightmapPage(s, 16, 16, [](int x, int y) {
        return Vec3{0.2f + 0.1f * float(x % 5), 0.3f + 0.07f * float(y % 3), 1.9f - 0.02f * float(x * y % 13)};
    });
    s.world.materials.resize(2);
    constexpr int kStrips = 60;
    for (int k = 0; k < kStrips; ++k) {
        const float y0 = -600.0f + 1200.0f * float(k) / kStrips, y1 = -600.0f + 1200.0f * float(k + 1) / kStrips;
        const float v0 = float(k) / kStrips * 8, v1 = float(k + 1) / kStrips * 8;
        std::vector<FixtureVertex> floor{{{0, y0, -40}, {1, 1, 1, 1}, {0, v0 / 8}, {0, v0}},
                                         {{900, y0, -40}, {1, 1, 1, 1}, {1, v0 / 8}, {9, v0}},
                                         {{900, y1, -40}, {1, 1, 1, 1}, {1, v1 / 8}, {9, v1}},
                                         {{0, y1, -40}, {1, 1, 1, 1}, {0, v1 / 8}, {0, v1}}};
        addPolygon(s, floor, {0, 0, 1}, SurfaceShading::Lightmap, page, false, k % 2);
        const Vec4 c{0.4f + 0.01f * float(k), 1.5f, 0.8f, 1};
        std::vector<FixtureVertex> wall{{{400, -y0, 300}, c, {}, {v0, 0}},
                                        {{400, -y1, 300}, c, {}, {v1, 0}},
                                        {{400, -y1, -40}, c, {}, {v1, 3}},
                                        {{400, -y0, -40}, c, {}, {v0, 3}}};
        addPolygon(s, wall, {-1, 0, 0}, SurfaceShading::Vertex, -1, false, (k + 1) % 2);
    }
    MaterialSet m;
    for (uint32_t seed : {12345u, 777u}) m.textures.push_back(std::make_shared<const Texture>(makeTexture("noise", noiseImage(32, 32, seed))));
    m.looks.resize(2);
    m.looks[0].texture = 0, m.looks[1].texture = 1;
    const Camera cam = makeCamera({0, 0, 0}, {10, 5, 0}, 160, 96);
    for (Look look : {Look::Engine, Look::Linear}) {
        s.world.look = {2.0f, 1.0f};
        RenderOptions o = materialOptions(RenderMode::Lit, m);
        o.look = look;
        const BothPaths both = renderBothPaths(s, cam, o);
            const Image &vec = both.vec, &portable = both.portable;
        REQUIRE(vec.pixels.size() == portable.pixels.size());
        CHECK(std::memcmp(vec.pixels.data(), portable.pixels.data(), vec.pixels.size() * sizeof(float)) == 0);
        // The strips are in view and differ from each other: most of the picture is not one colour.
        size_t distinct = 0;
        for (size_t i = 3; i < vec.pixels.size(); i += 3) distinct += vec.pixels[i] != vec.pixels[i - 3];
        CHECK(distinct > vec.pixels.size() / 3 / 2);
    }
}
