// Shading of the visibility buffer: the block loops (shadeBlock; shadeLightBlock sends each run of one
// triangle on a row to its loop), the scalar loops that are the reference for the vector ones, single
// translucent pixels (shadePixelWithAlpha), the look (gamma table, lookParams, applyLook), and the debug
// colours of the normals, depth and clusters modes. The other parts are listed in parts.hpp.
#include "luxel/util/cpu.hpp"
#include "luxel/render/shade.hpp"

#include <algorithm>
#include <bit>
#include <memory>
#include <mutex>
#include <vector>
#include <cmath>
#include <cstring>
#include <optional>

#include "luxel/light/light_grid.hpp"
#include "luxel/light/lightmap_sample.hpp"
#include "luxel/vis/visibility.hpp"

#include "parts.hpp"

namespace luxel::render {

Vec3 clusterColor(int32_t cluster) {
    if (cluster < 0) return {0.5f, 0.5f, 0.5f};
    // murmur3 finaliser: neighbouring ids get unrelated colours.
    uint32_t h = uint32_t(cluster) + 0x9e3779b9u;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    // Keep channels in [0.15, 1] so no cluster is black like the background.
    auto ch = [&](int shift) { return 0.15f + 0.85f * float((h >> shift) & 0xff) / 255.0f; };
    return {ch(0), ch(8), ch(16)};
}

float depthGrey(float w, float wNear, float wFar) {
    if (!(wFar > wNear) || !(wNear > 0)) return 1.0f;
    float t = std::log(w / wNear) / std::log(wFar / wNear);
    t = std::clamp(t, 0.0f, 1.0f);
    return 1.0f - 0.9f * t;
}

std::shared_ptr<const GammaTable> sharedGammaTable(float gamma) {
    static std::mutex mutex;
    static std::vector<std::pair<uint32_t, std::shared_ptr<const GammaTable>>> tables;  // by gamma's bits
    const uint32_t key = std::bit_cast<uint32_t>(gamma);
    std::lock_guard lock(mutex);
    for (const auto& [bits, table] : tables)
        if (bits == key) return table;
    if (tables.size() >= 16) tables.erase(tables.begin());  // a bound, for a service meeting many gammas
    tables.emplace_back(key, std::make_shared<const GammaTable>(makeGammaTable(gamma)));
    return tables.back().second;
}

GammaTable makeGammaTable(float gamma) {
    GammaTable t;
    if (!(gamma > 0) || !std::isfinite(gamma)) return t;
    const double p = 1.0 / double(gamma);
    if (!(p >= 0.25 && p <= 4.0)) return t;
    for (int e = -126; e <= 0; ++e) t.power[e + 126] = float(std::exp2(double(e) * p));
    t.power[127] = 1.0f;
    for (int i = 0; i < 1024; ++i) {
        const double a = std::pow(1.0 + double(i) / 1024.0, p), b = std::pow(1.0 + double(i + 1) / 1024.0, p);
        t.value[i] = float(a);
        t.slope[i] = float(b - a);
    }
    t.valid = true;
    return t;
}

float applyGamma(float v, const GammaTable& t) {
    const int32_t bits = std::bit_cast<int32_t>(v);
    // Zero (and denormals, whose power is below 2^-31 for 1/gamma <= 4).
    if (bits < 0x00800000) return 0.0f;
    const int e = std::min((bits >> 23) - 1, 127);
    const int i = (bits >> 13) & 1023;
    const float frac = float(bits & 0x1fff) * (1.0f / 8192.0f);
    return t.power[e] * (t.value[i] + t.slope[i] * frac);
}

namespace shading {

// LookParams (parts.hpp) of a look, or of the context's look.
LookParams lookParams(Look look, const EngineLook& engine, const GammaTable* table) {
    LookParams lp;
    lp.linear = look == Look::Linear;
    lp.hueClampAt = look == Look::EngineWindowed && engine.windowedHueClampAt > 0 ? engine.windowedHueClampAt
                                                                                 : engine.hueClampAt;
    lp.clampPerChannel = engine.clampPerChannel;
    lp.gamma = engine.gamma > 0 && engine.gamma != 1.0f;
    lp.invGamma = lp.gamma ? 1.0f / engine.gamma : 1.0f;
    lp.table = lp.gamma && table && table->valid ? table : nullptr;
    return lp;
}

LookParams lookParams(const ShadeContext& ctx) { return lookParams(ctx.look, ctx.world->look, ctx.gamma); }

}  // namespace shading

using namespace shading;

namespace {

template <RenderMode M>
inline Vec3 shadeOne(const ShadeContext& ctx, uint32_t triId, int px, int py, float invW) {
    if constexpr (M == RenderMode::Depth) {
        (void)triId;
        (void)px;
        (void)py;
        float g = depthGrey(1.0f / invW, ctx.depthNear, ctx.depthFar);
        return {g, g, g};
    } else {
        Pixel p = resolve(ctx, triId, px, py, invW);
        if constexpr (M == RenderMode::Normals) {
            return normalOf(p) * 0.5f + Vec3{0.5f, 0.5f, 0.5f};
        } else {
            static_assert(M == RenderMode::Clusters, "light-bearing modes are shaded by shadeLightBlock");
            // Step off the surface along its normal: the surface itself lies on a leaf boundary.
            return clusterColor(findCluster(*ctx.world, positionOf(p) + normalOf(p)));
        }
    }
}

// Clusters of a run. On a flat triangle the stepped-off points of a run lie on one 3D segment, and BSP
// leaves are convex: when both ends of a piece are in the same leaf, all of it is. Split until they are.
void shadeClusterRun(const ShadeContext& ctx, uint32_t tri, int px0, int py, const float* depth, int n, float* out) {
    const raster::ShadeTri& st = ctx.tris[tri];
    const SourceTri& src = ctx.sources[st.source];
    const DrawVertex* vb = vertexBase(ctx, src);
    const DrawVertex &a = vb[src.v[0]], &b = vb[src.v[1]], &c = vb[src.v[2]];
    if (!(a.normal == b.normal && a.normal == c.normal)) {
        for (int k = 0; k < n; ++k)
            put(out + 3 * k, shadeOne<RenderMode::Clusters>(ctx, tri, px0 + k, py, depth[k]));
        return;
    }
    const Vec3 nrm = normalize(a.normal);
    auto leafAt = [&](int k) {
        const Pixel p = resolve(ctx, tri, px0 + k, py, depth[k]);
        return findLeaf(*ctx.world, positionOf(p) + nrm);
    };
    auto colorOf = [&](int32_t leaf) {
        return leaf < 0 ? clusterColor(-1) : clusterColor(ctx.world->leaves[size_t(leaf)].cluster);
    };
    // Explicit stack of [k0, k1] pieces with their end leaves known.
    struct Piece {
        int k0, k1;
        int32_t l0, l1;
    };
    Piece stack[64];
    int top = 0;
    stack[top++] = {0, n - 1, leafAt(0), n > 1 ? leafAt(n - 1) : -2};
    if (n == 1) stack[0].l1 = stack[0].l0;
    while (top > 0) {
        const Piece pc = stack[--top];
        if (pc.l0 == pc.l1) {
            const Vec3 col = colorOf(pc.l0);
            for (int k = pc.k0; k <= pc.k1; ++k) put(out + 3 * k, col);
        } else if (pc.k1 - pc.k0 <= 1) {
            put(out + 3 * pc.k0, colorOf(pc.l0));
            put(out + 3 * pc.k1, colorOf(pc.l1));
        } else {
            const int mid = (pc.k0 + pc.k1) / 2;
            const int32_t lm = leafAt(mid);
            stack[top++] = {mid, pc.k1, lm, pc.l1};
            stack[top++] = {pc.k0, mid, pc.l0, lm};
        }
    }
}

void lightRunScalar(const TriShade& t, const LookParams& lp, int dx, float fy, const float* depth, int n, float* out) {
    if (t.path == ShadePath::Constant || t.path == ShadePath::Probe) {  // Probe: shaded by probeRun, never here
        fillRgb(out, t.color, n);
        return;
    }
    PageView pages[kMaxLightmapSlots];
    pageViews(t, pages);
    for (int k = 0; k < n; ++k) {
        const float fx = float(dx + k), iw = 1.0f / depth[k];
        put(out + 3 * k, lookOf(lightAt(t, pages, fx, fy, iw), t.albedo, lp));
    }
}

// Grid mode: each pixel lit by the map's probes at its own position and normal. The point is stepped one
// unit off the surface along the normal first: the surface lies on a leaf boundary, and the light of
// the leaf in front of it is wanted (as the clusters mode does).
void probeRun(const ShadeContext& ctx, uint32_t tri, const LookParams& lp, int px0, int py, const float* depth, int n,
              float* out) {
    const Vec3 white{1, 1, 1};
    for (int k = 0; k < n; ++k) {
        const Pixel p = resolve(ctx, tri, px0 + k, py, depth[k]);
        const Vec3 nrm = normalOf(p);
        put(out + 3 * k, lookOf(probeLight(*ctx.probes, positionOf(p) + nrm, nrm), white, lp));
    }
}

void texturedRun(const ShadeContext& ctx, const TriShade& t, const LookParams& lp, uint32_t tri, int dx, float fy,
                 const float* depth, int n, float* out) {
    const TexturedSetup s = texturedSetup(ctx, t, tri);
    for (int k = 0; k < n; ++k) {
        const Vec4 c = texturedPixel(ctx, t, s, lp, float(dx + k), fy, 1.0f / depth[k]);
        put(out + 3 * k, Vec3{c.x, c.y, c.z});
    }
}

void texturedRunFor(const ShadeContext& ctx, const TriShade& t, const LookParams& lp, uint32_t tri, int dx, float fy,
                    const float* depth, int n, float* out, bool vec) {
#if defined(LUXEL_SHADE_AVX2)
    if (vec && texturedVectorFits(t)) return texturedRunAvx2(ctx, t, lp, tri, dx, fy, depth, n, out);
#else
    (void)vec;
#endif
    texturedRun(ctx, t, lp, tri, dx, fy, depth, n, out);
}

// One run of a triangle (n pixels from block column i on block row j) into out, by its kind of shading.
void shadeRun(const ShadeContext& ctx, const LookParams& lp, bool vec, uint32_t tri, int x, int y, int i, int j,
              const float* depth, int n, float* out) {
    const TriShade& t = ctx.triShade[tri];
    const float fy = float(y + j - t.y0);
    const int dx = x + i - t.x0;
    if (t.path == ShadePath::Probe)
        probeRun(ctx, tri, lp, x + i, y + j, depth, n, out);
    else if (t.skyBox)
#if defined(LUXEL_SHADE_AVX2)
        vec ? skyBoxRunAvx2(ctx, tri, lp, x + i, y + j, depth, n, out) :
#endif
              skyBoxRun(ctx, tri, lp, x + i, y + j, depth, n, out);
    else if (t.program)
        programRun(ctx, t, lp, tri, x + i, y + j, depth, n, out);
    else if (t.texture)
        texturedRunFor(ctx, t, lp, tri, dx, fy, depth, n, out, vec);
    else
#if defined(LUXEL_SHADE_AVX2)
    if (vec && t.path == ShadePath::Lightmap && t.narrowIndices)
        lightmapRunFor(t, lp)(t, lp, dx, fy, depth, n, out);
    else if (vec && t.path == ShadePath::Vertex)
        vertexRunAvx2(t, lp, dx, fy, depth, n, out);
    else
#endif
        lightRunScalar(t, lp, dx, fy, depth, n, out);
    if (t.fog >= 0) fogRun(ctx, t, tri, x + i, y + j, depth, n, out);
    if (t.distanceFog)
#if defined(LUXEL_SHADE_AVX2)
        vec ? distanceFogRunAvx2(*ctx.materials->distanceFog, depth, n, out) :
#endif
              distanceFogRun(*ctx.materials->distanceFog, depth, n, out);
}

// RenderOptions::shadingFloor Flat's colour.
constexpr Vec3 kFlatFloorGrey{0.5f, 0.5f, 0.5f};

// The block's rows are shaded into a buffer of this many rows (a tile's); taller blocks go a row at a time.
constexpr int kPackRows = raster::kTileSize;
// A row segment and the 8 pixels a vector loop may overrun, rounded to whole 32-byte lines.
constexpr int kRowFloats = ((kMaxRun + 9) * 3 + 7) / 8 * 8;

// The last pixels of a packable run that do not fill a group of 8 (block row, column, count): shaded after
// the block's rows, packed into whole groups with the other runs' of their triangle. `next`: the next tail
// of the same triangle (-1: none).
struct RunTail {
    uint32_t tri;
    uint16_t row, col, n;
    int16_t next;
};

#if defined(LUXEL_SHADE_AVX2)
// The tails' pixels, a triangle at a time in the order the triangles were first found, through the vector
// textured loop, each pixel to its place in the rows. A triangle's tails are chained through a small hash
// table (cheaper than sorting them: a block has up to a few hundred). A lone tail goes as the run it is.
void shadePackedTails(const ShadeContext& ctx, const LookParams& lp, RunTail* tails, int count, int x, int y,
                      const float* depth, int stride, float* rows, size_t rowStride) {
    int bits = 4;
    while ((1 << bits) < 2 * count) ++bits;
    constexpr int kMaxTails = kPackRows * kMaxRun;
    int16_t slot[2 * kMaxTails];  // by hash: a triangle's first tail (2^bits, the least power of two >= 2 count, slots)
    int16_t last[kMaxTails], heads[kMaxTails];  // a first tail's triangle's last tail; first tails in found order
    std::fill(slot, slot + (1 << bits), int16_t(-1));
    int groups = 0;
    for (int k = 0; k < count; ++k) {
        uint32_t h = (tails[k].tri * 0x9e3779b1u) >> (32 - bits);
        while (slot[h] >= 0 && tails[slot[h]].tri != tails[k].tri) h = (h + 1) & ((1u << bits) - 1);
        if (slot[h] < 0) {
            slot[h] = int16_t(k), last[k] = int16_t(k), heads[groups++] = int16_t(k);
        } else {
            tails[last[slot[h]]].next = int16_t(k);
            last[slot[h]] = int16_t(k);
        }
    }
    alignas(32) int32_t dx[kMaxRun], dy[kMaxRun];
    alignas(32) float invW[kMaxRun], out[(kMaxRun + 8) * 3];
    uint16_t atRow[kMaxRun], atCol[kMaxRun];
    for (int g = 0; g < groups; ++g) {
        const RunTail& first = tails[heads[g]];
        const uint32_t tri = first.tri;
        const TriShade& t = ctx.triShade[tri];
        if (first.next < 0) {
            const float* runDepth = depth + size_t(first.row) * size_t(stride) + first.col;
            texturedRunAvx2(ctx, t, lp, tri, x + first.col - t.x0, float(y + first.row - t.y0), runDepth, first.n, out);
            if (t.distanceFog) distanceFogRunAvx2(*ctx.materials->distanceFog, runDepth, first.n, out);
            std::memcpy(rows + first.row * rowStride + 3 * first.col, out, size_t(3 * first.n) * sizeof(float));
            continue;
        }
        int m = 0;
        auto flush = [&] {
            texturedPixelsAvx2(ctx, t, lp, tri, dx, dy, invW, m, out);
            if (t.distanceFog) distanceFogRunAvx2(*ctx.materials->distanceFog, invW, m, out);
            for (int k = 0; k < m; ++k) std::memcpy(rows + atRow[k] * rowStride + 3 * atCol[k], out + 3 * k, 3 * sizeof(float));
            m = 0;
        };
        for (int k = heads[g]; k >= 0; k = tails[k].next) {
            const RunTail& r = tails[k];
            for (int q = 0; q < r.n; ++q) {
                if (m == kMaxRun) flush();
                const int col = r.col + q;
                dx[m] = x + col - t.x0, dy[m] = y + r.row - t.y0;
                invW[m] = depth[size_t(r.row) * size_t(stride) + size_t(col)];
                atRow[m] = r.row, atCol[m] = uint16_t(col);
                ++m;
            }
        }
        flush();
    }
}
#endif

// Light-bearing modes: runs of one triangle per row are shaded into row buffers (the vector loops overrun
// a run's end into the next run's pixels, which that run then overwrites). Textured runs on the vector path
// leave the pixels past their last whole group of 8 to the end of the block, where those of each triangle
// are shaded together (short runs, as foliage and small triangles make, fill groups together rather than
// one each). Then each row goes to the image in one pass.
uint32_t shadeLightBlock(const ShadeContext& ctx, const float* depth, const uint32_t* id, int stride, int x, int y,
                         int w, int h, const PixelRows& image, uint32_t* missingTexture) {
    uint32_t missing = 0;
    const Vec3 bg = ctx.background;
    const LookParams lp = lookParams(ctx);
#if defined(LUXEL_SHADE_AVX2)
    const bool vec = useAvx2() && (!lp.gamma || lp.table);
#else
    const bool vec = false;
#endif
    // (Only where textures are drawn: keeping every row of the block until its end costs the other modes ~4%.)
    const bool pack = vec && ctx.materials && w <= kMaxRun && h <= kPackRows;
    // A tile's own buffer with room past each row for the vector loops' overrun is shaded in place; other
    // outputs get each row through a buffer of the block's.
    const bool inPlace = image.stride >= size_t(3 * (w + 9));
    alignas(32) float rows[kPackRows][kRowFloats];
    auto rowOf = [&](int j) { return inPlace ? image.at(x, y + j) : rows[pack ? j : 0]; };
    RunTail tails[kPackRows * kMaxRun];
    int tailCount = 0;
    uint32_t covered = 0;
    // A finished row segment (block columns s0..s1) to the output rows.
    auto writeRow = [&](int j, int s0, int s1, const float* buf) {
        if (!inPlace) std::memcpy(image.at(x + s0, y + j), buf, size_t(3 * (s1 - s0)) * sizeof(float));
    };
    for (int j = 0; j < h; ++j) {
        const float* drow = depth + size_t(j) * size_t(stride);
        const uint32_t* irow = id + size_t(j) * size_t(stride);
        for (int s0 = 0; s0 < w; s0 += kMaxRun) {
            float* buf = rowOf(j) + 3 * (inPlace ? s0 : 0);
            const int s1 = std::min(w, s0 + kMaxRun);
            uint64_t starts;
#if defined(LUXEL_SHADE_AVX2)
            if (vec)
                starts = runStartsAvx2(irow + s0, s1 - s0);
            else
#endif
            {
                starts = 1;
                for (int k = s0 + 1; k < s1; ++k) starts |= uint64_t(irow[k] != irow[k - 1]) << (k - s0);
            }
            starts &= starts - 1;  // the first run's start is i = s0
            int i = s0;
            while (i < s1) {
                const uint32_t tri = irow[i];
                const int end = starts ? s0 + std::countr_zero(starts) : s1;
                starts &= starts - 1;
                float* o = buf + 3 * (i - s0);
                if (tri == raster::kNoTriangle) {
                    fillRgb(o, bg, end - i);
                    i = end;
                    continue;
                }
                covered += uint32_t(end - i);
                if (ctx.flatFloor) {
                    fillRgb(o, kFlatFloorGrey, end - i);
                    i = end;
                    continue;
                }
                const TriShade& t = ctx.triShade[tri];
                if (t.missingTexture) missing += uint32_t(end - i);
                int n = end - i;
                if (pack && n % 8 != 0 && t.packable) {
                    tails[tailCount++] = {tri, uint16_t(j), uint16_t(i + (n & ~7)), uint16_t(n % 8), -1};
                    n &= ~7;
                }
                if (n > 0) shadeRun(ctx, lp, vec, tri, x, y, i, j, drow + i, n, o);
                i = end;
            }
            if (!pack) writeRow(j, s0, s1, buf);
        }
    }
    if (pack) {
#if defined(LUXEL_SHADE_AVX2)
        if (tailCount > 0)
            shadePackedTails(ctx, lp, tails, tailCount, x, y, depth, stride, rowOf(0), inPlace ? image.stride : size_t(kRowFloats));
#endif
        for (int j = 0; j < h; ++j) writeRow(j, 0, w, rowOf(j));
    }
    if (missingTexture) *missingTexture = missing;
    return covered;
}

template <RenderMode M>
uint32_t shadeBlockT(const ShadeContext& ctx, const float* depth, const uint32_t* id, int stride, int x, int y, int w,
                     int h, const PixelRows& image) {
    const Vec3 bg = ctx.background;
    uint32_t covered = 0;
    for (int j = 0; j < h; ++j) {
        const float* drow = depth + size_t(j) * size_t(stride);
        const uint32_t* irow = id + size_t(j) * size_t(stride);
        float* out = image.at(x, y + j);
        int i = 0;
        while (i < w) {
            const uint32_t tri = irow[i];
            if (tri == raster::kNoTriangle) {
                put(out + 3 * i, bg);
                ++i;
                continue;
            }
            int end = i + 1;
            while (end < w && irow[end] == tri) ++end;
            covered += uint32_t(end - i);
            int k = i;
            if constexpr (M == RenderMode::Clusters) {
                shadeClusterRun(ctx, tri, x + i, y + j, drow + i, end - i, out + 3 * i);
                k = end;
            }
            for (; k < end; ++k) put(out + 3 * k, shadeOne<M>(ctx, tri, x + k, y + j, drow[k]));
            i = end;
        }
    }
    return covered;
}

}  // namespace

Vec4 shadePixelWithAlpha(const ShadeContext& ctx, uint32_t tri, int px, int py, float invW) {
    const TriShade& t = ctx.triShade[tri];
    const LookParams lp = lookParams(ctx);
    float out[3];
    const int dx = px - t.x0;
    const float fy = float(py - t.y0);
    float alpha = 1.0f;
    if (t.skyBox) {
        skyBoxRun(ctx, tri, lp, px, py, &invW, 1, out);
    } else if (t.program) {
        programRun(ctx, t, lp, tri, px, py, &invW, 1, out);
    } else if (t.texture) {
        const TexturedSetup s = texturedSetup(ctx, t, tri);
        const float fx = float(dx), iw = 1.0f / invW;
        const Vec4 c = texturedPixel(ctx, t, s, lp, fx, fy, iw);
        out[0] = c.x, out[1] = c.y, out[2] = c.z;
        // Cut-outs and blending follow the base texture's alpha, not the displacement blend's.
        alpha = s.f2 ? texelAt(ctx, *t.texture, s.f, fx, fy, iw).w : c.w;
    } else {
        lightRunScalar(t, lp, dx, fy, &invW, 1, out);
    }
    return {out[0], out[1], out[2], alpha * t.opacity};
}

void pixelAlphas(const ShadeContext& ctx, uint32_t tri, const int32_t* px, const int32_t* py, const float* invW, int n,
                 float* alpha) {
    const TriShade& t = ctx.triShade[tri];
    // Texture alpha 255 everywhere filters to exactly 1.
    if (t.skyBox || t.program || !t.texture || !t.texture->hasAlpha) {
        std::fill(alpha, alpha + n, t.opacity);
        return;
    }
    // shadePixelWithAlpha's alpha: the base texture's, whether or not a blend texture is mixed in. (The vector
    // loop answers cut-out tests without it: pixelCutoutKeeps.)
    const TexFootprint f = texFootprint(ctx, t, tri);
    for (int k = 0; k < n; ++k)
        alpha[k] = texelAlphaAt(*t.texture, f, float(px[k] - t.x0), float(py[k] - t.y0), 1.0f / invW[k]) * t.opacity;
}

void pixelCutoutKeeps(const ShadeContext& ctx, uint32_t tri, const int32_t* px, const int32_t* py, const float* invW, int n,
                      float ref, uint8_t* keep) {
#if defined(LUXEL_SHADE_AVX2)
    const TriShade& t = ctx.triShade[tri];
    if (useAvx2() && !t.skyBox && !t.program && t.texture && t.texture->hasAlpha &&
        t.texture->alphaCellRanges.size() == t.texture->mips.size() && t.texture->alphaLevels.size() == t.texture->mips.size()) {
        if (vectorIndexable(*t.texture)) {
            const TexFootprint f = texFootprint(ctx, t, tri);
            // Every triangle of a material has the same test, and a frame's cut-outs are few materials:
            // the last one found on this thread is kept (a pure function of the two numbers).
            thread_local CutoutBytes lastTest = cutoutBytes(0.5f, 1.0f);
            if (!(lastTest.ref == ref && lastTest.opacity == t.opacity)) lastTest = cutoutBytes(ref, t.opacity);
            for (int k0 = 0; k0 < n; k0 += kMaxRun)  // in pieces of a bounded size
                cutoutKeepsAvx2(*t.texture, f, t.x0, t.y0, px + k0, py + k0, invW + k0, std::min(n - k0, kMaxRun), lastTest,
                                keep + k0);
            return;
        }
    }
#endif
    float alpha[kMaxRun];
    for (int k0 = 0; k0 < n; k0 += kMaxRun) {
        const int m = std::min(n - k0, kMaxRun);
        pixelAlphas(ctx, tri, px + k0, py + k0, invW + k0, m, alpha);
        for (int k = 0; k < m; ++k) keep[k0 + k] = !(alpha[k] < ref);
    }
}



Vec3 applyLook(Vec3 light, Vec3 albedo, Look look, const EngineLook& engine) {
    const GammaTable table = makeGammaTable(engine.gamma);
    return lookOf(light, albedo, lookParams(look, engine, &table));
}

Vec3 sampleLightmapFast(const LightmapPage& page, Vec2 uv) {
    return sampleView(pageView(page.rgb.data(), page.width, page.height), uv.x, uv.y);
}

uint32_t shadeBlock(const ShadeContext& ctx, const float* depth, const uint32_t* id, int stride, int x, int y, int w,
                    int h, const PixelRows& out, uint32_t* missingTexture) {
    switch (ctx.mode) {
        case RenderMode::Lightmap:
        case RenderMode::Vertex:
        case RenderMode::Lit:
        case RenderMode::Albedo:
        case RenderMode::Grid: return shadeLightBlock(ctx, depth, id, stride, x, y, w, h, out, missingTexture);
        case RenderMode::Normals: return shadeBlockT<RenderMode::Normals>(ctx, depth, id, stride, x, y, w, h, out);
        case RenderMode::Depth: return shadeBlockT<RenderMode::Depth>(ctx, depth, id, stride, x, y, w, h, out);
        case RenderMode::Clusters: return shadeBlockT<RenderMode::Clusters>(ctx, depth, id, stride, x, y, w, h, out);
    }
    return 0;
}

}  // namespace luxel::render
