// `luxel bake` end to end on a synthetic Quake 2 map with two light styles: a comparison line per style slot,
// and -o writing one folder per style as `luxel lightmaps` does, each page holding that style's light alone.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "luxel/image/image.hpp"
#include "support/q2_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

TEST_CASE("bake of a map with light styles: every slot compared, -o writes a folder per style", "[cli][bake]") {
    // A 64 x 32 floor face with styles 0 and 5, lit by a style-0 light over one end and a style-5 light
    // over the other (qrad3's linear falloff: 300 units of reach).
    Q2MapBuilder b;
    b.entities = R"({ "classname" "worldspawn" }
{ "classname" "light" "origin" "8 16 40" "light" "300" }
{ "classname" "light" "origin" "56 16 40" "light" "300" "style" "5" }
)";
    const int32_t floor = b.addPlane({0, 0, 1}, 0);
    const int32_t tex = b.addTexinfo({1, 0, 0, 0}, {0, 1, 0, 0});
    const std::vector<std::array<uint8_t, 3>> grid(15, {20, 20, 20});
    b.addFace({{0, 0, 0}, {0, 32, 0}, {64, 32, 0}, {64, 0, 0}}, floor, false, tex, {0, 5, 255, 255}, b.addLighting({grid, grid}));
    addQ2FloorWorld(b, floor, tex, 1, {64, 32, 0});
    const std::string dir = tempDir("bake-cli-styles");
    writeFile(dir + "/styles.bsp", b.build());

    const CommandResult r = runLuxel("bake '" + dir + "/styles.bsp' -o '" + dir + "/out' --json '" + dir + "/report.json'");
    REQUIRE(r.exitCode == 0);
    CHECK(r.out.find("slot 0:") != std::string::npos);
    CHECK(r.out.find("slot 1:") != std::string::npos);
    std::ifstream in(dir + "/report.json");
    const nlohmann::json j = nlohmann::json::parse(in);
    REQUIRE(j["lightmap_slots"].size() == 2);
    CHECK(j["lightmap_slots"][1]["slot"] == 1);
    CHECK(j["lightmap_slots"][1]["luxels"] == 15);

    // One folder per style, as `luxel lightmaps` writes them; each page brighter under its own light.
    const Image plain = readImage(dir + "/out/style_000/lm_0000.png");
    const Image pulsing = readImage(dir + "/out/style_005/lm_0000.png");
    REQUIRE(plain.width == pulsing.width);
    REQUIRE(plain.width >= 5);
    // The face's luxel row at y = 16 (texel row 2 of the 5 x 3 block inside its border ring): x = 0 and 64.
    const float* left0 = plain.at(1, 2);
    const float* right0 = plain.at(5, 2);
    const float* left5 = pulsing.at(1, 2);
    const float* right5 = pulsing.at(5, 2);
    CHECK(left0[0] > right0[0]);
    CHECK(right5[0] > left5[0]);
    CHECK(left0[0] > 0);
    CHECK(right5[0] > 0);
}
