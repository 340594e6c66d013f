// prepareTriangle: how a raster triangle is shaded in the light-bearing modes, resolved once per frame (the
// mode's rules for unlit surfaces, the material's texture, blend and detail textures or stage program, fog,
// sky box, and the light's path: lightmap style slots, vertex colours, probes or a constant), so the pixel
// loops only evaluate planes and sample.
#include <array>
#include <vector>

#include "parts.hpp"

namespace luxel::render {

using namespace shading;

namespace {

inline Vec3 rgb(const Vec4& c) { return {c.x, c.y, c.z}; }

// How the triangle is shaded, before what follows from it (TriShade::packable).
TriShade prepareShading(const ShadeContext& ctx, const raster::ShadeTri& tri) {
    TriShade t;
    t.x0 = tri.x0;
    t.y0 = tri.y0;
    const SourceTri& s = ctx.sources[tri.source];
    const LookParams lp = lookParams(ctx);
    const World& world = *ctx.world;
    // Lightmap mode under r_lightmap's rules: surfaces without a lightmap stage are drawn as in lit mode; with
    // unlit black, they are black.
    const int32_t materialIndex = s.kind == SourceKind::Flare ? -1 : ctx.geometry->surfaces[s.surface].material;
    const SurfaceLook* ownLook = ctx.materials && materialIndex >= 0 && size_t(materialIndex) < ctx.materials->looks.size()
                                     ? &ctx.materials->looks[size_t(materialIndex)]
                                     : nullptr;
    const bool withoutLightmapStage = s.kind == SourceKind::Vertex || s.kind == SourceKind::Sky ||
                                      (ownLook && (ownLook->unlit || ownLook->noLightmapStage));
    if (ctx.mode == RenderMode::Lightmap && ctx.unlit == UnlitSurfaces::Black && withoutLightmapStage) {
        t.color = {0, 0, 0};
        return t;
    }
    if (ctx.mode == RenderMode::Lightmap && ctx.unlit == UnlitSurfaces::Engine && withoutLightmapStage &&
        world.look.lightmapModeUnlitWhite) {
        t.color = {1, 1, 1};
        return t;
    }
    // With a lightmap stage drawn on its own (not collapsed), the stages up to it are drawn as in lit mode.
    const bool engineLightmap = ctx.mode == RenderMode::Lightmap && ctx.unlit == UnlitSurfaces::Engine;
    const bool ownStagesToLightmap = engineLightmap && s.kind == SourceKind::Lightmap && ownLook && ownLook->lightmapModeProgram;
    const RenderMode mode =
        engineLightmap && ctx.materials && (withoutLightmapStage || ownStagesToLightmap) ? RenderMode::Lit : ctx.mode;
    const bool albedoMode = mode == RenderMode::Lit || mode == RenderMode::Albedo;
    const SurfaceLook* look = nullptr;
    if (albedoMode && (s.kind == SourceKind::Lightmap || s.kind == SourceKind::Vertex)) {
        const int32_t m = ctx.geometry->surfaces[s.surface].material;
        if (m >= 0 && size_t(m) < world.materials.size()) t.albedo = world.materials[size_t(m)].reflectivity;
        if (ctx.materials && m >= 0 && size_t(m) < ctx.materials->looks.size()) look = &ctx.materials->looks[size_t(m)];
    }
    if (look) {
        t.opacity = look->opacity;
        const int32_t ti = look->texture;
        if (ti >= 0 && size_t(ti) < ctx.materials->textures.size() && ctx.materials->textures[size_t(ti)] &&
            !ctx.materials->textures[size_t(ti)]->mips.empty()) {
            const DrawVertex* vb = vertexBase(ctx, s);
            const DrawVertex &a = vb[s.v[0]], &b = vb[s.v[1]], &c = vb[s.v[2]];
            const Vec2 sc = look->tcScale;
            t.texture = ctx.materials->textures[size_t(ti)].get();
            t.texPlane[0] = combine(tri, a.texUV.x * sc.x, b.texUV.x * sc.x, c.texUV.x * sc.x);
            t.texPlane[1] = combine(tri, a.texUV.y * sc.y, b.texUV.y * sc.y, c.texUV.y * sc.y);
            for (int d = 0; d < 2; ++d) {
                const int32_t di = look->detail[size_t(d)];
                if (di < 0 || size_t(di) >= ctx.materials->textures.size() || !ctx.materials->textures[size_t(di)] ||
                    ctx.materials->textures[size_t(di)]->mips.empty())
                    continue;
                const Vec2 ds = look->detailScale[size_t(d)];
                t.detail[t.details] = ctx.materials->textures[size_t(di)].get();
                t.detailPlane[t.details][0] = combine(tri, a.texUV.x * ds.x, b.texUV.x * ds.x, c.texUV.x * ds.x);
                t.detailPlane[t.details][1] = combine(tri, a.texUV.y * ds.y, b.texUV.y * ds.y, c.texUV.y * ds.y);
                ++t.details;
            }
            const int32_t t2 = look->texture2;
            if (t2 >= 0 && size_t(t2) < ctx.materials->textures.size() && ctx.materials->textures[size_t(t2)] &&
                !ctx.materials->textures[size_t(t2)]->mips.empty()) {
                t.texture2 = ctx.materials->textures[size_t(t2)].get();
                t.blendPlane = combine(tri, a.color.w, b.color.w, c.color.w);
                const Vec2 s2 = look->texture2TcScale.x != 0 ? look->texture2TcScale : sc;
                t.tex2Plane[0] = combine(tri, a.texUV.x * s2.x, b.texUV.x * s2.x, c.texUV.x * s2.x);
                t.tex2Plane[1] = combine(tri, a.texUV.y * s2.y, b.texUV.y * s2.y, c.texUV.y * s2.y);
                if (look->texture2IdentityLighting) t.texture2Scale = 1.0f / programLight(lp).ramp;
            }
            t.albedo = look->albedoScale;
        } else if (look->missing) {
            t.albedo = {0.5f, 0.5f, 0.5f};  // the neutral grey of a texture that was not found
            t.missingTexture = true;
        }
    }
    // Opaque programs in lit mode: every stage per pixel, instead of the one texture; base coordinates kept
    // unscaled in texPlane for the stages' footprints.
    const StageProgram* program = !look ? nullptr : ownStagesToLightmap ? look->lightmapModeProgram.get() : look->program.get();
    if (program && mode == RenderMode::Lit && (s.kind == SourceKind::Lightmap || s.kind == SourceKind::Vertex)) {
        const DrawVertex* vb = vertexBase(ctx, s);
        const DrawVertex &a = vb[s.v[0]], &b = vb[s.v[1]], &c = vb[s.v[2]];
        t.program = program;
        t.texture = nullptr;
        t.texture2 = nullptr;
        t.missingTexture = false;
        t.albedo = {1, 1, 1};
        t.texPlane[0] = combine(tri, a.texUV.x, b.texUV.x, c.texUV.x);
        t.texPlane[1] = combine(tri, a.texUV.y, b.texUV.y, c.texUV.y);
    }
    // x * 1 is x, so surfaces without a material skip the multiply and keep the same values.
    t.hasAlbedo = !(t.albedo == Vec3{1, 1, 1});
    // QuakeSpasm fogs its world in r_lightmap too (lqdm1's r_lightmap frame: 1.45/255 off without, 0.41/255 with).
    t.distanceFog = (mode == RenderMode::Lit || mode == RenderMode::Lightmap) && ctx.materials && ctx.materials->distanceFog &&
                    s.kind != SourceKind::Flare && s.kind != SourceKind::Sky && !(ownLook && ownLook->sky);
    if (mode == RenderMode::Lit && ctx.materials && s.kind != SourceKind::Flare && s.surface < world.surfaces.size()) {
        const int32_t f = world.surfaces[s.surface].fog;
        if (f >= 0 && size_t(f) < world.fogs.size() && size_t(f) < ctx.materials->fogs.size() &&
            ctx.materials->fogs[size_t(f)].present)
            t.fog = f;
    }
    if (look && look->water && albedoMode && s.kind != SourceKind::Sky) {
        t.water = true;
        t.waterColor = lookOf({1, 1, 1}, look->water->fogColor, lp);
        t.waterRange = look->water->fogRange;
        return t;
    }
    if (look && look->fogVolume && s.kind != SourceKind::Sky) {
        t.fogSurface = true;
        return t;
    }
    // Each sky surface shows its own material's sky (Quake 3: a sky pass per sky shader). A surface the map
    // flags as sky whose material names none (a Quake 3 shader that is no longer a sky shader in the game's
    // scripts) shows the first sky the materials have.
    int32_t sky = ownLook ? ownLook->skyBox : -1;
    if (sky < 0 && ctx.materials)
        for (size_t k = 0; k < ctx.materials->skies.size() && sky < 0; ++k)
            if (ctx.materials->skies[k].present()) sky = int32_t(k);
    const bool skyShown = ctx.materials && sky >= 0 && size_t(sky) < ctx.materials->skies.size() &&
                          ctx.materials->skies[size_t(sky)].present();
    if (s.kind == SourceKind::Sky && albedoMode && ctx.materials && (skyShown || ctx.skyView) && !ctx.skyColorOverride) {
        t.skyBox = true;
        t.sky = skyShown ? sky : -1;
        return t;
    }
    // Albedo mode, and unlit materials in lit mode: light 1 (an unlit Quake 3 rgbGen vertex stage is lit by
    // its vertex colours instead).
    if (mode == RenderMode::Albedo ||
        (look && !t.program && look->unlit && !(look->vertexColor && s.kind == SourceKind::Vertex))) {
        t.constantLight = {1, 1, 1};
        if (!t.texture) t.color = lookOf(t.constantLight, t.albedo, lp);
        if (s.kind == SourceKind::Lightmap || s.kind == SourceKind::Vertex) return t;
    }
    if (s.kind == SourceKind::Sky || s.kind == SourceKind::Flare) {
        t.color = lookOf(s.kind == SourceKind::Sky ? ctx.skyColor : rgb(ctx.flareVertices[s.v[0]].color), t.albedo, lp);
        return t;
    }
    if (ctx.mode == RenderMode::Grid) {
        t.path = ctx.probes ? ShadePath::Probe : ShadePath::Constant;
        t.color = lookOf({0, 0, 0}, t.albedo, lp);
        return t;
    }
    const DrawVertex* vb = vertexBase(ctx, s);
    const DrawVertex &v0 = vb[s.v[0]], &v1 = vb[s.v[1]], &v2 = vb[s.v[2]];
    // A Quake 3 shader lit by its vertex colours alone ignores the lightmap q3map2 stored for the surface.
    const bool vertexLit = albedoMode && look && look->vertexLight;
    if (mode != RenderMode::Vertex && s.kind == SourceKind::Lightmap && !vertexLit) {
        const int32_t pageIndex = ctx.geometry->surfaces[s.surface].lightmapPage;
        const LightmapPage& page0 = world.lightmaps[size_t(pageIndex)];
        const std::array<uint8_t, 4> styles = s.surface < world.surfaces.size()
                                                  ? world.surfaces[s.surface].styles
                                                  : std::array<uint8_t, 4>{0, 255, 255, 255};
        // Light = sum over the surface's style slots of weight(style) * sample(slot page). A slot with
        // weight 0 adds nothing (and is skipped); a slot whose page is missing or shaped unlike slot 0's
        // is left out.
        int n = 0;
        for (int k = 0; k < kMaxLightmapSlots; ++k) {
            const uint8_t style = styles[size_t(k)];
            if (style == 255) continue;
            const float weight = ctx.styleWeights ? (*ctx.styleWeights)[style] : (style == 0 ? 1.0f : 0.0f);
            if (weight == 0.0f) continue;
            const LightmapPage* page = &page0;
            if (k > 0) {
                const std::vector<LightmapPage>& slot = world.extraLightmapSlots[size_t(k - 1)];
                page = size_t(pageIndex) < slot.size() ? &slot[size_t(pageIndex)] : nullptr;
                if (!page || page->width != page0.width || page->height != page0.height ||
                    page->rgb.size() != page0.rgb.size())
                    continue;
            }
            t.page[n] = page->rgb.data();
            t.weight[n] = weight;
            ++n;
        }
        if (n == 0) {
            t.color = lookOf({0, 0, 0}, t.albedo, lp);
            return t;
        }
        t.path = ShadePath::Lightmap;
        t.slots = uint8_t(n);
        t.unitWeight = n == 1 && t.weight[0] == 1.0f;
        t.pageWidth = page0.width;
        t.pageHeight = page0.height;
        t.plane[0] = combine(tri, v0.lightmapUV.x, v1.lightmapUV.x, v2.lightmapUV.x);
        t.plane[1] = combine(tri, v0.lightmapUV.y, v1.lightmapUV.y, v2.lightmapUV.y);
        // Texel indices are 32-bit in the vector loop; a page that large (2^31 floats) takes the scalar one.
        t.narrowIndices = size_t(page0.width) * size_t(page0.height) * 3 < (size_t(1) << 31);
    } else {
        t.path = ShadePath::Vertex;
        t.plane[0] = combine(tri, v0.color.x, v1.color.x, v2.color.x);
        t.plane[1] = combine(tri, v0.color.y, v1.color.y, v2.color.y);
        t.plane[2] = combine(tri, v0.color.z, v1.color.z, v2.color.z);
    }
    return t;
}

}  // namespace

TriShade prepareTriangle(const ShadeContext& ctx, const raster::ShadeTri& tri) {
    TriShade t = prepareShading(ctx, tri);
    t.packable = t.texture && t.path != ShadePath::Probe && !t.skyBox && !t.program && t.fog < 0 && texturedVectorFits(t);
    return t;
}

}  // namespace luxel::render
