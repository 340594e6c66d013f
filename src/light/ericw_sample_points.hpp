#pragma once
// Where ericw-tools' light samples the luxels of a Quake 1, Quake 2 or GoldSrc face (ltface.cc CalcPoints,
// CalcPointNormal, PositionSamplePointOnFace, 7f87221), step for step:
//  * luxel (s, t) starts at its texinfo frame's point, one unit off the plane (ericw_luxel_frame.hpp);
//  * inside the polygon's edge planes (about the polygon's own normal, FaceNormal: its fan's largest
//    triangle, within 0.05) it samples there;
//  * else it walks across the edge it lies least past the ends of (edge planes about the face's plane) onto a
//    face on the same plane or phong-smoothed with it, projected onto that face's plane and lifted again, up
//    to three faces on, and starts over there;
//  * where no face lies across that edge, it snaps to the nearest point of the current face's boundary,
//    lifted off its plane, when that is within one luxel of the first face's block; else it is no sample;
//  * a sample point that the polygon's edge planes leave outside by more than 0.05 is no sample either.
// No sample: the texel gets no luxel (the baker fills it from its neighbours, as light fills occluded samples).
// Sample points in solid are moved out later, by the baker (direct_light.hpp), as light's jitter does.
#include <cstdint>
#include <memory>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/light/luxels.hpp"

namespace luxel {

struct EricwFaces;

// The faces' polygons, planes and edges, built once for a map. `smoothed`: per surface, the surfaces it is
// phong-smoothed with (may be null).
std::shared_ptr<const EricwFaces> ericwFaces(const World& w, const std::vector<std::vector<uint32_t>>* smoothed);

// The luxels of surface s as light samples them, appended to `out`; false (nothing appended) when s has no
// texinfo frame, which the caller then rasterises.
bool ericwSurfaceLuxels(const World& w, const EricwFaces& faces, uint32_t s, std::vector<Luxel>& out);

}  // namespace luxel
