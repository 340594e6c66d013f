// `luxel list` (src/cli/list.cpp), `luxel --version`, and one batch over real maps of all three formats.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>

#include "support/batch_fixtures.hpp"
#include "support/pak_writer.hpp"
#include "support/q3_writer.hpp"
#include "support/test_paths.hpp"
#include "support/zip_writer.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
const std::string kView = kBatchView;
}  // namespace

TEST_CASE("luxel list prints the maps an archive or folder holds", "[batch][cli]") {
    const std::string d = tempDir("list");
    writeTextFile(d + "/pak.pk3", toString(makeZip({{"maps/b.bsp", "b"}, {"maps/a.bsp", "a"}, {"maps/x/c.bsp", "c"},
                                                 {"textures/t.tga", "t"}})));
    auto r = runLuxel("list " + q(d + "/pak.pk3"));
    INFO(r.err);
    CHECK(r.exitCode == 0);
    CHECK(r.out == "a\t" + d + "/pak.pk3:maps/a.bsp\nb\t" + d + "/pak.pk3:maps/b.bsp\n");

    writeTextFile(d + "/folder/top.bsp", "x");
    writeTextFile(d + "/folder/deep/er/low.bsp", "x");
    writeTextFile(d + "/folder/deep/junk.pk3", "not a zip");
    r = runLuxel("list --json " + q(d + "/folder"));
    INFO(r.err);
    CHECK(r.exitCode == 0);
    const json j = json::parse(r.out);
    REQUIRE(j.size() == 3);
    CHECK(j[0]["name"] == "junk");
    CHECK(j[0].contains("error"));
    CHECK(j[1]["name"] == "low");
    CHECK(j[1]["source"] == d + "/folder/deep/er/low.bsp");
    CHECK_FALSE(j[1].contains("error"));
    CHECK(j[2]["name"] == "top");

    r = runLuxel("list " + q(d + "/none.pk3"));
    CHECK(r.exitCode == 2);
    CHECK(r.err.find("none.pk3") != std::string::npos);
}

TEST_CASE("luxel list prints the maps a Quake .pak or a game folder of paks holds", "[batch][cli]") {
    const std::string d = tempDir("list-pak");
    writeFile(d + "/baseq2/pak0.pak", makePak({{"maps/b.bsp", "b"}, {"maps/a.bsp", "a"}, {"pics/x.pcx", "x"}}));
    writeFile(d + "/baseq2/pak1.pak", makePak({{"maps/a.bsp", "a, newer"}}));
    auto r = runLuxel("list " + q(d + "/baseq2/pak0.pak"));
    INFO(r.err);
    CHECK(r.exitCode == 0);
    CHECK(r.out == "a\t" + d + "/baseq2/pak0.pak:maps/a.bsp\nb\t" + d + "/baseq2/pak0.pak:maps/b.bsp\n");
    r = runLuxel("list " + q(d + "/baseq2"));
    CHECK(r.exitCode == 0);
    CHECK(r.out == "a\t" + d + "/baseq2/pak1.pak:maps/a.bsp\nb\t" + d + "/baseq2/pak0.pak:maps/b.bsp\n");
    writeFile(d + "/bad.pak", bytesOf("PACK"));
    r = runLuxel("list " + q(d + "/bad.pak"));
    CHECK(r.exitCode == 2);
    CHECK(lineCount(r.err) == 1);
    CHECK_THAT(r.err, Catch::Contains(d + "/bad.pak: lump pak header at byte 0: a file of 4 bytes is shorter than the 12-byte PACK header"));
}

TEST_CASE("luxel --version prints its name and version", "[batch][cli]") {
    const auto r = runLuxel("--version");
    CHECK(r.exitCode == 0);
    CHECK(r.out.rfind("luxel ", 0) == 0);
    CHECK(r.out.size() > 6);
}

TEST_CASE("batch: real Quake 3, Quake 2 and Source maps in one batch", "[batch][cli][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const std::string root = *sharedMaps();
    const std::vector<std::string> files = {root + "/q3/bsptool_q3_mp_lobby.bsp", root + "/q2/bsptool_q2_mp_lobby.bsp",
                                            root + "/source/bsptool_tf2_mp_lobby.bsp"};
    const std::string d = tempDir("batch-real");
    std::string args;
    for (const std::string& f : files) args += q(f) + " ";
    auto r = runLuxel("batch " + args + "-o " + q(d + "/out") + kView);
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    const json m = readJson(d + "/out/manifest.json");
    REQUIRE(m["maps"].size() == 3);
    std::set<std::string> formats;
    for (const json& e : m["maps"]) {
        INFO(e.dump());
        CHECK(e["status"] == "ok");
        // The version the manifest reports is the one in the file's header (bytes 4..7, little-endian).
        const std::string bytes = readFileText(e["source"].get<std::string>());
        REQUIRE(bytes.size() > 8);
        int32_t version = 0;
        std::memcpy(&version, bytes.data() + 4, 4);
        const std::string format = e["format"];
        CHECK(format.size() >= std::to_string(version).size());
        CHECK(format.substr(format.size() - std::to_string(version).size()) == std::to_string(version));
        const std::string src = e["source"];
        const char* expected = src.find("/q3/") != std::string::npos   ? "Quake 3"
                               : src.find("/q2/") != std::string::npos ? "Quake 2"
                                                                       : "Source";
        CHECK(format.rfind(expected, 0) == 0);
        formats.insert(format);
        for (const json& v : e["views"]) CHECK(imageSize(d + "/out/" + v["output"].get<std::string>()) == std::make_pair(64, 36));
    }
    CHECK(formats.size() == 3);
    CHECK(m["work_list"]["maps"] == 3);
}

TEST_CASE("luxel list: an OpenArena archive", "[batch][cli]") {
    const std::string pak = "/usr/share/games/openarena/baseoa/pak6-patch088.pk3";
    if (!fs::exists(pak)) {
        WARN("SKIPPED: the Debian OpenArena install is absent (" << pak << ")");
        return;
    }
    auto r = runLuxel("list " + q(pak));
    INFO(r.err);
    CHECK(r.exitCode == 0);
    CHECK(r.out.find("am_thornish\t" + pak + ":maps/am_thornish.bsp") != std::string::npos);
}
