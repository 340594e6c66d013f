// Source VBSP 19-21: header and lump directory, then every part in dependency order (the parts live in
// vbsp_*.cpp beside this file).
//
// Display transform (World::look). The engine keeps lightmaps linear (ColorRGBExp32 -> c * 2^e / 255,
// ColorSpace::TexLightToLinear). For LDR output it converts each luxel to screen gamma with
// g_LinearToVertex = (linear)^(1 / 2.2) * 0.5 (mat_monitorgamma 2.2, overbright 2), clamps the result with
// ColorClamp (all three channels scaled together when one passes 1: hue kept) and the shaders multiply the
// lightmap by 2 (the overbright factor) and by the gamma-space texture. Net: a white texture shows
// linear^(1/2.2), with a hue-keeping clamp where linear^(1/2.2) reaches 2, i.e. linear 2^2.2 ~ 4.595; the
// framebuffer then clamps each channel at 1. That is EngineLook{hueClampAt = 2^2.2, gamma = 2.2} exactly
// (luxel's look multiplies linear light by linear albedo, clamps, then applies the gamma).
// HDR data is in the same linear units, so the same look applies to it.
//
// Unlit faces (no lighting lump, or lightofs -1: sky, tools, unlit materials, maps compiled without vrad)
// are drawn full bright by the engine; they get vertex colour 1.0 and no lightmap page.
#include <cmath>

#include "luxel/bsp/decode.hpp"
#include "luxel/bsp/entities.hpp"
#include "luxel/bsp/brush_entities.hpp"
#include "luxel/bsp/viewpoints.hpp"
#include "format.hpp"

namespace luxel {

namespace vbsp {

Context openSource(const MapSource& source, World& w, bool preferLdr) {
    w.format = MapFormat::Source;
    w.formatName = "Source VBSP";
    w.file = source.displayName;
    w.look.hueClampAt = std::pow(2.0f, 2.2f);
    w.look.gamma = 2.2f;
    w.fovReferenceAspect = 4.0f / 3.0f;
    w.eyeHeight = 64.0f;  // Source player eye height (VEC_VIEW, hl2/shareddefs)
    Context c(source);
    decodeHeader(c, w);
    const bool hdrLight = c.lump(kLightingHdr).size() > 0, ldrLight = c.lump(kLighting).size() > 0;
    useLightingSet(c, hdrLight && !(preferLdr && ldrLight));
    w.hdrLighting = c.useHdr;
    c.leafVersion = w.lumps[kLeafs].version;
    return c;
}

const std::vector<bsp::DecodeStage<Context>>& decodeStages() {
    static const std::vector<bsp::DecodeStage<Context>> stages = {
        {"entities", {kEntities}, [](Context& c, World& w) {
             bsp::readEntities(c.lump(kEntities), w);
             w.skyCamera = findSkyCamera(w);
         }},
        {"planes", {kPlanes}, [](Context& c, World& w) { c.numPlanes = bsp::readPlanes(c.lump(kPlanes), kPlaneBytes, w); }},
        {"materials", {kTexinfo, kTexdata, kTexdataStringData, kTexdataStringTable}, decodeMaterials},
        {"faces", {kFaces, kFacesHdr, kVertexes, kEdges, kSurfEdges, kDispInfo}, decodeFaces},
        {"displacements", {kDispInfo, kDispVerts, kDispTris}, decodeDisplacements},
        {"tree", {kNodes, kLeafs, kLeafFaces, kLeafBrushes, kBrushes, kBrushSides, kModels, kVisibility},
         [](Context& c, World& w) {
             decodeTree(c, w);
             placeBrushModels(w);
         }},
        {"overlays", {kOverlays, kWaterOverlays}, decodeOverlays},
        {"ambient", {kLeafAmbientIndex, kLeafAmbientIndexHdr, kLeafAmbientLighting, kLeafAmbientLightingHdr, kLeafs},
         decodeAmbient},
        {"game lumps", {kGameLump}, decodeGameLumps},
        {"world lights", {kWorldLights, kWorldLightsHdr}, decodeWorldLights},
        // Late: the pages are most of a World to copy, and no later stage reads them.
        {"lighting", {kLighting, kLightingHdr, kFaces, kFacesHdr}, decodeLighting},
        {"counts", {kOriginalFaces, kBrushes, kBrushSides, kLeafBrushes, kCubemaps, kOverlays, kWaterOverlays, kAreas,
                    kAreaPortals, kPakfile},
         [](Context& c, World& w) {
             countOtherLumps(c, w);
             const auto pakfile = c.lump(kPakfile).data();  // materials read it later; a plain copy, no parsing here
             w.embeddedArchive.assign(pakfile.begin(), pakfile.end());
         }},
    };
    return stages;
}

}  // namespace vbsp

World decodeSource(const MapSource& source) { return decodeSource(source, false); }

World decodeSource(const MapSource& source, bool preferLdr) {
    World w;
    vbsp::Context c = vbsp::openSource(source, w, preferLdr);
    for (const auto& stage : vbsp::decodeStages()) stage.run(c, w);
    return w;
}

}  // namespace luxel
