// Source displacements: a 4-cornered base face, a power (2-4) and (2^p+1)^2 displacement vertices become a
// Displacement surface with its own vertex grid and triangle list, built as the engine builds it
// (CCoreDispInfo::GenerateDispSurf / CalcDispSurfCoords and the full-resolution render indices).
#include <algorithm>
#include <cmath>

#include "format.hpp"

namespace luxel::vbsp {

namespace {

struct DispVert {
    Vec3 vec;
    float dist = 0, alpha = 0;
};

}  // namespace

void decodeDisplacements(Context& c, World& w) {
    ByteReader& vr = c.lump(kDispVerts);
    c.numDispVerts = vr.recordCount(kDispVertBytes);
    ByteReader& tr = c.lump(kDispTris);
    c.numDispTris = tr.recordCount(kDispTriBytes);  // walkable/buildable tags: physics only
    ByteReader& r = c.lump(kDispInfo);
    const ByteReader& faces = c.lump(c.facesLump);

    // Vertices the displacement faces build so far: faces sharing a dispinfo each build its whole grid again
    // (289 vertices from a 56-byte face record), so sharing is bounded like surfedges and lighting bytes.
    uint64_t builtVerts = 0;
    for (size_t i = 0; i < c.numFaces; ++i) {
        const FaceRecord& f = c.faces[i];
        if (f.dispinfo < 0) continue;
        const size_t at = size_t(f.dispinfo) * kDispInfoBytes;
        r.seek(at);
        const Vec3 start = readVec3(r);
        const int32_t vertStart = r.i32(), triStart = r.i32(), power = r.i32();
        r.skip(12);  // min tesselation, smoothing angle, contents
        const uint16_t mapFace = r.u16();
        if (power < 2 || power > 4)
            r.fail(at + 20, "displacement power " + std::to_string(power) + " (2, 3 or 4 are valid)");
        const int32_t n = (1 << power) + 1;
        checkRange(r, at + 12, vertStart, int64_t(n) * n, c.numDispVerts, "displacement vertex");
        checkRange(r, at + 16, triStart, 2 * int64_t(n - 1) * (n - 1), c.numDispTris, "displacement triangle");
        builtVerts += uint64_t(n) * uint64_t(n);
        if (builtVerts > kMaxSharing * c.numDispVerts)
            faces.fail(i * kFaceBytes + 12, "displacement faces 0.." + std::to_string(i) + " use " +
                                                std::to_string(builtVerts) + " displacement vertices, more than " +
                                                std::to_string(kMaxSharing) + " times the " +
                                                std::to_string(c.numDispVerts) + " in the dispverts lump");
        if (mapFace != i)
            w.problems.push_back("dispinfo " + std::to_string(f.dispinfo) + " names face " + std::to_string(mapFace) +
                                 " but face " + std::to_string(i) + " uses it");
        if (f.numEdges != 4)
            faces.fail(i * kFaceBytes + 8, "displacement face " + std::to_string(i) + " has " +
                                               std::to_string(f.numEdges) + " corners (needs 4)");

        // The corner nearest startPosition comes first (FindSurfPointStartIndex + AdjustSurfPointData).
        std::array<Vec3, 4> p;
        int first = 0;
        float best = INFINITY;
        for (uint32_t k = 0; k < 4; ++k) {
            p[k] = c.mesh.corner(f.firstEdge, k);
            const float d = dot(p[k] - start, p[k] - start);
            if (d < best) best = d, first = int(k);
        }
        std::array<Vec3, 4> corner;
        for (int k = 0; k < 4; ++k) corner[size_t(k)] = p[size_t((k + first) % 4)];

        Surface& s = w.surfaces[i];
        const Texinfo& t = c.texinfo[size_t(f.texinfo)];
        s.kind = SurfaceKind::Displacement;
        s.firstVertex = uint32_t(w.vertices.size());
        s.numVertices = uint32_t(n * n);
        s.firstIndex = uint32_t(w.indices.size());
        s.numIndices = uint32_t(6 * (n - 1) * (n - 1));
        const bool styleless = s.styles[0] == kNoStyle && f.lightOffset >= 0 && c.lump(c.lightingLump).size() > 0 &&
                               !(w.materials[size_t(f.texinfo)].flags & kMaterialNoLightmap);
        const float light = styleless ? 0.0f : 1.0f;
        vr.seek(size_t(vertStart) * kDispVertBytes);
        const float step = 1.0f / float(n - 1);
        for (int32_t row = 0; row < n; ++row) {
            // Row `row` runs from the corner0->corner1 edge to the corner3->corner2 edge.
            const Vec3 a = lerp(corner[0], corner[1], float(row) * step);
            const Vec3 b = lerp(corner[3], corner[2], float(row) * step);
            for (int32_t col = 0; col < n; ++col) {
                DispVert dv;
                dv.vec = readVec3(vr);
                dv.dist = vr.f32();
                dv.alpha = vr.f32();
                const Vec3 flat = lerp(a, b, float(col) * step);
                Vertex v;
                v.position = flat + dv.vec * dv.dist;
                v.normal = s.normal;
                // Texture coordinates follow the flat base point (the engine lerps the corners' coordinates).
                v.texUV = textureUV(t, flat);
                const float alpha = std::isfinite(dv.alpha) ? std::clamp(dv.alpha / 255.0f, 0.0f, 1.0f) : 1.0f;
                v.color = {light, light, light, alpha};
                w.vertices.push_back(v);
                // Luxel corners (0,0), (0,H), (W,H), (W,0) on corners 0..3 (BuildDispSurfInit), lerped alike.
                c.luxels.push_back({double(f.luxelSize[0]) * col / (n - 1), double(f.luxelSize[1]) * row / (n - 1)});
            }
        }
        // Alternating diagonals by index parity (CCoreDispInfo::BuildTriTLtoBR / BuildTriBLtoTR). Moving one
        // row goes toward corner 1 and one column toward corner 3, so (v, v+n, v+1) winds like the base
        // face's fan (0, 1, 3) and keeps the World convention.
        for (int32_t row = 0; row + 1 < n; ++row)
            for (int32_t col = 0; col + 1 < n; ++col) {
                const uint32_t v = uint32_t(row * n + col), down = v + uint32_t(n);
                const uint32_t tri[6] = {v, down, v + 1, v + 1, down, down + 1};
                const uint32_t alt[6] = {v, down, down + 1, v, down + 1, v + 1};
                const uint32_t* use = (v % 2 == 1) ? tri : alt;
                w.indices.insert(w.indices.end(), use, use + 6);
            }
        // Smooth normals: area-weighted triangle normals, against the winding (which faces away).
        std::vector<Vec3> acc(size_t(n) * size_t(n), Vec3{0, 0, 0});
        const Vertex* base = &w.vertices[s.firstVertex];
        for (uint32_t k = 0; k < s.numIndices; k += 3) {
            const uint32_t* ix = &w.indices[s.firstIndex + k];
            const Vec3 nrm = -cross(base[ix[1]].position - base[ix[0]].position, base[ix[2]].position - base[ix[0]].position);
            for (int e = 0; e < 3; ++e) acc[ix[e]] = acc[ix[e]] + nrm;
        }
        for (uint32_t k = 0; k < s.numVertices; ++k) {
            const float len = length(acc[k]);
            if (len > 0 && std::isfinite(len)) w.vertices[s.firstVertex + k].normal = acc[k] * (1.0f / len);
        }
    }
}

}  // namespace luxel::vbsp
