#pragma once
// Where the light grid is sampled: a Quake 3 grid point that lies in solid space is moved to open space
// nearby, as q3map2's TraceGrid does (shared by the rebaker and the direct-light baker).
#include <optional>

#include "luxel/bsp/world.hpp"

namespace luxel {

// Whether p lies in a solid leaf (cluster < 0).
bool inSolid(const World& world, Vec3 p);

// q3map2 (TraceGrid) moves a grid point that lies in solid space by growing random offsets of up to half a
// cell until it finds a cluster. The same search, deterministic: offsets of 1/8 .. 1/2 cell along the 26
// neighbour directions, nearest first; nullopt when every leaf within half a cell is solid.
std::optional<Vec3> nudgeOutOfSolid(const World& world, Vec3 p, Vec3 cell);

}  // namespace luxel
