// Source faces: vertices, edges, surfedges and the face lump (LDR 7 or HDR 58) -> one Polygon surface per
// face, at the face's index. Faces with a displacement are left for source/displacement.cpp to build.
#include <algorithm>
#include <cmath>

#include "format.hpp"

namespace luxel::vbsp {

void decodeFaces(Context& c, World& w) {
    c.mesh = bsp::readEdgeMesh(c.lump(kVertexes), c.lump(kEdges), c.lump(kSurfEdges));
    c.numVertices = c.mesh.positions.size();
    c.numEdges = c.mesh.edges.size();
    c.numSurfEdges = c.mesh.surfEdges.size();
    c.numDispInfos = c.lump(kDispInfo).recordCount(kDispInfoBytes);
    ByteReader& r = c.lump(c.facesLump);
    c.numFaces = r.recordCount(kFaceBytes);
    c.faces.resize(c.numFaces);
    uint64_t totalVertices = 0, totalIndices = 0;
    for (size_t i = 0; i < c.numFaces; ++i) {
        FaceRecord& f = c.faces[i];
        const size_t at = r.position();
        static_cast<bsp::FaceHead&>(f) =
            bsp::readFaceHead(r, i, bsp::EdgeCount::Signed, c.numPlanes, c.numSurfEdges, c.numTexinfo);
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
        if (f.dispinfo < 0) {
            totalVertices += uint64_t(f.numEdges);
            totalIndices += uint64_t(f.numEdges - 2) * 3;
        }
    }
    bsp::checkSurfEdgeSharing(r, totalVertices, c.numSurfEdges);

    w.surfaces.resize(c.numFaces);
    w.vertices.reserve(size_t(totalVertices));
    w.indices.reserve(size_t(totalVertices) * 3);  // displacements append theirs
    w.indices.resize(size_t(totalIndices));
    uint32_t nextIndex = 0;
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

        const int numStyles = bsp::styleCount(f.styles);
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
                bsp::setStyles(s, f.styles, numStyles);
            }
        }
        if (f.dispinfo >= 0) {
            s.kind = SurfaceKind::Displacement;
            continue;  // built by decodeDisplacements
        }

        const uint32_t corners = uint32_t(f.numEdges);
        s.kind = SurfaceKind::Polygon;
        s.firstVertex = uint32_t(w.vertices.size());
        s.numVertices = corners;
        s.firstIndex = nextIndex;
        s.numIndices = (corners - 2) * 3;
        // Lit but styleless: the engine adds no maps to a cleared block, so the face is black.
        const float light = lightmapped && numStyles == 0 ? 0.0f : 1.0f;
        for (uint32_t k = 0; k < corners; ++k) {
            Vertex v;
            v.position = c.mesh.corner(f.firstEdge, k);
            v.normal = s.normal;
            v.texUV = textureUV(t, v.position);
            v.color = {light, light, light, 1.0f};
            w.vertices.push_back(v);
            c.luxels.push_back(luxelCoord(t, f, v.position));
        }
        bsp::writeFan(w.indices.data() + nextIndex, corners);
        nextIndex += s.numIndices;
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
