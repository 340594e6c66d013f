// The sky triangles of a ray scene (see sky_triangles.hpp).
#include "luxel/bake/sky_triangles.hpp"

namespace luxel {

std::vector<uint8_t> skyTriangles(const World& world, const Geometry& geometry, const RayScene& scene) {
    const auto& surfaceOf = scene.triangleSurface();
    std::vector<uint8_t> sky(scene.triangleCount(), 0);
    for (size_t t = 0; t < sky.size() && t < surfaceOf.size(); ++t) {
        const uint32_t s = surfaceOf[t];
        if (s == RayScene::kNoSurface) continue;
        if (s < geometry.surfaces.size() && geometry.surfaces[s].shading == SurfaceShading::Sky) sky[t] = 1;
        if (s < world.surfaces.size()) {
            const int32_t m = world.surfaces[s].material;
            if (m >= 0 && size_t(m) < world.materials.size() && (world.materials[size_t(m)].flags & kMaterialSky)) sky[t] = 1;
        }
    }
    return sky;
}

}  // namespace luxel
