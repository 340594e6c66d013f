// Cut-outs resolved in the visibility buffer, through the whole frame: the vector alpha test (alpha bytes,
// byte gathers) against the portable one, over many mip levels and texel positions.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>

#include "luxel/render/raster.hpp"
#include "luxel/render/render.hpp"
#include "support/render_fixtures.hpp"

using namespace luxel;
using namespace luxel::test;

TEST_CASE("cut-outs: vector and portable alpha tests keep the same pixels on oblique, layered foliage", "[textured]") {
    // 64x64 texture of random alpha (a fifth of the texels opaque), tiled 6 times over 40 tilted cards at
    // depths 60..500: each frame samples several mip levels, wraps, and resolves many overlapping cut-outs.
    std::mt19937 rng(8);
    RgbaImage img;
    img.width = img.height = 64;
    for (int i = 0; i < 64 * 64; ++i) {
        const uint8_t a = rng() % 5 == 0 ? uint8_t(128 + rng() % 128) : uint8_t(rng() % 128);
        img.rgba.insert(img.rgba.end(), {uint8_t(rng()), uint8_t(rng()), uint8_t(rng()), a});
    }
    MaterialSet m;
    m.textures.push_back(std::make_shared<const Texture>(makeTexture("leaves", img)));
    REQUIRE(m.textures[0]->alphaLevels.size() == m.textures[0]->mips.size());
    m.looks.resize(1);
    m.looks[0].texture = 0;
    m.looks[0].blend = BlendMode::AlphaTest;
    m.looks[0].alphaRef = 0.5f;
    m.looks[0].twoSided = true;
    RenderScene s;
    s.world.materials.push_back(Material{});
    std::uniform_real_distribution<float> at(-150, 150), depth(60, 500), tilt(-0.8f, 0.8f);
    for (int c = 0; c < 40; ++c) {
        const Vec3 o{depth(rng), at(rng), at(rng) * 0.5f};
        const float r = 40, k = tilt(rng);
        std::vector<FixtureVertex> v{{{o.x - r * k, o.y - r, o.z + r}, {1, 1, 1, 1}, {}, {0, 0}},
                                     {{o.x + r * k, o.y + r, o.z + r}, {1, 1, 1, 1}, {}, {6, 0}},
                                     {{o.x + r * k, o.y + r, o.z - r}, {1, 1, 1, 1}, {}, {6, 6}},
                                     {{o.x - r * k, o.y - r, o.z - r}, {1, 1, 1, 1}, {}, {0, 6}}};
        addPolygon(s, v, {-1, 0, 0}, SurfaceShading::Vertex, -1, true, 0);
    }
    RenderOptions o;
    o.mode = RenderMode::Lit;
    o.look = Look::Linear;
    o.usePvs = false;
    o.materials = &m;
    o.background = {0, 0, 0};
    const Camera camera = makeCamera({0, 0, 0}, {0, 0, 0}, 320, 180);
    raster::allowAvx2(true);
    FrameStats vecStats, portableStats;
    const Image vec = renderScene(s, camera, o, &vecStats);
    raster::allowAvx2(false);
    const Image portable = renderScene(s, camera, o, &portableStats);
    raster::allowAvx2(true);
    REQUIRE(vec.pixels.size() == portable.pixels.size());
    CHECK(std::memcmp(vec.pixels.data(), portable.pixels.data(), vec.pixels.size() * sizeof(float)) == 0);
    CHECK(vecStats.pixelsCovered == portableStats.pixelsCovered);
    // Something to compare: the cards keep some pixels and drop others.
    CHECK(vecStats.pixelsCovered > 500);
    CHECK(vecStats.pixelsCovered < 320u * 180u * 3 / 4);
}
