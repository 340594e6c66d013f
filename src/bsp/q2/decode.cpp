// Quake 2 IBSP v38: header and lump directory, then every part in dependency order
// (the parts live in q2_*.cpp beside this file).
#include "luxel/bsp/decode.hpp"
#include "luxel/bsp/brush_entities.hpp"
#include "luxel/light/q2_lights.hpp"
#include "format.hpp"

namespace luxel {
namespace q2 {

Context openQuake2(const MapSource& source, World& w) {
    w.format = MapFormat::Quake2;
    w.formatName = "Quake 2 IBSP";
    w.eyeHeight = 22.0f;  // Quake 2 player viewheight
    w.file = source.displayName;
    // Linear 1.0 = lightmap byte 255; the engine clamps lightmaps at that, keeping hue, and yquake2 shows
    // the frame through a 1.2 gamma ramp (see q2/lighting.cpp).
    w.look.hueClampAt = 1.0f;
    w.look.gamma = 1.2f;
    ByteReader file = bsp::readIbspHeader(source, 38, w);
    Context c(source);
    bsp::readLumpDirectory(file, kLumpNames, bsp::DirectoryCheck::AtLumpOffset, c.lumps, w);
    return c;
}

const std::vector<bsp::DecodeStage<Context>>& decodeStages() {
    static const std::vector<bsp::DecodeStage<Context>> stages = {
        {"entities", {kEntities}, [](Context& c, World& w) {
             bsp::readEntities(c.lump(kEntities), w);
             // The light entities as id's qrad3 reads them; a caller that knows the map was lit by ericw-tools
             // reads them again with Q2LightCompiler::Ericw (light/q2_lights.hpp).
             w.lights = quake2Lights(w.entities, Q2LightCompiler::Qrad3, &w.problems);
         }},
        {"planes", {kPlanes}, [](Context& c, World& w) { c.numPlanes = bsp::readPlanes(c.lump(kPlanes), kPlaneBytes, w); }},
        {"materials", {kTexinfo}, decodeMaterials},
        {"faces", {kVertexes, kEdges, kSurfEdges, kFaces, kLighting}, decodeFaces},
        {"brushes", {kBrushes, kBrushSides, kAreas, kAreaPortals}, decodeBrushes},
        {"tree", {kVisibility, kLeafFaces, kLeafBrushes, kLeafs, kNodes, kModels}, [](Context& c, World& w) {
             decodeTree(c, w);
             placeBrushModels(w);
         }},
        {"counts", {kPop}, [](Context& c, World& w) {
             w.otherCounts = {{"brushes", c.numBrushes},
                              {"brush sides", c.numBrushSides},
                              {"leaf brushes", c.numLeafBrushes},
                              {"edges", c.numEdges},
                              {"surfedges", c.numSurfEdges},
                              {"areas", c.numAreas},
                              {"area portals", c.numAreaPortals},
                              {"pop bytes", c.lump(kPop).size()}};
         }},
    };
    return stages;
}

}  // namespace q2

World decodeQuake2(const MapSource& source, bool relayoutLightmaps) {
    World w;
    q2::Context c = q2::openQuake2(source, w);
    c.relayout = relayoutLightmaps;
    for (const auto& stage : q2::decodeStages()) stage.run(c, w);
    return w;
}

}  // namespace luxel
