#pragma once
// One frame: cull (PVS + frustum) -> transform + clip -> bin into tiles -> rasterize a visibility buffer
// per tile (TBB over tiles) -> shade each visible pixel once. Output is linear float RGB, or display
// values when the engine look is chosen.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/image/image.hpp"
#include "luxel/light/styles.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/render/camera.hpp"
#include "luxel/vis/visibility.hpp"

namespace luxel {

struct ProbeSampler;  // luxel/light/light_grid.hpp

// Grid: every surface lit by the map's light grid / ambient cubes (light_grid.hpp) at each pixel.
// Lit: albedo (textures when RenderOptions::materials is set, else flat reflectivity) times light.
// Albedo: the albedo alone.
enum class RenderMode { Lightmap, Vertex, Normals, Depth, Clusters, Lit, Grid, Albedo };
// Engine: the game's look in its usual full-screen configuration (Quake 3: hardware overbright, light shifted
// one bit with the hue-preserving clamp, the display ramp doubling and clamping per channel). EngineWindowed:
// Quake 3 as drawn in a window or without gamma control (r_overBrightBits 0): the whole overbright shift with
// the hue-preserving clamp, no ramp; the same as Engine for other formats. Linear: raw light times albedo.
enum class Look { Engine, EngineWindowed, Linear };

// What lightmap mode draws on surfaces without a lightmap stage (vertex-lit surfaces, sky, shaders with no
// $lightmap stage such as lava). Engine: their own stages, as Quake 3's r_lightmap 1 does (needs
// RenderOptions::materials; without them, Light). Light: their stored light alone (vertex colours; sky in
// the sky colour), the compiler's output and nothing else. Black: nothing but lightmaps (black).
enum class UnlitSurfaces { Engine, Light, Black };
UnlitSurfaces parseUnlit(std::string_view name);  // "engine", "light", "black"; UsageError otherwise

// "engine", "engine-windowed", "linear" -> Look; nullopt for anything else.
std::optional<Look> parseLook(std::string_view name);
const char* lookName(Look look);

// Measurement only (`luxel bench --shading-floor`): what a frame costs without its pixel work. Flat: every
// opaque run filled with one colour (no texture, light, program, sky or fog loops; no overlays), the block
// walk and the frame's stores kept; Skip: nothing shaded or stored (the frame's pixels are left as they were),
// culling, set-up and raster alone.
enum class ShadingFloor { Off, Flat, Skip };

struct RenderOptions {
    RenderMode mode = RenderMode::Lightmap;
    ShadingFloor shadingFloor = ShadingFloor::Off;
    Look look = Look::Engine;
    int spp = 1;              // samples per pixel (fixed sub-pixel pattern, averaged after the look)
    bool usePvs = true;
    bool worldOnly = false;   // leave out the brush entities (doors, platforms, movers)
    UnlitSurfaces unlit = UnlitSurfaces::Light;  // lightmap mode: surfaces without a lightmap stage
    bool drawFlares = true;
    Vec3 skyColor{0.35f, 0.45f, 0.6f};      // linear; sky surfaces without a box or clouds
    bool skyColorOverride = false;          // skyColor even where the materials have a box or clouds
    Vec3 background{0.0f, 0.0f, 0.0f};      // where nothing is drawn
    // Brightness of each light style: a lightmapped pixel's light is the sum over its surface's style
    // slots of weight[style] * that slot's lightmap. Empty: parseStyleSpec(styleSpec, world), where an
    // empty styleSpec means "rest" (the map as it looks at time 0; Quake 3 maps: style 0 at 1).
    std::optional<StyleWeights> styleWeights;
    std::string styleSpec;
    // Grid mode: a sampler built by makeProbeSampler for the rendered World, to share between frames;
    // nullptr (or one made for another World): built per frame.
    const ProbeSampler* probes = nullptr;
    // Lit / Albedo: textures, blending and sky of each material (loadMaterials for the rendered World);
    // nullptr: flat material reflectivity, everything opaque.
    const MaterialSet* materials = nullptr;
    // false: sky surfaces are not drawn at all (what lies behind them shows, else the background): an
    // overview seen from outside the map would otherwise show the sky brushes as slabs across it.
    bool drawSky = true;
    // true: the frame has 4 channels, RGB as without it and alpha the fraction of the pixel's samples where
    // something was drawn (0 where only background shows, also where hidden sky would be; 1 elsewhere).
    bool transparentBackground = false;
};

// Per-pixel facts of a frame's first sample pass, for callers that judge a view (the automatic camera):
// row-major, width * height entries each, opaque and alpha-tested-as-opaque geometry only (overlays skipped).
struct FrameSamples {
    int width = 0, height = 0;
    std::vector<float> depth;      // view depth (world units along the view direction); 0 where nothing drawn
    std::vector<int32_t> surface;  // World surface index drawn there, -1 where nothing
    std::vector<uint8_t> sky;      // 1 where that surface is drawn as sky
    // Asked for by setting `footprints` before the call: per pixel, the squared footprint of the drawn triangle's
    // texture coordinates (the larger of |d(s, t)/dx|^2 and |d(s, t)/dy|^2, s and t in repeats of the texture,
    // as the frame's mip levels are chosen), 0 where nothing is drawn.
    bool footprints = false;
    std::vector<float> footprint;
};

struct FrameStats {
    CullStats cull;
    size_t trianglesIn = 0;      // triangles of the visible surfaces
    size_t trianglesDrawn = 0;   // after back-face and frustum rejection, before clipping
    size_t pixelsCovered = 0;    // pixels (samples at spp 1) with geometry
    size_t pixelsMissingTexture = 0;  // of those, opaque ones drawn in the grey of a texture not found
    double cullMs = 0, setupMs = 0, rasterMs = 0, shadeMs = 0;
    double skyViewMs = 0;  // the 3D skybox view drawn first (Source sky_camera), all its stages; 0 without
};

// Parses mode names ("lightmap", "vertex", "normals", "depth", "clusters", "lit", "grid"); throws UsageError.
RenderMode parseRenderMode(const std::string& name);
const char* renderModeName(RenderMode mode);

// Renders camera.width x camera.height, 3 channels (4 with RenderOptions::transparentBackground). Thread count is whatever TBB arena it runs in;
// the result is identical for any thread count.
Image renderFrame(const World& world, const Geometry& geometry, const Camera& camera,
                  const RenderOptions& options, FrameStats* stats = nullptr);
// The same into `image`, whose storage is reused when it already has the frame's size (frame after frame
// of one size: no allocation); otherwise it is replaced.
// `samples`, when given, receives the frame's per-pixel facts.
void renderFrame(const World& world, const Geometry& geometry, const Camera& camera, const RenderOptions& options,
                 Image& image, FrameStats* stats = nullptr, FrameSamples* samples = nullptr);
// The same as display bytes, displayBytes(image) of the frame above: what PNG, JPEG and WebP files hold,
// stored tile by tile as they are shaded (no float frame written and read back).
void renderFrame(const World& world, const Geometry& geometry, const Camera& camera, const RenderOptions& options,
                 ByteImage& display, FrameStats* stats = nullptr, FrameSamples* samples = nullptr);
// The frame's samples alone (which surface each pixel shows, its depth, sky or not), at one sample a pixel:
// what renderFrame gives in `samples`, without shading a pixel (coverage searches, the materials a view shows).
void renderFrameSamples(const World& world, const Geometry& geometry, const Camera& camera, const RenderOptions& options,
                        FrameSamples& samples, FrameStats* stats = nullptr);

}  // namespace luxel
