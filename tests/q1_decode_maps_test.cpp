// Quake 1 maps as ericw-tools built them (../shared/maps/q1): the decoder's luxels against an independent
// reading of the same files (tests/support/q1_lighting_reader), and the builds of one map against each other.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "luxel/bsp/decode.hpp"
#include "luxel/io/map_source.hpp"
#include "support/q1_checks.hpp"
#include "support/q1_lighting_reader.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;

namespace {

std::string lqdm1(const std::string& build, const std::string& file) { return *sharedMaps() + "/q1/lqdm1/" + build + "/" + file; }

// Every face the reader found lit, against the decoded World: the same block size and every style-0 luxel
// byte x 264 / 256 / 255 (liquids too: these maps' water is lit, qbsp -splitturb). Every face the reader found
// dark has one black luxel of style 0, and no other face has a block.
void compareWithReader(const Q1Lighting& raw, const World& w) {
    REQUIRE(w.surfaces.size() == raw.faces);
    std::set<uint32_t> readerLit;
    size_t compared = 0, wrong = 0, sizes = 0, liquids = 0, outside = 0;
    for (const Q1FaceLight& f : raw.lit) {
        const Surface& s = w.surfaces[f.face];
        liquids += !f.texture.empty() && f.texture[0] == '*';
        readerLit.insert(f.face);
        REQUIRE(s.lightmapPage >= 0);
        if (s.lightmapRect[2] != f.width || s.lightmapRect[3] != f.height) {
            ++sizes;
            continue;
        }
        for (int32_t k = 0; k < 4; ++k) CHECK(s.styles[size_t(k)] == f.styles[size_t(k)]);
        // Every corner lies on the block: its luxel coordinate within 0..size - 1 (the extents are its bounds).
        const LightmapPage& page = w.lightmaps.at(size_t(s.lightmapPage));
        for (uint32_t k = 0; k < s.numVertices; ++k) {
            const Vec2 uv = w.vertices[s.firstVertex + k].lightmapUV;
            const double u = double(uv.x) * page.width - 0.5 - s.lightmapRect[0], v = double(uv.y) * page.height - 0.5 - s.lightmapRect[1];
            outside += u < -1e-3 || v < -1e-3 || u > f.width - 1 + 1e-3 || v > f.height - 1 + 1e-3;
        }
        for (int j = 0; j < f.height; ++j)
            for (int i = 0; i < f.width; ++i) {
                const Vec3 got = luxelAt(w, 0, s, i, j);
                const uint8_t* want = f.rgb.data() + (size_t(j) * size_t(f.width) + size_t(i)) * 3;
                wrong += !(got == Vec3{stored(want[0]), stored(want[1]), stored(want[2])});
                ++compared;
            }
    }
    size_t darkWrong = 0;
    for (uint32_t face : raw.dark) {
        const Surface& s = w.surfaces[face];
        darkWrong += !(s.lightmapPage >= 0 && s.lightmapRect[2] == 1 && s.lightmapRect[3] == 1 && s.styles[0] == 0 &&
                       s.styles[1] == 255 && luxelAt(w, 0, s, 0, 0) == Vec3{0, 0, 0});
        readerLit.insert(face);
    }
    // And no other face has a block.
    size_t extra = 0;
    for (size_t i = 0; i < w.surfaces.size(); ++i) extra += w.surfaces[i].lightmapPage >= 0 && !readerLit.count(uint32_t(i));
    INFO(raw.lit.size() << " lit faces, " << liquids << " liquids, " << raw.dark.size() << " dark");
    CHECK(liquids > 100);
    CHECK(darkWrong == 0);
    CHECK(sizes == 0);
    CHECK(extra == 0);
    CHECK(outside == 0);
    CHECK(compared > 50000);
    CHECK(wrong == 0);
}

}  // namespace

TEST_CASE("q1 maps: lqdm1's luxels against an independent reading (BSP29 + .lit, BSP2 + BSPX RGBLIGHTING)", "[q1][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    if (!std::filesystem::exists(lqdm1("bsp29_lit", "lqdm1.bsp"))) {
        WARN("SKIPPED: " << lqdm1("bsp29_lit", "lqdm1.bsp") << " not found");
        return;
    }
    SECTION("BSP29 + .lit") {
        const Q1Lighting raw = readQ1Lighting(lqdm1("bsp29_lit", "lqdm1.bsp"), lqdm1("bsp29_lit", "lqdm1.lit"));
        CHECK(raw.variant == "BSP29");
        CHECK(raw.source == ".lit");
        const World w = decodeMap(openMapPath(lqdm1("bsp29_lit", "lqdm1.bsp")));
        CHECK(w.lightSource == ".lit (lqdm1.lit)");
        compareWithReader(raw, w);
    }
    SECTION("BSP29 without its .lit: the grey lump") {
        const Q1Lighting raw = readQ1Lighting(lqdm1("bsp29_lit", "lqdm1.bsp"));
        CHECK(raw.source == "grey");
        const Bytes bytes = readFile(lqdm1("bsp29_lit", "lqdm1.bsp"));
        const World w = decodeMap(memorySource(bytes, "lqdm1.bsp"));
        CHECK(w.lightSource == "lighting lump (grey)");
        compareWithReader(raw, w);
    }
    SECTION("BSP2 + BSPX RGBLIGHTING") {
        const Q1Lighting raw = readQ1Lighting(lqdm1("bsp2_bspx", "lqdm1.bsp"));
        CHECK(raw.variant == "BSP2");
        CHECK(raw.source == "BSPX RGBLIGHTING");
        const World w = decodeMap(openMapPath(lqdm1("bsp2_bspx", "lqdm1.bsp")));
        CHECK(w.lightSource == "BSPX RGBLIGHTING");
        compareWithReader(raw, w);
    }
}

TEST_CASE("q1 maps: the other shared builds against the independent reading (.lit, DECOUPLED_LM, unlit)", "[q1][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    struct Build {
        std::string map, lit, source;
        bool decoupled;
    };
    const std::string q1 = *sharedMaps() + "/q1/";
    const Build builds[] = {
        {"lq_e1m2/bsp29_lit/lq_e1m2.bsp", "lq_e1m2/bsp29_lit/lq_e1m2.lit", ".lit (lq_e1m2.lit)", false},
        {"lq_e1m2/bsp2_wupl8/lq_e1m2.bsp", "", "BSPX RGBLIGHTING", true},
        {"lq_e1m5/bsp29_lit/lq_e1m5.bsp", "lq_e1m5/bsp29_lit/lq_e1m5.lit", ".lit (lq_e1m5.lit)", false},
    };
    for (const Build& b : builds) {
        INFO(b.map);
        if (!std::filesystem::exists(q1 + b.map)) {
            WARN("SKIPPED: " << q1 + b.map << " not found");
            continue;
        }
        const Q1Lighting raw = readQ1Lighting(q1 + b.map, b.lit.empty() ? "" : q1 + b.lit);
        CHECK(raw.decoupled == b.decoupled);
        const World w = decodeMap(openMapPath(q1 + b.map));
        CHECK(w.lightSource == b.source);
        compareWithReader(raw, w);
    }
    // qbsp's output before light: no face has light, and none gets a block.
    for (const char* unlit : {"lqdm1/bsp29_lit/lqdm1.unlit.bsp", "lq_e1m2/bsp29_lit/lq_e1m2.unlit.bsp"}) {
        INFO(unlit);
        if (!std::filesystem::exists(q1 + unlit)) continue;
        CHECK(readQ1Lighting(q1 + unlit).lit.empty());
        const World w = decodeMap(memorySource(readFile(q1 + unlit), "x.bsp"));
        CHECK(w.lightmaps.empty());
        CHECK(std::none_of(w.surfaces.begin(), w.surfaces.end(), [](const Surface& s) { return s.lightmapPage >= 0; }));
    }
}

TEST_CASE("q1 maps: lqdm1's BSP29 + .lit and BSP2 + BSPX builds show the same light on every face", "[q1][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    if (!std::filesystem::exists(lqdm1("bsp2_bspx", "lqdm1.bsp"))) {
        WARN("SKIPPED: " << lqdm1("bsp2_bspx", "lqdm1.bsp") << " not found");
        return;
    }
    const World a = decodeMap(openMapPath(lqdm1("bsp29_lit", "lqdm1.bsp")));
    const World b = decodeMap(openMapPath(lqdm1("bsp2_bspx", "lqdm1.bsp")));
    CHECK(a.formatName == "Quake 1 BSP29");
    CHECK(b.formatName == "Quake 1 BSP2");
    REQUIRE(a.surfaces.size() == b.surfaces.size());
    CHECK(a.surfaces.size() == 4292);
    size_t lit = 0, differ = 0;
    for (size_t i = 0; i < a.surfaces.size(); ++i) {
        const Surface& sa = a.surfaces[i];
        const Surface& sb = b.surfaces[i];
        REQUIRE((sa.lightmapPage >= 0) == (sb.lightmapPage >= 0));
        CHECK(sa.styles == sb.styles);
        if (sa.lightmapPage < 0) continue;
        ++lit;
        REQUIRE(sa.lightmapRect[2] == sb.lightmapRect[2]);
        REQUIRE(sa.lightmapRect[3] == sb.lightmapRect[3]);
        for (int j = 0; j < sa.lightmapRect[3]; ++j)
            for (int k = 0; k < sa.lightmapRect[2]; ++k) differ += !(luxelAt(a, 0, sa, k, j) == luxelAt(b, 0, sb, k, j));
    }
    CHECK(lit == 3707 + 433);  // faces with light (217 of them *water0) and the dark ones: 428 walls, 5 *water0
    CHECK(differ == 0);
}
