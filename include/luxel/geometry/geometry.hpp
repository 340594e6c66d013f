#pragma once
// Drawable triangles for every surface of a World: polygons and meshes from their index lists,
// Bezier patches tessellated crack-free, billboards kept as points (their quads face the camera,
// so they are built per frame by the renderer).
//
// Winding: triangles keep the order the map stores, which for Quake 3 is clockwise seen from the
// front. For a triangle (a, b, c), cross(b - a, c - a) points AWAY from the front side (opposite the
// surface normal), so a camera at `eye` sees the triangle's back when dot(cross(b - a, c - a), eye - a) > 0;
// cull those unless DrawSurface::twoSided. Checked on real maps: in oa088_am_thornish every polygon
// (15,092) and mesh (2,024) triangle agrees, and in oa085_ctf_compromise 20,585 of 20,587 polygon
// triangles agree with the face normal. Patch control grids carry normals along du x dv (u along
// columns, v along rows), and their triangles are emitted with the same convention as ioquake3's
// RB_SurfaceGrid: on thornish 9,215 of 9,215 tessellated patch triangles agree, on oa_ctf2 1,568 of 1,568.
#include <cstdint>
#include <vector>

#include "luxel/bsp/world.hpp"

namespace luxel {

struct DrawVertex {
    Vec3 position;
    Vec3 normal;
    Vec2 lightmapUV;  // normalised to the surface's lightmap page
    Vec2 texUV;
    Vec4 color;       // linear vertex light (rgb) and alpha
};

// How a surface is shaded: resolved once from its material and lightmap.
enum class SurfaceShading : uint8_t {
    Hidden,    // nodraw / tool: no triangles
    Lightmap,  // lightmap page
    Vertex,    // vertex colour
    Sky,       // flat sky colour
};

// One per World surface, at the same index, so leaf surface lists index these directly.
struct DrawSurface {
    uint32_t firstIndex = 0, numIndices = 0;  // into Geometry::indices (absolute vertex indices)
    // Its own vertices in Geometry::vertices (a patch's are its tessellated grid, row-major: see patch.hpp).
    uint32_t firstVertex = 0, numVertices = 0;
    int32_t lightmapPage = -1;  // the surface's page when shading is Lightmap, else -1
    int32_t material = -1;
    SurfaceShading shading = SurfaceShading::Hidden;
    bool twoSided = false;
    Bounds bounds;
};

// Billboards (Quake 3 flares) in surface order, one per Billboard surface. Their DrawSurface is Hidden
// with no triangles, but its bounds enclose the billboard's quad (origin +- radius), so surface culling can
// test it. `surface` is the World/DrawSurface index: a renderer with a list of visible surfaces draws
// exactly the billboards whose `surface` is in that list (visibleSurfaces() reports such surfaces).
struct Billboard {
    uint32_t surface = 0;
    Vec3 origin;
    Vec3 color;  // linear
    Vec3 normal;
    float radius = 16;  // half the quad's side in world units
};

struct TessellationOptions {
    // Largest distance between a patch's true surface and its triangles, in world units (ioquake3's
    // r_subdivisions default is 4).
    float patchTolerance = 4.0f;
    int maxPatchLevel = 16;  // upper bound on subdivisions per 3x3 piece side, so hostile patches stay small
};

struct Geometry {
    std::vector<DrawVertex> vertices;
    std::vector<uint32_t> indices;
    std::vector<DrawSurface> surfaces;  // size == world.surfaces.size()
    std::vector<Billboard> billboards;
    size_t triangleCount() const { return indices.size() / 3; }
};

// Builds the drawable geometry. Deterministic (the same bytes for any thread count); parallel over
// surfaces with TBB. Polygons and meshes keep their vertices and index lists (made absolute); a polygon
// without an index list is drawn as a fan. Bezier patches are tessellated adaptively and crack-free
// (see patch.hpp). Malformed surfaces (ranges outside the World, bad patch sizes) draw nothing.
Geometry tessellate(const World& world, const TessellationOptions& options = {});
// tessellate(world, options).triangleCount() without filling the vertices and indices (luxel info).
size_t triangleCount(const World& world, const TessellationOptions& options = {});

// How a surface is shaded, in this order: material kMaterialNoDraw or a Billboard -> Hidden;
// kMaterialSky -> Sky; a lightmap page that exists with width > 0 and no kMaterialNoLightmap ->
// Lightmap; otherwise Vertex. A material index outside World::materials counts as no flags.
SurfaceShading resolveShading(const World& world, const Surface& surface);

// Quadratic Bezier patch point/derivatives from a 3x3 control grid (row-major, ctrl[row*3+col]),
// at (u along columns, v along rows) in [0,1]. Exposed for tests and other stages.
Vec3 evalBiquadratic(const Vec3 ctrl[9], float u, float v);

}  // namespace luxel
