// Quake 2 drawable data: texinfo (materials), vertices, edges, surfedges and faces -> polygon surfaces.
#include <algorithm>
#include <cmath>

#include "q2_format.hpp"

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
        r.skip(4);  // value: light emitted by SURF_LIGHT faces, used only by the light compiler
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

struct Edges {
    std::vector<Vec3> positions;
    std::vector<std::array<uint16_t, 2>> edges;
    std::vector<int32_t> surfEdges;
};

Edges readEdges(Context& c) {
    Edges e;
    ByteReader& vr = c.lump(kVertexes);
    c.numVertices = vr.recordCount(kVertexBytes);
    e.positions.resize(c.numVertices);
    for (auto& p : e.positions) p = readVec3(vr);

    ByteReader& er = c.lump(kEdges);
    c.numEdges = er.recordCount(kEdgeBytes);
    e.edges.resize(c.numEdges);
    for (auto& edge : e.edges) {
        const size_t at = er.position();
        for (uint16_t& v : edge) {
            v = er.u16();
            checkIndex(er, at, v, c.numVertices, "vertex");
        }
    }

    ByteReader& sr = c.lump(kSurfEdges);
    c.numSurfEdges = sr.recordCount(kSurfEdgeBytes);
    e.surfEdges.resize(c.numSurfEdges);
    for (auto& s : e.surfEdges) {
        const size_t at = sr.position();
        s = sr.i32();
        // Negative: the edge walked backwards. Edge 0 cannot be negated, so compilers leave it unused.
        int64_t index = s < 0 ? -int64_t(s) : int64_t(s);
        checkIndex(sr, at, index, c.numEdges, "edge");
    }
    return e;
}

struct FaceRecord {
    uint16_t plane = 0;
    int16_t side = 0;
    int32_t firstEdge = 0;
    uint16_t numEdges = 0;
    int16_t texinfo = 0;
    std::array<uint8_t, 4> styles{};
    int32_t lightOffset = -1;
};

}  // namespace

void decodeFaces(Context& c, World& w) {
    const Edges e = readEdges(c);
    ByteReader& r = c.lump(kFaces);
    c.numFaces = r.recordCount(kFaceBytes);

    // First pass: read and validate, and count vertices so the World arrays are allocated once.
    std::vector<FaceRecord> faces(c.numFaces);
    uint64_t totalVertices = 0;
    for (size_t i = 0; i < c.numFaces; ++i) {
        FaceRecord& f = faces[i];
        const size_t at = r.position();
        f.plane = r.u16();
        checkIndex(r, at, f.plane, c.numPlanes, "plane");
        f.side = r.i16();
        f.firstEdge = r.i32();
        f.numEdges = r.u16();
        checkRange(r, at + 4, f.firstEdge, f.numEdges, c.numSurfEdges, "surfedge");
        if (f.numEdges < 3)
            r.fail(at + 8, "face " + std::to_string(i) + " has " + std::to_string(f.numEdges) +
                               " edges (a polygon needs 3)");
        f.texinfo = r.i16();
        checkIndex(r, at + 10, f.texinfo, c.numTexinfo, "texinfo");
        for (uint8_t& s : f.styles) s = r.u8();
        f.lightOffset = r.i32();
        if (f.lightOffset < -1)
            r.fail(at + 16, "negative lighting offset " + std::to_string(f.lightOffset));
        totalVertices += f.numEdges;
    }
    if (totalVertices > kMaxSharing * c.numSurfEdges)
        r.fail(0, "faces use " + std::to_string(totalVertices) + " surfedges, more than " +
                      std::to_string(kMaxSharing) + " times the " + std::to_string(c.numSurfEdges) +
                      " in the surfedge lump");

    w.surfaces.resize(c.numFaces);
    w.vertices.resize(size_t(totalVertices));
    w.indices.resize(size_t(totalVertices - 2 * c.numFaces) * 3);
    TexCoords st(static_cast<size_t>(totalVertices));
    std::vector<FaceLightmap> lit;
    const bool haveLighting = c.lump(kLighting).size() > 0;
    uint32_t nextVertex = 0, nextIndex = 0;
    for (size_t i = 0; i < c.numFaces; ++i) {
        const FaceRecord& f = faces[i];
        Surface& s = w.surfaces[i];
        const Material& m = w.materials[size_t(f.texinfo)];
        const auto& vecs = c.texinfoVecs[size_t(f.texinfo)];
        const Plane& plane = w.planes[f.plane];
        s.kind = SurfaceKind::Polygon;
        s.material = f.texinfo;
        s.normal = f.side ? -plane.normal : plane.normal;
        s.firstVertex = nextVertex;
        s.numVertices = f.numEdges;
        s.firstIndex = nextIndex;
        s.numIndices = uint32_t(f.numEdges - 2) * 3;

        // Vertex k starts surfedge k. Quake 2 winds faces clockwise seen from the front, as Quake 3 does,
        // so the fan (0, k, k+1) keeps the World convention (cross(v1-v0, v2-v0) against the normal).
        for (uint32_t k = 0; k < f.numEdges; ++k) {
            const int32_t se = e.surfEdges[size_t(f.firstEdge) + k];
            const uint16_t vi = se >= 0 ? e.edges[size_t(se)][0] : e.edges[size_t(-int64_t(se))][1];
            Vertex& v = w.vertices[nextVertex + k];
            v.position = e.positions[vi];
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
        for (uint32_t k = 1; k + 1 < f.numEdges; ++k) {
            w.indices[nextIndex++] = 0;
            w.indices[nextIndex++] = k;
            w.indices[nextIndex++] = k + 1;
        }

        // Lighting: faces the engine draws with a lightmap get one; the others are full bright
        // (R_BuildLightMap: no light data -> 255), translucent ones keep their alpha in the vertex colour.
        const uint32_t flags = m.nativeSurfaceFlags;
        const float alpha = (flags & kSurfTrans33) ? 0.33f : (flags & kSurfTrans66) ? 0.66f : 1.0f;
        int numStyles = 0;
        while (numStyles < kMaxStyles && f.styles[size_t(numStyles)] != kNoStyle) ++numStyles;
        const bool lightmapped = !(m.flags & kMaterialNoLightmap) && haveLighting && f.lightOffset >= 0;
        if (lightmapped && numStyles == 0) {
            // Light data but no style: the engine adds no maps to a zeroed block, so the face is black.
            for (uint32_t k = 0; k < f.numEdges; ++k) w.vertices[nextVertex + k].color = {0, 0, 0, alpha};
        } else if (lightmapped) {
            FaceLightmap fl;
            fl.surface = uint32_t(i);
            fl.lightOffset = f.lightOffset;
            fl.numStyles = numStyles;
            std::array<int32_t, 4> ext;
            if (!lightmapExtents(&st[nextVertex], f.numEdges, ext))
                r.fail(i * kFaceBytes, "face " + std::to_string(i) + " has unusable lightmap extents");
            fl.mins = {ext[0], ext[1]};
            fl.size = {ext[2], ext[3]};
            if (fl.size[0] > kMaxLuxelSide || fl.size[1] > kMaxLuxelSide)
                r.fail(i * kFaceBytes, "face " + std::to_string(i) + " lightmap is " + std::to_string(fl.size[0]) +
                                           "x" + std::to_string(fl.size[1]) + " luxels (at most " +
                                           std::to_string(kMaxLuxelSide) + " a side)");
            for (int k = 0; k < kMaxStyles; ++k) s.styles[size_t(k)] = k < numStyles ? f.styles[size_t(k)] : kNoStyle;
            lit.push_back(fl);
        } else {
            for (uint32_t k = 0; k < f.numEdges; ++k) w.vertices[nextVertex + k].color.w = alpha;
        }
        nextVertex += f.numEdges;
    }
    decodeLighting(c, w, lit, st);
}

bool lightmapExtents(const std::array<double, 2>* st, size_t count, std::array<int32_t, 4>& out) {
    // The engine (yquake2, QuakeSpasm: CalcSurfaceExtents) evaluates each coordinate in double and stores
    // it in a float, as x87 compilers did; pure double gives one luxel more on real maps
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
        if (!(mins[a] >= -kLimit && maxs[a] <= kLimit)) return false;
        const int32_t lo = int32_t(std::floor(mins[a] / 16)), hi = int32_t(std::ceil(maxs[a] / 16));
        out[size_t(a)] = lo;
        out[size_t(a) + 2] = hi - lo + 1;
    }
    return true;
}

}  // namespace luxel::q2
