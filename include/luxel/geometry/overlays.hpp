#pragma once
// Overlays (World::overlays) cut into fragments on their faces as the Source engine does at map load
// (COverlayMgr::Surf_CreateFragments, engine/Overlay.cpp): for each fan triangle of a listed face (area over 1),
// the overlay quad is clipped on the overlay plane by the planes through the triangle's edges projected there
// (normal x edge, ε 0.0001, keeping the side of the third corner); each kept corner is moved along the overlay
// normal onto the face's plane and 0.1 unit off it along the face normal (OVERLAY_AVOID_FLICKER_NORMAL_OFFSET),
// its texture coordinate is the quad's bilinear coordinate of the point (PointInQuadToBarycentric on corners
// 0, 3, 2, 1) mapped onto the U and V ranges, and its lightmap coordinate the face's own at the point on the
// face. Fragments are appended as Polygon surfaces (the overlay's material, the face's lightmap page, styles and
// vertex colour), wound like their face and listed by the face's leaves. Faces with a displacement are
// skipped: the engine clips overlays to the displaced grid, which luxel does not (yet).
#include <cstddef>

#include "luxel/bsp/world.hpp"

namespace luxel {

struct OverlaysPlaced {
    size_t overlays = 0;           // overlays with at least one fragment
    size_t fragments = 0;          // surfaces added
    size_t displacementFaces = 0;  // (overlay, face) pairs left out: the face is a displacement
};

OverlaysPlaced placeOverlays(World& world);

// The bilinear coordinate (s along a -> b, t along a -> d) of point p in the quad a b c d
// (2D, a at (0, 0), b (1, 0), c (1, 1), d (0, 1)); exact for parallelograms. Exposed for tests.
Vec2 quadCoordinate(Vec2 a, Vec2 b, Vec2 c, Vec2 d, Vec2 p);

}  // namespace luxel
