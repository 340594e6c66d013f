// Baked lightmaps written into Source and Quake 2 maps (bsp/write_lightmaps.hpp writeLightmaps): the written
// bytes against the stored encodings by hand, the round trip (decode the written map, get the written pages
// back within the encoding's quantisation) on a synthetic Quake 2 map, real maps of both formats (LDR and HDR
// Source lighting, two Quake 2 styles) and a Source map re-packed with an LZMA lighting lump; every byte
// outside the lighting lump kept.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "luxel/bsp/decode.hpp"
#include "luxel/bsp/write_lightmaps.hpp"
#include "luxel/bsp/write_probes.hpp"
#include "luxel/light/light_grid.hpp"
#include "luxel/util/error.hpp"
#include "support/decode_helpers.hpp"
#include "support/q2_writer.hpp"
#include "support/test_paths.hpp"
#include "support/vbsp_writer.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

using Slots = std::vector<std::vector<LightmapPage>>;

// The map file writeLightmaps makes from these slots (at most 4; the rest of the set left empty).
Bytes writeSlots(const MapSource& src, const World& w, const Slots& slots) {
    LightmapSet set;
    for (size_t k = 0; k < slots.size() && k < set.slots.size(); ++k) set.slots[k] = slots[k];
    return writeLightmaps(src, w, set).map;
}

// Every luxel of every lit surface in slot k of a World: (surface, i, j) -> light, read where the decoder put it.
Vec3 luxelOf(const std::vector<LightmapPage>& pages, const Surface& s, int32_t i, int32_t j) {
    const LightmapPage& p = pages[size_t(s.lightmapPage)];
    const size_t t = (size_t(s.lightmapRect[1] + j) * size_t(p.width) + size_t(s.lightmapRect[0] + i)) * 3;
    return {p.rgb[t], p.rgb[t + 1], p.rgb[t + 2]};
}
void setLuxel(std::vector<LightmapPage>& pages, const Surface& s, int32_t i, int32_t j, Vec3 v) {
    LightmapPage& p = pages[size_t(s.lightmapPage)];
    const size_t t = (size_t(s.lightmapRect[1] + j) * size_t(p.width) + size_t(s.lightmapRect[0] + i)) * 3;
    p.rgb[t] = v.x, p.rgb[t + 1] = v.y, p.rgb[t + 2] = v.z;
}

// Pages with every luxel of every lit surface set by f(surface, i, j) (texels outside luxels stay 0).
std::vector<LightmapPage> pagesOf(const World& w, const std::vector<LightmapPage>& layout,
                                  const std::function<Vec3(size_t, int32_t, int32_t)>& f) {
    std::vector<LightmapPage> pages = layout;
    for (LightmapPage& p : pages) std::fill(p.rgb.begin(), p.rgb.end(), 0.0f);
    for (size_t s = 0; s < w.surfaces.size(); ++s) {
        const Surface& x = w.surfaces[s];
        if (x.lightmapPage < 0) continue;
        for (int32_t j = 0; j < x.lightmapRect[3]; ++j)
            for (int32_t i = 0; i < x.lightmapRect[2]; ++i) setLuxel(pages, x, i, j, f(s, i, j));
    }
    return pages;
}

// Bytes differing between two files of the same size must all lie in [offset, offset + length).
void requireOnlyInside(const Bytes& a, const Bytes& b, uint64_t offset, uint64_t length) {
    REQUIRE(a.size() == b.size());
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i]) {
            INFO("byte " << i);
            REQUIRE(i >= offset);
            REQUIRE(i < offset + length);
        }
}

// ColorRGBExp32 keeps 8 bits of the largest channel: a channel is off by at most half a mantissa step,
// top / 255 (the exponent makes the top mantissa at least 128 unless the value is tiny).
void requireRgbExpClose(Vec3 got, Vec3 want) {
    const float top = std::max({want.x, want.y, want.z});
    for (int c = 0; c < 3; ++c) REQUIRE(std::abs(got[c] - want[c]) <= top / 255.0f + 1e-7f);
}

Bytes sourceBytes(const std::string& name) { return readFile(*sharedMaps() + "/source/" + name); }

}  // namespace

TEST_CASE("Quake 2 light bytes: linear x 255 rounded, scaled down together past 255", "[write_lighting]") {
    CHECK(encodeQuake2Light({0, 0.5f, 1}) == std::array<uint8_t, 3>{0, 128, 255});
    CHECK(encodeQuake2Light({10.0f / 255, 254.6f / 255, 0.2f / 255}) == std::array<uint8_t, 3>{10, 255, 0});
    // (2, 1, 0.5) is 510, 255, 127.5 bytes: halved to keep the hue.
    CHECK(encodeQuake2Light({2, 1, 0.5f}) == std::array<uint8_t, 3>{255, 128, 64});
    CHECK(encodeQuake2Light({-1, std::nanf(""), 0}) == std::array<uint8_t, 3>{0, 0, 0});
}

TEST_CASE("Quake 2 lightmaps written in place: hand-computed bytes per style, decoded back", "[write_lighting]") {
    // The floor map of q2_writer with two styles (0 and 5): 5 x 3 luxels a style at lighting offset 0.
    Q2MapBuilder b;
    b.entities = "{\n\"classname\" \"worldspawn\"\n}\n";
    const int32_t floor = b.addPlane({0, 0, 1}, 0);
    const int32_t tex = b.addTexinfo({1, 0, 0, 0}, {0, 1, 0, 0});
    std::vector<std::array<uint8_t, 3>> style0, style5;
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 5; ++i) style0.push_back({uint8_t(10 * i), uint8_t(10 * j), 7}), style5.push_back({1, 2, 3});
    const int32_t light = b.addLighting({style0, style5});
    b.addFace({{0, 0, 0}, {0, 32, 0}, {64, 32, 0}, {64, 0, 0}}, floor, false, tex, {0, 5, 255, 255}, light);
    addQ2FloorWorld(b, floor, tex, 1, {64, 32, 0});
    const Bytes file = b.build();
    const MapSource src = memorySource(file, "floor.bsp");
    const World w = decodeMap(src);
    REQUIRE(w.surfaces[0].lightmapRect[2] == 5);
    REQUIRE(w.surfaces[0].lightmapRect[3] == 3);

    // Slot 0: luxel (i, j) = (i / 10, j / 4, 0.5); luxel (4, 2) over-bright (2, 1, 0.5). Slot 1 not given.
    Slots slots(1);
    slots[0] = pagesOf(w, w.lightmaps, [](size_t, int32_t i, int32_t j) { return Vec3{float(i) / 10, float(j) / 4, 0.5f}; });
    setLuxel(slots[0], w.surfaces[0], 4, 2, {2, 1, 0.5f});
    const Bytes written = writeSlots(src, w, slots);
    const auto [offset, length] = q2LumpRange(file, kQ2Lighting);
    REQUIRE(length == 2 * 15 * 3);
    requireOnlyInside(file, written, offset, 15 * 3);  // style 5's grid kept
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 5; ++i) {
            const size_t at = offset + size_t(j * 5 + i) * 3;
            const std::array<uint8_t, 3> want = i == 4 && j == 2 ? std::array<uint8_t, 3>{255, 128, 64}
                                                                 : std::array<uint8_t, 3>{uint8_t(std::lround(25.5 * i)),
                                                                                          uint8_t(std::lround(63.75 * j)), 128};
            INFO("luxel " << i << " " << j);
            CHECK(std::equal(want.begin(), want.end(), written.begin() + std::ptrdiff_t(at)));
        }

    // Both slots given: decoding gives the pages back within half a byte step (the over-bright one hue-kept).
    slots.push_back(pagesOf(w, w.extraLightmapSlots[0], [](size_t, int32_t i, int32_t j) { return Vec3{0.1f, float(i + j) / 8, 0}; }));
    const World back = decodeMap(memorySource(writeSlots(src, w, slots), "floor2.bsp"));
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 5; ++i) {
            const Vec3 a = luxelOf(back.lightmaps, back.surfaces[0], i, j), b5 = luxelOf(back.extraLightmapSlots[0], back.surfaces[0], i, j);
            const Vec3 wantA = i == 4 && j == 2 ? Vec3{1, 0.5f, 0.25f} : luxelOf(slots[0], w.surfaces[0], i, j);
            const Vec3 want5 = luxelOf(slots[1], w.surfaces[0], i, j);
            for (int c = 0; c < 3; ++c) {
                REQUIRE(std::abs(a[c] - wantA[c]) <= 0.5f / 255 + 1e-6f);
                REQUIRE(std::abs(b5[c] - want5[c]) <= 0.5f / 255 + 1e-6f);
            }
        }
}

TEST_CASE("lightmap writers refuse pages that do not fit and files that do not match", "[write_lighting]") {
    const Bytes file = makeQ2FloorMap().build();
    const MapSource src = memorySource(file, "floor.bsp");
    const World w = decodeMap(src);
    Slots wrong{w.lightmaps};
    wrong[0].push_back(wrong[0][0]);
    CHECK_THROWS_AS(writeSlots(src, w, wrong), UsageError);
    // A World with another face count than the file: the writer reads the file's own faces and refuses.
    World other = w;
    other.surfaces.push_back(other.surfaces[0]);
    CHECK_THROWS_AS(writeSlots(src, other, Slots{w.lightmaps}), DecodeError);
    // Nothing given: the file as it was.
    CHECK(writeSlots(src, w, Slots{}) == file);
}

TEST_CASE("Quake 2 real map: both styles written, decoded back, every other byte kept", "[write_lighting][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const Bytes file = readFile(*sharedMaps() + "/q2/quakeless-ii_test1.bsp");
    const MapSource src = memorySource(file, "quakeless-ii_test1.bsp");
    const World w = decodeMap(src);
    REQUIRE_FALSE(w.extraLightmapSlots[0].empty());
    auto pattern = [](float scale) {
        return [scale](size_t s, int32_t i, int32_t j) { return Vec3{float((s * 7 + size_t(i)) % 50) / 64, float(j % 9) / 16, scale}; };
    };
    const Slots slots{pagesOf(w, w.lightmaps, pattern(0.25f)), pagesOf(w, w.extraLightmapSlots[0], pattern(0.75f))};
    const Bytes written = writeSlots(src, w, slots);
    const auto [offset, length] = q2LumpRange(file, kQ2Lighting);
    requireOnlyInside(file, written, offset, length);
    const World back = decodeMap(memorySource(written, "back.bsp"));
    size_t checked = 0;
    for (size_t s = 0; s < w.surfaces.size(); ++s) {
        const Surface& x = w.surfaces[s];
        if (x.lightmapPage < 0) continue;
        for (size_t k = 0; k < 2 && x.styles[k] != 255; ++k) {
            const auto& got = k == 0 ? back.lightmaps : back.extraLightmapSlots[0];
            for (int32_t j = 0; j < x.lightmapRect[3]; ++j)
                for (int32_t i = 0; i < x.lightmapRect[2]; ++i, ++checked) {
                    const Vec3 a = luxelOf(got, back.surfaces[s], i, j), b = luxelOf(slots[k], x, i, j);
                    for (int c = 0; c < 3; ++c) REQUIRE(std::abs(a[c] - b[c]) <= 0.5f / 255 + 1e-6f);
                }
        }
    }
    CHECK(checked > 90000);
}

TEST_CASE("Source lightmaps written into the lighting set decoded (LDR, HDR, LZMA): decoded back, bump blocks and medians",
          "[write_lighting][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    struct Case {
        const char* map;
        bool preferLdr, lzma;  // lzma: the HDR lighting lump (53) re-packed LZMA-framed
        size_t bumpedFaces;    // lit bump-lit faces of the map
    };
    for (const Case c : {Case{"sdk2013ce_sdk_vehicles_v20.bsp", false, false, 0}, Case{"bsptool_tf2_test2.bsp", false, false, 3},
                         Case{"bsptool_tf2_mp_lobby.bsp", false, false, 0}, Case{"bsptool_tf2_mp_lobby.bsp", true, false, 0},
                         Case{"bsptool_tf2_mp_lobby.bsp", false, true, 0}}) {
        INFO(c.map << (c.preferLdr ? " LDR" : "") << (c.lzma ? " LZMA" : ""));
        Bytes file = sourceBytes(c.map);
        if (c.lzma) {
            VbspWriteOptions o;
            o.lzmaLumps = {53};
            file = writeVbsp(readVbsp(file), o);
        }
        const MapSource src = memorySource(file, c.map);
        const DecodeOptions options{c.preferLdr};
        const World w = decodeMap(src, options);
        const int lump = w.hdrLighting ? 53 : 8;  // the lighting lump written
        CHECK(w.hdrLighting == (std::string(c.map) == "bsptool_tf2_mp_lobby.bsp" && !c.preferLdr));
        REQUIRE(w.lumps[size_t(lump)].compressed == c.lzma);
        const Slots slots{pagesOf(w, w.lightmaps, [](size_t s, int32_t i, int32_t j) {
            return Vec3{float((s + size_t(i)) % 13) * 0.37f, float(j % 5) * 0.05f + 0.001f, 1.5f};
        })};
        const Bytes written = writeSlots(src, w, slots);
        const LumpInfo& info = w.lumps[size_t(lump)];
        if (c.lzma) {
            // Appended uncompressed: the old bytes stay but for the lump's directory entry.
            REQUIRE(written.size() > file.size());
            for (size_t i = 0; i < file.size(); ++i)
                if (written[i] != file[i]) REQUIRE((i >= 8 + 16 * size_t(lump) && i < 8 + 16 * size_t(lump + 1)));
        } else {
            requireOnlyInside(file, written, info.offset, info.length);
        }
        const World back = decodeMap(memorySource(written, c.map), options);
        REQUIRE_FALSE(back.lumps[size_t(lump)].compressed);
        size_t bumped = 0;
        for (size_t s = 0; s < w.surfaces.size(); ++s) {
            const Surface& x = w.surfaces[s];
            if (x.lightmapPage < 0) continue;
            for (int32_t j = 0; j < x.lightmapRect[3]; ++j)
                for (int32_t i = 0; i < x.lightmapRect[2]; ++i)
                    requireRgbExpClose(luxelOf(back.lightmaps, back.surfaces[s], i, j), luxelOf(slots[0], x, i, j));
            if (c.lzma) continue;
            // The written lump itself: a bump-lit face's four blocks hold the same bytes; the style's median
            // (per channel, element n / 2 of the sorted luxels) sits 4 bytes before lightofs.
            const size_t faces = w.hdrLighting && w.lumps[58].length > 0 ? 58 : 7;
            const size_t lightofs = size_t(le32(written, size_t(w.lumps[faces].offset) + s * 56 + 20));
            const size_t grid = size_t(x.lightmapRect[2]) * size_t(x.lightmapRect[3]) * 4;
            const uint8_t* data = written.data() + info.offset;
            if (w.materials[size_t(x.material)].nativeSurfaceFlags & 0x800) {
                ++bumped;
                for (size_t block = 1; block < 4; ++block)
                    REQUIRE(std::equal(data + lightofs, data + lightofs + grid, data + lightofs + block * grid));
            }
            std::array<std::vector<float>, 3> channels;
            for (int32_t j = 0; j < x.lightmapRect[3]; ++j)
                for (int32_t i = 0; i < x.lightmapRect[2]; ++i)
                    for (int ch = 0; ch < 3; ++ch) channels[size_t(ch)].push_back(luxelOf(slots[0], x, i, j)[ch]);
            Vec3 median;
            for (int ch = 0; ch < 3; ++ch) {
                auto& v = channels[size_t(ch)];
                std::sort(v.begin(), v.end());
                (ch == 0 ? median.x : ch == 1 ? median.y : median.z) = v[v.size() / 2];
            }
            const auto want = encodeColorRGBExp32(median);
            REQUIRE(std::equal(want.begin(), want.end(), data + lightofs - 4));
        }
        if (!c.lzma) CHECK(bumped == c.bumpedFaces);
    }
}
