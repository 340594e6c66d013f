// The game file system: mount precedence, case-insensitive lookup, listings, hostile names, bad archives;
// against zips built here with libzip (known contents) and, with [maps], the OpenArena pk3s and the pakfile
// lumps of the shared Source maps.
#include <catch2/catch.hpp>
#include <tbb/parallel_for.h>
#include <zip.h>

#include <algorithm>
#include <atomic>
#include <random>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "../src/bsp/source/format.hpp"
#include "luxel/io/game_files.hpp"
#include "luxel/util/error.hpp"
#include "support/pak_writer.hpp"
#include "support/test_paths.hpp"
#include "support/zip_writer.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;

namespace {

using test::makeZip;

void writeFile(const fs::path& path, const std::string& bytes) { test::writeFile(path, Bytes(bytes.begin(), bytes.end())); }

std::string text(const std::optional<Bytes>& bytes) {
    REQUIRE(bytes.has_value());
    return std::string(bytes->begin(), bytes->end());
}

// The message of the DecodeError `f` throws; "" when it throws nothing or something else.
template <class F>
std::string decodeErrorOf(F f) {
    try {
        f();
    } catch (const DecodeError& e) {
        return e.what();
    } catch (...) {
    }
    return {};
}

const char* kOpenArena = "/usr/share/games/openarena/baseoa";

}  // namespace

TEST_CASE("game paths normalise to lower case '/' and reject escapes", "[game_files]") {
    CHECK(normalizeGamePath("Textures\\Base_Wall\\Metal.TGA") == "textures/base_wall/metal.tga");
    CHECK(normalizeGamePath("./scripts//common.shader") == "scripts/common.shader");
    CHECK(normalizeGamePath("/scripts/common.shader") == "scripts/common.shader");  // as Q3 drops a leading '/'
    CHECK(normalizeGamePath("textures/./a.jpg") == "textures/a.jpg");
    CHECK_FALSE(normalizeGamePath("../secret.txt"));
    CHECK_FALSE(normalizeGamePath("textures/../../secret.txt"));
    CHECK_FALSE(normalizeGamePath("textures\\..\\..\\secret.txt"));
    CHECK_FALSE(normalizeGamePath("C:\\Windows\\win.ini"));
    CHECK_FALSE(normalizeGamePath(std::string("a\0b", 3)));
    CHECK_FALSE(normalizeGamePath(""));
    CHECK_FALSE(normalizeGamePath("/"));
    CHECK_FALSE(normalizeGamePath("./."));
}

TEST_CASE("Quake 3 game dir: loose files beat pk3s, later pk3s beat earlier ones", "[game_files]") {
    const fs::path dir = tempDir("gamefiles-q3");
    writeFile(dir / "textures/a.tga", "loose a");
    writeFile(dir / "pak0.pk3", makeZip({{"textures/a.tga", "pak0 a"},
                                          {"textures/b.tga", "pak0 b"},
                                          {"textures/c.tga", "pak0 c"},
                                          {"textures/d.tga", "pak0 d"},
                                          {"textures/only0.tga", "pak0 only"}}));
    writeFile(dir / "pak8.pk3", makeZip({{"textures/b.tga", "pak8 b"}, {"textures/c.tga", "pak8 c"}}));
    writeFile(dir / "zz_mod.pk3", makeZip({{"textures/c.tga", "zz c"}}));
    // Byte order puts "Zb" before "aa"; the engine's case-insensitive paksort puts it after, so Zb wins.
    writeFile(dir / "aa.pk3", makeZip({{"textures/d.tga", "aa d"}}));
    writeFile(dir / "Zb.pk3", makeZip({{"textures/d.tga", "Zb d"}}));
    writeFile(dir / "notes.txt", "not an archive");  // only *.pk3 are mounted

    const auto paks = quake3PakFiles(dir.string());
    REQUIRE(paks.size() == 5);
    CHECK(fs::path(paks.front()).filename() == "aa.pk3");
    CHECK(fs::path(paks.back()).filename() == "zz_mod.pk3");

    GameFiles files;
    files.addQuake3GameDir(dir.string());
    CHECK(files.mountCount() == 6);  // the directory and five archives
    CHECK(text(files.read("textures/a.tga")) == "loose a");
    CHECK(text(files.read("textures/b.tga")) == "pak8 b");
    CHECK(text(files.read("textures/c.tga")) == "zz c");
    CHECK(text(files.read("textures/d.tga")) == "Zb d");
    CHECK(text(files.read("textures/only0.tga")) == "pak0 only");
    CHECK_FALSE(files.read("textures/missing.tga"));
    CHECK_FALSE(files.exists("textures/missing.tga"));
    CHECK(files.exists("notes.txt"));  // loose files of any kind are files of the game

    CHECK(files.describe("textures/b.tga") == (dir / "pak8.pk3").string() + ":textures/b.tga");
    CHECK(files.describe("textures/a.tga") == (dir / "textures/a.tga").string());
    CHECK_FALSE(files.describe("textures/missing.tga"));
}

TEST_CASE("Quake 1/2 game dir: a higher-numbered pak beats a lower one, every pak beats loose files", "[game_files]") {
    const fs::path dir = tempDir("gamefiles-quake");
    writeFile(dir / "pak0.pak", test::makePak({{"gfx/palette.lmp", "pak0 palette"},
                                                {"textures/a.wal", "pak0 a"},
                                                {"textures/b.wal", "pak0 b"},
                                                {"textures/c.wal", "pak0 c"},
                                                {"textures/only0.wal", "pak0 only"}}));
    writeFile(dir / "pak1.pak", test::makePak({{"textures/b.wal", "pak1 b"}, {"Textures/C.WAL", "pak1 c"}}));
    // Numbers, not names, order the paks: pak10 comes after pak2 (byte order would put it before).
    writeFile(dir / "pak2.pak", test::makePak({{"textures/c.wal", "pak2 c"}, {"textures/d.wal", "pak2 d"}}));
    writeFile(dir / "PAK10.PAK", test::makePak({{"textures/d.wal", "pak10 d"}}));
    // Loose files lose to every pak (id's engines put the directory behind its paks) but are still found.
    writeFile(dir / "gfx/palette.lmp", "loose palette");
    writeFile(dir / "textures/loose.wal", "loose only");
    // Not pakN.pak as the engines spell it: never mounted.
    writeFile(dir / "pak01.pak", test::makePak({{"textures/a.wal", "pak01 a"}, {"unmounted1.txt", "x"}}));
    writeFile(dir / "mymod.pak", test::makePak({{"textures/a.wal", "mymod a"}, {"unmounted2.txt", "x"}}));
    writeFile(dir / "pak3.pk3", makeZip({{"textures/a.wal", "pk3 a"}, {"unmounted3.txt", "x"}}));

    std::vector<std::string> names;
    for (const std::string& p : quakePakFiles(dir.string())) names.push_back(fs::path(p).filename().string());
    CHECK(names == std::vector<std::string>{"pak0.pak", "pak1.pak", "pak2.pak", "PAK10.PAK"});
    CHECK(quakePakNumber("pak0.pak") == 0u);
    CHECK(quakePakNumber("Pak12.Pak") == 12u);
    for (const char* other : {"pak01.pak", "pak.pak", "pak-1.pak", "pak1.pk3", "xpak1.pak", "pak1234567890.pak"})
        CHECK_FALSE(quakePakNumber(other));

    GameFiles files;
    files.addQuakeGameDir(dir.string());
    CHECK(files.mountCount() == 5);  // four paks and the directory
    const std::vector<FileOrigin> mounts = files.mounts();
    CHECK(fs::path(mounts.front().mount).filename() == "PAK10.PAK");
    CHECK(mounts.back().kind == FileOrigin::Kind::Loose);
    CHECK(text(files.read("gfx/palette.lmp")) == "pak0 palette");
    CHECK(text(files.read("textures/a.wal")) == "pak0 a");
    CHECK(text(files.read("textures/b.wal")) == "pak1 b");
    CHECK(text(files.read("textures/c.wal")) == "pak2 c");
    CHECK(text(files.read("textures/d.wal")) == "pak10 d");
    CHECK(text(files.read("textures/only0.wal")) == "pak0 only");
    CHECK(text(files.read("TEXTURES/LOOSE.WAL")) == "loose only");
    for (const char* unmounted : {"unmounted1.txt", "unmounted2.txt", "unmounted3.txt"}) CHECK_FALSE(files.exists(unmounted));
    CHECK(files.describe("textures/b.wal") == (dir / "pak1.pak").string() + ":textures/b.wal");
    CHECK(files.describe("textures/c.wal") == (dir / "pak2.pak").string() + ":textures/c.wal");
    const std::optional<FileOrigin> origin = files.origin("textures/d.wal");
    REQUIRE(origin);
    CHECK(origin->kind == FileOrigin::Kind::Archive);
    CHECK(origin->member == "textures/d.wal");
    CHECK(files.list("textures", ".wal") ==
          std::vector<std::string>{"textures/a.wal", "textures/b.wal", "textures/c.wal", "textures/d.wal",
                                   "textures/loose.wal", "textures/only0.wal"});

    // A pak mounts on its own too (by its extension); its identity is not a zip's.
    GameFiles one;
    one.addArchive((dir / "pak1.pak").string());
    CHECK(text(one.read("textures/c.wal")) == "pak1 c");
    CHECK(one.identity("textures/c.wal") == "pak:" + fs::canonical(dir / "pak1.pak").string() + ":Textures/C.WAL");

    // A damaged pak fails the whole game dir with its name, leaving the search path as it was.
    writeFile(dir / "pak4.pak", Bytes{'P', 'A', 'C', 'K', 12, 0, 0, 0, 63, 0, 0, 0});
    GameFiles failing;
    failing.addDirectory((dir / "textures").string());
    CHECK_THAT(decodeErrorOf([&] { failing.addQuakeGameDir(dir.string()); }),
               Catch::Matchers::Contains((dir / "pak4.pak").string() + ": lump pak header at byte 8"));
    CHECK(failing.mountCount() == 1);
    CHECK_THROWS_AS(failing.addQuakeGameDir((dir / "missing").string()), UsageError);
}

TEST_CASE("game files: names match case-insensitively and with backslashes", "[game_files]") {
    const fs::path dir = tempDir("gamefiles-case");
    writeFile(dir / "Models/Box.MD3", "loose box");
    writeFile(dir / "win.pk3", makeZip({{"Textures\\Base\\Wall.TGA", "windows wall"}, {"Scripts/Mixed.Shader", "m"}}));
    GameFiles files;
    files.addDirectory((dir / "").string());
    files.addArchive((dir / "win.pk3").string());
    for (const char* name : {"textures/base/wall.tga", "TEXTURES/BASE/WALL.tga", "textures\\base\\wall.tga"}) {
        INFO(name);
        CHECK(text(files.read(name)) == "windows wall");
    }
    CHECK(text(files.read("models/box.md3")) == "loose box");
    CHECK(text(files.read("MODELS\\BOX.md3")) == "loose box");
    // Messages keep the member's own spelling.
    CHECK(files.describe("textures/base/wall.tga") == (dir / "win.pk3").string() + ":Textures\\Base\\Wall.TGA");
    CHECK(files.list("scripts", ".shader") == std::vector<std::string>{"scripts/mixed.shader"});
}

TEST_CASE("game files: list() merges mounts, sorted and each name once", "[game_files]") {
    const fs::path dir = tempDir("gamefiles-list");
    writeFile(dir / "loose/scripts/d.shader", "d");
    writeFile(dir / "loose/other/e.shader", "e");
    writeFile(dir / "a.pk3", makeZip({{"scripts/b.shader", "a b"},
                                       {"scripts/a.shader", "a a"},
                                       {"scripts/readme.txt", "r"},
                                       {"scripts/sub/deep.shader", "deep"},
                                       {"scripts.shader", "not under scripts/"}}));
    writeFile(dir / "b.pk3", makeZip({{"scripts/B.SHADER", "b b"}, {"scripts/c.shader", "b c"}}));
    GameFiles files;
    files.addDirectory((dir / "loose").string());
    files.addArchive((dir / "b.pk3").string());
    files.addArchive((dir / "a.pk3").string());
    const std::vector<std::string> all = {"scripts/a.shader", "scripts/b.shader", "scripts/c.shader",
                                          "scripts/d.shader", "scripts/sub/deep.shader"};
    CHECK(files.list("scripts", ".shader") == all);
    CHECK(files.list("Scripts/", "SHADER") == all);
    CHECK(files.list("scripts", ".shader", false) ==
          std::vector<std::string>{"scripts/a.shader", "scripts/b.shader", "scripts/c.shader", "scripts/d.shader"});
    CHECK(files.list("scripts", "").size() == all.size() + 1);  // and readme.txt
    CHECK(files.list("", ".shader").size() == all.size() + 2);  // and other/e.shader, scripts.shader
    CHECK(files.list("nothing", ".shader").empty());
    CHECK(files.list("..", "").empty());
    // The first mount in the search path wins the duplicate.
    CHECK(text(files.read("scripts/b.shader")) == "b b");
}

TEST_CASE("game files: an in-memory archive mounts like one on disk", "[game_files]") {
    const Bytes zip = makeZip({{"materials/maps/x/cubemapdefault.vtf", "vtf bytes"}, {"materials/Tile.vmt", "vmt"}});
    const fs::path dir = tempDir("gamefiles-mem");
    writeFile(dir / "pak.zip", zip);

    GameFiles memory;
    memory.addArchiveBytes("x.bsp:pakfile", zip);
    CHECK(text(memory.read("materials/maps/x/cubemapdefault.vtf")) == "vtf bytes");
    CHECK(text(memory.read("materials/tile.vmt")) == "vmt");
    CHECK(memory.describe("materials/tile.vmt") == "x.bsp:pakfile:materials/Tile.vmt");
    CHECK(memory.list("materials", "") ==
          std::vector<std::string>{"materials/maps/x/cubemapdefault.vtf", "materials/tile.vmt"});

    // Identities: equal for the same file reached by two GameFiles, different for different files.
    GameFiles memory2;
    memory2.addArchiveBytes("y.bsp:pakfile", zip);  // the same bytes under another name
    CHECK(memory.identity("materials/tile.vmt") == memory2.identity("materials/tile.vmt"));
    CHECK(memory.identity("materials/tile.vmt") != memory.identity("materials/maps/x/cubemapdefault.vtf"));
    GameFiles other;
    other.addArchiveBytes("z.bsp:pakfile", makeZip({{"materials/Tile.vmt", "another vmt"}}));
    CHECK(memory.identity("materials/tile.vmt") != other.identity("materials/tile.vmt"));

    GameFiles disk1, disk2;
    disk1.addArchive((dir / "pak.zip").string());
    disk2.addArchive((dir / "." / "pak.zip").string());  // another spelling of the same file
    REQUIRE(disk1.identity("materials/tile.vmt"));
    CHECK(disk1.identity("materials/tile.vmt") == disk2.identity("materials/tile.vmt"));
    CHECK(disk1.identity("materials/tile.vmt") != memory.identity("materials/tile.vmt"));
    CHECK_FALSE(disk1.identity("materials/none.vmt"));
}

TEST_CASE("game files: corrupt and missing archives and directories are reported by name", "[game_files]") {
    const fs::path dir = tempDir("gamefiles-bad");
    writeFile(dir / "garbage.pk3", "this is not a zip archive at all, just text");
    const Bytes good = makeZip({{"a.txt", "alpha"}, {"b.txt", "CORRUPT-ME-PLEASE", true}});
    writeFile(dir / "truncated.pk3", Bytes(good.begin(), good.end() - 10));  // end of central directory cut

    GameFiles files;
    using Catch::Matchers::Contains;
    CHECK_THAT(decodeErrorOf([&] { files.addArchive((dir / "garbage.pk3").string()); }), Contains("garbage.pk3"));
    CHECK_THAT(decodeErrorOf([&] { files.addArchive((dir / "truncated.pk3").string()); }), Contains("truncated.pk3"));
    CHECK_THAT(decodeErrorOf([&] { files.addArchiveBytes("map.bsp:pakfile", Bytes{'P', 'K', 3, 4, 0, 0}); }),
               Contains("map.bsp:pakfile"));
    CHECK_THROWS_AS(files.addArchive((dir / "missing.pk3").string()), UsageError);
    CHECK_THROWS_AS(files.addDirectory((dir / "missing").string()), UsageError);
    CHECK_THROWS_AS(files.addQuake3GameDir((dir / "missing").string()), UsageError);
    // A game dir with a bad pk3 fails whole and leaves the search path unchanged.
    CHECK_THROWS_AS(files.addQuake3GameDir(dir.string()), DecodeError);
    CHECK(files.mountCount() == 0);

    // A damaged member (stored, so its bytes appear verbatim) fails its CRC when read, naming archive and member.
    Bytes damaged = good;
    const std::string needle = "CORRUPT-ME-PLEASE";
    auto at = std::search(damaged.begin(), damaged.end(), needle.begin(), needle.end());
    REQUIRE(at != damaged.end());
    at[3] = 'X';
    files.addArchiveBytes("damaged.zip", damaged);
    CHECK(text(files.read("a.txt")) == "alpha");
    CHECK_THAT(decodeErrorOf([&] { files.read("b.txt"); }), Contains("damaged.zip:b.txt"));
}

TEST_CASE("game files: damaged archive bytes give DecodeErrors, never a crash", "[game_files]") {
    std::vector<test::ZipMember> members;
    for (int i = 0; i < 6; ++i)
        members.push_back({"dir" + std::to_string(i % 2) + "/f" + std::to_string(i) + ".txt",
                           std::string(size_t(200 + 37 * i), char('a' + i)), i % 2 == 0});
    const Bytes good = makeZip(members);
    std::mt19937 rng(1234);  // fixed: the same damage on every run
    int opened = 0, failed = 0;
    for (int round = 0; round < 300; ++round) {
        Bytes bytes = good;
        const int flips = 1 + int(rng() % 4);
        for (int k = 0; k < flips; ++k) bytes[rng() % bytes.size()] = uint8_t(rng());
        if (round % 10 == 0) bytes.resize(rng() % bytes.size());
        GameFiles files;
        try {
            files.addArchiveBytes("fuzz.zip", bytes);
            ++opened;
            for (const std::string& name : files.list("", "")) {
                try {
                    auto read = files.read(name);
                    CHECK(read.has_value());
                } catch (const DecodeError&) {
                    ++failed;
                }
            }
        } catch (const DecodeError&) {
            ++failed;
        }
    }
    // Both outcomes occur: some damage misses anything checked (file comments, unused header fields).
    CHECK(opened > 0);
    CHECK(failed > 0);
}

TEST_CASE("game files: paths cannot leave a mount; hostile member names are unreachable", "[game_files]") {
    const fs::path dir = tempDir("gamefiles-escape");
    writeFile(dir / "secret.txt", "secret");
    writeFile(dir / "game/textures/ok.tga", "ok");
    writeFile(dir / "outside/shared.txt", "via symlink");
    fs::create_directory_symlink(dir / "outside", dir / "game/linked");
    fs::create_directory_symlink(dir / "game", dir / "game/textures/loop");  // a cycle must not hang mounting

    GameFiles files;
    files.addDirectory((dir / "game").string());
    files.addArchiveBytes("evil.pk3", makeZip({{"../evil.txt", "evil"},
                                                {"a/../../evil2.txt", "evil"},
                                                {"c:/evil3.txt", "evil"},
                                                {"fine.txt", "fine"}}));
    CHECK(text(files.read("textures/ok.tga")) == "ok");
    CHECK(text(files.read("linked/shared.txt")) == "via symlink");  // symlinks are followed
    CHECK_FALSE(files.exists("textures/loop/textures/ok.tga"));  // a link back to an ancestor is not entered
    CHECK_FALSE(files.read("../secret.txt"));
    CHECK_FALSE(files.read("textures/../../secret.txt"));
    CHECK_FALSE(files.read((dir / "secret.txt").string()));  // an absolute path is a path inside the mounts
    CHECK_FALSE(files.exists("/etc/passwd"));
    CHECK_FALSE(files.read("../evil.txt"));
    CHECK_FALSE(files.read("evil.txt"));
    CHECK_FALSE(files.read("evil2.txt"));
    CHECK_FALSE(files.read("c:/evil3.txt"));
    CHECK_FALSE(files.read("evil3.txt"));
    CHECK(text(files.read("fine.txt")) == "fine");
    for (const std::string& name : files.list("", ""))
        CHECK(name.find("evil") == std::string::npos);
}

TEST_CASE("game files: concurrent reads of one archive all get their own bytes", "[game_files]") {
    std::vector<test::ZipMember> members;
    for (int i = 0; i < 64; ++i)
        members.push_back(
            {"textures/t" + std::to_string(i) + ".tga", std::string(size_t(1000 + i), char('a' + i % 26))});
    GameFiles files;
    files.addArchiveBytes("many.pk3", makeZip(members));
    std::atomic<int> good{0};
    tbb::parallel_for(0, 64 * 8, [&](int k) {
        const test::ZipMember& m = members[size_t(k % 64)];
        auto bytes = files.read(m.name);
        if (bytes && std::string(bytes->begin(), bytes->end()) == m.content) ++good;
    });
    CHECK(good == 64 * 8);
}

TEST_CASE("OpenArena's game dir: shaders and textures resolve with the engine's precedence", "[game_files][maps]") {
    if (!fs::exists(std::string(kOpenArena) + "/pak0.pk3")) {
        WARN("SKIPPED: openarena-data is not installed (" << kOpenArena << ")");
        return;
    }
    GameFiles files;
    files.addQuake3GameDir(kOpenArena);
    // Sizes from `unzip -l`: scripts/common.shader is 5662 bytes in pak0.pk3 and in no other pk3;
    // textures/base_wall/basewall01.jpg 116808 bytes in pak4-textures.pk3.
    REQUIRE(files.exists("scripts/common.shader"));
    CHECK(files.describe("scripts/common.shader") == std::string(kOpenArena) + "/pak0.pk3:scripts/common.shader");
    auto shader = files.read("Scripts/Common.shader");
    REQUIRE(shader);
    CHECK(shader->size() == 5662);
    CHECK(text(shader).find("textures/common/") != std::string::npos);
    auto wall = files.read("textures/base_wall/basewall01.jpg");
    REQUIRE(wall);
    CHECK(wall->size() == 116808);
    CHECK(((*wall)[0] == 0xFF && (*wall)[1] == 0xD8));  // JPEG start-of-image marker
    // gfx/2d/bigchars.tga is 262683 bytes in pak0.pk3 and 262188 in pak6-patch088.pk3, which sorts later and wins.
    auto chars = files.read("gfx/2d/bigchars.tga");
    REQUIRE(chars);
    CHECK(chars->size() == 262188);
    CHECK(files.describe("gfx/2d/bigchars.tga")->ends_with("pak6-patch088.pk3:gfx/2d/bigchars.tga"));

    const auto shaders = files.list("scripts", ".shader", false);
    CHECK(std::find(shaders.begin(), shaders.end(), "scripts/common.shader") != shaders.end());
    CHECK(std::is_sorted(shaders.begin(), shaders.end()));
    CHECK(std::adjacent_find(shaders.begin(), shaders.end()) == shaders.end());
    for (const std::string& s : shaders) CHECK(files.exists(s));
}

TEST_CASE("Source maps' pakfile lumps mount as in-memory archives", "[game_files][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    // Member names and sizes from python's zipfile over the lump 40 bytes (offset and length unpacked by hand,
    // in the L4D2 order for the L4D2 map); the TF2 maps hold an empty 54-byte zip.
    const std::map<std::string, size_t> memberCounts = {
        {"bspsrc_l4d2_tooltextures_v21.bsp", 2}, {"bsptool_tf2_mp_lobby.bsp", 0},
        {"bsptool_tf2_test2.bsp", 0}, {"bsputils_gmod_map_v20.bsp", 4},
        {"lanofdoom_$2000$_csgo_v21.bsp", 10}, {"momentum-website_e2e_map_v25_lzma.bsp", 2},
        {"sdk2013_sdk_vehicles_v19.bsp", 1}, {"sdk2013ce_sdk_vehicles_v20.bsp", 3},
        {"sdk2013pr_ss_hl2_level_1_v20.bsp", 2}};
    const std::string name = "sdk2013ce_sdk_vehicles_v20.bsp";
    size_t mounted = 0;
    for (const std::string& path : sharedMapFiles("source")) {
        INFO(path);
        const Bytes bytes = readFile(path);
        const ByteReader file(bytes, path);
        REQUIRE(file.size() >= vbsp::kHeaderBytes);
        const auto entry = vbsp::readLumpDirectory(file).entries[vbsp::kPakfile];
        REQUIRE(uint64_t(entry.offset) + entry.length <= bytes.size());
        GameFiles files;
        files.addArchiveBytes(path + ":pakfile",
                              Bytes(bytes.begin() + entry.offset, bytes.begin() + entry.offset + entry.length));
        const auto expected = memberCounts.find(fs::path(path).filename().string());
        REQUIRE(expected != memberCounts.end());
        CHECK(files.list("", "").size() == expected->second);
        ++mounted;
        if (!path.ends_with(name)) continue;
        const auto materials = files.list("materials", "");
        CHECK(materials == std::vector<std::string>{
                               "materials/maps/sdk_vehicles/cubemapdefault.hdr.vtf",
                               "materials/maps/sdk_vehicles/cubemapdefault.vtf",
                               "materials/maps/sdk_vehicles/nature/blendsandgrass008a_wvt_patch.vmt"});
        const auto vmt = files.read("materials/maps/sdk_vehicles/nature/blendsandgrass008a_wvt_patch.vmt");
        REQUIRE(vmt);
        CHECK(vmt->size() == 409);
        CHECK(text(vmt).starts_with("\"LightmappedGeneric\""));  // vbsp writes patched materials out whole
        auto vtf = files.read("materials/maps/sdk_vehicles/cubemapdefault.vtf");
        REQUIRE(vtf);
        CHECK(vtf->size() == 9832);
        CHECK(std::string(vtf->begin(), vtf->begin() + 4) == std::string("VTF\0", 4));
    }
    CHECK(mounted == memberCounts.size());
}
