#include "luxel/render/sky_view.hpp"

#include <algorithm>

namespace luxel {

std::optional<SkyboxView> skyboxView(const World& world, const Geometry& geometry, const Camera& camera,
                                     const CullOptions& cull) {
    if (!world.skyCamera) return std::nullopt;
    const SkyCamera& sky = *world.skyCamera;
    const int32_t leaf = findLeaf(world, sky.origin);
    if (leaf < 0) return std::nullopt;
    SkyboxView out;
    out.area = world.leaves[size_t(leaf)].area;
    out.camera = camera;
    out.camera.position = sky.origin + camera.position * (sky.scale > 0 ? 1.0f / sky.scale : 1.0f);

    std::vector<uint8_t> inArea(geometry.surfaces.size(), 0);
    for (const Leaf& l : world.leaves) {
        if (l.area != out.area) continue;
        const size_t first = std::min<size_t>(l.firstLeafSurface, world.leafSurfaces.size());
        const size_t last = std::min<size_t>(first + l.numLeafSurfaces, world.leafSurfaces.size());
        for (size_t k = first; k < last; ++k)
            if (world.leafSurfaces[k] < inArea.size()) inArea[world.leafSurfaces[k]] = 1;
    }
    out.surfaces = visibleSurfaces(world, geometry, makeView(out.camera), sky.origin, cull);
    std::erase_if(out.surfaces, [&](uint32_t s) { return !inArea[s]; });
    return out;
}

}  // namespace luxel
