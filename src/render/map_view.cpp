#include "luxel/render/map_view.hpp"

#include <tbb/task_group.h>

#include <algorithm>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "luxel/light/light_grid.hpp"
#include "luxel/light/styles.hpp"
#include "luxel/material/texture_sample.hpp"
#include "luxel/render/render_surfaces.hpp"
#include "luxel/util/clock.hpp"
#include "luxel/util/error.hpp"
#include "luxel/vis/visibility.hpp"

namespace luxel {
namespace {

bool needsMaterials(const std::string& mode) { return mode == "auto" || mode == "lit" || mode == "albedo"; }

}  // namespace

std::string luxelVersionString() { return std::string("luxel ") + LUXEL_VERSION; }

LoadedMap loadMap(MapSource source, const DecodeOptions& decode, const MaterialOptions& materials,
                  const PropOptions& props, bool overlays) {
    LoadedMap map;
    map.displayName = source.displayName;
    map.mapName = source.mapName;
    map.materialOptions = materials;
    double t0 = nowMs();
    // Game folders given: their mount (the slow part of the materials' load) runs beside the decode.
    tbb::task_group mount;
    if (!materials.gameDirs.empty()) mount.run([&] { prefetchMaterialSources(source, materials); });
    try {
        map.world = decodeMap(source, decode);
    } catch (...) {
        mount.wait();
        throw;
    }
    mount.wait();
    const double tp = nowMs();
    if (overlays) map.overlays = placeOverlays(map.world);
    if (props.enabled && !map.world.staticProps.empty())
        map.props = placeStaticProps(map.world, propFiles(map.world, materials.gameDirs));
    double t1 = nowMs();
    map.propsMs = t1 - tp;
    map.geometry = tessellate(map.world);
    map.decodeMs = tp - t0;
    map.tessellateMs = nowMs() - t1;
    source.bytes.clear();
    source.bytes.shrink_to_fit();
    map.source = std::move(source);
    return map;
}

std::vector<bool> materialsSeen(const World& world, const Geometry& geometry, const Camera& camera, const CullOptions& cull) {
    const View view = makeView(camera);
    std::vector<bool> seen(world.materials.size(), false);
    for (uint32_t s : visibleSurfaces(world, geometry, view, camera.position, cull)) {
        const int32_t m = world.surfaces[s].material;
        if (m >= 0 && size_t(m) < seen.size()) seen[size_t(m)] = true;
    }
    return seen;
}

namespace {

// Whether a surface drawn with this look takes part in the visibility buffer as an opaque triangle (not a
// cut-out, blended, sky or fog surface): the ones whose texture can only show where they win a pixel.
bool drawnOpaque(const SurfaceLook& look) {
    return look.blend == BlendMode::Opaque && look.opacity >= 1.0f && !look.sky && !look.fogVolume && !look.hidden;
}

}  // namespace

std::vector<bool> materialsShown(LoadedMap& map, const Camera& camera, const RenderOptions& options, float time,
                                 std::vector<bool> seen, std::vector<float>* footprints) {
    if (footprints) footprints->clear();
    if (map.world.format != MapFormat::Quake3 || options.spp != 1) return seen;
    // Every material's look (the shader scripts: blending, deforms, sides), no texture decoded: once per map and time.
    if (!map.looks || map.lookTime != time) {
        MaterialOptions materialOptions = map.materialOptions;
        materialOptions.time = time;
        map.looks = loadMaterials(map.world, map.source, materialOptions, std::vector<bool>(map.world.materials.size(), false));
        map.lookTime = time;
    }
    const MaterialSet& looks = *map.looks;
    const View view = makeView(camera);
    CullOptions cull;
    cull.usePvs = options.usePvs;
    cull.worldOnly = options.worldOnly;
    // The others (blended, cut-out, sky, fog) may show wherever they are seen: they stay as `seen` has them.
    std::vector<uint32_t> opaque;
    for (uint32_t s : visibleSurfaces(map.world, map.geometry, view, camera.position, cull)) {
        const int32_t m = map.world.surfaces[s].material;
        if (m < 0 || size_t(m) >= looks.looks.size() || drawnOpaque(looks.looks[size_t(m)])) opaque.push_back(s);
    }
    // The opaque surfaces alone, through the frame's own rasterizer at the frame's camera: the full frame's
    // visibility buffer has the same opaque winner at every pixel (cut-outs, which come first in its triangle
    // order, can only cover them; blended and sky triangles never do), so the others' textures never show.
    RenderOptions pass = options;
    pass.materials = &looks;
    pass.mode = RenderMode::Lit;
    pass.transparentBackground = false;
    FrameStats stats;
    FrameSamples samples;
    samples.footprints = footprints != nullptr;
    renderSurfaceSamples(map.world, map.geometry, camera, view, pass, opaque, stats, samples);
    std::vector<bool> won(seen.size(), false);
    std::vector<float> finest(seen.size(), std::numeric_limits<float>::infinity());
    for (size_t i = 0; i < samples.surface.size(); ++i) {
        const int32_t s = samples.surface[i];
        if (s < 0 || size_t(s) >= map.world.surfaces.size()) continue;
        const int32_t m = map.world.surfaces[size_t(s)].material;
        if (m < 0 || size_t(m) >= won.size()) continue;
        won[size_t(m)] = true;
        // NaN (a degenerate triangle's planes) reads as 0: whole textures.
        if (footprints) finest[size_t(m)] = std::min(finest[size_t(m)], samples.footprint[i] >= 0 ? samples.footprint[i] : 0.0f);
    }
    if (footprints) footprints->assign(seen.size(), 0.0f);
    for (size_t m = 0; m < seen.size() && m < looks.looks.size(); ++m) {
        if (!drawnOpaque(looks.looks[m])) continue;
        seen[m] = seen[m] && won[m];
        // The frame's own footprints are those of the same planes at the texture's size: a margin for the
        // rounding of the two computations, then the power of two below (reducedFootprint), so a need a hair
        // above a level's threshold takes the level below.
        if (footprints && seen[m]) (*footprints)[m] = reducedFootprint(finest[m] * 0.875f);
    }
    return seen;
}

std::vector<std::string> ensureMaterials(LoadedMap& map, float time, const std::vector<bool>& seen,
                                         const std::vector<float>& footprints) {
    std::vector<std::string> warnings;
    std::vector<bool>& loaded = map.texturesFor;  // empty: every material's textures
    bool covered = map.materials && map.materialOptions.time == time;
    if (!footprints.empty() || !map.textureFootprints.empty()) {
        // Reduced textures are the view's own: the same materials at the same levels, or a load of its own.
        covered = covered && !seen.empty() && loaded == seen && map.textureFootprints == footprints;
        if (covered) return warnings;
        loaded = seen;
        map.textureFootprints = footprints;
    } else {
        if (covered && !loaded.empty()) {
            if (seen.empty()) covered = false;
            for (size_t i = 0; covered && i < seen.size(); ++i) covered = !seen[i] || (i < loaded.size() && loaded[i]);
        }
        if (covered) return warnings;
        if (seen.empty() || !map.materials || map.materialOptions.time != time) {
            loaded = seen;
        } else {  // another view sees more: load the union, so earlier views' materials stay the same
            loaded.resize(std::max(loaded.size(), seen.size()), false);
            for (size_t i = 0; i < seen.size(); ++i) loaded[i] = loaded[i] || seen[i];
        }
    }
    map.materialOptions.time = time;
    const double t0 = nowMs();
    map.materials = loadMaterials(map.world, map.source, map.materialOptions, loaded, map.textureFootprints);
    map.materialsMs += nowMs() - t0;
    if (std::string line = missingSummary(*map.materials); !line.empty()) {
        // A map inside an archive searches the archive's own folder (loadMaterials).
        const bool searched = !map.materialOptions.gameDirs.empty() || splitArchiveMember(map.displayName).has_value();
        if (!searched) line += " (no game directory searched: add --game-dir DIR)";
        warnings.push_back(line);
    }
    // The loaders' own: sky box faces not found, damaged archive entries, unreadable textures and scripts.
    warnings.insert(warnings.end(), map.materials->warnings.begin(), map.materials->warnings.end());
    return warnings;
}

void checkViewRequest(const ViewRequest& r) {
    if (r.mode != "auto") parseRenderMode(r.mode);
    if (!r.styles.empty()) parseStyleSpec(r.styles, World{});
    if (r.width < 1 || r.height < 1 || r.width > 16384 || r.height > 16384)
        throw UsageError(fmt::format("image size must be 1 to 16384 a side, got {}x{}", r.width, r.height));
    if (r.spp < 1 || r.spp > 64) throw UsageError(fmt::format("spp must be 1 to 64, got {}", r.spp));
    if (r.angles && !r.pos) throw UsageError("angles need a camera position");
}

RenderedView renderView(LoadedMap& map, const ViewRequest& request) {
    checkViewRequest(request);
    RenderedView view;
    const double t0 = nowMs();
    if (request.pos) {
        Camera& c = view.camera.camera;
        c.position = *request.pos;
        c.angles = request.angles.value_or(Vec3{});
        c.width = request.width;
        c.height = request.height;
        c.fovX = horizontalFov(map.world, request.fov, request.width, request.height);
        view.camera.spec = view.camera.used = "pos";
    } else {
        const int g = std::gcd(request.width, request.height);
        const std::string key =
            fmt::format("{}|{}|{}:{}", request.camera, request.fov, request.width / g, request.height / g);
        auto known = map.cameras.find(key);
        if (known == map.cameras.end()) {
            if (map.cameras.size() >= 64) map.cameras.clear();  // a bound, not an LRU
            known = map.cameras
                        .emplace(key, resolveCamera(map.world, map.geometry, request.camera, request.width,
                                                    request.height, request.fov))
                        .first;
        }
        view.camera = known->second;
        view.camera.camera.width = request.width;
        view.camera.camera.height = request.height;
        for (Camera& c : view.camera.alternatives) c.width = request.width, c.height = request.height;
    }
    view.cameraMs = nowMs() - t0;
    for (const std::string& note : view.camera.notes) view.warnings.push_back(note);

    const bool engineLightmap = request.mode == "lightmap" && request.unlit.value_or(UnlitSurfaces::Engine) == UnlitSurfaces::Engine;
    // auto: the game's look when the map's textures were found, its light alone when none were (decided below).
    view.mode = request.mode == "auto" ? RenderMode::Lit : parseRenderMode(request.mode);

    // Materials for the camera (the frame's own), then the frame and its figures.
    const RenderMode asked = view.mode;
    auto draw = [&](const Camera& camera) {
        RenderOptions o;
        o.mode = asked;
        o.look = request.look.value_or(request.ldrOutput ? Look::Engine : Look::Linear);
        o.spp = request.spp;
        o.usePvs = request.usePvs;
        o.worldOnly = request.worldOnly;
        o.drawFlares = request.flares.value_or(!(o.mode == RenderMode::Lit || o.mode == RenderMode::Albedo));
        o.drawSky = request.sky.value_or(view.camera.used != "overview");
        o.transparentBackground = request.transparent;
        if (request.skyColor) o.skyColor = *request.skyColor, o.skyColorOverride = true;
        o.styleSpec = request.styles;
        o.unlit = request.mode == "lightmap" ? request.unlit.value_or(UnlitSurfaces::Engine) : UnlitSurfaces::Light;
        // Every material's textures loaded for this time already (a long-lived map a service keeps): nothing
        // to find out about this camera's materials.
        const bool allLoaded = map.materials && map.materialOptions.time == request.time && map.texturesFor.empty();
        const double m0 = nowMs();
        if ((needsMaterials(request.mode) || engineLightmap) && !allLoaded) {
            std::vector<bool> seen = materialsSeen(map.world, map.geometry, camera, {request.usePvs, true, request.worldOnly});
            // Lit and albedo views decode the textures the frame can show, not all the PVS names, from the
            // mip level the frame samples.
            std::vector<float> footprints;
            if (o.mode == RenderMode::Lit || o.mode == RenderMode::Albedo)
                seen = materialsShown(map, camera, o, request.time, std::move(seen), request.reducedTextures ? &footprints : nullptr);
            std::vector<std::string> warnings = ensureMaterials(map, request.time, seen, footprints);
            // Lightmap mode shows lightmaps, not textures: a texture it cannot find is no news there.
            if (needsMaterials(request.mode))
                for (std::string& w : warnings)
                    if (std::find(view.warnings.begin(), view.warnings.end(), w) == view.warnings.end())
                        view.warnings.push_back(std::move(w));
        }
        view.materialsMs += nowMs() - m0;
        view.mode = asked;
        if (request.mode == "auto" && !(map.materials && !map.materials->textures.empty())) view.mode = RenderMode::Lightmap;
        o.mode = view.mode;
        const bool gameLook = o.mode == RenderMode::Lit || o.mode == RenderMode::Albedo;
        o.drawFlares = request.flares.value_or(!gameLook);
        if ((gameLook || engineLightmap) && map.materials) o.materials = &*map.materials;
        const double t1 = nowMs();
        FrameSamples samples;
        const bool measure = request.figures || view.camera.used == "best";
        if (request.ldrOutput)
            renderFrame(map.world, map.geometry, camera, o, view.display, &view.stats, measure ? &samples : nullptr);
        else
            renderFrame(map.world, map.geometry, camera, o, view.image, &view.stats, measure ? &samples : nullptr);
        const double t2 = nowMs();
        view.frameMs += t2 - t1;
        if (measure)
            view.figures = request.ldrOutput ? viewFigures(view.display, samples) : viewFigures(toDisplayImage(view.image), samples);
        view.figuresMs += nowMs() - t2;
    };
    if (view.mode == RenderMode::Grid && probeKind(map.world) == ProbeKind::None)
        view.warnings.push_back("no light grid or ambient cubes: grid mode draws its surfaces black");
    draw(view.camera.camera);
    // The automatic camera chose by lightmap renders; a finished frame that breaks the thumbnail rules
    // (render/view_figures.hpp: lit frames are darker) gives way to the next acceptable candidate that keeps them.
    if (view.camera.used == "best" && !acceptableView(view.figures)) {
        RenderedView first = view;
        bool kept = false;
        for (const Camera& alternative : view.camera.alternatives) {
            draw(alternative);
            if (acceptableView(view.figures)) {
                view.camera.camera = alternative;
                view.camera.notes.push_back("the best view's frame broke the thumbnail rules; used the next one");
                kept = true;
                break;
            }
        }
        if (!kept) {
            const double materialsMs = view.materialsMs, frameMs = view.frameMs, figuresMs = view.figuresMs;
            view = std::move(first);
            view.materialsMs = materialsMs, view.frameMs = frameMs, view.figuresMs = figuresMs;
        }
    }
    return view;
}

std::vector<uint8_t> encodeView(const std::string& path, const RenderedView& view, const ImageMetadata& metadata) {
    return view.display.bytes.empty() ? encodeImage(path, view.image, metadata) : encodeImage(path, view.display, metadata);
}

Image viewFloats(const RenderedView& view) { return view.display.bytes.empty() ? view.image : floatsOf(view.display); }

ImageMetadata viewMetadata(const LoadedMap& map, const RenderedView& view) {
    const Camera& c = view.camera.camera;
    const std::string camera = fmt::format("{} pos {:.2f} {:.2f} {:.2f} angles {:.3f} {:.3f} {:.3f} fov {:.3f}",
                                           view.camera.used, c.position.x, c.position.y, c.position.z, c.angles.x,
                                           c.angles.y, c.angles.z, c.fovX);
    return {{"Software", luxelVersionString()},
            {"ImageDescription", fmt::format("{} ({}), camera {}", map.mapName, renderModeName(view.mode), camera)},
            {"luxel:map", map.displayName},
            {"luxel:camera", camera},
            {"luxel:mode", renderModeName(view.mode)}};
}

}  // namespace luxel
