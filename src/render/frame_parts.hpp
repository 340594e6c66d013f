#pragma once
// Internal to the render stage: the frame loop's (frame.cpp) candidate triangles (frame_candidates.cpp) and
// what it hands its overlay pass (overlay_pass.cpp).
#include <vector>

#include "luxel/render/raster.hpp"
#include "luxel/render/render.hpp"
#include "luxel/render/shade.hpp"

namespace luxel::render {

// A triangle the frame draws, in candidate order (surfaces ascending, then billboards).
struct Candidate {
    SourceTri src;
    bool twoSided = false;
    BlendMode blend = BlendMode::Opaque;  // not Opaque: drawn by the overlay pass after the opaque picture
    float alphaRef = 0.5f;
    float sort = 0;           // the material's engine sort value (0: back to front)
    bool depthWrite = false;  // a blended surface that writes depth (Quake 3 stage 0 depthWrite)
};

// The frame's candidate triangles in a fixed order: `surfaces` ascending, each one's indices in order, then the
// billboards of visible surfaces (when options.drawFlares). Deformed surfaces and flares get their vertices
// appended to frameVerts (their SourceTri::frameVertices set). `materials`: the looks the frame draws with (null:
// none); ownStagesInLightmapMode: lightmap mode under r_lightmap's rules.
std::vector<Candidate> frameCandidates(const World& world, const Geometry& geometry, const View& view,
                                       const RenderOptions& options, const MaterialSet* materials,
                                       bool ownStagesInLightmapMode, const std::vector<uint32_t>& surfaces,
                                       std::vector<DrawVertex>& frameVerts);

// Draws a tile's overlay triangles in order over its shaded opaque pixels: each depth-tested against the
// tile (coplanar decals draw over their wall), then cut out (alpha test, which also writes depth) or blended.
// `drawn` (tile-local, may be null) marks the pixels written.
void drawOverlays(const ShadeContext& ctx, const std::vector<raster::RasterTri>& tris, const std::vector<Candidate>& cands,
                  const std::vector<raster::ShadeTri>& shadeTris, const uint32_t* ids, size_t count,
                  const raster::TileRect& rect, float* depth, const PixelRows& target, uint8_t* drawn);

// Whether a triangle is a cut-out the visibility buffer resolves: alpha-tested, shaded like an opaque surface (no
// stage program, not a fog volume's own surface), so the nearest pixel its alpha test keeps is all it shows.
bool resolvedCutout(const Candidate& cand, const TriShade& ts);

struct CutoutContext {
    const ShadeContext* ctx;
    const std::vector<Candidate>* cands;
    const raster::ShadeTri* shadeTris;
};

// raster::CutoutTest::keep (context: a CutoutContext): the texture's alpha against the material's reference
// (pixelCutoutKeeps).
void keepCutout(const void* context, uint32_t tri, const int32_t* px, const int32_t* py, const float* z, int n,
                uint8_t* keep);

}  // namespace luxel::render
