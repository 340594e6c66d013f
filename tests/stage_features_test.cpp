// Quake 3 stage program features one at a time: blend factor pairs, rgbGen, alphaGen, tcMod, animMap and
// alphaFunc, each on a synthetic room whose shader script exercises that one feature, the expected pixel
// computed by hand from ioquake3's renderer (renderergl1: tr_shade.c ComputeColors / ComputeTexCoords /
// R_BindAnimatedImage, tr_shade_calc.c RB_Calc*, tr_shader.c ParseStage), and frames of animated programs
// checked for determinism (thread counts, repeated renders, times).
//
// The framebuffer rules of the three looks (see stage_program_test.cpp):
//  * Engine: light and vertex colours enter the framebuffer shifted by one overbright bit (x 1/2 of luxel's
//    light), identityLight = 1/2, each stage clamped to [0, 1], the display doubles (clamped at 1).
//  * EngineWindowed (r_overBrightBits 0): light as it is (hue clamped at 1), identityLight = 1, no doubling.
//  * Linear: no clamps, identityLight = 1.
// The engine stores each stage's colour and the framebuffer in bytes; luxel does not, so the expected values
// below are the exact (unquantised) results of the engine's formulas.
#include <catch2/catch.hpp>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <numbers>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "luxel/bsp/decode.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/render/render.hpp"
#include "luxel/vis/visibility.hpp"
#include "support/decode_helpers.hpp"
#include "support/q3_writer.hpp"
#include "support/render_fixtures.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

using Rgba = std::array<uint8_t, 4>;

// An uncompressed 32-bit TGA of w x h texels given row by row from the top (descriptor 0x28: 8 alpha bits,
// top-left origin), so texel (x, y) is texture coordinate ((x + 0.5) / w, (y + 0.5) / h).
Bytes tga(int w, int h, const std::vector<Rgba>& texels) {
    REQUIRE(texels.size() == size_t(w) * size_t(h));
    Bytes t(18, 0);
    t[2] = 2;  // true colour
    t[12] = uint8_t(w), t[13] = uint8_t(w >> 8), t[14] = uint8_t(h), t[15] = uint8_t(h >> 8);
    t[16] = 32, t[17] = 0x28;
    for (const Rgba& c : texels)
        for (uint8_t v : {c[2], c[1], c[0], c[3]}) t.push_back(v);
    return t;
}

Bytes tgaSolid(Rgba c) { return tga(1, 1, {c}); }

// 8 x 8 texels in four 4 x 4 quadrants: s < 1/2 and t < 1/2 -> q[0], s >= 1/2, t < 1/2 -> q[1], s < 1/2,
// t >= 1/2 -> q[2], both >= 1/2 -> q[3]. A sample at least half a texel (1/16) inside a quadrant is its colour
// exactly under bilinear filtering, so small offsets of the sample point do not matter.
Bytes tgaQuadrants(const std::array<Rgba, 4>& q) {
    std::vector<Rgba> texels;
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) texels.push_back(q[size_t((y / 4) * 2 + x / 4)]);
    return tga(8, 8, texels);
}

// The quadrant colours of textures/luxel/quad.tga.
constexpr Rgba kQuadA{200, 30, 30, 255}, kQuadB{30, 200, 30, 255}, kQuadC{30, 30, 200, 255}, kQuadE{200, 200, 30, 255};

Vec3 rgb(Rgba c) { return {float(c[0]) / 255.0f, float(c[1]) / 255.0f, float(c[2]) / 255.0f}; }

// The synthetic map: q3_writer's room, camera at its centre looking +X at the east wall (face 3), whose texture
// coordinates are set so the centre pixel (160, 90) samples (st0.x + 1/640, st0.y + 1/320): s = st0.x - y / 512
// (s grows to the right of the picture), t = st0.y + (128 - z) / 256 (t grows downwards).
struct WallSpec {
    std::string script;                              // scripts/luxel.shader
    std::vector<std::pair<std::string, Bytes>> files;  // game-directory files (textures)
    Vec2 st0{0.25f, 0.25f};
    std::array<uint8_t, 3> light{32, 16, 48};  // the east wall's lightmap bytes (light 4 * byte / 255)
    Rgba vertexColor{32, 16, 48, 255};         // the east wall's vertex colours
    // A two-sided quad "textures/luxel/grate" at x = 128 (|y| <= 64, 64 <= z <= 192) in front of the east
    // wall, which then keeps the implicit shader (textures/luxel/wall.tga, white, times its lightmap).
    bool grate = false;
};

// East-wall light of the default WallSpec, linear: 4 * (32, 16, 48) / 255.
const Vec3 kWallLight{q3Linear(32), q3Linear(16), q3Linear(48)};

class WallMap {
public:
    WallMap(const WallSpec& spec, float time) {
        // A folder per map: game folders are mounted once per process and their scripts cached.
        static int calls = 0;
        const std::string dir = tempDir("stage-features-" + std::to_string(++calls));
        for (const auto& [path, bytes] : spec.files) writeFile(dir + "/" + path, bytes);
        if (spec.grate) writeFile(dir + "/textures/luxel/wall.tga", tgaSolid({255, 255, 255, 255}));
        writeFile(dir + "/scripts/luxel.shader", Bytes(spec.script.begin(), spec.script.end()));
        RoomOptions room;
        room.wallBytes[3] = spec.light;
        Q3MapBuilder b = makeRoomMap(room);
        const Q3Face east = b.faces.at(3);
        for (int32_t k = 0; k < east.numVertices; ++k) {
            Q3Vertex& v = b.vertices.at(size_t(east.firstVertex + k));
            v.texUV = {spec.st0.x - v.position.y / 512.0f, spec.st0.y + (128.0f - v.position.z) / 256.0f};
            v.color = spec.vertexColor;
        }
        if (spec.grate) {
            const int32_t tex = b.addTexture("textures/luxel/grate");
            const int32_t face = b.addPolygon({{128, 64, 192}, {128, -64, 192}, {128, -64, 64}, {128, 64, 64}},
                                              {-1, 0, 0}, tex, east.lightmap, {{0, 0}, {1, 0}, {1, 1}, {0, 1}});
            // Leaf 0 is the room's inside (its six faces first); the outside leaves list none.
            b.leafFaces.push_back(face);
            b.leaves.at(0).numLeafFaces += 1;
            b.models.at(0).numFaces += 1;
        }
        src_ = memorySource(b.build(), "room.bsp");
        world_ = decodeMap(src_);
        geometry_ = tessellate(world_);
        MaterialOptions mo;
        mo.gameDirs = {dir};
        mo.time = time;
        set_ = loadMaterials(world_, src_, mo);
    }
    const MaterialSet& materials() const { return set_; }
    // The material of the east wall (or of the grate).
    const SurfaceLook& look(const std::string& name = "textures/luxel/wall") const {
        for (size_t i = 0; i < world_.materials.size(); ++i)
            if (world_.materials[i].name == name) return set_.looks.at(i);
        FAIL("no material " << name);
        return set_.looks.at(0);
    }
    Image frame(Look look, int spp = 1) const {
        RenderOptions o;
        o.mode = RenderMode::Lit;
        o.look = look;
        o.spp = spp;
        o.materials = &set_;
        return renderFrame(world_, geometry_, roomCamera({0, 0, 0}), o);
    }
    Vec3 centre(Look look) const { return pixelAt(frame(look), 160, 90); }

private:
    MapSource src_;
    World world_;
    Geometry geometry_;
    MaterialSet set_;
};

void checkNear(Vec3 got, Vec3 want, float margin = 1e-4f) {
    CHECK(got.x == Approx(want.x).margin(margin));
    CHECK(got.y == Approx(want.y).margin(margin));
    CHECK(got.z == Approx(want.z).margin(margin));
}

float clamp01(float v) { return std::clamp(v, 0.0f, 1.0f); }
Vec3 clamp01(Vec3 v) { return {clamp01(v.x), clamp01(v.y), clamp01(v.z)}; }

// What the look shows for a last stage whose unclamped framebuffer result is `fb` (every earlier stage in
// [0, 1]): Engine clamps it and doubles on display (clamped again), EngineWindowed clamps it, Linear keeps it.
Vec3 shown(Look look, Vec3 fb) {
    if (look == Look::Linear) return fb;
    const Vec3 c = clamp01(fb);
    return look == Look::Engine ? clamp01(c * 2.0f) : c;
}

const char* name(Look look) { return look == Look::Engine ? "engine" : look == Look::EngineWindowed ? "windowed" : "linear"; }

constexpr Look kLooks[] = {Look::Engine, Look::EngineWindowed, Look::Linear};

}  // namespace

TEST_CASE("blend factor pairs: a second stage over a known first stage", "[program]") {
    // First stage: dst.tga D = (51, 102, 153) / 255 = (0.2, 0.4, 0.6), rgbGen identity, replacing. Second
    // stage: src.tga S = (204, 153, 51) / 255 = (0.8, 0.6, 0.2) with texture alpha a = 64 / 255, rgbGen identity
    // (no identityLight in any look), blended as result = S * srcFactor + D * dstFactor (GL blending; the
    // destination alpha is 1). Opaque first stage: drawn as a program over nothing.
    const Vec3 D{0.2f, 0.4f, 0.6f}, S{0.8f, 0.6f, 0.2f}, one{1, 1, 1};
    const float a = 64.0f / 255.0f;
    struct Pair {
        const char* blendFunc;
        Vec3 fb;  // S * srcFactor + D * dstFactor
    };
    const Pair pairs[] = {
        {"GL_ONE GL_ONE", S + D},                                        // (1.0, 1.0, 0.8)
        {"add", S + D},                                                  // = GL_ONE GL_ONE
        {"GL_DST_COLOR GL_ZERO", S * D},                                 // (0.16, 0.24, 0.12)
        {"filter", S * D},                                               // = GL_DST_COLOR GL_ZERO
        {"GL_ZERO GL_SRC_COLOR", D * S},                                 // the same product
        {"GL_SRC_ALPHA GL_ONE_MINUS_SRC_ALPHA", S * a + D * (1 - a)},    // mix by the texture's alpha
        {"blend", S * a + D * (1 - a)},                                  // = GL_SRC_ALPHA GL_ONE_MINUS_SRC_ALPHA
        {"GL_ONE GL_ONE_MINUS_SRC_ALPHA", S + D * (1 - a)},              // (0.9498, 0.8996, 0.6494)
        {"GL_ONE_MINUS_DST_COLOR GL_ONE", S * (one - D) + D},            // (0.84, 0.76, 0.68)
        {"GL_DST_COLOR GL_SRC_COLOR", S * D + D * S},                    // 2 S D = (0.32, 0.48, 0.24)
        {"GL_ONE_MINUS_SRC_ALPHA GL_SRC_ALPHA", S * (1 - a) + D * a},    // the mix the other way round
        {"GL_DST_COLOR GL_ONE", S * D + D},                              // (0.36, 0.64, 0.72)
        {"GL_ZERO GL_ONE_MINUS_SRC_COLOR", D * (one - S)},               // (0.04, 0.16, 0.48)
        {"GL_ONE GL_ZERO", S},                                           // no blending: the stage replaces
    };
    for (const Pair& p : pairs) {
        WallSpec spec;
        spec.files = {{"textures/luxel/dst.tga", tgaSolid({51, 102, 153, 255})},
                      {"textures/luxel/src.tga", tgaSolid({204, 153, 51, 64})}};
        spec.script = std::string(R"(textures/luxel/wall
{
	{
		map textures/luxel/dst.tga
		rgbGen identity
	}
	{
		map textures/luxel/src.tga
		blendFunc )") + p.blendFunc + R"(
		rgbGen identity
	}
}
)";
        const WallMap map(spec, 0);
        REQUIRE(map.look().program);
        for (Look look : kLooks) {
            INFO("blendFunc " << p.blendFunc << ", look " << name(look));
            checkNear(map.centre(look), shown(look, p.fb));
        }
    }
}

TEST_CASE("a stage without rgbGen: identityLighting for sources ONE and SRC_ALPHA, identity otherwise", "[program]") {
    // ParseStage: no rgbGen and a source factor of ONE or SRC_ALPHA (or no blendFunc) -> identityLighting (x 1/2
    // in the engine look's framebuffer), any other source -> identity. First stage dark.tga D = (20, 40, 60) /
    // 255 (rgbGen identity), second grey.tga W = 100 / 255 (alpha 1) with only a blendFunc; engine look
    // (display x 2, clamped; every value here stays below it).
    const Vec3 D = rgb({20, 40, 60, 255}), W = rgb({100, 100, 100, 255}), one{1, 1, 1};
    struct Case {
        const char* blendFunc;
        Vec3 fb;
    };
    const Case cases[] = {
        {"GL_ONE GL_ONE", W * 0.5f + D},                          // identityLighting: W / 2 + D
        {"GL_SRC_ALPHA GL_ONE_MINUS_SRC_ALPHA", W * 0.5f},         // alpha 1: the stage alone, W / 2
        {"GL_DST_COLOR GL_ZERO", W * D},                           // identity: W x D
        {"GL_ONE_MINUS_DST_COLOR GL_ONE", W * (one - D) + D},      // identity
        {"GL_ZERO GL_SRC_COLOR", D * W},                           // identity: D x W
    };
    for (const Case& c : cases) {
        WallSpec spec;
        spec.files = {{"textures/luxel/dark.tga", tgaSolid({20, 40, 60, 255})},
                      {"textures/luxel/grey.tga", tgaSolid({100, 100, 100, 255})}};
        spec.script = std::string(R"(textures/luxel/wall
{
	{
		map textures/luxel/dark.tga
		rgbGen identity
	}
	{
		map textures/luxel/grey.tga
		blendFunc )") + c.blendFunc + R"(
	}
}
)";
        INFO("blendFunc " << c.blendFunc);
        checkNear(WallMap(spec, 0).centre(Look::Engine), shown(Look::Engine, c.fb));
    }
}

namespace {

// One texture stage base.tga B = (100, 50, 20) / 255 with the given rgbGen (a `tcMod scroll 0 0`, which changes
// nothing on a 1x1 texture, makes every variant a program), on the east wall with vertex colour bytes
// (32, 16, 48).
Vec3 rgbGenPixel(const std::string& rgbGen, Look look, float time = 0) {
    WallSpec spec;
    spec.files = {{"textures/luxel/base.tga", tgaSolid({100, 50, 20, 255})}};
    spec.script = R"(textures/luxel/wall
{
	{
		map textures/luxel/base.tga
		rgbGen )" + rgbGen + R"(
		tcMod scroll 0 0
	}
}
)";
    const WallMap map(spec, time);
    REQUIRE(map.look().program);
    return map.centre(look);
}

const Vec3 kBase = rgb({100, 50, 20, 255});

}  // namespace

TEST_CASE("rgbGen identity, identityLighting, const, entity", "[program]") {
    for (Look look : kLooks) {
        INFO("look " << name(look));
        // identity: the texel as it is.
        checkNear(rgbGenPixel("identity", look), shown(look, kBase));
        // entity: the world entity's colour, white: the same as identity.
        checkNear(rgbGenPixel("entity", look), shown(look, kBase));
        // const: texel x the constant, no identityLight.
        checkNear(rgbGenPixel("const ( 0.5 0.25 1 )", look), shown(look, kBase * Vec3{0.5f, 0.25f, 1.0f}));
    }
    // identityLighting: texel x identityLight - 1/2 in the engine look's framebuffer (doubled back on display:
    // the texel), 1 in the windowed and linear looks.
    checkNear(rgbGenPixel("identityLighting", Look::Engine), kBase);
    checkNear(rgbGenPixel("identity", Look::Engine), kBase * 2.0f);  // against identity: twice as bright
    checkNear(rgbGenPixel("identityLighting", Look::EngineWindowed), kBase);
    checkNear(rgbGenPixel("identityLighting", Look::Linear), kBase);
}

TEST_CASE("rgbGen vertex, exactVertex, oneMinusVertex", "[program]") {
    // Vertex colour bytes v = (32, 16, 48). The engine shifts them like the lightmap (R_ColorShiftLightingBytes):
    // x 2 in the full-screen configuration (2v / 255 in the framebuffer), x 4 windowed; luxel's linear light is
    // 4v / 255. exactVertex copies them; vertex multiplies them by identityLight (1/2 full screen, else 1);
    // oneMinusVertex is (1 - them) x identityLight.
    const Vec3 v2 = Vec3{64, 32, 96} * (1.0f / 255.0f), v4 = Vec3{128, 64, 192} * (1.0f / 255.0f);
    // Engine: vertex -> B v2 / 2 in the framebuffer, displayed x 2; exactVertex -> B v2, displayed x 2.
    checkNear(rgbGenPixel("vertex", Look::Engine), kBase * v2);
    checkNear(rgbGenPixel("exactVertex", Look::Engine), kBase * v2 * 2.0f);
    // Windowed (identityLight 1) and linear: both B v4.
    for (Look look : {Look::EngineWindowed, Look::Linear}) {
        INFO("look " << name(look));
        checkNear(rgbGenPixel("vertex", look), kBase * v4);
        checkNear(rgbGenPixel("exactVertex", look), kBase * v4);
        checkNear(rgbGenPixel("oneMinusVertex", look), kBase * (Vec3{1, 1, 1} - v4));
    }
}

TEST_CASE("rgbGen wave: every wave form at two times", "[program]") {
    // RB_CalcWaveColor: a grey of base + amplitude * func(phase + t * frequency), times identityLight (1 in
    // these looks), clamped to [0, 1]; times a white texture. Times are on exact entries of the engine's
    // 1024-entry tables (sin at a quarter and three quarters of its period: 1 and -1).
    struct Case {
        const char* wave;
        float time, want;
    };
    const Case cases[] = {
        {"sin 0.5 0.25 0 1", 0.25f, 0.75f},             // sin(pi / 2) = 1
        {"sin 0.5 0.25 0 1", 0.75f, 0.25f},             // sin(3 pi / 2) = -1
        {"triangle 0.5 0.25 0 1", 0.125f, 0.625f},      // rising: 4 x 0.125 = 0.5
        {"triangle 0.5 0.25 0 1", 0.625f, 0.375f},      // falling: 2 - 4 x 0.625 = -0.5
        {"triangle 0.5 0.25 0 2", 0.0625f, 0.625f},     // frequency 2: x = 0.125
        {"square 0.5 0.25 0 1", 0.25f, 0.75f},          // +1 in the first half
        {"square 0.5 0.25 0 1", 0.75f, 0.25f},          // -1 in the second
        {"sawtooth 0.5 0.25 0 1", 0.25f, 0.5625f},      // frac = 0.25
        {"sawtooth 0.5 0.25 0 1", 1.75f, 0.6875f},      // frac(1.75) = 0.75
        {"sawtooth 0.5 0.25 0.5 1", 0.25f, 0.6875f},    // phase 0.5: x = 0.75
        {"inversesawtooth 0.5 0.25 0 1", 0.25f, 0.6875f},  // 1 - 0.25
        {"inversesawtooth 0.5 0.25 0 1", 0.75f, 0.5625f},  // 1 - 0.75
        {"square 0.5 1 0 1", 0.25f, 1.0f},              // 1.5 clamped to 1
        {"square 0.5 1 0 1", 0.75f, 0.0f},              // -0.5 clamped to 0
    };
    for (const Case& c : cases) {
        WallSpec spec;
        spec.files = {{"textures/luxel/white.tga", tgaSolid({255, 255, 255, 255})}};
        spec.script = std::string(R"(textures/luxel/wall
{
	{
		map textures/luxel/white.tga
		rgbGen wave )") + c.wave + R"(
	}
}
)";
        const WallMap map(spec, c.time);
        REQUIRE(map.look().program);
        for (Look look : {Look::EngineWindowed, Look::Linear}) {
            INFO("rgbGen wave " << c.wave << " at t = " << c.time << ", look " << name(look));
            checkNear(map.centre(look), Vec3{c.want, c.want, c.want});
        }
    }
}

TEST_CASE("alphaGen const, wave, vertex, oneMinusVertex: a blend stage mixed by the generated alpha", "[program]") {
    // First stage dst.tga D = (0.2, 0.4, 0.6); second an opaque white texture, blendFunc blend, rgbGen identity,
    // its alpha a from alphaGen: result = 1 * a + D * (1 - a). The east wall's vertex alpha is 64 / 255.
    // alphaGen wave is EvalWaveFormClamped (no identityLight), so the engine look shows it too.
    const Vec3 D{0.2f, 0.4f, 0.6f}, one{1, 1, 1};
    struct Case {
        const char* alphaGen;
        float time, a;
    };
    const float va = 64.0f / 255.0f;
    const Case cases[] = {
        {"const 0.25", 0, 0.25f},
        {"const 0.75", 3, 0.75f},
        {"wave sawtooth 0 1 0 1", 0.25f, 0.25f},
        {"wave sawtooth 0 1 0 1", 0.75f, 0.75f},
        {"wave sin 0.5 0.5 0 1", 0.25f, 1.0f},
        {"wave square 0.5 1 0 1", 0.75f, 0.0f},  // -0.5 clamped to 0
        {"wave square 0.5 1 0 1", 0.25f, 1.0f},  // 1.5 clamped to 1
        {"vertex", 0, va},
        {"oneMinusVertex", 0, 1 - va},
    };
    for (const Case& c : cases) {
        WallSpec spec;
        spec.vertexColor = {32, 16, 48, 64};
        spec.files = {{"textures/luxel/dst.tga", tgaSolid({51, 102, 153, 255})},
                      {"textures/luxel/white.tga", tgaSolid({255, 255, 255, 255})}};
        spec.script = std::string(R"(textures/luxel/wall
{
	{
		map textures/luxel/dst.tga
		rgbGen identity
	}
	{
		map textures/luxel/white.tga
		blendFunc blend
		rgbGen identity
		alphaGen )") + c.alphaGen + R"(
	}
}
)";
        const WallMap map(spec, c.time);
        for (Look look : kLooks) {
            INFO("alphaGen " << c.alphaGen << " at t = " << c.time << ", look " << name(look));
            checkNear(map.centre(look), shown(look, one * c.a + D * (1 - c.a)));
        }
    }
}

namespace {

// The centre pixel of the east wall drawn with quad.tga under `stage` (the lines of one stage after its map),
// linear look: exactly the colour of the quadrant the stage's coordinates land in.
Vec3 quadPixel(const std::string& stage, float time, Vec2 st0 = {0.25f, 0.25f}, const char* map = "map",
               bool program = true) {
    WallSpec spec;
    spec.st0 = st0;
    spec.files = {{"textures/luxel/quad.tga", tgaQuadrants({kQuadA, kQuadB, kQuadC, kQuadE})}};
    spec.script = std::string("textures/luxel/wall\n{\n\t{\n\t\t") + map + " textures/luxel/quad.tga\n\t\trgbGen identity\n" +
                  stage + "\n\t}\n}\n";
    const WallMap m(spec, time);
    REQUIRE(bool(m.look().program) == program);
    return m.centre(Look::Linear);
}

}  // namespace

TEST_CASE("tcMod: the texture's orientation and the sample point (no change)", "[program]") {
    // The quadrants as laid out in the file (top row first): the centre pixel samples (0.25, 0.25) -> A,
    // (0.75, 0.25) -> B, (0.25, 0.75) -> C, (0.75, 0.75) -> E. (rgbGen const 1 1 1 makes it a program.)
    checkNear(quadPixel("\t\trgbGen const ( 1 1 1 )", 0, {0.25f, 0.25f}), rgb(kQuadA));
    checkNear(quadPixel("\t\trgbGen const ( 1 1 1 )", 0, {0.75f, 0.25f}), rgb(kQuadB));
    checkNear(quadPixel("\t\trgbGen const ( 1 1 1 )", 0, {0.25f, 0.75f}), rgb(kQuadC));
    checkNear(quadPixel("\t\trgbGen const ( 1 1 1 )", 0, {0.75f, 0.75f}), rgb(kQuadE));
}

TEST_CASE("tcMod scroll: the offset speed x t, at two times", "[program]") {
    // RB_CalcScrollTexCoords: s += frac(speedS t), t += frac(speedT t). From (0.25, 0.25):
    checkNear(quadPixel("\t\ttcMod scroll 0.5 0", 0), rgb(kQuadA));     // no offset yet
    checkNear(quadPixel("\t\ttcMod scroll 0.5 0", 1), rgb(kQuadB));     // (0.75, 0.25)
    checkNear(quadPixel("\t\ttcMod scroll 0.5 0", 2), rgb(kQuadA));     // offset 1: frac 0
    checkNear(quadPixel("\t\ttcMod scroll 0.5 0", 3), rgb(kQuadB));     // 1.5: frac 0.5
    checkNear(quadPixel("\t\ttcMod scroll 0 -0.5", 1), rgb(kQuadC));    // frac(-0.5) = 0.5: (0.25, 0.75)
    checkNear(quadPixel("\t\ttcMod scroll 0.5 0.5", 1), rgb(kQuadE));   // (0.75, 0.75)
}

TEST_CASE("tcMod scroll keeps only the offset's fraction (visible with clampMap)", "[program]") {
    // clampMap clamps the coordinates to the texture (GL_CLAMP_TO_EDGE), so an offset of 1.375 and its fraction
    // 0.375 differ: the engine adds frac(1.375 x 1) = 0.375 -> s = 0.625 (B); at t = 3, frac(4.125) = 0.125 ->
    // s = 0.375 (A). Without taking the fraction s would be 1.625 and 4.375, clamped to the right edge.
    checkNear(quadPixel("\t\ttcMod scroll 1.375 0", 1, {0.25f, 0.25f}, "clampMap"), rgb(kQuadB));
    checkNear(quadPixel("\t\ttcMod scroll 1.375 0", 3, {0.25f, 0.25f}, "clampMap"), rgb(kQuadA));
}

TEST_CASE("tcMod scale: static, drawn the same as one texture and as a program", "[program]") {
    // RB_CalcScaleTexCoords: (s, t) x (3, 1): (0.25, 0.25) -> (0.75, 0.25): B; (-1, 1): (-0.25, 0.25), wrapped
    // to 0.75: B; (1, 3): (0.25, 0.75): C. The same at any time.
    for (float time : {0.0f, 5.5f}) {
        INFO("t = " << time);
        checkNear(quadPixel("\t\ttcMod scale 3 1", time, {0.25f, 0.25f}, "map", false), rgb(kQuadB));  // one texture
        checkNear(quadPixel("\t\ttcMod scale 3 1\n\t\trgbGen const ( 1 1 1 )", time), rgb(kQuadB));    // a program
        checkNear(quadPixel("\t\ttcMod scale -1 1\n\t\trgbGen const ( 1 1 1 )", time), rgb(kQuadB));
        checkNear(quadPixel("\t\ttcMod scale 1 3\n\t\trgbGen const ( 1 1 1 )", time), rgb(kQuadC));
    }
}

TEST_CASE("tcMod rotate: about (0.5, 0.5) by -degrees x t", "[program]") {
    // RB_CalcRotateTexCoords at 90 degrees a second: t = 1 -> -90 degrees, sin -1, cos 0: s' = t, t' = 1 - s;
    // (0.25, 0.25) -> (0.25, 0.75): C. t = 2 -> -180: (1 - s, 1 - t) = (0.75, 0.75): E. t = 3 -> -270:
    // (1 - t, s) = (0.75, 0.25): B. t = 4: a whole turn: A.
    checkNear(quadPixel("\t\ttcMod rotate 90", 1), rgb(kQuadC));
    checkNear(quadPixel("\t\ttcMod rotate 90", 2), rgb(kQuadE));
    checkNear(quadPixel("\t\ttcMod rotate 90", 3), rgb(kQuadB));
    checkNear(quadPixel("\t\ttcMod rotate 90", 4), rgb(kQuadA));
    checkNear(quadPixel("\t\ttcMod rotate -90", 1), rgb(kQuadB));  // +90: s' = 1 - t, t' = s -> (0.75, 0.25)
}

TEST_CASE("tcMod stretch: scaled about (0.5, 0.5) by 1 / the wave", "[program]") {
    // RB_CalcStretchTexCoords: p = 1 / wave, s' = p s + 0.5 - 0.5 p (the same for t). Square wave 1 +- 0.5:
    // t = 0.25 -> 1.5, p = 2/3: (0.375, 0.125) -> (0.4167, 0.25): A. t = 0.75 -> 0.5, p = 2:
    // (0.25, -0.25) -> (0.25, 0.75): C.
    checkNear(quadPixel("\t\ttcMod stretch square 1 0.5 0 1", 0.25f, {0.375f, 0.125f}), rgb(kQuadA));
    checkNear(quadPixel("\t\ttcMod stretch square 1 0.5 0 1", 0.75f, {0.375f, 0.125f}), rgb(kQuadC));
    // Sawtooth 0.5 + 0.5 frac, from (0.125, 0.375): t = 0 -> 0.5, p = 2: (-0.25, 0.25) = (0.75, 0.25): B;
    // t = 0.875 -> 0.9375, p = 16/15: (0.1, 0.3667): A.
    checkNear(quadPixel("\t\ttcMod stretch sawtooth 0.5 0.5 0 1", 0, {0.125f, 0.375f}), rgb(kQuadB));
    checkNear(quadPixel("\t\ttcMod stretch sawtooth 0.5 0.5 0 1", 0.875f, {0.125f, 0.375f}), rgb(kQuadA));
}

TEST_CASE("tcMod transform: s' = s m00 + t m10 + t0, t' = s m01 + t m11 + t1 (arguments m00 m01 m10 m11 t0 t1)",
          "[program]") {
    // From (0.375, 0.125):
    for (float time : {0.0f, 7.0f}) {
        INFO("t = " << time);
        // A swap plus 0.5: s' = t + 0.5 = 0.625, t' = s = 0.375: B.
        checkNear(quadPixel("\t\ttcMod transform 0 1 1 0 0.5 0", time, {0.375f, 0.125f}), rgb(kQuadB));
        // Translation of t: (0.375, 0.625): C.
        checkNear(quadPixel("\t\ttcMod transform 1 0 0 1 0 0.5", time, {0.375f, 0.125f}), rgb(kQuadC));
        // A shear: s' = s + 2t = 0.625, t' = t = 0.125: B (with m01 and m10 read the other way round it would be
        // (0.375, 0.875): C).
        checkNear(quadPixel("\t\ttcMod transform 1 0 2 1 0 0", time, {0.375f, 0.125f}), rgb(kQuadB));
    }
}

TEST_CASE("tcMods apply in the order written", "[program]") {
    // From (0.375, 0.25) at t = 1: scroll 0.5 then scale 2 1: s = (0.375 + 0.5) x 2 = 1.75 -> 0.75: B;
    // scale then scroll: s = 0.75 + 0.5 = 1.25 -> 0.25: A.
    checkNear(quadPixel("\t\ttcMod scroll 0.5 0\n\t\ttcMod scale 2 1", 1, {0.375f, 0.25f}), rgb(kQuadB));
    checkNear(quadPixel("\t\ttcMod scale 2 1\n\t\ttcMod scroll 0.5 0", 1, {0.375f, 0.25f}), rgb(kQuadA));
}

TEST_CASE("animMap: frame floor(t x frequency) modulo the frames", "[program]") {
    // R_BindAnimatedImage: index = (int)(t x speed x 1024) >> 10, negative -> 0, modulo the frame count.
    const Rgba frames[3] = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}};
    struct Case {
        float time;
        int frame;
    };
    const Case cases[] = {{0, 0}, {0.4f, 0}, {0.5f, 1}, {0.99f, 1}, {1.2f, 2}, {1.6f, 0}, {2.6f, 2}, {-0.25f, 0}, {-0.6f, 0}};
    for (bool program : {false, true}) {
        for (const Case& c : cases) {
            WallSpec spec;
            for (int k = 0; k < 3; ++k)
                spec.files.push_back({"textures/luxel/f" + std::to_string(k) + ".tga", tgaSolid(frames[k])});
            // One stage alone is drawn as one texture; with rgbGen const it is a program. Both pick the frame.
            spec.script = std::string(R"(textures/luxel/wall
{
	{
		animMap 2 textures/luxel/f0.tga textures/luxel/f1.tga textures/luxel/f2.tga
		rgbGen )") + (program ? "const ( 1 1 1 )" : "identity") + R"(
	}
}
)";
            const WallMap map(spec, c.time);
            INFO("t = " << c.time << (program ? ", program" : ", one texture"));
            REQUIRE(bool(map.look().program) == program);
            checkNear(map.centre(Look::Linear), rgb(frames[c.frame]));
        }
    }
}

TEST_CASE("animMap keeps at most eight frames, as the engine", "[program]") {
    // MAX_IMAGE_ANIMATIONS 8: a ninth frame is dropped, so at frequency 1, t = 8 shows frame 8 mod 8 = 0.
    WallSpec spec;
    std::string frames;
    for (int k = 0; k < 9; ++k) {
        spec.files.push_back({"textures/luxel/g" + std::to_string(k) + ".tga", tgaSolid({uint8_t(20 * k + 10), 0, 0, 255})});
        frames += " textures/luxel/g" + std::to_string(k) + ".tga";
    }
    spec.script = "textures/luxel/wall\n{\n\t{\n\t\tanimMap 1" + frames + "\n\t\trgbGen const ( 1 1 1 )\n\t}\n}\n";
    checkNear(WallMap(spec, 8.5f).centre(Look::Linear), rgb({10, 0, 0, 255}));
    checkNear(WallMap(spec, 7.5f).centre(Look::Linear), rgb({150, 0, 0, 255}));
}

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
        Vec3 centre{};
        for (uint32_t k = 0; k < surf.numVertices; ++k) centre += world.vertices[surf.firstVertex + k].position;
        centre = centre * (1.0f / float(surf.numVertices));
        const Vec3 n = normalize(surf.normal);
        const Vec3 eye = centre + n * 64.0f;
        if (findCluster(world, eye) < 0) continue;
        const Vec3 d = n * -1.0f;
        const float pitch = float(std::asin(std::clamp(-d.z, -1.0f, 1.0f)) * 180.0 / std::numbers::pi);
        const float yaw = float(std::atan2(d.y, d.x) * 180.0 / std::numbers::pi);
        const Camera cam = makeCamera(eye, {pitch, yaw, 0}, 240, 160);
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

TEST_CASE("rgbGen wave and oneMinusVertex are times identityLight in the engine look", "[program]") {
    // RB_CalcWaveColor: glow = wave * identityLight, then clamped; identityLight is 1/2 in the full-screen
    // configuration, whose display doubles the framebuffer back. sin 0.5 0.25 at t = 0.25: 0.75 -> 0.375 in the
    // framebuffer -> 0.75 shown; square 0.5 1 at t = 0.25: 1.5 -> 0.75 (not clamped at 1 first) -> 1.5 -> 1.
    for (const auto& [wave, time, want] : {std::tuple{"sin 0.5 0.25 0 1", 0.25f, 0.75f}, std::tuple{"sin 0.5 0.25 0 1", 0.75f, 0.25f},
                                           std::tuple{"square 0.5 1 0 1", 0.25f, 1.0f}}) {
        WallSpec spec;
        spec.files = {{"textures/luxel/white.tga", tgaSolid({255, 255, 255, 255})}};
        spec.script = std::string("textures/luxel/wall\n{\n\t{\n\t\tmap textures/luxel/white.tga\n\t\trgbGen wave ") + wave +
                      "\n\t}\n}\n";
        const WallMap map(spec, time);
        INFO("rgbGen wave " << wave << " at " << time);
        checkNear(map.centre(Look::Engine), Vec3{want, want, want});
    }
    // oneMinusVertex: (1 - 2v / 255) x identityLight in the framebuffer, doubled on display: B (1 - 2v / 255).
    const Vec3 v2 = Vec3{64, 32, 96} * (1.0f / 255.0f);
    checkNear(rgbGenPixel("oneMinusVertex", Look::Engine), kBase * (Vec3{1, 1, 1} - v2));
}

TEST_CASE("alphaGen multiplies the texture's alpha (GL_MODULATE); rgbGen vertex keeps the vertex alpha at identityLight 1",
          "[program]") {
    // First stage D = (0.2, 0.4, 0.6); second a white texture of alpha 128, blendFunc blend: a = generated alpha x
    // 128 / 255, result a + D (1 - a), linear look.
    const Vec3 D{0.2f, 0.4f, 0.6f}, one{1, 1, 1};
    const float ta = 128.0f / 255.0f, va = 64.0f / 255.0f;
    struct Case {
        const char* gens;
        float a;
    };
    for (const Case& c : {Case{"rgbGen identity\n\t\talphaGen const 0.5", 0.5f * ta}, Case{"rgbGen identity\n\t\talphaGen vertex", va * ta},
                          Case{"rgbGen identity\n\t\talphaGen oneMinusVertex", (1 - va) * ta},
                          Case{"rgbGen identity", ta}}) {
        WallSpec spec;
        spec.vertexColor = {32, 16, 48, 64};
        spec.files = {{"textures/luxel/dst.tga", tgaSolid({51, 102, 153, 255})},
                      {"textures/luxel/half.tga", tgaSolid({255, 255, 255, 128})}};
        spec.script = std::string("textures/luxel/wall\n{\n\t{\n\t\tmap textures/luxel/dst.tga\n\t\trgbGen identity\n\t}\n"
                                  "\t{\n\t\tmap textures/luxel/half.tga\n\t\tblendFunc blend\n\t\t") +
                      c.gens + "\n\t}\n}\n";
        const WallMap map(spec, 0);
        INFO(c.gens);
        checkNear(map.centre(Look::Linear), one * c.a + D * (1 - c.a));
    }
    // rgbGen vertex with no alphaGen: ComputeColors leaves the vertex alpha when identityLight is 1 (windowed),
    // sets 255 otherwise (engine). Colour: white x vertex light (4v / 255 windowed; 2v / 255 x 1/2 engine).
    WallSpec spec;
    spec.vertexColor = {32, 16, 48, 64};
    spec.files = {{"textures/luxel/dst.tga", tgaSolid({51, 102, 153, 255})},
                  {"textures/luxel/white.tga", tgaSolid({255, 255, 255, 255})}};
    spec.script = "textures/luxel/wall\n{\n\t{\n\t\tmap textures/luxel/dst.tga\n\t\trgbGen identity\n\t}\n"
                  "\t{\n\t\tmap textures/luxel/white.tga\n\t\tblendFunc blend\n\t\trgbGen vertex\n\t}\n}\n";
    const WallMap map(spec, 0);
    const Vec3 v4 = Vec3{128, 64, 192} * (1.0f / 255.0f);
    checkNear(map.centre(Look::EngineWindowed), v4 * va + D * (1 - va));
    const Vec3 v2 = Vec3{64, 32, 96} * (1.0f / 255.0f);
    checkNear(map.centre(Look::Engine), clamp01(v2 * 0.5f * 2.0f));  // alpha 1: the stage replaces D
}

TEST_CASE("clampMap holds the edge texels (GL_CLAMP_TO_EDGE), never the opposite edge", "[program]") {
    // s = 1.25 (transform shifts by 1) lands past the right edge: the right column, quadrant B; s = -0.75: the
    // left column, A. At s = 0.0116 (within half a texel of the left edge, 1/16), still A, not a mix with B.
    checkNear(quadPixel("\t\ttcMod transform 1 0 0 1 1 0", 0, {0.25f, 0.25f}, "clampMap"), rgb(kQuadB));
    checkNear(quadPixel("\t\ttcMod transform 1 0 0 1 -1 0", 0, {0.25f, 0.25f}, "clampMap"), rgb(kQuadA));
    checkNear(quadPixel("\t\ttcMod transform 1 0 0 1 0 0", 0, {0.01f, 0.25f}, "clampMap"), rgb(kQuadA));
}

TEST_CASE("tcMod turb: the engine's sine table at each vertex, interpolated across the wall", "[program]") {
    // The east wall's corners are x = 256, y = +-256, z = 0 or 256. RB_CalcTurbulentTexCoords offsets s by
    // amplitude * sin(2 pi ((x + z) / 1024 + now)) and t by amplitude * sin(2 pi (y / 1024 + now)). At now = 0
    // the corners get (1, -1), (1, 1), (0, 1), (0, -1) x amplitude ((x + z) / 1024 = 0.25 or 0.5; y / 1024 =
    // -+0.25); the centre pixel lies on a diagonal of the two-triangle wall, where either diagonal averages to
    // (0.5, 0) x amplitude. Amplitude 0.75: s moves by 0.375, from quadrant A (0.25) to B (0.625).
    checkNear(quadPixel("\t\ttcMod turb 0 0.75 0 1", 0, {0.25f, 0.25f}), rgb(kQuadB));
    // now = 0.25 (t = 0.25 s, frequency 1): s offsets sin(2 pi 0.5) = 0 and sin(2 pi 0.75) = -1, t offsets 0
    // and sin(2 pi 0.5) = 0: the diagonal average is (-0.5, 0) x 0.75: s from 0.75 (B) to 0.375 (A).
    checkNear(quadPixel("\t\ttcMod turb 0 0.75 0 1", 0.25f, {0.75f, 0.25f}), rgb(kQuadA));
    // A scale after the turb scales its offset too: turb then scale 2 1 gives 2 x (0.25 + 0.375) = 1.25 -> 0.25
    // (A); scale 2 1 then turb gives 2 x 0.25 + 0.375 = 0.875 (B).
    checkNear(quadPixel("\t\ttcMod scale 2 1\n\t\ttcMod turb 0 0.75 0 1", 0, {0.25f, 0.25f}), rgb(kQuadB));
    checkNear(quadPixel("\t\ttcMod turb 0 0.75 0 1\n\t\ttcMod scale 2 1", 0, {0.25f, 0.25f}), rgb(kQuadA));
}

TEST_CASE("tcGen vector: coordinates from the position, then the stage's tcMods", "[program]") {
    // s = -y / 512, t = z / 1024 at the centre pixel (y ~ 0, z ~ 128): (0, 0.125); the transform moves them
    // by (0.75, 0.125) to (0.75, 0.25): quadrant B, where the base coordinates (0.25, 0.25) give A.
    checkNear(quadPixel("\t\ttcGen vector ( 0 -0.001953125 0 ) ( 0 0 0.0009765625 )\n\t\ttcMod transform 1 0 0 1 0.75 0.125", 0),
              rgb(kQuadB));
    checkNear(quadPixel("\t\ttcMod transform 1 0 0 1 0 0", 0), rgb(kQuadA));
}

TEST_CASE("alphaGen portal: each vertex's distance from the eye over the range, interpolated", "[program]") {
    // The east wall's corners (256, +-256, 0 or 256) are all sqrt(256^2 + 256^2 + 128^2) = 384 from the eye at
    // (0, 0, 128): alpha 384 / 768 = 0.5 everywhere (range 768), 1 for a range of 300 (clamped). A white stage
    // blended over D = (0.2, 0.4, 0.6): a + D (1 - a), linear look.
    const Vec3 D{0.2f, 0.4f, 0.6f}, one{1, 1, 1};
    for (const auto& [range, a] : {std::pair{"768", 0.5f}, std::pair{"300", 1.0f}}) {
        WallSpec spec;
        spec.files = {{"textures/luxel/dst.tga", tgaSolid({51, 102, 153, 255})},
                      {"textures/luxel/white.tga", tgaSolid({255, 255, 255, 255})}};
        spec.script = std::string("textures/luxel/wall\n{\n\t{\n\t\tmap textures/luxel/dst.tga\n\t\trgbGen identity\n\t}\n"
                                  "\t{\n\t\tmap textures/luxel/white.tga\n\t\tblendFunc blend\n\t\trgbGen identity\n\t\talphaGen portal ") +
                      range + "\n\t}\n}\n";
        const WallMap map(spec, 0);
        INFO("range " << range);
        checkNear(map.centre(Look::Linear), one * a + D * (1 - a));
    }
}

TEST_CASE("a stage whose image fails to decode is white; the stages after it keep their own images", "[program]") {
    // bad.tga is not an image: its stage is drawn with a white texture (0.25 grey by its rgbGen const); good.tga
    // (0.2, 0.4, 0.6) is added over it. The texture list has one entry fewer than the requests, so every index
    // after the failed one must be moved down.
    WallSpec spec;
    spec.files = {{"textures/luxel/bad.tga", Bytes{'n', 'o', 't', ' ', 'a', 'n', ' ', 'i', 'm', 'a', 'g', 'e'}},
                  {"textures/luxel/good.tga", tgaSolid({51, 102, 153, 255})}};
    spec.script = "textures/luxel/wall\n{\n\t{\n\t\tmap textures/luxel/bad.tga\n\t\trgbGen const ( 0.25 0.25 0.25 )\n\t}\n"
                  "\t{\n\t\tmap textures/luxel/good.tga\n\t\tblendFunc add\n\t\trgbGen identity\n\t}\n}\n";
    const WallMap map(spec, 0);
    REQUIRE(map.look().program);
    CHECK(map.materials().textures.size() == 1);
    checkNear(map.centre(Look::Linear), Vec3{0.45f, 0.65f, 0.85f});
}
