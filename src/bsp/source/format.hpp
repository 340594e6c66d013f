#pragma once
// Internal to the Source (VBSP 19-21) decoder: lump numbers and names, record sizes, surface flags, the
// decode context and the per-part decode functions (source/decode.cpp drives them in dependency order).
// Layouts: specs/source-bsp-vdc-wiki.txt (Valve's public/bspfile.h), notes/decoding.md "Source".
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "../decode_common.hpp"
#include "../edge_faces.hpp"
#include "luxel/bsp/world.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/io/reader.hpp"

namespace luxel::vbsp {

using bsp::checkIndex;
using bsp::checkRange;
using bsp::kMaxSharing;
using bsp::kMaxStyles;
using bsp::kNoStyle;
using bsp::readVec3;

inline constexpr int kLumpCount = 64;
inline constexpr size_t kHeaderBytes = 8 + 16 * kLumpCount + 4;  // ident, version, directory, revision

enum Lump : int {
    kEntities = 0, kPlanes = 1, kTexdata = 2, kVertexes = 3, kVisibility = 4, kNodes = 5, kTexinfo = 6,
    kFaces = 7, kLighting = 8, kOcclusion = 9, kLeafs = 10, kEdges = 12, kSurfEdges = 13, kModels = 14,
    kWorldLights = 15, kLeafFaces = 16, kLeafBrushes = 17, kBrushes = 18, kBrushSides = 19, kAreas = 20,
    kAreaPortals = 21, kDispInfo = 26, kOriginalFaces = 27, kDispVerts = 33, kGameLump = 35, kPakfile = 40,
    kCubemaps = 42, kTexdataStringData = 43, kTexdataStringTable = 44, kOverlays = 45, kDispTris = 48, kWaterOverlays = 50,
    kLeafAmbientIndexHdr = 51, kLeafAmbientIndex = 52, kLightingHdr = 53, kWorldLightsHdr = 54,
    kLeafAmbientLightingHdr = 55, kLeafAmbientLighting = 56, kFacesHdr = 58,
};

// bspfile.h's LUMP_* names, lower case (22-25 are the Left 4 Dead 2+ prop collision lumps, unused before).
inline constexpr std::array<const char*, kLumpCount> kLumpNames = {
    "entities", "planes", "texdata", "vertexes", "visibility", "nodes", "texinfo", "faces", "lighting",
    "occlusion", "leafs", "faceids", "edges", "surfedges", "models", "worldlights", "leaffaces", "leafbrushes",
    "brushes", "brushsides", "areas", "areaportals", "propcollision", "prophulls", "prophullverts", "proptris",
    "dispinfo", "originalfaces", "physdisp", "physcollide", "vertnormals", "vertnormalindices",
    "disp_lightmap_alphas", "disp_verts", "disp_lightmap_sample_positions", "game_lump", "leafwaterdata",
    "primitives", "primverts", "primindices", "pakfile", "clipportalverts", "cubemaps", "texdata_string_data",
    "texdata_string_table", "overlays", "leafmindisttowater", "face_macro_texture_info", "disp_tris",
    "physcollidesurface", "wateroverlays", "leaf_ambient_index_hdr", "leaf_ambient_index", "lighting_hdr",
    "worldlights_hdr", "leaf_ambient_lighting_hdr", "leaf_ambient_lighting", "xzippakfile", "faces_hdr",
    "map_flags", "overlay_fades", "overlay_system_levels", "physlevel", "disp_multiblend"};

inline constexpr size_t kPlaneBytes = 20, kTexdataBytes = 32, kNodeBytes = 32, kTexinfoBytes = 72, kFaceBytes = 56,
                        kLeafBytesV0 = 56, kLeafBytesV1 = 32, kLeafFaceBytes = 2, kLeafBrushBytes = 2,
                        kBrushBytes = 12, kBrushSideBytes = 8, kDispInfoBytes = 176, kDispVertBytes = 20,
                        kDispTriBytes = 2, kStringTableBytes = 4, kAmbientIndexBytes = 4, kAmbientSampleBytes = 28,
                        kCubemapBytes = 16, kOverlayBytes = 352, kWaterOverlayBytes = 1120, kAreaBytes = 8, kAreaPortalBytes = 12,
                        kColorBytes = 4;

// Brush contents that block light: MASK_OPAQUE (bspflags.h: CONTENTS_SOLID | CONTENTS_MOVEABLE | CONTENTS_OPAQUE).
inline constexpr uint32_t kMaskOpaque = 0x1 | 0x4000 | 0x80;

// Texinfo surface flags (bspflags.h).
inline constexpr uint32_t kSurfLight = 0x1, kSurfSky2D = 0x2, kSurfSky = 0x4, kSurfWarp = 0x8, kSurfTrans = 0x10,
                          kSurfTrigger = 0x40, kSurfNoDraw = 0x80, kSurfHint = 0x100, kSurfSkip = 0x200,
                          kSurfNoLight = 0x400, kSurfBumpLight = 0x800;

inline constexpr int kBumpBlocks = 4;  // flat + 3 bump basis directions (NUM_BUMP_VECTS + 1)
// vrad caps world faces at 32 luxels and displacements at a few hundred; larger is malformed.
inline constexpr int32_t kMaxLuxelSide = 1024;
// Decompressed size limits for LZMA lumps: one lump, and all of a file's lumps together.
inline constexpr uint64_t kMaxLumpBytes = uint64_t(256) << 20;
inline constexpr uint64_t kMaxDecompressedBytes = uint64_t(1) << 30;

// Game lump id 'sprp' (static props), as the little-endian int the directory stores.
inline constexpr uint32_t kStaticPropLumpId = (uint32_t('s') << 24) | (uint32_t('p') << 16) | (uint32_t('r') << 8) | 'p';

struct Texinfo {
    std::array<float, 8> textureVecs{};   // s axis + offset, t axis + offset (texels)
    std::array<float, 8> lightmapVecs{};  // the same in luxels
    uint32_t flags = 0;
    int32_t texdata = -1;
    int32_t width = 0, height = 0;  // of the texdata's texture (0: unknown)
};

struct FaceRecord : bsp::FaceHead {
    int16_t dispinfo = -1;
    std::array<uint8_t, 4> styles{};
    int32_t lightOffset = -1;
    std::array<int32_t, 2> luxelMins{}, luxelSize{};  // LightmapTextureMins/SizeInLuxels (size = luxels - 1)
};

// A lit surface's lightmap: (size+1)^2 luxels a style, `blocks` grids a style (4 when bumped; the first is flat).
struct FaceLightmap {
    uint32_t surface = 0;
    int32_t lightOffset = 0;
    int32_t numStyles = 0;
    int32_t blocks = 1;
    std::array<int32_t, 2> mins{}, size{};  // luxels per side = size + 1
};

// Lump windows (decompressed where the file compressed them) and the facts later parts check against.
struct Context {
    explicit Context(const MapSource& s) : source(&s) {}
    const MapSource* source;  // a pointer, so that a Context can be assigned (the lump fuzz targets do)
    int32_t version = 0;
    std::vector<ByteReader> lumps;        // kLumpCount windows
    std::vector<Bytes> decompressed;      // storage behind windows of LZMA lumps
    bool useHdr = false;
    Lump facesLump = kFaces, lightingLump = kLighting;
    int32_t leafVersion = 0;
    size_t numPlanes = 0, numTexinfo = 0, numTexdata = 0, numVertices = 0, numEdges = 0, numSurfEdges = 0,
           numFaces = 0, numLeaves = 0, numLeafFaces = 0, numNodes = 0, numModels = 0, numDispInfos = 0,
           numDispVerts = 0, numDispTris = 0, numWorldLights = 0;
    std::vector<Texinfo> texinfo;
    std::vector<FaceRecord> faces;
    bsp::EdgeMesh mesh;  // vertices, edges, surfedges
    std::vector<FaceLightmap> lit;  // filled by faces and displacements, consumed by lighting
    // Luxel coordinate of every World vertex (luxel centres at integers), for lightmap uvs.
    std::vector<std::array<double, 2>> luxels;
    ByteReader& lump(int l) { return lumps[size_t(l)]; }
};

// One lump directory entry, whichever order the file's layout stores the fields in.
struct DirectoryEntry {
    uint32_t offset = 0, length = 0;
    int32_t version = 0;
    uint32_t fourCC = 0;  // LZMA lumps: the uncompressed size; else 0
};
struct LumpDirectory {
    std::array<DirectoryEntry, kLumpCount> entries;
    bool l4d2 = false;  // Left 4 Dead 2 order (version, offset, length, fourCC) instead of the standard one
    // File positions of lump i's offset and length fields (the fourCC is last in both layouts).
    size_t offsetField(int i) const { return 8 + 16 * size_t(i) + (l4d2 ? 4 : 0); }
    size_t lengthField(int i) const { return offsetField(i) + 4; }
    size_t fourCCField(int i) const { return 8 + 16 * size_t(i) + 12; }
};
// Both readings of the directory of a file at least kHeaderBytes long; the layout whose entries put more
// lumps inside the file wins (the standard one on a tie). Entries are not checked further.
LumpDirectory readLumpDirectory(const ByteReader& file);

// ColorRGBExp32 -> linear: c * 2^exponent / 255 (exponent signed), as the engine's TexLightToLinear.
inline Vec3 colorRGBExp32(const uint8_t* p) {
    const int e = int8_t(p[3]);
    const float scale = std::ldexp(1.0f, e) / 255.0f;
    return {float(p[0]) * scale, float(p[1]) * scale, float(p[2]) * scale};
}

// Ambient cube colours are stored 255 times smaller than lightmap luxels of the same light: the engine
// reads them with ColorRGBExp32ToVector, which is TexLightToLinear times 255. Rebaking the cubes of
// five shipped maps from their own lightmaps (luxel rebake) gives 251-277 times the stored values with
// the lightmap formula, and the stored values themselves with this one.
inline constexpr float kAmbientCubeScale = 255.0f;
inline Vec3 ambientCubeColor(const uint8_t* p) { return colorRGBExp32(p) * kAmbientCubeScale; }

// Texture coordinate of a point, normalised by the texture size when the texdata gives it.
Vec2 textureUV(const Texinfo& t, Vec3 p);
// Luxel coordinate of a point on a face: lightmapVecs projection minus LightmapTextureMinsInLuxels.
std::array<double, 2> luxelCoord(const Texinfo& t, const FaceRecord& f, Vec3 p);

// Header and lump directory (both layouts), LZMA lumps decompressed; fills World header facts.
void decodeHeader(Context& c, World& w);
// The lighting set (lighting + faces lumps) to read: HDR (53, with faces 58 when present) or LDR (8, 7);
// a map missing one faces lump uses the other. Needs the header.
void useLightingSet(Context& c, bool hdr);
// The World's format facts, the header (LZMA lumps decompressed) and the lighting set: the state the stages
// start from. HDR (lumps 53 + 58) unless preferLdr and the map has LDR light; a map with one set uses that.
Context openSource(const MapSource& source, World& w, bool preferLdr);
// Every part in dependency order (source/decode.cpp); decodeSource is openSource and then these.
const std::vector<bsp::DecodeStage<Context>>& decodeStages();

void decodeMaterials(Context& c, World& w);  // texinfo, texdata, string table
void decodeFaces(Context& c, World& w);          // vertices, edges, surfedges, faces -> polygon surfaces
void decodeDisplacements(Context& c, World& w);  // dispinfo, disp verts, disp tris -> displacement surfaces
void decodeLighting(Context& c, World& w);       // lit faces' flat blocks -> atlas pages per style slot
// Visibility, leaf faces, leaves, nodes and models; needs faces.
void decodeTree(Context& c, World& w);  // and World::brushes
void decodeAmbient(Context& c, World& w);      // needs leaves
void decodeGameLumps(Context& c, World& w);    // static props
// The static prop game lump's payload (decompressed), of that version; needs leaves.
void decodeStaticProps(ByteReader r, int version, World& w);
// The world light lump the lighting set decoded goes with: HDR (54) when the lighting is HDR and it has
// lights, else LDR (15).
int worldLightsLump(const Context& c);
void decodeOverlays(Context& c, World& w);  // World::overlays (both lumps); needs faces (source/overlays.cpp)
void decodeWorldLights(Context& c, World& w);  // World::lights; needs entities (source/worldlights.cpp)
void countOtherLumps(Context& c, World& w);    // brushes, world lights, cubemaps, ... for `info`

}  // namespace luxel::vbsp
