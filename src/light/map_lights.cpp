// mapLights: the per-format light decoders behind one call (see map_lights.hpp).
#include "luxel/light/map_lights.hpp"

#include <fmt/format.h>

#include "luxel/bsp/q2_surface_flags.hpp"
#include "luxel/light/light_arrival.hpp"
#include "luxel/light/q2_lights.hpp"
#include "luxel/light/q2_surface_lights.hpp"
#include "luxel/light/q3_lights.hpp"
#include "luxel/light/sky_dome.hpp"
#include "luxel/light/source_lights.hpp"
#include "luxel/material/q3_light_shaders.hpp"
#include "luxel/util/error.hpp"

namespace luxel {

namespace {

// The .map source of a Quake 3 map: the given file, else maps/NAME.map beside the bsp, else
// sources/maps/NAME.map or ../sources/maps/NAME.map relative to it (OpenArena's community packs ship them so).
std::string quake3MapText(const MapSource& source, const std::string& lightsFile, std::vector<std::string>& notes) {
    if (!lightsFile.empty()) {
        const Bytes b = readFile(lightsFile);
        return std::string(b.begin(), b.end());
    }
    if (source.openRelated) {
        for (const std::string& rel : {source.mapName + ".map", "../sources/maps/" + source.mapName + ".map",
                                       "sources/maps/" + source.mapName + ".map"})
            if (auto b = source.openRelated(rel)) {
                notes.push_back("light entities read from " + rel + " beside the map");
                return std::string(b->begin(), b->end());
            }
    }
    return {};
}

MapLights quake3(const World& world, const MapSource& source, const MapLightOptions& options) {
    MapLights out;
    const std::string text = quake3MapText(source, options.lightsFile, out.notes);
    std::vector<std::string> warnings;
    const std::vector<Q3LightShader> shaders = quake3LightShaders(world, source, options.materials, &warnings);
    Quake3LightSettings settings;
    settings.pointScale *= options.pointScale;
    settings.spotScale *= options.pointScale;
    settings.areaScale *= options.areaScale;
    settings.skyScale *= options.skyScale;
    Quake3LightSet set = quake3Lights(world, shaders, text, settings);
    const bool keepLights = !world.entities.empty() && world.entities[0].get("_keepLights") &&
                            *world.entities[0].get("_keepLights") != "0";
    if (text.empty() && !keepLights)
        out.notes.push_back("the map keeps no light entities and no .map source was found (--lights FILE.map): "
                            "only surface and sky lights are baked");
    for (std::string& n : set.notes) out.notes.push_back(std::move(n));
    for (std::string& w : warnings) out.notes.push_back(std::move(w));
    out.notes.push_back(fmt::format("{} point, {} spot, {} area (+{} backsplash), {} sun/sky lights", set.pointLights,
                                    set.spotLights, set.areaLights, set.backsplashLights, set.sunLights));
    out.lights = std::move(set.lights);
    out.rules.usePvs = true;  // q3map2's ClusterVisible
    out.rules.sampleOffset = 1.0f;   // DEFAULT_LIGHTMAP_SAMPLE_OFFSET
    out.rules.inhibitRadius = 1.5f;  // DEFAULT_INHIBIT_RADIUS
    out.rules.ambient = set.ambient;
    out.rules.minimum = set.minLight;
    // q3map2 -deluxe (IlluminateRawLightmap): each light adds its direction times the luminance of its
    // 0..255 colour / 255 (0.3 0.59 0.11), i.e. luxel light / 4, onto the luxel normal / 256: in luxel
    // units, times 4, the normal weighs 1 / 64. Stored in world space (-game quake3's deluxemode 0).
    out.rules.deluxeWeights = {0.3f, 0.59f, 0.11f};
    out.rules.deluxeNormal = 1.0f / 64;
    out.rules.arrival = [](const Light& l, Vec3 p, Vec3 n) {
        return dot(n, n) > 0 ? lightArrival(l, p, n) : lightArrivalAtPoint(l, p);
    };
    Quake3GridSettings grid;
    grid.ambient = set.ambient;
    grid.minGridLight = set.minGridLight;
    grid.maxLight = set.maxLight;
    out.rules.combine = [grid](const std::vector<LightArrival>& arrivals) {
        std::vector<GridArrival> g;
        g.reserve(arrivals.size());
        for (const LightArrival& a : arrivals) g.push_back({a.color, a.toLight, 0});
        return quake3GridCell(g, grid);
    };
    return out;
}

// Lights with every sky light as dome suns, and the notes every format gives about them.
MapLights withSkyDomes(const std::vector<Light>& lights, ArrivalFn arrival) {
    MapLights out;
    out.lights = expandSkyLights(lights);
    out.rules.arrival = std::move(arrival);
    out.notes.push_back(fmt::format("{} lights ({} after sky lights became dome suns)", lights.size(), out.lights.size()));
    return out;
}

// The note a format's reader ends with when, all its kinds of light read, it found none.
void noteIfNoLights(MapLights& out) {
    if (out.lights.empty()) out.notes.push_back("the map has no lights: nothing to bake");
}

// Source: the worldlights lump as vrad wrote it (sky ambient as dome suns). Its ambient cubes take only the
// lights vrad adds to them directly (direct_cubes.hpp says which); the rest of vrad's cube light is bounce.
MapLights sourceEngine(const World& world) {
    MapLights out = withSkyDomes(world.lights, sourceLightArrival);
    out.rules.cubeCombine = sourceAmbientCube;
    out.rules.cubesTakeFlaggedOnly = true;
    noteIfNoLights(out);
    return out;
}

// ericw-tools' ways around its lights (ltface.cc): samples 1 unit off the face, nudged out of solid or filled
// from their neighbours; liquids and windows lit from both sides and never dirtied; dirt; minlight (x 128)
// raised to after bounce, dimmed by dirt with minlight_dirt.
void ericwRules(const World& world, const MapLightOptions& options, MapLights& out) {
    const MaterialSet* materials = options.loaded;
    const EricwWorld settings = ericwWorld(world.entities);
    DirectBakeRules& r = out.rules;
    r.sampleOffset = 1;
    r.inhibitRadius = 0.01f;  // a sample on the edge of a face does not hit the face it touches at t = 0
    r.fillSolidSamples = true;
    r.tintedShadows = true;
    r.floorAfterBounce = true;
    // ericw-tools culls a light whose leaf's PVS row does not see the receiver (-visapprox vis, its default
    // with vis data); its bounce lights it culls by probe rays instead, but the PVS only drops luxels no
    // shadow ray could reach, so the light is the same and the rays far fewer.
    r.usePvs = true;
    constexpr uint32_t kWarp = 0x8, kTrans33 = 0x10, kTrans66 = 0x20;
    r.translucent.assign(world.surfaces.size(), false);
    for (size_t i = 0; i < world.surfaces.size(); ++i) {
        const int32_t m = world.surfaces[i].material;
        if (m >= 0 && size_t(m) < world.materials.size())
            r.translucent[i] = (world.materials[size_t(m)].nativeSurfaceFlags & (kWarp | kTrans33 | kTrans66)) != 0;
    }
    if (settings.minlight > 0) r.minimum = settings.minlightColor * (settings.minlight / 255.0f / 255.0f);
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
    FaceBounceModel bounce;
    bounce.bounces = settings.bounce.value_or(1);
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
        if ((f & (kSurfSky | kSurfNoDraw)) || ((f & kSurfLight) && mat.nativeValue > 0)) continue;
        const std::string& name = mat.name;
        if (name.size() >= 4 && name.compare(name.size() - 4, 4, "skip") == 0) continue;
        const Vec3 texture = (materials ? meanTextureColour(*materials, m) : std::nullopt).value_or(Vec3{});
        const float k = settings.bounceColorScale;
        bounce.albedo[i] = (Vec3{127, 127, 127} * (1 - k) + texture * k) / 255.0f;
        bounce.emits[i] = true;
    }
    out.faceBounce = std::move(bounce);

    Q2SurfaceLightOptions surface;
    if (options.emissiveHigh) surface.subdivide = settings.surflightSubdivision;
    std::vector<std::string> problems;
    std::vector<Light> emitters = quake2SurfaceLights(world, materials, settings, surface, r.surfaceMinimum, &problems);
    if (!emitters.empty())
        out.notes.push_back(fmt::format("{} surface light points from SURF_LIGHT faces (ericw-tools -emissivequality {})",
                                        emitters.size(), options.emissiveHigh ? "high" : "low"));
    for (std::string& p : problems) out.notes.push_back(std::move(p));
    for (Light& l : emitters) out.lights.push_back(std::move(l));
}

// Quake 2: the light entities as the chosen (or guessed) compiler reads them.
MapLights quake2(const World& world, const MapLightOptions& options) {
    std::string why;
    const Q2LightCompiler guess = quake2CompilerOf(world.entities, &why);
    const Q2LightCompiler compiler = options.quake2Compiler.value_or(guess);
    std::vector<std::string> problems;
    MapLights out = withSkyDomes(quake2Lights(world.entities, compiler, &problems), quake2LightArrival);
    out.quake2Compiler = compiler;
    const char* name = compiler == Q2LightCompiler::Qrad3 ? "qrad3" : "ericw-tools";
    out.notes.insert(out.notes.begin(), options.quake2Compiler
                                            ? fmt::format("light entities read as {} reads them (--compiler)", name)
                                            : fmt::format("light entities read as {} reads them ({})", name, why));
    for (std::string& p : problems) out.notes.push_back(std::move(p));
    if (compiler == Q2LightCompiler::Ericw) ericwRules(world, options, out);
    noteIfNoLights(out);
    return out;
}

}  // namespace

MapLights mapLights(const World& world, const MapSource& source, const MapLightOptions& options) {
    switch (world.format) {
        case MapFormat::Quake3: return quake3(world, source, options);
        case MapFormat::Source: return sourceEngine(world);
        case MapFormat::Quake2: return quake2(world, options);
        case MapFormat::Quake1:
        case MapFormat::HalfLife: break;
    }
    throw UsageError(world.file + ": luxel cannot read the lights of " + world.formatName + " maps yet");
}

}  // namespace luxel
