// `luxel diff` end to end: exit codes (0 same, 1 over --fail, 2 error), one error line for bad input, the
// JSON report's figures, heatmaps written, on the real q3map2 pairs and on images with known differences.
#include <OpenImageIO/imagebuf.h>
#include <OpenImageIO/imagebufalgo.h>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "support/test_paths.hpp"

using namespace luxel::test;
namespace fs = std::filesystem;

namespace {

std::string pairs() { return *sharedMaps() + "/pairs/oacmpdm8/"; }

// A 4x4 grey image with pixel (1, 2) set to `v` in every channel.
void writeImage(const std::string& path, float v) {
    OIIO::ImageBuf buf(OIIO::ImageSpec(4, 4, 3, OIIO::TypeDesc::UINT8));
    const float grey[3] = {0.5f, 0.5f, 0.5f};
    OIIO::ImageBufAlgo::fill(buf, grey);
    const float px[3] = {v, v, v};
    buf.setpixel(1, 2, px);
    REQUIRE(buf.write(path));
}

}  // namespace

TEST_CASE("diff of a recompile with the same settings: exit 0, every lightmap figure zero", "[cli][diff][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const std::string dir = tempDir("diff-same");
    const auto r = runLuxel("diff '" + pairs() + "base.bsp' '" + pairs() + "same.bsp' --no-views --json '" + dir +
                            "/r.json'");
    INFO(r.out << r.err);
    CHECK(r.exitCode == 0);
    const nlohmann::json j = readJson(dir + "/r.json");
    CHECK(j["verdict"] == "same");
    const auto& style0 = j["lightmaps"]["styles"][0];
    CHECK(style0["style"] == 0);
    CHECK(style0["stats"]["max_abs_linear"] == 0.0);
    CHECK(style0["stats"]["count"].get<size_t>() > 100000);
}

TEST_CASE("diff of a changed light: exit 1 over the default threshold, 0 with --fail above its largest change",
          "[cli][diff][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const std::string dir = tempDir("diff-light");
    auto r = runLuxel("diff '" + pairs() + "base.bsp' '" + pairs() + "light.bsp' --no-views --json '" + dir +
                      "/r.json' --out '" + dir + "/heat' --camera spawn");
    INFO(r.out << r.err);
    CHECK(r.exitCode == 1);
    CHECK(r.out.find("fail") != std::string::npos);
    const nlohmann::json j = readJson(dir + "/r.json");
    CHECK(j["verdict"] == "fail");
    CHECK_FALSE(j["lightmaps"]["styles"][0]["changed"].empty());
    // The heatmaps: the atlas pages of style 0 at least, and the light grid's levels.
    CHECK(fs::exists(dir + "/heat/style_000"));
    CHECK(fs::exists(dir + "/heat/grid/z_000.png"));
    // The heat scale is a display difference: above 1 is a usage error.
    CHECK(runLuxel("diff '" + pairs() + "base.bsp' '" + pairs() + "light.bsp' --no-views --heat-scale 2").exitCode == 2);
    // Every difference is at most a full display range: a threshold of 1 (hard-fail at 1) passes.
    r = runLuxel("diff '" + pairs() + "base.bsp' '" + pairs() + "light.bsp' --no-views --fail 1 --warn 1");
    CHECK(r.exitCode == 0);
}

TEST_CASE("diff errors: a truncated map, formats that differ, an image against a map: exit 2, one line",
          "[cli][diff][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const std::string dir = tempDir("diff-bad");
    {
        std::ifstream in(pairs() + "base.bsp", std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), {});
        std::ofstream out(dir + "/cut.bsp", std::ios::binary);
        out << bytes.substr(0, bytes.size() / 3);
    }
    auto r = runLuxel("diff '" + pairs() + "base.bsp' '" + dir + "/cut.bsp' --no-views");
    CHECK(r.exitCode == 2);
    CHECK(lineCount(r.err) == 1);
    CHECK(r.err.find("cut.bsp") != std::string::npos);

    r = runLuxel("diff '" + pairs() + "base.bsp' '" + *sharedMaps() + "/q2/bsptool_q2_mp_lobby.bsp' --no-views");
    CHECK(r.exitCode == 2);
    CHECK(lineCount(r.err) == 1);
    CHECK(r.err.find("formats differ") != std::string::npos);

    writeImage(dir + "/a.png", 0.5f);
    r = runLuxel("diff '" + dir + "/a.png' '" + pairs() + "base.bsp'");
    CHECK(r.exitCode == 2);
    CHECK(lineCount(r.err) == 1);
}

TEST_CASE("diff of images: the same pixels exit 0, one changed pixel exit 1 unless the thresholds allow it", "[cli][diff]") {
    const std::string dir = tempDir("diff-images");
    writeImage(dir + "/a.png", 0.5f);
    writeImage(dir + "/same.png", 0.5f);
    writeImage(dir + "/b.png", 1.0f);  // one pixel 0.5 brighter (127/255 or 128/255 apart, by rounding)
    auto r = runLuxel("diff '" + dir + "/a.png' '" + dir + "/same.png'");
    INFO(r.out << r.err);
    CHECK(r.exitCode == 0);
    r = runLuxel("diff '" + dir + "/a.png' '" + dir + "/b.png' --json '" + dir + "/r.json'");
    CHECK(r.exitCode == 1);
    const nlohmann::json j = readJson(dir + "/r.json");
    CHECK(j["images"][0]["stats"]["over_fail"] == 1);
    CHECK(j["images"][0]["stats"]["max_abs_display"].get<double>() == Approx(0.5).margin(1.0 / 255));
    // 1 of 16 pixels over: --fail-percent 10 lets it pass (with a warning).
    r = runLuxel("diff '" + dir + "/a.png' '" + dir + "/b.png' --fail-percent 10");
    CHECK(r.exitCode == 0);
}

TEST_CASE("diff of folders: entries matched by path; an entry on one side only fails", "[cli][diff]") {
    const std::string a = tempDir("diff-folder-a"), b = tempDir("diff-folder-b");
    writeImage(a + "/x.png", 0.5f);
    writeImage(b + "/x.png", 0.5f);
    auto r = runLuxel("diff '" + a + "' '" + b + "'");
    INFO(r.out << r.err);
    CHECK(r.exitCode == 0);
    writeImage(a + "/only.png", 0.5f);
    r = runLuxel("diff '" + a + "' '" + b + "' --json '" + a + "/../r.json'");
    CHECK(r.exitCode == 1);
    const nlohmann::json j = readJson(a + "/../r.json");
    CHECK(j["only_in_a"] == nlohmann::json::array({"only.png"}));
}

TEST_CASE("golden images: written with --update-golden, the same build passes, another build and a missing image fail",
          "[cli][diff][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const std::string dir = tempDir("diff-golden");
    {
        std::ofstream scene(dir + "/views.toml");
        scene << "maps = [\"" << pairs() << "base.bsp\"]\n"
              << "[[view]]\nname = \"top\"\ncamera = \"overview\"\nsize = \"160x90\"\nmode = \"lightmap\"\n"
              << "[[view]]\nname = \"pinned\"\npos = [0, -283, 326]\nangles = [90, 0, 0]\nsize = [160, 90]\nmode = \"lightmap\"\n";
    }
    const std::string scene = " --scene '" + dir + "/views.toml' --golden '" + dir + "/golden'";
    auto r = runLuxel("diff '" + pairs() + "base.bsp'" + scene + " --update-golden");
    INFO(r.out << r.err);
    REQUIRE(r.exitCode == 0);
    CHECK(fs::exists(dir + "/golden/top.png"));
    CHECK(fs::exists(dir + "/golden/pinned.png"));
    r = runLuxel("diff '" + pairs() + "base.bsp'" + scene + " --junit '" + dir + "/j.xml'");
    CHECK(r.exitCode == 0);
    // `light` recoloured the light at (2 -283 326): the view straight down from there sees it.
    r = runLuxel("diff '" + pairs() + "light.bsp'" + scene);
    CHECK(r.exitCode == 1);
    fs::remove(dir + "/golden/top.png");
    r = runLuxel("diff '" + pairs() + "base.bsp'" + scene);
    CHECK(r.exitCode == 1);
    CHECK(r.out.find("no golden image") != std::string::npos);
}

TEST_CASE("diff of ericw-tools' Quake 2 rebuilds: identical light is same, a doubled or moved light fails near it",
          "[cli][diff][maps]") {
    const auto maps = sharedMaps();
    if (!maps) {
        WARN("../shared/maps is absent: skipping the ericw-tools pairs");
        return;
    }
    const std::string dir = *maps + "/pairs/ericw-q2/q2_light_translucency/";
    auto build = [&](const std::string& name) { return "'" + dir + name + "/q2_light_translucency.bsp'"; };
    // Rebuilt with the same settings: the files differ in bytes (the README's "same" build), the light does not.
    const CommandResult same = runLuxel("diff " + build("base") + " " + build("same") + " --no-views");
    CHECK(same.exitCode == 0);
    CHECK(same.out.find("verdict: same") != std::string::npos);
    // The light at (152 -96 248) at 300 instead of 150, then moved 64 units along X: both fail, and the most
    // changed surfaces of the doubled light include one within 256 units of it.
    for (const char* changed : {"light", "moved"}) {
        INFO(changed);
        const CommandResult r = runLuxel("diff " + build("base") + " " + build(changed) + " --no-views");
        CHECK(r.exitCode == 1);
        CHECK(r.out.find("verdict: fail") != std::string::npos);
        CHECK(r.out.find("most changed surfaces") != std::string::npos);
        if (std::string(changed) != "light") continue;
        bool near = false;
        for (size_t at = r.out.find(" at ("); at != std::string::npos; at = r.out.find(" at (", at + 1)) {
            float x = 0, y = 0, z = 0;
            if (std::sscanf(r.out.c_str() + at, " at (%f %f %f)", &x, &y, &z) == 3)
                near = near || std::hypot(x - 152.0f, y + 96.0f, z - 248.0f) < 256.0f;
        }
        CHECK(near);
    }
}
