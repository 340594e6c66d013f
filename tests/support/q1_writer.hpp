#pragma once
// A tiny Quake 1 / Half-Life map writer for exact unit tests: BSP29 (id), 2PSB (RMQ's first BSP2: 32-bit
// counts, int16 bounds), BSP2 (32-bit counts, float bounds) and Half-Life's BSP30 (RGB lighting, textures with
// their own palettes), with a BSPX lump directory and a .lit beside the map.
//
// Every struct is one on-disk record with the same field order as ericw-tools' include/common/bspfile_q1.hh
// (bsp29_*, bsp2rmq_*, bsp2_* records); the builder holds the widest form and build() writes the variant's.
// `Q1MapBuilder::build()` writes the header (version 29 / 30, or the magic "BSP2" / "2PSB") and the 15 lumps in
// lump order, each on a 4-byte boundary, then, when `bspx` is not empty, the BSPX directory at the 4-aligned end
// of the last lump ("BSPX", count, {name[24], offset, length} each) followed by the BSPX lumps (4-aligned).
//
// Conventions of the helpers:
//  * Faces are polygons wound CLOCKWISE seen from the side their normal points to (as qbsp writes them);
//    addFace() makes the vertices, edges and surfedges. An edge another face already uses the other way round
//    is shared through a negative surfedge. Edge 0 is the unusable dummy, as in compiler output.
//  * Lighting. Quake: the lighting lump is grey, one byte a luxel, and a face's offset counts those bytes;
//    `rgbLighting` holds the same luxels in colour at 3 x the offset (what a .lit or BSPX RGBLIGHTING carries),
//    kept exactly 3 x the grey lump's size. Half-Life: the lighting lump itself is RGB and offsets count its
//    bytes. addLighting() appends one grid per style (row-major, s fastest) and returns the face's offset.
//  * Visibility: `pvs` holds the uncompressed row of each visible leaf 1..n (leaf 0 is the solid leaf and has
//    none); build() run-length encodes them into the visibility lump and points those leaves' visofs at them.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "luxel/material/pcx.hpp"
#include "luxel/util/math.hpp"

namespace luxel::test {

enum class Q1Variant { Bsp29, Bsp2Rmq, Bsp2, HalfLife };
inline constexpr std::array<Q1Variant, 4> kQ1Variants = {Q1Variant::Bsp29, Q1Variant::Bsp2Rmq, Q1Variant::Bsp2,
                                                         Q1Variant::HalfLife};
const char* q1VariantName(Q1Variant v);  // "BSP29", "2PSB", "BSP2", "BSP30"

enum Q1Lump : int {
    kQ1Entities = 0, kQ1Planes, kQ1Textures, kQ1Vertexes, kQ1Visibility, kQ1Nodes, kQ1Texinfo, kQ1Faces,
    kQ1Lighting, kQ1Clipnodes, kQ1Leafs, kQ1MarkSurfaces, kQ1Edges, kQ1SurfEdges, kQ1Models, kQ1LumpCount
};

constexpr size_t kQ1HeaderBytes = 4 + kQ1LumpCount * 8;
constexpr int32_t kQ1ContentsEmpty = -1, kQ1ContentsSolid = -2, kQ1ContentsWater = -3, kQ1ContentsSky = -6;
constexpr int32_t kQ1TexSpecial = 1;

// Record sizes of a variant (nodes, leaves, faces, clipnodes; edges and marksurfaces are 2 x the index size).
struct Q1RecordBytes {
    size_t node, leaf, face, clipnode, index;
};
Q1RecordBytes q1RecordBytes(Q1Variant v);

struct Q1Plane {
    Vec3 normal;
    float dist = 0;
    int32_t type = 5;  // PLANE_ANYZ; the decoder ignores it
};
struct Q1Texinfo {
    std::array<float, 4> s{1, 0, 0, 0}, t{0, 1, 0, 0};  // axis xyz + offset
    int32_t miptex = 0;
    int32_t flags = 0;
};
// One texture of the miptex lump: a 40-byte header (name[16], width, height, 4 offsets from the header) and
// the four levels of palette indices; Half-Life's then carry their palette: uint16 256, 768 bytes, 2 bytes pad.
struct Q1Miptex {
    std::string name;  // at most 15 characters are stored
    uint32_t width = 0, height = 0;
    // Level 0, width x height indices; levels 1-3 take every 2nd, 4th and 8th texel of it.
    std::vector<uint8_t> pixels;
    bool embedded = true;  // false: the header alone with zero offsets (a Half-Life texture left to a WAD)
    // Half-Life only: the texture's own palette (q1TestPalette() when unset).
    std::optional<Palette> palette;
};
struct Q1Face {
    int32_t plane = 0;
    int32_t side = 0;
    int32_t firstEdge = 0, numEdges = 0;
    int32_t texinfo = 0;
    std::array<uint8_t, 4> styles{0, 255, 255, 255};
    int32_t lightOffset = -1;
};
struct Q1Node {
    int32_t plane = 0;
    std::array<int32_t, 2> children{};  // >= 0 node, < 0 leaf -(c+1); [0] front, [1] back
    Vec3 mins, maxs;                    // int16 in BSP29 / 2PSB / BSP30
    uint32_t firstFace = 0, numFaces = 0;
};
struct Q1Leaf {
    int32_t contents = kQ1ContentsEmpty;
    int32_t visOffset = -1;
    Vec3 mins, maxs;
    uint32_t firstMarkSurface = 0, numMarkSurfaces = 0;
    std::array<uint8_t, 4> ambient{};
};
struct Q1Model {
    Vec3 mins, maxs, origin;
    std::array<int32_t, 4> headNodes{};
    int32_t visLeaves = 0;  // leaves 1..visLeaves are covered by the visibility rows
    int32_t firstFace = 0, numFaces = 0;
};
struct Q1Clipnode {
    int32_t plane = 0;
    std::array<int32_t, 2> children{};  // >= 0 clipnode, < 0 contents
};
// One DECOUPLED_LM record (40 bytes): the block's size, its lighting offset and the world -> luxel matrix
// (luxel (i, j)'s centre at (dot(p, row 0) + row0[3], dot(p, row 1) + row1[3]) = (i, j)).
struct Q1Decoupled {
    uint16_t width = 0, height = 0;
    int32_t lightOffset = -1;
    std::array<std::array<float, 4>, 2> worldToLuxel{};
};

struct Q1MapBuilder {
    Q1Variant variant = Q1Variant::Bsp29;
    std::string entities;  // written with a terminating NUL
    std::vector<Q1Plane> planes;
    std::vector<Vec3> vertices;
    std::vector<std::array<uint32_t, 2>> edges{{0, 0}};  // edge 0: the unusable dummy
    std::vector<int32_t> surfEdges;
    std::vector<Q1Node> nodes;
    std::vector<Q1Texinfo> texinfos;
    std::vector<std::optional<Q1Miptex>> miptex;  // nullopt: a directory slot of -1
    std::vector<Q1Face> faces;
    std::vector<uint8_t> lighting;
    std::vector<uint8_t> rgbLighting;  // Quake: the .lit / RGBLIGHTING bytes, 3 x lighting
    std::vector<Q1Clipnode> clipnodes;
    std::vector<Q1Leaf> leaves;
    std::vector<uint32_t> markSurfaces;
    std::vector<Q1Model> models;
    std::optional<std::vector<std::vector<uint8_t>>> pvs;
    std::vector<std::pair<std::string, std::vector<uint8_t>>> bspx;  // in directory order
    // Replaces a lump's bytes verbatim (for malformed-input tests), bypassing the records above.
    std::array<std::optional<std::vector<uint8_t>>, kQ1LumpCount> rawLumps;

    std::vector<uint8_t> build() const;
    // The .lit file beside the map: "QLIT", int32 1, then rgbLighting.
    std::vector<uint8_t> litFile() const;

    int32_t addPlane(Vec3 normal, float dist);
    int32_t addTexinfo(std::array<float, 4> s, std::array<float, 4> t, int32_t miptexIndex, int32_t flags = 0);
    int32_t addMiptex(const std::string& name, uint32_t width, uint32_t height, std::vector<uint8_t> pixels);
    // A face over `points` (clockwise seen from the front); vertices at equal positions are shared.
    int32_t addFace(const std::vector<Vec3>& points, int32_t plane, bool backSide, int32_t texinfo,
                    std::array<uint8_t, 4> styles = {0, 255, 255, 255}, int32_t lightOffset = -1);
    // Appends one grid per style; returns the offset the face record needs. Quake: the grey grids go to the
    // lighting lump and the RGB grids (or the grey bytes three times when none are given) to rgbLighting.
    // Half-Life: the RGB grids go to the lighting lump (grey grids are not allowed).
    int32_t addLighting(const std::vector<std::vector<uint8_t>>& greyGrids,
                        const std::vector<std::vector<std::array<uint8_t, 3>>>& rgbGrids = {});
    int32_t addLeaf(int32_t contents, const std::vector<uint32_t>& faceList, Vec3 mins = {}, Vec3 maxs = {});
    int32_t addNode(int32_t plane, int32_t front, int32_t back, Vec3 mins = {}, Vec3 maxs = {});
    void addBspx(const std::string& name, std::vector<uint8_t> bytes) { bspx.emplace_back(name, std::move(bytes)); }
};

// qvis's CompressVis: non-zero bytes verbatim, each run of zero bytes (at most 255) as 0, count.
std::vector<uint8_t> compressQ1PvsRow(const std::vector<uint8_t>& row);
// "QLIT", version, rgb bytes.
std::vector<uint8_t> q1LitFile(const std::vector<uint8_t>& rgb, int32_t version = 1);
// The 40-byte records of a DECOUPLED_LM lump.
std::vector<uint8_t> q1DecoupledLump(const std::vector<Q1Decoupled>& faces);
// A Half-Life texture's palette the tests can recognise: colour i is (i, 255 - i, 7 i mod 256).
Palette q1TestPalette();

// Lump `lump`'s (offset, length) from the directory of a file produced by build(), and its overwrite.
std::pair<uint32_t, uint32_t> q1LumpRange(const std::vector<uint8_t>& file, int lump);
void setQ1LumpRange(std::vector<uint8_t>& file, int lump, uint32_t offset, uint32_t length);
// Where build() put the BSPX directory ("BSPX" at that offset), or 0 when the file has none.
size_t q1BspxDirectory(const std::vector<uint8_t>& file);

// What makeQ1FloorMap adds beyond the plain map.
struct Q1FloorOptions {
    bool bspxRgb = false;  // a BSPX RGBLIGHTING lump holding rgbLighting (Quake variants)
    // A BSPX LMSHIFT lump: faces 0 and 1 lit in luxels of 1 << shift units, the lighting sized to match.
    std::optional<std::array<uint8_t, 2>> lmShift;
    // A BSPX DECOUPLED_LM lump: face 0 a 9x5 block of luxel (u, v) = (x / 8, y / 8), face 1 a 5x5 block of
    // ((x - 64) / 8, y / 8), both styles; the face records' own offsets then point at byte 0.
    bool decoupled = false;
};

// A small valid map of every variant:
//  * entities: worldspawn ("message" "q1 floor"), info_player_start at (32 16 24) "angle" "90", info_intermission
//    at (48 8 64) "mangle" "20 135 0";
//  * planes 0 (z = 0, normal +z) and 1 (x = 64, normal +x);
//  * miptex 0 "floor1", 16x16, texel (x, y) = index 16 y + x (every palette index once); miptex 1 "{grate",
//    8x8, texel (x, y) = 255 when x + y is odd, else 32 + x + 8 y; Half-Life: both with q1TestPalette();
//  * texinfo 0: s = x, t = y, miptex 0; texinfo 1: s = x + 8, t = y - 4, miptex 1;
//  * face 0: the floor quad (0,0,0) (0,32,0) (64,32,0) (64,0,0), texinfo 0, style 0: luxels 5x3 (s 0..64,
//    t 0..32); face 1: the quad (64,0,0) (64,32,0) (96,32,0) (96,0,0) (sharing face 0's edge x = 64), texinfo
//    1, styles 0 and 5: luxels 4x4 (s 72..104 -> luxels 4..7, t -4..28 -> luxels -1..2);
//  * luxel (i, j) of face f, style slot k: grey q1FloorGrey(f, k, i, j), colour q1FloorRgb(f, k, i, j), face 0's
//    grids first, then face 1's two;
//  * leaf 0 solid, leaf 1 (x 0..64, listing face 0) and leaf 2 (x 64..96, listing face 1) empty; node 0 on
//    plane 0 (front: node 1, back: leaf 0), node 1 on plane 1 (front: leaf 2, back: leaf 1); one clipnode;
//    model 0 over faces 0-1 with 2 visible leaves; PVS: leaf 1 sees leaf 1, leaf 2 sees leaves 1 and 2.
Q1MapBuilder makeQ1FloorMap(Q1Variant variant, const Q1FloorOptions& options = {});

// The floor map plus: face 2 on the floor with its texture axes turned 45 degrees and scaled (s = x/2 + y/2 + 3,
// t = y/2 - x/2), face 3 TEX_SPECIAL (a liquid), face 4 textured "trigger".
Q1MapBuilder makeQ1LayoutMap(Q1Variant v);

// The floor map's luxel bytes: grey (f, k, i, j) = (5 + 10 i + 25 j + 100 f + 60 k) mod 256, colour
// (grey, 255 - grey, (3 grey) mod 256).
uint8_t q1FloorGrey(int face, int slot, int i, int j);
std::array<uint8_t, 3> q1FloorRgb(int face, int slot, int i, int j);

}  // namespace luxel::test
