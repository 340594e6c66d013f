// The triangles a frame considers, before any culling of its own: each visible surface's triangles with what
// its material says about drawing them (sides, blending, sort, depth writes), deformed surfaces' and flares'
// triangles on vertices of this frame.
#include "luxel/render/deform.hpp"

#include "frame_parts.hpp"

namespace luxel::render {

namespace {

bool pageUsable(const World& world, int32_t page) {
    if (page < 0 || size_t(page) >= world.lightmaps.size()) return false;
    const LightmapPage& p = world.lightmaps[size_t(page)];
    return p.width > 0 && p.height > 0 && p.rgb.size() == size_t(p.width) * size_t(p.height) * 3;
}

}  // namespace

std::vector<Candidate> frameCandidates(const World& world, const Geometry& geometry, const View& view,
                                       const RenderOptions& options, const MaterialSet* materials,
                                       bool ownStagesInLightmapMode, const std::vector<uint32_t>& surfaces,
                                       std::vector<DrawVertex>& frameVerts) {
    std::vector<Candidate> cands;
    size_t expected = 0;  // one allocation: a large map has tens of thousands of candidates
    for (uint32_t s : surfaces)
        if (s < geometry.surfaces.size()) expected += geometry.surfaces[s].numIndices / 3;
    cands.reserve(expected);
    std::vector<uint32_t> deformed;
    std::vector<uint8_t> visible(geometry.surfaces.size(), 0);
    const size_t numVerts = geometry.vertices.size();
    for (uint32_t s : surfaces) {
        if (s >= geometry.surfaces.size()) continue;
        visible[s] = 1;
        const DrawSurface& ds = geometry.surfaces[s];
        const SurfaceLook* look = nullptr;
        if (materials && ds.material >= 0 && size_t(ds.material) < materials->looks.size())
            look = &materials->looks[size_t(ds.material)];
        if (look && look->hidden) continue;
        // A fog volume's surface shows its fog alone: not drawn outside lit mode or without the fog's parameters.
        if (look && look->fogVolume &&
            (options.mode != RenderMode::Lit || s >= world.surfaces.size() || world.surfaces[s].fog < 0 ||
             size_t(world.surfaces[s].fog) >= materials->fogs.size() || !materials->fogs[size_t(world.surfaces[s].fog)].present))
            continue;
        SourceKind kind;
        switch (ds.shading) {
            case SurfaceShading::Hidden: continue;
            case SurfaceShading::Sky: kind = SourceKind::Sky; break;
            case SurfaceShading::Lightmap:
                kind = pageUsable(world, ds.lightmapPage) ? SourceKind::Lightmap : SourceKind::Vertex;
                break;
            default: kind = SourceKind::Vertex; break;
        }
        if (look && look->sky) kind = SourceKind::Sky;
        if (kind == SourceKind::Sky && !options.drawSky) continue;
        // Lightmap mode, r_lightmap's rules: a surface whose lightmap stage is collapsed into multitexture shows
        // that stage alone (opaque, GL_REPLACE), whatever else its material does; one whose lightmap stage is
        // drawn on its own keeps its material's blend and sort for the stages up to it.
        if (ownStagesInLightmapMode && kind == SourceKind::Lightmap && !(look && (look->unlit || look->lightmapModeProgram)))
            look = nullptr;
        if (size_t(ds.firstIndex) + ds.numIndices > geometry.indices.size()) continue;
        const bool deform = look && !look->deforms.empty() && kind != SourceKind::Sky;
        if (deform) {
            deformed.clear();
            deformSurface(look->deforms, geometry, ds, view, materials->time, frameVerts, deformed);
        }
        const uint32_t* idx = deform ? deformed.data() : geometry.indices.data() + ds.firstIndex;
        const uint32_t numIdx = deform ? uint32_t(deformed.size()) : ds.numIndices;
        const size_t limit = deform ? frameVerts.size() : numVerts;
        for (uint32_t i = 0; i + 3 <= numIdx; i += 3) {
            if (idx[i] >= limit || idx[i + 1] >= limit || idx[i + 2] >= limit) continue;
            Candidate c;
            c.src = {{idx[i], idx[i + 1], idx[i + 2]}, s, kind, deform};
            c.twoSided = ds.twoSided || (look && look->twoSided);
            if (look && kind != SourceKind::Sky) {
                c.blend = look->blend == BlendMode::Opaque && look->opacity < 1.0f ? BlendMode::Blend : look->blend;
                c.alphaRef = look->alphaRef;
                c.sort = look->sort;
                c.depthWrite = look->depthWrite;
            }
            cands.push_back(c);
        }
    }
    if (options.drawFlares) {
        for (const Billboard& b : geometry.billboards) {
            if (b.surface >= visible.size() || !visible[b.surface] || !isFinite(b.origin)) continue;
            uint32_t base = uint32_t(frameVerts.size());
            const float r = b.radius;
            const Vec3 corners[4] = {b.origin - view.right * r + view.up * r, b.origin + view.right * r + view.up * r,
                                     b.origin + view.right * r - view.up * r, b.origin - view.right * r - view.up * r};
            for (Vec3 p : corners) {
                DrawVertex v;
                v.position = p;
                v.normal = b.normal;
                v.color = {b.color.x, b.color.y, b.color.z, 1.0f};
                frameVerts.push_back(v);
            }
            cands.push_back({{{base, base + 1, base + 2}, b.surface, SourceKind::Flare, true}, true});
            cands.push_back({{{base, base + 2, base + 3}, b.surface, SourceKind::Flare, true}, true});
        }
    }
    return cands;
}

}  // namespace luxel::render
