// Source game folders mounted as the engine mounts them: gameinfo.txt search paths (hand-built folders and
// plumber_core's test install), the fallback without one, and a real map whose materials come from loose
// files, from VPKs the test writer packs (byte-identical frames) and from a damaged VPK.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <functional>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "luxel/bsp/decode.hpp"
#include "luxel/io/source_game.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/render/camera.hpp"
#include "luxel/render/render.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"
#include "support/test_paths.hpp"
#include "support/vpk_writer.hpp"
#include "support/zip_writer.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;

namespace {


std::string gameinfo(const std::string& searchPaths) {
    return "\"GameInfo\"\n{\n\tgame \"Test\"\n\tFileSystem\n\t{\n\t\tSteamAppId 1\n\t\tSearchPaths\n\t\t{\n" + searchPaths +
           "\t\t}\n\t}\n}\n";
}

// The search path as "kind:path below root" lines, for comparing with a hand-derived order.
std::vector<std::string> relativePaths(const std::vector<SourceSearchPath>& paths, const fs::path& root) {
    std::vector<std::string> out;
    const fs::path base = fs::absolute(root).lexically_normal();
    for (const SourceSearchPath& p : paths)
        out.push_back(std::string(p.vpk ? "vpk:" : "dir:") + fs::path(p.path).lexically_relative(base).generic_string());
    return out;
}

std::string contentOf(const GameFiles& files, const std::string& path) {
    const auto f = files.open(path);
    REQUIRE(f);
    return std::string(f->bytes.begin(), f->bytes.end());
}

// Every file under dir (paths relative to it, '/'-separated), as VpkFiles placed by `place`.
std::vector<VpkFile> packTree(const fs::path& dir, const std::function<void(VpkFile&, size_t)>& place) {
    std::vector<VpkFile> files;
    std::vector<fs::path> paths;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file()) paths.push_back(e.path());
    std::sort(paths.begin(), paths.end());
    for (const fs::path& p : paths) {
        std::ifstream in(p, std::ios::binary);
        std::stringstream content;
        content << in.rdbuf();
        VpkFile f{toLowerAscii(p.lexically_relative(dir).generic_string()), content.str()};
        place(f, files.size());
        files.push_back(std::move(f));
    }
    return files;
}

}  // namespace

TEST_CASE("gameinfo.txt search paths in the engine's order", "[source_game]") {
    const fs::path root = tempDir("gameinfo-order");
    const fs::path mod = root / "mymod";
    writeTextFile(mod / "gameinfo.txt", gameinfo(R"(
            game+mod            mymod/custom/*
            mod+game            |gameinfo_path|mymod_pak.vpk
            game                |gameinfo_path|.
            mod                 |gameinfo_path|onlymod
            platform            |all_source_engine_paths|platform
            game                |all_source_engine_paths|hl2/hl2_textures.vpk
            game                |all_source_engine_paths|hl2
            game+game_write     |gameinfo_path|.
            game                |appid_220|hl2
            gamebin             |gameinfo_path|bin
            game                |gameinfo_path|missing_folder
            // a comment
)"));
    const VpkBuild one = makeVpk({{"materials/x.vmt", "from custom b"}}, 2);
    writeVpk(mod / "custom", "b", one);
    writeFile(mod / "custom" / "b_000.vpk", {});  // numbered archives are not mounted on their own
    writeVpk(mod / "custom", "A", makeVpk({{"materials/y.vmt", "from custom A"}}, 1));
    fs::create_directories(mod / "custom" / "zdir");
    fs::create_directories(mod / "custom" / ".hidden");
    writeTextFile(mod / "custom" / "notes.txt", "not a search path");
    writeVpk(mod, "mymod_pak", makeVpk({{"materials/x.vmt", "from mymod_pak"}}, 2));
    writeTextFile(mod / "materials" / "x.vmt", "loose in mymod");
    fs::create_directories(mod / "onlymod");
    fs::create_directories(root / "platform");
    writeVpk(root / "hl2", "hl2_textures", makeVpk({{"materials/z.vmt", "from hl2"}}, 2));
    writeVpk(root / "hl2", "pak01", makeVpk({{"materials/z.vmt", "from hl2 pak01"}}, 2));
    writeVpk(root / "hl2", "pak02", makeVpk({{"materials/w.vmt", "from hl2 pak02"}}, 2));
    writeVpk(root / "hl2", "pak04", makeVpk({{"materials/w.vmt", "from hl2 pak04"}}, 2));  // after a gap: not mounted

    std::vector<std::string> warnings;
    const std::vector<SourceSearchPath> paths = sourceSearchPaths((mod / "." / "").string(), warnings);
    // Hand-derived: wildcard matches sorted case-insensitively with b_000.vpk left to b_dir.vpk, NAME.vpk
    // as NAME_dir.vpk, only "game" path IDs, the repeated and missing folders and the Steam path left out,
    // hl2's pak01 and pak02 (not pak04, after the missing pak03) just before hl2.
    const std::vector<std::string> expected = {
        "vpk:mymod/custom/A_dir.vpk", "vpk:mymod/custom/b_dir.vpk", "dir:mymod/custom/zdir",
        "vpk:mymod/mymod_pak_dir.vpk", "dir:mymod",                   "vpk:hl2/hl2_textures_dir.vpk",
        "vpk:hl2/pak01_dir.vpk",       "vpk:hl2/pak02_dir.vpk",       "dir:hl2"};
    CHECK(relativePaths(paths, root) == expected);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].find("|appid_220|hl2") != std::string::npos);

    const GameFiles files = mountSourceGame("", {}, {mod.string()}, false, warnings);
    CHECK(files.mountCount() == expected.size());
    CHECK(contentOf(files, "materials/x.vmt") == "from custom b");
    CHECK(contentOf(files, "Materials\\Y.VMT") == "from custom A");
    CHECK(contentOf(files, "materials/z.vmt") == "from hl2");
    CHECK(contentOf(files, "materials/w.vmt") == "from hl2 pak02");
    const auto origin = files.origin("materials/x.vmt");
    REQUIRE(origin);
    CHECK(origin->kind == FileOrigin::Kind::Vpk);
    CHECK(fs::path(origin->mount).filename() == "b_dir.vpk");
    CHECK(origin->member == "materials/x.vmt");
}

TEST_CASE("a Source game folder without gameinfo.txt: loose files, then its *_dir.vpk", "[source_game]") {
    const fs::path dir = tempDir("gamedir-no-gameinfo");
    writeTextFile(dir / "materials" / "a.vmt", "loose a");
    writeVpk(dir, "pak02", makeVpk({{"materials/a.vmt", "pak02 a"}, {"materials/b.vmt", "pak02 b"}, {"materials/c.vmt", "pak02 c"}}, 2));
    writeVpk(dir, "Pak01", makeVpk({{"materials/b.vmt", "pak01 b", 0}}, 1));
    std::vector<std::string> warnings;
    CHECK(relativePaths(sourceSearchPaths(dir.string(), warnings), dir) ==
          std::vector<std::string>{"dir:.", "vpk:Pak01_dir.vpk", "vpk:pak02_dir.vpk"});
    const GameFiles files = mountSourceGame("", {}, {dir.string()}, false, warnings);
    CHECK(contentOf(files, "materials/a.vmt") == "loose a");
    CHECK(contentOf(files, "materials/b.vmt") == "pak01 b");
    CHECK(contentOf(files, "materials/c.vmt") == "pak02 c");
    CHECK(files.origin("materials/a.vmt")->kind == FileOrigin::Kind::Loose);
    CHECK(files.origin("materials/a.vmt")->member == "materials/a.vmt");
    CHECK(files.list("MATERIALS", "vmt") == std::vector<std::string>{"materials/a.vmt", "materials/b.vmt", "materials/c.vmt"});
    CHECK(warnings.empty());

    // A VPK that cannot be opened is left out with a warning, or stops a strict mount.
    writeTextFile(dir / "broken_dir.vpk", "not a vpk");
    std::vector<std::string> more;
    const GameFiles partial = mountSourceGame("", {}, {dir.string()}, false, more);
    CHECK(partial.mountCount() == 3);
    REQUIRE(more.size() == 1);
    CHECK(more[0].find("broken_dir.vpk") != std::string::npos);
    CHECK_THROWS_AS(mountSourceGame("", {}, {dir.string()}, true, more), DecodeError);
}

TEST_CASE("the map's pakfile comes before the game folder's search path", "[source_game]") {
    const fs::path dir = tempDir("gamedir-pakfile");
    writeTextFile(dir / "gameinfo.txt", gameinfo("\t\t\tgame |gameinfo_path|.\n"));
    writeVpk(dir, "extra", makeVpk({{"materials/a.vmt", "vpk a"}, {"materials/b.vmt", "vpk b"}}, 2));
    writeTextFile(dir / "materials" / "b.vmt", "loose b");
    std::vector<std::string> warnings;
    const GameFiles files = mountSourceGame("map.bsp:pakfile", makeZip({{"materials/A.vmt", "pakfile a"}}), {dir.string()}, false, warnings);
    CHECK(contentOf(files, "materials/a.vmt") == "pakfile a");
    CHECK(files.open("materials/a.vmt")->origin.kind == FileOrigin::Kind::Pakfile);
    CHECK(files.open("materials/a.vmt")->origin.mount == "map.bsp:pakfile");
    CHECK(files.open("materials/a.vmt")->origin.member == "materials/A.vmt");
    // gameinfo.txt names only the folder: its VPKs (but pakNN_dir.vpk) are not searched unless listed.
    CHECK(contentOf(files, "materials/b.vmt") == "loose b");
    CHECK(files.mountCount() == 2);
}

TEST_CASE("malformed gameinfo.txt is a DecodeError naming it", "[source_game]") {
    const fs::path dir = tempDir("gameinfo-bad");
    std::vector<std::string> warnings;
    writeTextFile(dir / "GameInfo.txt", "\"GameInfo\" { FileSystem { SearchPaths { game ");
    CHECK_THROWS_AS(sourceSearchPaths(dir.string(), warnings), DecodeError);
    writeTextFile(dir / "GameInfo.txt", "\"GameInfo\" { game \"x\" }");
    try {
        sourceSearchPaths(dir.string(), warnings);
        FAIL("no DecodeError");
    } catch (const DecodeError& e) {
        CHECK(e.file().ends_with("GameInfo.txt"));
        CHECK(e.detail().find("SearchPaths") != std::string::npos);
    }
    CHECK_THROWS_AS(sourceSearchPaths((dir / "nowhere").string(), warnings), UsageError);
}

TEST_CASE("plumber_core's test install: gameinfo.txt search order", "[source_game][maps]") {
    LUXEL_REQUIRE_SOURCE_CONTENT();
    const fs::path root = fs::path(*sharedSourceContent()) / "plumber_core" / "fs_test_filesystem";
    std::vector<std::string> warnings;
    // From the README: game/custom/* matches nothing, |gameinfo_path|. is game/, |all_source_engine_paths|test
    // is test/ beside it, and the platform line is not a game path.
    CHECK(relativePaths(sourceSearchPaths((root / "game").string(), warnings), root) ==
          std::vector<std::string>{"dir:game", "dir:test"});
    CHECK(warnings.empty());
    const GameFiles files = mountSourceGame("", {}, {(root / "game").string()}, false, warnings);
    const auto table = files.origin("materials/props/de_test/table.vmt");
    const auto decal = files.origin("materials/decals/grid.vmt");
    REQUIRE(table);
    REQUIRE(decal);
    CHECK(fs::path(table->mount).filename() == "game");
    CHECK(fs::path(decal->mount).filename() == "test");
    CHECK(files.exists("models/props/de_test/table.mdl"));
}

namespace {

struct Frame {
    Image image;
    MaterialSet materials;
};

Frame renderBackground(const std::vector<std::string>& gameDirs, bool strict = false) {
    const fs::path bsp = fs::path(*sharedSourceContent()) / "momentum_background_01" / "maps" / "background_01.bsp";
    const MapSource source = openMapPath(bsp.string());
    const World world = decodeMap(source);
    const Geometry geometry = tessellate(world);
    MaterialOptions mo;
    mo.gameDirs = gameDirs;
    mo.strict = strict;
    Frame f{{}, loadMaterials(world, source, mo)};
    RenderOptions o;
    o.mode = RenderMode::Lit;
    o.materials = &f.materials;
    f.image = renderFrame(world, geometry, cameraFromSpec(world, "overview", 160, 90), o);
    return f;
}

}  // namespace

TEST_CASE("a Source map renders byte-identically from loose files and from VPKs", "[source_game][maps]") {
    LUXEL_REQUIRE_SOURCE_CONTENT();
    const fs::path content = fs::path(*sharedSourceContent()) / "momentum_background_01";
    const Frame loose = renderBackground({content.string()});
    // The README's world materials: white1, w1_grass and their blend, drawn with White1.vtf and w1_grass.vtf;
    // only Valve's tools/ materials are missing.
    CHECK(loose.materials.textures.size() == 2);
    for (const std::string& origin : loose.materials.origins) CHECK((origin.starts_with("loose ") || origin == "missing"));

    // v1 through the fallback (no gameinfo.txt): every third file split between preload bytes and archive 3,
    // the others in archives 0 and 5 or in the directory file.
    const fs::path v1 = tempDir("vpk-render-v1");
    writeVpk(v1, "pak01", makeVpk(packTree(content / "materials", [](VpkFile& f, size_t i) {
                                      f.path = "materials/" + f.path;
                                      const uint16_t archives[4] = {0, 3, 5, 0x7fff};
                                      f.archive = archives[i % 4];
                                      if (i % 3 == 0) f.preload = std::min<size_t>(f.content.size(), 100);
                                  }), 1));
    // v2 through a gameinfo.txt naming it as engines do ("pak01.vpk").
    const fs::path v2 = tempDir("vpk-render-v2");
    writeTextFile(v2 / "game" / "gameinfo.txt", gameinfo("\t\t\tgame |gameinfo_path|pak01.vpk\n"));
    writeVpk(v2 / "game", "pak01", makeVpk(packTree(content / "materials", [](VpkFile& f, size_t i) {
                                               f.path = "materials/" + f.path;
                                               f.archive = i % 2 ? 0 : 0x7fff;
                                           }), 2));
    for (const fs::path& dir : {v1, v2 / "game"}) {
        INFO(dir);
        const Frame packed = renderBackground({dir.string()});
        CHECK(packed.materials.missing == loose.materials.missing);
        CHECK(packed.materials.textures.size() == loose.materials.textures.size());
        CHECK(packed.materials.warnings == loose.materials.warnings);
        size_t fromVpk = 0;
        for (size_t i = 0; i < packed.materials.origins.size(); ++i) {
            CHECK((packed.materials.origins[i] == "missing") == (loose.materials.origins[i] == "missing"));
            fromVpk += packed.materials.origins[i].starts_with("vpk ");
        }
        CHECK(fromVpk >= 3);
        REQUIRE(packed.image.pixels.size() == loose.image.pixels.size());
        CHECK(std::memcmp(packed.image.pixels.data(), loose.image.pixels.data(), loose.image.pixels.size() * sizeof(float)) == 0);
    }
}

TEST_CASE("a damaged VPK: a material warning naming the entry, an error under strict", "[source_game][maps]") {
    LUXEL_REQUIRE_SOURCE_CONTENT();
    const fs::path content = fs::path(*sharedSourceContent()) / "momentum_background_01";
    const VpkBuild damaged = makeVpk(packTree(content / "materials", [](VpkFile& f, size_t) {
                                         f.path = "materials/" + f.path;
                                         f.archive = 0;
                                         if (f.path.ends_with("white1.vtf")) f.crc = 0;
                                     }), 2);
    // Two folders: the process-wide texture cache would serve the second load without reading the file.
    const fs::path lenientDir = tempDir("vpk-render-crc"), strictDir = tempDir("vpk-render-crc-strict");
    writeVpk(lenientDir, "pak01", damaged);
    writeVpk(strictDir, "pak01", damaged);
    const Frame lenient = renderBackground({lenientDir.string()});
    bool named = false;
    for (const std::string& w : lenient.materials.warnings) named = named || w.find("white1.vtf: CRC32") != std::string::npos;
    CHECK(named);
    CHECK_THROWS_AS(renderBackground({strictDir.string()}, true), UsageError);
    // `luxel render` says so too (its own process: nothing cached), and still draws.
    const fs::path png = lenientDir / "x.png";
    const CommandResult r = runLuxel("render --size 64x36 --camera spawn --game-dir '" + lenientDir.string() + "' '" +
                                     (content / "maps" / "background_01.bsp").string() + "' -o '" + png.string() + "'");
    INFO(r.err);
    CHECK(r.exitCode == 0);
    CHECK(r.err.find("luxel: warning: ") != std::string::npos);
    CHECK(r.err.find("white1.vtf: CRC32") != std::string::npos);
    CHECK(fs::exists(png));
}

TEST_CASE("luxel info --materials says where each Source material was found", "[source_game][maps][cli]") {
    LUXEL_REQUIRE_SOURCE_CONTENT();
    const fs::path content = fs::path(*sharedSourceContent()) / "momentum_background_01";
    const fs::path dir = tempDir("vpk-info-cli");
    // The grass material loose beside the VPK (loose files come first), everything else packed.
    writeVpk(dir, "pak01", makeVpk(packTree(content / "materials", [](VpkFile& f, size_t) { f.path = "materials/" + f.path; }), 2));
    fs::copy_file(content / "materials" / "momentum" / "World 1" / "w1_grass.vmt", dir / "w1_grass.vmt");
    fs::create_directories(dir / "materials" / "momentum" / "world 1");
    fs::rename(dir / "w1_grass.vmt", dir / "materials" / "momentum" / "world 1" / "w1_grass.vmt");
    const CommandResult r =
        runLuxel("info --materials --game-dir '" + dir.string() + "' '" + (content / "maps" / "background_01.bsp").string() + "'");
    INFO(r.out << r.err);
    REQUIRE(r.exitCode == 0);
    CHECK(r.out.find("found: vpk " + (dir / "pak01_dir.vpk").string() + "\n") != std::string::npos);
    CHECK(r.out.find("found: loose " + fs::absolute(dir).lexically_normal().string() + "\n") != std::string::npos);
    CHECK(r.out.find("found: missing\n") != std::string::npos);  // Valve's tools/ materials are not shipped
}
