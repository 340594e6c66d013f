// `luxel bake --bounce` end to end on a synthetic room: the report's bounce figures, bounce 0 leaving the
// direct bake alone, and bad counts refused.
#include <algorithm>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>

#include "support/q3_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel::test;

TEST_CASE("bake --bounce N reports N bounces of every luxel; --bounce 0 and Quake 3's default bounce nothing", "[cli][bake]") {
    const std::string dir = tempDir("bake-bounce-cli");
    // The room map carries a light entity (q3_writer's makeRoomMap), so the direct bake lights it.
    writeFile(dir + "/room.bsp", makeRoomMap().build());
    const std::string map = "'" + dir + "/room.bsp'";
    CommandResult r = runLuxel("bake " + map + " --bounce 2 --bounce-rays 4 --json '" + dir + "/two.json'");
    REQUIRE(r.exitCode == 0);
    CHECK(r.out.find("bounce: 2 of 2 bounces") != std::string::npos);
    CHECK(r.out.find("lightmaps with bounce vs stored") != std::string::npos);
    const nlohmann::json two = readJson(dir + "/two.json");
    REQUIRE(two["bounce"].is_object());
    // 6 walls of 128 x 128 luxels, 4 rays each, twice (the room's bounce never falls under 0.1% of its light).
    CHECK(two["bounce"]["bounces"] == 2);
    CHECK(two["bounce"]["luxels"] == 6 * 128 * 128);
    CHECK(two["bounce"]["rays"] == 6 * 128 * 128 * 4 * 2);
    CHECK(two["bounce"]["scale"].get<double>() == Approx(140.625 / 255));
    // The bounced light only adds.
    CHECK(two["bounce"]["lightmaps"]["mean_luminance"]["baked"].get<double>() >
          two["lightmaps"]["mean_luminance"]["baked"].get<double>());

    for (const std::string& extra : {std::string(" --bounce 0"), std::string()}) {
        r = runLuxel("bake " + map + extra + " --json '" + dir + "/none.json'");
        REQUIRE(r.exitCode == 0);
        CHECK(r.out.find("bounce:") == std::string::npos);
        const nlohmann::json none = readJson(dir + "/none.json");
        CHECK(none["bounce"].is_null());
        // The direct bake's own figures are the same bytes as in the run with bounce (timings aside).
        nlohmann::json a = none["lightmaps"], b = two["lightmaps"];
        a.erase("ms");
        b.erase("ms");
        CHECK(a == b);
    }

    // Refused while parsing, before any baking: one line with CLI11's words naming the option, and the --help to read.
    for (const std::string& bad : {std::string("--bounce -1"), std::string("--bounce 1001"), std::string("--bounce-rays 0")}) {
        r = runLuxel("bake " + map + " " + bad);
        CHECK(r.exitCode == 2);
        CHECK(r.err.rfind("luxel: error: " + bad.substr(0, bad.find(' ')) + ": Value", 0) == 0);
        CHECK(r.err.find("(luxel bake --help for usage)\n") != std::string::npos);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
        CHECK(r.out.empty());
    }
}
