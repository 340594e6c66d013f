// Writing light probes back into map files: the stored encodings against the decoders' formulas, a
// synthetic Quake 3 grid, and real Quake 3 / Source maps (leaf-embedded cubes, LDR and HDR sample lumps,
// LZMA lumps in both directory layouts) whose probes are halved, written, and decoded again.
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <numbers>

#include "luxel/bsp/decode.hpp"
#include "luxel/bsp/write_probes.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/util/error.hpp"
#include "support/decode_helpers.hpp"
#include "support/q3_writer.hpp"
#include "support/test_paths.hpp"
#include "support/vbsp_writer.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

// The decoders' formulas, restated: Quake 3 stores linear * 255 / 4, angles as byte * 2pi / 256 (polar
// from +Z, then azimuth); Source stores mantissa * 2^exponent / 255 with a signed exponent byte.
float gridColor(uint8_t b) { return float(4 * int(b)) / 255.0f; }
Vec3 gridDirection(uint8_t polarByte, uint8_t azimuthByte) {
    const float angle = 2.0f * std::numbers::pi_v<float> / 256.0f;
    const float p = float(polarByte) * angle, a = float(azimuthByte) * angle;
    return {std::cos(a) * std::sin(p), std::sin(a) * std::sin(p), std::cos(p)};
}
GridSample decodePoint(const std::array<uint8_t, 8>& b) {
    return {{gridColor(b[0]), gridColor(b[1]), gridColor(b[2])},
            {gridColor(b[3]), gridColor(b[4]), gridColor(b[5])},
            gridDirection(b[6], b[7])};
}
Vec3 rgbExp(const std::array<uint8_t, 4>& b) {
    const float scale = std::ldexp(1.0f, int(int8_t(b[3]))) / 255.0f;
    return {float(b[0]) * scale, float(b[1]) * scale, float(b[2]) * scale};
}

using Bytes4 = std::array<uint8_t, 4>;
using Bytes8 = std::array<uint8_t, 8>;


ProbeValues halved(ProbeValues v) {
    for (GridSample& s : v.grid) s.ambient *= 0.5f, s.directed *= 0.5f;
    for (AmbientCube& c : v.cubes)
        for (Vec3& side : c) side *= 0.5f;
    return v;
}

double angleBetween(Vec3 a, Vec3 b) {
    return std::acos(std::clamp(double(dot(normalize(a), normalize(b))), -1.0, 1.0));
}

// Everything but the probes decoded alike from two files.
void requireSameExceptProbes(const World& a, const World& b) {
    requireSameGeometryAndLight(a, b);
    REQUIRE(a.entityText == b.entityText);
    REQUIRE(a.staticProps.size() == b.staticProps.size());
    REQUIRE(a.leafAmbient == b.leafAmbient);
    REQUIRE(a.ambientSamples.size() == b.ambientSamples.size());
    for (size_t i = 0; i < a.ambientSamples.size(); ++i)
        REQUIRE(a.ambientSamples[i].position == b.ambientSamples[i].position);
    REQUIRE(a.grid.has_value() == b.grid.has_value());
    if (a.grid) {
        REQUIRE(a.grid->dims == b.grid->dims);
        REQUIRE(a.grid->origin == b.grid->origin);
    }
    REQUIRE(a.probeLump == b.probeLump);
}

// Positions where two files differ, over the length of the shorter.
std::vector<size_t> differingBytes(const Bytes& a, const Bytes& b) {
    std::vector<size_t> d;
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
        if (a[i] != b[i]) d.push_back(i);
    return d;
}

// Source lump directory fields, in either layout.
struct VbspEntry {
    uint32_t offset, length, version, fourCC;
};
VbspEntry vbspEntry(const Bytes& f, int lump, bool l4d2 = false) {
    const size_t e = 8 + 16 * size_t(lump);
    if (l4d2) return {le32(f, e + 4), le32(f, e + 8), le32(f, e), le32(f, e + 12)};
    return {le32(f, e), le32(f, e + 4), le32(f, e + 8), le32(f, e + 12)};
}

std::string sourceMap(const std::string& name) { return *sharedMaps() + "/source/" + name; }

}  // namespace

TEST_CASE("write_probes: grid colour bytes round-trip and keep hue", "[write_probes]") {
    for (int b = 0; b < 256; ++b) {
        INFO("byte " << b);
        const uint8_t u = uint8_t(b), v = uint8_t(255 - b), w = uint8_t((b * 7) % 256);
        const GridSample s{
            {gridColor(u), gridColor(v), gridColor(w)}, {gridColor(w), gridColor(u), gridColor(v)}, {0, 0, 1}};
        CHECK(encodeGridPoint(s) == Bytes8{u, v, w, w, u, v, 0, 0});
    }
    // 255 / 4 per unit: (1, 0.5, 0.25) -> 63.75, 31.875, 15.9375 -> 64, 32, 16.
    CHECK(encodeGridPoint({{1, 0.5f, 0.25f}, {}, {0, 0, 1}}) == Bytes8{64, 32, 16, 0, 0, 0, 0, 0});
    // (8, 2, 1) -> 510, 127.5, 63.75: over 255, so all scaled by 1/2 -> 255, 63.75, 31.875 -> 255, 64, 32.
    // (6, 3, 0) -> 382.5, 191.25, 0, scaled by 2/3 -> 255, 127.5, 0 -> 255, 128, 0.
    CHECK(encodeGridPoint({{8, 2, 1}, {6, 3, 0}, {0, 0, 1}}) == Bytes8{255, 64, 32, 255, 128, 0, 0, 0});
    // A channel alone far over keeps the others in proportion (they round to zero here).
    CHECK(encodeGridPoint({{1000, 1, 0}, {}, {0, 0, 1}}) == Bytes8{255, 0, 0, 0, 0, 0, 0, 0});
    // No light stays no light (a zero ambient is the decoder's "in a wall"); negative and NaN store none.
    CHECK(encodeGridPoint({{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}) == Bytes8{0, 0, 0, 0, 0, 0, 0, 0});
    CHECK(encodeGridPoint({{-1, NAN, 0}, {-0.0f, 0, -5}, {0, 0, 1}}) == Bytes8{0, 0, 0, 0, 0, 0, 0, 0});
}

TEST_CASE("write_probes: grid directions round-trip to the nearest angle bytes", "[write_probes]") {
    // Every direction the decoder can produce comes back as its own bytes; straight up and down have
    // no azimuth, so any azimuth byte there comes back as 0.
    for (int p = 0; p <= 128; ++p)
        for (int a = 0; a < 256; ++a) {
            const Bytes8 b = encodeGridPoint({{}, {}, gridDirection(uint8_t(p), uint8_t(a))});
            const bool pole = p == 0 || p == 128;
            if (b[6] != p || b[7] != (pole ? 0 : a))
                FAIL("polar " << p << " azimuth " << a << " -> " << int(b[6]) << " " << int(b[7]));
        }
    // Axes by hand: +Z (0, -), -Z (128, -), +X (64, 0), +Y (64, 64), -X (64, 128), -Y (64, 192).
    struct Case {
        Vec3 d;
        uint8_t polar, azimuth;
    };
    for (Case c : {Case{{0, 0, 1}, 0, 0}, Case{{0, 0, -3}, 128, 0}, Case{{2, 0, 0}, 64, 0}, Case{{0, 1, 0}, 64, 64},
                   Case{{-1, 0, 0}, 64, 128}, Case{{0, -1, 0}, 64, 192}, Case{{0, 0, 0}, 0, 0},
                   Case{{1, 0, 1}, 32, 0}}) {
        const Bytes8 b = encodeGridPoint({{}, {}, c.d});
        CHECK(b[6] == c.polar);
        CHECK(b[7] == c.azimuth);
    }
    // Directions spread over the sphere (a Fibonacci lattice, none on the byte lattice): the stored polar
    // and azimuth are each within half a byte step of the true ones.
    const double step = 2 * std::numbers::pi / 256, golden = std::numbers::pi * (3 - std::sqrt(5.0));
    for (int i = 0; i < 2000; ++i) {
        const double z = 1 - (i + 0.5) / 1000.0, r = std::sqrt(1 - z * z), phi = golden * i;
        const Vec3 d{float(r * std::cos(phi)), float(r * std::sin(phi)), float(z)};
        const Bytes8 b = encodeGridPoint({{}, {}, d});
        const double polar = std::acos(double(d.z));
        CHECK(std::fabs(b[6] * step - polar) <= step / 2 + 1e-6);
        if (b[6] != 0 && b[6] != 128) {
            const double da = std::remainder(b[7] * step - std::atan2(double(d.y), double(d.x)), 2 * std::numbers::pi);
            CHECK(std::fabs(da) <= step / 2 + 1e-6);
        }
        // The decoded direction is then within half a step in both angles: at most step / sqrt(2) away.
        CHECK(angleBetween(decodePoint(b).direction, d) <= step * std::sqrt(0.5) + 1e-4);
    }
}

TEST_CASE("write_probes: ColorRGBExp32 encoding", "[write_probes]") {
    // Hand values: 1 = 255 * 2^0 / 255; 0.5 = 255 * 2^-1 / 255 and 0.25 -> 127.5 -> 128; 2 = 255 * 2^1 / 255.
    CHECK(encodeColorRGBExp32({0, 0, 0}) == Bytes4{0, 0, 0, 0});
    CHECK(encodeColorRGBExp32({1, 1, 1}) == Bytes4{255, 255, 255, 0});
    CHECK(encodeColorRGBExp32({0.5f, 0.25f, 0}) == Bytes4{255, 128, 0, 0xFF});
    CHECK(encodeColorRGBExp32({2, 1, 0}) == Bytes4{255, 128, 0, 1});
    // 3 needs 2^2: 3 * 255 / 4 = 191.25 -> 191.
    CHECK(encodeColorRGBExp32({0, 3, 0}) == Bytes4{0, 191, 0, 2});
    // Negative and NaN store none; past the largest exponent everything clamps to 255 * 2^127 / 255.
    CHECK(encodeColorRGBExp32({-1, NAN, 0}) == Bytes4{0, 0, 0, 0});
    CHECK(encodeColorRGBExp32({FLT_MAX, 1, 0}) == Bytes4{255, 0, 0, 127});
    CHECK(encodeColorRGBExp32({INFINITY, 0, 0}) == Bytes4{255, 0, 0, 127});
    // Too dark for the smallest exponent (2^-128 / 255 is the smallest step): stored as zero.
    CHECK(encodeColorRGBExp32({1e-45f, 0, 0}) == Bytes4{0, 0, 0, 0});

    // Every mantissa byte in every channel at every exponent, with a top channel of at least 128 (the
    // encoder's choice of the smallest exponent then is the stored one): the same four bytes come back.
    for (int e = -128; e < 128; ++e)
        for (int b = 0; b < 256; ++b)
            for (int channel = 0; channel < 3; ++channel) {
                Bytes4 in{200, uint8_t(128 + b % 128), 255, uint8_t(int8_t(e))};
                in[size_t(channel)] = uint8_t(b);
                if (std::max({in[0], in[1], in[2]}) < 128) continue;
                const Bytes4 out = encodeColorRGBExp32(rgbExp(in));
                if (out != in)
                    FAIL("exponent " << e << " bytes " << int(in[0]) << " " << int(in[1]) << " " << int(in[2])
                                     << " -> " << int(out[0]) << " " << int(out[1]) << " " << int(out[2]) << " "
                                     << int(int8_t(out[3])));
            }
    // A smaller top mantissa (stored by some compilers) re-encodes with more precision but the same value.
    for (int e = -100; e < 100; ++e)
        for (int b = 1; b < 128; ++b) {
            const Bytes4 in{uint8_t(b), uint8_t(b / 2), 0, uint8_t(int8_t(e))};
            const Bytes4 out = encodeColorRGBExp32(rgbExp(in));
            if (!(rgbExp(out) == rgbExp(in)) || out[0] < 128) FAIL("exponent " << e << " mantissa " << b);
        }
}

TEST_CASE("write_probes: synthetic Quake 3 grid rewritten in place", "[write_probes]") {
    RoomOptions opt;
    opt.lightGrid = true;
    const Bytes original = makeRoomMap(opt).build();
    const MapSource source = memorySource(original);
    const World w = decodeMap(source);
    REQUIRE(w.grid);
    REQUIRE(w.grid->samples.size() == 243);  // 9 x 9 x 3 over the default room (q3_decode_test)
    CHECK(w.probeLump == "lightvols");

    // New values with every kind of case: ordinary, over-bright (hue scaling), zero ambient (a wall point),
    // all directions.
    ProbeValues v = storedProbes(w);
    for (size_t i = 0; i < v.grid.size(); ++i) {
        const float t = float(i);
        GridSample& s = v.grid[i];
        s.ambient = i % 10 == 0 ? Vec3{0, 0, 0} : Vec3{0.01f * t, 0.5f, std::fmod(t, 7.0f)};
        s.directed = {std::fmod(t * 0.37f, 9.0f), 1.0f, 0.0f};
        s.direction = {std::cos(t), std::sin(t * 1.3f), std::cos(t * 0.7f)};
    }
    const Bytes written = writeProbes(source, w, v);

    // Same size, and only the lightvols bytes changed, each point to its encoding.
    REQUIRE(written.size() == original.size());
    const auto [offset, length] = q3LumpRange(original, kQ3LightVols);
    REQUIRE(length == 243 * 8);
    for (size_t i : differingBytes(original, written)) {
        REQUIRE(i >= offset);
        REQUIRE(i < offset + length);
    }
    for (size_t i = 0; i < v.grid.size(); ++i) {
        const Bytes8 e = encodeGridPoint(v.grid[i]);
        REQUIRE(std::equal(e.begin(), e.end(), written.begin() + std::ptrdiff_t(offset + 8 * i)));
    }

    // The copy decodes to the quantised new values; every tenth point is a wall point again.
    const World copy = decodeBytes(written);
    requireSameExceptProbes(w, copy);
    for (size_t i = 0; i < v.grid.size(); ++i) {
        INFO("point " << i);
        const GridSample want = decodePoint(encodeGridPoint(v.grid[i]));
        const GridSample& got = copy.grid->samples[i];
        CHECK(got.ambient == want.ambient);
        CHECK(got.directed == want.directed);
        CHECK(near(got.direction, want.direction, 1e-6f));
        CHECK((got.ambient == Vec3{0, 0, 0}) == (i % 10 == 0));
        // Quantisation error: half a byte (2 / 255) unless hue scaling moved the colour.
        if (std::max({v.grid[i].ambient.x, v.grid[i].ambient.y, v.grid[i].ambient.z}) <= 4.0f)
            CHECK(near(got.ambient, v.grid[i].ambient, 2.0f / 255 + 1e-6f));
        CHECK(angleBetween(got.direction, v.grid[i].direction) <= 2 * std::numbers::pi / 256 * std::sqrt(0.5) + 1e-4);
    }
    // Point 1 by hand: ambient (0.01, 0.5, 1) -> 0.6375, 31.875, 63.75 -> 1, 32, 64 -> 4/255, 128/255, 256/255.
    CHECK(copy.grid->samples[1].ambient == Vec3{4.0f / 255, 128.0f / 255, 256.0f / 255});
}

TEST_CASE("write_probes: mismatched values and broken files are refused", "[write_probes]") {
    RoomOptions opt;
    opt.lightGrid = true;
    const Bytes original = makeRoomMap(opt).build();
    const World w = decodeBytes(original);
    const ProbeValues v = storedProbes(w);

    ProbeValues shorter = v;
    shorter.grid.pop_back();
    CHECK_THROWS_AS(writeProbes(memorySource(original), w, shorter), UsageError);
    ProbeValues cubes;
    cubes.kind = ProbeKind::Cubes;
    cubes.cubes.resize(v.grid.size());
    CHECK_THROWS_AS(writeProbes(memorySource(original), w, cubes), UsageError);
    CHECK_THROWS_AS(writeProbes(memorySource(original), w, ProbeValues{}), UsageError);

    // The file's grid lump no longer matches the World it was decoded into: its length is one point short,
    // or it points past the end of the file, or the file is truncated inside it.
    const size_t entry = 8 + 8 * kQ3LightVols;
    Bytes shortLump = original;
    const uint32_t length = le32(original, entry + 4) - 8;
    std::memcpy(&shortLump[entry + 4], &length, 4);
    CHECK_THROWS_AS(writeProbes(memorySource(shortLump), w, v), DecodeError);
    Bytes pastEnd = original;
    const uint32_t farOffset = uint32_t(original.size());
    std::memcpy(&pastEnd[entry], &farOffset, 4);
    CHECK_THROWS_AS(writeProbes(memorySource(pastEnd), w, v), DecodeError);
    const Bytes truncated(original.begin(), original.begin() + std::ptrdiff_t(le32(original, entry) + 10));
    CHECK_THROWS_AS(writeProbes(memorySource(truncated), w, v), DecodeError);
    const Bytes header(original.begin(), original.begin() + 100);
    CHECK_THROWS_AS(writeProbes(memorySource(header), w, v), DecodeError);

    // A map without probes and no values: the file comes back unchanged.
    const Bytes plain = makeRoomMap().build();
    const World none = decodeBytes(plain);
    REQUIRE_FALSE(none.grid);
    CHECK(none.probeLump.empty());
    CHECK(writeProbes(memorySource(plain), none, ProbeValues{}) == plain);
}

TEST_CASE("write_probes: real Quake 3 grid halved", "[write_probes][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const Bytes original = readFile(*sharedMaps() + "/q3/oa085_ctf_compromise.bsp");
    const MapSource source = memorySource(original, "compromise.bsp");
    const World w = decodeMap(source);
    REQUIRE(w.grid);
    const ProbeValues v = halved(storedProbes(w));
    const Bytes written = writeProbes(source, w, v);

    REQUIRE(written.size() == original.size());
    const auto [offset, length] = q3LumpRange(original, kQ3LightVols);
    REQUIRE(length == w.grid->samples.size() * 8);
    for (size_t i : differingBytes(original, written)) {
        REQUIRE(i >= offset);
        REQUIRE(i < offset + length);
    }
    // Byte by byte against the original: colours halve (to the nearer byte; either on a tie), angles stay
    // (only the meaningless azimuth of a straight up / down point becomes 0).
    size_t walls = 0, changedColours = 0;
    for (size_t i = 0; i < w.grid->samples.size(); ++i) {
        const uint8_t* was = &original[offset + 8 * i];
        const uint8_t* now = &written[offset + 8 * i];
        for (int c = 0; c < 6; ++c) {
            if (std::abs(2 * int(now[c]) - int(was[c])) > 1) FAIL("point " << i << " byte " << c);
            changedColours += now[c] != was[c];
        }
        const bool pole = was[6] == 0 || was[6] == 128;
        if (now[6] != was[6] || now[7] != (pole ? 0 : was[7])) FAIL("point " << i << " angles");
        walls += was[0] == 0 && was[1] == 0 && was[2] == 0;
        if (was[0] == 0 && was[1] == 0 && was[2] == 0) REQUIRE((now[0] | now[1] | now[2]) == 0);
    }
    CHECK(changedColours > 0);
    CHECK(walls > 0);  // the map has points inside walls, and they stayed there

    const World copy = decodeBytes(written, "compromise.bsp");
    requireSameExceptProbes(w, copy);
    for (size_t i = 0; i < v.grid.size(); ++i) {
        const GridSample want = decodePoint(encodeGridPoint(v.grid[i]));
        const GridSample& got = copy.grid->samples[i];
        const bool same = got.ambient == want.ambient && got.directed == want.directed &&
                          near(got.direction, want.direction, 1e-6f);
        if (!same) FAIL("point " << i);
    }
}

TEST_CASE("write_probes: real Source cubes halved in place", "[write_probes][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    struct Case {
        const char* map;
        bool preferLdr;
        int lump;             // where the cubes live
        const char* lumpName;
        size_t record, cubeAt;  // record size and the cube's place in it
    };
    // v19: version 0 leaves; v20 SDK map: LDR lighting, so the LDR samples (its HDR set is all zero);
    // tf2 lobby: HDR lighting picks the HDR samples, unless LDR is asked for.
    for (const Case c : {Case{"sdk2013_sdk_vehicles_v19.bsp", false, 10, "leafs", 56, 30},
                         Case{"sdk2013ce_sdk_vehicles_v20.bsp", false, 56, "leaf_ambient_lighting", 28, 0},
                         Case{"bsptool_tf2_mp_lobby.bsp", false, 55, "leaf_ambient_lighting_hdr", 28, 0},
                         Case{"bsptool_tf2_mp_lobby.bsp", true, 56, "leaf_ambient_lighting", 28, 0}}) {
        INFO(c.map << (c.preferLdr ? " (LDR)" : ""));
        const Bytes original = readFile(sourceMap(c.map));
        const MapSource source = memorySource(original, c.map);
        const DecodeOptions options{c.preferLdr};
        const World w = decodeMap(source, options);
        REQUIRE(w.probeLump == c.lumpName);
        REQUIRE_FALSE(w.ambientSamples.empty());
        const ProbeValues v = halved(storedProbes(w));
        const Bytes written = writeProbes(source, w, v);

        // In place: same size, and the only changed bytes are cube bytes of the probe lump.
        REQUIRE(written.size() == original.size());
        const VbspEntry e = vbspEntry(original, c.lump);
        REQUIRE(e.length == w.ambientSamples.size() * c.record);
        const auto diff = differingBytes(original, written);
        CHECK(diff.size() > 0);
        for (size_t i : diff) {
            REQUIRE(i >= e.offset);
            REQUIRE(i < e.offset + e.length);
            const size_t inRecord = (i - e.offset) % c.record;
            REQUIRE(inRecord >= c.cubeAt);
            REQUIRE(inRecord < c.cubeAt + 24);
        }
        // Halving a stored colour is exact: the mantissas stay (or double, for a small top mantissa) and
        // the exponent drops, so the copy decodes to exactly half of every original value.
        const World copy = decodeMap(memorySource(written, c.map), options);
        requireSameExceptProbes(w, copy);
        for (size_t k = 0; k < w.ambientSamples.size(); ++k)
            for (size_t side = 0; side < 6; ++side)
                if (!(copy.ambientSamples[k].sides[side] == w.ambientSamples[k].sides[side] * 0.5f))
                    FAIL("sample " << k << " side " << side);
        // A top mantissa of 128 or more is kept and the exponent drops by one.
        size_t kept = 0;
        for (size_t k = 0; k < w.ambientSamples.size(); ++k)
            for (size_t side = 0; side < 6; ++side) {
                const size_t at = e.offset + k * c.record + c.cubeAt + 4 * side;
                if (std::max({original[at], original[at + 1], original[at + 2]}) < 128) continue;
                ++kept;
                REQUIRE(std::equal(&original[at], &original[at + 3], &written[at]));
                REQUIRE(int8_t(written[at + 3]) == int8_t(original[at + 3]) - 1);
            }
        CHECK(kept > 0);
        // The other set, where the map has one, is untouched: decoding the copy the other way gives the
        // original's values.
        if (c.lump != 10) {
            const DecodeOptions other{!c.preferLdr};
            const World a = decodeMap(source, other), b = decodeMap(memorySource(written, c.map), other);
            if (a.probeLump != w.probeLump)
                for (size_t k = 0; k < a.ambientSamples.size(); ++k)
                    REQUIRE(a.ambientSamples[k].sides == b.ambientSamples[k].sides);
        }
    }
}

TEST_CASE("write_probes: Source LZMA probe lumps are appended uncompressed", "[write_probes][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    struct Case {
        const char* map;
        int lump;
        bool l4d2;
    };
    for (const Case c : {Case{"sdk2013ce_sdk_vehicles_v20.bsp", 56, false},
                         Case{"sdk2013ce_sdk_vehicles_v20.bsp", 56, true},
                         Case{"sdk2013_sdk_vehicles_v19.bsp", 10, false}}) {
        INFO(c.map << " lump " << c.lump << (c.l4d2 ? " (L4D2 layout)" : ""));
        const Bytes plain = readFile(sourceMap(c.map));
        // Re-packed with the probe lump and a few others compressed, in the chosen directory layout.
        VbspWriteOptions o;
        o.l4d2Layout = c.l4d2;
        o.lzmaLumps = {1, c.lump, 52, 53};
        const Bytes packed = writeVbsp(readVbsp(plain), o);
        const MapSource source = memorySource(packed, c.map);
        const World w = decodeMap(source);
        REQUIRE(w.lumps[size_t(c.lump)].compressed);
        REQUIRE(w.layoutName == (c.l4d2 ? "left4dead2" : "standard"));
        const ProbeValues v = halved(storedProbes(w));
        const Bytes written = writeProbes(source, w, v);

        // The original bytes stay, except the probe lump's directory entry (offset, length, fourCC; not its
        // version); the new lump follows on a 4-byte boundary.
        const VbspEntry before = vbspEntry(packed, c.lump, c.l4d2);
        REQUIRE(before.fourCC != 0);  // the uncompressed size, as Valve's tools store it
        const size_t appendAt = (packed.size() + 3) / 4 * 4;
        REQUIRE(written.size() == appendAt + before.fourCC);
        const size_t entry = 8 + 16 * size_t(c.lump);
        for (size_t i : differingBytes(packed, written)) {
            REQUIRE(i >= entry);
            REQUIRE(i < entry + 16);
        }
        for (size_t i = packed.size(); i < appendAt; ++i) REQUIRE(written[i] == 0);
        const VbspEntry after = vbspEntry(written, c.lump, c.l4d2);
        CHECK(after.offset == appendAt);
        CHECK(after.length == before.fourCC);
        CHECK(after.version == before.version);
        CHECK(after.fourCC == 0);

        // The appended bytes are exactly what the in-place writer makes of the uncompressed map.
        const MapSource plainSource = memorySource(plain, c.map);
        const World plainWorld = decodeMap(plainSource);
        const Bytes plainWritten = writeProbes(plainSource, plainWorld, halved(storedProbes(plainWorld)));
        const VbspEntry plainEntry = vbspEntry(plain, c.lump);
        REQUIRE(plainEntry.length == before.fourCC);
        CHECK(std::equal(written.begin() + std::ptrdiff_t(appendAt), written.end(),
                         plainWritten.begin() + std::ptrdiff_t(plainEntry.offset)));

        const World copy = decodeMap(memorySource(written, c.map));
        CHECK_FALSE(copy.lumps[size_t(c.lump)].compressed);
        CHECK(copy.layoutName == w.layoutName);
        requireSameExceptProbes(w, copy);
        for (size_t k = 0; k < w.ambientSamples.size(); ++k)
            for (size_t side = 0; side < 6; ++side)
                if (!(copy.ambientSamples[k].sides[side] == w.ambientSamples[k].sides[side] * 0.5f))
                    FAIL("sample " << k << " side " << side);
    }
}

TEST_CASE("write_probes: Source files that do not match their World are refused", "[write_probes][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const Bytes ce = readFile(sourceMap("sdk2013ce_sdk_vehicles_v20.bsp"));
    const Bytes lobby = readFile(sourceMap("bsptool_tf2_mp_lobby.bsp"));
    const World w = decodeMap(memorySource(ce));
    const ProbeValues v = storedProbes(w);

    ProbeValues grid;
    grid.kind = ProbeKind::Grid;
    grid.grid.resize(v.cubes.size());
    CHECK_THROWS_AS(writeProbes(memorySource(ce), w, grid), UsageError);
    ProbeValues longer = v;
    longer.cubes.push_back({});
    CHECK_THROWS_AS(writeProbes(memorySource(ce), w, longer), UsageError);

    // Another map's bytes: its sample lump holds a different number of records; a World whose cubes came
    // from version 0 leaves against a map with version 1 leaves.
    CHECK_THROWS_AS(writeProbes(memorySource(lobby), w, v), DecodeError);
    const World v19 = decodeMap(memorySource(readFile(sourceMap("sdk2013_sdk_vehicles_v19.bsp"))));
    REQUIRE(v19.probeLump == "leafs");
    CHECK_THROWS_AS(writeProbes(memorySource(ce), v19, storedProbes(v19)), DecodeError);
    // The sample lump's length pointing past the end of the file.
    Bytes broken = ce;
    const uint32_t huge = uint32_t(ce.size());
    std::memcpy(&broken[8 + 16 * 56 + 4], &huge, 4);
    CHECK_THROWS_AS(writeProbes(memorySource(broken), w, v), DecodeError);
    // A compressed lump whose frame claims more packed bytes than it has.
    VbspWriteOptions o;
    o.lzmaLumps = {56};
    Bytes packed = writeVbsp(readVbsp(ce), o);
    const World pw = decodeMap(memorySource(packed));
    const uint32_t at = le32(packed, 8 + 16 * 56);
    const uint32_t tooMany = le32(packed, at + 8) + 100;
    std::memcpy(&packed[at + 8], &tooMany, 4);
    CHECK_THROWS_AS(writeProbes(memorySource(packed), pw, storedProbes(pw)), DecodeError);
    // Not a VBSP file at all.
    Bytes notVbsp = ce;
    notVbsp[0] = 'X';
    CHECK_THROWS_AS(writeProbes(memorySource(notVbsp), w, v), DecodeError);
}
