// Source faces: vertices, edges, surfedges and the face lump (LDR 7 or HDR 58) -> one Polygon surface per
// face, at the face's index. Faces with a displacement are left for vbsp_displacement.cpp to build.
#include <algorithm>
#include <cmath>

#include "vbsp_format.hpp"

namespace luxel::vbsp {

namespace {

void readEdges(Context& c) {
    ByteReader& vr = c.lump(kVertexes);
    c.numVertices = vr.recordCount(kVertexBytes);
    c.positions.resize(c.numVertices);
    for (auto& p : c.positions) p = readVec3(vr);

    ByteReader& er = c.lump(kEdges);
    c.numEdges = er.recordCount(kEdgeBytes);
    c.edges.resize(c.numEdges);
    for (auto& edge : c.edges) {
        const size_t at = er.position();
        for (uint16_t& v : edge) {
            v = er.u16();
            checkIndex(er, at, v, c.numVertices, "vertex");
        }
    }

    ByteReader& sr = c.lump(kSurfEdges);
    c.numSurfEdges = sr.recordCount(kSurfEdgeBytes);
    c.surfEdges.resize(c.numSurfEdges);
    for (auto& s : c.surfEdges) {
        const size_t at = sr.position();
        s = sr.i32();
        // Negative: the edge walked backwards (edge 0 cannot be negated, so compilers leave it unused).
        checkIndex(sr, at, s < 0 ? -int64_t(s) : int64_t(s), c.numEdges, "edge");
    }
}

}  // namespace

Vec3 faceVertex(const Context& c, const FaceRecord& f, uint32_t k) {
    const int32_t se = c.surfEdges[size_t(f.firstEdge) + k];
    return c.positions[se >= 0 ? c.edges[size_t(se)][0] : c.edges[size_t(-int64_t(se))][1]];
}

void decodeFaces(Context& c, World& w) {
    readEdges(c);
    c.numDispInfos = c.lump(kDispInfo).recordCount(kDispInfoBytes);
    ByteReader& r = c.lump(c.facesLump);
    c.numFaces = r.recordCount(kFaceBytes);
    c.faces.resize(c.numFaces);
    uint64_t totalVertices = 0;
    for (size_t i = 0; i < c.numFaces; ++i) {
        FaceRecord& f = c.faces[i];
        const size_t at = r.position();
        f.plane = r.u16();
        checkIndex(r, at, f.plane, c.numPlanes, "plane");
        f.side = r.u8();
        r.skip(1);  // on node
        f.firstEdge = r.i32();
        f.numEdges = r.i16();
        checkRange(r, at + 4, f.firstEdge, f.numEdges, c.numSurfEdges, "surfedge");
        if (f.numEdges < 3)
            r.fail(at + 8, "face " + std::to_string(i) + " has " + std::to_string(f.numEdges) +
                               " edges (a polygon needs 3)");
        f.texinfo = r.i16();
        checkIndex(r, at + 10, f.texinfo, c.numTexinfo, "texinfo");
        f.dispinfo = r.i16();
        checkIndex(r, at + 12, f.dispinfo, c.numDispInfos, "dispinfo", true);
        r.skip(2);  // fog volume
        for (uint8_t& s : f.styles) s = r.u8();
        f.lightOffset = r.i32();
        if (f.lightOffset < -1) r.fail(at + 20, "negative lighting offset " + std::to_string(f.lightOffset));
        r.skip(4);  // area
        for (int32_t& m : f.luxelMins) m = r.i32();
        for (int32_t& s : f.luxelSize) s = r.i32();
        r.skip(12);  // original face, primitives, smoothing groups
        if (f.dispinfo < 0) totalVertices += uint64_t(f.numEdges);
    }
    if (totalVertices > kMaxSharing * c.numSurfEdges)
        r.fail(0, "faces use " + std::to_string(totalVertices) + " surfedges, more than " +
                      std::to_string(kMaxSharing) + " times the " + std::to_string(c.numSurfEdges) + " there are");

    w.surfaces.resize(c.numFaces);
    w.vertices.reserve(size_t(totalVertices));
    w.indices.reserve(size_t(totalVertices) * 3);
    const bool haveLighting = c.lump(c.lightingLump).size() > 0;
    for (size_t i = 0; i < c.numFaces; ++i) {
        const FaceRecord& f = c.faces[i];
        Surface& s = w.surfaces[i];
        const Plane& plane = w.planes[f.plane];
        s.material = f.texinfo;
        // planenum is the face's own plane (vbsp emits the exact plane, not the even one of the pair);
        // `side` only says the face lies against its node's split plane. Checked on every shared map:
        // flipping by `side` turns about half of the faces inside out.
        s.normal = plane.normal;
        const Material& m = w.materials[size_t(f.texinfo)];
        const Texinfo& t = c.texinfo[size_t(f.texinfo)];

        int numStyles = 0;
        while (numStyles < kMaxStyles && f.styles[size_t(numStyles)] != kNoStyle) ++numStyles;
        const bool lightmapped = haveLighting && f.lightOffset >= 0 && !(m.flags & kMaterialNoLightmap);
        if (lightmapped) {
            for (int a = 0; a < 2; ++a)
                if (f.luxelSize[size_t(a)] < 0 || f.luxelSize[size_t(a)] >= kMaxLuxelSide)
                    r.fail(i * kFaceBytes + 36, "face " + std::to_string(i) + " lightmap is " +
                                                    std::to_string(f.luxelSize[0]) + "x" +
                                                    std::to_string(f.luxelSize[1]) + " (+1) luxels (at most " +
                                                    std::to_string(kMaxLuxelSide) + " a side)");
            if (numStyles > 0) {
                FaceLightmap fl;
                fl.surface = uint32_t(i);
                fl.lightOffset = f.lightOffset;
                fl.numStyles = numStyles;
                // vrad writes 4 blocks a style for bump-lit materials: flat first, then the 3 basis directions.
                fl.blocks = (t.flags & kSurfBumpLight) ? kBumpBlocks : 1;
                fl.mins = f.luxelMins;
                fl.size = f.luxelSize;
                c.lit.push_back(fl);
                for (int k = 0; k < kMaxStyles; ++k)
                    s.styles[size_t(k)] = k < numStyles ? f.styles[size_t(k)] : kNoStyle;
            }
        }
        if (f.dispinfo >= 0) {
            s.kind = SurfaceKind::Displacement;
            continue;  // built by decodeDisplacements
        }

        s.kind = SurfaceKind::Polygon;
        s.firstVertex = uint32_t(w.vertices.size());
        s.numVertices = uint32_t(f.numEdges);
        s.firstIndex = uint32_t(w.indices.size());
        s.numIndices = uint32_t(f.numEdges - 2) * 3;
        // Lit but styleless: the engine adds no maps to a cleared block, so the face is black.
        const float light = lightmapped && numStyles == 0 ? 0.0f : 1.0f;
        for (uint32_t k = 0; k < uint32_t(f.numEdges); ++k) {
            Vertex v;
            v.position = faceVertex(c, f, k);
            v.normal = s.normal;
            v.texUV = textureUV(t, v.position);
            v.color = {light, light, light, 1.0f};
            w.vertices.push_back(v);
            c.luxels.push_back(luxelCoord(t, f, v.position));
        }
        // Source winds faces clockwise seen from the front as Quake does, so the fan (0, k, k+1) keeps
        // the World convention (cross(v1-v0, v2-v0) points away from the front).
        for (uint32_t k = 1; k + 1 < uint32_t(f.numEdges); ++k) {
            w.indices.push_back(0);
            w.indices.push_back(k);
            w.indices.push_back(k + 1);
        }
    }
}

Vec2 textureUV(const Texinfo& t, Vec3 p) {
    const auto& v = t.textureVecs;
    double s = double(p.x) * v[0] + double(p.y) * v[1] + double(p.z) * v[2] + v[3];
    double u = double(p.x) * v[4] + double(p.y) * v[5] + double(p.z) * v[6] + v[7];
    // Normalised by the texture's size, as the engine sends them to the GPU (texels when it is unknown).
    if (t.width > 0) s /= t.width;
    if (t.height > 0) u /= t.height;
    return {float(s), float(u)};
}

std::array<double, 2> luxelCoord(const Texinfo& t, const FaceRecord& f, Vec3 p) {
    const auto& v = t.lightmapVecs;
    return {double(p.x) * v[0] + double(p.y) * v[1] + double(p.z) * v[2] + v[3] - f.luxelMins[0],
            double(p.x) * v[4] + double(p.y) * v[5] + double(p.z) * v[6] + v[7] - f.luxelMins[1]};
}

}  // namespace luxel::vbsp
