#pragma once
// Internal to the Quake 1 decoder (BSP29, BSP2, 2PSB and Half-Life's BSP30): lump numbers, the record layout of
// each variant, the BSPX lump directory and the per-part decode functions (q1/decode.cpp drives them in order).
// Layouts: ericw-tools' include/common/bspfile_q1.hh and QuakeSpasm's bspfile.h; docs/quake1-bsp.md has the
// notes.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "../decode_common.hpp"
#include "../edge_faces.hpp"
#include "luxel/bsp/world.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/io/reader.hpp"

namespace luxel::q1 {

using bsp::checkIndex;
using bsp::checkRange;
using bsp::kMaxSharing;
using bsp::kMaxStyles;
using bsp::kNoStyle;

enum Lump : int {
    kEntities = 0, kPlanes, kTextures, kVertexes, kVisibility, kNodes, kTexinfo, kFaces, kLighting, kClipnodes,
    kLeafs, kMarkSurfaces, kEdges, kSurfEdges, kModels, kLumpCount
};

// The names id's bspfile.h gives the lumps.
inline constexpr std::array<const char*, kLumpCount> kLumpNames = {
    "entities", "planes", "textures", "vertexes", "visibility", "nodes",     "texinfo", "faces",
    "lighting", "clipnodes", "leafs", "marksurfaces", "edges", "surfedges", "models"};

// BSP29 (id), 2PSB (RMQ's first BSP2: 32-bit counts, int16 bounds), BSP2 (32-bit counts, float bounds) and
// Half-Life's BSP30 (BSP29's records, RGB lighting, textures with their own palettes or in WAD files).
enum class Variant { Bsp29, Bsp2Rmq, Bsp2, HalfLife };

struct Layout {
    size_t nodeBytes, leafBytes, faceBytes, edgeIndexBytes, markSurfaceBytes, clipnodeBytes;
    bool wide;         // 32-bit counts and children
    bool floatBounds;  // node and leaf bounds as floats
};
Layout layoutOf(Variant v);

inline constexpr size_t kPlaneBytes = 20, kTexinfoBytes = 40, kModelBytes = 64;

// Texinfo flags (bspfile.h): TEX_SPECIAL marks sky and liquids, which have no lightmap.
inline constexpr uint32_t kTexSpecial = 1;

// Leaf contents (bspfile.h).
inline constexpr int32_t kContentsWater = -3, kContentsSlime = -4, kContentsLava = -5;
inline constexpr int32_t kContentsSolid = -2, kContentsSky = -6;

// A lit face wider or taller than this many luxels is malformed (engines refuse faces past 18 luxels at the
// standard scale; decoupled lightmaps and LMSHIFT stay far below this).
inline constexpr int32_t kMaxLuxelSide = 1024;

// Lump windows of one file, the BSPX lumps after them, the record counts later parts validate against, and
// decoder-side facts the neutral World has no field for.
struct Context {
    explicit Context(const MapSource& s) : source(&s) {}
    const MapSource* source;
    Variant variant = Variant::Bsp29;
    Layout layout = layoutOf(Variant::Bsp29);
    std::vector<ByteReader> lumps;  // kLumpCount windows
    std::vector<std::pair<std::string, ByteReader>> bspx;  // BSPX directory, in file order
    size_t numPlanes = 0, numVertices = 0, numNodes = 0, numTexinfo = 0, numFaces = 0, numLeaves = 0,
           numMarkSurfaces = 0, numEdges = 0, numSurfEdges = 0, numModels = 0, numClipnodes = 0, numMiptex = 0;
    std::vector<std::array<float, 8>> texinfoVecs;  // s axis + offset, t axis + offset
    std::vector<int32_t> texinfoMiptex;             // the miptex each texinfo names (-1: none)
    std::vector<uint32_t> texinfoFlags;
    bool relayout = false;  // DecodeOptions::relayoutLightmaps
    std::optional<int> relayoutShift;  // DecodeOptions::relayoutLuxelShift (with relayout)
    std::optional<float> relayoutUnitsPerLuxel;  // DecodeOptions::relayoutWorldUnitsPerLuxel (with relayout)
    std::map<uint32_t, float> relayoutTexinfoUnits;  // DecodeOptions::relayoutTexinfoUnitsPerLuxel (with it)
    ByteReader& lump(Lump l) { return lumps[size_t(l)]; }
    const ByteReader* bspxLump(const std::string& name) const {
        for (const auto& [n, r] : bspx)
            if (n == name) return &r;
        return nullptr;
    }
};

// The World's format facts, the header, the lump directory and the BSPX directory.
Context openQuake1(const MapSource& source, World& w);
// Every part in dependency order (q1/decode.cpp); decodeQuake1 is openQuake1 and then these.
const std::vector<bsp::DecodeStage<Context>>& decodeStages();

// The BSPX lump directory after the standard lumps (ericw-tools, FTE): "BSPX", a count, then 32-byte entries
// {name[24], offset, length} into the file. Absent when the bytes after the last lump do not start with it.
void readBspxDirectory(const ByteReader& file, Context& c, World& w);

void decodeMaterials(Context& c, World& w);  // miptex names, texinfo
void decodeFaces(Context& c, World& w);      // vertices, edges, surfedges, faces -> surfaces + lighting
void decodeTree(Context& c, World& w);       // visibility, marksurfaces, leaves, nodes, clipnodes, models
// Half-Life: each brush entity with a "rendermode" gives its surfaces materials of their own (render_modes.cpp).
void applyRenderModes(World& w, bool halfLife);

// One lit face's lightmap block: `size` luxels a side, `numStyles` blocks from `lightOffset` (in luxels of
// the grey lump: RGB sources hold 3 bytes per luxel at 3 x that offset); `luxelUV` maps a vertex to luxel
// coordinates (luxel centres at integers).
struct FaceLightmap {
    uint32_t surface = 0;
    int64_t lightOffset = 0;
    int32_t numStyles = 0;
    std::array<int32_t, 2> size{};
    // Luxel coordinates of a vertex: (u, v) = (dot(p, axis[0]) + offset[0], dot(p, axis[1]) + offset[1]) in
    // double (texture-space maps: the texinfo's vectors over the luxel size, less the extents' mins).
    std::array<std::array<double, 4>, 2> toLuxel{};
    bool dark = false;  // no light of its own in a lit map: one black luxel of style 0, read from nowhere
};

// Chooses the light the engines would show (BSPX RGBLIGHTING, then a .lit beside the map, then the grey
// lump; Half-Life's lump is RGB), validates every block against it, packs them into atlas pages and sets each
// lit surface's page and lightmap uvs.
void decodeLighting(Context& c, World& w, const std::vector<FaceLightmap>& lit);

}  // namespace luxel::q1
