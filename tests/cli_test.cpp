// End-to-end checks of the `luxel` command: exit codes, one-line errors, outputs that exist and parse.
#include <OpenImageIO/imageio.h>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>

#include <algorithm>
#include <filesystem>

#include "luxel/image/image.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;

namespace {

const char* kOpenArena = "/usr/share/games/openarena/baseoa";

}  // namespace

TEST_CASE("missing and non-map files give one error line and exit code 2", "[cli]") {
    auto dir = tempDir("cli-bad");
    auto r = runLuxel("info '" + dir + "/nothing.bsp'");
    CHECK(r.exitCode == 2);
    CHECK(lineCount(r.err) == 1);
    CHECK(r.err.find("nothing.bsp") != std::string::npos);

    writeTextFile(dir + "/text.bsp", "this is not a map at all, just text\n");
    r = runLuxel("render '" + dir + "/text.bsp' -o '" + dir + "/x.png'");
    CHECK(r.exitCode == 2);
    CHECK(lineCount(r.err) == 1);
    CHECK(r.err.find("text.bsp") != std::string::npos);
    CHECK_FALSE(fs::exists(dir + "/x.png"));

    r = runLuxel("render --size 0x10 '" + dir + "/text.bsp' -o '" + dir + "/x.png'");
    CHECK(r.exitCode == 2);
}

TEST_CASE("usage mistakes give one error line naming the mistake; help and version exit 0", "[cli]") {
    auto r = runLuxel("frobnicate");
    CHECK(r.exitCode == 2);
    CHECK(lineCount(r.err) == 1);
    CHECK(r.err.rfind("luxel: error: 'frobnicate' is not a command", 0) == 0);
    CHECK(r.err.find("render") != std::string::npos);  // the commands are listed
    r = runLuxel("");
    CHECK(r.exitCode == 2);
    CHECK(lineCount(r.err) == 1);
    CHECK(r.err.find("no command given") != std::string::npos);
    r = runLuxel("render --bogus x.bsp -o x.png");
    CHECK(r.exitCode == 2);
    CHECK(lineCount(r.err) == 1);
    CHECK(r.err.find("--bogus") != std::string::npos);
    CHECK(r.err.find("luxel render --help") != std::string::npos);
    for (const char* ok : {"--help", "--version", "render --help"}) {
        r = runLuxel(ok);
        INFO(ok);
        CHECK(r.exitCode == 0);
        CHECK(r.err.empty());
    }
}

TEST_CASE("truncated and corrupted real maps fail cleanly with file, lump and offset", "[cli][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    auto dir = tempDir("cli-trunc");
    std::string original = readFileText(*sharedMaps() + "/q3/oa088_aggressor.bsp");
    REQUIRE(original.size() > 100000);
    // Cut points inside the header, the lump directory and deep inside lumps.
    for (size_t cut : {size_t(3), size_t(8), size_t(50), size_t(143), size_t(5000), original.size() / 3,
                       original.size() - 1}) {
        std::string path = dir + "/cut" + std::to_string(cut) + ".bsp";
        writeTextFile(path, original.substr(0, cut));
        auto r = runLuxel("info '" + path + "'");
        INFO("cut at " << cut << ": " << r.err);
        CHECK(r.exitCode == 2);
        CHECK(lineCount(r.err) == 1);
        CHECK(r.err.find(path) != std::string::npos);
        CHECK(r.err.find("byte") != std::string::npos);
    }
    // A lump directory entry pointing far past the end of the file.
    std::string corrupt = original;
    corrupt[8 + 13 * 8 + 7] = char(0x7f);  // faces lump length, high byte
    writeTextFile(dir + "/corrupt.bsp", corrupt);
    auto r = runLuxel("render '" + dir + "/corrupt.bsp' -o '" + dir + "/c.png'");
    INFO(r.err);
    CHECK(r.exitCode == 2);
    CHECK(lineCount(r.err) == 1);
    CHECK(r.err.find("lump") != std::string::npos);
    CHECK_FALSE(fs::exists(dir + "/c.png"));
}

TEST_CASE("info --json describes a real map", "[cli][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    auto r = runLuxel("info --json '" + *sharedMaps() + "/q3/oa088_am_thornish.bsp'");
    REQUIRE(r.exitCode == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["format"] == "Quake 3 IBSP");
    CHECK(j["version"] == 46);
    CHECK(j["lumps"].size() == 17);
    // Facts from ../shared/maps/README.md.
    CHECK(j["surfaces"]["by_type"]["patch"] == 520);
    CHECK(j["surfaces"]["by_type"]["mesh"] == 226);
    CHECK(j["surfaces"]["by_type"]["billboard"] == 135);
    CHECK(j["lightmaps"]["pages"] == 8);
    // Grid points counted, not decoded: 8 bytes a point in the lightvols lump (Quake 3's layout).
    CHECK(j["light_grid"]["samples"] == j["lumps"][15]["length"].get<int>() / 8);
    const auto& dims = j["light_grid"]["dims"];
    CHECK(j["light_grid"]["samples"] == dims[0].get<int>() * dims[1].get<int>() * dims[2].get<int>());

    // --threads before the command word: the word is found past the option's value, and the same map is described.
    r = runLuxel("--threads 1 info --json '" + *sharedMaps() + "/q3/oa088_am_thornish.bsp'");
    REQUIRE(r.exitCode == 0);
    CHECK(nlohmann::json::parse(r.out) == j);
}

TEST_CASE("render writes images by extension; bench prints its JSON figures", "[cli][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    auto dir = tempDir("cli-render");
    std::string map = *sharedMaps() + "/q3/bsptool_q3_mp_lobby.bsp";
    for (const char* ext : {".png", ".jpg", ".exr", ".tif"}) {
        std::string out = dir + "/lobby" + ext;
        auto r = runLuxel("render '" + map + "' --size 160x90 -o '" + out + "'");
        INFO(ext << ": " << r.err);
        REQUIRE(r.exitCode == 0);
        Image img = readImage(out);
        CHECK(img.width == 160);
        CHECK(img.height == 90);
    }
    auto r = runLuxel("bench '" + map + "' --size 160x90 --frames 3 --json --threads 2");
    REQUIRE(r.exitCode == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["load_ms"].get<double>() > 0);
    CHECK(j["frame_ms_median"].get<double>() > 0);
    CHECK(j["threads"] == 2);
    CHECK(j["encode_png_bytes"].get<size_t>() > 0);
    // Without the encoding figures, and a shading floor (which is never encoded).
    for (const char* args : {"--no-encode", "--shading-floor flat", "--shading-floor skip"}) {
        r = runLuxel("bench '" + map + "' --size 160x90 --frames 2 --json " + args);
        INFO(args << ": " << r.err);
        REQUIRE(r.exitCode == 0);
        j = nlohmann::json::parse(r.out);
        CHECK(j["frame_ms_median"].get<double>() > 0);
        CHECK_FALSE(j.contains("encode_png_ms_median"));
    }
    CHECK(j["shading_floor"] == "skip");
    CHECK(runLuxel("bench '" + map + "' --size 160x90 --frames 1 --shading-floor none").exitCode == 2);

    r = runLuxel("lightmaps '" + map + "' -o '" + dir + "/lm'");
    REQUIRE(r.exitCode == 0);
    CHECK(fs::exists(dir + "/lm/lm_0000.png"));
    CHECK(fs::exists(dir + "/lm/lm_0001.png"));  // the README says this map has 2 lightmaps
}

TEST_CASE("TIFF and EXR output carries a fixed time stamp: same input, same bytes", "[cli][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const auto dir = tempDir("cli-datetime");
    const std::string map = *sharedMaps() + "/q3/bsptool_q3_mp_lobby.bsp";
    auto stamp = [&](const std::string& ext) {
        const std::string out = dir + "/lobby" + ext;
        const auto r = runLuxel("render '" + map + "' --size 32x18 -o '" + out + "'");
        REQUIRE(r.exitCode == 0);
        auto in = OIIO::ImageInput::open(out);
        REQUIRE(in);
        return in->spec().get_string_attribute("DateTime");
    };
    CHECK(stamp(".tif") == "1970:01:01 00:00:00");
    CHECK(stamp(".exr") == "1970:01:01 00:00:00");
    // The reproducible-builds convention: 1700000000 s after the epoch is 2023-11-14 22:13:20 UTC.
    ::setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
    const std::string chosen = stamp(".tif");
    ::unsetenv("SOURCE_DATE_EPOCH");
    CHECK(chosen == "2023:11:14 22:13:20");
}

TEST_CASE("maps open from pk3 archives and by name in a game directory", "[cli]") {
    if (!fs::exists(std::string(kOpenArena) + "/pak6-patch088.pk3")) {
        WARN("SKIPPED: openarena-data is not installed (tools/setup.sh installs it)");
        return;
    }
    auto dir = tempDir("cli-pk3");
    auto r = runLuxel(std::string("info --json ") + kOpenArena + "/pak6-patch088.pk3:maps/am_thornish.bsp");
    REQUIRE(r.exitCode == 0);
    auto fromArchive = nlohmann::json::parse(r.out);
    r = runLuxel(std::string("info --json --game-dir ") + kOpenArena + " --map am_thornish");
    REQUIRE(r.exitCode == 0);
    auto fromGameDir = nlohmann::json::parse(r.out);
    CHECK(fromArchive["surfaces"] == fromGameDir["surfaces"]);
    if (auto maps = sharedMaps()) {  // the shared copy is the same file as the archive's
        r = runLuxel("info --json '" + *maps + "/q3/oa088_am_thornish.bsp'");
        REQUIRE(r.exitCode == 0);
        CHECK(nlohmann::json::parse(r.out)["bytes"] == fromArchive["bytes"]);
    }
    r = runLuxel(std::string("info ") + kOpenArena + "/pak6-patch088.pk3:maps/no_such_map.bsp");
    CHECK(r.exitCode == 2);
    CHECK(lineCount(r.err) == 1);
}

TEST_CASE("the same bytes come out with 1, 2 and 8 threads", "[cli][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    auto dir = tempDir("cli-threads");
    std::string map = *sharedMaps() + "/q3/oa088_am_thornish.bsp";
    for (const char* mode : {"lightmap", "clusters"}) {
        std::string reference;
        for (int threads : {1, 2, 8}) {
            std::string out = dir + "/t" + std::to_string(threads) + ".png";
            auto r = runLuxel("render '" + map + "' --camera spawn --size 320x180 --spp 2 --mode " + mode +
                              " --threads " + std::to_string(threads) + " -o '" + out + "'");
            INFO(mode << " threads " << threads << ": " << r.err);
            REQUIRE(r.exitCode == 0);
            std::string bytes = readFileText(out);
            REQUIRE(bytes.size() > 1000);
            if (reference.empty())
                reference = bytes;
            else
                CHECK(bytes == reference);
        }
    }
}

TEST_CASE("JPEG files are the same bytes on libjpeg-turbo's AVX2, SSE2 and plain C paths", "[cli][maps]") {
    // The frame's own paths are compared in frame_paths_test; this is the encoder's: libjpeg-turbo picks its
    // SIMD by CPU, and its JSIMD_FORCE* variables stand in for other machines.
    LUXEL_REQUIRE_SHARED_MAPS();
    auto dir = tempDir("cli-jpeg-paths");
    const std::string map = *sharedMaps() + "/q3/oa088_am_thornish.bsp";
    std::string reference;
    for (const char* path : {"", "JSIMD_FORCESSE2", "JSIMD_FORCENONE"}) {
        if (*path) ::setenv(path, "1", 1);
        const std::string out = dir + "/f" + std::to_string(reference.empty()) + path + ".jpg";
        auto r = runLuxel("render '" + map + "' --camera spawn --size 320x180 -o '" + out + "'");
        if (*path) ::unsetenv(path);
        INFO((*path ? path : "default") << ": " << r.err);
        REQUIRE(r.exitCode == 0);
        const std::string bytes = readFileText(out);
        REQUIRE(bytes.size() > 1000);
        if (reference.empty())
            reference = bytes;
        else
            CHECK(bytes == reference);
    }
}

TEST_CASE("flares are drawn in diagnostic modes and hidden in lit unless --flares", "[cli][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const std::string map = *sharedMaps() + "/q3/oa088_am_thornish.bsp";
    auto triangles = [&](const std::string& args) {
        auto r = runLuxel("bench --json --frames 1 --size 320x180 '" + map + "' " + args);
        INFO(args << ": " << r.err);
        REQUIRE(r.exitCode == 0);
        return nlohmann::json::parse(r.out).at("triangles_in").get<int64_t>();
    };
    // The map's 135 billboards (../shared/maps/README.md) are two triangles each.
    const int64_t litDefault = triangles("--mode lit"), litFlares = triangles("--mode lit --flares");
    CHECK(litFlares - litDefault == 2 * 135);
    CHECK(triangles("--mode lightmap") == litFlares);
    CHECK(triangles("--mode lightmap --no-flares") == litDefault);
    CHECK(runLuxel("bench --frames 1 --size 32x18 '" + map + "' --flares --no-flares").exitCode == 2);
}

TEST_CASE("every OpenArena map renders lit from spawn with every stage evaluated, at a time past 0", "[cli][maps]") {
    if (!fs::exists(std::string(kOpenArena) + "/pak1-maps.pk3")) {
        WARN("SKIPPED: openarena-data is not installed");
        return;
    }
    const auto listed = runLuxel(std::string("list ") + kOpenArena);
    REQUIRE(listed.exitCode == 0);
    const size_t maps = size_t(std::count(listed.out.begin(), listed.out.end(), '\n'));
    REQUIRE(maps > 50);
    for (const char* time : {"7.25"}) {  // animated stages, waves and deforms away from their t = 0 values
        const std::string out = tempDir(std::string("cli-oa-all-") + time);
        const auto r = runLuxel(std::string("batch ") + kOpenArena + " --mode lit --camera spawn --size 64x36 --time " + time +
                                " -o '" + out + "'");
        INFO(r.err);
        CHECK(r.exitCode == 0);
        const auto manifest = nlohmann::json::parse(readFileText(out + "/manifest.json"));
        REQUIRE(manifest.at("maps").size() == maps);
        for (const auto& m : manifest.at("maps")) {
            INFO(m.at("name").get<std::string>());
            CHECK(m.at("status") == "ok");
        }
    }
}

TEST_CASE("render --time is the moment the frame shows: Quake 1's sky layers scroll with it", "[cli][maps][q1]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const std::string map = *sharedMaps() + "/q1/lqdm1/bsp29_lit/lqdm1.bsp";
    const std::string dir = tempDir("cli_time");
    // lqdm1's intermission camera looks at its sky over the wall (ref/README.md's view).
    const std::string common = " --pos 776 -872 264 --angles 25 -120 0 --size 64x48 --world-only --mode lit -o '" + dir;
    REQUIRE(runLuxel("render '" + map + "'" + common + "/t0.png' --time 0").exitCode == 0);
    REQUIRE(runLuxel("render '" + map + "'" + common + "/t4.png' --time 4.35").exitCode == 0);
    REQUIRE(runLuxel("render '" + map + "'" + common + "/t0b.png' --time 0").exitCode == 0);
    const Image a = readImage(dir + "/t0.png"), b = readImage(dir + "/t4.png"), again = readImage(dir + "/t0b.png");
    CHECK(a.pixels == again.pixels);
    // The back layer moves 8 texels a second, the front one 16: 35 and 70 texels in 4.35 s.
    size_t changed = 0;
    for (size_t i = 0; i < a.pixels.size(); ++i) changed += a.pixels[i] != b.pixels[i];
    CHECK(changed > a.pixels.size() / 20);
}
