#pragma once
// Internal to the Quake 3 decoder: lump numbers, record sizes and the per-part decode functions
// (q3/decode.cpp drives them in dependency order).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../decode_common.hpp"
#include "luxel/bsp/world.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/io/reader.hpp"

namespace luxel::q3 {

using bsp::checkIndex;
using bsp::checkRange;
using bsp::readVec3;

enum Lump : int {
    kEntities = 0, kTextures, kPlanes, kNodes, kLeafs, kLeafFaces, kLeafBrushes, kModels, kBrushes,
    kBrushSides, kVertexes, kMeshVerts, kEffects, kFaces, kLightmaps, kLightVols, kVisData, kLumpCount
};

inline constexpr std::array<const char*, kLumpCount> kLumpNames = {
    "entities", "textures", "planes",    "nodes",   "leafs",  "leaffaces", "leafbrushes", "models",   "brushes",
    "brushsides", "vertexes", "meshverts", "effects", "faces", "lightmaps", "lightvols",  "visdata"};

inline constexpr size_t kTextureBytes = 72, kPlaneBytes = 16, kNodeBytes = 36, kLeafBytes = 48, kIndexBytes = 4,
                        kModelBytes = 40, kBrushBytes = 12, kBrushSideBytes = 8, kVertexBytes = 44,
                        kEffectBytes = 72, kFaceBytes = 104, kLightmapSide = 128,
                        kLightmapBytes = kLightmapSide * kLightmapSide * 3, kGridPointBytes = 8;

// ioquake3's MAX_PATCH_SIZE: the engine refuses larger control grids, so a real map never has them.
inline constexpr int32_t kMaxPatchSide = 32;
// External lightmap names have 4 digits (lm_NNNN.tga).
inline constexpr int32_t kMaxExternalLightmaps = 10000;
// Indices the faces may list together, per vertex in the vertex lump. q3map2 shares identical meshvert lists
// between faces (33 faces a meshvert in OpenArena's oa_ctf2), so the meshvert lump does not bound them, but
// the vertices do: a closed triangle mesh has about 2 triangles (6 indices) a vertex, the shared maps hold
// at most 2.1, and a file whose faces list more would build an index array far larger than itself.
inline constexpr uint64_t kMaxIndicesPerVertex = 16;

// Overbright-resolved linear value of a stored byte (notes/decoding.md "Overbright").
inline float overbright(uint8_t b) { return float(4 * int(b)) / 255.0f; }

// Lump windows of one file plus the record counts later parts validate indices against.
struct Context {
    const MapSource* source;  // a pointer, so that a Context can be assigned (the lump fuzz targets do)
    std::vector<ByteReader> lumps;  // kLumpCount windows
    size_t numTextures = 0, numPlanes = 0, numNodes = 0, numLeaves = 0, numLeafFaces = 0, numLeafBrushes = 0,
           numModels = 0, numBrushes = 0, numBrushSides = 0, numVertices = 0, numMeshVerts = 0, numEffects = 0,
           numFaces = 0, numInternalLightmaps = 0;
    bool lightSamples = true;  // DecodeOptions::lightSamples
    ByteReader& lump(Lump l) { return lumps[size_t(l)]; }
    // Kept from the brush, leaf and model lumps for decodeBlockers.
    std::vector<int32_t> sidePlane = {}, sideShader = {}, brushShader = {};
    std::vector<bsp::Range> brushSides = {}, leafBrushRanges = {};
    std::vector<uint32_t> leafBrushes = {};
    std::vector<size_t> brushAt = {};  // each brush record's offset in its lump, for errors
    bsp::Range worldBrushes = {};      // model 0's brushes
};

// The World's format facts, the header and the lump directory: the state the stages start from.
Context openQuake3(const MapSource& source, World& w);
// Every part in dependency order (q3/decode.cpp); decodeQuake3 is openQuake3 and then these.
const std::vector<bsp::DecodeStage<Context>>& decodeStages();

void decodeMaterials(Context& c, World& w);
void decodeVisData(Context& c, World& w);
void decodeLeaves(Context& c, World& w);  // and leaf faces, leaf brushes
void decodeModels(Context& c, World& w);
void decodeBrushes(Context& c, World& w);  // brushes, brush sides, effects: validated and counted
void decodeVertices(Context& c, World& w);
void decodeSurfaces(Context& c, World& w);  // faces + meshverts into surfaces and indices
void decodeLightmaps(Context& c, World& w);  // internal pages or external lm_NNNN.tga files
void decodeLightGrid(Context& c, World& w);  // needs models and entities
void decodeBlockers(Context& c, World& w);   // World::brushes; needs brushes, leaves, models, materials

}  // namespace luxel::q3
