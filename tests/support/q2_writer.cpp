#include "support/q2_writer.hpp"

#include <cstring>
#include <stdexcept>

#include "support/decode_helpers.hpp"

namespace luxel::test {

namespace {

std::vector<uint8_t> visibilityBytes(const std::vector<std::vector<uint8_t>>& rows) {
    LeWriter o;
    const int32_t n = int32_t(rows.size());
    o.i32(n);
    std::vector<uint8_t> data;
    std::vector<int32_t> offsets;
    const size_t header = 4 + 8 * rows.size();
    for (const auto& row : rows) {
        offsets.push_back(int32_t(header + data.size()));
        auto c = compressQ2PvsRow(row);
        data.insert(data.end(), c.begin(), c.end());
    }
    for (int32_t off : offsets) { o.i32(off); o.i32(off); }
    o.bytes.insert(o.bytes.end(), data.begin(), data.end());
    return o.bytes;
}

std::vector<uint8_t> lumpBytes(const Q2MapBuilder& b, int lump) {
    LeWriter o;
    switch (lump) {
    case kQ2Entities:
        o.text(b.entities);
        break;
    case kQ2Planes:
        for (const auto& p : b.planes) { o.vec3(p.normal); o.f32(p.dist); o.i32(p.type); }
        break;
    case kQ2Vertexes: for (Vec3 v : b.vertices) o.vec3(v); break;
    case kQ2Visibility: if (b.pvs) return visibilityBytes(*b.pvs); break;
    case kQ2Nodes:
        for (const auto& n : b.nodes) {
            o.i32(n.plane); o.i32(n.children[0]); o.i32(n.children[1]); o.i16s(n.mins); o.i16s(n.maxs);
            o.u16(n.firstFace); o.u16(n.numFaces);
        }
        break;
    case kQ2Texinfo:
        for (const auto& t : b.texinfos) {
            for (float f : t.s) o.f32(f);
            for (float f : t.t) o.f32(f);
            o.i32(t.flags); o.i32(t.value); o.fixedString(t.name, 32); o.i32(t.next);
        }
        break;
    case kQ2Faces:
        for (const auto& f : b.faces) {
            o.u16(f.plane); o.i16(f.side); o.i32(f.firstEdge); o.u16(f.numEdges); o.i16(f.texinfo);
            for (uint8_t s : f.styles) o.u8(s);
            o.i32(f.lightOffset);
        }
        break;
    case kQ2Lighting: return b.lighting;
    case kQ2Leafs:
        for (const auto& l : b.leaves) {
            o.i32(l.contents); o.i16(l.cluster); o.i16(l.area); o.i16s(l.mins); o.i16s(l.maxs);
            o.u16(l.firstLeafFace); o.u16(l.numLeafFaces); o.u16(l.firstLeafBrush); o.u16(l.numLeafBrushes);
        }
        break;
    case kQ2LeafFaces: for (uint16_t v : b.leafFaces) o.u16(v); break;
    case kQ2LeafBrushes: for (uint16_t v : b.leafBrushes) o.u16(v); break;
    case kQ2Edges: for (const auto& e : b.edges) { o.u16(e[0]); o.u16(e[1]); } break;
    case kQ2SurfEdges: for (int32_t v : b.surfEdges) o.i32(v); break;
    case kQ2Models:
        for (const auto& m : b.models) {
            o.vec3(m.mins); o.vec3(m.maxs); o.vec3(m.origin); o.i32(m.headNode); o.i32(m.firstFace); o.i32(m.numFaces);
        }
        break;
    case kQ2Brushes: for (const auto& br : b.brushes) { o.i32(br.firstSide); o.i32(br.numSides); o.i32(br.contents); } break;
    case kQ2BrushSides: for (const auto& s : b.brushSides) { o.u16(s.plane); o.i16(s.texinfo); } break;
    case kQ2Pop: return b.pop;
    case kQ2Areas: for (const auto& a : b.areas) { o.i32(a.numPortals); o.i32(a.firstPortal); } break;
    case kQ2AreaPortals: for (const auto& p : b.areaPortals) { o.i32(p.portal); o.i32(p.otherArea); } break;
    default: throw std::logic_error("bad lump");
    }
    return o.bytes;
}

}  // namespace

std::vector<uint8_t> compressQ2PvsRow(std::span<const uint8_t> row) {
    std::vector<uint8_t> out;
    for (size_t j = 0; j < row.size(); ++j) {
        out.push_back(row[j]);
        if (row[j]) continue;
        uint8_t rep = 1;
        for (++j; j < row.size() && row[j] == 0 && rep < 255; ++j) ++rep;
        --j;
        out.push_back(rep);
    }
    return out;
}

std::vector<uint8_t> Q2MapBuilder::build() const {
    std::vector<uint8_t> file(kQ2HeaderBytes, 0);
    std::memcpy(file.data(), "IBSP", 4);
    file[4] = 38;
    for (int lump = 0; lump < kQ2LumpCount; ++lump) {
        while (file.size() % 4) file.push_back(0);
        std::vector<uint8_t> bytes = rawLumps[size_t(lump)] ? *rawLumps[size_t(lump)] : lumpBytes(*this, lump);
        setQ2LumpRange(file, lump, uint32_t(file.size()), uint32_t(bytes.size()));
        file.insert(file.end(), bytes.begin(), bytes.end());
    }
    return file;
}

int32_t Q2MapBuilder::addPlane(Vec3 normal, float dist) {
    planes.push_back({normal, dist});
    return int32_t(planes.size() - 1);
}

int32_t Q2MapBuilder::addTexinfo(std::array<float, 4> s, std::array<float, 4> t, int32_t flags,
                                 const std::string& name) {
    Q2Texinfo ti;
    ti.s = s;
    ti.t = t;
    ti.flags = flags;
    ti.name = name;
    texinfos.push_back(ti);
    return int32_t(texinfos.size() - 1);
}

int32_t Q2MapBuilder::addFace(const std::vector<Vec3>& points, int32_t plane, bool backSide, int32_t texinfo,
                              std::array<uint8_t, 4> styles, int32_t lightOffset, bool reverseOddEdges) {
    std::vector<uint16_t> ids;
    for (Vec3 p : points) {
        size_t k = 0;
        while (k < vertices.size() && !(vertices[k] == p)) ++k;
        if (k == vertices.size()) vertices.push_back(p);
        ids.push_back(uint16_t(k));
    }
    Q2Face f;
    f.plane = uint16_t(plane);
    f.side = backSide ? 1 : 0;
    f.firstEdge = int32_t(surfEdges.size());
    f.numEdges = uint16_t(points.size());
    f.texinfo = int16_t(texinfo);
    f.styles = styles;
    f.lightOffset = lightOffset;
    for (size_t k = 0; k < ids.size(); ++k) {
        const uint16_t a = ids[k], b = ids[(k + 1) % ids.size()];
        int32_t found = 0;
        for (size_t e = 1; e < edges.size() && !found; ++e)
            if (edges[e][0] == b && edges[e][1] == a) found = int32_t(e);
        if (found) {
            surfEdges.push_back(-found);  // another face's edge, walked the other way
        } else if (reverseOddEdges && k % 2 == 1) {
            edges.push_back({b, a});
            surfEdges.push_back(-int32_t(edges.size() - 1));
        } else {
            edges.push_back({a, b});
            surfEdges.push_back(int32_t(edges.size() - 1));
        }
    }
    faces.push_back(f);
    return int32_t(faces.size() - 1);
}

int32_t Q2MapBuilder::addLighting(const std::vector<std::vector<std::array<uint8_t, 3>>>& styleGrids) {
    const int32_t offset = int32_t(lighting.size());
    for (const auto& grid : styleGrids)
        for (const auto& rgb : grid) lighting.insert(lighting.end(), rgb.begin(), rgb.end());
    return offset;
}

int32_t Q2MapBuilder::addLeaf(int16_t cluster, const std::vector<uint16_t>& faceList, int16_t area,
                              int32_t contents) {
    Q2Leaf l;
    l.contents = contents;
    l.cluster = cluster;
    l.area = area;
    l.firstLeafFace = uint16_t(leafFaces.size());
    l.numLeafFaces = uint16_t(faceList.size());
    leafFaces.insert(leafFaces.end(), faceList.begin(), faceList.end());
    leaves.push_back(l);
    return int32_t(leaves.size() - 1);
}

int32_t Q2MapBuilder::addNode(int32_t plane, int32_t front, int32_t back) {
    Q2Node n;
    n.plane = plane;
    n.children = {front, back};
    nodes.push_back(n);
    return int32_t(nodes.size() - 1);
}

std::pair<uint32_t, uint32_t> q2LumpRange(const std::vector<uint8_t>& file, int lump) {
    return {le32(file, 8 + size_t(lump) * 8), le32(file, 12 + size_t(lump) * 8)};
}

void setQ2LumpRange(std::vector<uint8_t>& file, int lump, uint32_t offset, uint32_t length) {
    const uint32_t v[2] = {offset, length};
    std::memcpy(file.data() + 8 + size_t(lump) * 8, v, 8);
}

Q2MapBuilder makeQ2FloorMap() {
    Q2MapBuilder b;
    b.entities = "{\n\"classname\" \"worldspawn\"\n}\n";
    const int32_t floor = b.addPlane({0, 0, 1}, 0);
    const int32_t tex = b.addTexinfo({1, 0, 0, 0}, {0, 1, 0, 0});
    std::vector<std::array<uint8_t, 3>> grid;
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 5; ++i) grid.push_back({uint8_t(10 * i), uint8_t(10 * j), 7});
    const int32_t light = b.addLighting({grid});
    // Clockwise seen from above (+z).
    b.addFace({{0, 0, 0}, {0, 32, 0}, {64, 32, 0}, {64, 0, 0}}, floor, false, tex, {0, 255, 255, 255}, light);
    addQ2FloorWorld(b, floor, tex, 1, {64, 32, 0});
    return b;
}

void addQ2FloorWorld(Q2MapBuilder& b, int32_t floor, int32_t texinfo, uint16_t numFaces, Vec3 maxs) {
    std::vector<uint16_t> faces;
    for (uint16_t f = 0; f < numFaces; ++f) faces.push_back(f);
    b.addLeaf(-1, {}, 0, kQ2ContentsSolid);
    b.addLeaf(0, faces, 1);
    b.addNode(floor, -2, -1);
    b.models.push_back({{0, 0, 0}, maxs, {}, 0, 0, numFaces});
    b.brushSides.push_back({uint16_t(floor), int16_t(texinfo)});
    b.brushes.push_back({0, 1, kQ2ContentsSolid});
    b.leafBrushes.push_back(0);
    b.leaves[0].numLeafBrushes = 1;
    b.areas = {{0, 0}, {1, 0}};
    b.areaPortals = {{0, 0}};
    b.pvs = std::vector<std::vector<uint8_t>>{{0x01}};
}

}  // namespace luxel::test
