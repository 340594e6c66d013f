// Sky boxes and cloud layers: the six faces of the far box (or the sky colour) in the view direction, each
// cloud layer of the sky's shader blended over them at its dome coordinates, and the AVX2 loop of box-only
// skies.
#include <algorithm>
#include <cmath>
#include <optional>

#include "avx2.hpp"

namespace luxel::render::shading {

namespace {

// The sky a sky triangle shows (TriShade::sky, set by prepareTriangle only when the materials have it), and
// that sky's cloud grid (nullptr without clouds).
const SkyBox& skyOf(const ShadeContext& ctx, uint32_t tri) { return ctx.materials->skies[size_t(ctx.triShade[tri].sky)]; }
const CloudGrid* cloudGridOf(const ShadeContext& ctx, uint32_t tri) {
    const int32_t sky = ctx.triShade[tri].sky;
    return ctx.cloudGrids && size_t(sky) < ctx.cloudGrids->size() && (*ctx.cloudGrids)[size_t(sky)] ? &*(*ctx.cloudGrids)[size_t(sky)] : nullptr;
}

// The texture of cube side `face` (0..5: +X, -X, +Y, -Y, +Z, -Z), or nullptr when it has none (drawn in the
// sky colour). The engines draw side i with the image of suffix skytexorder[i] = {0, 2, 1, 3, 4, 5} of the
// list rt bk lf ft up dn (ioquake3 tr_sky.c, Quake 2 and Source gl_warp.c): +X rt, -X lf, +Y bk, -Y ft.
const Texture* skyFaceTexture(const ShadeContext& ctx, const SkyBox& sky, int face) {
    static constexpr int kSkyTexOrder[6] = {0, 2, 1, 3, 4, 5};
    const int32_t index = sky.faces[size_t(kSkyTexOrder[face])];
    if (index < 0 || size_t(index) >= ctx.materials->textures.size()) return nullptr;
    return ctx.materials->textures[size_t(index)].get();
}

// Where face coordinates (s, t) in [-1, 1] sample a face texture: clamped to the edge texels' centres,
// as the engines load sky images (clamp to edge), so a face's border does not mix in the opposite one.
inline Vec2 skyFaceUV(const Texture& tex, float s, float t) {
    const float du = 0.5f / float(tex.width()), dv = 0.5f / float(tex.height());
    return {std::clamp((s + 1.0f) * 0.5f, du, 1.0f - du), std::clamp((1.0f - t) * 0.5f, dv, 1.0f - dv)};
}

// Quake's sky box sides (tr_sky.c st_to_vec, the same in Source's gl_warp.cpp): +X, -X, +Y, -Y, +Z, -Z, with
// the side's (s, t) in [-1, 1] and the picture's top row at t = +1.
struct SkySide {
    int face;
    float s, t;
};

SkySide skySide(Vec3 d) {
    const Vec3 a{std::abs(d.x), std::abs(d.y), std::abs(d.z)};
    if (a.x >= a.y && a.x >= a.z) return {d.x > 0 ? 0 : 1, d.x > 0 ? -d.y / a.x : d.y / a.x, d.z / a.x};
    if (a.y >= a.z) return {d.y > 0 ? 2 : 3, d.y > 0 ? d.x / a.y : -d.x / a.y, d.z / a.y};
    return {d.z > 0 ? 4 : 5, -d.y / a.z, d.z > 0 ? -d.x / a.z : d.x / a.z};
}

// The direction of side point (s, t) (st_to_vec, the inverse of skySide).
Vec3 skySideDirection(int face, float s, float t) {
    switch (face) {
        case 0: return {1, -s, t};
        case 1: return {-1, s, t};
        case 2: return {s, 1, t};
        case 3: return {-s, -1, t};
        case 4: return {-t, -s, 1};
        default: return {t, -s, -1};
    }
}

Vec3 skyBoxColor(const ShadeContext& ctx, const SkyBox& sky, Vec3 d) {
    if (sky.rotated) {
        const float* m = sky.toBox;
        d = {m[0] * d.x + m[1] * d.y + m[2] * d.z, m[3] * d.x + m[4] * d.y + m[5] * d.z, m[6] * d.x + m[7] * d.y + m[8] * d.z};
    }
    const auto [face, s, t] = skySide(d);
    const Texture* tex = skyFaceTexture(ctx, sky, face);
    if (!tex) return ctx.skyColor;
    const Vec4 c = sampleTexture(*tex, 0, skyFaceUV(*tex, s, t), *ctx.albedoTable);
    return {c.x, c.y, c.z};
}

// Where the view direction d meets the cloud dome, as ioquake3's R_InitSkyTexCoords places it: a sphere
// of radius R + h around (0, 0, -R) seen from the eye at the origin (R = 4096, h = the cloud height), the
// hit point v taken from the sphere's centre and normalised, s = acos(v.x), t = acos(v.y) (radians: the
// cloud stage's tcMods then scale them).
Vec2 cloudCoords(Vec3 d, float height) {
    constexpr float R = 4096.0f;
    d = normalize(d);
    const float p = -R * d.z + std::sqrt(R * R * d.z * d.z + 2.0f * R * height + height * height);
    const Vec3 v = normalize(d * p + Vec3{0, 0, R});
    return {std::acos(std::clamp(v.x, -1.0f, 1.0f)), std::acos(std::clamp(v.y, -1.0f, 1.0f))};
}

// Quake 1's sky layers in direction d, before their scroll (QuakeSpasm Sky_GetTexCoord): the sphere flattened
// (z x 3), the direction scaled to 6 x 63 units, in 128-texel units.
Vec2 quake1CloudCoords(Vec3 d) {
    const Vec3 f{d.x, d.y, d.z * 3.0f};
    const float scale = 6.0f * 63.0f / std::sqrt(dot(f, f));
    return {f.x * scale / 128.0f, f.y * scale / 128.0f};
}

// The dome coordinates the engine draws in direction d: interpolated across the grid cell of the box side d
// meets, on the cell's triangle (FillCloudySkySide splits a cell (s, t)-(s + 1, t + 1) along (s, t + 1)-(s + 1, t));
// interpolation across a triangle on the side's plane is affine in (s, t). Nothing on the bottom side (-Z):
// FillCloudBox never draws clouds there.
std::optional<Vec2> gridCloudCoords(const CloudGrid& grid, Vec3 d) {
    const auto [face, s, t] = skySide(d);
    if (face == 5 || !(s == s) || !(t == t)) return std::nullopt;
    const float gs = (s + 1.0f) * 4.0f, gt = (t + 1.0f) * 4.0f;
    const int i = std::clamp(int(std::floor(gs)), 0, 7), j = std::clamp(int(std::floor(gt)), 0, 7);
    const float fs = gs - float(i), ft = gt - float(j);
    const Vec2 c00 = grid.at[face][j][i], c10 = grid.at[face][j][i + 1], c01 = grid.at[face][j + 1][i];
    if (fs + ft <= 1.0f) return c00 + (c10 - c00) * fs + (c01 - c00) * ft;
    const Vec2 c11 = grid.at[face][j + 1][i + 1];
    return c11 + (c01 - c11) * (1.0f - fs) + (c10 - c11) * (1.0f - ft);
}

// What a run's pixels share of the cloud layers: textures, the tcMods at the frame's time as one affine map,
// and the factor from a pixel's squared dome footprint to its squared footprint in level-0 texels. At most
// the engine's MAX_SHADER_STAGES (8) layers.
struct CloudLayerSetup {
    const Texture* tex;
    float affine[6];
    float levelScale;
    BlendFactor src, dst;
};
struct CloudLayers {
    CloudLayerSetup layer[8];
    int count = 0;
};

CloudLayers cloudLayers(const ShadeContext& ctx, const SkyBox& sky) {
    CloudLayers out;
    for (const CloudLayer& layer : sky.clouds) {
        if (out.count == 8) break;
        if (layer.texture < 0 || size_t(layer.texture) >= ctx.materials->textures.size()) continue;
        const Texture* tex = ctx.materials->textures[size_t(layer.texture)].get();
        if (!tex || tex->mips.empty()) continue;
        CloudLayerSetup& l = out.layer[out.count++];
        l.tex = tex, l.src = layer.src, l.dst = layer.dst;
        affineOf(layer.mods, ctx.materials->time, l.affine);
        // The map scales the footprint by its longer axis (as a stage's affineScale2).
        const float* a = l.affine;
        const float scale2 = std::max(a[0] * a[0] + a[1] * a[1], a[2] * a[2] + a[3] * a[3]);
        const float texels = float(std::max(tex->width(), tex->height()));
        l.levelScale = scale2 * texels * texels;
    }
    return out;
}

// The sky in direction d: the far box (or the sky colour), then each cloud layer blended over it, each
// clamped to [0, 1] like a framebuffer. `footprint2`: squared change of the dome coordinates (radians) to
// the next pixel, for the layers' mip levels; no dome: no clouds there.
Vec3 skyColorAt(const ShadeContext& ctx, const SkyBox& sky, const CloudLayers& layers, Vec3 d, std::optional<Vec2> dome,
                float footprint2) {
    Vec3 c = sky.hasBox() ? skyBoxColor(ctx, sky, d) : ctx.skyColor;
    if (!dome) return c;
    for (int i = 0; i < layers.count; ++i) {
        const CloudLayerSetup& l = layers.layer[i];
        const float* a = l.affine;
        const Vec2 st{dome->x * a[0] + dome->y * a[2] + a[4], dome->x * a[1] + dome->y * a[3] + a[5]};
        const int level = mipLevelFromSquare(footprint2 * l.levelScale, int(l.tex->mips.size()) - 1);
        const Vec4 s = sampleLevel(levelView(*l.tex, level), st.x, st.y, *ctx.albedoTable);
        const Vec3 src{s.x, s.y, s.z};
        // (The sky behind is opaque: destination alpha 1.)
        const Vec3 blended = src * blendFactorOf(l.src, src, s.w, c, 1) + c * blendFactorOf(l.dst, src, s.w, c, 1);
        c = {clamp01(blended.x), clamp01(blended.y), clamp01(blended.z)};
    }
    return c;
}

constexpr int kMaxSkyRun = 64;

#if defined(LUXEL_SHADE_AVX2)

// One axis of positionOf(p) - eye: (a0 * b0 + a1 * b1) + a2 * b2 - eye.
LUXEL_AVX2 inline __m256 skyAxis8(float a0, float a1, float a2, float eye, __m256 b0, __m256 b1, __m256 b2) {
    const __m256 p = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(a0), b0), _mm256_mul_ps(_mm256_set1_ps(a1), b1)),
                                   _mm256_mul_ps(_mm256_set1_ps(a2), b2));
    return _mm256_sub_ps(p, _mm256_set1_ps(eye));
}

// One row of SkyBox::toBox times (dx, dy, dz): (m0 dx + m1 dy) + m2 dz, as skyBoxColor computes it.
LUXEL_AVX2 inline __m256 skyRow8(const float* m, __m256 dx, __m256 dy, __m256 dz) {
    return _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(m[0]), dx), _mm256_mul_ps(_mm256_set1_ps(m[1]), dy)),
                         _mm256_mul_ps(_mm256_set1_ps(m[2]), dz));
}


// gridCloudCoords per lane: the side each direction meets (skySide's operations), its grid cell and
// triangle, the corners' coordinates gathered and interpolated. `present`: lanes with clouds (not the
// bottom side, finite side coordinates).
struct CloudDome8 {
    __m256 s, t;
    __m256 present;
};

LUXEL_AVX2 inline CloudDome8 cloudDome8(const CloudGrid& grid, __m256 dx, __m256 dy, __m256 dz) {
    const __m256 signBit = _mm256_set1_ps(-0.0f), zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    const __m256 ax = _mm256_andnot_ps(signBit, dx), ay = _mm256_andnot_ps(signBit, dy), az = _mm256_andnot_ps(signBit, dz);
    const __m256 xMajor = _mm256_and_ps(_mm256_cmp_ps(ax, ay, _CMP_GE_OQ), _mm256_cmp_ps(ax, az, _CMP_GE_OQ));
    const __m256 yMajor = _mm256_andnot_ps(xMajor, _mm256_cmp_ps(ay, az, _CMP_GE_OQ));
    const __m256 zMajor = _mm256_andnot_ps(_mm256_or_ps(xMajor, yMajor), _mm256_castsi256_ps(_mm256_set1_epi32(-1)));
    const __m256 positive = _mm256_cmp_ps(_mm256_blendv_ps(_mm256_blendv_ps(dz, dy, yMajor), dx, xMajor), zero, _CMP_GT_OQ);
    const __m256 ndx = _mm256_xor_ps(dx, signBit), ndy = _mm256_xor_ps(dy, signBit);
    // x: s = +X ? -dy : dy, t = dz; y: s = +Y ? dx : -dx, t = dz; z: s = -dy, t = +Z ? -dx : dx.
    const __m256 sNum = _mm256_blendv_ps(_mm256_blendv_ps(ndy, _mm256_blendv_ps(ndx, dx, positive), yMajor),
                                         _mm256_blendv_ps(dy, ndy, positive), xMajor);
    const __m256 tNum = _mm256_blendv_ps(dz, _mm256_blendv_ps(dx, ndx, positive), zMajor);
    const __m256 major = _mm256_blendv_ps(_mm256_blendv_ps(az, ay, yMajor), ax, xMajor);
    const __m256 s = _mm256_div_ps(sNum, major), t = _mm256_div_ps(tNum, major);
    const __m256i axisIndex = _mm256_sub_epi32(_mm256_set1_epi32(2), _mm256_add_epi32(
        _mm256_and_si256(_mm256_castps_si256(xMajor), _mm256_set1_epi32(2)),
        _mm256_and_si256(_mm256_castps_si256(yMajor), _mm256_set1_epi32(1))));
    const __m256i face = _mm256_add_epi32(_mm256_add_epi32(axisIndex, axisIndex),
                                          _mm256_andnot_si256(_mm256_castps_si256(positive), _mm256_set1_epi32(1)));
    const __m256 present = _mm256_and_ps(
        _mm256_castsi256_ps(_mm256_xor_si256(_mm256_cmpeq_epi32(face, _mm256_set1_epi32(5)), _mm256_set1_epi32(-1))),
        _mm256_and_ps(_mm256_cmp_ps(s, s, _CMP_ORD_Q), _mm256_cmp_ps(t, t, _CMP_ORD_Q)));
    const __m256 four = _mm256_set1_ps(4.0f);
    const __m256 gs = _mm256_mul_ps(_mm256_add_ps(s, one), four), gt = _mm256_mul_ps(_mm256_add_ps(t, one), four);
    const __m256i seven = _mm256_set1_epi32(7), zeroI = _mm256_setzero_si256();
    const __m256i i = _mm256_min_epi32(_mm256_max_epi32(_mm256_cvttps_epi32(_mm256_floor_ps(gs)), zeroI), seven);
    const __m256i j = _mm256_min_epi32(_mm256_max_epi32(_mm256_cvttps_epi32(_mm256_floor_ps(gt)), zeroI), seven);
    const __m256 fs = _mm256_sub_ps(gs, _mm256_cvtepi32_ps(i)), ft = _mm256_sub_ps(gt, _mm256_cvtepi32_ps(j));
    // Float index of corner (i, j) of the lane's side: ((face * 9 + j) * 9 + i) * 2; invalid lanes read corner
    // (0, 0) of side 0.
    const __m256i faceOk = _mm256_castps_si256(present);
    const __m256i at = _mm256_and_si256(
        _mm256_slli_epi32(_mm256_add_epi32(_mm256_mullo_epi32(_mm256_add_epi32(_mm256_mullo_epi32(face, _mm256_set1_epi32(9)), j),
                                                              _mm256_set1_epi32(9)),
                                           i),
                          1),
        faceOk);
    const float* g = &grid.at[0][0][0].x;
    // A cell spans a large part of the screen: most groups lie in one, whose corners are then broadcast
    // rather than gathered.
    const bool oneCell = _mm256_testc_si256(_mm256_cmpeq_epi32(at, _mm256_permutevar8x32_epi32(at, _mm256_setzero_si256())),
                                            _mm256_set1_epi32(-1));
    const int cell0 = _mm256_cvtsi256_si32(at);
    auto corner = [&](int di, int dj, __m256& cx, __m256& cy) LUXEL_AVX2 {
        if (oneCell) {
            const float* c = g + cell0 + (dj * 9 + di) * 2;
            cx = _mm256_broadcast_ss(c), cy = _mm256_broadcast_ss(c + 1);
            return;
        }
        const __m256i c = _mm256_add_epi32(at, _mm256_set1_epi32((dj * 9 + di) * 2));
        cx = _mm256_i32gather_ps(g, c, 4);
        cy = _mm256_i32gather_ps(g + 1, c, 4);
    };
    __m256 c00x, c00y, c10x, c10y, c01x, c01y, c11x, c11y;
    corner(0, 0, c00x, c00y);
    corner(1, 0, c10x, c10y);
    corner(0, 1, c01x, c01y);
    corner(1, 1, c11x, c11y);
    const __m256 lower = _mm256_cmp_ps(_mm256_add_ps(fs, ft), one, _CMP_LE_OQ);
    const __m256 rs = _mm256_sub_ps(one, fs), rt = _mm256_sub_ps(one, ft);
    auto interpolate = [&](__m256 c00, __m256 c10, __m256 c01, __m256 c11) LUXEL_AVX2 {
        const __m256 lo = _mm256_add_ps(_mm256_add_ps(c00, _mm256_mul_ps(_mm256_sub_ps(c10, c00), fs)),
                                        _mm256_mul_ps(_mm256_sub_ps(c01, c00), ft));
        const __m256 hi = _mm256_add_ps(_mm256_add_ps(c11, _mm256_mul_ps(_mm256_sub_ps(c01, c11), rs)),
                                        _mm256_mul_ps(_mm256_sub_ps(c10, c11), rt));
        return _mm256_blendv_ps(hi, lo, lower);
    };
    return {interpolate(c00x, c10x, c01x, c11x), interpolate(c00y, c10y, c01y, c11y), present};
}

// skyColorAt's cloud layers over `c` on 8 pixels (lanes without clouds keep c).
LUXEL_AVX2 inline Rgb8 cloudLayers8(const CloudLayers& layers, Rgb8 c, const CloudDome8& dome, const CloudDome8& next,
                                    __m256i valid, bool identity, const float* lut) {
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256 present = _mm256_and_ps(dome.present, _mm256_castsi256_ps(valid));
    if (_mm256_testz_ps(present, present)) return c;
    const __m256 ds = _mm256_sub_ps(next.s, dome.s), dt = _mm256_sub_ps(next.t, dome.t);
    const __m256 f2 = _mm256_and_ps(_mm256_add_ps(_mm256_mul_ps(ds, ds), _mm256_mul_ps(dt, dt)), next.present);
    for (int i = 0; i < layers.count; ++i) {
        const CloudLayerSetup& l = layers.layer[i];
        const float* a = l.affine;
        const __m256 u = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(dome.s, _mm256_set1_ps(a[0])), _mm256_mul_ps(dome.t, _mm256_set1_ps(a[2]))),
                                       _mm256_set1_ps(a[4]));
        const __m256 v = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(dome.s, _mm256_set1_ps(a[1])), _mm256_mul_ps(dome.t, _mm256_set1_ps(a[3]))),
                                       _mm256_set1_ps(a[5]));
        // mipLevelFromSquare per lane.
        const __m256 fl = _mm256_mul_ps(f2, _mm256_set1_ps(l.levelScale));
        const __m256i minified = _mm256_castps_si256(_mm256_cmp_ps(fl, one, _CMP_GT_OQ));
        const __m256i level = _mm256_and_si256(
            _mm256_min_epi32(_mm256_srai_epi32(_mm256_sub_epi32(_mm256_srli_epi32(_mm256_castps_si256(fl), 23), _mm256_set1_epi32(126)), 1),
                             _mm256_set1_epi32(int(l.tex->mips.size()) - 1)),
            minified);
        const Rgba8 texel = sampleLevels8(*l.tex, level, u, v, _mm256_castps_si256(present), identity, lut);
        const Rgb8 fs = blendFactor8(l.src, texel.c, texel.a, c, one), fd = blendFactor8(l.dst, texel.c, texel.a, c, one);
        const Rgb8 cs = mul8(texel.c, fs), cd = mul8(c, fd);
        const Rgb8 blended{clamp01x8(_mm256_add_ps(cs.r, cd.r)), clamp01x8(_mm256_add_ps(cs.g, cd.g)),
                           clamp01x8(_mm256_add_ps(cs.b, cd.b))};
        c = {_mm256_blendv_ps(c.r, blended.r, present), _mm256_blendv_ps(c.g, blended.g, present),
             _mm256_blendv_ps(c.b, blended.b, present)};
    }
    return c;
}

#endif

}  // namespace

}  // namespace luxel::render::shading

namespace luxel::render {

CloudGrid makeCloudGrid(const SkyBox& sky) {
    CloudGrid grid;
    for (int face = 0; face < 6; ++face)
        for (int t = 0; t <= 8; ++t)
            for (int s = 0; s <= 8; ++s)
                grid.at[face][t][s] = sky.dome == SkyBox::Dome::Quake1
                                          ? shading::quake1CloudCoords(shading::skySideDirection(face, float(s - 4) / 4.0f, float(t - 4) / 4.0f))
                                          : shading::cloudCoords(shading::skySideDirection(face, float(s - 4) / 4.0f, float(t - 4) / 4.0f),
                                                                 sky.cloudHeight);
    return grid;
}

}  // namespace luxel::render

namespace luxel::render::shading {

void skyBoxRun(const ShadeContext& ctx, uint32_t tri, const LookParams& lp, int px0, int py, const float* depth, int n,
               float* out) {
    if (ctx.skyView) {  // the 3D skybox, drawn with the 2D box behind it: its pixels as they are
        for (int k = 0; k < n; ++k) {
            const float* p = ctx.skyView->at(px0 + k, py);
            put(out + 3 * k, {p[0], p[1], p[2]});
        }
        return;
    }
    const Vec3 white{1, 1, 1};
    const SkyBox& sky = skyOf(ctx, tri);
    const CloudGrid* grid = cloudGridOf(ctx, tri);
    if (sky.clouds.empty() || !grid) {
        for (int k = 0; k < n; ++k) {
            const Pixel p = resolve(ctx, tri, px0 + k, py, depth[k]);
            put(out + 3 * k, lookOf(white, skyBoxColor(ctx, sky, positionOf(p) - ctx.eye), lp));
        }
        return;
    }
    // Dome coordinates of the run's pixels and one past its end (the footprint of the last pixel), from
    // the triangle's planes extended outside it: the direction is a smooth function of the pixel.
    Vec3 dirs[kMaxSkyRun + 1];
    std::optional<Vec2> dome[kMaxSkyRun + 1];
    if (n > kMaxSkyRun) {  // callers pass at most a segment; split anything longer
        skyBoxRun(ctx, tri, lp, px0, py, depth, kMaxSkyRun, out);
        skyBoxRun(ctx, tri, lp, px0 + kMaxSkyRun, py, depth + kMaxSkyRun, n - kMaxSkyRun, out + 3 * kMaxSkyRun);
        return;
    }
    const CloudLayers layers = cloudLayers(ctx, sky);
    const raster::ShadeTri& st = ctx.tris[tri];
    for (int k = 0; k <= n; ++k) {
        const float invW = k < n ? depth[k] : raster::evalPlane(st.invW, st.x0, st.y0, px0 + k, py);
        const Pixel p = resolve(ctx, tri, px0 + k, py, invW);
        dirs[size_t(k)] = positionOf(p) - ctx.eye;
        dome[size_t(k)] = gridCloudCoords(*grid, dirs[size_t(k)]);
    }
    for (int k = 0; k < n; ++k) {
        // The footprint to the next pixel (none next to the bottom side, where no clouds are: level 0).
        const std::optional<Vec2>&a = dome[size_t(k)], &b = dome[size_t(k) + 1];
        const Vec2 delta = a && b ? *b - *a : Vec2{0, 0};
        const float f2 = delta.x * delta.x + delta.y * delta.y;
        put(out + 3 * k, lookOf(white, skyColorAt(ctx, sky, layers, dirs[size_t(k)], a, f2), lp));
    }
}

#if defined(LUXEL_SHADE_AVX2)

// Sky box runs, 8 pixels at a time with the scalar loop's operations per lane (resolve, positionOf,
// skyBoxColor, lookOf): view direction from the barycentric planes, cube face, clamped bilinear sample.
// A group whose lanes see several faces, or a face texture that is not a power of two, goes pixel by pixel.
LUXEL_AVX2 void skyBoxRunAvx2(const ShadeContext& ctx, uint32_t tri, const LookParams& lp, int px0, int py,
                              const float* depth, int n, float* out) {
    if (ctx.skyView) return skyBoxRun(ctx, tri, lp, px0, py, depth, n, out);
    const SkyBox& sky = skyOf(ctx, tri);
    const CloudGrid* grid = cloudGridOf(ctx, tri);
    const bool clouds = !sky.clouds.empty(), hasBox = sky.hasBox();
    CloudLayers layers;
    if (clouds) {
        // Clouds with a turned box, or on textures the vector fetches cannot read, stay scalar.
        layers = cloudLayers(ctx, sky);
        bool fits = !sky.rotated && grid;
        for (int i = 0; i < layers.count; ++i) fits = fits && textureFits(*layers.layer[i].tex);
        if (!fits) return skyBoxRun(ctx, tri, lp, px0, py, depth, n, out);
    }
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256 one = _mm256_set1_ps(1.0f), zero = _mm256_setzero_ps();
    const __m256 signBit = _mm256_set1_ps(-0.0f);
    const raster::ShadeTri& st = ctx.tris[tri];
    const SourceTri& src = ctx.sources[st.source];
    const DrawVertex* base = vertexBase(ctx, src);
    const Vec3 p0 = base[src.v[0]].position, p1 = base[src.v[1]].position, p2 = base[src.v[2]].position;
    const float fy = float(py - st.y0);
    const bool identity = ctx.albedoTable->identity;
    const float* lut = ctx.albedoTable->value.data();
    // resolve + positionOf - eye per lane at columns fx with 1/w = 1 / d.
    auto directions = [&](__m256 fx, __m256 d, __m256& dx, __m256& dy, __m256& dz) LUXEL_AVX2 {
        const __m256 iw = _mm256_div_ps(one, d);
        const __m256 b1 = plane8(st.b1W, fx, fy, iw), b2 = plane8(st.b2W, fx, fy, iw);
        const __m256 b0 = _mm256_sub_ps(_mm256_sub_ps(one, b1), b2);
        dx = skyAxis8(p0.x, p1.x, p2.x, ctx.eye.x, b0, b1, b2);
        dy = skyAxis8(p0.y, p1.y, p2.y, ctx.eye.y, b0, b1, b2);
        dz = skyAxis8(p0.z, p1.z, p2.z, ctx.eye.z, b0, b1, b2);
    };
    // 1/w from the triangle's plane at columns fx, the raster's expression: inside the run the depth buffer
    // holds the same values.
    auto planeDepths = [&](__m256 fx) LUXEL_AVX2 {
        return _mm256_add_ps(_mm256_add_ps(_mm256_set1_ps(st.invW.c), _mm256_mul_ps(_mm256_set1_ps(st.invW.a), fx)),
                             _mm256_set1_ps(st.invW.b * fy));
    };
    // The clouds need each pixel's dome coordinates and the next pixel's (its footprint; past the run's end
    // from the plane, as the scalar loop takes it). The next pixels of a group are its own lanes 1..7 and
    // the following group's lane 0, so each group's dome comes from the one before (the first from the plane).
    CloudDome8 ahead{};
    if (clouds) {
        __m256 ax0, ay0, az0;
        const __m256 fx0 = _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32(px0 - st.x0), lane));
        directions(fx0, planeDepths(fx0), ax0, ay0, az0);
        ahead = cloudDome8(*grid, ax0, ay0, az0);
    }
    const __m256i nextLane = _mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 0);
    auto shiftIn = [&](__m256 here, __m256 after) LUXEL_AVX2 {  // lanes 1..7 of here, then lane 0 of after
        return _mm256_blend_ps(_mm256_permutevar8x32_ps(here, nextLane), _mm256_permutevar8x32_ps(after, nextLane), 0x80);
    };
    for (int k = 0; k < n; k += 8) {
        const int left = std::min(8, n - k);
        const __m256i valid = _mm256_cmpgt_epi32(_mm256_set1_epi32(left), lane);
        const __m256 d = left == 8 ? _mm256_loadu_ps(depth + k) : _mm256_maskload_ps(depth + k, valid);
        const __m256 fx = _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32(px0 + k - st.x0), lane));
        __m256 dx, dy, dz;
        directions(fx, d, dx, dy, dz);
        CloudDome8 dome{}, next{};
        if (clouds) {
            dome = ahead;
            const __m256 fxAhead = _mm256_add_ps(fx, _mm256_set1_ps(8.0f));
            __m256 nx, ny, nz;
            directions(fxAhead, planeDepths(fxAhead), nx, ny, nz);
            ahead = cloudDome8(*grid, nx, ny, nz);
            next = {shiftIn(dome.s, ahead.s), shiftIn(dome.t, ahead.t), shiftIn(dome.present, ahead.present)};
        }
        if (sky.rotated) {  // skyBoxColor's toBox, the same operations
            const __m256 rx = skyRow8(sky.toBox, dx, dy, dz), ry = skyRow8(sky.toBox + 3, dx, dy, dz),
                         rz = skyRow8(sky.toBox + 6, dx, dy, dz);
            dx = rx, dy = ry, dz = rz;
        }
        const __m256 ax = _mm256_andnot_ps(signBit, dx), ay = _mm256_andnot_ps(signBit, dy), az = _mm256_andnot_ps(signBit, dz);
        const __m256 xMajor = _mm256_and_ps(_mm256_cmp_ps(ax, ay, _CMP_GE_OQ), _mm256_cmp_ps(ax, az, _CMP_GE_OQ));
        const __m256 yMajor = _mm256_andnot_ps(xMajor, _mm256_cmp_ps(ay, az, _CMP_GE_OQ));
        const __m256 positive = _mm256_cmp_ps(_mm256_blendv_ps(_mm256_blendv_ps(dz, dy, yMajor), dx, xMajor), zero, _CMP_GT_OQ);
        // face = 2 * axis + (positive ? 0 : 1), axis 0 x, 1 y, 2 z
        const __m256i axisIndex = _mm256_sub_epi32(_mm256_set1_epi32(2), _mm256_add_epi32(
            _mm256_and_si256(_mm256_castps_si256(xMajor), _mm256_set1_epi32(2)),
            _mm256_and_si256(_mm256_castps_si256(yMajor), _mm256_set1_epi32(1))));
        const __m256i faces = _mm256_add_epi32(_mm256_add_epi32(axisIndex, axisIndex),
                                               _mm256_andnot_si256(_mm256_castps_si256(positive), _mm256_set1_epi32(1)));
        const __m256i sameFace = _mm256_cmpeq_epi32(faces, _mm256_permutevar8x32_epi32(faces, _mm256_setzero_si256()));
        const int face = _mm256_cvtsi256_si32(faces);
        const Texture* tex = skyFaceTexture(ctx, sky, face);
        const bool powerOfTwo = tex && (tex->width() & (tex->width() - 1)) == 0 && (tex->height() & (tex->height() - 1)) == 0;
        if (hasBox && (!_mm256_testc_si256(sameFace, valid) || (tex && !powerOfTwo))) {
            skyBoxRun(ctx, tri, lp, px0 + k, py, depth + k, left, out + 3 * k);
            continue;
        }
        Rgb8 color;
        if (!hasBox || !tex) {
            color = {_mm256_set1_ps(ctx.skyColor.x), _mm256_set1_ps(ctx.skyColor.y), _mm256_set1_ps(ctx.skyColor.z)};
        } else {
            // skyBoxColor's (s, t) for this face: -x is x with its sign flipped (exact, as in the scalar code).
            __m256 sNum, tNum, major;
            switch (face) {
                case 0: sNum = _mm256_xor_ps(dy, signBit), tNum = dz, major = ax; break;
                case 1: sNum = dy, tNum = dz, major = ax; break;
                case 2: sNum = dx, tNum = dz, major = ay; break;
                case 3: sNum = _mm256_xor_ps(dx, signBit), tNum = dz, major = ay; break;
                case 4: sNum = _mm256_xor_ps(dy, signBit), tNum = _mm256_xor_ps(dx, signBit), major = az; break;
                default: sNum = _mm256_xor_ps(dy, signBit), tNum = dx, major = az; break;
            }
            const __m256 sFace = _mm256_div_ps(sNum, major), tFace = _mm256_div_ps(tNum, major);
            const __m256 half = _mm256_set1_ps(0.5f);
            const float du = 0.5f / float(tex->width()), dv = 0.5f / float(tex->height());
            const __m256 u = clamp8(_mm256_mul_ps(_mm256_add_ps(sFace, one), half), du, 1.0f - du);
            const __m256 v = clamp8(_mm256_mul_ps(_mm256_sub_ps(one, tFace), half), dv, 1.0f - dv);
            color = filterTexels8(fetchTexels8(*tex, 0, u, v), identity, lut);
        }
        if (clouds) color = cloudLayers8(layers, color, dome, next, valid, identity, lut);
        const Rgb8 c = litLook8(one, one, one, color.r, color.g, color.b, lp);
        storeRgb8(out + 3 * k, c.r, c.g, c.b);
    }
}

#endif

}  // namespace luxel::render::shading
