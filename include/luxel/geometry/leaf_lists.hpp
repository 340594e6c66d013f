#pragma once
// Surfaces added to a World after decoding (static props, overlay fragments) joined to the leaves' surface
// lists, so PVS culling treats them like the map's own surfaces.
#include <cstdint>
#include <vector>

#include "luxel/bsp/world.hpp"

namespace luxel {

// Rebuilds World::leafSurfaces with surfacesOfLeaf[l] appended to leaf l's list (surfacesOfLeaf has one
// entry per leaf). A leaf's range past the old list is clamped, as culling reads it.
void appendLeafSurfaces(World& world, const std::vector<std::vector<uint32_t>>& surfacesOfLeaf);

}  // namespace luxel
