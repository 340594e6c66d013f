#pragma once
// Internal to the Quake 2 decoder: lump numbers, record sizes, surface flags and the per-part decode
// functions (q2_decode.cpp drives them in dependency order). Layouts: specs/q2-bsp-mcguire.txt, corrected
// where it is wrong (leaf cluster/area are int16 after an int32 contents; faces carry int16 side/texinfo).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/io/reader.hpp"

namespace luxel::q2 {

enum Lump : int {
    kEntities = 0, kPlanes, kVertexes, kVisibility, kNodes, kTexinfo, kFaces, kLighting, kLeafs, kLeafFaces,
    kLeafBrushes, kEdges, kSurfEdges, kModels, kBrushes, kBrushSides, kPop, kAreas, kAreaPortals, kLumpCount
};

// The names id's qfiles.h gives the lumps.
inline constexpr std::array<const char*, kLumpCount> kLumpNames = {
    "entities", "planes",  "vertexes",    "visibility", "nodes",   "texinfo",    "faces",
    "lighting", "leafs",   "leaffaces",   "leafbrushes", "edges",  "surfedges",  "models",
    "brushes",  "brushsides", "pop",      "areas",      "areaportals"};

inline constexpr size_t kPlaneBytes = 20, kVertexBytes = 12, kNodeBytes = 28, kTexinfoBytes = 76, kFaceBytes = 20,
                        kLeafBytes = 28, kLeafFaceBytes = 2, kLeafBrushBytes = 2, kEdgeBytes = 4, kSurfEdgeBytes = 4,
                        kModelBytes = 48, kBrushBytes = 12, kBrushSideBytes = 4, kAreaBytes = 8,
                        kAreaPortalBytes = 8;

// Texinfo surface flags (q_shared.h).
inline constexpr uint32_t kSurfLight = 0x1, kSurfSky = 0x4, kSurfWarp = 0x8, kSurfTrans33 = 0x10,
                          kSurfTrans66 = 0x20, kSurfNoDraw = 0x80, kSurfHint = 0x100, kSurfSkip = 0x200;

inline constexpr int kMaxStyles = 4;
inline constexpr uint8_t kNoStyle = 255;
// The engine's PVS limit (MAX_MAP_LEAFS, every cluster has a leaf).
inline constexpr int64_t kMaxClusters = 65536;
// Uncompressed PVS larger than this is refused rather than allocated.
inline constexpr uint64_t kMaxPvsBytes = uint64_t(64) << 20;
// A lit face wider or taller than this many luxels is malformed (the GL renderer's whole lightmap page is
// 128 luxels; compilers split faces long before).
inline constexpr int32_t kMaxLuxelSide = 512;
// Faces may share surfedges or lighting bytes only so much: together they may use at most this many
// times the lump, which bounds what a hostile file can make us allocate.
inline constexpr uint64_t kMaxSharing = 4;

// Lump windows of one file, the record counts later parts validate against, and decoder-side facts the
// neutral World has no field for.
struct Context {
    explicit Context(const MapSource& s) : source(s) {}
    const MapSource& source;
    std::vector<ByteReader> lumps;  // kLumpCount windows
    size_t numPlanes = 0, numVertices = 0, numNodes = 0, numTexinfo = 0, numFaces = 0, numLeaves = 0,
           numLeafFaces = 0, numLeafBrushes = 0, numEdges = 0, numSurfEdges = 0, numModels = 0, numBrushes = 0,
           numBrushSides = 0, numAreas = 0, numAreaPortals = 0;
    // Texinfo i's next animation frame (-1: not animated). Materials are one per texinfo in texinfo order,
    // so these are material indices too; kept for the materials stage (World::Material has no field yet).
    std::vector<int32_t> texinfoNext;
    std::vector<std::array<float, 8>> texinfoVecs;  // s axis + offset, t axis + offset
    ByteReader& lump(Lump l) { return lumps[size_t(l)]; }
};

// Throws unless 0 <= first, 0 <= count and first + count <= total (in 64-bit, no overflow).
inline void checkRange(const ByteReader& r, size_t fieldAt, int64_t first, int64_t count, size_t total,
                       const char* what) {
    if (first < 0 || count < 0 || uint64_t(first + count) > total)
        r.fail(fieldAt, std::string(what) + " range [" + std::to_string(first) + ", +" + std::to_string(count) +
                            ") outside 0.." + std::to_string(total));
}
// Throws unless 0 <= index < total (or index == -1 when allowNone).
inline void checkIndex(const ByteReader& r, size_t fieldAt, int64_t index, size_t total, const char* what,
                       bool allowNone = false) {
    if (allowNone && index == -1) return;
    if (index < 0 || uint64_t(index) >= total)
        r.fail(fieldAt, std::string(what) + " index " + std::to_string(index) + " outside 0.." +
                            std::to_string(total == 0 ? 0 : total - 1) + (total == 0 ? " (none exist)" : ""));
}

inline Vec3 readVec3(ByteReader& r) {
    Vec3 v;
    v.x = r.f32();
    v.y = r.f32();
    v.z = r.f32();
    return v;
}
inline Vec3 readShortVec3(ByteReader& r) {
    Vec3 v;
    v.x = float(r.i16());
    v.y = float(r.i16());
    v.z = float(r.i16());
    return v;
}

void decodeMaterials(Context& c, World& w);   // texinfo
void decodePlanes(Context& c, World& w);
void decodeVisibility(Context& c, World& w);  // needs the leaf count
void decodeBrushes(Context& c, World& w);     // brushes, brush sides, areas, area portals: validated, counted
void decodeLeaves(Context& c, World& w);      // and leaf faces, leaf brushes; needs faces, brushes, areas
void decodeNodes(Context& c, World& w);
void decodeModels(Context& c, World& w);
void decodeFaces(Context& c, World& w);       // vertices, edges, surfedges, faces -> surfaces + lighting

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

// Lightmap extents {mins s, mins t, size s, size t} (luxels) of a face from its vertices' texture
// coordinates, exactly as the engine computes them; false when they are not finite or absurdly large.
bool lightmapExtents(const std::array<double, 2>* st, size_t count, std::array<int32_t, 4>& out);

// Validates the lit faces' blocks against the lighting lump, packs them into atlas pages (one page set per
// style slot) and sets each lit surface's page and vertex lightmap uvs.
void decodeLighting(Context& c, World& w, const std::vector<FaceLightmap>& lit, const TexCoords& st);

}  // namespace luxel::q2
