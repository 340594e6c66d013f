// Quake 2 drawable data: texinfo (materials), vertices, edges, surfedges and faces -> polygon surfaces.
#include <algorithm>
#include <cmath>

#include "format.hpp"

namespace luxel::q2 {

void decodeMaterials(Context& c, World& w) {
    ByteReader& r = c.lump(kTexinfo);
    c.numTexinfo = r.recordCount(kTexinfoBytes);
    w.materials.resize(c.numTexinfo);
    c.texinfoVecs.resize(c.numTexinfo);
    c.texinfoNext.resize(c.numTexinfo);
    for (size_t i = 0; i < c.numTexinfo; ++i) {
        const size_t at = r.position();
        for (float& v : c.texinfoVecs[i]) v = r.f32();
        Material& m = w.materials[i];
        m.nativeSurfaceFlags = r.u32();
        m.nativeValue = r.i32();
        m.name = r.fixedString(32);
        int32_t next = r.i32();
        checkIndex(r, at + 72, next, c.numTexinfo, "next animation frame texinfo", true);
        c.texinfoNext[i] = next;
        const uint32_t f = m.nativeSurfaceFlags;
        if (f & kSurfSky) m.flags |= kMaterialSky | kMaterialNoLightmap;
        if (f & (kSurfNoDraw | kSurfHint | kSurfSkip)) m.flags |= kMaterialNoDraw;
        // The GL renderer never lightmaps warping or translucent surfaces (R_BuildLightMap refuses them);
        // they are drawn at full brightness.
        if (f & (kSurfWarp | kSurfTrans33 | kSurfTrans66)) m.flags |= kMaterialNoLightmap;
    }
}

namespace {

struct FaceRecord : bsp::FaceHead {
    std::array<uint8_t, 4> styles{};
    int32_t lightOffset = -1;
};

}  // namespace

void decodeFaces(Context& c, World& w) {
    const bsp::EdgeMesh e = bsp::readEdgeMesh(c.lump(kVertexes), c.lump(kEdges), c.lump(kSurfEdges));
    c.numVertices = e.positions.size();
    c.numEdges = e.edges.size();
    c.numSurfEdges = e.surfEdges.size();
    ByteReader& r = c.lump(kFaces);
    c.numFaces = r.recordCount(kFaceBytes);

    // First pass: read and validate, and count vertices so the World arrays are allocated once.
    std::vector<FaceRecord> faces(c.numFaces);
    uint64_t totalVertices = 0;
    for (size_t i = 0; i < c.numFaces; ++i) {
        FaceRecord& f = faces[i];
        const size_t at = r.position();
        static_cast<bsp::FaceHead&>(f) =
            bsp::readFaceHead(r, i, bsp::EdgeCount::Unsigned, c.numPlanes, c.numSurfEdges, c.numTexinfo);
        for (uint8_t& s : f.styles) s = r.u8();
        f.lightOffset = r.i32();
        if (f.lightOffset < -1)
            r.fail(at + 16, "negative lighting offset " + std::to_string(f.lightOffset));
        totalVertices += uint64_t(f.numEdges);
    }
    bsp::checkSurfEdgeSharing(r, totalVertices, c.numSurfEdges);

    w.surfaces.resize(c.numFaces);
    w.texinfoLuxels.resize(c.numFaces);
    w.vertices.resize(size_t(totalVertices));
    w.indices.resize(size_t(totalVertices - 2 * c.numFaces) * 3);
    TexCoords st(static_cast<size_t>(totalVertices));
    std::vector<FaceLightmap> lit;
    const bool haveLighting = c.lump(kLighting).size() > 0;
    uint32_t nextVertex = 0, nextIndex = 0;
    for (size_t i = 0; i < c.numFaces; ++i) {
        FaceRecord& f = faces[i];
        if (c.relayout) f.styles = {0, 255, 255, 255}, f.lightOffset = 0;
        Surface& s = w.surfaces[i];
        const Material& m = w.materials[size_t(f.texinfo)];
        const auto& vecs = c.texinfoVecs[size_t(f.texinfo)];
        const Plane& plane = w.planes[f.plane];
        s.kind = SurfaceKind::Polygon;
        s.material = f.texinfo;
        s.normal = f.side ? -plane.normal : plane.normal;
        w.texinfoLuxels[i].plane = f.side ? Plane{-plane.normal, -plane.dist} : plane;
        const uint32_t corners = uint32_t(f.numEdges);
        s.firstVertex = nextVertex;
        s.numVertices = corners;
        s.firstIndex = nextIndex;
        s.numIndices = (corners - 2) * 3;

        for (uint32_t k = 0; k < corners; ++k) {
            Vertex& v = w.vertices[nextVertex + k];
            v.position = e.corner(f.firstEdge, k);
            v.normal = s.normal;
            auto& tc = st[nextVertex + k];
            // The same expression (doubles, left to right) the engine rounds to float for the extents.
            for (int a = 0; a < 2; ++a)
                tc[size_t(a)] = double(v.position.x) * double(vecs[size_t(a) * 4]) +
                                double(v.position.y) * double(vecs[size_t(a) * 4 + 1]) +
                                double(v.position.z) * double(vecs[size_t(a) * 4 + 2]) +
                                double(vecs[size_t(a) * 4 + 3]);
            // Texel units: normalising needs the texture's size, which only the image knows.
            v.texUV = {float(tc[0]), float(tc[1])};
            v.color = {1, 1, 1, 1};
        }
        bsp::writeFan(w.indices.data() + nextIndex, corners);
        nextIndex += s.numIndices;

        // Lighting: faces the engine draws with a lightmap get one; the others are full bright
        // (R_BuildLightMap: no light data -> 255), translucent ones keep their alpha in the vertex colour.
        const uint32_t flags = m.nativeSurfaceFlags;
        const float alpha = (flags & kSurfTrans33) ? 0.33f : (flags & kSurfTrans66) ? 0.66f : 1.0f;
        const int numStyles = bsp::styleCount(f.styles);
        // A new layout: ericw-tools' light gives every face a lightmap but NODRAW and SKIP ones and "*/trigger"
        // (gamedef_q2_t::surf_is_lightmapped; sky and warp faces too, which the engine draws without it).
        const bool relaid = c.relayout && !(flags & (kSurfNoDraw | kSurfSkip)) &&
                            !(m.name.size() >= 8 && m.name.compare(m.name.size() - 8, 8, "/trigger") == 0);
        const bool lightmapped = c.relayout ? relaid : !(m.flags & kMaterialNoLightmap) && haveLighting && f.lightOffset >= 0;
        if (lightmapped && numStyles == 0) {
            // Light data but no style: the engine adds no maps to a zeroed block, so the face is black.
            for (uint32_t k = 0; k < corners; ++k) w.vertices[nextVertex + k].color = {0, 0, 0, alpha};
        } else if (lightmapped) {
            FaceLightmap fl;
            fl.surface = uint32_t(i);
            fl.lightOffset = f.lightOffset;
            fl.numStyles = numStyles;
            std::array<int32_t, 4> ext;
            if (!bsp::lightmapExtents(&st[nextVertex], corners, ext))
                r.fail(i * kFaceBytes, "face " + std::to_string(i) + " has unusable lightmap extents");
            fl.mins = {ext[0], ext[1]};
            fl.size = {ext[2], ext[3]};
            w.texinfoLuxels[i] = {vecs, w.texinfoLuxels[i].plane, fl.mins, 16, false};
            if (fl.size[0] > kMaxLuxelSide || fl.size[1] > kMaxLuxelSide)
                r.fail(i * kFaceBytes, "face " + std::to_string(i) + " lightmap is " + std::to_string(fl.size[0]) +
                                           "x" + std::to_string(fl.size[1]) + " luxels (at most " +
                                           std::to_string(kMaxLuxelSide) + " a side)");
            bsp::setStyles(s, f.styles, numStyles);
            lit.push_back(fl);
        } else {
            for (uint32_t k = 0; k < corners; ++k) w.vertices[nextVertex + k].color.w = alpha;
        }
        nextVertex += corners;
    }
    decodeLighting(c, w, lit, st);
}

}  // namespace luxel::q2
