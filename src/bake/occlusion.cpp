// Ambient occlusion as ericw-tools' dirt (see occlusion.hpp).
#include "luxel/bake/occlusion.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace luxel {

float occlusionFactor(float occlusion, float scale, float gain) {
    if (!(scale > 0) || !(occlusion > 0)) return 1;
    return 1 - std::min(1.0f, std::min(1.0f, std::pow(occlusion, gain)) * scale);
}

std::vector<Vec3> occlusionDirections(const DirectBakeRules::Occlusion& o) {
    std::vector<Vec3> out;
    constexpr float kDegree = 3.14159265358979f / 180;
    for (int i = 0; i < o.azimuths; ++i)
        for (int j = 0; j < o.elevations; ++j) {
            const float a = float(i) * 360.0f / float(o.azimuths) * kDegree;
            const float e = o.angleDeg / float(o.elevations) * (float(j) + 0.5f) * kDegree;
            out.push_back({std::sin(e) * std::cos(a), std::sin(e) * std::sin(a), std::cos(e)});
        }
    return out;
}

// How enclosed a point is (0 open .. 1 closed): the occlusion rays about `n` in ericw-tools' tangent frame (the
// normal's largest axis picks the two others; their cross products with n, ordered to keep the frame's
// handedness, are not orthogonal in general, as there).
float occlusionAt(const RayScene& scene, const Geometry& geometry, const DirectBakeRules& rules,
                  const std::vector<Vec3>& local, Vec3 p, Vec3 n) {
    const float ax[3] = {std::fabs(n.x), std::fabs(n.y), std::fabs(n.z)};
    const int k = ax[0] >= ax[1] && ax[0] >= ax[2] ? 0 : (ax[1] >= ax[2] ? 1 : 2);
    auto axis = [](int i) { return Vec3{i == 0 ? 1.0f : 0.0f, i == 1 ? 1.0f : 0.0f, i == 2 ? 1.0f : 0.0f}; };
    Vec3 t = cross(n, axis((k + 1) % 3)), b = cross(n, axis((k + 2) % 3));
    if (dot(cross(t, b), n) < 0) std::swap(t, b);
    const Vec3 up = normalize(t), right = normalize(b);
    const float depth = rules.occlusion.depth;
    double sum = 0;
    Vec3 dirs[16];
    RayHit hits[16];
    for (size_t first = 0; first < local.size(); first += 16) {
        const int count = int(std::min<size_t>(16, local.size() - first));
        for (int i = 0; i < count; ++i) {
            const Vec3 v = local[first + size_t(i)];
            dirs[i] = right * v.x + up * v.y + n * v.z;
        }
        scene.intersect(p, dirs, count, 0.0f, depth, hits);
        for (int i = 0; i < count; ++i) {
            float reach = depth;
            if (hits[i].hit) {
                const uint32_t surf = scene.triangleSurface()[hits[i].triangle];
                const bool open = surf != RayScene::kNoSurface &&
                                  (geometry.surfaces[surf].shading == SurfaceShading::Sky ||
                                   (surf < rules.translucent.size() && rules.translucent[surf]));
                if (!open) reach = std::min(depth, hits[i].t);
            }
            sum += reach;
        }
    }
    return local.empty() ? 0.0f : float(1.0 - sum / double(local.size()) / depth);
}

}  // namespace luxel
