// The cube maps packed into the real Source maps' pakfiles decode: their members found through an independent
// reading of the pakfile zip (liblzma for LZMA members), and checked against readVtfInfo.
#include <catch2/catch.hpp>

#include <lzma.h>
#include <squish.h>
#include <zip.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
#include <set>

#include "luxel/io/map_source.hpp"
#include "luxel/material/vtf.hpp"
#include "luxel/util/error.hpp"
#include "support/decode_helpers.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

// The pakfile lump (40) of a VBSP as a zip held in memory; Left 4 Dead 2-style directories put the version
// first, so take whichever reading points at a zip.
std::optional<Bytes> pakfile(const Bytes& bsp) {
    const size_t entry = 8 + 16 * 40;
    const uint32_t a = le32(bsp, entry), b = le32(bsp, entry + 4), c = le32(bsp, entry + 8);
    for (auto [offset, length] : {std::pair{a, b}, std::pair{b, c}})
        if (offset > 0 && length > 4 && uint64_t(offset) + length <= bsp.size() && bsp[offset] == 'P' &&
            bsp[offset + 1] == 'K')
            return Bytes(bsp.begin() + offset, bsp.begin() + offset + length);
    return std::nullopt;
}

// A zip member stored with method 14: version (2 bytes), properties size (2), the 5 LZMA properties, then the
// raw stream. liblzma's "alone" format wants the properties followed by the 64-bit uncompressed size.
Bytes unzipLzma(const Bytes& raw, uint64_t size) {
    REQUIRE(raw.size() > 9);
    REQUIRE(le16(raw, 2) == 5);
    Bytes alone(raw.begin() + 4, raw.begin() + 9);
    for (int i = 0; i < 8; ++i) alone.push_back(uint8_t(size >> (8 * i)));
    alone.insert(alone.end(), raw.begin() + 9, raw.end());
    lzma_stream strm = LZMA_STREAM_INIT;
    REQUIRE(lzma_alone_decoder(&strm, uint64_t(1) << 28) == LZMA_OK);
    Bytes out(static_cast<size_t>(size), 0);
    strm.next_in = alone.data();
    strm.avail_in = alone.size();
    strm.next_out = out.data();
    strm.avail_out = out.size();
    const lzma_ret ret = lzma_code(&strm, LZMA_FINISH);
    lzma_end(&strm);
    CHECK((ret == LZMA_STREAM_END || ret == LZMA_OK));
    REQUIRE(strm.avail_out == 0);
    return out;
}

// Every .vtf member of a zip held in memory, by name.
std::vector<std::pair<std::string, Bytes>> vtfMembers(const Bytes& zipBytes) {
    std::vector<std::pair<std::string, Bytes>> out;
    zip_error_t err;
    zip_error_init(&err);
    zip_source_t* src = zip_source_buffer_create(zipBytes.data(), zipBytes.size(), 0, &err);
    REQUIRE(src != nullptr);
    zip_t* z = zip_open_from_source(src, ZIP_RDONLY, &err);
    REQUIRE(z != nullptr);
    std::unique_ptr<zip_t, void (*)(zip_t*)> guard(z, zip_discard);
    for (zip_int64_t i = 0; i < zip_get_num_entries(z, 0); ++i) {
        const std::string name = zip_get_name(z, zip_uint64_t(i), 0);
        if (name.size() < 4 || name.substr(name.size() - 4) != ".vtf") continue;
        zip_stat_t st;
        REQUIRE(zip_stat_index(z, zip_uint64_t(i), 0, &st) == 0);
        // libzip may lack LZMA (method 14), which the v25 map's pakfile uses: read those raw and decode here.
        const bool rawLzma = st.comp_method == ZIP_CM_LZMA && !zip_compression_method_supported(ZIP_CM_LZMA, 0);
        zip_file_t* f = zip_fopen_index(z, zip_uint64_t(i), rawLzma ? ZIP_FL_COMPRESSED : 0);
        INFO(name << ": " << zip_strerror(z));
        REQUIRE(f != nullptr);
        Bytes data(size_t(rawLzma ? st.comp_size : st.size));
        const zip_int64_t got = zip_fread(f, data.data(), data.size());
        zip_fclose(f);
        REQUIRE(got == zip_int64_t(data.size()));
        if (rawLzma) data = unzipLzma(data, st.size);
        out.emplace_back(name, std::move(data));
    }
    return out;
}

// Bytes per texel, or per 4x4 block for the DXT formats, of the formats the real maps use.
uint64_t expectedMipBytes(int32_t format, uint32_t w, uint32_t h) {
    const uint64_t blocks = uint64_t(std::max(1u, (w + 3) / 4)) * std::max(1u, (h + 3) / 4);
    switch (format) {
        case kVtfDXT1: return blocks * 8;
        case kVtfDXT5: return blocks * 16;
        case kVtfBGR888: return uint64_t(w) * h * 3;
        case kVtfRGBA16161616F: return uint64_t(w) * h * 8;
        default: FAIL("format " << format << " not expected in the maps"); return 0;
    }
}

}  // namespace

TEST_CASE("vtf: cube maps packed into the real Source maps", "[texture_decode][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    int decoded = 0, withContent = 0;
    for (const std::string& path : sharedMapFiles("source")) {
        const auto pak = pakfile(readFile(path));
        if (!pak) continue;
        for (const auto& [member, vtf] : vtfMembers(*pak)) {
            const std::string name = path + ":" + member;
            INFO(name);
            const VtfInfo info = readVtfInfo(vtf, name);
            CHECK(info.versionMajor == 7);
            // Cube maps built by vbsp: the env-map flag, 6 faces, and a seventh (sphere map) before 7.5.
            REQUIRE((info.flags & kVtfFlagEnvmap) != 0);
            CHECK(info.faces == (info.versionMinor < 5 ? 7 : 6));
            CHECK(info.hdr == (member.find(".hdr.vtf") != std::string::npos));
            // The header size plus every mip of every face is the whole file (no thumbnails in these).
            uint64_t dataBytes = 0;
            for (int m = 0; m < info.mips; ++m)
                dataBytes += expectedMipBytes(info.format, std::max(1u, uint32_t(info.width) >> m),
                                              std::max(1u, uint32_t(info.height) >> m)) *
                             uint64_t(info.faces) * uint64_t(info.frames);
            CHECK(le32(vtf, 12) + dataBytes == vtf.size());

            const RgbaImage img = decodeVtf(vtf, name);
            CHECK(img.width == info.width);
            CHECK(img.height == info.height);
            CHECK(img.rgba.size() == size_t(info.width) * size_t(info.height) * 4);
            const RgbaImage smallest = decodeVtf(vtf, name, info.mips - 1);
            CHECK(smallest.width == std::max(1, info.width >> (info.mips - 1)));
            // The top-left block of mip 0, face 0 decoded on its own from where the layout puts it: after the
            // header and every smaller mip of every face.
            if (info.format == kVtfDXT5) {
                const uint64_t mip0Bytes = expectedMipBytes(info.format, uint32_t(info.width), uint32_t(info.height)) *
                                           uint64_t(info.faces) * uint64_t(info.frames);
                const size_t at = size_t(le32(vtf, 12) + dataBytes - mip0Bytes);
                uint8_t block[64];
                squish::Decompress(block, &vtf.at(at), squish::kDxt5);
                for (int i = 0; i < 16; ++i) {
                    const size_t o = (size_t(i / 4) * size_t(img.width) + size_t(i % 4)) * 4;
                    for (int c = 0; c < 4; ++c) CHECK(int(img.rgba[o + size_t(c)]) == int(block[4 * i + c]));
                }
            }
            // Most of these cube maps were never built (all zero); where there is content, mip 1 is mip 0
            // filtered down, so the mean colours agree closely (another face or mip would not).
            std::set<uint32_t> colours;
            for (size_t i = 0; i < img.rgba.size(); i += 4) colours.insert(le32(img.rgba, i));
            if (colours.size() > 1) {
                ++withContent;
                const RgbaImage half = decodeVtf(vtf, name, 1);
                double mean0[3] = {}, mean1[3] = {};
                for (size_t i = 0; i < img.rgba.size(); i += 4)
                    for (int c = 0; c < 3; ++c) mean0[c] += img.rgba[i + size_t(c)] / double(img.rgba.size() / 4);
                for (size_t i = 0; i < half.rgba.size(); i += 4)
                    for (int c = 0; c < 3; ++c) mean1[c] += half.rgba[i + size_t(c)] / double(half.rgba.size() / 4);
                for (int c = 0; c < 3; ++c) CHECK(std::abs(mean0[c] - mean1[c]) < 4.0);
            }
            ++decoded;
        }
    }
    // 17 cube maps across 8 maps when this was written, all must decode; the v19 SDK map's has content.
    CHECK(decoded >= 17);
    CHECK(withContent >= 1);
}
