#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_group.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <tuple>
#include <type_traits>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "luxel/light/light_grid.hpp"
#include "luxel/render/raster.hpp"
#include "luxel/render/render.hpp"
#include "luxel/render/render_surfaces.hpp"
#include "luxel/render/shade.hpp"
#include "luxel/util/error.hpp"

#include "draw_order.hpp"
#include "frame_parts.hpp"
#include "shade/parts.hpp"

namespace luxel {

namespace {

using Clock = std::chrono::steady_clock;
double msBetween(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

using render::Candidate;
using render::CutoutContext;
using render::SourceKind;
using render::SourceTri;



constexpr size_t kSetupChunk = 1024;
// Sky triangles' 1/w is rasterized times 2^-64 (see the tile loop). Pixels under the limit are sky (or
// empty, 0): anything else that far (1/w < 2^-40, over 10^12 units away) only a hostile map has, and it
// would only be shaded at a wrong depth.
constexpr float kSkyDepthScale = 0x1p-64f, kSkyDepthLimit = 0x1p-40f;

// Undoes kSkyDepthScale on a tile's sky pixels (exact: a power of two), four at a time.
void unscaleSkyDepths(float* depth, int n) {
    int i = 0;
#if defined(__SSE2__)
    const __m128 limit = _mm_set1_ps(kSkyDepthLimit), inverse = _mm_set1_ps(1.0f / kSkyDepthScale), one = _mm_set1_ps(1.0f);
    for (; i + 4 <= n; i += 4) {
        const __m128 d = _mm_loadu_ps(depth + i);
        const __m128 sky = _mm_cmplt_ps(d, limit);
        _mm_storeu_ps(depth + i, _mm_mul_ps(d, _mm_or_ps(_mm_and_ps(sky, inverse), _mm_andnot_ps(sky, one))));
    }
#endif
    for (; i < n; ++i) depth[i] = depth[i] < kSkyDepthLimit ? depth[i] * (1.0f / kSkyDepthScale) : depth[i];
}

struct ChunkOut {
    std::vector<raster::RasterTri> raster;
    std::vector<raster::ShadeTri> shade;
    size_t drawn = 0;
};

}  // namespace

Vec2 sampleOffset(int index) {
    // R2 sequence (Roberts 2018): the plastic number gives well-spread points for any count.
    const double g = 1.32471795724474602596;
    double x = std::fmod(0.5 + double(index) / g, 1.0) - 0.5;
    double y = std::fmod(0.5 + double(index) / (g * g), 1.0) - 0.5;
    return {float(x), float(y)};
}

namespace {

// Where a frame's finished tiles go: display bytes (what PNG, JPEG and WebP hold) or floats (one of the two), or
// nowhere: a visibility pass, whose only output is its FrameSamples.
struct FrameTarget {
    Image* floats = nullptr;
    ByteImage* display = nullptr;
};

void drawSurfaces(const World& world, const Geometry& geometry, const Camera& camera, const View& view,
                  const RenderOptions& options, const std::vector<uint32_t>& surfaces, FrameStats& stats,
                  const FrameTarget& target, FrameSamples* samples, const Image* skyView) {
    const int W = camera.width, H = camera.height;
    if (W < 1 || H < 1 || W > raster::kMaxImageSide || H > raster::kMaxImageSide)
        throw UsageError("image size " + std::to_string(W) + "x" + std::to_string(H) + " is out of range (1.." +
                         std::to_string(raster::kMaxImageSide) + " per side)");
    if (options.spp < 1 || options.spp > 256)
        throw UsageError("samples per pixel must be 1..256, got " + std::to_string(options.spp));
    if (!(camera.nearPlane > 0)) throw UsageError("camera near plane must be positive");

    auto tSetup0 = Clock::now();
    const StyleWeights styleWeights =
        options.styleWeights ? *options.styleWeights
                             : parseStyleSpec(options.styleSpec.empty() ? "rest" : options.styleSpec, world);
    // Tiles are shaded in floats in a buffer of their own, then stored. A display frame gets their bytes, unless
    // it needs floats first: sample passes are summed, coverage becomes alpha.
    const bool samplesOnly = !target.floats && !target.display;
    if (samplesOnly && (!samples || options.spp != 1))
        throw UsageError("a visibility pass needs its samples and one pass");
    const bool toBytes = target.display != nullptr;
    const bool floatFrame = !samplesOnly && (!toBytes || options.spp > 1 || options.transparentBackground);
    Image ownFloats;
    Image& image = toBytes || samplesOnly ? ownFloats : *target.floats;
    // Every pixel is written by the first pass's shading, so the frame is not zero-filled first, and a
    // frame of the right size is drawn over as it is (no allocation, no page faults).
    tbb::task_group allocation;
    if (floatFrame && (image.width != W || image.height != H || image.channels != 3 ||
                       image.pixels.size() != size_t(W) * size_t(H) * 3))
        allocation.run([&image, W, H] { image = Image::uninitialized(W, H, 3); });
    if (toBytes && !floatFrame && (target.display->width != W || target.display->height != H || target.display->channels != 3 ||
                        target.display->bytes.size() != size_t(W) * size_t(H) * 3))
        allocation.run([display = target.display, W, H] {
            display->width = W, display->height = H, display->channels = 3;
            display->bytes.resize(size_t(W) * size_t(H) * 3);
        });

    // Lightmap mode under r_lightmap's rules draws surfaces without a lightmap stage with their own stages.
    const bool ownStagesInLightmapMode = options.mode == RenderMode::Lightmap && options.unlit == UnlitSurfaces::Engine;
    const MaterialSet* materials =
        options.mode == RenderMode::Lit || options.mode == RenderMode::Albedo || ownStagesInLightmapMode
            ? options.materials
            : nullptr;
    const AlbedoTable albedoTable = makeAlbedoTable(materials ? materials->textureGamma : 1.0f);

    // Candidate triangles (frame_candidates.cpp); deformed surfaces and flares get vertices of their own.
    std::vector<DrawVertex> frameVerts;
    const std::vector<Candidate> cands =
        render::frameCandidates(world, geometry, view, options, materials, ownStagesInLightmapMode, surfaces, frameVerts);
    stats.trianglesIn = cands.size();

    const Mat4& m = view.viewProjection;
    const Vec3 eye = camera.position;
    const size_t numChunks = (cands.size() + kSetupChunk - 1) / kSetupChunk;

    render::ShadeContext ctx;
    ctx.world = &world;
    ctx.geometry = &geometry;
    ctx.flareVertices = frameVerts.data();
    ctx.mode = options.mode;
    ctx.unlit = options.mode == RenderMode::Lightmap ? options.unlit : UnlitSurfaces::Light;
    ctx.look = options.look;
    ctx.flatFloor = options.shadingFloor == ShadingFloor::Flat;
    ctx.skyColor = options.skyColor;
    ctx.skyColorOverride = options.skyColorOverride;
    if (skyView && skyView->width == W && skyView->height == H && skyView->channels == 3) ctx.skyView = skyView;
    ctx.background = options.background;
    std::vector<std::optional<render::CloudGrid>> cloudGrids;
    if (materials) {
        for (const SkyBox& sky : materials->skies)
            cloudGrids.push_back(sky.clouds.empty() ? std::nullopt : std::optional(render::makeCloudGrid(sky)));
        ctx.cloudGrids = &cloudGrids;
    }
    std::vector<SourceTri> sources(cands.size());
    for (size_t i = 0; i < cands.size(); ++i) sources[i] = cands[i].src;
    ctx.sources = sources.data();
    ctx.styleWeights = &styleWeights;
    ctx.materials = materials;
    ctx.albedoTable = &albedoTable;
    ctx.eye = camera.position;
    ctx.viewForward = view.forward;
    const std::shared_ptr<const render::GammaTable> gammaTable = render::sharedGammaTable(world.look.gamma);
    ctx.gamma = gammaTable.get();
    const bool lightMode = options.mode == RenderMode::Lightmap || options.mode == RenderMode::Vertex ||
                           options.mode == RenderMode::Lit || options.mode == RenderMode::Grid ||
                           options.mode == RenderMode::Albedo;
    std::optional<ProbeSampler> ownProbes;
    if (options.mode == RenderMode::Grid) {
        // A sampler made for another World would point into that one's leaves and samples.
        const bool reuse = options.probes && options.probes->world == &world;
        if (!reuse) ownProbes = makeProbeSampler(world);
        ctx.probes = reuse ? options.probes : &*ownProbes;
    }

    const bool depthMode = options.mode == RenderMode::Depth;
    std::vector<float> frameDepth;
    std::vector<uint32_t> frameId;
    if (depthMode) {
        frameDepth.resize(size_t(W) * size_t(H));
        frameId.resize(size_t(W) * size_t(H));
    }
    // Transparent background: per pixel, how many sample passes drew something there.
    std::vector<uint16_t> coverage;
    if (options.transparentBackground && !samplesOnly) coverage.assign(size_t(W) * size_t(H), 0);
    if (samples) {
        samples->width = W;
        samples->height = H;
        samples->depth.assign(size_t(W) * size_t(H), 0.0f);
        samples->surface.assign(size_t(W) * size_t(H), -1);
        samples->sky.assign(size_t(W) * size_t(H), 0);
        if (samples->footprints) samples->footprint.assign(size_t(W) * size_t(H), 0.0f);
    }
    std::vector<float> tileRasterMs, tileShadeMs;
    std::vector<uint32_t> tileCovered, tileMissing;
    double setupMs = msBetween(tSetup0, Clock::now()), rasterMs = 0, shadeMs = 0;

    std::optional<render::DrawOrder> drawOrder;  // made when a frame has blended triangles
    for (int pass = 0; pass < options.spp; ++pass) {
        auto tPass = Clock::now();
        raster::ScreenSetup setup;
        setup.width = W;
        setup.height = H;
        setup.nearW = camera.nearPlane;
        Vec2 off = sampleOffset(pass);
        setup.offsetX = off.x;
        setup.offsetY = off.y;

        std::vector<ChunkOut> chunks(numChunks);
        tbb::parallel_for(tbb::blocked_range<size_t>(0, numChunks, 1), [&](const tbb::blocked_range<size_t>& r) {
            for (size_t c = r.begin(); c != r.end(); ++c) {
                ChunkOut& out = chunks[c];
                const size_t end = std::min(cands.size(), (c + 1) * kSetupChunk);
                out.raster.reserve(end - c * kSetupChunk);
                out.shade.reserve(end - c * kSetupChunk);
                for (size_t i = c * kSetupChunk; i < end; ++i) {
                    const Candidate& cand = cands[i];
                    const DrawVertex* base =
                        cand.src.frameVertices ? frameVerts.data() : geometry.vertices.data();
                    const Vec3 p[3] = {base[cand.src.v[0]].position, base[cand.src.v[1]].position, base[cand.src.v[2]].position};
                    // Facing away: dropped before its corners are transformed (the same triangles pass either way).
                    if (!cand.twoSided && !raster::facesEye(p[0], p[1], p[2], eye)) continue;
                    if (raster::setupWorldTriangle(p, m, uint32_t(i), setup, out.raster, out.shade) >= 0) ++out.drawn;
                }
            }
        });
        std::vector<size_t> chunkBase(numChunks + 1, 0);
        size_t drawn = 0;
        for (size_t c = 0; c < numChunks; ++c) {
            chunkBase[c + 1] = chunkBase[c] + chunks[c].raster.size();
            drawn += chunks[c].drawn;
        }
        std::vector<raster::RasterTri> tris(chunkBase[numChunks]);
        std::vector<raster::ShadeTri> shadeTris(chunkBase[numChunks]);
        // Each triangle's shading set-up (352 bytes): every one in a shaded frame. A visibility pass shades
        // nothing: only alpha-tested ones get it (their alpha test), at `slot` of their triangle, and of those
        // only the cut-outs are kept below (first in the triangle order).
        std::vector<render::TriShade> triShade(lightMode && !samplesOnly ? chunkBase[numChunks] : 0);
        std::vector<uint32_t> slot;
        if (lightMode && samplesOnly) {
            slot.assign(chunkBase[numChunks], 0);
            size_t alphaTested = 0;
            for (size_t c = 0; c < numChunks; ++c)
                for (size_t i = 0; i < chunks[c].shade.size(); ++i)
                    if (cands[chunks[c].shade[i].source].blend == BlendMode::AlphaTest) slot[chunkBase[c] + i] = uint32_t(alphaTested++);
            triShade.resize(alphaTested);
        }
        tbb::parallel_for(tbb::blocked_range<size_t>(0, numChunks, 1), [&](const tbb::blocked_range<size_t>& r) {
            for (size_t c = r.begin(); c != r.end(); ++c) {
                std::copy(chunks[c].raster.begin(), chunks[c].raster.end(), tris.begin() + std::ptrdiff_t(chunkBase[c]));
                std::copy(chunks[c].shade.begin(), chunks[c].shade.end(), shadeTris.begin() + std::ptrdiff_t(chunkBase[c]));
                if (!lightMode) continue;
                for (size_t i = 0; i < chunks[c].shade.size(); ++i) {
                    if (!samplesOnly)
                        triShade[chunkBase[c] + i] = render::prepareTriangle(ctx, chunks[c].shade[i]);
                    else if (cands[chunks[c].shade[i].source].blend == BlendMode::AlphaTest)
                        triShade[slot[chunkBase[c] + i]] = render::prepareTriangle(ctx, chunks[c].shade[i]);
                }
            }
        });
        chunks.clear();
        // Cut-outs go first in the triangle order, last one first: the visibility buffer gives equal depths to the
        // lower id, so a cut-out wins a tie with an opaque triangle and of tied cut-outs the later one wins, as
        // when they were drawn over the opaque picture in order (coplanar decals stay on their walls).
        std::vector<uint8_t> isCutout;
        if (materials) {
            std::vector<uint32_t> order, rest;
            for (uint32_t i = 0; i < uint32_t(tris.size()); ++i) {
                const Candidate& cand = cands[shadeTris[i].source];
                const bool cutout = cand.blend == BlendMode::AlphaTest &&
                                    render::resolvedCutout(cand, samplesOnly ? triShade[slot[i]] : triShade[i]);
                (cutout ? order : rest).push_back(i);
            }
            if (!order.empty()) {
                const size_t numCutouts = order.size();
                std::reverse(order.begin(), order.end());
                order.insert(order.end(), rest.begin(), rest.end());
                // Copies in the new order (no default-constructed vector to assign into).
                auto permute = [&](auto& v, size_t count, auto index) {
                    std::remove_reference_t<decltype(v)> out;
                    out.reserve(count);
                    for (size_t i = 0; i < count; ++i) out.push_back(v[index(order[i])]);
                    v = std::move(out);
                };
                auto same = [](uint32_t i) { return i; };
                permute(tris, order.size(), same);
                permute(shadeTris, order.size(), same);
                if (samplesOnly)
                    permute(triShade, numCutouts, [&](uint32_t i) { return slot[i]; });
                else
                    permute(triShade, order.size(), same);
                isCutout.assign(tris.size(), 0);
                std::fill(isCutout.begin(), isCutout.begin() + std::ptrdiff_t(numCutouts), 1);
            }
        }
        if (pass == 0) {
            allocation.wait();
        }
        // Overlay triangles (alpha-tested, blended) skip the visibility buffer: after a tile's opaque pixels
        // are shaded, alpha-tested ones are drawn in triangle order with depth writes, then blended ones in
        // the engine's order (draw_order.hpp: Quake 3 by sort value, shader and tree walk; otherwise back to
        // front, farthest vertex depth first; ties by id), each depth-tested against the tile.
        std::vector<uint8_t> isOverlay;
        std::vector<uint32_t> overlayOrder;
        if (materials) {
            isOverlay.assign(tris.size(), 0);
            std::vector<uint32_t> blended;
            for (uint32_t i = 0; i < uint32_t(tris.size()); ++i) {
                const BlendMode b = cands[shadeTris[i].source].blend;
                if (b == BlendMode::Opaque || (!isCutout.empty() && isCutout[i])) continue;
                isOverlay[i] = 1;
                (b == BlendMode::AlphaTest ? overlayOrder : blended).push_back(i);
            }
            if (!blended.empty() && !drawOrder) drawOrder = render::engineDrawOrder(world);
            auto key = [&](uint32_t t) {
                const Candidate& c = cands[shadeTris[t].source];
                const uint32_t surface = c.src.surface;
                const int32_t material = surface < world.surfaces.size() ? world.surfaces[surface].material : -1;
                const bool engine = c.sort > 0;
                return std::make_tuple(c.sort,
                                       engine && material >= 0 ? drawOrder->materialRank[size_t(material)] : 0u,
                                       engine && surface < world.surfaces.size() ? world.surfaces[surface].fog : 0,
                                       engine && surface < world.surfaces.size() ? drawOrder->surfaceRank[surface] : 0u,
                                       engine ? 0.0f : tris[t].zNear, t);
            };
            std::sort(blended.begin(), blended.end(), [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
            overlayOrder.insert(overlayOrder.end(), blended.begin(), blended.end());
        }
        const bool hasOverlay = !overlayOrder.empty() && !depthMode;
        // A visibility pass leaves them out of its buffer alone; a shading floor measures without them.
        const bool drawsOverlays = hasOverlay && !samplesOnly && options.shadingFloor == ShadingFloor::Off;
        // Sky is drawn behind everything, as both engines draw it (Quake 3 at depth range 1, Source's sky faces
        // only leave the skybox showing): a prop or model reaching past the map's sky brushes stays in view.
        // Sky triangles are rasterized with 1/w times 2^-64, which puts them behind anything else (1/w of
        // other triangles is far above it) while keeping their order among themselves exact (a power of two
        // scales the plane evaluation exactly); the tile undoes the scale before shading.
        std::vector<uint8_t> skyTri(tris.size(), 0);
        bool anySky = false;
        for (size_t i = 0; i < tris.size(); ++i) {
            if (cands[shadeTris[i].source].src.kind != SourceKind::Sky) continue;
            skyTri[i] = 1;
            anySky = true;
            raster::AttrPlane& z = tris[i].invW;
            z.a *= kSkyDepthScale, z.b *= kSkyDepthScale, z.c *= kSkyDepthScale;
            tris[i].zNear *= kSkyDepthScale;
        }
        raster::Bins bins = raster::binTriangles(tris, W, H, 0, hasOverlay ? &isOverlay : nullptr);
        raster::Bins overlayBins;
        if (drawsOverlays) overlayBins = raster::binTrianglesInOrder(tris, overlayOrder, W, H);
        const int numTiles = bins.tilesX * bins.tilesY;
        tileRasterMs.assign(size_t(numTiles), 0.0f);
        tileShadeMs.assign(size_t(numTiles), 0.0f);
        tileCovered.assign(size_t(numTiles), 0);
        tileMissing.assign(size_t(numTiles), 0);
        ctx.tris = shadeTris.data();
        ctx.triShade = triShade.data();
        auto tTiles = Clock::now();
        setupMs += msBetween(tPass, tTiles);

        const CutoutContext cutoutContext{&ctx, &cands, shadeTris.data()};
        const raster::CutoutTest cutoutTest{isCutout.data(), render::keepCutout, &cutoutContext};
        const bool accumulate = pass > 0;
        // Shaded rows (3 floats a pixel, `stride` floats apart) to the frame at (x, y): display bytes, or floats
        // added over the earlier passes' sum.
        auto store = [&](const float* rows, size_t stride, int x, int y, int w, int h) {
            for (int j = 0; j < h; ++j) {
                const float* src = rows + size_t(j) * stride;
                if (!floatFrame) {
                    toDisplayBytes(src, target.display->bytes.data() + (size_t(y + j) * size_t(W) + size_t(x)) * 3, size_t(3 * w));
                } else if (accumulate) {
                    float* dst = image.at(x, y + j);
                    for (int f = 0; f < 3 * w; ++f) dst[f] += src[f];
                } else {
                    std::memcpy(image.at(x, y + j), src, size_t(3 * w) * sizeof(float));
                }
            }
        };
        tbb::parallel_for(tbb::blocked_range<int>(0, numTiles, 1), [&](const tbb::blocked_range<int>& r) {
            alignas(32) float pixels[raster::kTileSize * render::kTileRowFloats];
            float depth[raster::kTileSize * raster::kTileSize];
            uint32_t id[raster::kTileSize * raster::kTileSize];
            uint8_t drawn[raster::kTileSize * raster::kTileSize];
            for (int t = r.begin(); t != r.end(); ++t) {
                auto t0 = Clock::now();
                const raster::TileRect rect = raster::tileRect(bins, size_t(t), W, H);
                const int tx = rect.x, ty = rect.y, tw = rect.w, th = rect.h;
                std::fill(depth, depth + tw * th, 0.0f);
                std::fill(id, id + tw * th, raster::kNoTriangle);
                const uint32_t b0 = bins.offsets[size_t(t)], b1 = bins.offsets[size_t(t) + 1];
                raster::rasterTile(tris.data(), bins.ids.data() + b0, b1 - b0, tx, ty, tw, th, depth, id, nullptr,
                                   isCutout.empty() ? nullptr : &cutoutTest);
                bool tileSky = false;
                if (anySky)
                    for (uint32_t k = b0; k < b1 && !tileSky; ++k) tileSky = skyTri[bins.ids[k]];
                if (tileSky) unscaleSkyDepths(depth, tw * th);
                auto t1 = Clock::now();
                if (samples && pass == 0) {
                    uint32_t footprintTri = raster::kNoTriangle;
                    render::shading::TexFootprint foot{};
                    for (int j = 0; j < th; ++j)
                        for (int i = 0; i < tw; ++i) {
                            const uint32_t tri = id[j * tw + i];
                            if (tri == raster::kNoTriangle || !(depth[j * tw + i] > 0)) continue;
                            const size_t at = size_t(ty + j) * size_t(W) + size_t(tx + i);
                            const SourceTri& src = cands[shadeTris[tri].source].src;
                            samples->depth[at] = 1.0f / depth[j * tw + i];
                            samples->surface[at] = int32_t(src.surface);
                            samples->sky[at] = src.kind == SourceKind::Sky ? 1 : 0;
                            if (!samples->footprints) continue;
                            const raster::ShadeTri& st = shadeTris[tri];
                            if (tri != footprintTri) {  // the texture coordinates' footprint terms, per triangle
                                const DrawVertex* vb = src.frameVertices ? frameVerts.data() : geometry.vertices.data();
                                const Vec2 a = vb[src.v[0]].texUV, b = vb[src.v[1]].texUV, c = vb[src.v[2]].texUV;
                                foot = render::shading::texFootprint(render::shading::combine(st, a.x, b.x, c.x),
                                                                     render::shading::combine(st, a.y, b.y, c.y), st.invW, 1, 1, 0);
                                footprintTri = tri;
                            }
                            const float fx = float(tx + i - st.x0), fy = float(ty + j - st.y0);
                            samples->footprint[at] = render::shading::pixelFootprint2(
                                foot, render::shading::rowFootprint(foot, fy), fx, 1.0f / depth[j * tw + i]);
                        }
                }
                if (!coverage.empty())
                    for (int i = 0; i < tw * th; ++i) drawn[i] = id[i] != raster::kNoTriangle ? 1 : 0;
                if (samplesOnly || depthMode) {
                    uint32_t covered = 0;
                    for (int i = 0; i < tw * th; ++i) covered += id[i] != raster::kNoTriangle ? 1u : 0u;
                    tileCovered[size_t(t)] = covered;
                    for (int j = 0; j < th && !samplesOnly; ++j) {
                        std::copy(depth + j * tw, depth + (j + 1) * tw, frameDepth.begin() + std::ptrdiff_t(size_t(ty + j) * W + tx));
                        std::copy(id + j * tw, id + (j + 1) * tw, frameId.begin() + std::ptrdiff_t(size_t(ty + j) * W + tx));
                    }
                } else if (options.shadingFloor != ShadingFloor::Skip) {
                    const render::PixelRows tileRows{pixels, render::kTileRowFloats, tx, ty};
                    tileCovered[size_t(t)] = render::shadeBlock(ctx, depth, id, tw, tx, ty, tw, th, tileRows, &tileMissing[size_t(t)]);
                    if (drawsOverlays) {
                        // The sky's pixels count as infinitely far for what is drawn over them.
                        if (tileSky)
                            for (int i = 0; i < tw * th; ++i)
                                if (id[i] != raster::kNoTriangle && skyTri[id[i]]) depth[i] = 0.0f;
                        const uint32_t o0 = overlayBins.offsets[size_t(t)], o1 = overlayBins.offsets[size_t(t) + 1];
                        render::drawOverlays(ctx, tris, cands, shadeTris, overlayBins.ids.data() + o0, o1 - o0, rect, depth,
                                             tileRows, coverage.empty() ? nullptr : drawn);
                    }
                    store(pixels, render::kTileRowFloats, tx, ty, tw, th);
                }
                if (!coverage.empty())
                    for (int j = 0; j < th; ++j)
                        for (int i = 0; i < tw; ++i)
                            coverage[size_t(ty + j) * size_t(W) + size_t(tx + i)] += drawn[j * tw + i];
                auto t2 = Clock::now();
                tileRasterMs[size_t(t)] = float(msBetween(t0, t1));
                tileShadeMs[size_t(t)] = float(msBetween(t1, t2));
            }
        });
        auto tTilesEnd = Clock::now();
        // Tiles interleave raster and shade work across threads; split the wall time by their summed shares.
        double rSum = 0, sSum = 0;
        for (int t = 0; t < numTiles; ++t) {
            rSum += tileRasterMs[size_t(t)];
            sSum += tileShadeMs[size_t(t)];
        }
        double wall = msBetween(tTiles, tTilesEnd);
        double rShare = rSum + sSum > 0 ? rSum / (rSum + sSum) : 1.0;
        rasterMs += wall * rShare;
        shadeMs += wall * (1.0 - rShare);

        if (depthMode && !samplesOnly) {
            auto tShade = Clock::now();
            // The ramp spans the nearest and farthest covered pixels of this pass (min/max: order-free).
            float maxInvW = 0, minInvW = std::numeric_limits<float>::max();
            for (size_t i = 0; i < frameId.size(); ++i)
                if (frameId[i] != raster::kNoTriangle) {
                    maxInvW = std::max(maxInvW, frameDepth[i]);
                    minInvW = std::min(minInvW, frameDepth[i]);
                }
            if (maxInvW > 0) {
                ctx.depthNear = 1.0f / maxInvW;
                ctx.depthFar = 1.0f / minInvW;
            }
            tbb::parallel_for(tbb::blocked_range<int>(0, H, 8), [&](const tbb::blocked_range<int>& r) {
                std::vector<float> rows(size_t(3 * W) * size_t(r.size()));
                render::shadeBlock(ctx, frameDepth.data() + size_t(r.begin()) * W, frameId.data() + size_t(r.begin()) * W,
                                   W, 0, r.begin(), W, int(r.size()), {rows.data(), size_t(3 * W), 0, r.begin()});
                store(rows.data(), size_t(3 * W), 0, r.begin(), W, int(r.size()));
            });
            shadeMs += msBetween(tShade, Clock::now());
        }
        if (pass == 0) {
            stats.trianglesDrawn = drawn;
            size_t covered = 0;
            for (uint32_t c : tileCovered) covered += c;
            stats.pixelsCovered = covered;
            size_t missing = 0;
            for (uint32_t c : tileMissing) missing += c;
            stats.pixelsMissingTexture = missing;
        }
    }
    if (options.spp > 1) {
        const float inv = 1.0f / float(options.spp);
        tbb::parallel_for(tbb::blocked_range<size_t>(0, image.pixels.size(), 1 << 16),
                          [&](const tbb::blocked_range<size_t>& r) {
                              for (size_t i = r.begin(); i != r.end(); ++i) image.pixels[i] *= inv;
                          });
    }
    if (!coverage.empty()) {
        // RGB as drawn, alpha the share of sample passes that drew the pixel.
        Image rgba = Image::uninitialized(W, H, 4);
        const float inv = 1.0f / float(options.spp);
        tbb::parallel_for(tbb::blocked_range<int>(0, H, 16), [&](const tbb::blocked_range<int>& r) {
            for (int y = r.begin(); y != r.end(); ++y)
                for (int x = 0; x < W; ++x) {
                    const float* in = image.at(x, y);
                    float* out = rgba.at(x, y);
                    out[0] = in[0], out[1] = in[1], out[2] = in[2];
                    out[3] = float(coverage[size_t(y) * size_t(W) + size_t(x)]) * inv;
                }
        });
        image = std::move(rgba);
    }
    if (toBytes && floatFrame) {
        ByteImage& display = *target.display;
        display.width = W, display.height = H, display.channels = image.channels;
        display.bytes = displayBytes(image);
    }
    stats.setupMs = setupMs;
    stats.rasterMs = rasterMs;
    stats.shadeMs = shadeMs;
}

}  // namespace

void renderSurfaces(const World& world, const Geometry& geometry, const Camera& camera, const View& view,
                    const RenderOptions& options, const std::vector<uint32_t>& surfaces, FrameStats& stats, Image& image,
                    FrameSamples* samples, const Image* skyView) {
    drawSurfaces(world, geometry, camera, view, options, surfaces, stats, {&image, nullptr}, samples, skyView);
}

void renderSurfaces(const World& world, const Geometry& geometry, const Camera& camera, const View& view,
                    const RenderOptions& options, const std::vector<uint32_t>& surfaces, FrameStats& stats,
                    ByteImage& display, FrameSamples* samples, const Image* skyView) {
    drawSurfaces(world, geometry, camera, view, options, surfaces, stats, {nullptr, &display}, samples, skyView);
}

void renderSurfaceSamples(const World& world, const Geometry& geometry, const Camera& camera, const View& view,
                          const RenderOptions& options, const std::vector<uint32_t>& surfaces, FrameStats& stats,
                          FrameSamples& samples) {
    RenderOptions one = options;
    one.spp = 1;
    drawSurfaces(world, geometry, camera, view, one, surfaces, stats, {nullptr, nullptr}, &samples, nullptr);
}

Image renderSurfaces(const World& world, const Geometry& geometry, const Camera& camera, const View& view,
                     const RenderOptions& options, const std::vector<uint32_t>& surfaces, FrameStats& stats) {
    Image image;
    renderSurfaces(world, geometry, camera, view, options, surfaces, stats, image);
    return image;
}

}  // namespace luxel
