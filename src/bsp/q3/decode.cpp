// Quake 3 IBSP v46: header and lump directory, then every part in dependency order
// (the parts live in q3_*.cpp beside this file).
#include "luxel/bsp/decode.hpp"
#include "luxel/bsp/brush_entities.hpp"
#include "format.hpp"
#include "../tree_records.hpp"

namespace luxel {
namespace q3 {

Context openQuake3(const MapSource& source, World& w) {
    w.format = MapFormat::Quake3;
    w.formatName = "Quake 3 IBSP";
    w.file = source.displayName;
    // Stored light is a quarter of what the engine shows, and the game shows up to 2x through hardware gamma.
    w.look.hueClampAt = 2.0f;
    w.look.windowedHueClampAt = 1.0f;
    ByteReader file = bsp::readIbspHeader(source, 46, w);
    Context c{&source, {}};
    bsp::readLumpDirectory(file, kLumpNames, bsp::DirectoryCheck::AtEntry, c.lumps, w);
    return c;
}

const std::vector<bsp::DecodeStage<Context>>& decodeStages() {
    static const std::vector<bsp::DecodeStage<Context>> stages = {
        // Entities first: the light grid needs worldspawn's gridsize.
        {"entities", {kEntities}, [](Context& c, World& w) { bsp::readEntities(c.lump(kEntities), w); }},
        {"materials", {kTextures}, decodeMaterials},
        {"planes", {kPlanes}, [](Context& c, World& w) { c.numPlanes = bsp::readPlanes(c.lump(kPlanes), kPlaneBytes, w); }},
        {"visdata", {kVisData}, decodeVisData},
        {"brushes", {kBrushes, kBrushSides, kEffects}, decodeBrushes},
        {"vertices", {kVertexes, kMeshVerts}, decodeVertices},
        {"surfaces", {kFaces, kMeshVerts, kLightmaps}, [](Context& c, World& w) {
             c.numInternalLightmaps = c.lump(kLightmaps).recordCount(kLightmapBytes);
             decodeSurfaces(c, w);
         }},
        {"leaves", {kLeafs, kLeafFaces, kLeafBrushes}, decodeLeaves},
        {"nodes", {kNodes}, [](Context& c, World& w) {
             c.numNodes = bsp::readIntNodes(c.lump(kNodes), c.numPlanes, c.numLeaves, w);
         }},
        {"models", {kModels}, [](Context& c, World& w) {
             decodeModels(c, w);
             placeBrushModels(w);
         }},
        {"blockers", {kBrushes}, decodeBlockers},
        {"light grid", {kLightVols}, decodeLightGrid},
        {"lightmaps", {kLightmaps}, decodeLightmaps},  // last: the pages are most of a World to copy
        {"counts", {}, [](Context& c, World& w) {
             w.otherCounts = {{"brushes", c.numBrushes},
                              {"brush sides", c.numBrushSides},
                              {"leaf brushes", c.numLeafBrushes},
                              {"effects", c.numEffects}};
         }},
    };
    return stages;
}

}  // namespace q3

World decodeQuake3(const MapSource& source, bool lightSamples) {
    World w;
    q3::Context c = q3::openQuake3(source, w);
    c.lightSamples = lightSamples;
    for (const auto& stage : q3::decodeStages()) stage.run(c, w);
    return w;
}

}  // namespace luxel
