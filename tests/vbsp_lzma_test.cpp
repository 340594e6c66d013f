// Valve's LZMA lump framing: the v25 map's real compressed lumps, and v19-21 maps re-packed with every lump
// and game lump compressed must decode to the same World as the uncompressed file.
#include <catch2/catch.hpp>

#include <cstring>

#include "../src/bsp/source/lzma.hpp"
#include "luxel/bsp/decode.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/util/error.hpp"
#include "support/decode_helpers.hpp"
#include "support/test_paths.hpp"
#include "support/vbsp_writer.hpp"

using namespace luxel;
using namespace luxel::test;

TEST_CASE("vbsp lzma: the v25 map's compressed lumps decode to their stated sizes", "[vbsp][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const Bytes file = readFile(*sharedMaps() + "/source/momentum-website_e2e_map_v25_lzma.bsp");
    int framed = 0;
    for (size_t i = 0; i < 64; ++i) {
        const uint32_t offset = le32(file, 8 + 16 * i), length = le32(file, 12 + 16 * i), fourCC = le32(file, 20 + 16 * i);
        if (length < 17 || std::memcmp(&file[offset], "LZMA", 4) != 0) continue;
        INFO("lump " << i);
        ++framed;
        const ByteReader r(std::span<const uint8_t>(file).subspan(offset, length), "v25", "lump", offset);
        REQUIRE(vbsp::isLzmaFramed(r));
        const Bytes data = vbsp::decompressLzma(r, uint64_t(1) << 28);
        // The directory's fourCC holds the uncompressed size, the frame's actual size too.
        CHECK(data.size() == fourCC);
        CHECK(data.size() == le32(file, offset + 4));
        CHECK(le32(file, offset + 8) + 17 == length);  // compressed size + header = lump length
        if (i == 0) {
            const std::string text(data.begin(), data.end());
            CHECK(text.find("\"classname\" \"worldspawn\"") != std::string::npos);
        }
        // Re-framed by our encoder, the bytes come back identical.
        const Bytes again = lzmaFrame(data);
        const ByteReader r2(again, "re", "lump", 0);
        CHECK(vbsp::decompressLzma(r2, uint64_t(1) << 28) == data);
    }
    CHECK(framed == 32);  // README: 32 LZMA-compressed lumps
}

TEST_CASE("vbsp lzma: corrupt and lying frames fail with DecodeError", "[vbsp]") {
    Bytes raw(5000);
    for (size_t i = 0; i < raw.size(); ++i) raw[i] = uint8_t((i * 7) ^ (i >> 3));
    const Bytes good = lzmaFrame(raw);
    {
        const ByteReader r(good, "t", "lump", 0);
        CHECK(vbsp::decompressLzma(r, 1 << 20) == raw);
        CHECK_THROWS_AS(vbsp::decompressLzma(r, 4999), DecodeError);  // actual size past the limit
    }
    Bytes truncated(good.begin(), good.begin() + long(good.size() / 2));
    CHECK_THROWS_AS(vbsp::decompressLzma(ByteReader(truncated, "t", "lump", 0), 1 << 20), DecodeError);
    Bytes longer = good;  // claims more output than the stream holds
    longer[4] = uint8_t(longer[4] + 100);
    CHECK_THROWS_AS(vbsp::decompressLzma(ByteReader(longer, "t", "lump", 0), 1 << 20), DecodeError);
    Bytes garbage = good;
    for (size_t i = 30; i < garbage.size(); i += 3) garbage[i] ^= 0x5a;
    CHECK_THROWS_AS(vbsp::decompressLzma(ByteReader(garbage, "t", "lump", 0), 1 << 20), DecodeError);
    Bytes badProps = good;
    badProps[12] = 0xff;  // lc/lp/pb byte out of range
    CHECK_THROWS_AS(vbsp::decompressLzma(ByteReader(badProps, "t", "lump", 0), 1 << 20), DecodeError);
}

TEST_CASE("vbsp lzma: maps re-packed with compressed lumps decode identically", "[vbsp][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    for (const auto* name : {"bsptool_tf2_test2.bsp", "sdk2013_sdk_vehicles_v19.bsp", "bsptool_tf2_mp_lobby.bsp"}) {
        INFO(name);
        const Bytes original = readFile(*sharedMaps() + "/source/" + name);
        const VbspFile m = readVbsp(original);
        VbspWriteOptions o;
        for (int i = 0; i < 64; ++i)
            if (i != 35 && i != 40) o.lzmaLumps.insert(i);
        o.lzmaGameLumps = true;
        const Bytes packed = writeVbsp(m, o);
        const World a = decodeMap(memorySource(original)), b = decodeMap(memorySource(packed));
        requireSameGeometryAndLight(a, b);
        CHECK(b.lumps[1].compressed);
        CHECK_FALSE(a.lumps[1].compressed);
        CHECK(b.lumps[1].length < a.lumps[1].length + 17 + a.lumps[1].length / 2);
    }
}
