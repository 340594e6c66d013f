#pragma once
// Where ericw-tools puts the light a whole face emits (surflight.cc MakeSurfaceLight, bounce.cc MakeBounceLight
// at its default -emissivequality low): one point, the mean of the face's vertices after dropping those that
// lie on a straight run of its edges (qbsp's t-junction vertices), lifted one unit along the face's normal;
// and the face's area. Shared by Quake 2 surface lights and the face bounce.
#include "luxel/bsp/world.hpp"
#include "luxel/light/lights.hpp"

namespace luxel {

struct FaceEmitter {
    Vec3 point, normal;
    float area = 0;  // square units (a fan of triangles over the vertices)
};

// The emitter of polygon surface `surface` of `world` (its vertices in order around it, Surface::normal its
// front). Any other surface kind: area 0.
FaceEmitter faceEmitter(const World& world, const Surface& surface);

// How one of ericw-tools' emitter points reaches a receiver (GetSurfaceLighting): its scale (surflightscale,
// or bouncescale / 2), its hot-spot clamp (16, or 128), the cosines rescaled to 0.5 + 0.5 cos or plain, a sky
// face's emission everywhere (0.5 x the receiver's cosine, folded into `scale` by the caller), dirt.
struct EmitterRules {
    float scale = 1, minDistance = 16;
    bool rescale = false, omnidirectional = false;
    float occlusionScale = 0, occlusionGain = 1;
};

// The Light of one emitter point at `point` facing `normal`, for emitted colour c (ericw-tools' 0..255 units)
// over `area` square units: I = max(c), colour c / I when I > 1 else c itself (a dim emitter counts its colour
// twice, as there), strength I x area; nothing kept below 0.01 of a 0..255 unit, and its envelope where that
// is reached. Light units: / 255.
Light emitterLight(Vec3 point, Vec3 normal, Vec3 c, float area, const EmitterRules& rules);

}  // namespace luxel
