// renderFrame: the visible surfaces culled, the 3D skybox view drawn first when the frame shows its sky, then the
// frame itself (frame.cpp's renderSurfaces), into floats or display bytes.
#include <algorithm>
#include <optional>
#include <vector>

#include "luxel/render/render.hpp"
#include "luxel/render/render_surfaces.hpp"
#include "luxel/render/sky_view.hpp"
#include "luxel/util/clock.hpp"
#include "luxel/vis/visibility.hpp"

namespace luxel {

namespace {

CullOptions cullOptions(const RenderOptions& options) {
    CullOptions cull;
    cull.usePvs = options.usePvs;
    cull.worldOnly = options.worldOnly;
    return cull;
}

// The surfaces the frame draws (PVS and frustum); resets `stats` and fills its culling figures.
std::vector<uint32_t> culledSurfaces(const World& world, const Geometry& geometry, const Camera& camera, const View& view,
                                     const CullOptions& cull, FrameStats& stats) {
    stats = FrameStats{};
    const double t0 = nowMs();
    std::vector<uint32_t> surfaces = visibleSurfaces(world, geometry, view, camera.position, cull, &stats.cull);
    stats.cullMs = nowMs() - t0;
    return surfaces;
}

// renderFrame into either kind of frame (Image: floats, ByteImage: display bytes).
template <class Frame>
void renderFrameInto(const World& world, const Geometry& geometry, const Camera& camera, const RenderOptions& options,
                     Frame& image, FrameStats* stats, FrameSamples* samples) {
    FrameStats local;
    FrameStats& st = stats ? *stats : local;
    const double t0 = nowMs();
    const View view = makeView(camera);
    const CullOptions cull = cullOptions(options);
    const std::vector<uint32_t> surfaces = culledSurfaces(world, geometry, camera, view, cull, st);
    // The 3D skybox first (Source sky_camera), when the frame draws sky as the game does and some visible
    // surface is sky: its picture shows through the main frame's sky pixels.
    // Kept per thread between frames, as the frame itself is by callers: no allocation or page faults per frame.
    thread_local Image skyImage;
    bool withSkyView = false;
    if (world.skyCamera && options.drawSky && options.materials && !options.skyColorOverride &&
        (options.mode == RenderMode::Lit || options.mode == RenderMode::Albedo)) {
        const bool seesSky = std::any_of(surfaces.begin(), surfaces.end(), [&](uint32_t s) {
            const DrawSurface& ds = geometry.surfaces[s];
            return ds.shading == SurfaceShading::Sky ||
                   (ds.material >= 0 && size_t(ds.material) < options.materials->looks.size() &&
                    options.materials->looks[size_t(ds.material)].sky);
        });
        if (const std::optional<SkyboxView> sky = seesSky ? skyboxView(world, geometry, camera, cull) : std::nullopt) {
            RenderOptions skyOptions = options;
            skyOptions.transparentBackground = false;
            FrameStats skyStats;
            renderSurfaces(world, geometry, sky->camera, makeView(sky->camera), skyOptions, sky->surfaces, skyStats, skyImage);
            withSkyView = true;
            st.skyViewMs = nowMs() - t0 - st.cullMs;
        }
    }
    renderSurfaces(world, geometry, camera, view, options, surfaces, st, image, samples, withSkyView ? &skyImage : nullptr);
}

}  // namespace

void renderFrame(const World& world, const Geometry& geometry, const Camera& camera, const RenderOptions& options,
                 Image& image, FrameStats* stats, FrameSamples* samples) {
    renderFrameInto(world, geometry, camera, options, image, stats, samples);
}

void renderFrame(const World& world, const Geometry& geometry, const Camera& camera, const RenderOptions& options,
                 ByteImage& display, FrameStats* stats, FrameSamples* samples) {
    renderFrameInto(world, geometry, camera, options, display, stats, samples);
}

void renderFrameSamples(const World& world, const Geometry& geometry, const Camera& camera, const RenderOptions& options,
                        FrameSamples& samples, FrameStats* stats) {
    FrameStats local;
    FrameStats& st = stats ? *stats : local;
    const View view = makeView(camera);
    const std::vector<uint32_t> surfaces = culledSurfaces(world, geometry, camera, view, cullOptions(options), st);
    renderSurfaceSamples(world, geometry, camera, view, options, surfaces, st, samples);
}

Image renderFrame(const World& world, const Geometry& geometry, const Camera& camera, const RenderOptions& options,
                  FrameStats* stats) {
    Image image;
    renderFrame(world, geometry, camera, options, image, stats);
    return image;
}

}  // namespace luxel
