#pragma once
// Shading of the visibility buffer (internal to the render stage; exposed for tests).
#include <cstdint>
#include <memory>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/light/styles.hpp"
#include "luxel/material/texture_sample.hpp"
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
    bool frameVertices = false;  // v[] index the frame's own vertices (flares, deformed surfaces)
};

// pow(v, 1/gamma) for v in [0,1] as a table: the float's exponent picks 2^(e/gamma), its top 10 mantissa
// bits and a linear step the mantissa's power. Relative error below 1e-7 for 1/4 <= 1/gamma <= 4; about
// 20 times cheaper than pow, and the same operations in the scalar and vector paths.
struct GammaTable {
    bool valid = false;
    float power[128];                  // [e + 126] = 2^(e/gamma), e = -126..0 (entry 127 unused)
    float value[1024], slope[1024];    // m^(1/gamma) at m = 1 + i/1024, and the step to i + 1
};
// Fills the table for `gamma`; valid only when 1/gamma is within [1/4, 4] (otherwise callers use pow).
GammaTable makeGammaTable(float gamma);
// The same table, made once per gamma a process meets (2,300 calls of pow and exp2: more than a small frame's
// shading) and shared: a frame holds it while it draws.
std::shared_ptr<const GammaTable> sharedGammaTable(float gamma);
float applyGamma(float v, const GammaTable& table);  // v in [0,1]

// How a raster triangle is shaded in the light-bearing modes (lightmap, vertex, lit, grid), resolved once
// per frame so the pixel loops only evaluate planes and sample. Probe: light from ShadeContext::probes at
// each pixel's position and normal (grid mode).
enum class ShadePath : uint8_t { Constant, Lightmap, Vertex, Probe };

constexpr int kMaxLightmapSlots = 4;

struct TriShade {
    // Lightmap: u/w, v/w; Vertex: r/w, g/w, b/w (attribute/w planes with the raster triangle's origin).
    raster::AttrPlane plane[3];
    int32_t x0 = 0, y0 = 0;
    ShadePath path = ShadePath::Constant;
    uint8_t slots = 0;        // Lightmap: style slots summed (page[0..slots-1] with weight[...])
    bool unitWeight = false;  // Lightmap: one slot at weight exactly 1 (Quake 3): light is the sample itself
    bool hasAlbedo = false;   // Lit: material reflectivity multiplies the light
    bool narrowIndices = true;  // texel indices fit int32 (the vector loop's gathers)
    // The vector textured loop may shade this triangle's pixels from several runs together (textured, no
    // program, sky or fog pass; textures it can read): see shadeLightBlock.
    bool packable = false;
    int32_t pageWidth = 0, pageHeight = 0;  // all slots of a surface share the page layout
    const float* page[kMaxLightmapSlots] = {};
    float weight[kMaxLightmapSlots] = {};
    Vec3 albedo{1, 1, 1};
    Vec3 color;  // Constant: the finished (look applied) colour
    // Lit / Albedo with materials: the albedo texture (times `albedo`), its u/w, v/w planes (material
    // tcScale applied), and the light a Constant-path textured triangle receives (unlit: 1).
    const Texture* texture = nullptr;
    raster::AttrPlane texPlane[2];
    // Quake 3 detail textures: albedo x 2 * detail for each, at its own u/w, v/w planes.
    int details = 0;
    const Texture* detail[2] = {nullptr, nullptr};
    raster::AttrPlane detailPlane[2][2];
    // Source displacement blending ($basetexture2): albedo = lerp(texture, texture2, vertex alpha).
    const Texture* texture2 = nullptr;
    raster::AttrPlane blendPlane;
    raster::AttrPlane tex2Plane[2];  // texture2's u/w, v/w (its own scale)
    float texture2Scale = 1;  // texture2's colour factor (Quake 3 identityLighting: 1 / the look's ramp)
    Vec3 constantLight;
    bool skyBox = false;      // Sky triangle drawn from MaterialSet::skies[sky], or the 3D skybox's picture
    int32_t sky = -1;         // skyBox: its sky (-1: the 3D skybox's picture alone)
    float opacity = 1.0f;     // material opacity (multiplies texture alpha in blended passes)
    bool missingTexture = false;  // drawn in the neutral grey of a texture that was not found
    // Lit, opaque materials drawn as a program: every stage per pixel (light from the path above, base
    // texture coordinates in texPlane, unscaled).
    const StageProgram* program = nullptr;
    int32_t fog = -1;  // Lit: the fog volume the surface lies in (World::fogs), drawn over its pixels
    bool distanceFog = false;  // Lit and lightmap: MaterialSet::distanceFog over its pixels
    bool fogSurface = false;  // the fog volume's own surface: only its fog pass is drawn
    // Source water (SurfaceLook::water): only its fog over what lies behind is drawn (waterOverPixel).
    bool water = false;
    Vec3 waterColor;        // the fog colour as the look shows it
    float waterRange = 0;   // $fogend - $fogstart
};

// ioquake3 draws cloud layers on the sky box's sides cut into 8 x 8 cells (SKY_SUBDIVISIONS), with the dome
// coordinates (R_InitSkyTexCoords: s = acos(v.x), t = acos(v.y) of where the direction meets the cloud dome) at
// the 9 x 9 grid points of each side, interpolated across each cell's two triangles. Sides by index (+X, -X,
// +Y, -Y, +Z, -Z), then grid row t, column s.
struct CloudGrid {
    Vec2 at[6][9][9];
};
CloudGrid makeCloudGrid(const SkyBox& sky);

struct ShadeContext {
    const World* world = nullptr;
    const Geometry* geometry = nullptr;
    const DrawVertex* flareVertices = nullptr;  // the frame's own vertices: flares and deformed surfaces
    const SourceTri* sources = nullptr;
    const raster::ShadeTri* tris = nullptr;
    // Light-bearing modes: prepareTriangle() of each raster triangle (same index as tris).
    const TriShade* triShade = nullptr;
    // Brightness of each light style for lightmapped surfaces; nullptr: style 0 only, at 1.
    const StyleWeights* styleWeights = nullptr;
    // Engine look's display gamma as a table (nullptr or invalid: pow).
    const GammaTable* gamma = nullptr;
    // Grid mode: the map's light grid / ambient cubes (never nullptr in that mode).
    const ProbeSampler* probes = nullptr;
    // Lit / Albedo: the materials (nullptr: flat reflectivity), their albedo table, and the eye (sky boxes).
    const MaterialSet* materials = nullptr;
    const AlbedoTable* albedoTable = nullptr;
    Vec3 eye;
    Vec3 viewForward;  // fog: view depth along it
    RenderMode mode = RenderMode::Lightmap;
    UnlitSurfaces unlit = UnlitSurfaces::Light;  // lightmap mode: see RenderOptions::unlit
    Look look = Look::Engine;
    Vec3 skyColor, background;
    bool skyColorOverride = false;  // sky surfaces in skyColor even with a sky box or clouds
    // Lit / Albedo: the 3D skybox's picture of this frame (render/sky_view.hpp), shown where sky surfaces are
    // instead of the 2D sky box; nullptr when the map has none.
    const Image* skyView = nullptr;
    // Lit / Albedo: per MaterialSet::skies entry with cloud layers, the dome coordinates at the sky box's grid
    // points (makeCloudGrid); nullptr or an empty entry for skies without.
    const std::vector<std::optional<CloudGrid>>* cloudGrids = nullptr;
    float depthNear = 1, depthFar = 1;  // Depth mode: view depth range of the covered pixels
    bool flatFloor = false;  // RenderOptions::shadingFloor Flat: every run one colour
};

// Where a source triangle's vertices are.
inline const DrawVertex* vertexBase(const ShadeContext& ctx, const SourceTri& s) {
    return s.frameVertices ? ctx.flareVertices : ctx.geometry->vertices.data();
}

// Quake 3 fog over a pixel at world point p: the share of the fog colour (0..1) as ioquake3's
// RB_CalcFogTexCoords and R_FogFactor compute it from the view depth and, for a fog with a visible side,
// the depths of the point and the eye below that side's plane. (The engine reads the factor from a 256x32
// image of R_FogFactor; its sqrt table is taken here without the quantisation.)
float fogFactor(const FogVolume& fog, float distanceToOpaque, Vec3 eye, Vec3 forward, Vec3 p);

// The fog factor over a pixel of raster triangle `tri` (fogFactor at its point), 0 when the triangle is in no
// drawn fog. Translucent Quake 3 surfaces take it into their stages (FinishShader's adjustColorsForFog).
float fogAt(const ShadeContext& ctx, uint32_t tri, int px, int py, float invW);
// The engine's fog pass over a pixel (display values, replaced): blended towards the fog's colour by fogAt.
// Drawn over opaque and alpha-tested surfaces inside a fog, and as the fog volume's own surface.
void fogOverPixel(const ShadeContext& ctx, uint32_t tri, int px, int py, float invW, float* rgb);
// QuakeSpasm's world fog (MaterialSet::distanceFog) on a pixel at 1/w `invW` that a blended surface draws, before it
// is blended (GL fog colours the fragment): rgb moved toward the fog colour, or, additive, faded toward black.
void distanceFogOverPixel(const ShadeContext& ctx, float invW, float* rgb, bool additive);
// A Source water surface's pixel at 1/w `invW` over what lies behind it at 1/w `behindInvW` (0: nothing): the
// engine's water fog of its refraction (CalcWaterFogAlpha: the view depth seen through the water over the fog
// range, saturated), blending `rgb` towards the fog colour. An approximation: the refraction's bump
// distortion, $refracttint and the reflection are not drawn.
void waterOverPixel(const TriShade& t, float invW, float behindInvW, float* rgb);

// Resolves how raster triangle `tri` is shaded (light-bearing modes): its source's kind, lightmap slots
// with their style weights (slots whose page is missing or whose weight is 0 are left out; none left
// means black), material albedo in Lit mode, and the look applied to constant colours.
TriShade prepareTriangle(const ShadeContext& ctx, const raster::ShadeTri& tri);

// Rows of 3-channel float pixels: a tile being shaded (its own buffer, in cache) or the frame's rows. `pixels`
// holds frame pixel (x0, y0); rows are `stride` floats apart.
struct PixelRows {
    float* pixels = nullptr;
    size_t stride = 0;
    int x0 = 0, y0 = 0;
    float* at(int x, int y) const { return pixels + size_t(y - y0) * stride + size_t(x - x0) * 3; }
};

// Floats a row of a tile's buffer: 3 a pixel, and room for the 9 pixels past the row's end that the vector loops
// may write, so the tile is shaded in place (shadeBlock, out.stride at least 3 (w + 9)).
constexpr size_t kTileRowFloats = (3 * (raster::kTileSize + 9) + 7) / 8 * 8;

// Shades a w x h block of the visibility buffer whose top-left pixel is (x, y). depth/id have row stride
// `stride`; results are written to `out` at the block's frame positions. Returns the number of pixels with a
// triangle; `missingTexture`, when given, receives how many of them show missing-texture grey.
uint32_t shadeBlock(const ShadeContext& ctx, const float* depth, const uint32_t* id, int stride, int x, int y, int w,
                    int h, const PixelRows& out, uint32_t* missingTexture = nullptr);

// One pixel of a light-bearing triangle with its coverage: rgb as shadeBlock would write it (look applied),
// alpha = texture alpha times the material's opacity (1 without a texture). For the passes that alpha-test
// and blend surfaces over the opaque picture.
Vec4 shadePixelWithAlpha(const ShadeContext& ctx, uint32_t tri, int px, int py, float invW);
// Its alpha alone, the same value, without the colour's work, for n pixels (px[k], py[k]) at 1/w invW[k]: cut-outs
// decide coverage with it before shading.
void pixelAlphas(const ShadeContext& ctx, uint32_t tri, const int32_t* px, const int32_t* py, const float* invW, int n,
                 float* alpha);
// Which of them an alpha test keeps: !(alpha < ref) of pixelAlphas' alpha, the same answers (the vector loop
// decides most pixels from their texel footprint's alpha range without filtering).
void pixelCutoutKeeps(const ShadeContext& ctx, uint32_t tri, const int32_t* px, const int32_t* py, const float* invW, int n,
                      float ref, uint8_t* keep);


// A translucent or alpha-tested program triangle's pixels (px[k], py[k]) at 1/w invW[k] drawn over rgb[k] (the
// display values there, replaced by the result): every stage blended over what is behind as the engine's
// framebuffer does. drawn[k] is 0 where the first stage's alpha test discards the pixel (nothing written).
// The triangle's set-up (footprints, lightmap pages) is worked out once for all of them.
void programOverPixels(const ShadeContext& ctx, uint32_t tri, const int* px, const int* py, const float* invW, int n,
                       float* const* rgb, uint8_t* drawn);
// Whether the triangle is an opaque program drawn see-through (a Quake 1 entity's alpha, lit water at the map's
// liquid alpha) that writes every pixel it covers (no alpha test on its first stage, no Quake 3 fog):
// programOverRun draws its pixels a run at a time; programOverPixels draws the others.
bool seeThroughProgram(const TriShade& t);
// Such a triangle's run of n <= kTileSize pixels (px0 + k, py) at 1/w invW[k] over `rgb` (3 floats a pixel,
// contiguous): the program's colour as if opaque (the vector path's), fogged, blended at its opacity, as
// programOverPixels sums it.
void programOverRun(const ShadeContext& ctx, uint32_t tri, int px0, int py, const float* invW, int n, float* rgb);

// The display transform of light-bearing values (lightmap, vertex, lit, sky, flares).
Vec3 applyLook(Vec3 light, Vec3 albedo, Look look, const EngineLook& engine);

// The renderer's lightmap lookup: bit-identical to sampleLightmap (lightmap_sample.hpp), faster.
Vec3 sampleLightmapFast(const LightmapPage& page, Vec2 uv);

// Distinct, stable colour per visibility cluster; grey for -1.
Vec3 clusterColor(int32_t cluster);

// Grey ramp for depth w within [wNear, wFar]: 1 at the nearest pixel, 0.1 at the farthest (log scale).
float depthGrey(float w, float wNear, float wFar);

}  // namespace luxel::render
