#include "support/q1_writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "support/decode_helpers.hpp"

namespace luxel::test {

namespace {

constexpr size_t kMiptexHeaderBytes = 40, kBspxEntryBytes = 32;

bool wide(Q1Variant v) { return v == Q1Variant::Bsp2 || v == Q1Variant::Bsp2Rmq; }

void bounds(LeWriter& o, Vec3 v, Q1Variant variant) {
    if (variant == Q1Variant::Bsp2) {
        o.vec3(v);
    } else {
        o.i16(int16_t(v.x));
        o.i16(int16_t(v.y));
        o.i16(int16_t(v.z));
    }
}

// A count or index field: 16 bits in BSP29 / BSP30, 32 in BSP2 / 2PSB.
void index(LeWriter& o, uint32_t v, Q1Variant variant) {
    if (wide(variant))
        o.u32(v);
    else
        o.u16(uint16_t(v));
}

std::vector<uint8_t> texturesLump(const Q1MapBuilder& b) {
    LeWriter o;
    o.i32(int32_t(b.miptex.size()));
    std::vector<uint8_t> body;
    std::vector<int32_t> offsets;
    const size_t directory = 4 + 4 * b.miptex.size();
    for (const auto& m : b.miptex) {
        if (!m) {
            offsets.push_back(-1);
            continue;
        }
        while (body.size() % 4) body.push_back(0);
        offsets.push_back(int32_t(directory + body.size()));
        LeWriter t;
        t.fixedString(m->name, 16);
        t.u32(m->width);
        t.u32(m->height);
        if (!m->embedded) {
            for (int k = 0; k < 4; ++k) t.u32(0);
            body.insert(body.end(), t.bytes.begin(), t.bytes.end());
            continue;
        }
        if (m->pixels.size() != size_t(m->width) * m->height) throw std::logic_error("miptex pixels of the wrong size");
        std::vector<uint8_t> levels;
        std::array<uint32_t, 4> at{};
        for (uint32_t level = 0; level < 4; ++level) {
            at[level] = uint32_t(kMiptexHeaderBytes + levels.size());
            const uint32_t step = 1u << level;
            for (uint32_t y = 0; y < m->height / step; ++y)
                for (uint32_t x = 0; x < m->width / step; ++x) levels.push_back(m->pixels[size_t(y * step) * m->width + x * step]);
        }
        for (uint32_t v : at) t.u32(v);
        t.bytes.insert(t.bytes.end(), levels.begin(), levels.end());
        if (b.variant == Q1Variant::HalfLife) {
            const Palette p = m->palette ? *m->palette : q1TestPalette();
            t.u16(256);
            for (const auto& c : p)
                for (uint8_t v : c) t.u8(v);
            t.u16(0);  // the pad Half-Life's compilers write
        }
        body.insert(body.end(), t.bytes.begin(), t.bytes.end());
    }
    for (int32_t off : offsets) o.i32(off);
    o.bytes.insert(o.bytes.end(), body.begin(), body.end());
    return o.bytes;
}

std::vector<uint8_t> lumpBytes(const Q1MapBuilder& b, int lump, const std::vector<Q1Leaf>& leaves,
                               const std::vector<uint8_t>& vis) {
    LeWriter o;
    const Q1Variant v = b.variant;
    switch (lump) {
    case kQ1Entities: o.text(b.entities); break;
    case kQ1Planes:
        for (const auto& p : b.planes) { o.vec3(p.normal); o.f32(p.dist); o.i32(p.type); }
        break;
    case kQ1Textures: return texturesLump(b);
    case kQ1Vertexes: for (Vec3 p : b.vertices) o.vec3(p); break;
    case kQ1Visibility: return vis;
    case kQ1Nodes:
        for (const auto& n : b.nodes) {
            o.i32(n.plane);
            for (int32_t c : n.children) {
                if (wide(v)) o.i32(c); else o.i16(int16_t(c));
            }
            bounds(o, n.mins, v);
            bounds(o, n.maxs, v);
            index(o, n.firstFace, v);
            index(o, n.numFaces, v);
        }
        break;
    case kQ1Texinfo:
        for (const auto& t : b.texinfos) {
            for (float f : t.s) o.f32(f);
            for (float f : t.t) o.f32(f);
            o.i32(t.miptex);
            o.i32(t.flags);
        }
        break;
    case kQ1Faces:
        for (const auto& f : b.faces) {
            if (wide(v)) {
                o.i32(f.plane); o.i32(f.side); o.i32(f.firstEdge); o.i32(f.numEdges); o.i32(f.texinfo);
            } else {
                o.i16(int16_t(f.plane)); o.i16(int16_t(f.side)); o.i32(f.firstEdge); o.i16(int16_t(f.numEdges));
                o.i16(int16_t(f.texinfo));
            }
            for (uint8_t s : f.styles) o.u8(s);
            o.i32(f.lightOffset);
        }
        break;
    case kQ1Lighting: return b.lighting;
    case kQ1Clipnodes:
        for (const auto& c : b.clipnodes) {
            o.i32(c.plane);
            for (int32_t child : c.children) {
                if (wide(v)) o.i32(child); else o.i16(int16_t(child));
            }
        }
        break;
    case kQ1Leafs:
        for (const auto& l : leaves) {
            o.i32(l.contents);
            o.i32(l.visOffset);
            bounds(o, l.mins, v);
            bounds(o, l.maxs, v);
            index(o, l.firstMarkSurface, v);
            index(o, l.numMarkSurfaces, v);
            for (uint8_t a : l.ambient) o.u8(a);
        }
        break;
    case kQ1MarkSurfaces: for (uint32_t m : b.markSurfaces) index(o, m, v); break;
    case kQ1Edges:
        for (const auto& e : b.edges) { index(o, e[0], v); index(o, e[1], v); }
        break;
    case kQ1SurfEdges: for (int32_t s : b.surfEdges) o.i32(s); break;
    case kQ1Models:
        for (const auto& m : b.models) {
            o.vec3(m.mins); o.vec3(m.maxs); o.vec3(m.origin);
            for (int32_t h : m.headNodes) o.i32(h);
            o.i32(m.visLeaves); o.i32(m.firstFace); o.i32(m.numFaces);
        }
        break;
    default: throw std::logic_error("bad lump");
    }
    return o.bytes;
}

}  // namespace

const char* q1VariantName(Q1Variant v) {
    switch (v) {
        case Q1Variant::Bsp29: return "BSP29";
        case Q1Variant::Bsp2Rmq: return "2PSB";
        case Q1Variant::Bsp2: return "BSP2";
        case Q1Variant::HalfLife: return "BSP30";
    }
    return "?";
}

Q1RecordBytes q1RecordBytes(Q1Variant v) {
    switch (v) {
        case Q1Variant::Bsp2Rmq: return {32, 32, 28, 12, 4};
        case Q1Variant::Bsp2: return {44, 44, 28, 12, 4};
        default: return {24, 28, 20, 8, 2};
    }
}

std::vector<uint8_t> compressQ1PvsRow(const std::vector<uint8_t>& row) {
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

std::vector<uint8_t> Q1MapBuilder::build() const {
    // Visibility rows, and the leaves pointing at them.
    std::vector<Q1Leaf> outLeaves = leaves;
    std::vector<uint8_t> vis;
    if (pvs) {
        for (size_t k = 0; k < pvs->size(); ++k) {
            if (k + 1 < outLeaves.size()) outLeaves[k + 1].visOffset = int32_t(vis.size());
            const std::vector<uint8_t> row = compressQ1PvsRow((*pvs)[k]);
            vis.insert(vis.end(), row.begin(), row.end());
        }
    }
    std::vector<uint8_t> file(kQ1HeaderBytes, 0);
    switch (variant) {
        case Q1Variant::Bsp29: file[0] = 29; break;
        case Q1Variant::HalfLife: file[0] = 30; break;
        case Q1Variant::Bsp2: std::memcpy(file.data(), "BSP2", 4); break;
        case Q1Variant::Bsp2Rmq: std::memcpy(file.data(), "2PSB", 4); break;
    }
    for (int lump = 0; lump < kQ1LumpCount; ++lump) {
        while (file.size() % 4) file.push_back(0);
        const std::vector<uint8_t> bytes =
            rawLumps[size_t(lump)] ? *rawLumps[size_t(lump)] : lumpBytes(*this, lump, outLeaves, vis);
        setQ1LumpRange(file, lump, uint32_t(file.size()), uint32_t(bytes.size()));
        file.insert(file.end(), bytes.begin(), bytes.end());
    }
    if (!bspx.empty()) {
        while (file.size() % 4) file.push_back(0);
        const size_t directory = file.size();
        file.resize(directory + 8 + kBspxEntryBytes * bspx.size(), 0);
        std::memcpy(file.data() + directory, "BSPX", 4);
        put32(file, directory + 4, uint32_t(bspx.size()));
        for (size_t k = 0; k < bspx.size(); ++k) {
            while (file.size() % 4) file.push_back(0);
            const size_t entry = directory + 8 + kBspxEntryBytes * k;
            std::strncpy(reinterpret_cast<char*>(file.data() + entry), bspx[k].first.c_str(), 23);
            put32(file, entry + 24, uint32_t(file.size()));
            put32(file, entry + 28, uint32_t(bspx[k].second.size()));
            file.insert(file.end(), bspx[k].second.begin(), bspx[k].second.end());
        }
    }
    return file;
}

std::vector<uint8_t> Q1MapBuilder::litFile() const { return q1LitFile(rgbLighting); }

int32_t Q1MapBuilder::addPlane(Vec3 normal, float dist) {
    planes.push_back({normal, dist});
    return int32_t(planes.size() - 1);
}

int32_t Q1MapBuilder::addTexinfo(std::array<float, 4> s, std::array<float, 4> t, int32_t miptexIndex, int32_t flags) {
    texinfos.push_back({s, t, miptexIndex, flags});
    return int32_t(texinfos.size() - 1);
}

int32_t Q1MapBuilder::addMiptex(const std::string& name, uint32_t width, uint32_t height, std::vector<uint8_t> pixels) {
    Q1Miptex m;
    m.name = name;
    m.width = width;
    m.height = height;
    m.pixels = std::move(pixels);
    miptex.push_back(std::move(m));
    return int32_t(miptex.size() - 1);
}

int32_t Q1MapBuilder::addFace(const std::vector<Vec3>& points, int32_t plane, bool backSide, int32_t texinfo,
                              std::array<uint8_t, 4> styles, int32_t lightOffset) {
    std::vector<uint32_t> ids;
    for (Vec3 p : points) {
        size_t k = 0;
        while (k < vertices.size() && !(vertices[k] == p)) ++k;
        if (k == vertices.size()) vertices.push_back(p);
        ids.push_back(uint32_t(k));
    }
    Q1Face f;
    f.plane = plane;
    f.side = backSide ? 1 : 0;
    f.firstEdge = int32_t(surfEdges.size());
    f.numEdges = int32_t(points.size());
    f.texinfo = texinfo;
    f.styles = styles;
    f.lightOffset = lightOffset;
    for (size_t k = 0; k < ids.size(); ++k) {
        const uint32_t a = ids[k], b = ids[(k + 1) % ids.size()];
        int32_t found = 0;
        for (size_t e = 1; e < edges.size() && !found; ++e)
            if (edges[e][0] == b && edges[e][1] == a) found = int32_t(e);
        if (found) {
            surfEdges.push_back(-found);  // another face's edge, walked the other way
        } else {
            edges.push_back({a, b});
            surfEdges.push_back(int32_t(edges.size() - 1));
        }
    }
    faces.push_back(f);
    return int32_t(faces.size() - 1);
}

int32_t Q1MapBuilder::addLighting(const std::vector<std::vector<uint8_t>>& greyGrids,
                                  const std::vector<std::vector<std::array<uint8_t, 3>>>& rgbGrids) {
    const int32_t offset = int32_t(lighting.size());
    if (variant == Q1Variant::HalfLife) {
        if (!greyGrids.empty()) throw std::logic_error("Half-Life lighting is RGB");
        for (const auto& grid : rgbGrids)
            for (const auto& c : grid) lighting.insert(lighting.end(), c.begin(), c.end());
        return offset;
    }
    if (!rgbGrids.empty() && rgbGrids.size() != greyGrids.size()) throw std::logic_error("grey and RGB grids differ");
    for (size_t k = 0; k < greyGrids.size(); ++k) {
        lighting.insert(lighting.end(), greyGrids[k].begin(), greyGrids[k].end());
        if (rgbGrids.empty()) {
            for (uint8_t g : greyGrids[k]) rgbLighting.insert(rgbLighting.end(), {g, g, g});
        } else {
            if (rgbGrids[k].size() != greyGrids[k].size()) throw std::logic_error("grey and RGB grids differ");
            for (const auto& c : rgbGrids[k]) rgbLighting.insert(rgbLighting.end(), c.begin(), c.end());
        }
    }
    return offset;
}

int32_t Q1MapBuilder::addLeaf(int32_t contents, const std::vector<uint32_t>& faceList, Vec3 mins, Vec3 maxs) {
    Q1Leaf l;
    l.contents = contents;
    l.mins = mins;
    l.maxs = maxs;
    l.firstMarkSurface = uint32_t(markSurfaces.size());
    l.numMarkSurfaces = uint32_t(faceList.size());
    markSurfaces.insert(markSurfaces.end(), faceList.begin(), faceList.end());
    leaves.push_back(l);
    return int32_t(leaves.size() - 1);
}

int32_t Q1MapBuilder::addNode(int32_t plane, int32_t front, int32_t back, Vec3 mins, Vec3 maxs) {
    Q1Node n;
    n.plane = plane;
    n.children = {front, back};
    n.mins = mins;
    n.maxs = maxs;
    nodes.push_back(n);
    return int32_t(nodes.size() - 1);
}

std::vector<uint8_t> q1LitFile(const std::vector<uint8_t>& rgb, int32_t version) {
    LeWriter o;
    for (char c : std::string("QLIT")) o.u8(uint8_t(c));
    o.i32(version);
    o.bytes.insert(o.bytes.end(), rgb.begin(), rgb.end());
    return o.bytes;
}

std::vector<uint8_t> q1DecoupledLump(const std::vector<Q1Decoupled>& faces) {
    LeWriter o;
    for (const auto& f : faces) {
        o.u16(f.width);
        o.u16(f.height);
        o.i32(f.lightOffset);
        for (const auto& row : f.worldToLuxel)
            for (float v : row) o.f32(v);
    }
    return o.bytes;
}

Palette q1TestPalette() {
    Palette p{};
    for (size_t i = 0; i < 256; ++i) p[i] = {uint8_t(i), uint8_t(255 - i), uint8_t((7 * i) & 255)};
    return p;
}

std::pair<uint32_t, uint32_t> q1LumpRange(const std::vector<uint8_t>& file, int lump) {
    return {le32(file, 4 + size_t(lump) * 8), le32(file, 8 + size_t(lump) * 8)};
}

void setQ1LumpRange(std::vector<uint8_t>& file, int lump, uint32_t offset, uint32_t length) {
    put32(file, 4 + size_t(lump) * 8, offset);
    put32(file, 8 + size_t(lump) * 8, length);
}

size_t q1BspxDirectory(const std::vector<uint8_t>& file) {
    uint64_t end = 0;
    for (int lump = 0; lump < kQ1LumpCount; ++lump) {
        const auto [offset, length] = q1LumpRange(file, lump);
        end = std::max<uint64_t>(end, uint64_t(offset) + length);
    }
    end = (end + 3) & ~uint64_t(3);
    if (end + 8 > file.size() || std::memcmp(file.data() + end, "BSPX", 4) != 0) return 0;
    return size_t(end);
}

uint8_t q1FloorGrey(int face, int slot, int i, int j) { return uint8_t((5 + 10 * i + 25 * j + 100 * face + 60 * slot) & 255); }

std::array<uint8_t, 3> q1FloorRgb(int face, int slot, int i, int j) {
    const uint8_t g = q1FloorGrey(face, slot, i, j);
    return {g, uint8_t(255 - g), uint8_t((3 * g) & 255)};
}

namespace {

// Appends face `face`'s grids (w x h luxels, `styles` of them) to the builder's lighting; returns the offset.
int32_t floorLighting(Q1MapBuilder& b, int face, int styles, int w, int h) {
    std::vector<std::vector<uint8_t>> grey;
    std::vector<std::vector<std::array<uint8_t, 3>>> rgb;
    for (int k = 0; k < styles; ++k) {
        grey.emplace_back();
        rgb.emplace_back();
        for (int j = 0; j < h; ++j)
            for (int i = 0; i < w; ++i) {
                grey.back().push_back(q1FloorGrey(face, k, i, j));
                rgb.back().push_back(q1FloorRgb(face, k, i, j));
            }
    }
    if (b.variant == Q1Variant::HalfLife) return b.addLighting({}, rgb);
    return b.addLighting(grey, rgb);
}

// The engines' luxel count along one axis: texture coordinates lo..hi in luxels of `size` units.
int luxels(double lo, double hi, int size) { return int(std::ceil(hi / size) - std::floor(lo / size)) + 1; }

}  // namespace

Q1MapBuilder makeQ1FloorMap(Q1Variant variant, const Q1FloorOptions& options) {
    Q1MapBuilder b;
    b.variant = variant;
    b.entities =
        "{\n\"classname\" \"worldspawn\"\n\"message\" \"q1 floor\"\n}\n"
        "{\n\"classname\" \"info_player_start\"\n\"origin\" \"32 16 24\"\n\"angle\" \"90\"\n}\n"
        "{\n\"classname\" \"info_intermission\"\n\"origin\" \"48 8 64\"\n\"mangle\" \"20 135 0\"\n}\n";
    const int32_t floor = b.addPlane({0, 0, 1}, 0);
    const int32_t split = b.addPlane({1, 0, 0}, 64);

    std::vector<uint8_t> floorPixels(256), gratePixels(64);
    for (size_t k = 0; k < 256; ++k) floorPixels[k] = uint8_t(k);
    for (uint32_t y = 0; y < 8; ++y)
        for (uint32_t x = 0; x < 8; ++x) gratePixels[y * 8 + x] = (x + y) % 2 ? 255 : uint8_t(32 + x + 8 * y);
    const int32_t floorTex = b.addMiptex("floor1", 16, 16, floorPixels);
    const int32_t grateTex = b.addMiptex("{grate", 8, 8, gratePixels);
    const int32_t t0 = b.addTexinfo({1, 0, 0, 0}, {0, 1, 0, 0}, floorTex);
    const int32_t t1 = b.addTexinfo({1, 0, 0, 8}, {0, 1, 0, -4}, grateTex);

    // Block sizes: face 0 spans s 0..64, t 0..32; face 1 s 72..104, t -4..28.
    const int shift0 = options.lmShift ? (*options.lmShift)[0] : 4, shift1 = options.lmShift ? (*options.lmShift)[1] : 4;
    std::array<int, 2> size0{luxels(0, 64, 1 << shift0), luxels(0, 32, 1 << shift0)};
    std::array<int, 2> size1{luxels(72, 104, 1 << shift1), luxels(-4, 28, 1 << shift1)};
    if (options.decoupled) size0 = {9, 5}, size1 = {5, 5};
    const int32_t light0 = floorLighting(b, 0, 1, size0[0], size0[1]);
    const int32_t light1 = floorLighting(b, 1, 2, size1[0], size1[1]);
    // Clockwise seen from above (+z).
    b.addFace({{0, 0, 0}, {0, 32, 0}, {64, 32, 0}, {64, 0, 0}}, floor, false, t0, {0, 255, 255, 255},
              options.decoupled ? 0 : light0);
    b.addFace({{64, 0, 0}, {64, 32, 0}, {96, 32, 0}, {96, 0, 0}}, floor, false, t1, {0, 5, 255, 255},
              options.decoupled ? 0 : light1);

    b.addLeaf(kQ1ContentsSolid, {});
    b.leaves[0].visOffset = -1;
    b.addLeaf(kQ1ContentsEmpty, {0}, {0, 0, 0}, {64, 32, 64});
    b.addLeaf(kQ1ContentsEmpty, {1}, {64, 0, 0}, {96, 32, 64});
    b.addNode(floor, 1, -1, {0, 0, 0}, {96, 32, 64});
    b.nodes[0].numFaces = 2;
    b.addNode(split, -3, -2, {0, 0, 0}, {96, 32, 64});
    b.clipnodes.push_back({floor, {kQ1ContentsEmpty, kQ1ContentsSolid}});
    Q1Model world;
    world.maxs = {96, 32, 64};
    world.visLeaves = 2;
    world.numFaces = 2;
    b.models.push_back(world);
    b.pvs = std::vector<std::vector<uint8_t>>{{0x01}, {0x03}};

    if (options.bspxRgb) b.addBspx("RGBLIGHTING", b.rgbLighting);
    if (options.lmShift) b.addBspx("LMSHIFT", {(*options.lmShift)[0], (*options.lmShift)[1]});
    if (options.decoupled) {
        Q1Decoupled d0{9, 5, light0, {{{0.125f, 0, 0, 0}, {0, 0.125f, 0, 0}}}};
        Q1Decoupled d1{5, 5, light1, {{{0.125f, 0, 0, -8}, {0, 0.125f, 0, 0}}}};
        b.addBspx("DECOUPLED_LM", q1DecoupledLump({d0, d1}));
    }
    return b;
}

Q1MapBuilder makeQ1LayoutMap(Q1Variant v) {
    Q1MapBuilder b = makeQ1FloorMap(v);
    const int32_t turned = b.addTexinfo({0.5f, 0.5f, 0, 3}, {-0.5f, 0.5f, 0, 0}, 0);
    b.addFace({{0, 0, 0}, {0, 32, 0}, {64, 32, 0}, {64, 0, 0}}, 0, false, turned);
    const int32_t water = b.addMiptex("*water", 16, 16, std::vector<uint8_t>(256, 1));
    b.addFace({{0, 0, 0}, {0, 32, 0}, {64, 32, 0}, {64, 0, 0}}, 0, false, b.addTexinfo({1, 0, 0, 0}, {0, 1, 0, 0}, water, kQ1TexSpecial));
    const int32_t trigger = b.addMiptex("trigger", 16, 16, std::vector<uint8_t>(256, 2));
    b.addFace({{0, 0, 0}, {0, 32, 0}, {64, 32, 0}, {64, 0, 0}}, 0, false, b.addTexinfo({1, 0, 0, 0}, {0, 1, 0, 0}, trigger));
    b.models[0].numFaces = int32_t(b.faces.size());
    return b;
}

}  // namespace luxel::test
