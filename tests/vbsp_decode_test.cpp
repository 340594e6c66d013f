// Source VBSP decoder: real maps from ../shared/maps/source checked against facts read here independently
// (a test-side container reader and hand-written record parsing), plus synthetic edits of those maps.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <map>
#include <random>

#include "luxel/bsp/decode.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/util/error.hpp"
#include "support/decode_helpers.hpp"
#include "support/test_paths.hpp"
#include "support/vbsp_writer.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

std::string sourceMap(const std::string& name) { return *sharedMaps() + "/source/" + name; }

struct SharedMap {
    Bytes bytes;
    VbspFile m;  // read in the map's own directory layout
};
SharedMap loadSharedMap(const std::string& name) {
    Bytes bytes = readFile(sourceMap(name));
    VbspFile m = readVbsp(bytes, name.find("l4d2") != std::string::npos);
    return {std::move(bytes), std::move(m)};
}

// Little-endian field readers for the independent parsing below.
int32_t i32(const Bytes& b, size_t at) { return int32_t(le32(b, at)); }
int16_t i16(const Bytes& b, size_t at) { return int16_t(le16(b, at)); }
Vec3 vec3(const Bytes& b, size_t at) { return {leF32(b, at), leF32(b, at + 4), leF32(b, at + 8)}; }

// c * 2^e / 255, written out by hand from the spec.
Vec3 rgbe(const Bytes& b, size_t at) {
    const int e = int8_t(b.at(at + 3));
    const double s = std::pow(2.0, e) / 255.0;
    return {float(b[at] * s), float(b[at + 1] * s), float(b[at + 2] * s)};
}

// Ambient cube colours: the engine's ColorRGBExp32ToVector, 255 times the lightmap formula.
Vec3 cubeRgbe(const Bytes& b, size_t at) { return rgbe(b, at) * 255.0f; }

struct Face {
    uint16_t plane;
    uint8_t side;
    int32_t firstEdge;
    int16_t numEdges, texinfo, dispinfo;
    std::array<uint8_t, 4> styles;
    int32_t lightofs;
    int32_t mins[2], size[2];
};

std::vector<Face> readFaces(const Bytes& lump) {
    std::vector<Face> faces(lump.size() / 56);
    for (size_t i = 0; i < faces.size(); ++i) {
        const size_t a = i * 56;
        Face& f = faces[i];
        f.plane = le16(lump, a);
        f.side = lump[a + 2];
        f.firstEdge = i32(lump, a + 4);
        f.numEdges = i16(lump, a + 8);
        f.texinfo = i16(lump, a + 10);
        f.dispinfo = i16(lump, a + 12);
        for (int k = 0; k < 4; ++k) f.styles[size_t(k)] = lump[a + 16 + size_t(k)];
        f.lightofs = i32(lump, a + 20);
        for (int k = 0; k < 2; ++k) f.mins[k] = i32(lump, a + 28 + 4 * size_t(k)), f.size[k] = i32(lump, a + 36 + 4 * size_t(k));
    }
    return faces;
}

// Corner k of a face through surfedges and edges.
Vec3 corner(const VbspFile& m, const Face& f, int k) {
    const int32_t se = i32(m.lumps[13], size_t(f.firstEdge + k) * 4);
    const size_t edge = size_t(se < 0 ? -se : se);
    const uint16_t v = le16(m.lumps[12], edge * 4 + (se < 0 ? 2 : 0));
    return vec3(m.lumps[3], size_t(v) * 12);
}

uint32_t texinfoFlags(const VbspFile& m, int texinfo) { return uint32_t(i32(m.lumps[6], size_t(texinfo) * 72 + 64)); }

int styleCount(const Face& f) {
    int n = 0;
    while (n < 4 && f.styles[size_t(n)] != 255) ++n;
    return n;
}

const std::vector<std::string> kMaps = {
    "bspsrc_l4d2_tooltextures_v21.bsp", "bsptool_tf2_mp_lobby.bsp",         "bsptool_tf2_test2.bsp",
    "bsputils_gmod_map_v20.bsp",        "lanofdoom_$2000$_csgo_v21.bsp",    "sdk2013_sdk_vehicles_v19.bsp",
    "sdk2013ce_sdk_vehicles_v20.bsp",   "sdk2013pr_ss_hl2_level_1_v20.bsp"};

}  // namespace

TEST_CASE("vbsp: every Source map opens; version 25 is rejected clearly", "[vbsp][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const auto files = sharedMapFiles("source");
    REQUIRE(files.size() == kMaps.size() + 1);
    for (const auto& path : files) {
        INFO(path);
        const Bytes bytes = readFile(path);
        const int32_t version = i32(bytes, 4);
        if (version == 25) {
            try {
                decodeMap(openMapPath(path));
                FAIL("v25 decoded");
            } catch (const DecodeError& e) {
                CHECK(e.detail() == "VBSP version 25 is not supported (19-21)");
                CHECK(e.lump() == "header");
                CHECK(e.offset() == 4);
            }
            continue;
        }
        const World w = decodeMap(openMapPath(path));
        CHECK(w.format == MapFormat::Source);
        CHECK(w.formatName == "Source VBSP");
        CHECK(w.version == version);
        CHECK(w.mapRevision == i32(bytes, 1032));
        REQUIRE(w.lumps.size() == 64);
        CHECK(w.lumps[0].name == "entities");
        CHECK(w.lumps[58].name == "faces_hdr");
        CHECK(w.fovReferenceAspect == Approx(4.0 / 3.0));
        CHECK(w.eyeHeight == 64.0f);
        CHECK(w.look.gamma == Approx(2.2));
        CHECK(w.look.hueClampAt == Approx(std::pow(2.0, 2.2)));
        CHECK_FALSE(w.entities.empty());
        CHECK(w.models.size() >= 1);
        // Every surface's ranges and triangles stay inside the World.
        for (const Surface& s : w.surfaces) {
            REQUIRE(uint64_t(s.firstVertex) + s.numVertices <= w.vertices.size());
            REQUIRE(uint64_t(s.firstIndex) + s.numIndices <= w.indices.size());
            CHECK(s.numIndices % 3 == 0);
            for (uint32_t k = 0; k < s.numIndices; ++k) REQUIRE(w.indices[s.firstIndex + k] < s.numVertices);
            if (s.lightmapPage >= 0) {
                REQUIRE(size_t(s.lightmapPage) < w.lightmaps.size());
                for (uint32_t k = 0; k < s.numVertices; ++k) {
                    const Vec2 uv = w.vertices[s.firstVertex + k].lightmapUV;
                    CHECK((uv.x > 0 && uv.x < 1 && uv.y > 0 && uv.y < 1));
                }
            }
        }
        for (const auto& page : w.lightmaps)
            for (float v : page.rgb) REQUIRE((std::isfinite(v) && v >= 0));
    }
}

TEST_CASE("vbsp: header facts from the README", "[vbsp][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    auto displacements = [](const World& w) {
        return std::count_if(w.surfaces.begin(), w.surfaces.end(),
                             [](const Surface& s) { return s.kind == SurfaceKind::Displacement; });
    };
    const World v20 = decodeMap(openMapPath(sourceMap("sdk2013ce_sdk_vehicles_v20.bsp")));
    CHECK(displacements(v20) == 69);
    const World v19 = decodeMap(openMapPath(sourceMap("sdk2013_sdk_vehicles_v19.bsp")));
    CHECK(displacements(v19) == 68);
    CHECK(v19.lumps[10].version == 0);
    const World tf2 = decodeMap(openMapPath(sourceMap("bsptool_tf2_test2.bsp")));
    CHECK(displacements(tf2) == 3);
    REQUIRE(tf2.staticProps.size() == 17);
    for (const auto& p : tf2.staticProps) {
        CHECK(p.model.rfind("models/", 0) == 0);
        CHECK(p.model.size() > 4);
        CHECK(p.model.substr(p.model.size() - 4) == ".mdl");
        CHECK(isFinite(p.origin));
    }
    // The first prop, read by hand from the sprp game lump of this file: origin and yaw.
    CHECK(near(tf2.staticProps[0].origin, {-232.542f, 233.009f, -150.194f}, 1e-3f));
    CHECK(tf2.staticProps[0].angles.y == Approx(316.0f));
    const World csgo = decodeMap(openMapPath(sourceMap("lanofdoom_$2000$_csgo_v21.bsp")));
    CHECK(csgo.lumps[8].length % 2 == 1);  // the odd-length lighting lump decodes
    CHECK(csgo.staticProps.size() == 16);
}

TEST_CASE("vbsp: Left 4 Dead 2 directory layout is detected", "[vbsp][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const Bytes l4d2Bytes = readFile(sourceMap("bspsrc_l4d2_tooltextures_v21.bsp"));
    const World l4d2 = decodeMap(memorySource(l4d2Bytes));
    CHECK(l4d2.layoutName == "left4dead2");
    // Lump 7 of this file: version 1, offset 30536, length 4032 (entry read as version, offset, length).
    CHECK(l4d2.lumps[7].version == i32(l4d2Bytes, 8 + 16 * 7));
    CHECK(l4d2.lumps[7].offset == uint64_t(i32(l4d2Bytes, 8 + 16 * 7 + 4)));
    CHECK(l4d2.surfaces.size() == size_t(i32(l4d2Bytes, 8 + 16 * 7 + 8)) / 56);
    // Unlit map: no lightmaps; every visible surface is full bright.
    CHECK(l4d2.lightmaps.empty());
    size_t visible = 0, hidden = 0;
    for (const Surface& s : l4d2.surfaces) {
        const Material& m = l4d2.materials[size_t(s.material)];
        if (m.flags & kMaterialNoDraw) {
            ++hidden;
            continue;
        }
        ++visible;
        CHECK(s.lightmapPage == -1);
        for (uint32_t k = 0; k < s.numVertices; ++k) {
            const Vec4 c = l4d2.vertices[s.firstVertex + k].color;
            CHECK(near({c.x, c.y, c.z}, {1, 1, 1}, 0));
        }
    }
    CHECK(visible > 0);
    CHECK(hidden > 0);

    // The same map rewritten in the standard layout decodes to the same surfaces; a standard map rewritten
    // in the L4D2 layout is detected as such.
    const World back = decodeMap(memorySource(writeVbsp(readVbsp(l4d2Bytes, true))));
    CHECK(back.layoutName == "standard");
    CHECK(back.surfaces.size() == l4d2.surfaces.size());
    CHECK(back.vertices.size() == l4d2.vertices.size());
    VbspWriteOptions o;
    o.l4d2Layout = true;
    const Bytes lobby = readFile(sourceMap("bsptool_tf2_mp_lobby.bsp"));
    const World a = decodeMap(memorySource(lobby)), b = decodeMap(memorySource(writeVbsp(readVbsp(lobby), o)));
    CHECK(a.layoutName == "standard");
    CHECK(b.layoutName == "left4dead2");
    CHECK(a.vertices.size() == b.vertices.size());
    CHECK(a.lightmaps.size() == b.lightmaps.size());
}

TEST_CASE("vbsp: polygons keep the World winding (cross product against the face normal)", "[vbsp][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    for (const auto& name : kMaps) {
        INFO(name);
        const World w = decodeMap(openMapPath(sourceMap(name)));
        size_t agree = 0, total = 0, dispAgree = 0, dispTotal = 0;
        for (const Surface& s : w.surfaces) {
            for (uint32_t t = 0; t < s.numIndices; t += 3) {
                const Vertex* v = &w.vertices[s.firstVertex];
                const uint32_t* ix = &w.indices[s.firstIndex + t];
                const Vec3 n = cross(v[ix[1]].position - v[ix[0]].position, v[ix[2]].position - v[ix[0]].position);
                // Slivers between colinear T-junction vertices have no usable direction: skip triangles
                // under 1 unit^2 or tilted off the face plane by rounding.
                if (length(n) < 2.0f || (s.kind == SurfaceKind::Polygon && std::fabs(dot(normalize(n), s.normal)) < 0.9f))
                    continue;
                // World convention: cross(b - a, c - a) points away from the front.
                const bool ok = dot(n, s.normal) < 0;
                if (s.kind == SurfaceKind::Displacement) {
                    dispAgree += ok, ++dispTotal;
                } else {
                    agree += ok, ++total;
                }
            }
        }
        CHECK(agree == total);
        CHECK(total > 0);
        // Sculpted terrain may fold over; nearly every displacement triangle still faces the base normal.
        CHECK(dispAgree >= dispTotal * 95 / 100);
    }
}

TEST_CASE("vbsp: displacement corners land on the base face corners plus vec*dist", "[vbsp][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    for (const auto& name : {"sdk2013_sdk_vehicles_v19.bsp", "sdk2013ce_sdk_vehicles_v20.bsp", "bsptool_tf2_test2.bsp"}) {
        INFO(name);
        const Bytes bytes = readFile(sourceMap(name));
        const VbspFile m = readVbsp(bytes);
        const World w = decodeMap(memorySource(bytes));
        const auto faces = readFaces(m.lumps[7]);
        REQUIRE(faces.size() == w.surfaces.size());
        size_t checked = 0;
        for (size_t i = 0; i < faces.size(); ++i) {
            const Face& f = faces[i];
            if (f.dispinfo < 0) continue;
            const Surface& s = w.surfaces[i];
            REQUIRE(s.kind == SurfaceKind::Displacement);
            const size_t d = size_t(f.dispinfo) * 176;
            const Vec3 start = vec3(m.lumps[26], d);
            const int32_t vertStart = i32(m.lumps[26], d + 12), power = i32(m.lumps[26], d + 20);
            const int n = (1 << power) + 1;
            REQUIRE(s.numVertices == uint32_t(n * n));
            REQUIRE(s.numIndices == uint32_t(6 * (n - 1) * (n - 1)));
            std::array<Vec3, 4> c;
            int first = 0;
            for (int k = 0; k < 4; ++k) {
                c[size_t(k)] = corner(m, f, k);
                if (length(c[size_t(k)] - start) < length(c[size_t(first)] - start)) first = k;
            }
            // Grid corners: (0,0) -> corner 0, (n-1,0) -> corner 1, (n-1,n-1) -> corner 2, (0,n-1) -> corner 3,
            // counting from the corner nearest startPosition.
            const std::array<int, 4> gridIndex = {0, (n - 1) * n, n * n - 1, n - 1};
            for (int k = 0; k < 4; ++k) {
                const int g = gridIndex[size_t(k)];
                const size_t dv = (size_t(vertStart) + size_t(g)) * 20;
                const Vec3 expected = c[size_t((first + k) % 4)] + vec3(m.lumps[33], dv) * leF32(m.lumps[33], dv + 12);
                CHECK(near(w.vertices[s.firstVertex + uint32_t(g)].position, expected, 1e-2f));
                const float alpha = std::clamp(leF32(m.lumps[33], dv + 16) / 255.0f, 0.0f, 1.0f);
                CHECK(w.vertices[s.firstVertex + uint32_t(g)].color.w == Approx(alpha).margin(1e-6));
            }
            ++checked;
        }
        CHECK(checked > 0);
    }
}

namespace {

// Checks one (faces lump, lighting lump) pair of a map: each lit face's samples (averages before lightofs,
// then styles x blocks x luxels) lie inside the lump and overlap no other face's; and the decoded atlas
// holds each face's flat style-0 luxels where its vertices' lightmap uvs say.
void checkLighting(const VbspFile& m, const World& w, int facesLump, int lightingLump) {
    const Bytes& light = m.lumps[size_t(lightingLump)];
    const auto faces = readFaces(m.lumps[size_t(facesLump)]);
    REQUIRE(faces.size() == w.surfaces.size());
    std::vector<std::pair<int64_t, int64_t>> ranges;
    size_t valuesChecked = 0;
    for (size_t i = 0; i < faces.size(); ++i) {
        const Face& f = faces[i];
        const int ns = styleCount(f);
        if (f.lightofs < 0 || ns == 0) continue;
        const bool bump = texinfoFlags(m, f.texinfo) & 0x800;
        const int64_t luxels = int64_t(f.size[0] + 1) * (f.size[1] + 1);
        const int64_t begin = f.lightofs - 4 * ns, end = f.lightofs + int64_t(ns) * (bump ? 4 : 1) * luxels * 4;
        CHECK(begin >= 0);
        CHECK(end <= int64_t(light.size()));
        ranges.push_back({begin, end});

        const Surface& s = w.surfaces[i];
        if (s.lightmapPage < 0) continue;
        // Placement of the block: vertex uv * page size - 0.5 - its luxel coordinate (computed here).
        const auto& page = w.lightmaps[size_t(s.lightmapPage)];
        const size_t ti = size_t(f.texinfo) * 72 + 32;
        double px = 0, py = 0;
        if (s.kind == SurfaceKind::Displacement) {
            // Grid vertex 0 sits on luxel (0, 0), the last one on luxel (w, h) (the engine's corner coordinates).
            const Vec2 a = w.vertices[s.firstVertex].lightmapUV, b = w.vertices[s.firstVertex + s.numVertices - 1].lightmapUV;
            px = double(a.x) * page.width - 0.5, py = double(a.y) * page.height - 0.5;
            CHECK(double(b.x) * page.width - 0.5 - f.size[0] == Approx(px).margin(0.01));
            CHECK(double(b.y) * page.height - 0.5 - f.size[1] == Approx(py).margin(0.01));
        }
        for (uint32_t k = 0; k < s.numVertices && s.kind == SurfaceKind::Polygon; ++k) {
            const Vertex& v = w.vertices[s.firstVertex + k];
            const double lu = double(v.position.x) * leF32(m.lumps[6], ti) + double(v.position.y) * leF32(m.lumps[6], ti + 4) +
                              double(v.position.z) * leF32(m.lumps[6], ti + 8) + leF32(m.lumps[6], ti + 12) - f.mins[0];
            const double lv = double(v.position.x) * leF32(m.lumps[6], ti + 16) + double(v.position.y) * leF32(m.lumps[6], ti + 20) +
                              double(v.position.z) * leF32(m.lumps[6], ti + 24) + leF32(m.lumps[6], ti + 28) - f.mins[1];
            const double x = double(v.lightmapUV.x) * page.width - 0.5 - lu, y = double(v.lightmapUV.y) * page.height - 0.5 - lv;
            if (k == 0) px = x, py = y;
            CHECK(x == Approx(px).margin(0.01));
            CHECK(y == Approx(py).margin(0.01));
        }
        const int bx = int(std::lround(px)), by = int(std::lround(py));
        REQUIRE(bx >= 0);
        REQUIRE(by >= 0);
        CHECK(s.lightmapRect == std::array<int32_t, 4>{bx, by, f.size[0] + 1, f.size[1] + 1});
        REQUIRE(bx + f.size[0] < page.width);
        REQUIRE(by + f.size[1] < page.height);
        for (int j = 0; j <= f.size[1]; ++j)
            for (int ii = 0; ii <= f.size[0]; ++ii) {
                const Vec3 expected = rgbe(light, size_t(f.lightofs) + size_t(j * (f.size[0] + 1) + ii) * 4);
                const float* t = &page.rgb[(size_t(by + j) * size_t(page.width) + size_t(bx + ii)) * 3];
                REQUIRE(near({t[0], t[1], t[2]}, expected, 1e-5f * std::max(1.0f, expected.x + expected.y + expected.z)));
            }
        ++valuesChecked;
    }
    std::sort(ranges.begin(), ranges.end());
    for (size_t k = 1; k < ranges.size(); ++k) CHECK(ranges[k].first >= ranges[k - 1].second);
    CHECK(valuesChecked > 0);
}

}  // namespace

TEST_CASE("vbsp: lighting lump accounting and decoded luxels", "[vbsp][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    for (const auto& name : kMaps) {
        INFO(name);
        const auto [bytes, m] = loadSharedMap(name);
        if (m.lumps[8].empty() && m.lumps[53].empty()) continue;  // unlit
        if (!m.lumps[53].empty()) {
            INFO("HDR");
            checkLighting(m, decodeSource(memorySource(bytes)), m.lumps[58].empty() ? 7 : 58, 53);
        }
        if (!m.lumps[8].empty()) {
            INFO("LDR");
            checkLighting(m, decodeSource(memorySource(bytes), true), 7, 8);
        }
    }
}

TEST_CASE("vbsp: ambient cubes from both layouts", "[vbsp][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    for (const auto& name : kMaps) {
        INFO(name);
        const auto [bytes, m] = loadSharedMap(name);
        const World w = decodeMap(memorySource(bytes));
        REQUIRE(w.leafAmbient.size() == w.leaves.size());
        if (m.lumpVersions[10] == 0) {
            // 56-byte leaves, one embedded cube each, at the leaf's centre.
            REQUIRE(w.ambientSamples.size() == w.leaves.size());
            for (size_t i = 0; i < w.leaves.size(); ++i) {
                CHECK(w.leafAmbient[i] == std::pair<uint32_t, uint32_t>{uint32_t(i), 1});
                CHECK(near(w.ambientSamples[i].sides[0], cubeRgbe(m.lumps[10], i * 56 + 30), 1e-4f));
                CHECK(near(w.ambientSamples[i].sides[5], cubeRgbe(m.lumps[10], i * 56 + 30 + 20), 1e-4f));
            }
        } else {
            // LDR index lump 52 for these LDR-lit maps (HDR 51 when only HDR lighting exists).
            const bool hdr = !m.lumps[53].empty() || m.lumps[52].empty();
            const Bytes& index = m.lumps[hdr ? 51 : 52];
            if (index.empty()) {
                CHECK(w.ambientSamples.empty());
                continue;
            }
            REQUIRE(index.size() / 4 == w.leaves.size());
            size_t withSamples = 0;
            for (size_t i = 0; i < w.leaves.size(); ++i) {
                const uint16_t count = le16(index, i * 4), first = le16(index, i * 4 + 2);
                if (count == 0) {
                    CHECK(w.leafAmbient[i].second == 0);
                    continue;
                }
                ++withSamples;
                CHECK(w.leafAmbient[i] == std::pair<uint32_t, uint32_t>{first, count});
            }
            CHECK(withSamples > 0);
        }
        for (size_t i = 0; i < w.leaves.size(); ++i) {
            const Leaf& leaf = w.leaves[i];
            for (uint32_t k = 0; k < w.leafAmbient[i].second; ++k) {
                const AmbientSample& s = w.ambientSamples.at(w.leafAmbient[i].first + k);
                for (const Vec3& side : s.sides) CHECK((isFinite(side) && side.x >= 0 && side.y >= 0 && side.z >= 0));
                CHECK(s.position.x >= leaf.mins.x - 1e-3f);
                CHECK(s.position.y >= leaf.mins.y - 1e-3f);
                CHECK(s.position.z >= leaf.mins.z - 1e-3f);
                CHECK(s.position.x <= leaf.maxs.x + 1e-3f);
                CHECK(s.position.y <= leaf.maxs.y + 1e-3f);
                CHECK(s.position.z <= leaf.maxs.z + 1e-3f);
            }
        }
    }
}

TEST_CASE("vbsp: unsupported versions and broken headers are refused clearly", "[vbsp][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    Bytes bytes = readFile(sourceMap("bsptool_tf2_mp_lobby.bsp"));
    for (int32_t v : {17, 18, 22, 25}) {
        Bytes b = bytes;
        std::memcpy(&b[4], &v, 4);
        try {
            decodeMap(memorySource(b));
            FAIL("decoded version " << v);
        } catch (const DecodeError& e) {
            CHECK(e.detail() == "VBSP version " + std::to_string(v) + " is not supported (19-21)");
        }
    }
    // A lump pointing past the end of the file names itself.
    Bytes b = bytes;
    const int32_t huge = int32_t(b.size());
    std::memcpy(&b[8 + 16 * 1], &huge, 4);  // planes offset
    try {
        decodeMap(memorySource(b));
        FAIL("decoded");
    } catch (const DecodeError& e) {
        CHECK(e.lump() == "planes");
    }
}

TEST_CASE("vbsp: truncated and corrupted maps fail cleanly", "[vbsp][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const Bytes bytes = readFile(sourceMap("bsptool_tf2_mp_lobby.bsp"));
    const Bytes tf2 = readFile(sourceMap("bsptool_tf2_test2.bsp"));
    VbspWriteOptions o;
    for (int i = 0; i < 64; ++i)
        if (i != 35 && i != 40) o.lzmaLumps.insert(i);
    o.lzmaGameLumps = true;
    const Bytes packed = writeVbsp(readVbsp(tf2), o);
    for (const Bytes* file : {&bytes, &tf2, &packed}) {
        // Cuts: every lump boundary region and a stride through the file.
        for (size_t cut = 0; cut < file->size(); cut += 1 + file->size() / 300) {
            Bytes b(file->begin(), file->begin() + long(cut));
            try {
                decodeMap(memorySource(b));
            } catch (const DecodeError&) {
            }
        }
        std::mt19937 rng(1234);
        for (int trial = 0; trial < 300; ++trial) {
            Bytes b = *file;
            for (int k = 0; k < 8; ++k) b[rng() % b.size()] = uint8_t(rng());
            try {
                decodeMap(memorySource(b));
            } catch (const DecodeError&) {
            }
        }
    }
    // A cut that removes the end of a needed lump throws (never returns a half map).
    CHECK_THROWS_AS(decodeMap(memorySource(Bytes(bytes.begin(), bytes.begin() + long(bytes.size() / 2)))), DecodeError);
}

TEST_CASE("vbsp: tool and sky materials get neutral flags; real maps report no problems", "[vbsp][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    for (const auto& name : kMaps) {
        INFO(name);
        const World w = decodeMap(openMapPath(sourceMap(name)));
        CHECK(w.problems.empty());
        for (const Material& m : w.materials) {
            INFO(m.name);
            std::string upper = m.name;
            for (char& ch : upper) ch = char(std::toupper(static_cast<unsigned char>(ch)));
            const uint32_t f = m.nativeSurfaceFlags;
            if (upper == "TOOLS/TOOLSNODRAW" || upper == "TOOLS/TOOLSTRIGGER" || upper == "TOOLS/TOOLSSKIP" ||
                upper == "TOOLS/TOOLSHINT" || upper == "TOOLS/TOOLSCLIP" || (f & (0x80 | 0x200 | 0x100 | 0x40)))
                CHECK((m.flags & kMaterialNoDraw));
            if (upper == "TOOLS/TOOLSSKYBOX" || (f & (0x4 | 0x2))) CHECK((m.flags & kMaterialSky));
            if (upper.rfind("TOOLS/", 0) != 0 && !(f & (0x80 | 0x200 | 0x100 | 0x40))) CHECK_FALSE((m.flags & kMaterialNoDraw));
        }
    }
}

TEST_CASE("vbsp: HDR is preferred, LDR on request, each with its own faces and lighting lumps", "[vbsp][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const Bytes bytes = readFile(sourceMap("bsptool_tf2_mp_lobby.bsp"));
    const VbspFile m = readVbsp(bytes);
    REQUIRE_FALSE(m.lumps[53].empty());
    REQUIRE_FALSE(m.lumps[8].empty());
    const World hdr = decodeMap(memorySource(bytes)), ldr = decodeSource(memorySource(bytes), true);
    // The lighting tests above tie each World to its lump; here: the two sets really differ in this map.
    REQUIRE(hdr.lightmaps.size() == ldr.lightmaps.size());
    bool differ = false;
    for (size_t i = 0; i < hdr.lightmaps.size(); ++i) differ |= hdr.lightmaps[i].rgb != ldr.lightmaps[i].rgb;
    CHECK(differ == (m.lumps[53] != m.lumps[8]));
    // A map with only LDR lighting gives the same World either way.
    const Bytes gmod = readFile(sourceMap("bsputils_gmod_map_v20.bsp"));
    const World a = decodeSource(memorySource(gmod)), b = decodeSource(memorySource(gmod), true);
    REQUIRE(a.lightmaps.size() == b.lightmaps.size());
    for (size_t i = 0; i < a.lightmaps.size(); ++i) CHECK(a.lightmaps[i].rgb == b.lightmaps[i].rgb);
}
