#pragma once
// Baking a map whose lightmaps were laid out anew (DecodeOptions::relayoutLightmaps: one style-0 block a
// lit face), as a light tool lights a map fresh from qbsp and vis: every light style present is baked in a
// pass of its own over the same blocks, then each face keeps the styles ericw-tools would keep
// (write.cc CalculateLightmapStyles): those whose brightest luxel reaches 1 in the compiler's 0..255 units
// (Quake 1 and Half-Life; Quake 2 keeps style 0 always), brightest on average first, at most 4.
#include <string>
#include <utility>
#include <vector>

#include "luxel/bake/direct_light.hpp"
#include "luxel/light/map_lights.hpp"

namespace luxel {

// One style's light on every lit face, in slot 0 of pages laid out like World::lightmaps.
struct StylePass {
    uint8_t style = 0;
    LightmapSet set;
};

// One pass per style (style 0 first, then ascending). `world`'s surfaces must hold one style-0 slot each;
// their styles are changed during the passes and left at {0}. The rules must fill holes
// (DirectBakeRules::fillSolidSamples, as ericw-tools' do): texels of a face's block no luxel samples take the
// mean of their neighbours, a brush entity's the light at its model's centre (ericw-tools' autominlight).
std::vector<StylePass> bakeEachStyle(World& world, const Geometry& geometry, const RayScene& scene, const MapLights& lights,
                                     const LuxelSamples& samples, DirectBakeStats& stats);

struct StyleChoice {
    LightmapSet set;             // the kept styles' light, slot k = each face's k-th style
    // With direction pages in the passes (World::deluxemaps laid out like the lightmaps): each kept style's
    // unit direction towards its light, slot by slot like `set.slots` (empty: none).
    std::array<std::vector<LightmapPage>, 4> directions;
    size_t facesLit = 0, facesDark = 0;  // faces that kept a style; faces that kept none (stored unlit)
    size_t facesOverflow = 0;    // faces that had light of more than 4 styles (the dimmest were dropped)
    std::vector<std::string> overflowNotes;  // the first few of them, one line each
};

// Chooses each face's styles from the passes and sets them in `world` (Surface::styles; a face that keeps
// none gets {255, ...}). `toCompilerUnits` turns luxel light into the compiler's 0..255 values (Quake 1 and
// Half-Life 255 x 256 / 264, Quake 2 255); `keepStyleZero`: a face with no light keeps style 0 (Quake 2).
StyleChoice chooseFaceStyles(World& world, const std::vector<StylePass>& passes, float toCompilerUnits, bool keepStyleZero);

}  // namespace luxel
