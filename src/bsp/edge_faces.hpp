#pragma once
// Faces as Quake 1, Quake 2 and Source store them: a polygon whose corners are walked through surfedges into edges
// into vertices, up to 4 light styles and a lighting offset.
#include <array>
#include <cstdint>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/io/reader.hpp"

namespace luxel::bsp {

inline constexpr int kMaxStyles = 4;
inline constexpr uint8_t kNoStyle = 255;
// Faces may share surfedges or lighting bytes only so much: together they may use at most this many times
// the lump, which bounds what a hostile file can make us allocate.
inline constexpr uint64_t kMaxSharing = 4;

inline constexpr size_t kVertexBytes = 12, kEdgeBytes = 4, kSurfEdgeBytes = 4;

// The vertex, edge and surfedge lumps, validated.
struct EdgeMesh {
    std::vector<Vec3> positions;
    std::vector<std::array<uint32_t, 2>> edges;
    std::vector<int32_t> surfEdges;

    // Corner k of a face whose (range-checked) edges start at surfedge `firstEdge`: the start of surfedge k,
    // which walks its edge backwards when negative.
    Vec3 corner(int32_t firstEdge, uint32_t k) const {
        const int32_t se = surfEdges[size_t(firstEdge) + k];
        return positions[se >= 0 ? edges[size_t(se)][0] : edges[size_t(-int64_t(se))][1]];
    }
};

// `edgeIndexBytes`: 2 (uint16 vertex numbers: Quake 1 BSP29, Quake 2, Source) or 4 (Quake 1 BSP2).
EdgeMesh readEdgeMesh(ByteReader& vertexes, ByteReader& edges, ByteReader& surfEdges, size_t edgeIndexBytes = 2);

// Quake 2's edge count is unsigned, Source's signed.
enum class EdgeCount { Unsigned, Signed };

// The first 12 bytes of a face record, which both formats share: plane, side (Source: side and on-node
// bytes), first surfedge, edge count, texinfo.
struct FaceHead {
    uint16_t plane = 0;
    uint16_t side = 0;
    int32_t firstEdge = 0;
    int32_t numEdges = 0;
    int16_t texinfo = 0;
};

// Reads and checks face `index`'s head at the reader's position: plane, texinfo and the surfedge range
// exist, and the polygon has at least 3 corners.
FaceHead readFaceHead(ByteReader& r, size_t index, EdgeCount edgeCount, size_t numPlanes, size_t numSurfEdges,
                      size_t numTexinfo);

// Throws (at the face lump's start) when the faces together use more than kMaxSharing times the surfedges.
void checkSurfEdgeSharing(const ByteReader& faces, uint64_t usedSurfEdges, size_t numSurfEdges);

// Styles in use: those before the first kNoStyle.
inline int styleCount(const std::array<uint8_t, 4>& styles) {
    int n = 0;
    while (n < kMaxStyles && styles[size_t(n)] != kNoStyle) ++n;
    return n;
}
// Copies the first `count` styles to the surface, the remaining slots unused.
inline void setStyles(Surface& s, const std::array<uint8_t, 4>& styles, int count) {
    for (int k = 0; k < kMaxStyles; ++k) s.styles[size_t(k)] = k < count ? styles[size_t(k)] : kNoStyle;
}

// Lightmap extents {mins s, mins t, size s, size t} (luxels of `luxelSize` texels) of a face from its
// vertices' texture coordinates, exactly as the Quake engines compute them; false when they are not finite or
// absurdly large.
bool lightmapExtents(const std::array<double, 2>* st, size_t count, std::array<int32_t, 4>& out, int luxelSize = 16);

// Triangle fan (0, k, k+1) of a convex polygon with `corners` corners into out[0 .. 3 * (corners - 2)).
// Quake 1, Quake 2 and Source wind faces clockwise seen from the front, as Quake 3 does, so the fan keeps the World
// convention (cross(v1-v0, v2-v0) points away from the front).
inline void writeFan(uint32_t* out, uint32_t corners) {
    for (uint32_t k = 1; k + 1 < corners; ++k) {
        *out++ = 0;
        *out++ = k;
        *out++ = k + 1;
    }
}

}  // namespace luxel::bsp
