#pragma once
// A map opened for pictures and one view of it: decode, tessellate, materials, camera, frame. `luxel render`
// and `luxel batch` both draw through this, so a thumbnail from a batch is the same picture `render` gives.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "luxel/bsp/decode.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/geometry/overlays.hpp"
#include "luxel/image/image.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/model/props.hpp"
#include "luxel/render/camera.hpp"
#include "luxel/render/render.hpp"
#include "luxel/render/view_figures.hpp"
#include "luxel/vis/visibility.hpp"

namespace luxel {

struct LoadedMap {
    std::string displayName;  // the map as messages name it
    std::string mapName;
    World world;
    Geometry geometry;
    MaterialOptions materialOptions;
    // Loaded once materials are needed (lit, albedo and auto modes), for materialOptions.time, with textures
    // decoded for the materials texturesFor marks (those the views drawn so far can see; empty: all).
    std::optional<MaterialSet> materials;
    std::vector<bool> texturesFor;
    std::vector<float> textureFootprints;  // the footprints they were decoded for (empty: whole textures)
    // Every material's look without textures, for lookTime: what materialsShown asks of each view.
    std::optional<MaterialSet> looks;
    float lookTime = 0;
    MapSource source;  // bytes dropped after decoding; kept for the material loaders (archive, related files)
    PropsPlaced props;  // static props drawn (their warnings: models missing or broken)
    OverlaysPlaced overlays;
    double decodeMs = 0, propsMs = 0, tessellateMs = 0, materialsMs = 0;
    // resolveCamera's answers by spec, field of view and aspect ratio (what the answer depends on; the size only
    // through its ratio), for a map kept for many views: a service searches each map for its best view once.
    std::map<std::string, ResolvedCamera> cameras;
};

// Decodes, places the overlays (`overlays`: geometry/overlays.hpp) and the static props (models from the map's
// pakfile and materials.gameDirs) and tessellates; the map's bytes are released afterwards. Throws DecodeError /
// UsageError.
LoadedMap loadMap(MapSource source, const DecodeOptions& decode, const MaterialOptions& materials,
                  const PropOptions& props = {}, bool overlays = true);

// Loads map.materials for `time` with the textures of every material `seen` marks (empty: all), unless they
// are loaded already (textures come from the process-wide cache). Returns the warnings worth showing: the
// missing-texture summary and the loaders' warnings (MaterialSet::warnings). With `footprints`
// (materialsShown's), exactly those materials from the levels their footprints need, so a view's textures
// never depend on the views drawn before it; without, whole textures for the union of what the views so far saw.
std::vector<std::string> ensureMaterials(LoadedMap& map, float time, const std::vector<bool>& seen = {},
                                         const std::vector<float>& footprints = {});

// The materials of the surfaces a camera can see (PVS and frustum, as renderFrame culls).
std::vector<bool> materialsSeen(const World& world, const Geometry& geometry, const Camera& camera, const CullOptions& cull);
// Of those, the materials whose textures can show in a frame drawn with `options` at `time` (Quake 3, one
// sample per pixel; otherwise `seen` as given): the opaque ones that win a pixel when the opaque surfaces
// alone are rasterized, and every other one seen (blended, cut-out, sky, fog). A view decodes these.
// `footprints` (when given, for Quake 3 views; left empty otherwise): per material, the smallest footprint
// its pixels sample in that pass, a little under and rounded down (loadMaterials' footprints), 0 for the
// materials outside the opaque pass (any level may show).
std::vector<bool> materialsShown(LoadedMap& map, const Camera& camera, const RenderOptions& options, float time,
                                 std::vector<bool> seen, std::vector<float>* footprints = nullptr);

struct ViewRequest {
    std::string camera = "best";        // resolveCamera spec; ignored when pos is set
    std::optional<Vec3> pos, angles;    // explicit camera
    float fov = 90;                     // the game's FOV setting (horizontalFov)
    int width = 512, height = 288;
    std::string mode = "auto";          // a RenderMode name, or auto: lit when textures are found, else lightmap
    std::optional<Look> look;           // default: engine for LDR output, linear for HDR
    bool ldrOutput = true;
    int spp = 1;
    std::string styles;                 // parseStyleSpec syntax; empty: rest
    float time = 0;                     // animated textures
    std::optional<bool> flares;         // default: hidden in lit / albedo, as the games draw them (r_flares 0)
    std::optional<bool> sky;            // default: drawn, except in overviews (sky brushes would cover the map)
    bool transparent = false;           // 4 channels: alpha 0 where nothing (or hidden sky) is drawn
    std::optional<Vec3> skyColor;
    // Lightmap mode: surfaces without a lightmap stage. Default: Engine (r_lightmap's rules, the map's
    // materials loaded) for an explicit lightmap mode, Light when auto falls back to lightmap.
    std::optional<UnlitSurfaces> unlit;
    bool usePvs = true;
    bool worldOnly = false;  // leave out the brush entities (doors, platforms, movers)
    // Quake 3 lit and albedo views: decode each texture from the finest mip level the frame samples (a JPEG
    // through libjpeg's scaled IDCT, within a fraction of a level of whole decodes), as batches do by default;
    // false: whole textures, the pixels `luxel render` and the service draw.
    bool reducedTextures = false;
    // Measure RenderedView::figures (a depth and surface buffer and a pass over the frame: about 50 ms at
    // 1920x1080). The automatic camera always measures its frame, to check it.
    bool figures = false;
};

struct RenderedView {
    // The frame as drawn: display bytes (what PNG, JPEG and WebP hold) when the request's output is LDR,
    // floats when it is not; the other one is empty.
    ByteImage display;
    Image image;
    ResolvedCamera camera;
    RenderMode mode = RenderMode::Lightmap;  // the mode drawn ("auto" resolved)
    FrameStats stats;
    ViewFigures figures;                      // of the image as drawn (render/view_figures.hpp); zero unless measured
    std::vector<std::string> warnings;        // camera fallbacks, missing textures (no map name: callers prefix it)
    // Where the time went: the camera search, finding and loading the materials the frame shows (its visibility
    // pass, shader scripts and texture decodes), the frames drawn and their figures.
    double cameraMs = 0, materialsMs = 0, frameMs = 0, figuresMs = 0;
};

// Checks a request before any map is read: the mode, styles and size. Throws UsageError.
void checkViewRequest(const ViewRequest& request);

// Renders one view (materials loaded on demand). Throws UsageError (bad request, nothing to frame).
RenderedView renderView(LoadedMap& map, const ViewRequest& request);

// The view's frame as an image file named like `path` (its extension picks the format).
std::vector<uint8_t> encodeView(const std::string& path, const RenderedView& view, const ImageMetadata& metadata);
// The view's frame as floats: its display bytes / 255, or the floats drawn.
Image viewFloats(const RenderedView& view);

// What goes into the image file's metadata: software, map, camera, mode.
ImageMetadata viewMetadata(const LoadedMap& map, const RenderedView& view);

// "luxel 0.1.0".
std::string luxelVersionString();

}  // namespace luxel
