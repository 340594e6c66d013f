#pragma once
// What a gather ray brings back from the surface it hits: the light leaving that surface toward the ray's
// origin, as its lightmap light (the renderer's bilinear lookup, light/lightmap_sample.hpp) or its vertex light,
// times its albedo. The one lookup behind the probe rebaker (rebake.hpp) and the bounce baker (bounce.hpp).
#include <vector>

#include "luxel/bake/ray_scene.hpp"
#include "luxel/material/material_set.hpp"

namespace luxel {

enum class HitKind { Miss, Surface, Sky, Back };

class HitLight {
public:
    // `sky`: what a ray that hits a sky surface returns. `materials` (Quake 2 / 3): each surface's albedo is its
    // texture's mean colour (the 1x1 mip), as radiosity compilers bounce light; without it, and always for
    // Source (whose texdata reflectivity is that mean already), Material::reflectivity. `pages`: style-0 light
    // laid out like World::lightmaps (a baker's pages) read in place of the stored light; vertex-lit surfaces
    // then return nothing, having no baked light. nullptr: the map's stored light (every lightmap slot of
    // style 0, and vertex colours).
    HitLight(const World& world, const Geometry& geometry, const RayScene& scene, Vec3 sky, const MaterialSet* materials,
             const std::vector<LightmapPage>* pages = nullptr);

    // Light leaving the hit surface along -dir (dir: the ray's unit direction); `kind` says what was hit. A
    // one-sided surface seen from behind returns nothing (the ray left the playable space).
    Vec3 radiance(const RayHit& hit, Vec3 dir, HitKind& kind) const;

    // Per Geometry surface.
    const std::vector<Vec3>& albedo() const { return albedo_; }

private:
    const World& world_;
    const Geometry& geometry_;
    const RayScene& scene_;
    Vec3 sky_;
    const std::vector<LightmapPage>* pages_;
    std::vector<Vec3> albedo_;
};

}  // namespace luxel
