#pragma once
// Hand-built Worlds + Geometry for renderer tests: flat surfaces with chosen colours, lightmap pages and
// windings, rendered without a BSP tree (all surfaces given to renderSurfaces directly).
#include <cstdint>
#include <optional>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/image/image.hpp"
#include "luxel/render/camera.hpp"
#include "luxel/render/render.hpp"

namespace luxel::test {

struct RenderScene {
    World world;
    Geometry geometry;
};

struct FixtureVertex {
    FixtureVertex(Vec3 p = {}, Vec4 c = {1, 1, 1, 1}, Vec2 lm = {}, Vec2 tex = {})
        : position(p), color(c), lightmapUV(lm), texUV(tex) {}
    Vec3 position;
    Vec4 color;
    Vec2 lightmapUV;
    Vec2 texUV;
};

// Adds a convex polygon (fan-triangulated) as one surface. Vertices are reordered if needed so the
// polygon is wound clockwise seen from the side `front` points to (the Quake 3 convention); every vertex
// gets `front` as its normal. Returns the surface index.
uint32_t addPolygon(RenderScene& scene, std::vector<FixtureVertex> vertices, Vec3 front,
                    SurfaceShading shading = SurfaceShading::Vertex, int32_t lightmapPage = -1,
                    bool twoSided = false, int32_t material = -1);

// Same, with every vertex of one colour.
uint32_t addColoredPolygon(RenderScene& scene, const std::vector<Vec3>& positions, Vec3 front, Vec3 color,
                           bool twoSided = false);

// Adds a lightmap page whose texels come from f(x, y). Returns the page index.
template <typename F>
int32_t addLightmapPage(RenderScene& scene, int width, int height, F f) {
    LightmapPage page;
    page.width = width;
    page.height = height;
    page.rgb.resize(size_t(width) * size_t(height) * 3);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            Vec3 c = f(x, y);
            float* t = page.rgb.data() + (size_t(y) * size_t(width) + size_t(x)) * 3;
            t[0] = c.x, t[1] = c.y, t[2] = c.z;
        }
    scene.world.lightmaps.push_back(std::move(page));
    return int32_t(scene.world.lightmaps.size() - 1);
}

// A closed cube of sky surfaces (material 0, two-sided) of half-size d around the origin.
void addSkyCube(RenderScene& scene, float d);

// A billboard on a new (triangle-less) surface.
uint32_t addBillboard(RenderScene& scene, Vec3 origin, Vec3 color, float radius);

std::vector<uint32_t> allSurfaces(const RenderScene& scene);

Camera makeCamera(Vec3 position, Vec3 angles, int width, int height, float fovX = 90.0f);
// A camera `distance` units in front of surface `s`'s vertex centroid, looking straight at it (along its
// -normal); nothing when that eye is in no cluster of the map.
std::optional<Camera> cameraFacingSurface(const World& world, size_t s, float distance, int width, int height);

// 320x180 from the centre of q3_writer's default room (0 0 128), 90 degrees across.
inline Camera roomCamera(Vec3 angles) { return makeCamera({0, 0, 128}, angles, 320, 180); }

// A pixel's first three channels.
inline Vec3 pixelAt(const Image& img, int x, int y) {
    const float* p = img.at(x, y);
    return {p[0], p[1], p[2]};
}

// renderSurfaces over every surface of the scene.
Image renderScene(const RenderScene& scene, const Camera& camera, const RenderOptions& options,
                  FrameStats* stats = nullptr);
// The same into `image` (its storage reused when it has the camera's size).
void renderSceneInto(const RenderScene& scene, const Camera& camera, const RenderOptions& options, Image& image,
                     FrameStats* stats = nullptr);

// A wall at x = d of `material` (materials added up to it) filling a 90-degree view from the origin looking +X,
// vertex-lit in vertexColor. Image left is +Y, top is +Z; the texture's (0,0) corner is the image's top-left.
uint32_t addTexturedWall(RenderScene& scene, float d, int32_t material, Vec3 vertexColor = {1, 1, 1});

// Options drawing `mode` with materials m, the linear look and no PVS (fixture scenes have no tree).
RenderOptions materialOptions(RenderMode mode, const MaterialSet& m);

// The scene drawn by the vector loops and again by the portable ones (allowAvx2), with their stats.
struct BothPaths {
    Image vec, portable;
    FrameStats vecStats, portableStats;
};
BothPaths renderBothPaths(const RenderScene& scene, const Camera& camera, const RenderOptions& options);

// Texel bytes from a linear congruential generator: a texture with every kind of neighbour (`opaque`: alphas 255).
RgbaImage noiseImage(int width, int height, uint32_t seed, bool opaque = false);

// Vertex-lit by default, linear look, black background: frames whose pixels are the light itself.
RenderOptions linearOptions(RenderMode mode = RenderMode::Vertex);
// A square wall of half-size h at distance d along +X, for a camera at the origin looking +X.
std::vector<Vec3> wall(float d, float h);
// Renders the scene in TBB arenas of 1, 2 and 8 threads and REQUIREs bit-identical images. The caller lifts
// TBB's default cap (the core count) with a global_control so the 8-thread arena really gets 8 threads.
void requireSameBytesAtThreadCounts(const RenderScene& s, const Camera& cam, const RenderOptions& o);


// Direction of the ray through the centre of pixel (px, py) (Quake conventions, not the renderer's code
// path: built from angleVectors and the FOV only).
Vec3 pixelRay(const Camera& camera, double px, double py);

}  // namespace luxel::test
