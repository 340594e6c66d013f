#include <algorithm>

#include <tbb/parallel_for.h>

#include "luxel/geometry/geometry.hpp"
#include "luxel/geometry/patch.hpp"

namespace luxel {

namespace {

// Per-surface result of the first pass. Patches are evaluated into their own buffers (indices local
// to the patch); polygons and meshes only count here and are copied straight into place later.
struct SurfaceWork {
    uint32_t vertexCount = 0, indexCount = 0;
    PatchGrid grid;
    std::vector<uint32_t> indices;
};

uint32_t materialFlags(const World& world, int32_t material) {
    if (material < 0 || size_t(material) >= world.materials.size()) return 0;
    return world.materials[size_t(material)].flags;
}

bool indexListValid(const World& world, const Surface& s) {
    return uint64_t(s.firstVertex) + s.numVertices <= world.vertices.size() &&
           uint64_t(s.firstIndex) + s.numIndices <= world.indices.size();
}

// Polygons with no index list are convex fans (formats that store plain windings).
bool usesFan(const Surface& s) { return s.kind == SurfaceKind::Polygon && s.numIndices == 0; }

bool triangleValid(const uint32_t* tri, uint32_t numVertices) {
    return tri[0] < numVertices && tri[1] < numVertices && tri[2] < numVertices;
}

DrawVertex toDraw(const Vertex& v) { return {v.position, v.normal, v.lightmapUV, v.texUV, v.color}; }

// The brush model (index >= 1) each surface belongs to, -1 for the world's and any other. A range that
// overlaps the world's or an earlier model's (hostile maps) keeps the first owner.
std::vector<int32_t> surfaceModels(const World& world) {
    const size_t count = world.surfaces.size();
    std::vector<int32_t> owner(count, -1);
    std::vector<uint8_t> taken(count, 0);
    for (size_t m = 0; m < world.models.size(); ++m) {
        const Model& model = world.models[m];
        const size_t first = std::min<size_t>(model.firstSurface, count);
        const size_t last = size_t(std::min<uint64_t>(uint64_t(model.firstSurface) + model.numSurfaces, count));
        for (size_t i = first; i < last; ++i) {
            if (taken[i]) continue;
            taken[i] = 1;
            if (m > 0) owner[i] = int32_t(m);
        }
    }
    return owner;
}

// A brush entity's vertices where the game draws them (Model::origin, axis).
void place(const Model& m, DrawVertex* v, uint32_t n) {
    auto turn = [&](Vec3 p) { return m.axis[0] * p.x + m.axis[1] * p.y + m.axis[2] * p.z; };
    for (uint32_t k = 0; k < n; ++k) {
        v[k].position = m.origin + turn(v[k].position);
        v[k].normal = turn(v[k].normal);
    }
}

}  // namespace

SurfaceShading resolveShading(const World& world, const Surface& s) {
    const uint32_t flags = materialFlags(world, s.material);
    if (flags & kMaterialNoDraw) return SurfaceShading::Hidden;
    if (s.kind == SurfaceKind::Billboard) return SurfaceShading::Hidden;
    if (flags & kMaterialSky) return SurfaceShading::Sky;
    if (s.lightmapPage >= 0 && size_t(s.lightmapPage) < world.lightmaps.size() &&
        world.lightmaps[size_t(s.lightmapPage)].width > 0 && !(flags & kMaterialNoLightmap))
        return SurfaceShading::Lightmap;
    return SurfaceShading::Vertex;
}

namespace {

// Each surface's draw state, and the vertices and indices it will take (a patch's tessellated already, in
// `work`), within the budgets that bound hostile maps: the part of tessellate() that decides what is drawn.
// `geo.surfaces` gets its offsets; nothing is filled yet. `owner`: surfaceModels(world).
std::vector<SurfaceWork> planSurfaces(const World& world, const TessellationOptions& options,
                                      const std::vector<int32_t>& owner, Geometry& geo) {
    const size_t count = world.surfaces.size();
    geo.surfaces.resize(count);
    const std::vector<PatchLevels> levels = stitchedPatchLevels(world, options);
    std::vector<SurfaceWork> work(count);

    tbb::parallel_for(size_t(0), count, [&](size_t i) {
        const Surface& s = world.surfaces[i];
        DrawSurface& ds = geo.surfaces[i];
        SurfaceWork& wk = work[i];
        ds.material = s.material;
        ds.shading = owner[i] >= 0 && !world.models[size_t(owner[i])].drawn ? SurfaceShading::Hidden : resolveShading(world, s);
        ds.twoSided = (materialFlags(world, s.material) & kMaterialTwoSided) != 0;
        ds.lightmapPage = ds.shading == SurfaceShading::Lightmap ? s.lightmapPage : -1;
        if (s.kind == SurfaceKind::Billboard) {
            const float r = Billboard{}.radius;
            if (isFinite(s.origin)) {
                ds.bounds.grow(s.origin - Vec3{r, r, r});
                ds.bounds.grow(s.origin + Vec3{r, r, r});
            }
            return;
        }
        if (ds.shading == SurfaceShading::Hidden) return;

        if (s.kind == SurfaceKind::Patch) {
            if (!validPatch(world, s)) return;
            wk.grid = evaluatePatch(&world.vertices[s.firstVertex], s.patchWidth, s.patchHeight, levels[i]);
            patchTriangles(wk.grid, 0, wk.indices);
            wk.vertexCount = uint32_t(wk.grid.vertices.size());
            wk.indexCount = uint32_t(wk.indices.size());
            return;
        }
        if (!indexListValid(world, s)) return;
        uint32_t triangles = 0;
        if (usesFan(s)) {
            triangles = s.numVertices >= 3 ? s.numVertices - 2 : 0;
        } else {
            const uint32_t* idx = world.indices.data() + s.firstIndex;
            for (uint32_t t = 0; t + 3 <= s.numIndices; t += 3) triangles += triangleValid(idx + t, s.numVertices);
        }
        if (triangles == 0) return;
        wk.vertexCount = s.numVertices;
        wk.indexCount = triangles * 3;
    });

    // Offsets in surface order. The budgets only bite on hostile maps whose surfaces overlap or reuse
    // each other's vertex ranges; real maps stay far below them. Surfaces past them draw nothing.
    const uint64_t vertexBudget = 2 * uint64_t(world.vertices.size()) + kPatchVertexBudget;
    const uint64_t indexBudget =
        2 * uint64_t(world.indices.size()) + 6 * uint64_t(world.vertices.size()) + 6 * kPatchVertexBudget;
    uint64_t vertices = 0, indices = 0;
    for (size_t i = 0; i < count; ++i) {
        SurfaceWork& wk = work[i];
        if (vertices + wk.vertexCount > vertexBudget || indices + wk.indexCount > indexBudget) {
            wk = SurfaceWork{};
            geo.surfaces[i].shading = SurfaceShading::Hidden;
        }
        geo.surfaces[i].firstVertex = uint32_t(vertices);
        geo.surfaces[i].numVertices = wk.vertexCount;
        geo.surfaces[i].firstIndex = uint32_t(indices);
        geo.surfaces[i].numIndices = wk.indexCount;
        vertices += wk.vertexCount;
        indices += wk.indexCount;
    }
    return work;
}

}  // namespace

size_t triangleCount(const World& world, const TessellationOptions& options) {
    Geometry geo;
    planSurfaces(world, options, surfaceModels(world), geo);
    size_t indices = 0;
    for (const DrawSurface& ds : geo.surfaces) indices += ds.numIndices;
    return indices / 3;
}

Geometry tessellate(const World& world, const TessellationOptions& options) {
    const size_t count = world.surfaces.size();
    Geometry geo;
    const std::vector<int32_t> owner = surfaceModels(world);
    std::vector<SurfaceWork> work = planSurfaces(world, options, owner, geo);
    uint64_t vertices = 0, indices = 0;
    for (const DrawSurface& ds : geo.surfaces) vertices += ds.numVertices, indices += ds.numIndices;
    geo.vertices.resize(size_t(vertices));
    geo.indices.resize(size_t(indices));

    tbb::parallel_for(size_t(0), count, [&](size_t i) {
        const Surface& s = world.surfaces[i];
        DrawSurface& ds = geo.surfaces[i];
        SurfaceWork& wk = work[i];
        if (wk.vertexCount == 0) return;
        DrawVertex* vout = geo.vertices.data() + ds.firstVertex;
        uint32_t* iout = geo.indices.data() + ds.firstIndex;
        const uint32_t base = ds.firstVertex;
        if (s.kind == SurfaceKind::Patch) {
            std::copy(wk.grid.vertices.begin(), wk.grid.vertices.end(), vout);
            for (uint32_t k = 0; k < wk.indexCount; ++k) iout[k] = wk.indices[k] + base;
            wk = SurfaceWork{};  // release the buffers early
        } else {
            const Vertex* src = world.vertices.data() + s.firstVertex;
            for (uint32_t k = 0; k < s.numVertices; ++k) vout[k] = toDraw(src[k]);
            if (usesFan(s)) {
                for (uint32_t t = 0; t + 2 < s.numVertices; ++t) {
                    *iout++ = base;
                    *iout++ = base + t + 1;
                    *iout++ = base + t + 2;
                }
            } else {
                const uint32_t* idx = world.indices.data() + s.firstIndex;
                for (uint32_t t = 0; t + 3 <= s.numIndices; t += 3) {
                    if (!triangleValid(idx + t, s.numVertices)) continue;
                    *iout++ = base + idx[t];
                    *iout++ = base + idx[t + 1];
                    *iout++ = base + idx[t + 2];
                }
            }
        }
        if (owner[i] >= 0 && world.models[size_t(owner[i])].placed()) place(world.models[size_t(owner[i])], vout, ds.numVertices);
        Bounds b;
        for (uint32_t k = 0; k < ds.numVertices; ++k) b.grow(vout[k].position);
        ds.bounds = b;
    });

    for (size_t i = 0; i < count; ++i) {
        const Surface& s = world.surfaces[i];
        if (s.kind != SurfaceKind::Billboard) continue;
        geo.billboards.push_back({uint32_t(i), s.origin, s.color, s.normal, Billboard{}.radius});
    }
    return geo;
}

}  // namespace luxel
