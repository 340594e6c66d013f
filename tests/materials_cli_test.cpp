// The luxel binary with materials: render / bench in lit and albedo modes, info --materials, repeatable
// --game-dir, the one-line warning for textures not found.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

#include "support/q3_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;

namespace {

// room.bsp: texture 0 textures/luxel/wall (found in dir a) plus textures/luxel/red (in dir b) and
// textures/luxel/gone (nowhere).
struct Fixture {
    fs::path dir = tempDir("materials-cli");
    std::string map = (dir / "room.bsp").string(), a = (dir / "a").string(), b = (dir / "b").string();
    Fixture() {
        Q3MapBuilder m = makeRoomMap();
        m.addTexture("textures/luxel/red");
        m.addTexture("textures/luxel/gone");
        writeFile(map, m.build());
        writeFile(fs::path(a) / "textures/luxel/wall.tga", tga1x1(200, 200, 200));
        writeFile(fs::path(b) / "textures/luxel/red.tga", tga1x1(255, 0, 0));
    }
};

}  // namespace

TEST_CASE("info --materials --json lists textures from every --game-dir and the missing one", "[cli][materials]") {
    Fixture f;
    auto r = runLuxel("info --json --materials '" + f.map + "' --game-dir '" + f.a + "' --game-dir '" + f.b + "'");
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    const auto j = nlohmann::json::parse(r.out);
    const auto& m = j.at("material_details");
    REQUIRE(m.at("list").size() == 3);
    CHECK(m["list"][0]["texture"].get<std::string>().find("wall.tga") != std::string::npos);
    CHECK(m["list"][1]["texture"].get<std::string>().find("red.tga") != std::string::npos);
    CHECK(m["list"][2]["texture"].is_null());
    CHECK(m["list"][2]["missing"] == true);
    CHECK(m["missing"] == nlohmann::json::array({"textures/luxel/gone"}));
    CHECK(m["textures"] == 2);

    r = runLuxel("info --materials '" + f.map + "' --game-dir '" + f.a + "'");
    REQUIRE(r.exitCode == 0);
    CHECK(r.out.find("missing textures: 2") != std::string::npos);  // red is only in b
}

TEST_CASE("render lit / albedo: one warning line for textures not found", "[cli][materials]") {
    Fixture f;
    const std::string out = (f.dir / "lit.png").string();
    // The overview sees every surface; the warning names the materials of surfaces in view.
    auto r = runLuxel("render '" + f.map + "' --mode lit --camera overview --size 64x36 --game-dir '" + f.a + "' -o '" +
                      out + "'");
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    CHECK(fs::exists(out));
    CHECK(lineCount(r.err) == 1);
    CHECK(r.err.find("2 materials without texture: textures/luxel/gone, textures/luxel/red") != std::string::npos);

    r = runLuxel("render '" + f.map + "' --mode albedo --camera overview --size 64x36 --game-dir '" + f.a +
                 "' --game-dir '" + f.b + "' -o '" + out + "'");
    REQUIRE(r.exitCode == 0);
    CHECK(r.err.find("1 material without texture: textures/luxel/gone") != std::string::npos);

    // Other modes need no textures (lightmap mode only for surfaces without a lightmap): no warning.
    r = runLuxel("render '" + f.map + "' --mode lightmap --size 64x36 -o '" + out + "'");
    REQUIRE(r.exitCode == 0);
    CHECK(r.err.empty());
}

TEST_CASE("bench --json reports the texture load time", "[cli][materials]") {
    Fixture f;
    auto r = runLuxel("bench --json --frames 1 --size 64x36 --mode lit '" + f.map + "' --game-dir '" + f.a + "'");
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j.at("materials_ms").get<double>() > 0);
    CHECK(j.at("textures") == 1);
    r = runLuxel("bench --json --frames 1 --size 64x36 '" + f.map + "'");
    REQUIRE(r.exitCode == 0);
    CHECK(nlohmann::json::parse(r.out).at("materials_ms") == 0);
}

TEST_CASE("a bad --palette is a usage error", "[cli][materials][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    auto r = runLuxel("render '" + *sharedMaps() + "/q2/qengine_sample.bsp' --mode lit --size 32x18 --palette /nonexistent.pcx -o '" +
                      tempDir("materials-cli-pal") + "/x.png'");
    CHECK(r.exitCode == 2);
    CHECK(r.err.find("nonexistent.pcx") != std::string::npos);
}
