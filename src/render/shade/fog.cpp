// Quake 3 fog volumes over opaque surfaces: ioquake3's fog factor of a point (RB_CalcFogTexCoords and
// R_FogFactor), and the run loop that blends a surface's pixels towards its fog's colour; Source water's fog.
#include <algorithm>
#include <cmath>
#include <limits>

#include "parts.hpp"

namespace luxel::render {

float fogFactor(const FogVolume& fog, float distanceToOpaque, Vec3 eye, Vec3 forward, Vec3 p) {
    const float tcScale = 1.0f / (std::max(distanceToOpaque, 1.0f) * 8.0f);
    float s = dot(p - eye, forward) * tcScale + 1.0f / 512.0f;
    const float eyeT = fog.hasSurface ? dot(fog.surface.normal, eye) - fog.surface.dist : 1.0f;
    const float tRaw = fog.hasSurface ? dot(fog.surface.normal, p) - fog.surface.dist : 1.0f;
    float t;
    if (eyeT < 0)  // the eye outside: the distance is cut at the fog's surface
        t = tRaw < 1.0f ? 1.0f / 32.0f : 1.0f / 32.0f + 30.0f / 32.0f * tRaw / (tRaw - eyeT);
    else
        t = tRaw < 0 ? 1.0f / 32.0f : 31.0f / 32.0f;
    // R_FogFactor
    s -= 1.0f / 512.0f;
    if (s < 0 || t < 1.0f / 32.0f) return 0;
    if (t < 31.0f / 32.0f) s *= (t - 1.0f / 32.0f) / (30.0f / 32.0f);
    s = std::min(s * 8.0f, 1.0f);
    return std::sqrt(s);
}

float fogAt(const ShadeContext& ctx, uint32_t tri, int px, int py, float invW) {
    const TriShade& t = ctx.triShade[tri];
    if (t.fog < 0) return 0;
    const shading::Pixel p = shading::resolve(ctx, tri, px, py, invW);
    return fogFactor(ctx.world->fogs[size_t(t.fog)], ctx.materials->fogs[size_t(t.fog)].distance, ctx.eye, ctx.viewForward,
                     shading::positionOf(p));
}

void fogOverPixel(const ShadeContext& ctx, uint32_t tri, int px, int py, float invW, float* rgb) {
    const float a = fogAt(ctx, tri, px, py, invW);
    if (a <= 0) return;
    const Vec3 c = ctx.materials->fogs[size_t(ctx.triShade[tri].fog)].color;
    rgb[0] += (c.x - rgb[0]) * a, rgb[1] += (c.y - rgb[1]) * a, rgb[2] += (c.z - rgb[2]) * a;
}

void waterOverPixel(const TriShade& t, float invW, float behindInvW, float* rgb) {
    // View depths are 1 / (1/w); the distance seen through the water is the depth behind minus the water's.
    const float through = behindInvW > 0 ? 1.0f / behindInvW - 1.0f / invW : std::numeric_limits<float>::infinity();
    const float a = through >= t.waterRange ? 1.0f : std::max(0.0f, through / t.waterRange);
    const Vec3 c = t.waterColor;
    rgb[0] += (c.x - rgb[0]) * a, rgb[1] += (c.y - rgb[1]) * a, rgb[2] += (c.z - rgb[2]) * a;
}

}  // namespace luxel::render

namespace luxel::render::shading {

void fogRun(const ShadeContext& ctx, const TriShade& t, uint32_t tri, int px0, int py, const float* depth, int n,
            float* out) {
    const FogVolume& fog = ctx.world->fogs[size_t(t.fog)];
    const MaterialSet::Fog& look = ctx.materials->fogs[size_t(t.fog)];
    for (int k = 0; k < n; ++k) {
        const Pixel p = resolve(ctx, tri, px0 + k, py, depth[k]);
        const float a = fogFactor(fog, look.distance, ctx.eye, ctx.viewForward, positionOf(p));
        float* o = out + 3 * k;
        o[0] += (look.color.x - o[0]) * a, o[1] += (look.color.y - o[1]) * a, o[2] += (look.color.z - o[2]) * a;
    }
}

void distanceFogRun(const MaterialSet::DistanceFog& fog, const float* depth, int n, float* out) {
    // GL_EXP2 with QuakeSpasm's density / 64, of the eye-space depth (w: what llvmpipe's fog coordinate holds).
    const float density = fog.density / 64.0f;
    for (int k = 0; k < n; ++k) {
        const float d = density / depth[k];
        const float f = std::exp(-(d * d));
        float* o = out + 3 * k;
        o[0] += (fog.color.x - o[0]) * (1.0f - f), o[1] += (fog.color.y - o[1]) * (1.0f - f), o[2] += (fog.color.z - o[2]) * (1.0f - f);
    }
}

}  // namespace luxel::render::shading
