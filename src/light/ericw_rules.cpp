// ericw-tools' rules around its lights, for every format it lights.
#include "format_lights.hpp"

#include "ericw_surfaces.hpp"

#include <fmt/format.h>


#include "luxel/bsp/q2_surface_flags.hpp"
#include "luxel/light/q2_lights.hpp"
#include "luxel/light/q2_surface_lights.hpp"

namespace luxel {

// ericw-tools' ways around its lights (ltface.cc): samples 1 unit off the face, nudged out of solid or filled
// from their neighbours; liquids and windows lit from both sides and never dirtied; dirt; minlight (x 128)
// raised to after bounce, dimmed by dirt with minlight_dirt.
void ericwRules(const World& world, const MapSource& source, const MapLightOptions& options, MapLights& out) {
    const MaterialSet* materials = options.loaded;
    const EricwGame game = world.format == MapFormat::Quake2 ? EricwGame::Quake2
                           : world.format == MapFormat::HalfLife ? EricwGame::HalfLife
                                                                 : EricwGame::Quake1;
    const bool q2 = game == EricwGame::Quake2;
    const EricwWorld settings = ericwWorld(world.entities, game);
    // Which faces cast shadows (light.cc FindModelInfo, trace_embree.cc): the world's, a brush entity's only with
    // "_shadow" "1", none whose texinfo qbsp marked "no_shadow" in NAME.texinfo.json beside the map.
    // FixLightsOnFaces: light entities in solid (placed on a face) moved out of it, 2 units along an axis.
    std::vector<std::string> nudged;
    for (Light& l : out.lights) {
        if (!l.nudgeOutOfSolid) continue;
        const std::optional<Vec3> q = movedOutOfSolid(world, l.origin, 2.0f);
        if (!q || *q == l.origin) continue;
        l.origin = *q;
        nudged.push_back(fmt::format("{} to {} {} {}", l.source, q->x, q->y, q->z));
    }
    if (!nudged.empty())
        out.notes.push_back(fmt::format("{} light{} in solid moved 2 units out of it (ericw-tools' FixLightsOnFaces): {}{}", nudged.size(),
                                        nudged.size() == 1 ? "" : "s", nudged.front(), nudged.size() > 1 ? ", ..." : ""));
    EricwSurfaces surfaces = ericwSurfaces(world, source, out.notes);
    out.castsNoShadow = std::move(surfaces.castsNoShadow);
    DirectBakeRules& r = out.rules;
    // Faces with a minlight of their own (texinfo.json, a brush entity's _minlight): their floor, scaled as the
    // worldspawn's (Quake 2's 0..1 x 128).
    std::vector<Vec3> faceMinimum(world.surfaces.size());
    for (size_t i = 0; i < faceMinimum.size(); ++i)
        if (surfaces.minlight[i] > 0)
            faceMinimum[i] = surfaces.minlightColor[i] * (surfaces.minlight[i] * (q2 ? 128.0f : 1.0f) * settings.range / 255.0f / 255.0f);
    r.surfaceMinimum = faceMinimum;
    r.phongNormals = std::move(surfaces.phongNormals);
    r.phongSmoothed = std::move(surfaces.phongSmoothed);
    r.curved = std::move(surfaces.curved);
    r.sampleOffset = 1;
    r.inhibitRadius = 0.01f;  // a sample on the edge of a face does not hit the face it touches at t = 0
    r.fillSolidSamples = true;
    // CalcPointNormal: a texel within a luxel of the face samples the face's nearest boundary point.
    r.luxelReach = LuxelReach::EricwCalcPoints;
    r.tintedShadows = true;
    // Quake 1 and Half-Life bounce only when the map asks (_bounce); without bounce their floors are raised by
    // the direct bake. Quake 2's bounce step always runs (with _bounce 0 it only raises the floors).
    const int bounces = settings.bounce.value_or(q2 ? 1 : 0);
    r.floorAfterBounce = q2 || bounces > 0;
    // ericw-tools culls a light whose leaf's PVS row does not see the receiver (-visapprox vis, its default
    // with vis data); its bounce lights it culls by probe rays instead, but the PVS only drops luxels no
    // shadow ray could reach, so the light is the same and the rays far fewer.
    r.usePvs = true;
    r.facePvs = true;
    r.autoMinlightScale = settings.range;
    r.sunRay = ShadowRay::SunToSky;  // LightFace_Sky: lit only where the first hit is a sky face
    r.sunFaceCull = true;
    r.faceSphereCull = true;
    constexpr uint32_t kWarp = 0x8, kTrans33 = 0x10, kTrans66 = 0x20;
    r.translucent.assign(world.surfaces.size(), false);
    for (size_t i = 0; i < world.surfaces.size(); ++i) {
        const int32_t m = world.surfaces[i].material;
        if (m < 0 || size_t(m) >= world.materials.size()) continue;
        const Material& mat = world.materials[size_t(m)];
        // Quake 1 / Half-Life: liquids (lit only in -splitturb builds), *name and Half-Life's !name.
        r.translucent[i] = q2 ? (mat.nativeSurfaceFlags & (kWarp | kTrans33 | kTrans66)) != 0
                              : !mat.name.empty() && (mat.name[0] == '*' || (game == EricwGame::HalfLife && mat.name[0] == '!'));
    }
    // Minlight is added before the rangescale, which scales it too.
    if (settings.minlight > 0) r.minimum = settings.minlightColor * (settings.minlight * settings.range / 255.0f / 255.0f);
    if (settings.occlusionInUse) {
        r.occlusion.azimuths = 16;
        r.occlusion.elevations = 3;
        r.occlusion.depth = settings.dirtDepth;
        r.occlusion.angleDeg = settings.dirtAngle;
        if (settings.minlightDirt) r.occlusion.minimumScale = settings.dirtScale, r.occlusion.minimumGain = settings.dirtGain;
        out.notes.push_back(fmt::format("ericw-tools dirt: 48 rays of {} units a luxel, scale {}, gain {}", settings.dirtDepth,
                                        settings.dirtScale, settings.dirtGain));
    }
    // Face_ShouldBounce: world faces that are lightmapped, cast shadows (not sky, liquids, windows) and do not
    // emit light themselves, their texture not skip. Albedo: the texture's mean colour halfway to grey 127
    // (bouncecolorscale 0.5); a texture not found counts as black.
    if (bounces == 0 && !q2) return;
    FaceBounceModel bounce;
    bounce.bounces = bounces;
    bounce.scale = settings.bounceScale * 0.5f;
    if (settings.occlusionInUse) bounce.occlusionScale = settings.dirtScale, bounce.occlusionGain = settings.dirtGain;
    bounce.emits.assign(world.surfaces.size(), false);
    bounce.albedo.assign(world.surfaces.size(), Vec3{});
    const Model* worldModel = world.models.empty() ? nullptr : &world.models[0];
    using namespace q2flags;
    for (size_t i = 0; i < world.surfaces.size(); ++i) {
        const Surface& s = world.surfaces[i];
        const int32_t m = s.material;
        if (m < 0 || size_t(m) >= world.materials.size() || s.lightmapPage < 0 || r.translucent[i]) continue;
        if (worldModel && (i < worldModel->firstSurface || i >= size_t(worldModel->firstSurface) + worldModel->numSurfaces)) continue;
        const Material& mat = world.materials[size_t(m)];
        const uint32_t f = mat.nativeSurfaceFlags;
        if (q2 ? (f & (kSurfSky | kSurfNoDraw)) || ((f & kSurfLight) && mat.nativeValue > 0) : (mat.flags & kMaterialSky) != 0) continue;
        const std::string& name = mat.name;
        if (name.size() >= 4 && name.compare(name.size() - 4, 4, "skip") == 0) continue;
        const Vec3 texture = (materials ? meanTextureColour(*materials, m) : std::nullopt).value_or(Vec3{});
        const float k = settings.bounceColorScale;
        bounce.albedo[i] = (Vec3{127, 127, 127} * (1 - k) + texture * k) / 255.0f;
        bounce.emits[i] = true;
    }
    out.faceBounce = std::move(bounce);
    if (!q2) return;  // Quake 1's surface lights are _surface templates, not texture flags

    Q2SurfaceLightOptions surface;
    if (options.emissiveHigh) surface.subdivide = settings.surflightSubdivision;
    std::vector<std::string> problems;
    std::vector<Light> emitters = quake2SurfaceLights(world, materials, settings, surface, r.surfaceMinimum, &problems);
    for (size_t i = 0; i < faceMinimum.size() && i < r.surfaceMinimum.size(); ++i) r.surfaceMinimum[i] = vmax(r.surfaceMinimum[i], faceMinimum[i]);
    if (!emitters.empty())
        out.notes.push_back(fmt::format("{} surface light points from SURF_LIGHT faces (ericw-tools -emissivequality {})",
                                        emitters.size(), options.emissiveHigh ? "high" : "low"));
    for (std::string& p : problems) out.notes.push_back(std::move(p));
    for (Light& l : emitters) out.lights.push_back(std::move(l));
}

}  // namespace luxel
