#pragma once
// Internal to the Quake 2 decoder: lump numbers, record sizes, surface flags and the per-part decode
// functions (q2/decode.cpp drives them in dependency order). Layouts: specs/q2-bsp-mcguire.txt, corrected
// where it is wrong (leaf cluster/area are int16 after an int32 contents; faces carry int16 side/texinfo).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "../decode_common.hpp"
#include "../edge_faces.hpp"
#include "../quake_brushes.hpp"
#include "luxel/bsp/q2_surface_flags.hpp"
#include "luxel/bsp/world.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/io/reader.hpp"

namespace luxel::q2 {

using bsp::checkIndex;
using bsp::checkRange;
using bsp::kMaxSharing;
using bsp::kMaxStyles;
using bsp::kNoStyle;

enum Lump : int {
    kEntities = 0, kPlanes, kVertexes, kVisibility, kNodes, kTexinfo, kFaces, kLighting, kLeafs, kLeafFaces,
    kLeafBrushes, kEdges, kSurfEdges, kModels, kBrushes, kBrushSides, kPop, kAreas, kAreaPortals, kLumpCount
};

// The names id's qfiles.h gives the lumps.
inline constexpr std::array<const char*, kLumpCount> kLumpNames = {
    "entities", "planes",  "vertexes",    "visibility", "nodes",   "texinfo",    "faces",
    "lighting", "leafs",   "leaffaces",   "leafbrushes", "edges",  "surfedges",  "models",
    "brushes",  "brushsides", "pop",      "areas",      "areaportals"};

inline constexpr size_t kPlaneBytes = 20, kNodeBytes = 28, kTexinfoBytes = 76, kFaceBytes = 20, kLeafBytes = 28,
                        kLeafFaceBytes = 2, kLeafBrushBytes = 2, kBrushBytes = 12, kBrushSideBytes = 4,
                        kAreaBytes = 8, kAreaPortalBytes = 8;

inline constexpr uint32_t kContentsSolid = 0x1;  // brush / leaf contents (q_shared.h)
inline constexpr uint32_t kContentsLava = 0x8, kContentsSlime = 0x10, kContentsWater = 0x20;

using namespace q2flags;  // texinfo surface flags

// A lit face wider or taller than this many luxels is malformed (the GL renderer's whole lightmap page is
// 128 luxels; compilers split faces long before).
inline constexpr int32_t kMaxLuxelSide = 512;

// Lump windows of one file, the record counts later parts validate against, and decoder-side facts the
// neutral World has no field for.
struct Context {
    explicit Context(const MapSource& s) : source(&s) {}
    const MapSource* source;  // a pointer, so that a Context can be assigned (the lump fuzz targets do)
    std::vector<ByteReader> lumps;  // kLumpCount windows
    size_t numPlanes = 0, numVertices = 0, numNodes = 0, numTexinfo = 0, numFaces = 0, numLeaves = 0,
           numLeafFaces = 0, numLeafBrushes = 0, numEdges = 0, numSurfEdges = 0, numModels = 0, numBrushes = 0,
           numBrushSides = 0, numAreas = 0, numAreaPortals = 0;
    // Texinfo i's next animation frame (-1: not animated). Materials are one per texinfo in texinfo order,
    // so these are material indices too; kept for the materials stage (World::Material has no field yet).
    std::vector<int32_t> texinfoNext;
    std::vector<std::array<float, 8>> texinfoVecs;  // s axis + offset, t axis + offset
    bsp::QuakeBrushes brushes;  // for decodeBlockers
    bool relayout = false;      // DecodeOptions::relayoutLightmaps
    ByteReader& lump(Lump l) { return lumps[size_t(l)]; }
};

// The World's format facts, the header and the lump directory: the state the stages start from.
Context openQuake2(const MapSource& source, World& w);
// Every part in dependency order (q2/decode.cpp); decodeQuake2 is openQuake2 and then these.
const std::vector<bsp::DecodeStage<Context>>& decodeStages();

void decodeMaterials(Context& c, World& w);   // texinfo
void decodeBrushes(Context& c, World& w);     // brushes, brush sides, areas, area portals: validated, counted
// Visibility, leaf faces, leaf brushes, leaves, nodes and models; needs faces, brushes and areas.
void decodeTree(Context& c, World& w);
void decodeFaces(Context& c, World& w);       // vertices, edges, surfedges, faces -> surfaces + lighting
void decodeBlockers(Context& c, World& w, const std::vector<bsp::Range>& leafBrushRanges,
                    const std::vector<uint32_t>& leafBrushes);  // World::brushes

}  // namespace luxel::q2

namespace luxel::q2 {

// One lit face's lightmap as the engine sizes it (CalcSurfaceExtents): `size` luxels a side starting at
// luxel `mins` (texture coordinate mins*16), one grid per style, `numStyles` grids from `lightOffset`.
struct FaceLightmap {
    uint32_t surface = 0;
    int32_t lightOffset = 0;
    int32_t numStyles = 0;
    std::array<int32_t, 2> mins{}, size{};
};

// Texture coordinates (s, t) of each World vertex in texels, in double (lightmap uvs are made from them).
using TexCoords = std::vector<std::array<double, 2>>;

// Validates the lit faces' blocks against the lighting lump, packs them into atlas pages (one page set per
// style slot) and sets each lit surface's page and vertex lightmap uvs.
void decodeLighting(Context& c, World& w, const std::vector<FaceLightmap>& lit, const TexCoords& st);

}  // namespace luxel::q2
