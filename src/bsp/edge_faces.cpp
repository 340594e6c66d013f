#include "edge_faces.hpp"

#include <string>

#include "decode_common.hpp"

namespace luxel::bsp {

EdgeMesh readEdgeMesh(ByteReader& vr, ByteReader& er, ByteReader& sr) {
    EdgeMesh m;
    m.positions.resize(vr.recordCount(kVertexBytes));
    for (auto& p : m.positions) p = readVec3(vr);

    m.edges.resize(er.recordCount(kEdgeBytes));
    for (auto& edge : m.edges) {
        const size_t at = er.position();
        for (uint16_t& v : edge) {
            v = er.u16();
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

}  // namespace luxel::bsp
