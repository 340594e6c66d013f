// The VPK reader: archives of both versions from the test writer (every placement of a file's bytes), the
// real test archives in ../shared/source-content (their documented contents), CRC checks, and hostile
// directory files and archives.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <filesystem>
#include <string>
#include <vector>

#include "luxel/io/vpk_archive.hpp"
#include "luxel/util/error.hpp"
#include "support/decode_helpers.hpp"
#include "support/test_paths.hpp"
#include "support/vpk_writer.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;

namespace {

std::string text(const Bytes& b) { return std::string(b.begin(), b.end()); }

// Every way the writer can place a file: data in the directory file, in archives 0 and 7 (no 1..6),
// split between preload bytes and an archive, preload only, empty, no extension, at the root.
const std::vector<VpkFile> kFiles = {
    {"readme.txt", "at the root, in the directory file"},
    {"materials/brick/wall.vmt", "LightmappedGeneric { $basetexture brick/wall }", 0},
    {"materials/brick/wall.vtf", "VTF twelve bytes of preload then the rest in archive 7", 7, 12},
    {"materials/brick/wall_normal.vtf", "all of it preloaded", 0x7fff, 19},
    {"scripts/empty.txt", ""},
    {"test/noext", "a file without an extension", 7},
};

std::string decodeErrorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const DecodeError& e) {
        return e.what();
    }
    return {};
}

bool anyContains(const std::vector<std::string>& lines, const std::string& part) {
    for (const std::string& l : lines)
        if (l.find(part) != std::string::npos) return true;
    return false;
}

// Where an entry's record (CRC first) sits in a directory file: just after its name's NUL.
size_t recordOf(const Bytes& dir, const std::string& name) {
    const std::string needle = name + std::string(1, '\0');
    const auto it = std::search(dir.begin(), dir.end(), needle.begin(), needle.end());
    REQUIRE(it != dir.end());
    return size_t(it - dir.begin()) + needle.size();
}

}  // namespace

TEST_CASE("VPK v1 and v2 from the test writer read back every file, CRCs checked", "[vpk]") {
    for (int version : {1, 2}) {
        INFO("version " << version);
        const fs::path dir = tempDir("vpk-roundtrip-" + std::to_string(version));
        const std::string path = writeVpk(dir, "pak01", makeVpk(kFiles, version));
        REQUIRE(fs::exists(dir / "pak01_000.vpk"));
        REQUIRE(fs::exists(dir / "pak01_007.vpk"));
        REQUIRE_FALSE(fs::exists(dir / "pak01_001.vpk"));
        const VpkArchive vpk(path);
        CHECK(vpk.version() == uint32_t(version));
        REQUIRE(vpk.entries().size() == kFiles.size());
        for (const VpkFile& f : kFiles) {
            INFO(f.path);
            const auto index = vpk.find(f.path);
            REQUIRE(index);
            const VpkEntry& e = vpk.entries()[*index];
            CHECK(e.path == f.path);
            CHECK(e.size() == f.content.size());
            CHECK(e.preloadLength == f.preload);
            CHECK(e.crc == crc32Of(f.content));
            CHECK(text(vpk.read(*index)) == f.content);
        }
        CHECK(vpk.archivePath(7) == (dir / "pak01_007.vpk").string());
        // The engine's lookups: any case, either slash.
        CHECK(vpk.find("MATERIALS\\Brick\\WALL.vtf") == vpk.find("materials/brick/wall.vtf"));
        CHECK_FALSE(vpk.find("materials/brick"));
        CHECK_FALSE(vpk.find("materials/brick/wall"));
        CHECK(vpk.warnings().empty());
    }
}

TEST_CASE("a VPK CRC mismatch is a warning naming the entry, an error when strict", "[vpk]") {
    std::vector<VpkFile> files = kFiles;
    files[2].crc = 0x12345678;  // materials/brick/wall.vtf
    const std::string path = writeVpk(tempDir("vpk-crc"), "pak01", makeVpk(files, 2));
    const VpkArchive lenient(path);
    CHECK(lenient.warnings().empty());  // nothing is read when mounting
    const size_t index = *lenient.find("materials/brick/wall.vtf");
    CHECK(text(lenient.read(index)) == files[2].content);
    CHECK(text(lenient.read(index)) == files[2].content);
    REQUIRE(lenient.warnings().size() == 1);  // once per entry
    CHECK(lenient.warnings()[0].find("materials/brick/wall.vtf") != std::string::npos);
    CHECK(lenient.warnings()[0].find("0x12345678") != std::string::npos);
    CHECK(text(lenient.read(*lenient.find("readme.txt"))) == files[0].content);
    CHECK(lenient.warnings().size() == 1);

    const VpkArchive strict(path, true);
    const std::string error = decodeErrorOf([&] { strict.read(index); });
    CHECK(error.find("materials/brick/wall.vtf") != std::string::npos);
    CHECK(error.find("CRC32") != std::string::npos);
    CHECK(text(strict.read(*strict.find("readme.txt"))) == files[0].content);
}

TEST_CASE("hostile VPK directory files give one DecodeError", "[vpk]") {
    const Bytes good = makeVpk(kFiles, 2).directory;
    struct Case {
        const char* what;
        Bytes bytes;
        const char* error;
    };
    std::vector<Case> cases;
    auto edit = [&](const char* what, const char* error, auto change) {
        Bytes b = good;
        change(b);
        cases.push_back({what, std::move(b), error});
    };
    edit("signature", "not a VPK", [](Bytes& b) { b[0] ^= 0xff; });
    edit("version 3", "version 3", [](Bytes& b) { put32(b, 4, 3); });
    edit("tree past the end", "runs past the end of the file", [](Bytes& b) { put32(b, 8, 0x7ffffff0); });
    edit("data section past the end", "run past the end of the file", [](Bytes& b) { put32(b, 12, 0xfffffff0); });
    edit("trailing sections past the end", "run past the end of the file", [](Bytes& b) { put32(b, 24, 1000000); });
    edit("header cut short", "unexpected end", [](Bytes& b) { b.resize(20); });
    edit("record terminator", "expected 65535", [](Bytes& b) { b[recordOf(b, "readme") + 16] = 0x12; });
    edit("preload past the tree", "unexpected end", [](Bytes& b) {
        const size_t r = recordOf(b, "readme");
        b[r + 4] = 0xff, b[r + 5] = 0xff;
    });
    edit("tree without its final NUL", "without its terminating NUL", [](Bytes& b) {
        put32(b, 8, uint32_t(b[8] | (b[9] << 8) | (b[10] << 16)) - 1);
    });
    for (const Case& c : cases) {
        INFO(c.what);
        const std::string error = decodeErrorOf([&] { VpkArchive("bad_dir.vpk", c.bytes); });
        CHECK(error.find("bad_dir.vpk") == 0);
        CHECK(error.find(c.error) != std::string::npos);
    }
}

TEST_CASE("hostile VPK entries: a warning naming them, an error when read, never a huge allocation", "[vpk]") {
    SECTION("an archive index with no file and entries past an archive's end") {
        const fs::path dir = tempDir("vpk-missing-archive");
        const std::string path = writeVpk(dir, "pak01", makeVpk(kFiles, 1));
        fs::remove(dir / "pak01_007.vpk");
        fs::resize_file(dir / "pak01_000.vpk", 10);
        const VpkArchive vpk(path);
        const std::vector<std::string> w = vpk.warnings();
        CHECK(anyContains(w, "pak01_007.vpk does not exist: 2 entries in it cannot be read (test/noext, materials/brick/wall.vtf)"));
        CHECK(anyContains(w, "1 entry run past the end of " + (dir / "pak01_000.vpk").string() + " (10 bytes): materials/brick/wall.vmt"));
        std::string error = decodeErrorOf([&] { vpk.read(*vpk.find("test/noext")); });
        CHECK(error.find("test/noext") != std::string::npos);
        CHECK(error.find("pak01_007.vpk does not exist") != std::string::npos);
        error = decodeErrorOf([&] { vpk.read(*vpk.find("materials/brick/wall.vmt")); });
        CHECK(error.find("materials/brick/wall.vmt") != std::string::npos);
        CHECK(error.find("run past the end of the archive (10 bytes)") != std::string::npos);
        CHECK(text(vpk.read(*vpk.find("readme.txt"))) == kFiles[0].content);  // the rest still reads
    }
    SECTION("an absurd length in the directory file's data") {
        Bytes dir = makeVpk(kFiles, 2).directory;
        put32(dir, recordOf(dir, "readme") + 12, 0xffffffff);
        const VpkArchive vpk("mem_dir.vpk", dir);
        CHECK(anyContains(vpk.warnings(), "1 entry run past the end of the directory file's data"));
        const std::string error = decodeErrorOf([&] { vpk.read(*vpk.find("readme.txt")); });
        CHECK(error.find("readme.txt: 4294967295 bytes") != std::string::npos);
    }
    SECTION("names that leave the archive are left out") {
        const std::vector<VpkFile> files = {{"../../etc/passwd", "x"}, {"materials/../../up.vmt", "y"}, {"c:/x.vmt", "z"},
                                            {"ok/file.txt", "fine"}};
        const VpkArchive vpk("mem_dir.vpk", makeVpk(files, 2).directory);
        REQUIRE(vpk.entries().size() == 1);
        CHECK(vpk.entries()[0].path == "ok/file.txt");
        CHECK(vpk.warnings().size() == 3);
        CHECK(anyContains(vpk.warnings(), "\"../../etc/passwd\" left out"));
        CHECK_FALSE(vpk.find("../../etc/passwd"));
    }
    SECTION("in memory, numbered archives cannot be read") {
        const VpkArchive vpk("mem_dir.vpk", makeVpk(kFiles, 2).directory);
        CHECK(anyContains(vpk.warnings(), "does not exist"));
        CHECK(decodeErrorOf([&] { vpk.read(*vpk.find("test/noext")); }).find("test/noext") != std::string::npos);
        CHECK(text(vpk.read(*vpk.find("materials/brick/wall_normal.vtf"))) == "all of it preloaded");
    }
}

TEST_CASE("scrambled VPK directory files throw nothing but DecodeError", "[vpk]") {
    const Bytes good = makeVpk(kFiles, 2).directory;
    uint32_t state = 17;
    auto next = [&] { return state = state * 1664525u + 1013904223u; };
    int opened = 0, rejected = 0;
    for (int round = 0; round < 3000; ++round) {
        Bytes b = good;
        const int edits = 1 + int(next() % 4);
        for (int k = 0; k < edits; ++k) b[next() % b.size()] = uint8_t(next() >> 24);
        if (next() % 4 == 0) b.resize(next() % b.size());
        try {
            const VpkArchive vpk("scrambled_dir.vpk", b);
            for (size_t i = 0; i < vpk.entries().size(); ++i) {
                try {
                    (void)vpk.read(i);
                } catch (const DecodeError&) {
                }
            }
            ++opened;
        } catch (const DecodeError&) {
            ++rejected;
        }
    }
    CHECK(opened > 0);
    CHECK(rejected > 0);
}

TEST_CASE("ValvePython's VPK v1 test archive: non-contiguous archives and a preload split", "[vpk][maps]") {
    LUXEL_REQUIRE_SOURCE_CONTENT();
    const fs::path dir = fs::path(*sharedSourceContent()) / "valvepython_vpk";
    const VpkArchive vpk((dir / "test_dir.vpk").string());
    CHECK(vpk.version() == 1);
    REQUIRE(vpk.entries().size() == 3);
    const VpkEntry& t1 = vpk.entries()[*vpk.find("testfile1.txt")];
    const VpkEntry& t2 = vpk.entries()[*vpk.find("testdir/testfile2.txt")];
    const VpkEntry& t3 = vpk.entries()[*vpk.find("a/b/c/d/testfile3.bin")];
    // The README's numbers.
    CHECK((t1.archive == 1 && t1.size() == 216 && t1.preloadLength == 0 && t1.crc == 0x518ed761));
    CHECK((t2.archive == 99 && t2.preloadLength == 24 && t2.length == 192 && t2.offset == 254 && t2.crc == 0x518ed761));
    CHECK((t3.archive == 99 && t3.size() == 2 && t3.offset == 577 && t3.crc == 0xd736d92d));
    const std::string one = text(vpk.read(*vpk.find("testfile1.txt")));
    const std::string two = text(vpk.read(*vpk.find("TESTDIR\\testfile2.txt")));
    CHECK(one.size() == 216);
    // Equal CRCs: one file stored whole in archive 1, and split between the tree and archive 99.
    CHECK(one == two);
    CHECK(two.starts_with("line 1\r\nline 2\r\nline 3\r\n"));
    CHECK(vpk.read(*vpk.find("a/b/c/d/testfile3.bin")).size() == 2);
    CHECK(vpk.warnings().empty());  // every CRC matched
}

TEST_CASE("plumber_core's VPK v2 test archives: data in the directory file, no extension", "[vpk][maps]") {
    LUXEL_REQUIRE_SOURCE_CONTENT();
    const fs::path dir = fs::path(*sharedSourceContent()) / "plumber_core" / "vpk";
    const VpkArchive multi((dir / "test_dir.vpk").string());
    CHECK(multi.version() == 2);
    REQUIRE(multi.entries().size() == 2);
    const VpkEntry& empty = multi.entries()[*multi.find("test.txt")];
    CHECK((empty.archive == kVpkDirectoryArchive && empty.size() == 0));
    CHECK(multi.read(*multi.find("test.txt")).empty());
    CHECK(text(multi.read(*multi.find("test/test2"))) == "test 2");  // plumber_core's own test
    CHECK(multi.warnings().empty());

    const VpkArchive single((dir / "test.vpk").string());
    REQUIRE(single.entries().size() == 2);
    const Bytes vdf = single.read(*single.find("test.vdf"));
    const Bytes vmf = single.read(*single.find("test.vmf"));
    CHECK(vdf.size() == 677);
    CHECK(vmf.size() == 17465);
    CHECK(text(vdf).starts_with("\"key1\" \"value1\""));
    CHECK(single.warnings().empty());
}
