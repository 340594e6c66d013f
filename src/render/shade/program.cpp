// Stage programs: blend factors, one pixel through all of a program's stages (programPixel), the run loop,
// and one pixel drawn over what is behind it (programOverPixel, for blended programs).
// A program's pixel is computed the way the engine's framebuffer builds it: each stage's colour (texture, the
// lightmap or white, times its colour generator) is blended over the result so far and clamped to [0, 1].
// Light enters the framebuffer as the engine loads it: the look's hue-preserving clamp, divided by the
// overbright ramp the display applies at the end (engine look: 2, so the lightmap is half of luxel's light
// and identityLight is 1/2; engine-windowed: 1). The linear look has no clamps and no ramp.
#include <algorithm>
#include <cmath>

#include "luxel/util/cpu.hpp"

#include "program_parts.hpp"

namespace luxel::render::shading {

const AlbedoTable kRawTexels = makeAlbedoTable(1.0f);  // MaterialStage::rawTexels: bytes / 255

ProgramSetup programSetup(const ShadeContext& ctx, const TriShade& t, uint32_t tri, const LookParams& lp) {
    ProgramSetup s;
    pageViews(t, s.pages);
    s.pl = programLight(lp);
    const raster::ShadeTri& rt = ctx.tris[tri];
    const SourceTri& src = ctx.sources[rt.source];
    const DrawVertex* base = vertexBase(ctx, src);
    const DrawVertex* v[3] = {base + src.v[0], base + src.v[1], base + src.v[2]};
    const auto& stages = t.program->stages;
    for (size_t k = 0; k < stages.size() && k < kMaxProgramStages; ++k) {
        const MaterialStage& st = stages[k];
        if (st.source != MaterialStage::Source::Texture || st.texture < 0) continue;
        const Texture& tex = *ctx.materials->textures[size_t(st.texture)];
        if (st.texGen == MaterialStage::TexGen::Vector) {
            float u[3], w[3];
            for (int i = 0; i < 3; ++i) u[i] = dot(v[i]->position, st.texVector[0]), w[i] = dot(v[i]->position, st.texVector[1]);
            s.feet[k] = texFootprint(combine(rt, u[0], u[1], u[2]), combine(rt, w[0], w[1], w[2]), rt.invW, tex);
        } else {
            s.feet[k] = texFootprint(ctx, t, tri, tex);
        }
        if (st.turb) {
            // RB_CalcTurbulentTexCoords: the sine table at (x + z) / 1024 + now and y / 1024 + now.
            for (int i = 0; i < 3; ++i) {
                const Vec3 p = v[i]->position;
                const float ds = st.turbAmplitude * engineSine(double(p.x + p.z) * (1.0 / 1024) + st.turbNow);
                const float dt = st.turbAmplitude * engineSine(double(p.y) * (1.0 / 1024) + st.turbNow);
                s.turb[k][i] = {ds * st.turbLinear[0] + dt * st.turbLinear[2], ds * st.turbLinear[1] + dt * st.turbLinear[3]};
            }
        }
    }
    return s;
}

namespace {

// The stage's texture coordinates at the pixel, and the mip level they need (0 for environment maps).
Vec2 stageCoordinates(const ShadeContext& ctx, const MaterialStage& s, const ProgramSetup& setup, size_t k, const Pixel& p,
                      float fx, float fy, float iw, int& level) {
    Vec2 st;
    level = 0;
    if (s.texGen == MaterialStage::TexGen::Environment) {
        // RB_CalcEnvironmentTexCoords: the view vector reflected about the normal.
        const Vec3 n = normalOf(p);
        const Vec3 viewer = normalize(ctx.eye - positionOf(p));
        const Vec3 r = n * (2.0f * dot(n, viewer)) - viewer;
        st = {0.5f + r.y * 0.5f, 0.5f - r.z * 0.5f};
    } else {
        switch (s.texGen) {
            case MaterialStage::TexGen::Lightmap:
                st = interp2(p.v0->lightmapUV, p.v1->lightmapUV, p.v2->lightmapUV, p.bary);
                break;
            case MaterialStage::TexGen::Vector: {
                const Vec3 pos = positionOf(p);
                st = {dot(pos, s.texVector[0]), dot(pos, s.texVector[1])};
                break;
            }
            case MaterialStage::TexGen::Quake2Warp: {
                const Vec2 o = interp2(p.v0->texUV, p.v1->texUV, p.v2->texUV, p.bary);
                st = {o.x + quake2Turbulence(double(o.y) * 0.125 + s.warpTime),
                      o.y + quake2Turbulence(double(o.x) * 0.125 + s.warpTime)};
                break;
            }
            case MaterialStage::TexGen::Quake1Warp: {
                const Vec2 o = interp2(p.v0->texUV, p.v1->texUV, p.v2->texUV, p.bary);
                st = {o.x + quake1WarpOffset(o.y, s.warpVertices), o.y + quake1WarpOffset(o.x, s.warpVertices)};
                break;
            }
            default: st = interp2(p.v0->texUV, p.v1->texUV, p.v2->texUV, p.bary); break;
        }
        const TexFootprint& f = setup.feet[k];
        const float q = f.dyU[0] + f.dyU[1] * fx, r = f.dyV[0] + f.dyV[1] * fx;
        const float iw2 = iw * iw;
        level = mipLevelFromSquare(std::max(rowFootprint(f, fy), q * q + r * r) * (iw2 * iw2) * affineScale2(s), f.maxLevel);
    }
    st = {st.x * s.affine[0] + st.y * s.affine[2] + s.affine[4], st.x * s.affine[1] + st.y * s.affine[3] + s.affine[5]};
    if (s.turb) {
        const Vec2 d = interp2(setup.turb[k][0], setup.turb[k][1], setup.turb[k][2], p.bary);
        st = {st.x + d.x, st.y + d.y};
    }
    return st;
}

// The pixel's framebuffer value after every stage, starting from `behind` (what is drawn there already, in
// framebuffer units); `drawn` is false when the first stage's alpha test discards the pixel (it writes
// nothing, depth included). Returns the display value before the look (framebuffer x ramp).
// Colour and alpha are the texture's times the stage's generated ones, as GL_MODULATE combines them.
// fogKeep: 1 - the fog factor, for translucent programs in a fog (adjustColorsForFog: an additive or
// GL_ZERO GL_ONE_MINUS_SRC_COLOR stage's colour, a blend stage's alpha, a premultiplied one's both).
// distanceFog: Quake 1's world fog over each blended stage's fragment before it is blended, as GL fog does
// (QuakeSpasm: additive passes fade toward black, Fog_StartAdditive).
struct FragmentFog {
    float keep = 1;  // 1 - the fog factor at the pixel
    Vec3 color;      // in framebuffer units
};

Vec3 programPixel(const ShadeContext& ctx, const TriShade& t, const ProgramSetup& setup, const Pixel& p, float fx, float fy,
                  float iw, Vec3 behind = {}, bool* drawn = nullptr, float fogKeep = 1, const FragmentFog* distanceFog = nullptr) {
    const ProgramLight& pl = setup.pl;
    const Vec3 light = pl.fb(lightAt(t, setup.pages, fx, fy, iw));
    const Vec4 vcolor = interp4(p.v0->color, p.v1->color, p.v2->color, p.bary);
    const Vec3 vertexLight = pl.fb({vcolor.x, vcolor.y, vcolor.z});
    const float identityLight = 1.0f / pl.ramp;
    Vec3 fb = behind;
    float fbAlpha = 1;
    if (drawn) *drawn = true;
    const auto& stages = t.program->stages;
    for (size_t k = 0; k < stages.size(); ++k) {
        const MaterialStage& s = stages[k];
        Vec3 c{1, 1, 1};
        float a = 1;
        if (s.source == MaterialStage::Source::Lightmap) {
            c = light;
        } else if (s.source == MaterialStage::Source::Texture && s.texture >= 0) {
            const Texture& tex = *ctx.materials->textures[size_t(s.texture)];
            int level = 0;
            Vec2 st = stageCoordinates(ctx, s, setup, k, p, fx, fy, iw, level);
            const LevelView view = levelView(tex, level);
            if (s.clamp) {  // clampMap is GL_CLAMP_TO_EDGE: never past the edge texels' centres
                const float hu = 0.5f / float(view.width), hv = 0.5f / float(view.height);
                st = {std::clamp(st.x, hu, 1.0f - hu), std::clamp(st.y, hv, 1.0f - hv)};
            }
            const Vec4 texel = sampleLevel(view, st.x, st.y, s.rawTexels ? kRawTexels : *ctx.albedoTable);
            c = {texel.x, texel.y, texel.z};
            a = texel.w;
        }
        switch (s.color) {
            case MaterialStage::Color::One: break;
            case MaterialStage::Color::IdentityLighting: c *= identityLight; break;
            case MaterialStage::Color::Vertex: c = c * vertexLight * identityLight; break;
            case MaterialStage::Color::ExactVertex: c = c * vertexLight; break;
            case MaterialStage::Color::OneMinusVertex: c = c * (Vec3{1, 1, 1} - vertexLight) * identityLight; break;
            case MaterialStage::Color::Constant: c = c * s.constant; break;
            case MaterialStage::Color::LitConstant: {
                const Vec3 k = s.constant * identityLight;
                c = c * Vec3{clamp01(k.x), clamp01(k.y), clamp01(k.z)};
                break;
            }
        }
        switch (s.alpha) {
            case MaterialStage::Alpha::Texture:
                // ComputeColors keeps the vertex alpha of rgbGen vertex when identityLight is 1 (255 otherwise).
                if (s.color == MaterialStage::Color::Vertex && identityLight == 1.0f) a *= vcolor.w;
                break;
            case MaterialStage::Alpha::Vertex: a *= vcolor.w; break;
            case MaterialStage::Alpha::OneMinusVertex: a *= 1 - vcolor.w; break;
            case MaterialStage::Alpha::Constant: a *= s.alphaConstant; break;
            case MaterialStage::Alpha::LightingSpecular: {
                const Vec3 pos = positionOf(p);
                const Vec3 n = normalOf(p);
                const Vec3 l = normalize(Vec3{-960, 1980, 96} - pos);
                const Vec3 reflected = n * (2.0f * dot(n, l)) - l;
                const float v = dot(reflected, normalize(ctx.eye - pos));
                a *= v < 0 ? 0.0f : std::min(1.0f, (v * v) * (v * v));
                break;
            }
            case MaterialStage::Alpha::Portal: {  // ComputeColors AGEN_PORTAL, per vertex
                auto at = [&](const DrawVertex* v) {
                    const Vec3 d = v->position - ctx.eye;
                    return std::clamp(std::sqrt(dot(d, d)) / s.alphaConstant, 0.0f, 1.0f);
                };
                a *= at(p.v0) * p.bary.b0 + at(p.v1) * p.bary.b1 + at(p.v2) * p.bary.b2;
                break;
            }
        }
        const bool kept = s.alphaTest == MaterialStage::AlphaTest::None ||
                          (s.alphaTest == MaterialStage::AlphaTest::Gt0 && a > 0) ||
                          (s.alphaTest == MaterialStage::AlphaTest::Lt128 && a < 0.5f) ||
                          (s.alphaTest == MaterialStage::AlphaTest::Ge128 && a >= 0.5f);
        if (!kept) {
            if (k == 0 && drawn) {
                *drawn = false;
                return fb * pl.ramp;
            }
            continue;
        }
        if ((fogKeep < 1 || distanceFog) && s.blends) {
            const bool add = (s.src == BlendFactor::One && s.dst == BlendFactor::One) ||
                             (s.src == BlendFactor::Zero && s.dst == BlendFactor::OneMinusSrcColor);
            const bool blend = s.src == BlendFactor::SrcAlpha && s.dst == BlendFactor::OneMinusSrcAlpha;
            const bool premultiplied = s.src == BlendFactor::One && s.dst == BlendFactor::OneMinusSrcAlpha;
            if (add || premultiplied) c *= fogKeep;
            if (blend || premultiplied) a *= fogKeep;
            if (distanceFog && add) c *= distanceFog->keep;
            if (distanceFog && (blend || premultiplied)) c = c * distanceFog->keep + distanceFog->color * (1 - distanceFog->keep);
        }
        if (s.blends) {
            c = c * blendFactorOf(s.src, c, a, fb, fbAlpha) + fb * blendFactorOf(s.dst, c, a, fb, fbAlpha);
        }
        fb = pl.linear ? c : Vec3{clamp01(c.x), clamp01(c.y), clamp01(c.z)};
        fbAlpha = a;
    }
    return fb * pl.ramp;
}

}  // namespace

Vec3 blendFactorOf(BlendFactor f, Vec3 src, float srcAlpha, Vec3 dst, float dstAlpha) {
    switch (f) {
        case BlendFactor::One: return {1, 1, 1};
        case BlendFactor::Zero: return {0, 0, 0};
        case BlendFactor::SrcAlpha: return {srcAlpha, srcAlpha, srcAlpha};
        case BlendFactor::OneMinusSrcAlpha: return {1 - srcAlpha, 1 - srcAlpha, 1 - srcAlpha};
        case BlendFactor::DstColor: return dst;
        case BlendFactor::OneMinusDstColor: return Vec3{1, 1, 1} - dst;
        case BlendFactor::SrcColor: return src;
        case BlendFactor::OneMinusSrcColor: return Vec3{1, 1, 1} - src;
        case BlendFactor::DstAlpha: return {dstAlpha, dstAlpha, dstAlpha};
        case BlendFactor::OneMinusDstAlpha: return {1 - dstAlpha, 1 - dstAlpha, 1 - dstAlpha};
    }
    return {1, 1, 1};
}

void programRun(const ShadeContext& ctx, const TriShade& t, const LookParams& lp, uint32_t tri, int px0, int py,
                const float* depth, int n, float* out) {
    const ProgramSetup s = programSetup(ctx, t, tri, lp);
#if defined(LUXEL_SHADE_AVX2)
    if (useAvx2() && (!lp.gamma || lp.table) && programFitsAvx2(ctx, t))
        return programRunAvx2(ctx, t, s, lp, tri, px0, py, depth, n, out);
#endif
    const float fy = float(py - t.y0);
    const Vec3 white{1, 1, 1};
    for (int k = 0; k < n; ++k) {
        const Pixel p = resolve(ctx, tri, px0 + k, py, depth[k]);
        const Vec3 c = programPixel(ctx, t, s, p, float(px0 + k - t.x0), fy, 1.0f / depth[k]);
        put(out + 3 * k, lookOf(c, white, lp));
    }
}

}  // namespace luxel::render::shading

namespace luxel::render {

using namespace shading;

bool seeThroughProgram(const TriShade& t) {
    if (!t.program || t.program->stages.empty() || !(t.opacity < 1) || t.fog >= 0) return false;
    const MaterialStage& first = t.program->stages.front();
    return !first.blends && first.alphaTest == MaterialStage::AlphaTest::None;  // every covered pixel drawn
}

void programOverRun(const ShadeContext& ctx, uint32_t tri, int px0, int py, const float* invW, int n, float* rgb) {
    const TriShade& t = ctx.triShade[tri];
    float seen[3 * raster::kTileSize];
    programRun(ctx, t, lookParams(ctx), tri, px0, py, invW, n, seen);
    if (t.distanceFog) {
#if defined(LUXEL_SHADE_AVX2)
        if (useAvx2())
            distanceFogRunAvx2(*ctx.materials->distanceFog, invW, n, seen);
        else
#endif
            distanceFogRun(*ctx.materials->distanceFog, invW, n, seen);
    }
    const float a = t.opacity;
    for (int k = 0; k < 3 * n; ++k) rgb[k] = seen[k] * a + rgb[k] * (1 - a);
}

namespace {

bool programOverPixel(const ShadeContext& ctx, uint32_t tri, const LookParams& lp, const ProgramSetup& s, int px, int py,
                      float invW, float* rgb) {
    const TriShade& t = ctx.triShade[tri];
    const ProgramLight& pl = s.pl;
    // What is behind, back in framebuffer units: the look's display gamma undone (the engines blend before
    // their hardware gamma ramp), then its overbright ramp (the display clamps at 1: exact below it).
    Vec3 behind{rgb[0], rgb[1], rgb[2]};
    if (lp.gamma && !lp.linear) {
        const float g = 1.0f / lp.invGamma;
        behind = {std::pow(std::max(behind.x, 0.0f), g), std::pow(std::max(behind.y, 0.0f), g), std::pow(std::max(behind.z, 0.0f), g)};
    }
    behind = behind * (1.0f / pl.ramp);
    bool drawn = true;
    const Pixel p = resolve(ctx, tri, px, py, invW);
    // In a fog: a translucent program (stage 0 blends) fades its stages; an opaque one gets the fog pass.
    const bool translucent = !t.program->stages.empty() && t.program->stages.front().blends;
    const float fog = t.fog >= 0 ? fogAt(ctx, tri, px, py, invW) : 0.0f;
    FragmentFog distanceFog;
    if (t.distanceFog && translucent) {
        distanceFog.keep = distanceFogKeep(*ctx.materials->distanceFog, invW);
        distanceFog.color = ctx.materials->distanceFog->color * (1.0f / pl.ramp);
    }
    const Vec3 c = programPixel(ctx, t, s, p, float(px - t.x0), float(py - t.y0), 1.0f / invW, behind, &drawn,
                                translucent ? 1.0f - fog : 1.0f, t.distanceFog && translucent ? &distanceFog : nullptr);
    if (!drawn) return false;
    Vec3 out = lookOf(c, Vec3{1, 1, 1}, lp);
    if (!translucent && t.opacity < 1) {
        // An opaque program drawn see-through (a Quake 1 entity's alpha): its result, fogged, then blended at
        // the opacity, as QuakeSpasm's world shader outputs it with the entity's alpha.
        float f[3] = {out.x, out.y, out.z};
        if (t.distanceFog) distanceFogOverPixel(ctx, invW, f, false);
        const float a = t.opacity;
        out = Vec3{f[0], f[1], f[2]} * a + Vec3{rgb[0], rgb[1], rgb[2]} * (1 - a);
    }
    rgb[0] = out.x, rgb[1] = out.y, rgb[2] = out.z;
    if (!translucent && fog > 0) fogOverPixel(ctx, tri, px, py, invW, rgb);
    return true;
}

}  // namespace

void programOverPixels(const ShadeContext& ctx, uint32_t tri, const int* px, const int* py, const float* invW, int n,
                       float* const* rgb, uint8_t* drawn) {
    if (n <= 0) return;
    const LookParams lp = lookParams(ctx);
    const ProgramSetup s = programSetup(ctx, ctx.triShade[tri], tri, lp);
    for (int k = 0; k < n; ++k) drawn[k] = programOverPixel(ctx, tri, lp, s, px[k], py[k], invW[k], rgb[k]) ? 1 : 0;
}

}  // namespace luxel::render
