#include "edge_faces.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "decode_common.hpp"

namespace luxel::bsp {

EdgeMesh readEdgeMesh(ByteReader& vr, ByteReader& er, ByteReader& sr, size_t edgeIndexBytes) {
    EdgeMesh m;
    m.positions.resize(vr.recordCount(kVertexBytes));
    for (auto& p : m.positions) p = readVec3(vr);

    m.edges.resize(er.recordCount(2 * edgeIndexBytes));
    for (auto& edge : m.edges) {
        const size_t at = er.position();
        for (uint32_t& v : edge) {
            v = edgeIndexBytes == 2 ? er.u16() : er.u32();
            checkIndex(er, at, v, m.positions.size(), "vertex");
        }
    }

    m.surfEdges.resize(sr.recordCount(kSurfEdgeBytes));
    for (auto& s : m.surfEdges) {
        const size_t at = sr.position();
        s = sr.i32();
        // Negative: the edge walked backwards. Edge 0 cannot be negated, so compilers leave it unused.
        checkIndex(sr, at, s < 0 ? -int64_t(s) : int64_t(s), m.edges.size(), "edge");
    }
    return m;
}

FaceHead readFaceHead(ByteReader& r, size_t index, EdgeCount edgeCount, size_t numPlanes, size_t numSurfEdges,
                      size_t numTexinfo) {
    FaceHead f;
    const size_t at = r.position();
    f.plane = r.u16();
    checkIndex(r, at, f.plane, numPlanes, "plane");
    f.side = r.u16();
    f.firstEdge = r.i32();
    f.numEdges = edgeCount == EdgeCount::Signed ? int32_t(r.i16()) : int32_t(r.u16());
    checkRange(r, at + 4, f.firstEdge, f.numEdges, numSurfEdges, "surfedge");
    if (f.numEdges < 3)
        r.fail(at + 8, "face " + std::to_string(index) + " has " + std::to_string(f.numEdges) +
                           " edges (a polygon needs 3)");
    f.texinfo = r.i16();
    checkIndex(r, at + 10, f.texinfo, numTexinfo, "texinfo");
    return f;
}

void checkSurfEdgeSharing(const ByteReader& faces, uint64_t usedSurfEdges, size_t numSurfEdges) {
    if (usedSurfEdges > kMaxSharing * numSurfEdges)
        faces.fail(0, "faces use " + std::to_string(usedSurfEdges) + " surfedges, more than " +
                          std::to_string(kMaxSharing) + " times the " + std::to_string(numSurfEdges) +
                          " in the surfedge lump");
}

bool lightmapExtents(const std::array<double, 2>* st, size_t count, std::array<int32_t, 4>& out, int luxelSize) {
    // The engines (yquake2, QuakeSpasm: CalcSurfaceExtents) evaluate each coordinate in double and store it in
    // a float, as x87 compilers did; pure double gives one luxel more on real maps
    // (bsptool_q2_mp_lobby: 32.000000000000014 -> ceil 3 instead of 2).
    float mins[2] = {INFINITY, INFINITY}, maxs[2] = {-INFINITY, -INFINITY};
    for (size_t k = 0; k < count; ++k)
        for (int a = 0; a < 2; ++a) {
            const float v = float(st[k][size_t(a)]);
            mins[a] = std::min(mins[a], v);
            maxs[a] = std::max(maxs[a], v);
        }
    for (int a = 0; a < 2; ++a) {
        // Beyond 2^28 texels no real map goes; it also keeps the luxel arithmetic inside int32.
        constexpr float kLimit = float(1 << 28);
        // Both ends both ways: a face without corners leaves mins at +inf and maxs at -inf.
        if (!(mins[a] >= -kLimit && mins[a] <= kLimit && maxs[a] >= -kLimit && maxs[a] <= kLimit)) return false;
        const float step = float(luxelSize);
        const int32_t lo = int32_t(std::floor(mins[a] / step)), hi = int32_t(std::ceil(maxs[a] / step));
        out[size_t(a)] = lo;
        out[size_t(a) + 2] = hi - lo + 1;
    }
    return true;
}

}  // namespace luxel::bsp
