// The light a gather ray brings back (see hit_light.hpp).
#include "luxel/bake/hit_light.hpp"

#include "luxel/light/lightmap_sample.hpp"
#include "luxel/material/texture_sample.hpp"

namespace luxel {

HitLight::HitLight(const World& world, const Geometry& geometry, const RayScene& scene, Vec3 sky,
                   const MaterialSet* materials, const std::vector<LightmapPage>* pages)
    : world_(world), geometry_(geometry), scene_(scene), sky_(sky), pages_(pages),
      albedo_(geometry.surfaces.size(), Vec3{1, 1, 1}) {
    const bool textured = materials && world.format != MapFormat::Source;
    const AlbedoTable table = makeAlbedoTable(materials ? materials->textureGamma : 1.0f);
    for (size_t i = 0; i < geometry.surfaces.size(); ++i) {
        const int32_t m = geometry.surfaces[i].material;
        if (m >= 0 && size_t(m) < world.materials.size()) albedo_[i] = world.materials[size_t(m)].reflectivity;
        if (!textured) continue;
        if (const std::optional<Vec3> mean = meanTextureColour(*materials, m))
            albedo_[i] = {table.value[size_t(mean->x)], table.value[size_t(mean->y)], table.value[size_t(mean->z)]};
    }
}

Vec3 HitLight::radiance(const RayHit& h, Vec3 dir, HitKind& kind) const {
    kind = HitKind::Miss;
    if (!h.hit) return {};
    const uint32_t surf = scene_.triangleSurface()[h.triangle];
    if (surf == RayScene::kNoSurface) return {};
    const DrawSurface& d = geometry_.surfaces[surf];
    if (d.shading == SurfaceShading::Sky) {
        kind = HitKind::Sky;
        return sky_;
    }
    const uint32_t* idx = geometry_.indices.data() + size_t(h.triangle) * 3;
    const DrawVertex &a = geometry_.vertices[idx[0]], &b = geometry_.vertices[idx[1]], &c = geometry_.vertices[idx[2]];
    // cross(b - a, c - a) points away from the front (geometry.hpp): a ray along it meets the front.
    if (!d.twoSided && dot(cross(b.position - a.position, c.position - a.position), dir) <= 0) {
        kind = HitKind::Back;
        return {};
    }
    kind = HitKind::Surface;
    const float w0 = 1.0f - h.u - h.v, w1 = h.u, w2 = h.v;
    Vec3 light;
    if (d.shading == SurfaceShading::Lightmap) {
        const Vec2 uv{a.lightmapUV.x * w0 + b.lightmapUV.x * w1 + c.lightmapUV.x * w2,
                      a.lightmapUV.y * w0 + b.lightmapUV.y * w1 + c.lightmapUV.y * w2};
        const size_t page = size_t(d.lightmapPage);
        if (pages_) {
            if (page < pages_->size() && (*pages_)[page].width > 0) light = sampleLightmap((*pages_)[page], uv);
        } else {
            // Style 0 only: the light the map shows at rest (what vrad and q3map2 bake probes from).
            const Surface& s = world_.surfaces[surf];
            for (size_t slot = 0; slot < 4; ++slot) {
                if (s.styles[slot] != 0) continue;
                const auto& stored = slot == 0 ? world_.lightmaps : world_.extraLightmapSlots[slot - 1];
                if (page < stored.size() && stored[page].width > 0) light += sampleLightmap(stored[page], uv);
            }
        }
    } else if (!pages_) {
        light = Vec3{a.color.x, a.color.y, a.color.z} * w0 + Vec3{b.color.x, b.color.y, b.color.z} * w1 +
                Vec3{c.color.x, c.color.y, c.color.z} * w2;
    }
    return light * albedo_[surf];
}

}  // namespace luxel
