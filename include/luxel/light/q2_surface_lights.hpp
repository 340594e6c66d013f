#pragma once
// Quake 2 surface lights as ericw-tools makes them (surflight.cc MakeSurfaceLight, ltface.cc
// GetSurfaceLighting): every face whose texinfo has SURF_LIGHT and a value > 0, of at least one square unit,
// whose texture is found, emits c = T / 255 x value (T its texture's mean colour, 0..255), I = max(c), the
// colour c / I when I > 1 (else c itself: a dim emitter counts its colour twice, as there), total I x area,
// from one point one unit in front of the face (light/face_emitter.hpp; -emissivequality low, the default),
// or with `subdivide` > 0 (-emissivequality high) from the centre of each piece of the face diced by a grid
// of that size, each point taking total / pieces. A receiver gets colour x point x surflightscale x
// (0.5 + 0.5 e)(0.5 + 0.5 r) / max(d, 16)^2 (e, r the emitter's and receiver's cosines; `_surflight_rescale`
// 0: e r), nothing below -0.01 either; a sky face (SURF_SKY) emits everywhere with 0.5 r and
// surflightskyscale. A texture not found emits nothing (its mean colour is black to ericw-tools).
// The emitting face itself is raised to at least T x value / 255 (self-minlight), which `selfMinimum` gets.
#include <string>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/light/lights.hpp"
#include "luxel/light/q2_lights.hpp"
#include "luxel/material/material_set.hpp"

namespace luxel {

struct Q2SurfaceLightOptions {
    float subdivide = 0;            // > 0: dice faces into pieces of this size (ericw-tools' _surflightsubdivision)
    size_t maxPiecesPerFace = 4096; // a face that would dice into more is diced coarser, with a warning
    std::vector<bool> noRescale;    // per material: plain cosines (texinfo json surflight_rescale false)
};

// The surface lights of `world`'s faces (every model's), in face order. `materials`: the loaded textures
// (nullptr: none found). `selfMinimum` (per world surface, resized here) gets each emitter's own floor in
// luxel units; `problems` one line per kind of thing left out or bounded.
std::vector<Light> quake2SurfaceLights(const World& world, const MaterialSet* materials, const EricwWorld& settings,
                                       const Q2SurfaceLightOptions& options, std::vector<Vec3>& selfMinimum,
                                       std::vector<std::string>* problems = nullptr);

}  // namespace luxel
