// Deflated zip members read through libdeflate (ZipArchive::read): contents against what was zipped with
// libzip, and directories that lie about a member's sizes or CRC, patched into real zips byte by byte.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "../src/io/zip_archive.hpp"
#include "luxel/util/error.hpp"
#include "support/decode_helpers.hpp"
#include "support/zip_writer.hpp"

using namespace luxel;
using luxel::test::le32;
using luxel::test::put32;

namespace {

constexpr uint32_t kCentralHeader = 0x02014b50;

// Offset of the central directory header of the only member of `zip` (its signature's first byte).
size_t centralHeader(const Bytes& zip) {
    for (size_t i = zip.size() - 4; i-- > 0;) {
        uint32_t sig;
        std::memcpy(&sig, zip.data() + i, 4);
        if (sig == kCentralHeader) return i;
    }
    FAIL("no central directory header");
    return 0;
}


// The central header's fields (APPNOTE 4.3.12): CRC-32 at 16, compressed size at 20, uncompressed at 24.
constexpr size_t kCrc = 16, kCompressed = 20, kUncompressed = 24;

std::string errorOf(const Bytes& zip) {
    try {
        ZipArchive archive("test.zip", zip);
        archive.read(0, "member.bin");
    } catch (const DecodeError& e) {
        return e.what();
    }
    return "";
}

std::string pattern(size_t n) {
    std::string s(n, '\0');
    uint32_t x = 12345;
    for (size_t i = 0; i < n; ++i) {
        x = x * 1103515245u + 12345u;
        s[i] = char('a' + (x >> 16) % 7);  // compressible, not trivially
    }
    return s;
}

}  // namespace

TEST_CASE("zip: deflated members read back as zipped, small and over the 1 MiB read step", "[zip]") {
    for (size_t n : {size_t(0), size_t(1), size_t(4096), size_t(3) << 20}) {
        const std::string content = pattern(n);
        const Bytes zip = test::makeZip({{"member.bin", content, false}});
        const size_t c = centralHeader(zip);
        if (n > 64) CHECK(le32(zip, c + kCompressed) < n);  // really deflated
        ZipArchive archive("test.zip", zip);
        const Bytes back = archive.read(0, "member.bin");
        CHECK(std::string(back.begin(), back.end()) == content);
    }
}

TEST_CASE("zip: a deflated member whose directory lies fails with one line naming it", "[zip]") {
    const std::string content = pattern(100000);
    const Bytes good = test::makeZip({{"member.bin", content, false}});
    const size_t c = centralHeader(good);
    const uint32_t packed = le32(good, c + kCompressed);

    // A claim past what deflate can expand the stored bytes to: refused before the buffer is allocated
    // (900 MB here, under the 1 GiB member limit).
    Bytes huge = good;
    put32(huge, c + kUncompressed, 900u << 20);
    CHECK_THAT(errorOf(huge), Catch::Contains("test.zip:member.bin") && Catch::Contains("more than deflate can expand to"));

    Bytes shorter = good;
    put32(shorter, c + kUncompressed, uint32_t(content.size() - 1));
    CHECK_THAT(errorOf(shorter), Catch::Contains("decompresses to more than its 99999 bytes"));

    Bytes longer = good;
    put32(longer, c + kUncompressed, uint32_t(content.size() + 10));
    CHECK_THAT(errorOf(longer), Catch::Contains("decompresses to 100000 of its 100010 bytes"));

    Bytes crc = good;
    put32(crc, c + kCrc, le32(good, c + kCrc) ^ 1u);
    CHECK_THAT(errorOf(crc), Catch::Contains("CRC error"));

    // The deflate stream damaged in its middle: invalid data, a wrong length or a CRC mismatch, never a crash.
    Bytes damaged = good;
    const size_t local = 30 + std::strlen("member.bin");  // the first local header has no extra field here
    for (size_t i = 0; i < 16; ++i) damaged[local + packed / 2 + i] ^= 0x5a;
    CHECK_THAT(errorOf(damaged), Catch::Contains("test.zip:member.bin") &&
                                   (Catch::Contains("cannot decompress") || Catch::Contains("decompresses to")));
}
