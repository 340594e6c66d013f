// Quake 3 stage programs, texture coordinates one feature at a time (support/stage_fixtures.hpp): each tcMod
// at two times and their order, animMap frames, clampMap, tcMod turb, tcGen vector; expected texels computed
// by hand from ioquake3's renderer (tr_shade.c ComputeTexCoords, R_BindAnimatedImage, tr_shade_calc.c).
#include <catch2/catch.hpp>

#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "support/stage_fixtures.hpp"

using namespace luxel;
using namespace luxel::test;

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
