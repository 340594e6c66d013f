#pragma once
// The faces of the world's light-blocking brushes (World::brushes) as triangles, for shadow rays only: each
// side's plane clipped to the brush by every other side's plane, as the compilers build brush faces for
// their tracers (vrad AddBrushToRaytraceEnvironment: BaseWindingForPlane, then ChopWindingInPlace by the
// other sides). Faces of no area (bevels, sides that touch the brush at an edge) are left out, and so are
// brushes the sides do not close (a face reaching past +-98304), and brushes of more than kMaxBrushSides sides.
#include <cstdint>
#include <vector>

#include "luxel/bsp/world.hpp"

namespace luxel {

struct BrushFaces {
    std::vector<Vec3> vertices;
    std::vector<uint32_t> indices;  // triangles
    std::vector<uint8_t> sky;       // per triangle: its side is BrushSide::sky
    size_t triangleCount() const { return indices.size() / 3; }
};

// Every face of every brush, in brush and side order (deterministic).
BrushFaces brushFaces(const World& world);

// One convex polygon: `plane`'s face of the brush bounded by `sides` (the entry at `self` skipped), as
// points in order around it; empty when the face has no area. Exposed for tests.
std::vector<Vec3> brushFace(const std::vector<BrushSide>& sides, size_t self);

}  // namespace luxel
