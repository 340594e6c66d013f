#pragma once
// Drawable triangles for every surface of a World: polygons and meshes from their index lists,
// Bezier patches tessellated crack-free, billboards kept as points (their quads face the camera,
// so they are built per frame by the renderer).
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
    int32_t lightmapPage = -1;
    int32_t material = -1;
    SurfaceShading shading = SurfaceShading::Hidden;
    bool twoSided = false;
    Bounds bounds;
};

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

// Builds the drawable geometry. Deterministic; parallel over surfaces with TBB.
Geometry tessellate(const World& world, const TessellationOptions& options = {});

// Quadratic Bezier patch point/derivatives from a 3x3 control grid (row-major, ctrl[row*3+col]),
// at (u along columns, v along rows) in [0,1]. Exposed for tests and other stages.
Vec3 evalBiquadratic(const Vec3 ctrl[9], float u, float v);

}  // namespace luxel
