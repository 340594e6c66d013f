#pragma once
// Overlays (World::overlays) cut into fragments on their faces as the Source engine does at map load
// (COverlayMgr::Surf_CreateFragments, engine/Overlay.cpp): for each fan triangle of a listed face (area over 1),
// the overlay quad is clipped on the overlay plane by the planes through the triangle's edges projected there
// (normal x edge, ε 0.0001, keeping the side of the third corner); each kept corner is moved along the overlay
// normal onto the face's plane and 0.1 unit off it along the face normal (OVERLAY_AVOID_FLICKER_NORMAL_OFFSET),
// its texture coordinate is the quad's bilinear coordinate of the point (PointInQuadToBarycentric on corners
// 0, 3, 2, 1) mapped onto the U and V ranges, and its lightmap coordinate the face's own at the point on the
// face. Fragments are appended as Polygon surfaces (the overlay's material, the face's lightmap page, styles and
// vertex colour), wound like their face and listed by the face's leaves. On a displacement face the quad is
// clipped the same way by each displaced triangle (projected on the overlay plane) that faces the overlay normal
// from the face's side, and its corners moved onto that triangle's plane and 0.1 off it along the triangle's
// normal. The engine clips in the flat base face's grid space (Disp_ClipFragment) and lifts the pieces onto the
// displaced grid; luxel projects onto the displaced triangles along the overlay normal instead: the same where
// the displacement moves points along the overlay normal (terrain under a decal laid flat on it), different on
// steep slopes, where the engine's decal follows the grid and luxel's the projection.
#include <cstddef>

#include "luxel/bsp/world.hpp"

namespace luxel {

struct OverlaysPlaced {
    size_t overlays = 0;           // overlays with at least one fragment
    size_t fragments = 0;          // surfaces added
    size_t displacementFaces = 0;  // (overlay, face) pairs with fragments on a displacement
};

OverlaysPlaced placeOverlays(World& world);

// The bilinear coordinate (s along a -> b, t along a -> d) of point p in the quad a b c d
// (2D, a at (0, 0), b (1, 0), c (1, 1), d (0, 1)); exact for parallelograms. Exposed for tests.
Vec2 quadCoordinate(Vec2 a, Vec2 b, Vec2 c, Vec2 d, Vec2 p);

}  // namespace luxel
