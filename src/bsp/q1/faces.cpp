// Quake 1 drawable data: miptex names and texinfo (materials), vertices, edges, surfedges and faces -> polygon
// surfaces, with the BSPX lumps that change a face's lightmap (LMSHIFT, LMOFFSET, LMSTYLE, DECOUPLED_LM).
#include <algorithm>
#include <cmath>

#include "luxel/bsp/decoupled_layout.hpp"
#include "luxel/util/text.hpp"
#include "format.hpp"

namespace luxel::q1 {

namespace {

constexpr size_t kMiptexHeaderBytes = 40;  // name[16], width, height, 4 offsets
constexpr size_t kDecoupledBytes = 40;     // width, height (uint16), offset, 2x4 floats

bool startsWithNoCase(const std::string& s, const char* prefix) {
    return toLowerAscii(s).rfind(prefix, 0) == 0;
}

}  // namespace

void decodeMaterials(Context& c, World& w) {
    // Miptex directory: a count, then one offset per texture (-1: none), each to a 40-byte header.
    ByteReader& tex = c.lump(kTextures);
    w.embeddedTextures.assign(tex.data().begin(), tex.data().end());
    std::vector<std::string> names;
    std::vector<bool> present;  // the slot has a texture (not -1)
    if (tex.size() > 0) {
        const int32_t count = tex.i32();
        if (count < 0 || uint64_t(count) * 4 > tex.remaining())
            tex.fail(0, "miptex count " + std::to_string(count) + " does not fit in the " + std::to_string(tex.size()) +
                            "-byte lump");
        c.numMiptex = size_t(count);
        names.resize(c.numMiptex);
        present.resize(c.numMiptex, false);
        for (size_t i = 0; i < c.numMiptex; ++i) {
            const size_t at = tex.position();
            const int32_t offset = tex.i32();
            if (offset == -1) continue;  // a texture qbsp could not find: drawn missing
            if (offset < 0 || uint64_t(offset) + kMiptexHeaderBytes > tex.size())
                tex.fail(at, "miptex " + std::to_string(i) + " offset " + std::to_string(offset) +
                                 " leaves no room for its header in the " + std::to_string(tex.size()) + "-byte lump");
            ByteReader header = tex.sub(uint64_t(offset), kMiptexHeaderBytes, "textures");
            names[i] = header.fixedString(16);
            present[i] = true;
        }
    }

    ByteReader& r = c.lump(kTexinfo);
    c.numTexinfo = r.recordCount(kTexinfoBytes);
    w.materials.resize(c.numTexinfo);
    c.texinfoVecs.resize(c.numTexinfo);
    c.texinfoMiptex.resize(c.numTexinfo);
    c.texinfoFlags.resize(c.numTexinfo);
    const bool halfLife = c.variant == Variant::HalfLife;
    for (size_t i = 0; i < c.numTexinfo; ++i) {
        for (float& v : c.texinfoVecs[i]) v = r.f32();
        const int32_t miptex = r.i32();
        const uint32_t flags = r.u32();
        c.texinfoFlags[i] = flags;
        // qbsp writes -1 (or an index past a short directory) for a face whose texture it lacked; the engine
        // then draws its "notexture". A miptex outside the directory is treated the same.
        const bool known = miptex >= 0 && size_t(miptex) < c.numMiptex && present[size_t(miptex)];
        c.texinfoMiptex[i] = known ? miptex : -1;
        Material& m = w.materials[i];
        m.name = known ? names[size_t(miptex)] : std::string();
        m.nativeSurfaceFlags = flags;
        m.nativeValue = c.texinfoMiptex[i];
        // Sky: Quake's textures named sky*, Half-Life's "sky". Liquids: Quake's *name, Half-Life's !name
        // (and *name too); both warp and are drawn without a lightmap (TEX_SPECIAL marks them in Quake).
        if (startsWithNoCase(m.name, "sky")) m.flags |= kMaterialSky | kMaterialNoLightmap;
        const bool liquid = !m.name.empty() && (m.name[0] == '*' || (halfLife && m.name[0] == '!'));
        // A new layout lights liquids qbsp left without TEX_SPECIAL (-splitturb), as ericw-tools' light does.
        if ((liquid && !(c.relayout && !(flags & kTexSpecial))) || (!halfLife && (flags & kTexSpecial))) m.flags |= kMaterialNoLightmap;
        // Tool textures the engines never draw (qbsp drops most; brush entities keep theirs).
        const std::string lower = toLowerAscii(m.name);
        if (lower == "trigger" || lower == "clip" || lower == "aaatrigger" || lower == "null" || lower == "skip" ||
            lower == "hint" || lower == "origin")
            m.flags |= kMaterialNoDraw;
    }
}

namespace {

// ericw-tools' light gives a face a lightmap unless its texinfo is TEX_SPECIAL (sky, liquids without
// -splitturb) or its texture is "trigger" or "skip" (gamedef_q1_like_t::surf_is_lightmapped; Half-Life too).
bool takesLight(uint32_t texinfoFlags, const std::string& texture) {
    const std::string lower = toLowerAscii(texture);
    return !(texinfoFlags & kTexSpecial) && lower != "trigger" && lower != "skip";
}

struct FaceRecord {
    uint32_t plane = 0;
    bool side = false;
    int32_t firstEdge = 0, numEdges = 0, texinfo = 0;
    std::array<uint8_t, 4> styles{};
    int64_t lightOffset = -1;
};

// Quake's lit water (QuakeSpasm's haslitwater, ericw-tools' qbsp -splitturb): a map with light data where some
// liquid face qbsp left without TEX_SPECIAL has light of its own draws all such liquids with their lightmaps;
// the others keep TEX_SPECIAL's unlit warp. Half-Life's liquids are never lit.
void litWaterLightmaps(const Context& c, World& w, const std::vector<FaceRecord>& faces, bool mapHasLight) {
    if (c.relayout || c.variant == Variant::HalfLife || !mapHasLight) return;
    auto litLiquid = [&](size_t texinfo) {
        const std::string& name = w.materials[texinfo].name;
        return !name.empty() && name[0] == '*' && !(c.texinfoFlags[texinfo] & kTexSpecial);
    };
    const bool any = std::any_of(faces.begin(), faces.end(),
                                 [&](const FaceRecord& f) { return f.lightOffset >= 0 && litLiquid(size_t(f.texinfo)); });
    if (!any) return;
    for (size_t i = 0; i < c.numTexinfo; ++i)
        if (litLiquid(i)) w.materials[i].flags &= ~kMaterialNoLightmap;
}

// BSP2 / 2PSB faces: every field 32-bit.
FaceRecord readWideFace(ByteReader& r, size_t index, const Context& c) {
    FaceRecord f;
    const size_t at = r.position();
    const int32_t plane = r.i32();
    checkIndex(r, at, plane, c.numPlanes, "plane");
    f.plane = uint32_t(plane);
    f.side = r.i32() != 0;
    f.firstEdge = r.i32();
    f.numEdges = r.i32();
    checkRange(r, at + 8, f.firstEdge, f.numEdges, c.numSurfEdges, "surfedge");
    if (f.numEdges < 3)
        r.fail(at + 12, "face " + std::to_string(index) + " has " + std::to_string(f.numEdges) +
                            " edges (a polygon needs 3)");
    f.texinfo = r.i32();
    checkIndex(r, at + 16, f.texinfo, c.numTexinfo, "texinfo");
    return f;
}

// A BSPX lump of one fixed-size record per face, or null when absent; throws when its size does not match.
const ByteReader* perFaceLump(const Context& c, const char* name, size_t recordBytes) {
    const ByteReader* r = c.bspxLump(name);
    if (r && r->size() != c.numFaces * recordBytes)
        r->fail(0, std::string(name) + " holds " + std::to_string(r->size()) + " bytes, not " +
                       std::to_string(recordBytes) + " for each of the " + std::to_string(c.numFaces) + " faces");
    return r;
}

}  // namespace

void decodeFaces(Context& c, World& w) {
    const bsp::EdgeMesh e =
        bsp::readEdgeMesh(c.lump(kVertexes), c.lump(kEdges), c.lump(kSurfEdges), c.layout.edgeIndexBytes);
    c.numVertices = e.positions.size();
    c.numEdges = e.edges.size();
    c.numSurfEdges = e.surfEdges.size();
    ByteReader& r = c.lump(kFaces);
    c.numFaces = r.recordCount(c.layout.faceBytes);

    std::vector<FaceRecord> faces(c.numFaces);
    uint64_t totalVertices = 0;
    for (size_t i = 0; i < c.numFaces; ++i) {
        FaceRecord& f = faces[i];
        const size_t at = r.position();
        if (c.layout.wide) {
            f = readWideFace(r, i, c);
        } else {
            const bsp::FaceHead h = bsp::readFaceHead(r, i, bsp::EdgeCount::Unsigned, c.numPlanes, c.numSurfEdges, c.numTexinfo);
            f.plane = h.plane, f.side = h.side != 0, f.firstEdge = h.firstEdge, f.numEdges = h.numEdges, f.texinfo = h.texinfo;
        }
        for (uint8_t& s : f.styles) s = r.u8();
        f.lightOffset = r.i32();
        if (f.lightOffset < -1) r.fail(at + c.layout.faceBytes - 4, "negative lighting offset " + std::to_string(f.lightOffset));
        totalVertices += uint64_t(f.numEdges);
    }
    bsp::checkSurfEdgeSharing(r, totalVertices, c.numSurfEdges);
    const bool mapHasLight = c.lump(kLighting).size() > 0;
    litWaterLightmaps(c, w, faces, mapHasLight);

    const ByteReader* lmShift = perFaceLump(c, "LMSHIFT", 1);
    const ByteReader* lmOffset = perFaceLump(c, "LMOFFSET", 4);
    const ByteReader* lmStyle = perFaceLump(c, "LMSTYLE", 4);
    const ByteReader* decoupled = c.relayout ? nullptr : perFaceLump(c, "DECOUPLED_LM", kDecoupledBytes);
    if (c.bspxLump("LMSTYLE16")) w.problems.push_back("BSPX LMSTYLE16 (styles past 255) is not read; the face styles are used");

    w.surfaces.resize(c.numFaces);
    w.texinfoLuxels.resize(c.numFaces);
    w.vertices.resize(size_t(totalVertices));
    w.indices.resize(size_t(totalVertices - 2 * c.numFaces) * 3);
    std::vector<FaceLightmap> lit;
    uint32_t nextVertex = 0, nextIndex = 0;
    for (size_t i = 0; i < c.numFaces; ++i) {
        FaceRecord& f = faces[i];
        if (c.relayout) {
            f.lightOffset = 0;
            f.styles = {0, 255, 255, 255};
        }
        if (lmOffset && !c.relayout) f.lightOffset = ByteReader(*lmOffset).sub(i * 4, 4, lmOffset->lump()).i32();
        if (lmStyle && !c.relayout)
            for (size_t k = 0; k < 4; ++k) f.styles[k] = lmStyle->data()[i * 4 + k];
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

        std::vector<std::array<double, 2>> st(corners);
        for (uint32_t k = 0; k < corners; ++k) {
            Vertex& v = w.vertices[nextVertex + k];
            v.position = e.corner(f.firstEdge, k);
            v.normal = s.normal;
            // The same expression (doubles, left to right) the engine rounds to float for the extents.
            for (size_t a = 0; a < 2; ++a)
                st[k][a] = double(v.position.x) * double(vecs[a * 4]) + double(v.position.y) * double(vecs[a * 4 + 1]) +
                           double(v.position.z) * double(vecs[a * 4 + 2]) + double(vecs[a * 4 + 3]);
            v.texUV = {float(st[k][0]), float(st[k][1])};  // texels: the material loader knows the size
            v.color = {1, 1, 1, 1};
        }
        bsp::writeFan(w.indices.data() + nextIndex, corners);
        nextIndex += s.numIndices;

        const int numStyles = bsp::styleCount(f.styles);
        // With DECOUPLED_LM the record's offset is the face's light; the face's own lightofs names the copy for
        // engines without it, or is -1 (light -novanilla).
        const bool hasLight = decoupled ? int32_t(ByteReader(*decoupled).sub(i * kDecoupledBytes + 4, 4, decoupled->lump()).i32()) >= 0
                                        : f.lightOffset >= 0;
        const bool lightmapped = c.relayout ? takesLight(c.texinfoFlags[size_t(f.texinfo)], m.name)
                                            : !(m.flags & kMaterialNoLightmap) && hasLight;
        // R_BuildLightMap clears a face's block to no light and adds its styles' maps: with light data in the
        // map, a face with no style or no light of its own (light omits the all-dark ones: offset -1) is black.
        // Without any (an unlit build) every face is full bright.
        const bool dark = !c.relayout && mapHasLight && !(m.flags & kMaterialNoLightmap) && (!hasLight || numStyles == 0);
        if (dark) {
            FaceLightmap fl;
            fl.surface = uint32_t(i);
            fl.numStyles = 1;
            fl.size = {1, 1};
            fl.dark = true;
            bsp::setStyles(s, {0, 255, 255, 255}, 1);
            lit.push_back(fl);
        } else if (lightmapped) {
            FaceLightmap fl;
            fl.surface = uint32_t(i);
            fl.lightOffset = f.lightOffset;
            fl.numStyles = numStyles;
            const size_t at = i * c.layout.faceBytes;
            if (decoupled) {
                ByteReader d = decoupled->sub(i * kDecoupledBytes, kDecoupledBytes, decoupled->lump());
                fl.size = {d.u16(), d.u16()};
                fl.lightOffset = d.i32();
                for (auto& row : fl.toLuxel)
                    for (double& v : row) v = double(d.f32());
                for (const auto& row : fl.toLuxel)
                    for (double v : row)
                        if (!std::isfinite(v)) d.fail(8, "face " + std::to_string(i) + " has a non-finite lightmap matrix");
                if (fl.lightOffset < 0 || fl.size[0] == 0 || fl.size[1] == 0) fl.numStyles = 0;
            } else if (c.relayoutUnitsPerLuxel) {
                std::vector<Vec3> corner(corners);
                for (uint32_t k = 0; k < corners; ++k) corner[k] = w.vertices[nextVertex + k].position;
                const float units = texinfoUnitsPerLuxel(c.relayoutTexinfoUnits, uint32_t(f.texinfo), *c.relayoutUnitsPerLuxel);
                const DecoupledLayout d = decoupledLayout(corner.data(), corners, s.normal, units);
                if (d.width <= 0 || d.height <= 0) r.fail(at, "face " + std::to_string(i) + " has unusable lightmap extents");
                fl.size = {d.width, d.height};
                for (size_t a = 0; a < 2; ++a)
                    for (size_t k = 0; k < 4; ++k) fl.toLuxel[a][k] = double(d.worldToLuxel[a][k]);
                TexinfoLuxels& frame = w.texinfoLuxels[i];
                for (size_t a = 0; a < 2; ++a)
                    for (size_t k = 0; k < 4; ++k) frame.vecs[a * 4 + k] = d.worldToLuxel[a][k];
                frame.luxelSize = 1, frame.decoupled = true;
            } else {
                int shift = 4;
                // A new layout keeps qbsp's LMSHIFT (_lightmap_scale): light honours the lump it finds, unless
                // told otherwise (-lmshift).
                if (c.relayoutShift) {
                    shift = *c.relayoutShift;
                } else if (lmShift) {
                    shift = lmShift->data()[i];
                    if (shift > 10) lmShift->fail(i, "face " + std::to_string(i) + " luxel shift " + std::to_string(shift) + " (at most 10)");
                }
                const int luxel = 1 << shift;
                std::array<int32_t, 4> ext;
                if (!bsp::lightmapExtents(st.data(), corners, ext, luxel))
                    r.fail(at, "face " + std::to_string(i) + " has unusable lightmap extents");
                fl.size = {ext[2], ext[3]};
                w.texinfoLuxels[i] = {vecs, w.texinfoLuxels[i].plane, {ext[0], ext[1]}, luxel, false};
                // Luxel (i, j) sits at texture coordinate (mins + i) * luxel.
                for (size_t a = 0; a < 2; ++a) {
                    for (size_t k = 0; k < 4; ++k) fl.toLuxel[a][k] = double(vecs[a * 4 + k]) / luxel;
                    fl.toLuxel[a][3] -= ext[a];
                }
            }
            if (fl.size[0] > kMaxLuxelSide || fl.size[1] > kMaxLuxelSide)
                r.fail(at, "face " + std::to_string(i) + " lightmap is " + std::to_string(fl.size[0]) + "x" +
                               std::to_string(fl.size[1]) + " luxels (at most " + std::to_string(kMaxLuxelSide) + " a side)");
            if (fl.numStyles > 0) {
                bsp::setStyles(s, f.styles, numStyles);
                lit.push_back(fl);
            }
        }
        nextVertex += corners;
    }
    decodeLighting(c, w, lit);
}

}  // namespace luxel::q1
