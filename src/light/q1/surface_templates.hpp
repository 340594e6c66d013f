#pragma once
// ericw-tools' _surface light templates for Quake 1 and Half-Life (entities.cc MakeSurfaceLights): a light
// entity with "_surface" "TEXTURE" lights nothing itself; every face of that texture (any case) is cut by
// GLQuake's SubdividePolygon into pieces of at most surflight_subdivide (128) units on each axis, and each
// piece gets a copy of the template at its centroid, "_surface_offset" (2) units along the face's normal, a
// spotlight along the normal with "_surface_spotlight" 1. Templates with "_surface_radiosity" other than 0
// (Quake 2's radiosity lights) are left to the surface-light code.
#include <string>
#include <vector>

#include "luxel/bsp/world.hpp"

namespace luxel {

// The light entities the templates make, in surface order, each the template's pairs with "_surface"
// removed, "origin" set (and "mangle" along the normal for a spotlight).
std::vector<Entity> surfaceTemplateLights(const World& world, std::vector<std::string>& notes);

}  // namespace luxel
