// Quake 3 stage programs, colour and alpha one feature at a time (support/stage_fixtures.hpp): every blend
// factor pair, the default rgbGen, each rgbGen and alphaGen, identityLight where the engine applies it, a
// stage whose image fails to decode; expected pixels computed by hand from ioquake3's renderer (renderergl1:
// tr_shade.c ComputeColors, tr_shade_calc.c RB_Calc*, tr_shader.c ParseStage).
#include <catch2/catch.hpp>

#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "support/stage_fixtures.hpp"

using namespace luxel;
using namespace luxel::test;

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
