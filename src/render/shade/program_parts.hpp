#pragma once
// Internal to the render stage: what the scalar stage-program loop (program.cpp) shares with its AVX2
// loop (avx2_program.cpp).
#include "parts.hpp"

namespace luxel::render::shading {

extern const AlbedoTable kRawTexels;  // MaterialStage::rawTexels: bytes / 255

// The largest squared stretch of the stage's affine map (its footprint scale).
inline float affineScale2(const MaterialStage& s) {
    return std::max(s.affine[0] * s.affine[0] + s.affine[1] * s.affine[1], s.affine[2] * s.affine[2] + s.affine[3] * s.affine[3]);
}

// What a program triangle's pixels share: lightmap page views, the look's light transform, one footprint per
// stage texture (base coordinates, or the tcGen vector ones; the stage's own scale enters per pixel), and
// each turbulent stage's coordinate offsets at the triangle's three vertices (after the mods that follow it).
struct ProgramSetup {
    PageView pages[kMaxLightmapSlots];
    ProgramLight pl;
    TexFootprint feet[kMaxProgramStages];
    Vec2 turb[kMaxProgramStages][3];
};

ProgramSetup programSetup(const ShadeContext& ctx, const TriShade& t, uint32_t tri, const LookParams& lp);

#if defined(LUXEL_SHADE_AVX2)
// programRun's pixels 8 at a time, for programs whose stages it covers (programFitsAvx2); writes n pixels.
bool programFitsAvx2(const ShadeContext& ctx, const TriShade& t);
LUXEL_AVX2 void programRunAvx2(const ShadeContext& ctx, const TriShade& t, const ProgramSetup& s, const LookParams& lp,
                               uint32_t tri, int px0, int py, const float* depth, int n, float* out);
#endif

}  // namespace luxel::render::shading
