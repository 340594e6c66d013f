// The overlay pass of a tile: triangles that blend or cut out over the shaded opaque picture in the engine's
// order, and the alpha test of the cut-outs the visibility buffer resolves.
#include <vector>

#include "frame_parts.hpp"

namespace luxel::render {

namespace {

// A see-through opaque program's triangle (seeThroughProgram): the pixels that pass the depth test gathered into
// row runs, each drawn by programOverRun. A triangle covers a pixel once, so its own depth writes cannot change
// which of its later pixels pass.
void drawSeeThroughTriangle(const ShadeContext& ctx, const std::vector<raster::RasterTri>& tris, const Candidate& cand,
                            uint32_t tri, const raster::TileRect& rect, float* depth, const PixelRows& target, uint8_t* drawn) {
    float runDepth[raster::kTileSize];
    int runX = 0, runY = 0, runN = 0;
    auto flush = [&] {
        if (runN > 0) programOverRun(ctx, tri, runX, runY, runDepth, runN, target.at(runX, runY));
        runN = 0;
    };
    raster::forEachCoveredPixel(tris[tri], rect.x, rect.y, rect.x + rect.w - 1, rect.y + rect.h - 1, [&](int px, int py, float z) {
        const size_t at = size_t(py - rect.y) * size_t(rect.w) + size_t(px - rect.x);
        float& d = depth[at];
        if (z < d) return;
        if (cand.depthWrite) d = z;
        if (drawn) drawn[at] = 1;
        if (runN > 0 && (py != runY || px != runX + runN)) flush();
        if (runN == 0) runX = px, runY = py;
        runDepth[runN++] = z;
    });
    flush();
}

// One overlay triangle over a tile whose opaque pixels are shaded: depth-tested against the tile
// (coplanar decals draw over their wall), then cut out (alpha test, which also writes depth) or blended.
// `drawn` (tile-local, may be null) marks the pixels the triangle wrote.
// A blended or cut-out program triangle: the pixels that pass the depth test gathered, then drawn by
// programOverPixels (the triangle's set-up once), then their depth and marks written (a triangle covers a pixel
// once, so its own writes cannot change which of its pixels pass).
void drawProgramTriangle(const ShadeContext& ctx, const std::vector<raster::RasterTri>& tris, const Candidate& cand,
                         uint32_t tri, const raster::TileRect& rect, float* depth, const PixelRows& target, uint8_t* drawn) {
    constexpr size_t kMax = size_t(raster::kTileSize) * raster::kTileSize;
    struct Pixels {  // a tile's worth, kept per thread (too large for the stack beside the tile's own buffers)
        std::vector<int> px = std::vector<int>(kMax), py = std::vector<int>(kMax);
        std::vector<float> invW = std::vector<float>(kMax);
        std::vector<float*> rgb = std::vector<float*>(kMax);
        std::vector<uint8_t> written = std::vector<uint8_t>(kMax);
    };
    thread_local Pixels p;
    int* px = p.px.data();
    int* py = p.py.data();
    float* invW = p.invW.data();
    uint8_t* written = p.written.data();
    int n = 0;
    raster::forEachCoveredPixel(tris[tri], rect.x, rect.y, rect.x + rect.w - 1, rect.y + rect.h - 1, [&](int x, int y, float z) {
        if (z < depth[size_t(y - rect.y) * size_t(rect.w) + size_t(x - rect.x)]) return;
        px[n] = x, py[n] = y, invW[n] = z, p.rgb[size_t(n)] = target.at(x, y), ++n;
    });
    programOverPixels(ctx, tri, px, py, invW, n, p.rgb.data(), written);
    const bool writesDepth = cand.blend == BlendMode::AlphaTest || cand.depthWrite;
    for (int k = 0; k < n; ++k) {
        if (!written[k]) continue;
        const size_t at = size_t(py[k] - rect.y) * size_t(rect.w) + size_t(px[k] - rect.x);
        if (writesDepth) depth[at] = invW[k];
        if (drawn) drawn[at] = 1;
    }
}

void drawOverlayTriangle(const ShadeContext& ctx, const std::vector<raster::RasterTri>& tris,
                         const Candidate& cand, uint32_t tri, const raster::TileRect& rect, float* depth, const PixelRows& target,
                         uint8_t* drawn) {
    const TriShade& shade = ctx.triShade[tri];
    if (seeThroughProgram(shade)) return drawSeeThroughTriangle(ctx, tris, cand, tri, rect, depth, target, drawn);
    if (shade.program && !shade.fogSurface && !shade.water) return drawProgramTriangle(ctx, tris, cand, tri, rect, depth, target, drawn);
    raster::forEachCoveredPixel(tris[tri], rect.x, rect.y, rect.x + rect.w - 1, rect.y + rect.h - 1,
                                [&](int px, int py, float z) {
                                    float& d = depth[size_t(py - rect.y) * size_t(rect.w) + size_t(px - rect.x)];
                                    if (z < d) return;
                                    float* o = target.at(px, py);
                                    uint8_t* programMark =
                                        drawn ? drawn + size_t(py - rect.y) * size_t(rect.w) + size_t(px - rect.x) : nullptr;
                                    const TriShade& ts = ctx.triShade[tri];
                                    if (ts.fogSurface) {  // the fog volume's own surface: its fog pass
                                        fogOverPixel(ctx, tri, px, py, z, o);
                                        if (programMark) *programMark = 1;
                                        return;
                                    }
                                    if (ts.water) {  // Source water: its fog over what is behind
                                        waterOverPixel(ts, z, d, o);
                                        if (programMark) *programMark = 1;
                                        return;
                                    }
                                    Vec4 c = shadePixelWithAlpha(ctx, tri, px, py, z);
                                    // Fog (FinishShader): blended surfaces fade their alpha, additive ones their
                                    // colour; cut-out ones get the fog pass over what they wrote.
                                    const float keep = ts.fog >= 0 ? 1.0f - fogAt(ctx, tri, px, py, z) : 1.0f;
                                    if (cand.blend == BlendMode::Blend) c.w *= keep;
                                    if (cand.blend == BlendMode::Additive) c.x *= keep, c.y *= keep, c.z *= keep;
                                    // Quake 1's world fog colours the fragment before it is blended.
                                    if (ts.distanceFog && cand.blend != BlendMode::Multiply) {
                                        float f[3] = {c.x, c.y, c.z};
                                        distanceFogOverPixel(ctx, z, f, cand.blend == BlendMode::Additive);
                                        c.x = f[0], c.y = f[1], c.z = f[2];
                                    }
                                    const float a = c.w;
                                    uint8_t* mark =
                                        drawn ? drawn + size_t(py - rect.y) * size_t(rect.w) + size_t(px - rect.x) : nullptr;
                                    switch (cand.blend) {
                                        case BlendMode::Opaque:
                                        case BlendMode::AlphaTest:
                                            if (a < cand.alphaRef) return;
                                            o[0] = c.x, o[1] = c.y, o[2] = c.z;
                                            if (ts.fog >= 0) fogOverPixel(ctx, tri, px, py, z, o);
                                            d = z;
                                            if (mark) *mark = 1;
                                            return;
                                        case BlendMode::Blend:
                                            if (mark && a > 0) *mark = 1;
                                            if (cand.depthWrite) d = z;
                                            o[0] = c.x * a + o[0] * (1.0f - a);
                                            o[1] = c.y * a + o[1] * (1.0f - a);
                                            o[2] = c.z * a + o[2] * (1.0f - a);
                                            return;
                                        case BlendMode::Additive:
                                            if (mark && a > 0) *mark = 1;
                                            o[0] += c.x * a, o[1] += c.y * a, o[2] += c.z * a;
                                            return;
                                        case BlendMode::Multiply:
                                            o[0] *= c.x, o[1] *= c.y, o[2] *= c.z;
                                            return;
                                    }
                                });
}

}  // namespace

void drawOverlays(const ShadeContext& ctx, const std::vector<raster::RasterTri>& tris,
                  const std::vector<Candidate>& cands, const std::vector<raster::ShadeTri>& shadeTris, const uint32_t* ids,
                  size_t count, const raster::TileRect& rect, float* depth, const PixelRows& target, uint8_t* drawn) {
    for (size_t k = 0; k < count; ++k)
        drawOverlayTriangle(ctx, tris, cands[shadeTris[ids[k]].source], ids[k], rect, depth, target, drawn);
}

bool resolvedCutout(const Candidate& cand, const TriShade& ts) {
    return cand.blend == BlendMode::AlphaTest && !ts.fogSurface && !ts.program;
}

void keepCutout(const void* context, uint32_t tri, const int32_t* px, const int32_t* py, const float* z, int n,
                uint8_t* keep) {
    const CutoutContext& c = *static_cast<const CutoutContext*>(context);
    pixelCutoutKeeps(*c.ctx, tri, px, py, z, n, (*c.cands)[c.shadeTris[tri].source].alphaRef, keep);
}

}  // namespace luxel::render
