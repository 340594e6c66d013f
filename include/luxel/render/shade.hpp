#pragma once
// Shading of the visibility buffer (internal to the render stage; exposed for tests).
#include <cstdint>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/render/raster.hpp"
#include "luxel/render/render.hpp"

namespace luxel::render {

enum class SourceKind : uint8_t { Lightmap, Vertex, Sky, Flare };

// One original (unclipped) triangle: vertex indices into Geometry::vertices, or into the frame's flare
// vertices for kind Flare.
struct SourceTri {
    uint32_t v[3] = {0, 0, 0};
    uint32_t surface = 0;
    SourceKind kind = SourceKind::Vertex;
};

struct ShadeContext {
    const World* world = nullptr;
    const Geometry* geometry = nullptr;
    const DrawVertex* flareVertices = nullptr;
    const SourceTri* sources = nullptr;
    const raster::ShadeTri* tris = nullptr;
    RenderMode mode = RenderMode::Lightmap;
    Look look = Look::Engine;
    Vec3 skyColor, background;
    float depthNear = 1, depthFar = 1;  // Depth mode: view depth range of the covered pixels
};

// Shades a w x h block of the visibility buffer whose top-left pixel is (x, y). depth/id have row stride
// `stride`; results go to image rows (3 channels), written or added to what is there.
void shadeBlock(const ShadeContext& ctx, const float* depth, const uint32_t* id, int stride, int x, int y, int w,
                int h, Image& image, bool accumulate);

// The display transform of light-bearing values (lightmap, vertex, lit, sky, flares).
Vec3 applyLook(Vec3 light, Vec3 albedo, Look look, const EngineLook& engine);

// The renderer's lightmap lookup: bit-identical to sampleLightmap (lightmap_sample.hpp), faster.
Vec3 sampleLightmapFast(const LightmapPage& page, Vec2 uv);

// Distinct, stable colour per visibility cluster; grey for -1.
Vec3 clusterColor(int32_t cluster);

// Grey ramp for depth w within [wNear, wFar]: 1 at the nearest pixel, 0.1 at the farthest (log scale).
float depthGrey(float w, float wNear, float wFar);

}  // namespace luxel::render
