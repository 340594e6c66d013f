#pragma once
// A tiny Quake 3 IBSP v46 writer for exact unit tests: build a map in memory from plain records, decode
// it, and compare against values chosen by the test.
//
// Record layouts follow the file format (specs/q3-bsp-proudfoot.txt); every struct here is one on-disk
// record with the same field order. `Q3MapBuilder::build()` lays the 17 lumps out after the 144-byte
// header in lump order, each starting on a 4-byte boundary, and appends a NUL to the entity text.
//
// Conventions of the helpers (addPolygon, makeRoomMap, ...):
//  * Polygons are wound CLOCKWISE when seen from the side their normal points to, as q3map2 writes them
//    (so a room's walls are clockwise seen from inside the room).
//  * Planes are added in pairs: plane 2k has the given normal, plane 2k+1 is its flip (the Quake 3 rule).
//  * Nodes are in pre-order (children have larger indices than their parent), like q3map2 output.
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/util/math.hpp"

namespace luxel::test {

// Lump numbers of the IBSP v46 directory.
enum Q3Lump : int {
    kQ3Entities = 0, kQ3Textures, kQ3Planes, kQ3Nodes, kQ3Leafs, kQ3LeafFaces, kQ3LeafBrushes, kQ3Models,
    kQ3Brushes, kQ3BrushSides, kQ3Vertexes, kQ3MeshVerts, kQ3Effects, kQ3Faces, kQ3Lightmaps, kQ3LightVols,
    kQ3VisData, kQ3LumpCount
};

// On-disk record sizes in bytes.
constexpr size_t kQ3HeaderBytes = 8 + 17 * 8;
constexpr size_t kQ3TextureBytes = 72, kQ3PlaneBytes = 16, kQ3NodeBytes = 36, kQ3LeafBytes = 48,
                 kQ3ModelBytes = 40, kQ3BrushBytes = 12, kQ3BrushSideBytes = 8, kQ3VertexBytes = 44,
                 kQ3EffectBytes = 72, kQ3FaceBytes = 104, kQ3LightmapBytes = 128 * 128 * 3,
                 kQ3GridPointBytes = 8;

// Quake 3 surface flags the decoder maps to neutral material flags.
constexpr int32_t kQ3SurfSky = 0x4, kQ3SurfNoDraw = 0x80, kQ3SurfHint = 0x100, kQ3SurfSkip = 0x200,
                  kQ3SurfNoLightmap = 0x400;
constexpr int32_t kQ3ContentsSolid = 1;

// Face (surface) types.
constexpr int32_t kQ3Polygon = 1, kQ3Patch = 2, kQ3Mesh = 3, kQ3Billboard = 4;

struct Q3Texture {
    std::string name;  // at most 63 characters are stored
    int32_t flags = 0, contents = kQ3ContentsSolid;
};
struct Q3Plane {
    Vec3 normal;
    float dist = 0;
};
struct Q3Node {
    int32_t plane = 0;
    std::array<int32_t, 2> children{};  // >= 0 node, < 0 leaf -(c+1); [0] front, [1] back
    std::array<int32_t, 3> mins{}, maxs{};
};
struct Q3Leaf {
    int32_t cluster = -1, area = 0;
    std::array<int32_t, 3> mins{}, maxs{};
    int32_t firstLeafFace = 0, numLeafFaces = 0, firstLeafBrush = 0, numLeafBrushes = 0;
};
struct Q3Model {
    Vec3 mins, maxs;
    int32_t firstFace = 0, numFaces = 0, firstBrush = 0, numBrushes = 0;
};
struct Q3Brush {
    int32_t firstSide = 0, numSides = 0, texture = 0;
};
struct Q3BrushSide {
    int32_t plane = 0, texture = 0;
};
struct Q3Vertex {
    Vec3 position;
    Vec2 texUV, lightmapUV;
    Vec3 normal;
    std::array<uint8_t, 4> color{255, 255, 255, 255};
};
struct Q3Effect {
    std::string name;
    int32_t brush = 0, unknown = 5;
};
struct Q3Face {
    int32_t texture = 0, effect = -1, type = kQ3Polygon;
    int32_t firstVertex = 0, numVertices = 0, firstMeshVert = 0, numMeshVerts = 0;
    int32_t lightmap = -1;
    std::array<int32_t, 2> lmStart{}, lmSize{};
    Vec3 lmOrigin;
    std::array<Vec3, 2> lmVecs{};  // billboards: lmVecs[0] is the colour
    Vec3 normal;                   // billboards: the facing direction
    std::array<int32_t, 2> size{}; // patches: control grid width, height
};

// Visdata lump contents: numClusters rows of rowBytes bytes (bit b of row a: a sees b).
struct Q3Vis {
    int32_t numClusters = 0, rowBytes = 0;
    std::vector<uint8_t> rows;
};

struct Q3MapBuilder {
    std::string entities;  // written with a terminating NUL
    std::vector<Q3Texture> textures;
    std::vector<Q3Plane> planes;
    std::vector<Q3Node> nodes;
    std::vector<Q3Leaf> leaves;
    std::vector<int32_t> leafFaces;
    std::vector<int32_t> leafBrushes;
    std::vector<Q3Model> models;
    std::vector<Q3Brush> brushes;
    std::vector<Q3BrushSide> brushSides;
    std::vector<Q3Vertex> vertices;
    std::vector<int32_t> meshVerts;
    std::vector<Q3Effect> effects;
    std::vector<Q3Face> faces;
    std::vector<std::vector<uint8_t>> lightmaps;  // each exactly 128*128*3 bytes, row-major RGB
    std::vector<uint8_t> lightGrid;               // raw lightvols lump: 8 bytes a point
    std::optional<Q3Vis> vis;                     // no visdata lump when empty
    // Replaces a lump's bytes verbatim (for malformed-input tests), bypassing the records above.
    std::array<std::optional<std::vector<uint8_t>>, kQ3LumpCount> rawLumps;

    std::vector<uint8_t> build() const;

    // Helpers that append records and return the index of what they added.
    int32_t addTexture(const std::string& name, int32_t flags = 0, int32_t contents = kQ3ContentsSolid);
    // Adds planes (n, d) and (-n, -d); returns the index of the first.
    int32_t addPlanePair(Vec3 normal, float dist);
    // One 128x128 page with every texel set to rgb.
    int32_t addLightmap(std::array<uint8_t, 3> rgb);
    // One 128x128 page with texel (x, y) (x across, y down the rows) given by fn.
    int32_t addLightmap(const std::function<std::array<uint8_t, 3>(int x, int y)>& fn);

    // A planar convex polygon (type 1). `points` in clockwise order seen from the front; every vertex
    // gets `normal`, its lightmap UV from lightmapUV (same length as points), texUV = (x/64, y/64) of
    // the position unless texUV is given, and colour `color`. Indices are a fan (0, i, i+1) from vertex 0.
    // Sets lmOrigin = points[0] and the face normal. Returns the face index.
    int32_t addPolygon(const std::vector<Vec3>& points, Vec3 normal, int32_t texture, int32_t lightmap,
                       const std::vector<Vec2>& lightmapUV, std::array<uint8_t, 4> color = {255, 255, 255, 255},
                       const std::vector<Vec2>& texUV = {});
    // A Bezier patch (type 2): width*height control points, row-major (x fastest). Returns the face index.
    int32_t addPatch(int32_t width, int32_t height, const std::vector<Q3Vertex>& controlPoints, int32_t texture,
                     int32_t lightmap);
    // A flare (type 4): origin, linear colour, facing normal; no vertices. Returns the face index.
    int32_t addBillboard(Vec3 origin, Vec3 color, Vec3 normal, int32_t texture);
    // An axis-aligned box brush: 6 plane pairs (the first of each facing out of the box) and 6 sides, all
    // with `texture` (also the brush's content shader). Lists it in no leaf and no model. Returns its index.
    int32_t addBoxBrush(Vec3 mins, Vec3 maxs, int32_t texture);
};

// Reads lump `lump`'s (offset, length) from the directory of a file produced by build().
std::pair<uint32_t, uint32_t> q3LumpRange(const std::vector<uint8_t>& file, int lump);

// ---- Box rooms -------------------------------------------------------------------------------------
//
// A closed axis-aligned room: 6 inward-facing quads (polygons), each a full wall.
// Walls, in face order (face index = room's firstFace + wall):
//   0 floor   z = mins.z, normal (0,0,+1)      3 east  x = maxs.x, normal (-1,0,0)
//   1 ceiling z = maxs.z, normal (0,0,-1)      4 south y = mins.y, normal (0,+1,0)
//   2 west    x = mins.x, normal (+1,0,0)      5 north y = maxs.y, normal (0,-1,0)
// Lightmaps: one 128x128 page per wall, page index = firstLightmap + wall, every texel of wall w's page
// holds the bytes wallBytes[w] (unless `texel` is set, then texel(w, x, y)). With sharedPage, all six walls
// use ONE page filled with sharedBytes. Each wall's four corners get lightmap UVs (0,0) (1,0) (1,1) (0,1)
// in winding order, i.e. the wall spans the whole page. Decoded linear light = 4 * byte / 255
// (so the default bytes 32 -> 0.50196, 64 -> 1.00392).
// Vertex colours: every wall's vertices carry colour (wallBytes[w], 255); with vertexLit the faces use
// lightmap index -3 and no lightmap pages are written.
// Decoded linear light of a stored lightmap / grid byte (the overbright shift: 4 * byte / 255).
inline float q3Linear(uint8_t byte) { return 4.0f * float(byte) / 255.0f; }

struct RoomOptions {
    Vec3 mins{-256, -256, 0}, maxs{256, 256, 256};
    std::array<std::array<uint8_t, 3>, 6> wallBytes{{{64, 64, 64},   // floor: linear 1.00392
                                                     {32, 32, 32},   // ceiling: 0.50196
                                                     {64, 0, 0},     // west: red 1.00392
                                                     {0, 64, 0},     // east: green
                                                     {0, 0, 64},     // south: blue
                                                     {48, 48, 16}}}; // north: 0.75294, 0.75294, 0.25098
    bool sharedPage = false;
    std::array<uint8_t, 3> sharedBytes{64, 64, 64};
    std::function<std::array<uint8_t, 3>(int wall, int x, int y)> texel;  // overrides wallBytes if set
    // q3map2 -deluxe: each wall's page is followed by a page of these direction bytes ((d + 1) * 127.5),
    // and walls use the even pages (not with sharedPage).
    std::function<std::array<uint8_t, 3>(int wall, int x, int y)> direction;
    bool vertexLit = false;
    int32_t textureFlags = 0;  // surface flags of the wall texture (e.g. kQ3SurfSky)
    // Light grid over models[0] bounds with the default 64 64 128 cell: every point has these bytes.
    bool lightGrid = false;
    std::array<uint8_t, 3> gridAmbient{16, 16, 16}, gridDirected{32, 32, 32};
    std::array<uint8_t, 2> gridAngles{0, 0};  // [0] polar from +Z, [1] azimuth; (0,0) = straight up
};

struct RoomInfo {
    int32_t firstFace = 0, firstLightmap = 0, leaf = 0, cluster = 0, rootNode = 0;
};

// Appends a room to `b`: its texture (if b has none, texture 0 "textures/luxel/wall"), 6 faces, lightmaps,
// 6 plane pairs, 6 nodes in a chain (pre-order, first one = rootNode) and 7 leaves: the room interior
// (cluster `cluster`, listing its 6 faces) and 6 outside leaves (cluster -1). Does not add models.
RoomInfo addRoom(Q3MapBuilder& b, const RoomOptions& options, int32_t cluster);

// A complete one-room map: the room above as cluster 0, models[0] = the room bounds and its 6 faces,
// one cluster with a 1x1 PVS (sees itself), worldspawn + info_player_deathmatch at the room centre
// (origin "0 0 128" with the default bounds, angle 90) + a light entity.
Q3MapBuilder makeRoomMap(const RoomOptions& options = {});

// Two rooms for vis tests: room A = options with x shifted to [-768, -256] (cluster 0),
// room B at x in [256, 768] (cluster 1), same y/z as options. Root node 0 splits at x = 0 (front = B).
// PVS: each cluster sees itself; they see each other only if `mutuallyVisible`.
// info_player_deathmatch in room A's centre. models[0] spans both rooms; faces 0..5 room A, 6..11 room B.
Q3MapBuilder makeTwoRoomMap(bool mutuallyVisible, const RoomOptions& options = {});

// A built map held in memory as "mem.bsp" (errors name it; files beside it, such as external lightmaps, are
// looked up under "mem/" in `related`, each request recorded in `opened` when given), and its decode.
MapSource q3MemorySource(std::vector<uint8_t> bytes, std::map<std::string, Bytes> related = {},
                         std::vector<std::string>* opened = nullptr);
World decodeQ3(const Q3MapBuilder& b);

// The room map plus one of everything else (the decoder tests' map): textures flagged sky (1), nodraw (2),
// hint (3), skip (4) and a vertex-lit one (5); a mesh (face 6), a 3x3 patch on lightmap 1 (7), a flare (8);
// a 6-sided brush in leaf 0 and models[0]; effect "textures/fog/thick" on face 0; a light grid.
Q3MapBuilder fullQ3Map();

}  // namespace luxel::test
