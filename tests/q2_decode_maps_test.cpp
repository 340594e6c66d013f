// The Quake 2 decoder on the shared Quake 2 maps: consistent geometry, the lighting lump accounted for luxel
// by luxel through an independent reading of the raw records, the README's facts, corruption survived.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <set>

#include "luxel/bsp/decode.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/util/error.hpp"
#include "support/decode_helpers.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

// An independent reading of the raw records the lighting checks need (memcpy, no luxel code).
struct RawQ2 {
    std::vector<uint8_t> bytes;
    std::array<std::pair<uint32_t, uint32_t>, 19> lumps{};
    struct Face {
        int32_t lightOffset;
        int numStyles;
        std::array<uint8_t, 4> styles;
        int32_t minS, minT, w, h;
    };
    std::vector<Face> faces;

    template <class T>
    T at(size_t offset) const {
        T v;
        std::memcpy(&v, bytes.data() + offset, sizeof v);
        return v;
    }
    explicit RawQ2(const std::string& path) : bytes(readFile(path)) {
        for (int i = 0; i < 19; ++i) lumps[size_t(i)] = {at<uint32_t>(8 + 8 * size_t(i)), at<uint32_t>(12 + 8 * size_t(i))};
        const auto [fo, fl] = lumps[6];
        for (size_t f = 0; f < fl / 20; ++f) {
            const size_t r = fo + f * 20;
            Face face{};
            const int32_t firstEdge = at<int32_t>(r + 4);
            const uint16_t numEdges = at<uint16_t>(r + 8);
            const int16_t texinfo = at<int16_t>(r + 10);
            for (int k = 0; k < 4; ++k) face.styles[size_t(k)] = bytes[r + 12 + size_t(k)];
            face.lightOffset = at<int32_t>(r + 16);
            while (face.numStyles < 4 && face.styles[size_t(face.numStyles)] != 255) ++face.numStyles;
            float vec[8];
            std::memcpy(vec, bytes.data() + lumps[5].first + size_t(texinfo) * 76, 32);
            float mins[2] = {1e30f, 1e30f}, maxs[2] = {-1e30f, -1e30f};
            for (int k = 0; k < numEdges; ++k) {
                const int32_t se = at<int32_t>(lumps[12].first + 4 * size_t(firstEdge + k));
                const size_t e = lumps[11].first + 4 * size_t(std::abs(se));
                const uint16_t vi = at<uint16_t>(e + (se < 0 ? 2 : 0));
                float p[3];
                std::memcpy(p, bytes.data() + lumps[2].first + 12 * size_t(vi), 12);
                for (int a = 0; a < 2; ++a) {
                    const float v = float(double(p[0]) * vec[4 * a] + double(p[1]) * vec[4 * a + 1] +
                                          double(p[2]) * vec[4 * a + 2] + double(vec[4 * a + 3]));
                    mins[a] = std::min(mins[a], v);
                    maxs[a] = std::max(maxs[a], v);
                }
            }
            face.minS = int32_t(std::floor(mins[0] / 16));
            face.minT = int32_t(std::floor(mins[1] / 16));
            face.w = int32_t(std::ceil(maxs[0] / 16)) - face.minS + 1;
            face.h = int32_t(std::ceil(maxs[1] / 16)) - face.minT + 1;
            faces.push_back(face);
        }
    }
};

std::string mapPath(const std::string& name) { return *sharedMaps() + "/q2/" + name; }

}  // namespace

TEST_CASE("q2 maps: every map decodes with consistent geometry", "[q2decode][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const auto files = sharedMapFiles("q2");
    REQUIRE(files.size() >= 5);
    for (const auto& path : files) {
        INFO(path);
        World w;
        REQUIRE_NOTHROW(w = decodeMap(openMapPath(path)));
        CHECK(w.format == MapFormat::Quake2);
        CHECK(w.lumps.size() == 19);
        CHECK(!w.models.empty());
        CHECK(w.models[0].firstSurface == 0);
        CHECK(!w.entities.empty());
        // Every triangle is clockwise seen from the front, like Quake 3 data.
        size_t against = 0, along = 0;
        for (const Surface& s : w.surfaces)
            for (uint32_t t = 0; t < s.numIndices; t += 3) {
                Vec3 a = w.vertices[s.firstVertex + w.indices[s.firstIndex + t]].position;
                Vec3 b = w.vertices[s.firstVertex + w.indices[s.firstIndex + t + 1]].position;
                Vec3 c = w.vertices[s.firstVertex + w.indices[s.firstIndex + t + 2]].position;
                const float d = dot(cross(b - a, c - a), s.normal);
                (d < 0 ? against : along) += d != 0;
            }
        CHECK(along == 0);
        CHECK(against > 0);
        // Lightmap uvs stay inside their page.
        for (const Surface& s : w.surfaces) {
            if (s.lightmapPage < 0) continue;
            REQUIRE(size_t(s.lightmapPage) < w.lightmaps.size());
            for (uint32_t k = 0; k < s.numVertices; ++k) {
                Vec2 uv = w.vertices[s.firstVertex + k].lightmapUV;
                CHECK((uv.x > 0 && uv.x < 1 && uv.y > 0 && uv.y < 1));
            }
        }
    }
}

TEST_CASE("q2 maps: lighting lump accounting and decoded luxels", "[q2decode][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    // What the compilers did (found by reading the files): q2tools' 4rad packs blocks back to back;
    // ericw-tools and the others pad each face's block to a multiple of 4 luxels (12 bytes).
    const std::map<std::string, bool> padded{{"bsptool_q2_mp_lobby.bsp", false},
                                             {"qengine_sample.bsp", true},
                                             {"quake-experiments_test1.bsp", true},
                                             {"quakeless-ii_test1.bsp", true}};
    for (const auto& [name, pads] : padded) {
        INFO(name);
        RawQ2 raw(mapPath(name));
        const uint32_t lumpSize = raw.lumps[7].second;
        std::vector<std::pair<uint32_t, uint32_t>> blocks;  // offset, luxels (all styles)
        for (const auto& f : raw.faces) {
            REQUIRE(f.lightOffset >= 0);
            const uint32_t luxels = uint32_t(f.w * f.h * f.numStyles);
            CHECK(uint64_t(f.lightOffset) + 3ull * luxels <= lumpSize);
            blocks.push_back({uint32_t(f.lightOffset), luxels});
        }
        std::sort(blocks.begin(), blocks.end());
        for (size_t i = 0; i + 1 < blocks.size(); ++i) {
            const uint32_t luxels = pads ? (blocks[i].second + 3) / 4 * 4 : blocks[i].second;
            CHECK(blocks[i + 1].first == blocks[i].first + 3 * luxels);
        }
        const uint32_t end = blocks.back().first + 3 * blocks.back().second;
        CHECK(end <= lumpSize);
        CHECK(lumpSize - end < 12);

        // Every luxel of every style slot in the decoded pages equals its byte / 255, found at the texel
        // the surface's first vertex points to, with the border repeating the block's edge.
        World w = decodeMap(openMapPath(mapPath(name)));
        REQUIRE(w.surfaces.size() == raw.faces.size());
        size_t compared = 0, wrong = 0;
        for (size_t i = 0; i < raw.faces.size(); ++i) {
            const auto& f = raw.faces[i];
            const Surface& s = w.surfaces[i];
            if (s.lightmapPage < 0) continue;
            for (int k = 0; k < 4; ++k) CHECK(s.styles[size_t(k)] == (k < f.numStyles ? f.styles[size_t(k)] : 255));
            const Vertex& v = w.vertices[s.firstVertex];
            const LightmapPage& page0 = w.lightmaps[size_t(s.lightmapPage)];
            const double x0 = v.lightmapUV.x * double(page0.width) - 0.5 - (v.texUV.x / 16.0 - f.minS);
            const double y0 = v.lightmapUV.y * double(page0.height) - 0.5 - (v.texUV.y / 16.0 - f.minT);
            REQUIRE(std::fabs(x0 - std::round(x0)) < 1e-2);
            REQUIRE(std::fabs(y0 - std::round(y0)) < 1e-2);
            const int px = int(std::round(x0)), py = int(std::round(y0));
            for (int slot = 0; slot < f.numStyles; ++slot) {
                const LightmapPage& page =
                    slot == 0 ? page0 : w.extraLightmapSlots[size_t(slot - 1)][size_t(s.lightmapPage)];
                const uint8_t* src = raw.bytes.data() + raw.lumps[7].first + size_t(f.lightOffset) +
                                     size_t(slot) * size_t(f.w * f.h) * 3;
                for (int j = -1; j <= f.h; ++j)
                    for (int i = -1; i <= f.w; ++i) {
                        const int si = std::clamp(i, 0, f.w - 1), sj = std::clamp(j, 0, f.h - 1);
                        const float* t = page.rgb.data() + (size_t(py + j) * size_t(page.width) + size_t(px + i)) * 3;
                        for (int c = 0; c < 3; ++c)
                            wrong += t[c] != float(src[(size_t(sj) * size_t(f.w) + size_t(si)) * 3 + size_t(c)]) / 255.0f;
                        ++compared;
                    }
            }
        }
        CHECK(compared > 0);
        CHECK(wrong == 0);
    }
}

TEST_CASE("q2 maps: styles, clusters and missing lumps match the README", "[q2decode][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    auto load = [](const std::string& name) { return decodeMap(openMapPath(mapPath(name))); };
    auto twoStyles = [](const World& w) {
        return size_t(std::count_if(w.surfaces.begin(), w.surfaces.end(),
                                    [](const Surface& s) { return s.styles[1] != 255 && s.styles[2] == 255; }));
    };
    auto styleSet = [](const World& w) {
        std::set<int> s;
        for (const Surface& f : w.surfaces)
            for (uint8_t st : f.styles)
                if (st != 255 && f.lightmapPage >= 0) s.insert(st);
        return s;
    };
    auto withStyle = [](const World& w, uint8_t style) {
        return size_t(std::count_if(w.surfaces.begin(), w.surfaces.end(), [&](const Surface& s) {
            return std::find(s.styles.begin(), s.styles.end(), style) != s.styles.end();
        }));
    };

    World ql = load("quakeless-ii_test1.bsp");
    CHECK(ql.surfaces.size() == 985);
    CHECK(twoStyles(ql) == 101);
    CHECK(styleSet(ql) == std::set<int>{0, 5});
    CHECK(ql.extraLightmapSlots[0].size() == ql.lightmaps.size());
    CHECK(ql.extraLightmapSlots[1].empty());
    CHECK(ql.pvs.numClusters == 103);

    World qe = load("quake-experiments_test1.bsp");
    // The README's "style 5 on 58 faces" counts the faces with two styles (0 and 5); two more faces are
    // lit by style 5 alone.
    CHECK(twoStyles(qe) == 58);
    CHECK(withStyle(qe, 5) == 60);
    CHECK(qe.models.size() == 3);
    CHECK(qe.pvs.empty());

    World lobby = load("bsptool_q2_mp_lobby.bsp");
    CHECK(lobby.surfaces.size() == 24);
    CHECK(styleSet(lobby) == std::set<int>{0});
    CHECK(lobby.pvs.numClusters == 4);

    World qs = load("qengine_sample.bsp");
    CHECK(qs.surfaces.size() == 40);
    CHECK(qs.pvs.numClusters == 3);

    World vg = load("vgio_q2_test.bsp");
    CHECK(vg.lightmaps.empty());
    CHECK(vg.pvs.empty());
    for (const Surface& s : vg.surfaces) CHECK(s.lightmapPage == -1);
    for (const Vertex& v : vg.vertices) CHECK((v.color.x == 1.0f && v.color.y == 1.0f && v.color.z == 1.0f));

    // Every cluster sees itself (the spec: clusters are always visible from within themselves).
    for (const World* w : {&ql, &lobby, &qs})
        for (int32_t c = 0; c < w->pvs.numClusters; ++c) CHECK(w->pvs.visible(c, c));
}

TEST_CASE("q2 maps: real maps survive corruption", "[q2decode][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const Bytes good = readFile(mapPath("bsptool_q2_mp_lobby.bsp"));
    std::mt19937 rng(2024);
    size_t decoded = 0, rejected = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        Bytes bytes = good;
        const int flips = 1 + int(rng() % 4);
        for (int k = 0; k < flips; ++k) bytes[rng() % bytes.size()] = uint8_t(rng());
        try {
            decodeBytes(bytes);
            ++decoded;
        } catch (const DecodeError&) {
            ++rejected;
        }
    }
    CHECK(decoded + rejected == 3000);
}
