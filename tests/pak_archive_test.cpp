// id PACK archives (.pak, src/io/pak_archive.cpp): members and bytes against what the test writer packed, in
// memory and on disk; every kind of damaged header and directory refused with one DecodeError that names the
// archive, the part and what is wrong, never with a large allocation; maps opened from a pak as "x.pak:maps/y.bsp"
// and by name from a game folder of paks, pk3s and loose files.
#include <catch2/catch.hpp>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "../src/io/pak_archive.hpp"
#include "luxel/bsp/decode.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/util/error.hpp"
#include "support/allocation_probe.hpp"
#include "support/decode_helpers.hpp"
#include "support/pak_writer.hpp"
#include "support/test_paths.hpp"
#include "support/zip_writer.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;

namespace {

std::string text(const Bytes& b) { return std::string(b.begin(), b.end()); }
std::string text(const std::optional<Bytes>& b) {
    REQUIRE(b.has_value());
    return text(*b);
}

// What `f` throws as a DecodeError: its message, and whether it is the LimitError kind; "" when it throws
// nothing (anything else escapes and fails the test).
struct Thrown {
    std::string message;
    bool limit = false;
};
Thrown decodeErrorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const LimitError& e) {
        return {e.what(), true};
    } catch (const DecodeError& e) {
        return {e.what(), false};
    }
    return {};
}

// Binary content: every byte value, NULs and 0xff included.
std::string allBytes() {
    std::string s;
    for (int i = 0; i < 256; ++i) s += char(i);
    return s;
}

const std::vector<PakFile> kFiles = {
    {"maps/e1m1.bsp", "BSP bytes of e1m1"},
    {"gfx/palette.lmp", allBytes()},
    {"progs/empty.mdl", ""},
    {"sound/Misc/Water1.WAV", "mixed case name"},
    {"readme.txt", std::string(5000, 'r')},
};

}  // namespace

TEST_CASE("pak: members list in directory order and read back byte for byte", "[pak]") {
    const Bytes pak = makePak(kFiles);
    const fs::path dir = tempDir("pak-read");
    writeFile(dir / "pak0.pak", pak);
    const PakArchive memory("mem.pak", pak), disk((dir / "pak0.pak").string());
    for (const PakArchive* a : {&memory, &disk}) {
        INFO(a->displayName());
        const std::vector<ArchiveEntry> entries = a->entries();
        REQUIRE(entries.size() == kFiles.size());
        for (size_t i = 0; i < kFiles.size(); ++i) {
            CHECK(entries[i].name == kFiles[i].name);
            CHECK(entries[i].index == i);
            CHECK(entries[i].size == kFiles[i].content.size());
            CHECK(text(a->read(i, entries[i].name)) == kFiles[i].content);
        }
        // Offsets as the writer placed them: each file's bytes right after the previous one's, from byte 12.
        CHECK(a->members()[0].offset == 12);
        CHECK(a->members()[1].offset == 12 + kFiles[0].content.size());
        // Names match in any case, as ZipArchive::locate does; '/' and '\' stay distinct.
        CHECK(a->locate("MAPS/E1M1.BSP") == 0u);
        CHECK(text(a->read("sound/misc/water1.wav")) == "mixed case name");
        CHECK_FALSE(a->locate("maps\\e1m1.bsp"));
        CHECK_FALSE(a->locate("maps/e1m2.bsp"));
        CHECK_FALSE(a->read("maps/e1m1"));
    }
    CHECK(memory.displayName() == "mem.pak");
    CHECK(disk.displayName() == (dir / "pak0.pak").string());
}

TEST_CASE("pak: the first of names equal but for case wins; an empty pak has no members", "[pak]") {
    const PakArchive twice("twice.pak", makePak({{"Maps/A.bsp", "first"}, {"maps/a.bsp", "second"}, {"b", "b"}}));
    CHECK(twice.locate("maps/a.bsp") == 0u);  // Quake 2's Q_strcasecmp search stops at the first
    CHECK(text(twice.read("MAPS/A.BSP")) == "first");
    CHECK(twice.entries().size() == 3);

    const Bytes empty = makePak({});
    REQUIRE(empty.size() == 12);
    CHECK(PakArchive("empty.pak", empty).entries().empty());
}

TEST_CASE("pak: damaged headers and directories give one DecodeError naming archive, part and fault", "[pak]") {
    const Bytes good = makePak(kFiles);
    const size_t dirOffset = le32(good, kPakDirOffsetField);
    const size_t last = pakRecordOffset(good, kFiles.size() - 1);
    struct Case {
        const char* what;
        Bytes bytes;
        std::string part, fault;  // the message holds "lump <part> at byte <n>: ... <fault>"
        size_t at;
    };
    std::vector<Case> cases;
    auto edit = [&](const char* what, const std::string& part, size_t at, const std::string& fault, auto change) {
        Bytes b = good;
        change(b);
        cases.push_back({what, std::move(b), part, fault, at});
    };
    edit("a zip, not a pak", "pak header", 0, "not a PACK archive (it starts with 'PK\\x03\\x04', not 'PACK')",
         [](Bytes& b) { b = makeZip({{"maps/x.bsp", "x"}}); });
    edit("shorter than the header", "pak header", 0, "a file of 7 bytes is shorter than the 12-byte PACK header",
         [](Bytes& b) { b.resize(7); });
    edit("no bytes at all", "pak header", 0, "a file of 0 bytes is shorter", [](Bytes& b) { b.clear(); });
    edit("negative directory offset", "pak header", 4, "the directory offset -64 is negative",
         [](Bytes& b) { put32(b, kPakDirOffsetField, uint32_t(-64)); });
    edit("negative directory length", "pak header", 8, "the directory length -64 is negative",
         [](Bytes& b) { put32(b, kPakDirLengthField, uint32_t(-64)); });
    edit("directory length not a multiple of 64", "pak header", 8, "is not a whole number of 64-byte entries",
         [](Bytes& b) { put32(b, kPakDirLengthField, le32(b, kPakDirLengthField) - 1); });
    edit("directory starting past the end", "pak header", 4, "runs past the end of the file",
         [](Bytes& b) { put32(b, kPakDirOffsetField, uint32_t(b.size() + 64)); });
    edit("directory running past the end", "pak header", 4,
         "the directory (" + std::to_string(kFiles.size() * 64 + 64) + " bytes at byte " + std::to_string(dirOffset) +
             ") runs past the end of the file (" + std::to_string(good.size()) + " bytes)",
         [](Bytes& b) { put32(b, kPakDirLengthField, le32(b, kPakDirLengthField) + 64); });
    edit("directory over the header", "pak header", 4, "the directory at byte 4 overlaps the 12-byte header",
         [](Bytes& b) { put32(b, kPakDirOffsetField, 4); });
    edit("entry past the end", "pak directory", last + kPakRecordPos,
         "entry 4 (readme.txt): its 5000 bytes at byte " + std::to_string(good.size() - 4000) +
             " run past the end of the file (" + std::to_string(good.size()) + " bytes)",
         [&](Bytes& b) { put32(b, last + kPakRecordPos, uint32_t(b.size() - 4000)); });
    edit("entry length past the end", "pak directory", last + kPakRecordPos, "run past the end of the file",
         [&](Bytes& b) { put32(b, last + kPakRecordLength, 0x7fffffff); });
    edit("negative entry offset", "pak directory", last + kPakRecordPos, "entry 4 (readme.txt): its offset -1 is negative",
         [&](Bytes& b) { put32(b, last + kPakRecordPos, 0xffffffff); });
    edit("negative entry length", "pak directory", last + kPakRecordLength, "its length -5 is negative",
         [&](Bytes& b) { put32(b, last + kPakRecordLength, uint32_t(-5)); });
    edit("name without a NUL", "pak directory", pakRecordOffset(good, 1),
         "entry 1: its name '" + std::string(56, 'n') + "' has no NUL in its 56 bytes",
         [&](Bytes& b) { std::fill_n(b.begin() + ptrdiff_t(pakRecordOffset(good, 1)), 56, 'n'); });
    edit("empty name", "pak directory", pakRecordOffset(good, 2), "entry 2: its name is empty",
         [&](Bytes& b) { b[pakRecordOffset(good, 2)] = 0; });
    edit("unprintable bytes in a name are escaped", "pak directory", pakRecordOffset(good, 0),
         "entry 0: its name 'maps/e1m1.bsp\\x01\\xff\\x1b", [&](Bytes& b) {
             const size_t r = pakRecordOffset(good, 0) + 13;
             std::fill_n(b.begin() + ptrdiff_t(r), 56 - 13, 'x');
             b[r] = 1, b[r + 1] = 0xff, b[r + 2] = 0x1b;
         });
    for (const Case& c : cases) {
        INFO(c.what);
        const Thrown thrown = decodeErrorOf([&] { PakArchive("bad.pak", c.bytes); });
        CHECK(thrown.message.find("bad.pak: lump " + c.part + " at byte " + std::to_string(c.at) + ": ") == 0);
        CHECK_THAT(thrown.message, Catch::Contains(c.fault));
        CHECK_FALSE(thrown.limit);
    }

    // The same from disk, where the header and directory are read from the file.
    const fs::path dir = tempDir("pak-bad");
    for (const Case& c : cases) {
        INFO(c.what << " (on disk)");
        writeFile(dir / "bad.pak", c.bytes);
        const Thrown thrown = decodeErrorOf([&] { PakArchive((dir / "bad.pak").string()); });
        CHECK(thrown.message.find((dir / "bad.pak").string() + ": lump " + c.part + " at byte " + std::to_string(c.at)) == 0);
        CHECK_THAT(thrown.message, Catch::Contains(c.fault));
    }
    CHECK_THROWS_AS(PakArchive((dir / "missing.pak").string()), UsageError);
    CHECK_THROWS_AS(PakArchive(dir.string()), UsageError);  // a directory
}

TEST_CASE("pak: a directory claiming absurdly many entries is refused before it is allocated", "[pak]") {
    // 65537 entries in a file that holds them: past the limit, a LimitError (checked before the directory's 4 MiB
    // are read).
    Bytes big(12 + (kMaxPakEntries + 1) * 64, 0);
    std::copy_n("PACK", 4, big.begin());
    put32(big, kPakDirOffsetField, 12);
    put32(big, kPakDirLengthField, uint32_t((kMaxPakEntries + 1) * 64));
    const Thrown over = decodeErrorOf([&] { PakArchive("many.pak", big); });
    CHECK(over.limit);
    CHECK_THAT(over.message, Catch::Contains("many.pak: lump pak header at byte 8: the directory claims 65537 entries, "
                                             "more than the 65536 luxel reads"));
    // One entry fewer is read: every record there is damaged (an empty name), so it fails at entry 0 instead.
    put32(big, kPakDirLengthField, uint32_t(kMaxPakEntries * 64));
    CHECK_THAT(decodeErrorOf([&] { PakArchive("many.pak", big); }).message, Catch::Contains("entry 0: its name is empty"));

    // On disk: a sparse file of 8 MiB whose header claims 70000 entries, and one whose header claims a 2 GiB
    // directory; neither allocates more than a little.
    const fs::path dir = tempDir("pak-counts");
    Bytes header(12, 0);
    std::copy_n("PACK", 4, header.begin());
    put32(header, kPakDirOffsetField, 12);
    put32(header, kPakDirLengthField, 70000 * 64);
    writeFile(dir / "sparse.pak", header);
    fs::resize_file(dir / "sparse.pak", 8u << 20);
    Thrown thrown;
    size_t largest = largestAllocationDuring([&] { thrown = decodeErrorOf([&] { PakArchive((dir / "sparse.pak").string()); }); });
    CHECK(thrown.limit);
    CHECK_THAT(thrown.message, Catch::Contains("70000 entries"));
    CHECK(largest < (64u << 10));
    put32(header, kPakDirLengthField, 0x7fffffc0);
    writeFile(dir / "huge.pak", header);
    largest = largestAllocationDuring([&] { thrown = decodeErrorOf([&] { PakArchive((dir / "huge.pak").string()); }); });
    CHECK_THAT(thrown.message, Catch::Contains("runs past the end of the file (12 bytes)"));
    CHECK(largest < (64u << 10));
}

TEST_CASE("pak: a member cut off the file after opening is a DecodeError naming it when read", "[pak]") {
    const fs::path dir = tempDir("pak-cut");
    writeFile(dir / "pak0.pak", makePak(kFiles));
    const PakArchive pak((dir / "pak0.pak").string());
    fs::resize_file(dir / "pak0.pak", 20);  // the first member's 17 bytes end at 29
    CHECK(text(pak.read(2, "progs/empty.mdl")).empty());
    const Thrown thrown = decodeErrorOf([&] { (void)pak.read(0, "maps/e1m1.bsp"); });
    CHECK(thrown.message.find((dir / "pak0.pak").string() + ":maps/e1m1.bsp: lump pak entry at byte 12: cannot read its 17 bytes") == 0);
    CHECK_THROWS_AS(pak.read(99, "x"), std::out_of_range);
}

TEST_CASE("pak: scrambled archives throw nothing but DecodeError, and what opens reads whole", "[pak]") {
    const Bytes good = makePak(kFiles);
    const size_t dirOffset = le32(good, kPakDirOffsetField), dirLength = good.size() - dirOffset;
    uint32_t state = 29;
    auto next = [&] { return state = state * 1664525u + 1013904223u; };
    int opened = 0, rejected = 0;
    for (int round = 0; round < 3000; ++round) {
        Bytes b = good;
        const int edits = 1 + int(next() % 4);
        // A third of the damage anywhere, the rest in the header or the directory, where the checks are.
        for (int k = 0; k < edits; ++k) {
            const uint32_t where = next() % 3;
            const size_t at = where == 0 ? next() % b.size() : where == 1 ? next() % 12 : dirOffset + next() % dirLength;
            b[at] = uint8_t(next() >> 24);
        }
        if (next() % 8 == 0) b.resize(next() % b.size());
        try {
            const PakArchive pak("scrambled.pak", b);
            for (const ArchiveEntry& e : pak.entries()) CHECK(pak.read(e.index, e.name).size() == e.size);
            ++opened;
        } catch (const DecodeError&) {
            ++rejected;
        }
    }
    CHECK(opened > 0);
    CHECK(rejected > 0);
}

TEST_CASE("pak: maps open as archive.pak:maps/x.bsp with their neighbours, and by name from a game folder", "[pak]") {
    const fs::path dir = tempDir("pak-maps");
    writeFile(dir / "baseq2/pak0.pak", makePak({{"maps/base1.bsp", "base1 from pak0"},
                                                 {"maps/base1.lit", "lit beside base1"},
                                                 {"maps/base2.bsp", "base2 from pak0"},
                                                 {"maps/base3.bsp", "base3 from pak0"},
                                                 {"secret.txt", "outside maps/"}}));
    writeFile(dir / "baseq2/pak1.pak", makePak({{"maps/base2.bsp", "base2 from pak1"}}));
    writeTextFile(dir / "baseq2/maps/base3.bsp", "base3 loose");
    writeTextFile(dir / "baseq2/maps/loose.bsp", "loose only");
    writeFile(dir / "baseq2/zz.pk3", makeZip({{"maps/loose.bsp", "loose from a pk3"}, {"maps/inpk3.bsp", "pk3 only"}}));

    const std::string pak0 = (dir / "baseq2/pak0.pak").string();
    const auto split = splitArchiveMember(pak0 + ":maps/base1.bsp");
    REQUIRE(split);
    CHECK(split->archive == pak0);
    CHECK(split->member == "maps/base1.bsp");
    CHECK(splitArchiveMember("DIR/PAK0.PAK:MAPS/X.BSP")->archive == "DIR/PAK0.PAK");

    MapSource src = openMapPath(pak0 + ":maps/base1.bsp");
    CHECK(src.displayName == pak0 + ":maps/base1.bsp");
    CHECK(src.mapName == "base1");
    CHECK(text(src.bytes) == "base1 from pak0");
    CHECK(text(src.openRelated("base1.lit")) == "lit beside base1");
    CHECK(text(openMapPath(pak0 + ":MAPS/BASE2.BSP").bytes) == "base2 from pak0");  // any case, as in a pk3
    CHECK(text(src.openRelated("../secret.txt")) == "outside maps/");                 // "maps/../secret.txt"
    CHECK_FALSE(src.openRelated("../../secret.txt"));                                // nothing outside the archive
    CHECK_FALSE(src.openRelated("none.lit"));
    CHECK_THROWS_AS(openMapPath(pak0 + ":maps/none.bsp"), UsageError);
    CHECK_THROWS_AS(openMapPath((dir / "none.pak").string() + ":maps/base1.bsp"), UsageError);

    // By name: pak1 beats pak0, a pak beats a loose file (Quake 1 / 2 search every pak before the directory),
    // a loose file beats a pk3 (Quake 3 searches the directory before its pk3s).
    const std::string game = (dir / "baseq2").string();
    auto byName = [&](const std::string& name) {
        MapSource m = openMapInGameDir(game, name);
        return std::make_pair(text(m.bytes), m.displayName);
    };
    CHECK(byName("base1") == std::make_pair(std::string("base1 from pak0"), pak0 + ":maps/base1.bsp"));
    CHECK(byName("base2") == std::make_pair(std::string("base2 from pak1"), (dir / "baseq2/pak1.pak").string() + ":maps/base2.bsp"));
    CHECK(byName("base3").first == "base3 from pak0");
    CHECK(byName("loose") == std::make_pair(std::string("loose only"), (dir / "baseq2/maps/loose.bsp").string()));
    CHECK(byName("inpk3").first == "pk3 only");
    CHECK(text(openMapInGameDir(game, "base1").openRelated("base1.lit")) == "lit beside base1");
    try {
        openMapInGameDir(game, "nowhere");
        FAIL("no error for a missing map");
    } catch (const UsageError& e) {
        CHECK_THAT(e.what(), Catch::Contains("no maps/nowhere.bsp in the directory or its 3 archives"));
    }

    // A damaged pak in the folder is the error when the search reaches it, naming it.
    writeFile(dir / "baseq2/pak2.pak", bytesOf("PACK but nothing more"));
    const Thrown thrown = decodeErrorOf([&] { openMapInGameDir(game, "base1"); });
    CHECK(thrown.message.find((dir / "baseq2/pak2.pak").string() + ": lump pak header") == 0);
}

TEST_CASE("pak: a real Quake 2 map decodes from a pak as from its own file", "[pak][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const std::string path = *sharedMaps() + "/q2/qengine_sample.bsp";
    const Bytes bytes = readFile(path);
    const fs::path dir = tempDir("pak-real");
    writeFile(dir / "pak0.pak", makePak({{"pics/colormap.pcx", "not read"}, {"maps/qengine_sample.bsp", text(bytes)}}));
    const MapSource fromPak = openMapPath((dir / "pak0.pak").string() + ":maps/qengine_sample.bsp");
    CHECK(fromPak.bytes == bytes);
    const World a = decodeMap(fromPak), b = decodeMap(openMapPath(path));
    CHECK(a.file == (dir / "pak0.pak").string() + ":maps/qengine_sample.bsp");
    requireSameGeometryAndLight(a, b);
}
