#pragma once
// Where ericw-tools' light puts a face's luxels: faceextents_t::LMCoordToWorld (common/bsputils.cc) with its
// own float matrices. The texinfo's world-to-texture matrix (s and t rows, then the plane) is inverted in
// double (Mesa's gluInvertMatrix) and rounded to float, then multiplied in float by the luxel-to-texture
// scale. A point worked out any other way differs in its last bits, which is enough to break a tie between two
// edges the other way; and from a sliver's triangle it can be far off. Computed here with the same operations
// in the same order, so the same bits.
#include <array>
#include <optional>

#include "luxel/bsp/world.hpp"

namespace luxel {

struct EricwLuxelFrame {
    std::array<float, 16> lmToWorld{};  // column-major, as ericw-tools' qmat4x4f
    std::array<float, 8> worldToLuxel{};  // rows giving a world point's luxel coordinates (worldToLMMatrix)
    Plane plane;                        // the face's plane as the face sees it
};

// None when the face has no frame (luxelSize 0) or its texture axes lie in its plane (no inverse).
std::optional<EricwLuxelFrame> ericwLuxelFrame(const TexinfoLuxels& face);

// Luxel (s, t) of the face's block where light's CalcPoints starts it and CalcPointNormal puts it on the
// plane: LMCoordToWorld(s, t) plus the plane's normal, projected onto the plane (ProjectPointOntoPlane).
Vec3 ericwLuxelOnPlane(const EricwLuxelFrame& frame, float s, float t);

// A world point's luxel coordinates in the face's block (faceextents_t::worldToLMCoord).
Vec2 ericwWorldToLuxel(const EricwLuxelFrame& frame, Vec3 p);

}  // namespace luxel
