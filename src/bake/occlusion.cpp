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

namespace {

// ericw-tools' tangent frame of n (the normal's largest axis picks the two others; their cross products with
// n, ordered to keep the frame's handedness, are not orthogonal in general, as there): `local` turned into it.
std::vector<Vec3> turnedAbout(const std::vector<Vec3>& local, Vec3 n) {
    const float ax[3] = {std::fabs(n.x), std::fabs(n.y), std::fabs(n.z)};
    const int k = ax[0] >= ax[1] && ax[0] >= ax[2] ? 0 : (ax[1] >= ax[2] ? 1 : 2);
    auto axis = [](int i) { return Vec3{i == 0 ? 1.0f : 0.0f, i == 1 ? 1.0f : 0.0f, i == 2 ? 1.0f : 0.0f}; };
    Vec3 t = cross(n, axis((k + 1) % 3)), b = cross(n, axis((k + 2) % 3));
    if (dot(cross(t, b), n) < 0) std::swap(t, b);
    const Vec3 up = normalize(t), right = normalize(b);
    std::vector<Vec3> out(local.size());
    for (size_t i = 0; i < local.size(); ++i) out[i] = right * local[i].x + up * local[i].y + n * local[i].z;
    return out;
}

}  // namespace

void occlusionOfPoints(const RayScene& scene, const Geometry& geometry, const DirectBakeRules& rules,
                       const std::vector<Vec3>& local, const Vec3* points, Vec3 n, size_t count, float* out) {
    const std::vector<Vec3> dirs = turnedAbout(local, n);
    const float depth = rules.occlusion.depth;
    auto reach = [&](const RayHit& h) {
        if (!h.hit) return depth;
        const uint32_t surf = scene.triangleSurface()[h.triangle];
        const bool open = surf != RayScene::kNoSurface && (geometry.surfaces[surf].shading == SurfaceShading::Sky ||
                                                           (surf < rules.translucent.size() && rules.translucent[surf]));
        return open ? depth : std::min(depth, h.t);
    };
    // Each point adds its rays' reaches in the rays' order, whichever packets they went in.
    double sum[16] = {};
    RayHit hits[16];
    if (count == 1) {  // one point: its rays in packets of 16 directions
        for (size_t first = 0; first < dirs.size(); first += 16) {
            const int rays = int(std::min<size_t>(16, dirs.size() - first));
            scene.intersect(points[0], dirs.data() + first, rays, 0.0f, depth, hits);
            for (int i = 0; i < rays; ++i) sum[0] += reach(hits[i]);
        }
    } else {  // one packet a direction: parallel rays from nearby points (light streams them so)
        Vec3 same[16];
        for (const Vec3& d : dirs) {
            std::fill(same, same + count, d);
            scene.closest(points, same, int(count), 0.0f, depth, hits, true);
            for (size_t i = 0; i < count; ++i) sum[i] += reach(hits[i]);
        }
    }
    for (size_t i = 0; i < count; ++i) out[i] = dirs.empty() ? 0.0f : float(1.0 - sum[i] / double(dirs.size()) / depth);
}

}  // namespace luxel
