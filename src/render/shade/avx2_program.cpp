// The AVX2 loop of stage programs: programRun's pixels 8 at a time, every lane through the same IEEE
// operations as programPixel (program.cpp), so both give the same bits. It covers the stages real
// maps are made of (a texture on its base, lightmap or environment coordinates, turbulent or not, or Quake 1
// and 2 warped; the lightmap; white; every colour generator, blend and alpha test; texture, vertex and constant
// alpha). Programs with other stages (tcGen vector, specular or portal alpha, textures that are not powers of
// two) stay scalar.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <numbers>

#include "avx2_lightmap.hpp"
#include "program_parts.hpp"

#if defined(LUXEL_SHADE_AVX2)

namespace luxel::render::shading {

namespace {

// ProgramLight::fb on 8 pixels.
LUXEL_AVX2 inline Rgb8 framebufferLight8(Rgb8 l, const ProgramLight& pl) {
    if (pl.linear) return l;
    if (pl.clampAt > 0) clampLight8(l.r, l.g, l.b, pl.clampAt, pl.clampPerChannel);
    return scale8(l, _mm256_set1_ps(1.0f / pl.ramp));
}

// interp of one attribute channel: (a b0 + b b1) + c b2.
LUXEL_AVX2 inline __m256 interp8(float a, float b, float c, __m256 b0, __m256 b1, __m256 b2) {
    return _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(a), b0), _mm256_mul_ps(_mm256_set1_ps(b), b1)),
                         _mm256_mul_ps(_mm256_set1_ps(c), b2));
}


// normalize() per lane: v / |v|, zero when |v| is not above 0.
LUXEL_AVX2 inline void normalize8(__m256& x, __m256& y, __m256& z) {
    const __m256 len = _mm256_sqrt_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(x, x), _mm256_mul_ps(y, y)), _mm256_mul_ps(z, z)));
    const __m256 positive = _mm256_cmp_ps(len, _mm256_setzero_ps(), _CMP_GT_OQ);
    x = _mm256_and_ps(_mm256_div_ps(x, len), positive);
    y = _mm256_and_ps(_mm256_div_ps(y, len), positive);
    z = _mm256_and_ps(_mm256_div_ps(z, len), positive);
}

// stageCoordinates' environment map (RB_CalcEnvironmentTexCoords): the view vector reflected about the normal.
LUXEL_AVX2 inline void environmentCoordinates8(Vec3 eye, const DrawVertex& v0, const DrawVertex& v1, const DrawVertex& v2,
                                               __m256 b0, __m256 b1, __m256 b2, __m256& s, __m256& t) {
    __m256 nx = interp8(v0.normal.x, v1.normal.x, v2.normal.x, b0, b1, b2);
    __m256 ny = interp8(v0.normal.y, v1.normal.y, v2.normal.y, b0, b1, b2);
    __m256 nz = interp8(v0.normal.z, v1.normal.z, v2.normal.z, b0, b1, b2);
    normalize8(nx, ny, nz);
    __m256 wx = _mm256_sub_ps(_mm256_set1_ps(eye.x), interp8(v0.position.x, v1.position.x, v2.position.x, b0, b1, b2));
    __m256 wy = _mm256_sub_ps(_mm256_set1_ps(eye.y), interp8(v0.position.y, v1.position.y, v2.position.y, b0, b1, b2));
    __m256 wz = _mm256_sub_ps(_mm256_set1_ps(eye.z), interp8(v0.position.z, v1.position.z, v2.position.z, b0, b1, b2));
    normalize8(wx, wy, wz);
    const __m256 k = _mm256_mul_ps(_mm256_set1_ps(2.0f),
                                   _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(nx, wx), _mm256_mul_ps(ny, wy)), _mm256_mul_ps(nz, wz)));
    const __m256 ry = _mm256_sub_ps(_mm256_mul_ps(ny, k), wy), rz = _mm256_sub_ps(_mm256_mul_ps(nz, k), wz);
    const __m256 half = _mm256_set1_ps(0.5f);
    s = _mm256_add_ps(half, _mm256_mul_ps(ry, half));
    t = _mm256_sub_ps(half, _mm256_mul_ps(rz, half));
}

// quake1WarpOffset per lane, the scalar function's float operations: floor(y / 16) and the fraction are exact,
// the cell mod 8 picks the vertex pair (a permute of the 9 vertex offsets), non-finite lanes offset 0.
LUXEL_AVX2 inline __m256 quake1WarpOffset8(__m256 y, const std::array<float, 9>& vertices) {
    const __m256 scaled = _mm256_mul_ps(y, _mm256_set1_ps(0.0625f));
    const __m256 cell = _mm256_floor_ps(scaled);
    const __m256 along = _mm256_sub_ps(scaled, cell);
    const __m256 wrapped = _mm256_sub_ps(cell, _mm256_mul_ps(_mm256_set1_ps(8.0f), _mm256_floor_ps(_mm256_mul_ps(cell, _mm256_set1_ps(0.125f)))));
    // y - y is 0 exactly when y is finite.
    const __m256 finite = _mm256_cmp_ps(_mm256_sub_ps(y, y), _mm256_setzero_ps(), _CMP_EQ_OQ);
    const __m256i k = _mm256_and_si256(_mm256_cvttps_epi32(_mm256_and_ps(wrapped, finite)), _mm256_set1_epi32(7));
    const __m256 a = _mm256_permutevar8x32_ps(_mm256_loadu_ps(vertices.data()), k);
    const __m256 b = _mm256_permutevar8x32_ps(_mm256_loadu_ps(vertices.data() + 1), k);
    return _mm256_and_ps(_mm256_add_ps(a, _mm256_mul_ps(_mm256_sub_ps(b, a), along)), finite);
}

// quake2Turbulence(double(x) * 0.125 + time) per lane, in the scalar function's double arithmetic: fmod(p, 1)
// is p - trunc(p) (exact), and ((i % 256) + 256) % 256 of the truncated i in (-256, 256) is i & 255. A lane whose
// period is not finite reads 0, as tableSine returns.
LUXEL_AVX2 inline __m256 quake2Turbulence8(__m256 x, double time, const float* table) {
    auto indices = [&](__m128 xs, __m128& finite) LUXEL_AVX2 {
        const __m256d radians = _mm256_add_pd(_mm256_mul_pd(_mm256_cvtps_pd(xs), _mm256_set1_pd(0.125)), _mm256_set1_pd(time));
        const __m256d periods = _mm256_div_pd(radians, _mm256_set1_pd(2.0 * std::numbers::pi));
        const __m256d fraction = _mm256_sub_pd(periods, _mm256_round_pd(periods, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC));
        // periods - periods is 0 exactly when periods is finite (NaN otherwise).
        finite = _mm256_cvtpd_ps(_mm256_cmp_pd(_mm256_sub_pd(periods, periods), _mm256_setzero_pd(), _CMP_EQ_OQ));
        return _mm_and_si128(_mm256_cvttpd_epi32(_mm256_mul_pd(fraction, _mm256_set1_pd(256.0))), _mm_set1_epi32(255));
    };
    __m128 finiteLow, finiteHigh;
    const __m128i low = indices(_mm256_castps256_ps128(x), finiteLow), high = indices(_mm256_extractf128_ps(x, 1), finiteHigh);
    const __m256 value = _mm256_i32gather_ps(table, _mm256_set_m128i(high, low), 4);
    return _mm256_and_ps(value, _mm256_set_m128(finiteHigh, finiteLow));
}

}  // namespace

bool programFitsAvx2(const ShadeContext& ctx, const TriShade& t) {
    const auto& stages = t.program->stages;
    if (stages.size() > kMaxProgramStages) return false;
    for (const MaterialStage& s : stages) {
        if (s.source == MaterialStage::Source::Texture && s.texture >= 0) {
            if (s.texGen == MaterialStage::TexGen::Vector) return false;
            if (!textureFits(*ctx.materials->textures[size_t(s.texture)])) return false;
        }
        if (s.alpha == MaterialStage::Alpha::LightingSpecular || s.alpha == MaterialStage::Alpha::Portal) return false;
    }
    return true;
}

LUXEL_AVX2 void programRunAvx2(const ShadeContext& ctx, const TriShade& t, const ProgramSetup& s, const LookParams& lp,
                               uint32_t tri, int px0, int py, const float* depth, int n, float* out) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256 one = _mm256_set1_ps(1.0f), zero = _mm256_setzero_ps();
    const raster::ShadeTri& rt = ctx.tris[tri];
    const SourceTri& src = ctx.sources[rt.source];
    const DrawVertex* vb = vertexBase(ctx, src);
    const DrawVertex &v0 = vb[src.v[0]], &v1 = vb[src.v[1]], &v2 = vb[src.v[2]];
    const ProgramLight& pl = s.pl;
    const float identityLight = 1.0f / pl.ramp;
    const __m256 identity8 = _mm256_set1_ps(identityLight);
    const float fy = float(py - t.y0), baryFy = float(py - rt.y0);
    const auto& stages = t.program->stages;
    float rowSquare[kMaxProgramStages], scale2[kMaxProgramStages];
    for (size_t k = 0; k < stages.size(); ++k) {  // (feet are set for texture stages only)
        const bool textured = stages[k].source == MaterialStage::Source::Texture && stages[k].texture >= 0;
        rowSquare[k] = textured ? rowFootprint(s.feet[k], fy) : 0.0f;
        scale2[k] = affineScale2(stages[k]);
    }
    const bool identityTable = ctx.albedoTable->identity;
    const float* turbulence = quake2TurbulenceTable();
    const bool vectorLightmap = t.path == ShadePath::Lightmap && t.narrowIndices;
    const LightmapRow lightRow = vectorLightmap ? lightmapRow(t, fy) : LightmapRow{};
    for (int k = 0; k < n; k += 8) {
        const int left = std::min(8, n - k);
        const __m256i valid = _mm256_cmpgt_epi32(_mm256_set1_epi32(left), lane);
        const __m256 d = left == 8 ? _mm256_loadu_ps(depth + k) : _mm256_maskload_ps(depth + k, valid);
        const __m256 iw = _mm256_div_ps(one, d);
        const __m256 fx = _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32(px0 + k - t.x0), lane));
        const __m256 baryFx = _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32(px0 + k - rt.x0), lane));
        const __m256 b1 = plane8(rt.b1W, baryFx, baryFy, iw), b2 = plane8(rt.b2W, baryFx, baryFy, iw);
        const __m256 b0 = _mm256_sub_ps(_mm256_sub_ps(one, b1), b2);
        // The light (lightAt per lane, as programPixel takes it: the lightmap loop's identity look is exactly
        // that) and the vertex colour.
        Rgb8 lightmapLight;
        if (vectorLightmap) {
            lightmapLight = t.unitWeight ? lightmapLight8<true, LookKind::Identity>(t, lp, lightRow, fx, iw, valid, left)
                                         : lightmapLight8<false, LookKind::Identity>(t, lp, lightRow, fx, iw, valid, left);
        } else {
            alignas(32) float lr[8] = {}, lg[8] = {}, lb[8] = {};
            for (int i = 0; i < left; ++i) {
                const Vec3 l = lightAt(t, s.pages, float(px0 + k + i - t.x0), fy, 1.0f / depth[k + i]);
                lr[i] = l.x, lg[i] = l.y, lb[i] = l.z;
            }
            lightmapLight = {_mm256_load_ps(lr), _mm256_load_ps(lg), _mm256_load_ps(lb)};
        }
        const Rgb8 light = framebufferLight8(lightmapLight, pl);
        const Rgb8 vcolor{interp8(v0.color.x, v1.color.x, v2.color.x, b0, b1, b2),
                          interp8(v0.color.y, v1.color.y, v2.color.y, b0, b1, b2),
                          interp8(v0.color.z, v1.color.z, v2.color.z, b0, b1, b2)};
        const __m256 valpha = interp8(v0.color.w, v1.color.w, v2.color.w, b0, b1, b2);
        const Rgb8 vertexLight = framebufferLight8(vcolor, pl);
        const __m256 iw2 = _mm256_mul_ps(iw, iw), iw4 = _mm256_mul_ps(iw2, iw2);
        Rgb8 fb{zero, zero, zero};
        __m256 fbAlpha = one;
        for (size_t st = 0; st < stages.size(); ++st) {
            const MaterialStage& m = stages[st];
            Rgb8 c{one, one, one};
            __m256 a = one;
            if (m.source == MaterialStage::Source::Lightmap) {
                c = light;
            } else if (m.source == MaterialStage::Source::Texture && m.texture >= 0) {
                const Texture& tex = *ctx.materials->textures[size_t(m.texture)];
                __m256 su, sv;
                __m256i level = _mm256_setzero_si256();
                if (m.texGen == MaterialStage::TexGen::Environment) {
                    environmentCoordinates8(ctx.eye, v0, v1, v2, b0, b1, b2, su, sv);
                } else {
                    const bool lm = m.texGen == MaterialStage::TexGen::Lightmap;
                    const Vec2 &t0 = lm ? v0.lightmapUV : v0.texUV, &t1 = lm ? v1.lightmapUV : v1.texUV,
                               &t2 = lm ? v2.lightmapUV : v2.texUV;
                    su = interp8(t0.x, t1.x, t2.x, b0, b1, b2), sv = interp8(t0.y, t1.y, t2.y, b0, b1, b2);
                    if (m.texGen == MaterialStage::TexGen::Quake2Warp) {
                        const __m256 warpedU = _mm256_add_ps(su, quake2Turbulence8(sv, m.warpTime, turbulence));
                        sv = _mm256_add_ps(sv, quake2Turbulence8(su, m.warpTime, turbulence));
                        su = warpedU;
                    } else if (m.texGen == MaterialStage::TexGen::Quake1Warp) {
                        const __m256 warpedU = _mm256_add_ps(su, quake1WarpOffset8(sv, m.warpVertices));
                        sv = _mm256_add_ps(sv, quake1WarpOffset8(su, m.warpVertices));
                        su = warpedU;
                    }
                    // stageCoordinates' level: max(row, column footprint) * (iw2 * iw2) * the stage's scale.
                    const TexFootprint& f = s.feet[st];
                    const __m256 q = _mm256_add_ps(_mm256_set1_ps(f.dyU[0]), _mm256_mul_ps(_mm256_set1_ps(f.dyU[1]), fx));
                    const __m256 r = _mm256_add_ps(_mm256_set1_ps(f.dyV[0]), _mm256_mul_ps(_mm256_set1_ps(f.dyV[1]), fx));
                    const __m256 column = _mm256_add_ps(_mm256_mul_ps(q, q), _mm256_mul_ps(r, r));
                    const __m256 f2 = _mm256_mul_ps(_mm256_mul_ps(_mm256_max_ps(column, _mm256_set1_ps(rowSquare[st])), iw4),
                                                    _mm256_set1_ps(scale2[st]));
                    const __m256i minified = _mm256_castps_si256(_mm256_cmp_ps(f2, one, _CMP_GT_OQ));
                    level = _mm256_and_si256(
                        _mm256_min_epi32(_mm256_srai_epi32(_mm256_sub_epi32(_mm256_srli_epi32(_mm256_castps_si256(f2), 23),
                                                                            _mm256_set1_epi32(126)), 1),
                                         _mm256_set1_epi32(f.maxLevel)),
                        minified);
                }
                __m256 u = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(su, _mm256_set1_ps(m.affine[0])),
                                                             _mm256_mul_ps(sv, _mm256_set1_ps(m.affine[2]))),
                                               _mm256_set1_ps(m.affine[4]));
                __m256 v = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(su, _mm256_set1_ps(m.affine[1])),
                                                       _mm256_mul_ps(sv, _mm256_set1_ps(m.affine[3]))),
                                         _mm256_set1_ps(m.affine[5]));
                if (m.turb) {  // the moved vertex coordinates, interpolated
                    const Vec2* d = s.turb[st];
                    u = _mm256_add_ps(u, interp8(d[0].x, d[1].x, d[2].x, b0, b1, b2));
                    v = _mm256_add_ps(v, interp8(d[0].y, d[1].y, d[2].y, b0, b1, b2));
                }
                const bool rawIdentity = m.rawTexels ? kRawTexels.identity : identityTable;
                const float* lut = m.rawTexels ? kRawTexels.value.data() : ctx.albedoTable->value.data();
                const Rgba8 texel = sampleLevels8(tex, level, u, v, valid, rawIdentity, lut, m.clamp);
                c = texel.c;
                a = texel.a;
            }
            switch (m.color) {
                case MaterialStage::Color::One: break;
                case MaterialStage::Color::IdentityLighting: c = scale8(c, identity8); break;
                case MaterialStage::Color::Vertex: c = scale8(mul8(c, vertexLight), identity8); break;
                case MaterialStage::Color::ExactVertex: c = mul8(c, vertexLight); break;
                case MaterialStage::Color::OneMinusVertex:
                    c = scale8(mul8(c, {_mm256_sub_ps(one, vertexLight.r), _mm256_sub_ps(one, vertexLight.g),
                                        _mm256_sub_ps(one, vertexLight.b)}),
                               identity8);
                    break;
                case MaterialStage::Color::Constant:
                    c = mul8(c, {_mm256_set1_ps(m.constant.x), _mm256_set1_ps(m.constant.y), _mm256_set1_ps(m.constant.z)});
                    break;
                case MaterialStage::Color::LitConstant: {
                    const Vec3 kc = m.constant * identityLight;
                    c = mul8(c, {_mm256_set1_ps(clamp01(kc.x)), _mm256_set1_ps(clamp01(kc.y)), _mm256_set1_ps(clamp01(kc.z))});
                    break;
                }
            }
            switch (m.alpha) {
                case MaterialStage::Alpha::Texture:
                    if (m.color == MaterialStage::Color::Vertex && identityLight == 1.0f) a = _mm256_mul_ps(a, valpha);
                    break;
                case MaterialStage::Alpha::Vertex: a = _mm256_mul_ps(a, valpha); break;
                case MaterialStage::Alpha::OneMinusVertex: a = _mm256_mul_ps(a, _mm256_sub_ps(one, valpha)); break;
                case MaterialStage::Alpha::Constant: a = _mm256_mul_ps(a, _mm256_set1_ps(m.alphaConstant)); break;
                default: break;  // programFitsAvx2 keeps the others scalar
            }
            __m256 kept;
            switch (m.alphaTest) {
                case MaterialStage::AlphaTest::Gt0: kept = _mm256_cmp_ps(a, zero, _CMP_GT_OQ); break;
                case MaterialStage::AlphaTest::Lt128: kept = _mm256_cmp_ps(a, _mm256_set1_ps(0.5f), _CMP_LT_OQ); break;
                case MaterialStage::AlphaTest::Ge128: kept = _mm256_cmp_ps(a, _mm256_set1_ps(0.5f), _CMP_GE_OQ); break;
                default: kept = _mm256_castsi256_ps(_mm256_set1_epi32(-1)); break;
            }
            if (m.blends) {
                const Rgb8 fs = blendFactor8(m.src, c, a, fb, fbAlpha), fd = blendFactor8(m.dst, c, a, fb, fbAlpha);
                const Rgb8 cs = mul8(c, fs), bd = mul8(fb, fd);
                c = {_mm256_add_ps(cs.r, bd.r), _mm256_add_ps(cs.g, bd.g), _mm256_add_ps(cs.b, bd.b)};
            }
            if (!pl.linear) c = {clamp01x8(c.r), clamp01x8(c.g), clamp01x8(c.b)};
            fb = {_mm256_blendv_ps(fb.r, c.r, kept), _mm256_blendv_ps(fb.g, c.g, kept), _mm256_blendv_ps(fb.b, c.b, kept)};
            fbAlpha = _mm256_blendv_ps(fbAlpha, a, kept);
        }
        const Rgb8 display = scale8(fb, _mm256_set1_ps(pl.ramp));
        const Rgb8 looked = litLook8(display.r, display.g, display.b, one, one, one, lp);
        alignas(32) float buf[24];
        storeRgb8(buf, looked.r, looked.g, looked.b);
        std::memcpy(out + 3 * k, buf, size_t(3 * left) * sizeof(float));
    }
}

}  // namespace luxel::render::shading

#endif
