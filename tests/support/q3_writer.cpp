#include "support/q3_writer.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "luxel/bsp/decode.hpp"
#include "support/decode_helpers.hpp"

namespace luxel::test {

namespace {

std::vector<uint8_t> lumpBytes(const Q3MapBuilder& b, int lump) {
    LeWriter o;
    switch (lump) {
    case kQ3Entities:
        o.text(b.entities);
        break;
    case kQ3Textures:
        for (const auto& t : b.textures) { o.fixedString(t.name, 64); o.i32(t.flags); o.i32(t.contents); }
        break;
    case kQ3Planes:
        for (const auto& p : b.planes) { o.vec3(p.normal); o.f32(p.dist); }
        break;
    case kQ3Nodes:
        for (const auto& n : b.nodes) { o.i32(n.plane); o.i32(n.children[0]); o.i32(n.children[1]); o.i32s(n.mins); o.i32s(n.maxs); }
        break;
    case kQ3Leafs:
        for (const auto& l : b.leaves) {
            o.i32(l.cluster); o.i32(l.area); o.i32s(l.mins); o.i32s(l.maxs);
            o.i32(l.firstLeafFace); o.i32(l.numLeafFaces); o.i32(l.firstLeafBrush); o.i32(l.numLeafBrushes);
        }
        break;
    case kQ3LeafFaces: for (int32_t v : b.leafFaces) o.i32(v); break;
    case kQ3LeafBrushes: for (int32_t v : b.leafBrushes) o.i32(v); break;
    case kQ3Models:
        for (const auto& m : b.models) {
            o.vec3(m.mins); o.vec3(m.maxs); o.i32(m.firstFace); o.i32(m.numFaces); o.i32(m.firstBrush); o.i32(m.numBrushes);
        }
        break;
    case kQ3Brushes:
        for (const auto& br : b.brushes) { o.i32(br.firstSide); o.i32(br.numSides); o.i32(br.texture); }
        break;
    case kQ3BrushSides:
        for (const auto& s : b.brushSides) { o.i32(s.plane); o.i32(s.texture); }
        break;
    case kQ3Vertexes:
        for (const auto& v : b.vertices) {
            o.vec3(v.position); o.f32(v.texUV.x); o.f32(v.texUV.y); o.f32(v.lightmapUV.x); o.f32(v.lightmapUV.y);
            o.vec3(v.normal); for (uint8_t c : v.color) o.u8(c);
        }
        break;
    case kQ3MeshVerts: for (int32_t v : b.meshVerts) o.i32(v); break;
    case kQ3Effects:
        for (const auto& e : b.effects) { o.fixedString(e.name, 64); o.i32(e.brush); o.i32(e.unknown); }
        break;
    case kQ3Faces:
        for (const auto& f : b.faces) {
            o.i32(f.texture); o.i32(f.effect); o.i32(f.type); o.i32(f.firstVertex); o.i32(f.numVertices);
            o.i32(f.firstMeshVert); o.i32(f.numMeshVerts); o.i32(f.lightmap);
            o.i32(f.lmStart[0]); o.i32(f.lmStart[1]); o.i32(f.lmSize[0]); o.i32(f.lmSize[1]);
            o.vec3(f.lmOrigin); o.vec3(f.lmVecs[0]); o.vec3(f.lmVecs[1]); o.vec3(f.normal);
            o.i32(f.size[0]); o.i32(f.size[1]);
        }
        break;
    case kQ3Lightmaps:
        for (const auto& page : b.lightmaps) {
            if (page.size() != kQ3LightmapBytes) throw std::invalid_argument("Q3MapBuilder: lightmap page is not 49152 bytes");
            o.bytes.insert(o.bytes.end(), page.begin(), page.end());
        }
        break;
    case kQ3LightVols: o.bytes = b.lightGrid; break;
    case kQ3VisData:
        if (b.vis) {
            o.i32(b.vis->numClusters); o.i32(b.vis->rowBytes);
            o.bytes.insert(o.bytes.end(), b.vis->rows.begin(), b.vis->rows.end());
        }
        break;
    default: break;
    }
    return std::move(o.bytes);
}

// A face of `type` whose vertices and meshverts start at the builder's current ends.
Q3Face newFace(const Q3MapBuilder& b, int32_t type, int32_t texture, int32_t lightmap) {
    Q3Face f;
    f.texture = texture;
    f.type = type;
    f.firstVertex = int32_t(b.vertices.size());
    f.firstMeshVert = int32_t(b.meshVerts.size());
    f.lightmap = lightmap;
    return f;
}

// Puts the corners in clockwise order seen from the side `normal` points to, keeping corner 0 first.
std::vector<Vec3> clockwise(std::vector<Vec3> pts, Vec3 normal) {
    if (dot(cross(pts[1] - pts[0], pts[2] - pts[0]), normal) > 0) std::swap(pts[1], pts[3]);
    return pts;
}

}  // namespace

std::vector<uint8_t> Q3MapBuilder::build() const {
    std::array<std::vector<uint8_t>, kQ3LumpCount> lumps;
    for (int i = 0; i < kQ3LumpCount; ++i) lumps[i] = rawLumps[i] ? *rawLumps[i] : lumpBytes(*this, i);
    LeWriter o;
    o.u8('I'); o.u8('B'); o.u8('S'); o.u8('P');
    o.i32(46);
    size_t offset = kQ3HeaderBytes;
    for (int i = 0; i < kQ3LumpCount; ++i) {
        o.i32(int32_t(offset));
        o.i32(int32_t(lumps[i].size()));
        offset += (lumps[i].size() + 3) & ~size_t(3);
    }
    for (int i = 0; i < kQ3LumpCount; ++i) {
        o.bytes.insert(o.bytes.end(), lumps[i].begin(), lumps[i].end());
        while (o.bytes.size() % 4) o.u8(0);
    }
    return std::move(o.bytes);
}

std::pair<uint32_t, uint32_t> q3LumpRange(const std::vector<uint8_t>& file, int lump) {
    return {le32(file, 8 + size_t(lump) * 8), le32(file, 12 + size_t(lump) * 8)};
}

int32_t Q3MapBuilder::addTexture(const std::string& name, int32_t flags, int32_t contents) {
    textures.push_back({name, flags, contents});
    return int32_t(textures.size() - 1);
}

int32_t Q3MapBuilder::addPlanePair(Vec3 normal, float dist) {
    planes.push_back({normal, dist});
    planes.push_back({-normal, -dist});
    return int32_t(planes.size() - 2);
}

int32_t Q3MapBuilder::addBoxBrush(Vec3 mins, Vec3 maxs, int32_t texture) {
    const int32_t first = int32_t(brushSides.size());
    const std::array<std::pair<Vec3, float>, 6> sides{{{{-1, 0, 0}, -mins.x}, {{1, 0, 0}, maxs.x}, {{0, -1, 0}, -mins.y},
                                                       {{0, 1, 0}, maxs.y}, {{0, 0, -1}, -mins.z}, {{0, 0, 1}, maxs.z}}};
    for (const auto& [normal, dist] : sides) brushSides.push_back({addPlanePair(normal, dist), texture});
    brushes.push_back({first, 6, texture});
    return int32_t(brushes.size() - 1);
}

int32_t Q3MapBuilder::addLightmap(std::array<uint8_t, 3> rgb) {
    return addLightmap([rgb](int, int) { return rgb; });
}

int32_t Q3MapBuilder::addLightmap(const std::function<std::array<uint8_t, 3>(int x, int y)>& fn) {
    std::vector<uint8_t> page(kQ3LightmapBytes);
    for (int y = 0; y < 128; ++y)
        for (int x = 0; x < 128; ++x) {
            auto c = fn(x, y);
            for (int k = 0; k < 3; ++k) page[(size_t(y) * 128 + size_t(x)) * 3 + size_t(k)] = c[size_t(k)];
        }
    lightmaps.push_back(std::move(page));
    return int32_t(lightmaps.size() - 1);
}

int32_t Q3MapBuilder::addPolygon(const std::vector<Vec3>& points, Vec3 normal, int32_t texture, int32_t lightmap,
                                 const std::vector<Vec2>& lightmapUV, std::array<uint8_t, 4> color,
                                 const std::vector<Vec2>& texUV) {
    if (points.size() < 3 || lightmapUV.size() != points.size() || (!texUV.empty() && texUV.size() != points.size()))
        throw std::invalid_argument("addPolygon: need >= 3 points and one lightmap UV per point");
    Q3Face f = newFace(*this, kQ3Polygon, texture, lightmap);
    f.numVertices = int32_t(points.size());
    f.lmOrigin = points[0];
    f.normal = normal;
    for (size_t i = 0; i < points.size(); ++i) {
        Q3Vertex v;
        v.position = points[i];
        v.normal = normal;
        v.lightmapUV = lightmapUV[i];
        v.texUV = texUV.empty() ? Vec2{points[i].x / 64.0f, points[i].y / 64.0f} : texUV[i];
        v.color = color;
        vertices.push_back(v);
    }
    for (int32_t i = 1; i + 1 < f.numVertices; ++i) {
        meshVerts.push_back(0);
        meshVerts.push_back(i);
        meshVerts.push_back(i + 1);
    }
    f.numMeshVerts = int32_t(meshVerts.size()) - f.firstMeshVert;
    faces.push_back(f);
    return int32_t(faces.size() - 1);
}

int32_t Q3MapBuilder::addPatch(int32_t width, int32_t height, const std::vector<Q3Vertex>& controlPoints,
                               int32_t texture, int32_t lightmap) {
    if (int64_t(width) * height != int64_t(controlPoints.size()))
        throw std::invalid_argument("addPatch: width*height must equal the number of control points");
    Q3Face f = newFace(*this, kQ3Patch, texture, lightmap);
    f.numVertices = int32_t(controlPoints.size());
    f.size = {width, height};
    if (!controlPoints.empty()) f.lmOrigin = controlPoints[0].position;
    vertices.insert(vertices.end(), controlPoints.begin(), controlPoints.end());
    faces.push_back(f);
    return int32_t(faces.size() - 1);
}

int32_t Q3MapBuilder::addBillboard(Vec3 origin, Vec3 color, Vec3 normal, int32_t texture) {
    Q3Face f = newFace(*this, kQ3Billboard, texture, -1);
    f.lmOrigin = origin;
    f.lmVecs[0] = color;
    f.normal = normal;
    faces.push_back(f);
    return int32_t(faces.size() - 1);
}

RoomInfo addRoom(Q3MapBuilder& b, const RoomOptions& opt, int32_t cluster) {
    RoomInfo info;
    if (b.textures.empty()) b.addTexture("textures/luxel/wall", opt.textureFlags);
    const Vec3 lo = opt.mins, hi = opt.maxs;
    struct Wall {
        Vec3 normal;
        std::vector<Vec3> corners;
    };
    const Wall walls[6] = {
        {{0, 0, 1}, {{lo.x, lo.y, lo.z}, {hi.x, lo.y, lo.z}, {hi.x, hi.y, lo.z}, {lo.x, hi.y, lo.z}}},
        {{0, 0, -1}, {{lo.x, lo.y, hi.z}, {hi.x, lo.y, hi.z}, {hi.x, hi.y, hi.z}, {lo.x, hi.y, hi.z}}},
        {{1, 0, 0}, {{lo.x, lo.y, lo.z}, {lo.x, hi.y, lo.z}, {lo.x, hi.y, hi.z}, {lo.x, lo.y, hi.z}}},
        {{-1, 0, 0}, {{hi.x, lo.y, lo.z}, {hi.x, hi.y, lo.z}, {hi.x, hi.y, hi.z}, {hi.x, lo.y, hi.z}}},
        {{0, 1, 0}, {{lo.x, lo.y, lo.z}, {hi.x, lo.y, lo.z}, {hi.x, lo.y, hi.z}, {lo.x, lo.y, hi.z}}},
        {{0, -1, 0}, {{lo.x, hi.y, lo.z}, {hi.x, hi.y, lo.z}, {hi.x, hi.y, hi.z}, {lo.x, hi.y, hi.z}}},
    };
    info.firstLightmap = int32_t(b.lightmaps.size());
    if (!opt.vertexLit) {
        if (opt.sharedPage) {
            b.addLightmap(opt.sharedBytes);
        } else {
            for (int w = 0; w < 6; ++w) {
                if (opt.texel)
                    b.addLightmap([&](int x, int y) { return opt.texel(w, x, y); });
                else
                    b.addLightmap(opt.wallBytes[size_t(w)]);
                if (opt.direction) b.addLightmap([&](int x, int y) { return opt.direction(w, x, y); });
            }
        }
    }
    const std::vector<Vec2> uv = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    info.firstFace = int32_t(b.faces.size());
    for (int w = 0; w < 6; ++w) {
        int32_t lm = opt.vertexLit ? -3 : (opt.sharedPage ? info.firstLightmap : info.firstLightmap + (opt.direction ? 2 * w : w));
        const auto& c = opt.wallBytes[size_t(w)];
        b.addPolygon(clockwise(walls[w].corners, walls[w].normal), walls[w].normal, 0, lm, uv, {c[0], c[1], c[2], 255});
    }
    // Plane pairs with +axis normals, node chain cutting away the outside one wall at a time.
    const std::array<int32_t, 3> imins{int32_t(std::floor(lo.x)), int32_t(std::floor(lo.y)), int32_t(std::floor(lo.z))};
    const std::array<int32_t, 3> imaxs{int32_t(std::ceil(hi.x)), int32_t(std::ceil(hi.y)), int32_t(std::ceil(hi.z))};
    info.leaf = int32_t(b.leaves.size());
    info.cluster = cluster;
    Q3Leaf inside;
    inside.cluster = cluster;
    inside.mins = imins;
    inside.maxs = imaxs;
    inside.firstLeafFace = int32_t(b.leafFaces.size());
    inside.numLeafFaces = 6;
    for (int w = 0; w < 6; ++w) b.leafFaces.push_back(info.firstFace + w);
    b.leaves.push_back(inside);
    for (int i = 0; i < 6; ++i) {
        Q3Leaf outside;
        outside.mins = imins;
        outside.maxs = imaxs;
        outside.firstLeafFace = int32_t(b.leafFaces.size());
        b.leaves.push_back(outside);
    }
    struct Cut {
        Vec3 normal;
        float dist;
        bool insideIsFront;
    };
    const Cut cuts[6] = {{{0, 0, 1}, lo.z, true}, {{0, 0, 1}, hi.z, false}, {{1, 0, 0}, lo.x, true},
                         {{1, 0, 0}, hi.x, false}, {{0, 1, 0}, lo.y, true}, {{0, 1, 0}, hi.y, false}};
    info.rootNode = int32_t(b.nodes.size());
    for (int i = 0; i < 6; ++i) {
        Q3Node n;
        n.plane = b.addPlanePair(cuts[i].normal, cuts[i].dist);
        int32_t next = i < 5 ? info.rootNode + i + 1 : -(info.leaf + 1);
        int32_t out = -(info.leaf + 1 + 1 + i);
        n.children = cuts[i].insideIsFront ? std::array<int32_t, 2>{next, out} : std::array<int32_t, 2>{out, next};
        n.mins = imins;
        n.maxs = imaxs;
        b.nodes.push_back(n);
    }
    return info;
}

namespace {
std::string fmtVec(Vec3 v) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%g %g %g", double(v.x), double(v.y), double(v.z));
    return buf;
}

std::string roomEntities(Vec3 playerAt, Vec3 lightAt) {
    return "{\n\"classname\" \"worldspawn\"\n\"message\" \"luxel test room\"\n}\n"
           "{\n\"classname\" \"info_player_deathmatch\"\n\"origin\" \"" + fmtVec(playerAt) +
           "\"\n\"angle\" \"90\"\n}\n"
           "{\n\"classname\" \"light\"\n\"origin\" \"" + fmtVec(lightAt) + "\"\n\"light\" \"300\"\n}\n";
}

void addGrid(Q3MapBuilder& b, const RoomOptions& opt, Vec3 mins, Vec3 maxs) {
    const double size[3] = {64, 64, 128};
    int64_t count = 1;
    for (int i = 0; i < 3; ++i) {
        double o = size[i] * std::ceil(double(mins[i]) / size[i]);
        double m = size[i] * std::floor(double(maxs[i]) / size[i]);
        count *= int64_t((m - o) / size[i]) + 1;
    }
    for (int64_t p = 0; p < count; ++p) {
        for (uint8_t c : opt.gridAmbient) b.lightGrid.push_back(c);
        for (uint8_t c : opt.gridDirected) b.lightGrid.push_back(c);
        b.lightGrid.push_back(opt.gridAngles[0]);
        b.lightGrid.push_back(opt.gridAngles[1]);
    }
}
}  // namespace

Q3MapBuilder makeRoomMap(const RoomOptions& options) {
    Q3MapBuilder b;
    RoomInfo room = addRoom(b, options, 0);
    Q3Model world;
    world.mins = options.mins;
    world.maxs = options.maxs;
    world.firstFace = room.firstFace;
    world.numFaces = 6;
    b.models.push_back(world);
    b.vis = Q3Vis{1, 1, {0x01}};
    Vec3 c = (options.mins + options.maxs) * 0.5f;
    b.entities = roomEntities(c, {c.x, c.y, options.maxs.z - 56});
    if (options.lightGrid) addGrid(b, options, options.mins, options.maxs);
    return b;
}

Q3MapBuilder makeTwoRoomMap(bool mutuallyVisible, const RoomOptions& options) {
    Q3MapBuilder b;
    b.addTexture("textures/luxel/wall", options.textureFlags);
    Q3Node root;
    root.plane = b.addPlanePair({1, 0, 0}, 0);
    b.nodes.push_back(root);
    RoomOptions a = options, bb = options;
    a.mins.x = -768; a.maxs.x = -256;
    bb.mins.x = 256; bb.maxs.x = 768;
    RoomInfo ra = addRoom(b, a, 0);
    RoomInfo rb = addRoom(b, bb, 1);
    b.nodes[0].children = {rb.rootNode, ra.rootNode};
    b.nodes[0].mins = {-768, int32_t(std::floor(options.mins.y)), int32_t(std::floor(options.mins.z))};
    b.nodes[0].maxs = {768, int32_t(std::ceil(options.maxs.y)), int32_t(std::ceil(options.maxs.z))};
    Q3Model world;
    world.mins = {-768, options.mins.y, options.mins.z};
    world.maxs = {768, options.maxs.y, options.maxs.z};
    world.firstFace = 0;
    world.numFaces = 12;
    b.models.push_back(world);
    b.vis = Q3Vis{2, 1, {uint8_t(mutuallyVisible ? 0x03 : 0x01), uint8_t(mutuallyVisible ? 0x03 : 0x02)}};
    Vec3 c = (a.mins + a.maxs) * 0.5f;
    b.entities = roomEntities(c, {c.x, c.y, a.maxs.z - 56});
    if (options.lightGrid) addGrid(b, options, world.mins, world.maxs);
    return b;
}

Q3MapBuilder fullQ3Map() {
    RoomOptions opt;
    opt.lightGrid = true;
    opt.gridAngles = {64, 64};  // polar 90 deg, azimuth 90 deg: +Y
    Q3MapBuilder b = makeRoomMap(opt);
    b.addTexture("textures/skies/sky", kQ3SurfSky);             // 1
    b.addTexture("textures/common/nodraw", kQ3SurfNoDraw);      // 2
    b.addTexture("textures/common/hint", kQ3SurfHint);          // 3
    b.addTexture("textures/common/skip", kQ3SurfSkip);          // 4
    b.addTexture("textures/luxel/vertexlit", kQ3SurfNoLightmap, 0);  // 5
    // 6: mesh (triangle soup) with two triangles over 4 vertices, vertex lit.
    int32_t mesh = b.addPolygon({{0, 0, 8}, {16, 0, 8}, {16, 16, 8}, {0, 16, 8}}, {0, 0, 1}, 5, -3,
                                {{0, 0}, {0, 0}, {0, 0}, {0, 0}}, {10, 20, 30, 128});
    b.faces[size_t(mesh)].type = kQ3Mesh;
    b.meshVerts[size_t(b.faces[size_t(mesh)].firstMeshVert) + 4] = 3;  // (0,2,3) stays in range
    // 7: 3x3 patch on lightmap 1.
    std::vector<Q3Vertex> cps(9);
    for (int i = 0; i < 9; ++i) {
        cps[size_t(i)].position = {float(i % 3) * 32, float(i / 3) * 32, 64};
        cps[size_t(i)].lightmapUV = {float(i % 3) * 0.5f, float(i / 3) * 0.5f};
        cps[size_t(i)].normal = {0, 0, 1};
    }
    b.addPatch(3, 3, cps, 0, 1);
    // 8: flare.
    b.addBillboard({1, 2, 3}, {0.25f, 0.5f, 1.0f}, {0, 0, -1}, 2);
    b.models[0].numFaces = int32_t(b.faces.size());
    b.leafFaces.push_back(6);
    b.leafFaces.push_back(7);
    b.leaves[0].numLeafFaces = 8;
    // One brush with 6 sides on the room's planes, in leaf 0 and models[0].
    for (int i = 0; i < 6; ++i) b.brushSides.push_back({2 * i, 0});
    b.brushes.push_back({0, 6, 0});
    b.leafBrushes.push_back(0);
    b.leaves[0].firstLeafBrush = 0;
    b.leaves[0].numLeafBrushes = 1;
    b.models[0].numBrushes = 1;
    b.effects.push_back({"textures/fog/thick", 0, 5});
    b.faces[0].effect = 0;
    return b;
}

MapSource q3MemorySource(std::vector<uint8_t> bytes, std::map<std::string, Bytes> related, std::vector<std::string>* opened) {
    return memorySource(std::move(bytes), "mem.bsp", std::move(related), opened);
}

World decodeQ3(const Q3MapBuilder& b) { return decodeMap(q3MemorySource(b.build())); }

}  // namespace luxel::test
