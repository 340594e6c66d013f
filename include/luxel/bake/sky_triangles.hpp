#pragma once
// Which triangles of a ray scene are sky: shadow rays towards suns and sky light must reach one (or pass
// through them), as every compiler's sun trace does.
#include <cstdint>
#include <vector>

#include "luxel/bake/ray_scene.hpp"
#include "luxel/bsp/world.hpp"
#include "luxel/geometry/geometry.hpp"

namespace luxel {

// Per scene triangle, 1 when its surface is drawn as sky (Geometry's Sky shading, or a material flagged
// kMaterialSky), else 0.
std::vector<uint8_t> skyTriangles(const World& world, const Geometry& geometry, const RayScene& scene);

}  // namespace luxel
