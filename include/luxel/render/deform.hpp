#pragma once
// Surfaces whose vertices change when drawn (Quake 3 deformVertexes): wave, normal, bulge and move at the frame's time,
// autosprite / autosprite2 quads turned to face the camera. The renderer draws such a surface from the vertices made here.
#include <cstdint>
#include <vector>

#include "luxel/geometry/geometry.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/render/camera.hpp"

namespace luxel {

// The surface's triangles with `deforms` applied in order for `view` at `time`: new vertices appended to
// `pool`, and its triangles as pool indices (3 per triangle) appended to `triangles`. Autosprite needs the
// surface's vertices in quads of four (ioquake3 AutospriteDeform); a surface that is not is left as it is.
void deformSurface(const std::vector<Deform>& deforms, const Geometry& geometry, const DrawSurface& surface,
                   const View& view, float time, std::vector<DrawVertex>& pool, std::vector<uint32_t>& triangles);

}  // namespace luxel
