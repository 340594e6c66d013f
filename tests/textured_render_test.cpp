// Textured rendering with hand-made textures whose texels are known: exact colours at texel centres,
// mip-mapping, alpha test, blending, sky boxes and the grey of a missing texture.
#include <catch2/catch.hpp>
#include <tbb/task_arena.h>

#include <cstring>

#include "luxel/render/raster.hpp"
#include "luxel/render/render.hpp"
#include "support/render_fixtures.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

RgbaImage image2x2(std::array<std::array<uint8_t, 4>, 4> texels) {
    RgbaImage img;
    img.width = img.height = 2;
    for (const auto& t : texels) img.rgba.insert(img.rgba.end(), t.begin(), t.end());
    return img;
}

const std::array<std::array<uint8_t, 4>, 4> kTexels{{{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {51, 102, 153, 255}}};

}  // namespace

TEST_CASE("a 2x2 texture gives its exact texels at texel centres, times the vertex light", "[textured]") {
    RenderScene s;
    addTexturedWall(s, 100, 0, {0.5f, 1.0f, 2.0f});
    MaterialSet m;
    m.textures.push_back(std::make_shared<const Texture>(makeTexture("t", image2x2(kTexels))));
    m.looks.push_back(SurfaceLook{});
    m.looks[0].texture = 0;
    const Camera cam = makeCamera({0, 0, 0}, {0, 0, 0}, 2, 2);  // pixel centres land on texel centres
    const Image albedo = renderScene(s, cam, materialOptions(RenderMode::Albedo, m));
    for (int i = 0; i < 4; ++i) {
        const Vec3 got = pixelAt(albedo, i % 2, i / 2);
        INFO("texel " << i);
        CHECK(got.x == Approx(kTexels[size_t(i)][0] / 255.0).margin(1e-5));
        CHECK(got.y == Approx(kTexels[size_t(i)][1] / 255.0).margin(1e-5));
        CHECK(got.z == Approx(kTexels[size_t(i)][2] / 255.0).margin(1e-5));
    }
    const Image lit = renderScene(s, cam, materialOptions(RenderMode::Lit, m));
    const Vec3 c = pixelAt(lit, 1, 1);  // (51, 102, 153) lit by (0.5, 1, 2)
    CHECK(c.x == Approx(0.5 * 51 / 255.0).margin(1e-5));
    CHECK(c.y == Approx(1.0 * 102 / 255.0).margin(1e-5));
    CHECK(c.z == Approx(2.0 * 153 / 255.0).margin(1e-5));

    SECTION("Source textures are display-encoded: gamma 2.2 to linear albedo") {
        m.textureGamma = 2.2f;
        const Image g = renderScene(s, cam, materialOptions(RenderMode::Albedo, m));
        CHECK(pixelAt(g, 1, 1).x == Approx(std::pow(51 / 255.0, 2.2)).margin(1e-5));
    }
}

TEST_CASE("a texture seen small is sampled from its mip chain, not aliased", "[textured]") {
    RenderScene s;
    addTexturedWall(s, 100, 0);
    RgbaImage checker;
    checker.width = checker.height = 64;
    for (int y = 0; y < 64; ++y)
        for (int x = 0; x < 64; ++x) {
            const uint8_t v = (x + y) % 2 ? 255 : 0;
            checker.rgba.insert(checker.rgba.end(), {v, v, v, 255});
        }
    MaterialSet m;
    m.textures.push_back(std::make_shared<const Texture>(makeTexture("checker", checker)));
    REQUIRE(m.textures[0]->mips.size() == 7);
    m.looks.push_back(SurfaceLook{});
    m.looks[0].texture = 0;
    // 8x8 pixels over 64x64 texels: 8 texels a pixel, level 3, where every texel is the mean grey.
    const Image img = renderScene(s, makeCamera({0, 0, 0}, {0, 0, 0}, 8, 8), materialOptions(RenderMode::Albedo, m));
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) CHECK(pixelAt(img, x, y).x == Approx(127.5 / 255.0).margin(1.0 / 255.0));
}

TEST_CASE("overlapping cut-outs: the nearest kept texel shows, of equally near ones the last drawn", "[textured]") {
    // Three alpha-tested walls: the back one first in the scene, then the front one, then a copy of the front
    // one in another texture. Cut-outs are resolved nearest first but must show what drawing them in scene
    // order leaves.
    RenderScene s;
    addTexturedWall(s, 200, 1);  // back: a solid blue texture
    addTexturedWall(s, 100, 0);  // front: kTexels with the top-right texel transparent
    addTexturedWall(s, 100, 2);  // the same place, drawn after it: holes at the top-left and bottom-right
    MaterialSet m;
    auto front = kTexels;
    front[1][3] = 0;
    auto copy = kTexels;
    for (auto& t : copy) t = {255, 255, 0, 255};  // yellow
    copy[0][3] = 0, copy[3][3] = 0;
    const std::array<std::array<uint8_t, 4>, 4> blue{{{0, 0, 255, 255}, {0, 0, 255, 255}, {0, 0, 255, 255}, {0, 0, 255, 255}}};
    for (const auto& t : {front, blue, copy})
        m.textures.push_back(std::make_shared<const Texture>(makeTexture("t", image2x2(t))));
    m.looks.resize(3);
    for (int i = 0; i < 3; ++i) {
        m.looks[size_t(i)].texture = i;
        m.looks[size_t(i)].blend = BlendMode::AlphaTest;
        m.looks[size_t(i)].alphaRef = 0.5f;
    }
    const Image img = renderScene(s, makeCamera({0, 0, 0}, {0, 0, 0}, 2, 2), materialOptions(RenderMode::Lit, m));
    CHECK(pixelAt(img, 0, 0) == Vec3{1, 0, 0});  // the copy's hole: the front wall's red
    CHECK(pixelAt(img, 1, 0) == Vec3{1, 1, 0});  // both kept at the same depth: the later copy
    CHECK(pixelAt(img, 0, 1) == Vec3{1, 1, 0});
    CHECK(pixelAt(img, 1, 1).x == Approx(51 / 255.0f));  // the copy's hole: the front wall's texel
    // Holes in both front walls at one texel: the back wall.
    m.textures[0] = std::make_shared<const Texture>(makeTexture("t", image2x2([&] {
                                                        auto t = front;
                                                        t[0][3] = 0;
                                                        return t;
                                                    }())));
    CHECK(pixelAt(renderScene(s, makeCamera({0, 0, 0}, {0, 0, 0}, 2, 2), materialOptions(RenderMode::Lit, m)), 0, 0) ==
          Vec3{0, 0, 1});
}

TEST_CASE("alpha test cuts holes at the transparent texels; blending mixes with what is behind", "[textured]") {
    RenderScene s;
    addTexturedWall(s, 100, 0);                  // the textured wall in front
    addTexturedWall(s, 200, 1, {0, 1, 0});       // a green wall behind, untextured
    MaterialSet m;
    auto texels = kTexels;
    texels[1][3] = 0;    // top-right texel transparent
    texels[2][3] = 100;  // bottom-left below the reference
    m.textures.push_back(std::make_shared<const Texture>(makeTexture("cut", image2x2(texels))));
    m.looks.resize(2);
    m.looks[0].texture = 0;
    const Camera cam = makeCamera({0, 0, 0}, {0, 0, 0}, 2, 2);
    SECTION("alpha test") {
        m.looks[0].blend = BlendMode::AlphaTest;
        m.looks[0].alphaRef = 0.5f;
        const Image img = renderScene(s, cam, materialOptions(RenderMode::Lit, m));
        CHECK(pixelAt(img, 0, 0).x == Approx(1.0f));  // kept texel
        CHECK(pixelAt(img, 1, 0).y == Approx(1.0f));  // hole: the green wall
        CHECK(pixelAt(img, 1, 0).x == Approx(0.0f));
        CHECK(pixelAt(img, 0, 1).y == Approx(1.0f));  // alpha 100/255 < 0.5: hole
        CHECK(pixelAt(img, 1, 1).x == Approx(51 / 255.0f));
    }
    SECTION("blend") {
        m.looks[0].blend = BlendMode::Blend;
        const Image img = renderScene(s, cam, materialOptions(RenderMode::Lit, m));
        const float a = 100 / 255.0f;
        CHECK(pixelAt(img, 0, 1).z == Approx(1.0f * a).margin(1e-5));          // blue over green
        CHECK(pixelAt(img, 0, 1).y == Approx(1.0f * (1 - a)).margin(1e-5));
        CHECK(pixelAt(img, 1, 0).y == Approx(1.0f).margin(1e-5));              // alpha 0: green shows
        CHECK(pixelAt(img, 0, 0).x == Approx(1.0f).margin(1e-5));              // opaque texel
    }
    SECTION("additive, with opacity") {
        m.looks[0].blend = BlendMode::Additive;
        m.looks[0].opacity = 0.5f;
        const Image img = renderScene(s, cam, materialOptions(RenderMode::Lit, m));
        CHECK(pixelAt(img, 0, 0).x == Approx(0.5f).margin(1e-5));  // red * 0.5 over green
        CHECK(pixelAt(img, 0, 0).y == Approx(1.0f).margin(1e-5));
    }
    SECTION("overlays give the same bytes at 1 and 3 threads and with 4 samples a pixel") {
        m.looks[0].blend = BlendMode::Blend;
        RenderOptions o = materialOptions(RenderMode::Lit, m);
        o.spp = 4;
        const Camera big = makeCamera({0, 0, 0}, {0, 0, 0}, 96, 64);
        Image one, three;
        tbb::task_arena(1).execute([&] { one = renderScene(s, big, o); });
        tbb::task_arena(3).execute([&] { three = renderScene(s, big, o); });
        REQUIRE(one.pixels.size() == three.pixels.size());
        CHECK(std::memcmp(one.pixels.data(), three.pixels.data(), one.pixels.size() * sizeof(float)) == 0);
        // 4 samples a pixel of a blend still average to a blend (not a sum of blends).
        CHECK(pixelAt(one, 70, 10).y <= 1.0f + 1e-5f);
    }
    SECTION("a frame drawn into the buffer of an earlier frame is the same bytes as a fresh one") {
        m.looks[0].blend = BlendMode::Blend;
        RenderOptions o = materialOptions(RenderMode::Lit, m);
        o.spp = 2;
        const Camera big = makeCamera({0, 0, 0}, {0, 0, 0}, 96, 64), turned = makeCamera({0, 0, 0}, {5, 20, 0}, 96, 64);
        const Image fresh = renderScene(s, turned, o);
        Image reused = renderScene(s, big, o);
        const float* storage = reused.pixels.data();
        renderSceneInto(s, turned, o, reused);
        CHECK(reused.pixels.data() == storage);  // drawn over, not reallocated
        REQUIRE(reused.pixels.size() == fresh.pixels.size());
        CHECK(std::memcmp(reused.pixels.data(), fresh.pixels.data(), fresh.pixels.size() * sizeof(float)) == 0);
        const bool viewsDiffer = fresh.pixels != renderScene(s, big, o).pixels;  // so the check means something
        CHECK(viewsDiffer);
        // Another size replaces the storage.
        renderSceneInto(s, makeCamera({0, 0, 0}, {5, 20, 0}, 32, 16), o, reused);
        CHECK(reused.width == 32);
        CHECK(reused.pixels.size() == 32 * 16 * 3);
    }
}

TEST_CASE("a missing texture is neutral grey; hidden materials are not drawn", "[textured]") {
    RenderScene s;
    addTexturedWall(s, 100, 0, {0.5f, 0.5f, 0.5f});
    addTexturedWall(s, 50, 1);  // nearer, hidden
    MaterialSet m;
    m.looks.resize(2);
    m.looks[0].missing = true;
    m.looks[1].hidden = true;
    const Image img = renderScene(s, makeCamera({0, 0, 0}, {0, 0, 0}, 4, 4), materialOptions(RenderMode::Lit, m));
    CHECK(pixelAt(img, 1, 1).x == Approx(0.25f));  // grey 0.5 times light 0.5
}

TEST_CASE("sky surfaces show the sky box face the view direction points at", "[textured]") {
    MaterialSet m;
    m.skies.resize(1);
    const std::array<std::array<uint8_t, 4>, 6> colours{{{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255},
                                                         {255, 255, 0, 255}, {0, 255, 255, 255}, {255, 0, 255, 255}}};
    for (size_t f = 0; f < 6; ++f) {
        RgbaImage one;
        one.width = one.height = 1;
        one.rgba.assign(colours[f].begin(), colours[f].end());
        m.textures.push_back(std::make_shared<const Texture>(makeTexture("sky", one)));
        m.skies[0].faces[f] = int32_t(f);
    }
    m.looks.resize(1);
    m.looks[0].skyBox = 0;  // the sky cube's material shows sky 0
    // A closed cube of sky around the camera; each view looks at one face. The engines draw cube side i
    // (+X, -X, +Y, -Y, +Z, -Z: tr_sky.c / gl_warp.c st_to_vec) with suffix skytexorder[i] = {0, 2, 1, 3, 4, 5}
    // of rt bk lf ft up dn: rt +X (yaw 0), bk +Y (yaw 90), lf -X (yaw 180), ft -Y (yaw -90), up, dn.
    RenderScene s;
    addSkyCube(s, 100);
    const std::array<Vec3, 6> angles{Vec3{0, 0, 0}, Vec3{0, 90, 0}, Vec3{0, 180, 0},
                                     Vec3{0, -90, 0}, Vec3{-89, 0, 0}, Vec3{89, 0, 0}};
    for (size_t f = 0; f < 6; ++f) {
        const Image img = renderScene(s, makeCamera({0, 0, 0}, angles[f], 16, 16), materialOptions(RenderMode::Lit, m));
        INFO("face " << f);
        const Vec3 c = pixelAt(img, 8, 8);
        CHECK(c.x == Approx(colours[f][0] / 255.0));
        CHECK(c.y == Approx(colours[f][1] / 255.0));
        CHECK(c.z == Approx(colours[f][2] / 255.0));
    }
    // A box turned 90 degrees about +Z (toBox = R(-90): +X -> -Y): looking +X shows ft, looking +Y shows rt,
    // looking -X (-> +Y) shows bk.
    m.skies[0].rotated = true;
    const float quarter[9] = {0, 1, 0, -1, 0, 0, 0, 0, 1};
    std::copy(std::begin(quarter), std::end(quarter), std::begin(m.skies[0].toBox));
    for (const auto& [yaw, face] : {std::pair{0.0f, 3}, std::pair{90.0f, 0}, std::pair{180.0f, 1}}) {
        const Vec3 c = pixelAt(renderScene(s, makeCamera({0, 0, 0}, {0, yaw, 0}, 16, 16), materialOptions(RenderMode::Lit, m)), 8, 8);
        INFO("yaw " << yaw);
        CHECK(c.x == Approx(colours[size_t(face)][0] / 255.0));
        CHECK(c.y == Approx(colours[size_t(face)][1] / 255.0));
        CHECK(c.z == Approx(colours[size_t(face)][2] / 255.0));
    }
    m.skies[0].rotated = false;
    // Sky images are clamped at their edges, as the engines load them: a face whose left half is red and
    // right half blue shows pure red and pure blue at the frame's edges (wrapping would mix the two there).
    RgbaImage halves;
    halves.width = halves.height = 2;
    for (int y = 0; y < 2; ++y)
        for (std::array<uint8_t, 4> t : {std::array<uint8_t, 4>{255, 0, 0, 255}, std::array<uint8_t, 4>{0, 0, 255, 255}})
            halves.rgba.insert(halves.rgba.end(), t.begin(), t.end());
    m.textures[0] = std::make_shared<const Texture>(makeTexture("halves", halves));
    const Image img = renderScene(s, makeCamera({0, 0, 0}, {0, 0, 0}, 64, 64), materialOptions(RenderMode::Lit, m));
    for (int y : {0, 32, 63}) {
        INFO("row " << y);
        CHECK(pixelAt(img, 0, y).x == Approx(1.0f).margin(1e-6));
        CHECK(pixelAt(img, 0, y).z == Approx(0.0f).margin(1e-6));
        CHECK(pixelAt(img, 63, y).z == Approx(1.0f).margin(1e-6));
        CHECK(pixelAt(img, 63, y).x == Approx(0.0f).margin(1e-6));
    }
    CHECK(pixelAt(img, 32, 32).x == Approx(pixelAt(img, 31, 32).z).margin(0.05));  // the middle is a mix

    // The vector sky loop gives the portable loop's bits: noisy faces (one not a power of two, one
    // missing: sky colour), views across face edges and corners, each look.
    for (size_t f = 0; f < 6; ++f)
        m.textures[f] = std::make_shared<const Texture>(makeTexture("noise", noiseImage(f == 3 ? 12 : 16, 8, 77 + uint32_t(f))));
    m.skies[0].faces[5] = -1;
    for (bool rotated : {false, true})
    for (Vec3 angles : {Vec3{0, 45, 0}, Vec3{-35, 45, 0}, Vec3{40, -135, 0}, Vec3{-80, 10, 30}, Vec3{70, 100, 0}})
        for (Look look : {Look::Engine, Look::Linear}) {
            m.skies[0].rotated = rotated;  // a box turned about an oblique axis (Quake 2 skyrotate)
            const float turn[9] = {0.36f, 0.48f, -0.8f, -0.8f, 0.6f, 0.0f, 0.48f, 0.64f, 0.6f};
            std::copy(std::begin(turn), std::end(turn), std::begin(m.skies[0].toBox));
            s.world.look = {2.0f, 2.2f};
            RenderOptions o = materialOptions(RenderMode::Lit, m);
            o.look = look;
            const Camera cam = makeCamera({0, 0, 0}, angles, 67, 41, 120);
            const BothPaths both = renderBothPaths(s, cam, o);
            const Image &vec = both.vec, &portable = both.portable;
            INFO("angles " << angles.x << " " << angles.y << " " << angles.z << " look " << int(look));
            REQUIRE(vec.pixels.size() == portable.pixels.size());
            CHECK(std::memcmp(vec.pixels.data(), portable.pixels.data(), vec.pixels.size() * sizeof(float)) == 0);
        }
}

TEST_CASE("a detail texture multiplies the albedo by twice its texel", "[textured]") {
    RenderScene s;
    addTexturedWall(s, 10, 0);
    MaterialSet m;
    m.textures.push_back(std::make_shared<const Texture>(makeTexture("tex", image2x2(kTexels))));
    RgbaImage one;
    one.width = one.height = 1;
    one.rgba = {64, 128, 255, 255};
    m.textures.push_back(std::make_shared<const Texture>(makeTexture("detail", one)));
    m.looks.resize(1);
    m.looks[0].texture = 0;
    m.looks[0].detail = {1, -1};
    // A 2 x 2 view: pixel centres on texel centres (see the first test); light 1 (vertex colour white).
    const Image img = renderScene(s, makeCamera({0, 0, 0}, {0, 0, 0}, 2, 2), materialOptions(RenderMode::Lit, m));
    const Vec3 c = pixelAt(img, 0, 0);  // red (1, 0, 0) x 2 * (64, 128, 255) / 255
    CHECK(c.x == Approx(2.0 * 64 / 255).margin(1e-5));
    CHECK(c.y == Approx(0.0).margin(1e-6));
    const Vec3 d = pixelAt(img, 1, 1);  // (51, 102, 153) / 255 x 2 * (64, 128, 255) / 255
    CHECK(d.x == Approx(51.0 / 255 * 2 * 64 / 255).margin(1e-5));
    CHECK(d.y == Approx(102.0 / 255 * 2 * 128 / 255).margin(1e-5));
    CHECK(d.z == Approx(153.0 / 255 * 2).margin(1e-5));
}

TEST_CASE("a displacement blend texture is mixed in by the vertex alpha", "[textured]") {
    RenderScene s;
    s.world.materials.resize(1);
    // Alpha 0 on the image's left edge (+Y), 1 on its right edge (-Y).
    const float d = 100;
    std::vector<FixtureVertex> v{{{d, d, d}, {1, 1, 1, 0}, {}, {0, 0}},
                                 {{d, -d, d}, {1, 1, 1, 1}, {}, {1, 0}},
                                 {{d, -d, -d}, {1, 1, 1, 1}, {}, {1, 1}},
                                 {{d, d, -d}, {1, 1, 1, 0}, {}, {0, 1}}};
    addPolygon(s, v, {-1, 0, 0}, SurfaceShading::Vertex, -1, false, 0);
    MaterialSet m;
    RgbaImage red, blue;
    red.width = red.height = blue.width = blue.height = 1;
    red.rgba = {255, 0, 0, 255};
    blue.rgba = {0, 0, 255, 255};
    m.textures.push_back(std::make_shared<const Texture>(makeTexture("red", red)));
    m.textures.push_back(std::make_shared<const Texture>(makeTexture("blue", blue)));
    m.looks.resize(1);
    m.looks[0].texture = 0;
    m.looks[0].texture2 = 1;
    const Image img = renderScene(s, makeCamera({0, 0, 0}, {0, 0, 0}, 8, 8), materialOptions(RenderMode::Albedo, m));
    // Pixel column x has its centre at alpha (x + 0.5) / 8 (the wall spans the view; alpha is linear across it
    // on a wall facing the camera).
    for (int x = 0; x < 8; ++x) {
        const float alpha = (float(x) + 0.5f) / 8.0f;
        CHECK(pixelAt(img, x, 4).x == Approx(1.0f - alpha).margin(1e-4));
        CHECK(pixelAt(img, x, 4).z == Approx(alpha).margin(1e-4));
    }
}

TEST_CASE("frame statistics count the pixels drawn in missing-texture grey", "[textured]") {
    RenderScene s;
    addTexturedWall(s, 100, 0);
    MaterialSet m;
    m.looks.resize(1);
    m.looks[0].missing = true;
    FrameStats st;
    renderScene(s, makeCamera({0, 0, 0}, {0, 0, 0}, 16, 16), materialOptions(RenderMode::Lit, m), &st);
    CHECK(st.pixelsCovered == 256);
    CHECK(st.pixelsMissingTexture == 256);
    m.looks[0].missing = false;
    renderScene(s, makeCamera({0, 0, 0}, {0, 0, 0}, 16, 16), materialOptions(RenderMode::Lit, m), &st);
    CHECK(st.pixelsMissingTexture == 0);
}

TEST_CASE("blended surfaces: Quake 3 draws by sort value, then shader first use; others back to front", "[textured]") {
    // A white wall at x = 500 behind a red (x = 300, surface 1) and a blue (x = 400, surface 2) half-opaque
    // wall, albedo mode, linear look: a wall drawn over colour o gives c * 0.5 + o * 0.5.
    RenderScene s;
    addTexturedWall(s, 500, 0);
    addTexturedWall(s, 300, 1);
    addTexturedWall(s, 400, 2);
    MaterialSet m;
    for (std::array<uint8_t, 4> rgba : {std::array<uint8_t, 4>{255, 255, 255, 255}, {255, 0, 0, 255}, {0, 0, 255, 255}}) {
        RgbaImage img;
        img.width = img.height = 1;
        img.rgba.assign(rgba.begin(), rgba.end());
        m.textures.push_back(std::make_shared<const Texture>(makeTexture("t", img)));
    }
    m.looks.resize(3);
    for (int i = 0; i < 3; ++i) m.looks[size_t(i)].texture = i;
    for (int i : {1, 2}) m.looks[size_t(i)].blend = BlendMode::Blend, m.looks[size_t(i)].opacity = 0.5f;
    const Camera cam = makeCamera({0, 0, 0}, {0, 0, 0}, 4, 4);
    auto centre = [&] { return pixelAt(renderScene(s, cam, materialOptions(RenderMode::Albedo, m)), 2, 2); };
    auto check = [](Vec3 got, Vec3 want) {
        CHECK(got.x == Approx(want.x).margin(1e-5));
        CHECK(got.y == Approx(want.y).margin(1e-5));
        CHECK(got.z == Approx(want.z).margin(1e-5));
    };
    // No sort value (Quake 2, Source): back to front, blue over white then red: (0.75, 0.25, 0.5).
    check(centre(), {0.75f, 0.25f, 0.5f});
    // Quake 3, both blend0 (9): the red material is first used first (surface 1), so red is drawn first and
    // blue over it: red over white (1, 0.5, 0.5), then blue: (0.5, 0.25, 0.75).
    m.looks[1].sort = m.looks[2].sort = 9;
    check(centre(), {0.5f, 0.25f, 0.75f});
    // A lower sort value goes first whatever the shader order: blue at 8 (underwater) -> back to front again.
    m.looks[2].sort = 8;
    check(centre(), {0.75f, 0.25f, 0.5f});
    // A blended surface with depthWrite (seeThrough) hides what is drawn after it behind it: red at sort 5
    // first, writing depth, then blue at 9 behind it fails the depth test: (1, 0.5, 0.5).
    m.looks[1].sort = 5, m.looks[1].depthWrite = true;
    m.looks[2].sort = 9;
    check(centre(), {1.0f, 0.5f, 0.5f});
}

TEST_CASE("Quake 2 and QuakeSpasm warps: coordinates turned by r_turbsin (8 sin, 256 entries) at the time, divided by 64",
          "[textured]") {
    // A wall whose texture coordinates run 0..128 texels across and down a 128x128 view, so pixel (26, 26)
    // samples (26.5, 26.5). EmitWaterPolys: s = (26.5 + 8 sin(26.5 / 8 + T)) / 64, the same for t. A 16x16 texture
    // of four quadrants (A top-left, B top-right, C bottom-left, E bottom-right) is exact more than half a texel
    // (1/32) inside a quadrant. No warp: 0.414 -> A. sin = 1 (table entry 64) at 3.3125 + T = pi / 2 + 0.01:
    // 34.5 / 64 = 0.539 in both -> E. sin = 0 (entry 128) at pi + 0.01: A; sin = -1 (entry 192): 0.289 -> A.
    RenderScene s;
    const Vec4 c{1, 1, 1, 1};
    const float d = 100;
    std::vector<FixtureVertex> v{{{d, d, d}, c, {}, {0, 0}},
                                 {{d, -d, d}, c, {}, {128, 0}},
                                 {{d, -d, -d}, c, {}, {128, 128}},
                                 {{d, d, -d}, c, {}, {0, 128}}};
    s.world.materials.resize(1);
    addPolygon(s, v, {-1, 0, 0}, SurfaceShading::Vertex, -1, false, 0);
    RgbaImage quad;
    quad.width = quad.height = 16;
    const std::array<std::array<uint8_t, 4>, 4> q{{{200, 30, 30, 255}, {30, 200, 30, 255}, {30, 30, 200, 255}, {200, 200, 30, 255}}};
    for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 16; ++x) {
            const auto& t = q[size_t((y / 8) * 2 + x / 8)];
            quad.rgba.insert(quad.rgba.end(), t.begin(), t.end());
        }
    MaterialSet m;
    m.textures.push_back(std::make_shared<const Texture>(makeTexture("quad", quad)));
    m.looks.resize(1);
    m.looks[0].texture = 0;
    auto program = [&](double time, MaterialStage::TexGen warp = MaterialStage::TexGen::Quake2Warp) {
        auto p = std::make_shared<StageProgram>();
        MaterialStage st;
        st.texture = 0;
        st.texGen = warp;
        st.warpTime = time;
        st.warpVertices = quake1WarpVertices(time);
        st.affine[0] = st.affine[3] = 1.0f / 64;
        p->stages.push_back(st);
        return p;
    };
    const double pi = 3.14159265358979;
    auto pixel = [&](double time) {
        m.looks[0].program = program(time);
        return pixelAt(renderScene(s, makeCamera({0, 0, 0}, {0, 0, 0}, 128, 128), materialOptions(RenderMode::Lit, m)), 26, 26);
    };
    auto colour = [](const std::array<uint8_t, 4>& t) { return Vec3{t[0] / 255.0f, t[1] / 255.0f, t[2] / 255.0f}; };
    auto check = [](Vec3 got, Vec3 want) {
        CHECK(got.x == Approx(want.x).margin(1e-5));
        CHECK(got.y == Approx(want.y).margin(1e-5));
        CHECK(got.z == Approx(want.z).margin(1e-5));
    };
    check(pixel(pi / 2 + 0.01 - 3.3125), colour(q[3]));
    check(pixel(pi + 0.01 - 3.3125), colour(q[0]));
    check(pixel(1.5 * pi + 0.01 - 3.3125), colour(q[0]));
    CHECK(quake2Turbulence(pi / 2 + 0.01) == 8.0f);
    CHECK(quake2Turbulence(1.5 * pi + 0.01) == -8.0f);

    // QuakeSpasm's warp image: turbsin[(int)(y * 2 + time * 128 / pi) & 255] at every 16th texel, linear between.
    // At time 0 the vertices read entries 0, 32, 64, 96...: 0, 8 sin(pi / 4) = 5.656854, 8, 5.656854, 0, ...
    CHECK(quake1WarpOffset(0, quake1WarpVertices(0)) == 0.0f);
    CHECK(quake1WarpOffset(16, quake1WarpVertices(0)) == Approx(5.656854).epsilon(1e-6));
    CHECK(quake1WarpOffset(8, quake1WarpVertices(0)) == Approx(0.5 * 5.656854).epsilon(1e-6));
    CHECK(quake1WarpOffset(40, quake1WarpVertices(0)) == Approx((8 + 5.656854) / 2).epsilon(1e-6));
    // The image repeats every 128 texels: -8 is 120, half way from entry 224 (-5.656854) to entry 256 = 0.
    CHECK(quake1WarpOffset(-8, quake1WarpVertices(0)) == Approx(-0.5 * 5.656854).epsilon(1e-6));
    CHECK(quake1WarpOffset(-8, quake1WarpVertices(0)) == quake1WarpOffset(120, quake1WarpVertices(0)));
    CHECK(quake1WarpOffset(std::nanf(""), quake1WarpVertices(0)) == 0.0f);
    CHECK(quake1WarpOffset(1e30f, quake1WarpVertices(0)) == 0.0f);  // a multiple of 128: vertex 0
    // Time 10.5 pi / 128 shifts the index by 10.5, truncated: vertex 0 reads entry 10.
    CHECK(quake1WarpOffset(0, quake1WarpVertices(10.5 * pi / 128)) == Approx(8 * std::sin(2 * pi * 10 / 256)).epsilon(1e-6));
    // Pixel (29, 29) samples (29.5, 29.5): S(29.5) = 5.656854 + (8 - 5.656854) x 13.5 / 16 = 7.633917, so
    // (37.13 / 64) in both: 1.3 texels inside E (no warp: A, 29.5 / 64; Quake 2's at time 0: 25.3 / 64, A).
    m.looks[0].program = program(0, MaterialStage::TexGen::Quake1Warp);
    const Image q1 = renderScene(s, makeCamera({0, 0, 0}, {0, 0, 0}, 128, 128), materialOptions(RenderMode::Lit, m));
    check(pixelAt(q1, 29, 29), colour(q[3]));
    m.looks[0].program = program(0);
    check(pixelAt(renderScene(s, makeCamera({0, 0, 0}, {0, 0, 0}, 128, 128), materialOptions(RenderMode::Lit, m)), 29, 29),
          colour(q[0]));
}

TEST_CASE("fog: blended surfaces fade their alpha, additive ones their colour, cut-outs and the fog's own surface get its pass",
          "[textured][fog]") {
    // A grey (0.2) wall at x = 500 outside any fog; a red wall at x = 300 in a fog without a visible side (the
    // eye inside), colour blue, distance to opaque 1200: R_FogFactor at view depth 300 is sqrt(300 / 1200) = 0.5.
    RenderScene s;
    addTexturedWall(s, 500, 0);
    const uint32_t front = addTexturedWall(s, 300, 1);
    s.world.fogs.push_back(FogVolume{"fog", false, {}});
    s.world.surfaces[front].fog = 0;
    MaterialSet m;
    for (std::array<uint8_t, 4> rgba : {std::array<uint8_t, 4>{51, 51, 51, 255}, {255, 0, 0, 255}}) {
        RgbaImage img;
        img.width = img.height = 1;
        img.rgba.assign(rgba.begin(), rgba.end());
        m.textures.push_back(std::make_shared<const Texture>(makeTexture("t", img)));
    }
    m.looks.resize(2);
    m.looks[0].texture = 0;
    m.looks[1].texture = 1;
    m.fogs.push_back({true, {0, 0, 1}, 1200});
    const Camera cam = makeCamera({0, 0, 0}, {0, 0, 0}, 4, 4);
    auto centre = [&] { return pixelAt(renderScene(s, cam, materialOptions(RenderMode::Lit, m)), 2, 2); };
    auto check = [](Vec3 got, Vec3 want) {
        CHECK(got.x == Approx(want.x).margin(1e-5));
        CHECK(got.y == Approx(want.y).margin(1e-5));
        CHECK(got.z == Approx(want.z).margin(1e-5));
    };
    const float g = 0.2f;
    // Opaque: the fog pass over red: (0.5, 0, 0.5).
    check(centre(), {0.5f, 0, 0.5f});
    // Blended at opacity 0.5: alpha x (1 - 0.5) = 0.25 over grey: (0.25 + 0.75 g, 0.75 g, 0.75 g).
    m.looks[1].blend = BlendMode::Blend, m.looks[1].opacity = 0.5f;
    check(centre(), {0.25f + 0.75f * g, 0.75f * g, 0.75f * g});
    // Additive: half the red added to grey.
    m.looks[1].blend = BlendMode::Additive, m.looks[1].opacity = 1;
    check(centre(), {g + 0.5f, g, g});
    // Alpha-tested: red written, then the fog pass.
    m.looks[1].blend = BlendMode::AlphaTest;
    check(centre(), {0.5f, 0, 0.5f});
    // The fog volume's own surface: its pass alone, over the grey wall behind.
    m.looks[1] = SurfaceLook{};
    m.looks[1].fogVolume = true, m.looks[1].blend = BlendMode::Blend, m.looks[1].sort = 7;
    check(centre(), {g * 0.5f, g * 0.5f, g * 0.5f + 0.5f});
    // Without the fog's parameters the fog surface is not drawn at all.
    m.fogs[0].present = false;
    check(centre(), {g, g, g});
}
