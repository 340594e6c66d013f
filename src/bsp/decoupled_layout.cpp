#include "luxel/bsp/decoupled_layout.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace luxel {

namespace {

float component(Vec3 v, int axis) { return axis == 0 ? v.x : axis == 1 ? v.y : v.z; }

int largestAxis(Vec3 v) {
    int axis = 0;
    for (int a = 1; a < 3; ++a)
        if (std::fabs(component(v, a)) > std::fabs(component(v, axis))) axis = a;
    return axis;
}

Vec3 unitAxis(int axis, float sign) { return {axis == 0 ? sign : 0.0f, axis == 1 ? sign : 0.0f, axis == 2 ? sign : 0.0f}; }

}  // namespace

DecoupledLayout decoupledLayout(const Vec3* corners, size_t count, Vec3 faceNormal, float worldUnitsPerLuxel) {
    const int axis = largestAxis(faceNormal);
    const Vec3 snapped = unitAxis(axis, component(faceNormal, axis) > 0 ? 1.0f : -1.0f);
    // MakeTangentAndBitangentUnnormalized: the normal crossed with the next two axes, swapped if they make a
    // left-handed frame with it.
    Vec3 tangent = cross(snapped, unitAxis((axis + 1) % 3, 1.0f)), bitangent = cross(snapped, unitAxis((axis + 2) % 3, 1.0f));
    if (dot(cross(tangent, bitangent), snapped) < 0) std::swap(tangent, bitangent);
    const float inverse = 1 / worldUnitsPerLuxel;
    const Vec3 rows[2] = {tangent * inverse, bitangent * inverse};
    DecoupledLayout out;
    for (int r = 0; r < 2; ++r) {
        float lo = std::numeric_limits<float>::infinity(), hi = -lo;
        for (size_t k = 0; k < count; ++k) {
            const Vec3 p = corners[k];
            const float c = rows[r].x * p.x + rows[r].y * p.y + rows[r].z * p.z;
            lo = std::min(lo, c), hi = std::max(hi, c);
        }
        // Not finite, or past what an int holds: no layout (the caller refuses the face).
        if (!(std::fabs(lo) < 1e9f && std::fabs(hi) < 1e9f)) return {};
        const int mins = int(std::floor(lo));
        const int extent = int(std::ceil(hi) - std::floor(lo));
        (r == 0 ? out.width : out.height) = extent + 1;
        out.worldToLuxel[size_t(r)] = {rows[r].x, rows[r].y, rows[r].z, float(-mins)};
    }
    return out;
}

}  // namespace luxel
