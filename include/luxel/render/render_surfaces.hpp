#pragma once
// renderFrame after culling (internal to the render stage; exposed so tests can render hand-built
// surface lists without a BSP tree).
#include <cstdint>
#include <vector>

#include "luxel/render/render.hpp"

namespace luxel {

// Renders exactly the given surfaces (ascending indices into geometry.surfaces), plus the billboards of
// those surfaces. Fills every FrameStats field except cull and cullMs.
Image renderSurfaces(const World& world, const Geometry& geometry, const Camera& camera, const View& view,
                     const RenderOptions& options, const std::vector<uint32_t>& surfaces, FrameStats& stats);
// The same into `image` (storage reused when it has the frame's size). `skyView` (Lit / Albedo, the frame's
// size): the 3D skybox picture drawn where sky surfaces are (render/sky_view.hpp).
void renderSurfaces(const World& world, const Geometry& geometry, const Camera& camera, const View& view,
                    const RenderOptions& options, const std::vector<uint32_t>& surfaces, FrameStats& stats,
                    Image& image, FrameSamples* samples = nullptr, const Image* skyView = nullptr);
// The same as display bytes (writeImage's 8-bit values), the frame's own output for PNG, JPEG and WebP: each
// tile stored as bytes once shaded, no float frame (unless sample passes are summed or coverage is kept).
void renderSurfaces(const World& world, const Geometry& geometry, const Camera& camera, const View& view,
                    const RenderOptions& options, const std::vector<uint32_t>& surfaces, FrameStats& stats,
                    ByteImage& display, FrameSamples* samples = nullptr, const Image* skyView = nullptr);
// The frame's visibility buffer alone (the surface each pixel shows, its depth, sky or not), at spp 1: the
// samples renderSurfaces gives, without shading a pixel. stats: as renderSurfaces fills them, pixelsCovered
// included (no pixel is missing a texture, none being shaded).
void renderSurfaceSamples(const World& world, const Geometry& geometry, const Camera& camera, const View& view,
                          const RenderOptions& options, const std::vector<uint32_t>& surfaces, FrameStats& stats,
                          FrameSamples& samples);

// Sub-pixel sample offsets (relative to the pixel centre, in pixels) used for `spp` samples: sample 0 is
// the centre, the rest follow the R2 low-discrepancy sequence.
Vec2 sampleOffset(int index);

}  // namespace luxel
