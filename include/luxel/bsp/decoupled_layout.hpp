#pragma once
// ericw-tools' lightmap layout for `light -world_units_per_luxel N` (faceextents_t with world_units_per_luxel_t,
// BSPX DECOUPLED_LM): a face's luxels lie on the axes of its normal snapped to the largest component
// (qv::MakeTangentAndBitangentUnnormalized), N world units apart, independent of its texture.
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>

#include "luxel/util/math.hpp"

namespace luxel {

struct DecoupledLayout {
    int width = 0, height = 0;
    // World point (x, y, z, 1) to luxel coordinates: luxel (i, j) is sampled where row 0 gives i and row 1 j.
    std::array<std::array<float, 4>, 2> worldToLuxel{};
};

// The layout of a face with these corners and this (front-side) normal. Float arithmetic as light's; the
// extents are the floored minimum to the ceiled maximum of the corners' coordinates, plus one luxel. Width and
// height 0 when the coordinates are not finite or past 10^9.
DecoupledLayout decoupledLayout(const Vec3* corners, size_t count, Vec3 faceNormal, float worldUnitsPerLuxel);
// A texinfo's world units a luxel: its own where `own` has one (qbsp's texinfo.json), else `fallback`.
inline float texinfoUnitsPerLuxel(const std::map<uint32_t, float>& own, uint32_t texinfo, float fallback) {
    const auto it = own.find(texinfo);
    return it != own.end() ? it->second : fallback;
}

}  // namespace luxel
