#pragma once
// A tiny Quake 2 IBSP v38 writer for exact unit tests: build a map in memory from plain records, decode
// it, and compare against values chosen by the test.
//
// Every struct is one on-disk record with the same field order (specs/q2-bsp-mcguire.txt, with id's
// qfiles.h field types). `Q2MapBuilder::build()` lays the 19 lumps out after the 160-byte header in lump
// order, each on a 4-byte boundary, appends a NUL to the entity text, and RLE-compresses `pvs` rows into
// the visibility lump (PHS rows point at the same data).
//
// Conventions of the helpers:
//  * Faces are given as polygons wound CLOCKWISE seen from the side their normal points to (as qbsp
//    writes them). addFace() makes the vertices, edges and surfedges; edges another face already uses in
//    the opposite direction are shared through a negative surfedge, and with `reverseOddEdges` every odd
//    edge is stored backwards so negative surfedges appear even on a lone face. Edge 0 is a dummy (it
//    cannot be negated), as in compiler output.
//  * addLighting() appends one luxel grid per style (row-major, s fastest, 3 bytes a luxel) and returns
//    the offset the face record needs.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "luxel/util/math.hpp"

namespace luxel::test {

enum Q2Lump : int {
    kQ2Entities = 0, kQ2Planes, kQ2Vertexes, kQ2Visibility, kQ2Nodes, kQ2Texinfo, kQ2Faces, kQ2Lighting, kQ2Leafs,
    kQ2LeafFaces, kQ2LeafBrushes, kQ2Edges, kQ2SurfEdges, kQ2Models, kQ2Brushes, kQ2BrushSides, kQ2Pop, kQ2Areas,
    kQ2AreaPortals, kQ2LumpCount
};

constexpr size_t kQ2HeaderBytes = 8 + 19 * 8;
constexpr size_t kQ2PlaneBytes = 20, kQ2NodeBytes = 28, kQ2TexinfoBytes = 76, kQ2FaceBytes = 20, kQ2LeafBytes = 28,
                 kQ2ModelBytes = 48, kQ2BrushBytes = 12, kQ2AreaBytes = 8;

// Texinfo surface flags.
constexpr int32_t kQ2SurfLight = 0x1, kQ2SurfSky = 0x4, kQ2SurfWarp = 0x8, kQ2SurfTrans33 = 0x10,
                  kQ2SurfTrans66 = 0x20, kQ2SurfFlowing = 0x40, kQ2SurfNoDraw = 0x80, kQ2SurfHint = 0x100, kQ2SurfSkip = 0x200;
constexpr int32_t kQ2ContentsSolid = 1;

struct Q2Plane {
    Vec3 normal;
    float dist = 0;
    int32_t type = 5;  // PLANE_ANYZ; the decoder ignores it
};
struct Q2Node {
    int32_t plane = 0;
    std::array<int32_t, 2> children{};  // >= 0 node, < 0 leaf -(c+1); [0] front, [1] back
    std::array<int16_t, 3> mins{}, maxs{};
    uint16_t firstFace = 0, numFaces = 0;
};
struct Q2Texinfo {
    std::array<float, 4> s{1, 0, 0, 0}, t{0, 1, 0, 0};  // axis xyz + offset
    int32_t flags = 0, value = 0;
    std::string name = "e1u1/floor1_1";  // at most 31 characters are stored
    int32_t next = -1;
};
struct Q2Face {
    uint16_t plane = 0;
    int16_t side = 0;
    int32_t firstEdge = 0;
    uint16_t numEdges = 0;
    int16_t texinfo = 0;
    std::array<uint8_t, 4> styles{0, 255, 255, 255};
    int32_t lightOffset = -1;
};
struct Q2Leaf {
    int32_t contents = 0;
    int16_t cluster = -1, area = 0;
    std::array<int16_t, 3> mins{}, maxs{};
    uint16_t firstLeafFace = 0, numLeafFaces = 0, firstLeafBrush = 0, numLeafBrushes = 0;
};
struct Q2Model {
    Vec3 mins, maxs, origin;
    int32_t headNode = 0, firstFace = 0, numFaces = 0;
};
struct Q2Brush {
    int32_t firstSide = 0, numSides = 0, contents = kQ2ContentsSolid;
};
struct Q2BrushSide {
    uint16_t plane = 0;
    int16_t texinfo = 0;
};
struct Q2Area {
    int32_t numPortals = 0, firstPortal = 0;
};
struct Q2AreaPortal {
    int32_t portal = 0, otherArea = 0;
};

struct Q2MapBuilder {
    std::string entities;  // written with a terminating NUL
    std::vector<Q2Plane> planes;
    std::vector<Vec3> vertices;
    std::vector<std::array<uint16_t, 2>> edges{{0, 0}};  // edge 0: the unusable dummy
    std::vector<int32_t> surfEdges;
    std::vector<Q2Node> nodes;
    std::vector<Q2Texinfo> texinfos;
    std::vector<Q2Face> faces;
    std::vector<uint8_t> lighting;
    std::vector<Q2Leaf> leaves;
    std::vector<uint16_t> leafFaces, leafBrushes;
    std::vector<Q2Model> models;
    std::vector<Q2Brush> brushes;
    std::vector<Q2BrushSide> brushSides;
    std::vector<uint8_t> pop;
    std::vector<Q2Area> areas;
    std::vector<Q2AreaPortal> areaPortals;
    // Uncompressed PVS: one row of ceil(n/8) bytes per cluster (bit b of row a: a sees b). No visibility
    // lump when unset.
    std::optional<std::vector<std::vector<uint8_t>>> pvs;
    // Replaces a lump's bytes verbatim (for malformed-input tests), bypassing the records above.
    std::array<std::optional<std::vector<uint8_t>>, kQ2LumpCount> rawLumps;

    std::vector<uint8_t> build() const;

    int32_t addPlane(Vec3 normal, float dist);
    int32_t addTexinfo(std::array<float, 4> s, std::array<float, 4> t, int32_t flags = 0,
                       const std::string& name = "e1u1/floor1_1");
    // A face over `points` (clockwise seen from the front). The front is plane `plane`'s normal side unless
    // backSide. Vertices at equal positions are shared. Returns the face index.
    int32_t addFace(const std::vector<Vec3>& points, int32_t plane, bool backSide, int32_t texinfo,
                    std::array<uint8_t, 4> styles = {0, 255, 255, 255}, int32_t lightOffset = -1,
                    bool reverseOddEdges = true);
    // Appends the grids of one face (each width*height luxels of RGB bytes, one per style); returns their offset.
    int32_t addLighting(const std::vector<std::vector<std::array<uint8_t, 3>>>& styleGrids);
    int32_t addLeaf(int16_t cluster, const std::vector<uint16_t>& faceList, int16_t area = 1, int32_t contents = 0);
    int32_t addNode(int32_t plane, int32_t front, int32_t back);
};

// qvis's CompressVis: non-zero bytes verbatim, each run of zero bytes (at most 255) as 0, count.
std::vector<uint8_t> compressQ2PvsRow(std::span<const uint8_t> row);

// Reads lump `lump`'s (offset, length) from the directory of a file produced by build().
std::pair<uint32_t, uint32_t> q2LumpRange(const std::vector<uint8_t>& file, int lump);
// Overwrites the directory entry of `lump`.
void setQ2LumpRange(std::vector<uint8_t>& file, int lump, uint32_t offset, uint32_t length);

// A small valid map: a 64x32 floor quad at z = 0 (face 0, texinfo 0 with s = x, t = y, lit by one
// style-0 5x3 grid at lighting offset 0 whose luxel (i, j) is (10i, 10j, 7)), leaf 0 solid, leaf 1 in
// cluster 0 and area 1 listing face 0, node 0 on plane 0 (z = 0, front leaf 1, back leaf 0), model 0 over
// face 0, one brush with one side, areas 0 and 1 with one area portal, a one-cluster PVS, a worldspawn.
Q2MapBuilder makeQ2FloorMap();

// The rest of a floor map around faces 0..numFaces-1 lying on plane `floor` (z = 0), as makeQ2FloorMap
// builds it: leaf 0 solid, leaf 1 (cluster 0, area 1) listing the faces, node 0 on the floor plane, model 0
// from the origin to `maxs` over the faces, one brush with one side, two areas with a portal, a
// one-cluster PVS.
void addQ2FloorWorld(Q2MapBuilder& b, int32_t floor, int32_t texinfo, uint16_t numFaces, Vec3 maxs);

}  // namespace luxel::test
