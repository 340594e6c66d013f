// Quake 3 stage programs: alphaFunc on the first stage over what is behind, and frames of animated programs
// checked for determinism (thread counts, repeated renders, times), on the synthetic room of
// support/stage_fixtures.hpp and on oa_dm1.
#include <catch2/catch.hpp>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "support/stage_fixtures.hpp"

using namespace luxel;
using namespace luxel::test;

TEST_CASE("alphaFunc GT0, LT128, GE128 on the first stage: discarded pixels show what is behind", "[program]") {
    // The grate (a white 1x1 texture of alpha A, rgbGen const K = (0.25, 0.5, 0.75), which makes it a program)
    // in front of the east wall (white texture x light L = 4 (32, 16, 48) / 255). Kept: K (engine look: x 2 on
    // display, clamped); discarded: the wall, L in every look. GL_GREATER 0, GL_LESS 0.5, GL_GEQUAL 0.5 on
    // A / 255: 127 / 255 < 0.5 <= 128 / 255.
    const Vec3 K{0.25f, 0.5f, 0.75f};
    struct Case {
        const char* func;
        uint8_t alpha;
        bool kept;
    };
    const Case cases[] = {
        {"GT0", 0, false},    {"GT0", 1, true},      {"GT0", 255, true},
        {"LT128", 0, true},   {"LT128", 127, true},  {"LT128", 128, false}, {"LT128", 255, false},
        {"GE128", 0, false},  {"GE128", 127, false}, {"GE128", 128, true},  {"GE128", 255, true},
    };
    for (const Case& c : cases) {
        WallSpec spec;
        spec.grate = true;
        spec.files = {{"textures/luxel/cut.tga", tgaSolid({255, 255, 255, c.alpha})}};
        spec.script = std::string(R"(textures/luxel/grate
{
	cull none
	{
		map textures/luxel/cut.tga
		alphaFunc )") + c.func + R"(
		rgbGen const ( 0.25 0.5 0.75 )
	}
}
)";
        const WallMap map(spec, 0);
        REQUIRE(map.look("textures/luxel/grate").program);
        REQUIRE(map.look("textures/luxel/grate").blend == BlendMode::AlphaTest);
        for (Look look : kLooks) {
            INFO("alphaFunc " << c.func << ", alpha " << int(c.alpha) << ", look " << name(look));
            checkNear(map.centre(look), c.kept ? shown(look, K) : kWallLight);
        }
    }
}

TEST_CASE("alphaFunc on a blended first stage: kept pixels blend over what is behind", "[program]") {
    // blendFunc blend + alphaFunc GE128, texture alpha a: kept when a >= 0.5, then K a + behind (1 - a). Behind
    // is the wall L, in the framebuffer L / 2 in the engine look (displayed x 2), L otherwise.
    const Vec3 K{0.25f, 0.5f, 0.75f};
    for (uint8_t alpha : {uint8_t(100), uint8_t(192)}) {
        WallSpec spec;
        spec.grate = true;
        spec.files = {{"textures/luxel/cut.tga", tgaSolid({255, 255, 255, alpha})}};
        spec.script = R"(textures/luxel/grate
{
	cull none
	{
		map textures/luxel/cut.tga
		blendFunc GL_SRC_ALPHA GL_ONE_MINUS_SRC_ALPHA
		alphaFunc GE128
		rgbGen const ( 0.25 0.5 0.75 )
	}
}
)";
        const WallMap map(spec, 0);
        const float a = float(alpha) / 255.0f;
        for (Look look : kLooks) {
            INFO("alpha " << int(alpha) << ", look " << name(look));
            if (alpha < 128) {
                checkNear(map.centre(look), kWallLight);
            } else if (look == Look::Engine) {
                checkNear(map.centre(look), shown(look, K * a + kWallLight * (0.5f * (1 - a))));
            } else {
                checkNear(map.centre(look), shown(look, K * a + kWallLight * (1 - a)));
            }
        }
    }
}

namespace {

// Every wall: the lightmap, quad.tga filtered over it while rotating and scrolling, a glow added by a sine; the
// grate in front: quad.tga with two quadrants cut out by alphaFunc, scrolling.
WallSpec animatedRoom() {
    WallSpec spec;
    spec.grate = true;
    Rgba cutB = kQuadB, cutC = kQuadC;
    cutB[3] = 0, cutC[3] = 0;
    spec.files = {{"textures/luxel/quad.tga", tgaQuadrants({kQuadA, kQuadB, kQuadC, kQuadE})},
                  {"textures/luxel/cut.tga", tgaQuadrants({kQuadA, cutB, cutC, kQuadE})},
                  {"textures/luxel/glow.tga", tgaSolid({255, 255, 255, 255})}};
    spec.script = R"(textures/luxel/wall
{
	{
		map $lightmap
		rgbGen identity
	}
	{
		map textures/luxel/quad.tga
		blendFunc filter
		tcMod rotate 33
		tcMod scroll 0.1 0.27
	}
	{
		map textures/luxel/glow.tga
		blendFunc add
		rgbGen wave sin 0.2 0.2 0 0.7
	}
}
textures/luxel/grate
{
	cull none
	{
		map textures/luxel/cut.tga
		alphaFunc GE128
		tcMod scroll 0.31 0.13
		rgbGen const ( 0.9 0.8 0.7 )
	}
}
)";
    return spec;
}

bool sameBytes(const Image& a, const Image& b) {
    return a.pixels.size() == b.pixels.size() &&
           std::memcmp(a.pixels.data(), b.pixels.data(), a.pixels.size() * sizeof(a.pixels[0])) == 0;
}

// Renders `render()` in TBB arenas of 1, 2 and 8 threads; every image must be the 1-thread one's bytes.
template <typename F>
Image requireSameBytesAtThreadCounts(F render) {
    // Lift TBB's default cap (the core count) so the 8-thread arena really gets 8 threads.
    tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 8);
    Image ref;
    for (int threads : {1, 2, 8}) {
        tbb::task_arena arena(threads);
        Image img;
        arena.execute([&] { img = render(); });
        if (threads == 1) {
            ref = img;
            continue;
        }
        INFO(threads << " threads");
        REQUIRE(sameBytes(img, ref));
    }
    return ref;
}

}  // namespace

TEST_CASE("animated programs: the same bytes for 1, 2 and 8 threads and twice at one time; times differ", "[program]") {
    const WallMap at0(animatedRoom(), 0), again(animatedRoom(), 0), later(animatedRoom(), 0.35f);
    for (int spp : {1, 4}) {
        INFO("spp " << spp);
        const Image a = requireSameBytesAtThreadCounts([&] { return at0.frame(Look::Engine, spp); });
        const Image b = requireSameBytesAtThreadCounts([&] { return again.frame(Look::Engine, spp); });
        const Image c = requireSameBytesAtThreadCounts([&] { return later.frame(Look::Engine, spp); });
        CHECK(sameBytes(a, b));
        CHECK(sameBytes(at0.frame(Look::Engine, spp), a));  // the same materials rendered again
        CHECK_FALSE(sameBytes(a, c));
        // Both the walls (rotating, scrolling, glowing) and the grate (its cut-out scrolling) change.
        CHECK_FALSE(pixelAt(a, 20, 20) == pixelAt(c, 20, 20));
        size_t grateChanged = 0;
        for (int y = 70; y < 110; ++y)
            for (int x = 140; x < 180; ++x) grateChanged += pixelAt(a, x, y) == pixelAt(c, x, y) ? 0 : 1;
        CHECK(grateChanged > 100);
    }
}

TEST_CASE("animated programs of a real map: deterministic across threads and renders, different at two times",
          "[program][maps]") {
    const std::string game = "/usr/share/games/openarena/baseoa";
    const std::string mapPath = game + "/pak1-maps.pk3";
    if (!std::filesystem::exists(mapPath)) {
        WARN("SKIPPED: openarena-data is not installed (" << mapPath << ")");
        return;
    }
    const MapSource src = openMapPath(mapPath + ":maps/oa_dm1.bsp");
    const World world = decodeMap(src);
    const Geometry geometry = tessellate(world);
    auto load = [&](float time) {
        MaterialOptions mo;
        mo.gameDirs = {game};
        mo.time = time;
        return loadMaterials(world, src, mo);
    };
    const float t0 = 0.0f, t1 = 0.37f;
    const MaterialSet set0 = load(t0), set0again = load(t0), set1 = load(t1);
    // Materials whose program changes between the two times (texture frame, coordinates, colours, alpha).
    auto stageDiffers = [](const MaterialStage& a, const MaterialStage& b) {
        return a.texture != b.texture || std::memcmp(a.affine, b.affine, sizeof a.affine) != 0 ||
               !(a.constant == b.constant) || a.alphaConstant != b.alphaConstant;
    };
    std::vector<bool> animated(set0.looks.size(), false);
    size_t animatedCount = 0;
    for (size_t m = 0; m < set0.looks.size(); ++m) {
        const auto& p0 = set0.looks[m].program;
        const auto& p1 = set1.looks[m].program;
        if (!p0 || !p1 || set0.looks[m].hidden || set0.looks[m].sky) continue;
        REQUIRE(p0->stages.size() == p1->stages.size());
        for (size_t k = 0; k < p0->stages.size(); ++k)
            if (stageDiffers(p0->stages[k], p1->stages[k])) animated[m] = true;
        animatedCount += animated[m] ? 1 : 0;
    }
    INFO(animatedCount << " animated program materials");
    REQUIRE(animatedCount > 0);
    auto render = [&](const MaterialSet& set, const Camera& cam) {
        RenderOptions o;
        o.mode = RenderMode::Lit;
        o.look = Look::Engine;
        o.materials = &set;
        return renderFrame(world, geometry, cam, o);
    };
    // A camera 64 units in front of an animated polygon, looking at it: the first whose picture changes.
    int checked = 0;
    for (size_t s = 0; s < world.surfaces.size() && checked == 0; ++s) {
        const Surface& surf = world.surfaces[s];
        if (surf.kind != SurfaceKind::Polygon || surf.material < 0 || !animated[size_t(surf.material)] ||
            surf.numVertices < 3)
            continue;
        const std::optional<Camera> facing = cameraFacingSurface(world, s, 64.0f, 240, 160);
        if (!facing) continue;
        const Camera& cam = *facing;
        const Image a = render(set0, cam), c = render(set1, cam);
        if (sameBytes(a, c)) continue;  // hidden behind something else from here
        INFO("surface " << s << " (" << world.materials[size_t(surf.material)].name << ")");
        CHECK(sameBytes(requireSameBytesAtThreadCounts([&] { return render(set0, cam); }), a));
        CHECK(sameBytes(requireSameBytesAtThreadCounts([&] { return render(set1, cam); }), c));
        CHECK(sameBytes(render(set0again, cam), a));  // materials loaded again at the same time
        CHECK(sameBytes(render(set0, cam), a));       // the same materials drawn again
        ++checked;
    }
    REQUIRE(checked == 1);
}
