#pragma once
// The order blended surfaces are drawn in (internal to the render stage). Quake 3 does not sort them by
// depth: ioquake3 radix-sorts its draw surfaces by a key of the shader's sort value and the shader's index
// (shaders of one sort value in the order they were first loaded, which for a map is the order its surfaces
// first use them), stable for equal keys, so surfaces of one shader keep the order R_RecursiveWorldNode added
// them in (children[0] before children[1], each leaf's surfaces in order, a surface at its first leaf).
// Quake 2 and Source draw translucent surfaces back to front; luxel takes the farthest vertex depth there.
#include <cstdint>
#include <vector>

#include "luxel/bsp/world.hpp"

namespace luxel::render {

struct DrawOrder {
    std::vector<uint32_t> materialRank;  // per World::materials entry: the order of first use by surfaces
    std::vector<uint32_t> surfaceRank;   // per World::surfaces entry: its place in the tree walk
};

// Ranks for `world` (surfaces the walk never reaches come after the others, by index; a hostile tree with
// cycles or bad children is walked at most once per node).
DrawOrder engineDrawOrder(const World& world);

}  // namespace luxel::render
