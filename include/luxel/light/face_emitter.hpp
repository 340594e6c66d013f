#pragma once
// Where ericw-tools puts the light a whole face emits (surflight.cc MakeSurfaceLight, bounce.cc MakeBounceLight
// at its default -emissivequality low): one point, the mean of the face's vertices after dropping those that
// lie on a straight run of its edges (qbsp's t-junction vertices), lifted one unit along the face's normal;
// and the face's area. Shared by Quake 2 surface lights and the face bounce.
#include "luxel/bsp/world.hpp"

namespace luxel {

struct FaceEmitter {
    Vec3 point, normal;
    float area = 0;  // square units (a fan of triangles over the vertices)
};

// The emitter of polygon surface `surface` of `world` (its vertices in order around it, Surface::normal its
// front). Any other surface kind: area 0.
FaceEmitter faceEmitter(const World& world, const Surface& surface);

}  // namespace luxel
