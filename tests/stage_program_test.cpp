// Quake 3 shaders drawn as stage programs: a synthetic room whose wall shader has stages beyond texture x
// lightmap, each expected pixel computed by hand from the engine's framebuffer rules (ref/README.md: the
// full-screen configuration shifts light by one bit into the framebuffer and doubles it on display).
#include <catch2/catch.hpp>

#include <string>

#include "luxel/bsp/decode.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/render/render.hpp"
#include "support/decode_helpers.hpp"
#include "support/q3_writer.hpp"
#include "support/render_fixtures.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

// The east wall (lightmap byte 32 -> light 4 * 32 / 255) seen from the room's centre, lit mode.
Vec3 eastWall(const std::string& shader, Look look = Look::Engine, float time = 0, bool program = true) {
    // A folder per script: game folders are mounted once per process and their scripts cached.
    static int calls = 0;
    const std::string dir = tempDir("stage-program-" + std::to_string(++calls));
    writeFile(dir + "/textures/luxel/base.tga", tga1x1(128, 64, 255));
    writeFile(dir + "/textures/luxel/glow.tga", tga1x1(255, 255, 255));
    writeFile(dir + "/scripts/luxel.shader", Bytes(shader.begin(), shader.end()));
    RoomOptions room;
    room.wallBytes[3] = {32, 32, 32};
    const MapSource src = memorySource(makeRoomMap(room).build(), "room.bsp");
    const World world = decodeMap(src);
    const Geometry geometry = tessellate(world);
    MaterialOptions mo;
    mo.gameDirs = {dir};
    mo.time = time;
    const MaterialSet set = loadMaterials(world, src, mo);
    REQUIRE(bool(set.looks.at(0).program) == program);
    RenderOptions o;
    o.mode = RenderMode::Lit;
    o.look = look;
    o.materials = &set;
    return pixelAt(renderFrame(world, geometry, roomCamera({0, 0, 0}), o), 160, 90);
}

const char* kGlow = R"(textures/luxel/wall
{
	{
		map $lightmap
		rgbGen identity
	}
	{
		map textures/luxel/base.tga
		blendFunc GL_DST_COLOR GL_ZERO
		rgbGen identity
	}
	{
		map textures/luxel/glow.tga
		blendFunc GL_ONE GL_ONE
		rgbGen const ( 0.25 0.5 0.125 )
	}
}
)";

void checkNear(Vec3 got, Vec3 want) {
    CHECK(got.x == Approx(want.x).margin(1e-4));
    CHECK(got.y == Approx(want.y).margin(1e-4));
    CHECK(got.z == Approx(want.z).margin(1e-4));
}

}  // namespace

TEST_CASE("stage program: lightmap x texture + an added glow, in the engine's framebuffer", "[program]") {
    // Light L = 128/255. Framebuffer: lightmap L / 2 = 64/255; x texture (128, 64, 255)/255; + glow
    // (0.25, 0.5, 0.125), clamped to 1; display x 2, clamped.
    const double fb0 = 64.0 / 255.0;
    const double r = fb0 * 128 / 255 + 0.25, g = fb0 * 64 / 255 + 0.5, b = fb0 + 0.125;
    checkNear(eastWall(kGlow), Vec3{float(std::min(1.0, 2 * r)), float(std::min(1.0, 2 * g)), float(std::min(1.0, 2 * b))});
    // The windowed look: the framebuffer holds the light itself (128/255) and nothing doubles it.
    const double L = 128.0 / 255.0;
    checkNear(eastWall(kGlow, Look::EngineWindowed),
              Vec3{float(std::min(1.0, L * 128 / 255 + 0.25)), float(std::min(1.0, L * 64 / 255 + 0.5)),
                   float(std::min(1.0, L + 0.125))});
    // The linear look: no clamps: L x texture + glow.
    checkNear(eastWall(kGlow, Look::Linear), Vec3{float(L * 128 / 255 + 0.25), float(L * 64 / 255 + 0.5), float(L + 0.125)});
}

TEST_CASE("stage program: rgbGen wave at --time, identityLighting, scrolled texture coordinates", "[program]") {
    const std::string wave = R"(textures/luxel/wall
{
	{
		map textures/luxel/glow.tga
		rgbGen wave sin 0.5 0.5 0 1
	}
}
)";
    // sin wave base 0.5 amplitude 0.5: 0.5 at t = 0, 1 at t = 0.25, 0 at t = 0.75. RB_CalcWaveColor multiplies
    // the wave by identityLight (1/2 in the engine look) before clamping, and the display doubles it back.
    checkNear(eastWall(wave, Look::Engine, 0.0f), Vec3{0.5f, 0.5f, 0.5f});
    checkNear(eastWall(wave, Look::Engine, 0.25f), Vec3{1, 1, 1});
    checkNear(eastWall(wave, Look::EngineWindowed, 0.25f), Vec3{1, 1, 1});
    checkNear(eastWall(wave, Look::Linear, 0.0f), Vec3{0.5f, 0.5f, 0.5f});
    checkNear(eastWall(wave, Look::Linear, 0.25f), Vec3{1, 1, 1});
    checkNear(eastWall(wave, Look::Linear, 0.75f), Vec3{0, 0, 0});
    // A texture stage without rgbGen and without blend is identityLighting: 1/2 in the framebuffer,
    // doubled back on display (the engine look) - with a tcMod making it a program.
    const std::string plain = R"(textures/luxel/wall
{
	{
		map textures/luxel/base.tga
		tcMod scroll 0.5 0
	}
}
)";
    checkNear(eastWall(plain, Look::Engine), Vec3{128.0f / 255, 64.0f / 255, 1.0f});
    checkNear(eastWall(plain, Look::EngineWindowed), Vec3{128.0f / 255, 64.0f / 255, 1.0f});
}

TEST_CASE("detail stages fold into the one-texture look; other extra stages make a program", "[program]") {
    const std::string dir = tempDir("stage-program-detail");
    writeFile(dir + "/textures/luxel/base.tga", tga1x1(128, 64, 255));
    writeFile(dir + "/textures/luxel/grain.tga", tga1x1(100, 110, 120));
    const std::string script = R"(textures/luxel/wall
{
	{
		map textures/luxel/base.tga
		rgbGen identity
	}
	{
		map $lightmap
		blendfunc filter
		rgbGen identity
	}
	{
		map textures/luxel/grain.tga
		blendfunc gl_dst_color gl_src_color
		tcMod scale 12 6
		detail
	}
}
)";
    writeFile(dir + "/scripts/luxel.shader", Bytes(script.begin(), script.end()));
    const MapSource src = memorySource(makeRoomMap().build(), "room.bsp");
    MaterialOptions mo;
    mo.gameDirs = {dir};
    const MaterialSet set = loadMaterials(decodeMap(src), src, mo);
    const SurfaceLook& look = set.looks.at(0);
    CHECK_FALSE(look.program);
    REQUIRE(look.detail[0] >= 0);
    CHECK(look.detail[1] == -1);
    CHECK(look.detailScale[0].x == 12.0f);
    CHECK(look.detailScale[0].y == 6.0f);
    CHECK(textureLevel(*set.textures.at(size_t(look.detail[0])), 0).rgba[0] == 100);
}

TEST_CASE("stage program: an additive shader's stages are blended over what is behind", "[program]") {
    // Two added stages over the black background: a glow at rgbGen const, then the base texture (rgbGen
    // identityLighting by default for a GL_ONE source: 1/2 in the framebuffer of the engine look).
    const std::string additive = R"(textures/luxel/wall
{
	{
		map textures/luxel/glow.tga
		blendFunc GL_ONE GL_ONE
		rgbGen const ( 0.125 0.25 0.0625 )
	}
	{
		map textures/luxel/base.tga
		blendFunc GL_ONE GL_ONE
		tcMod scroll 0.5 0
	}
}
)";
    const double r = 128.0 / 255, g = 64.0 / 255, b = 1.0;  // the base texel
    // Engine: (0.125 + r/2, 0.25 + g/2, 0.0625 + 1/2) in the framebuffer, doubled on display (clamped).
    checkNear(eastWall(additive, Look::Engine),
              Vec3{float(2 * (0.125 + r / 2)), float(2 * (0.25 + g / 2)), float(std::min(1.0, 2 * (0.0625 + b / 2)))});
    // Linear: identityLight 1, no clamps.
    checkNear(eastWall(additive, Look::Linear), Vec3{float(0.125 + r), float(0.25 + g), float(0.0625 + b)});
}

TEST_CASE("terrain blends (second texture by vertex alpha, then the lightmap) take the one-texture path", "[program]") {
    const std::string terrain = R"(textures/luxel/wall
{
	{
		map textures/luxel/base.tga
		rgbGen identity
	}
	{
		map textures/luxel/glow.tga
		alphaGen vertex
		blendFunc GL_SRC_ALPHA GL_ONE_MINUS_SRC_ALPHA
	}
	{
		map $lightmap
		blendFunc filter
	}
}
)";
    // The room's vertex alpha is 1: the second texture (white) alone, at identityLighting (no rgbGen and a
    // GL_SRC_ALPHA source): 1/2 in the engine look's framebuffer, then x light 128/255 / 2, x 2 on display.
    const double L = 128.0 / 255;
    checkNear(eastWall(terrain, Look::Engine, 0, false), Vec3{float(L / 2), float(L / 2), float(L / 2)});
    checkNear(eastWall(terrain, Look::EngineWindowed, 0, false), Vec3{float(L), float(L), float(L)});
}
