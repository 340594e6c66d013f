// `luxel rebake` end to end: the report's figures, the written copy reading back as the rebaked values,
// and one-line errors.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>

#include "luxel/bake/rebake.hpp"
#include "luxel/bsp/decode.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

TEST_CASE("rebake --write gives a map whose cubes are the rebaked values; --report has the figures",
          "[cli][maps][rebake]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const std::string map = *sharedMaps() + "/source/sdk2013ce_sdk_vehicles_v20.bsp";
    const std::string dir = tempDir("rebake-cli");
    const CommandResult r = runLuxel("rebake '" + map + "' --rays 32 --seed 5 --write '" + dir + "/out.bsp' --report '" +
                                     dir + "/report.json'");
    REQUIRE(r.exitCode == 0);
    CHECK(r.out.find("M rays/s") != std::string::npos);

    // The same rebake in this process (thread count does not matter: results are deterministic).
    const World world = decodeMap(openMapPath(map));
    const Geometry geometry = tessellate(world);
    const RayScene scene(world, geometry);
    RebakeOptions o;
    o.rays = 32;
    o.seed = 5;
    const RebakeResult expected = rebakeProbes(world, geometry, scene, o);

    const World copy = decodeMap(openMapPath(dir + "/out.bsp"));
    const ProbeValues got = storedProbes(copy);
    REQUIRE(got.kind == ProbeKind::Cubes);
    REQUIRE(got.cubes.size() == expected.values.cubes.size());
    size_t checked = 0;
    for (size_t i = 0; i < got.cubes.size(); ++i)
        for (size_t s = 0; s < 6; ++s) {
            const Vec3 a = expected.values.cubes[i][s], b = got.cubes[i][s];
            // Shared-exponent bytes: each channel within half a mantissa step of the largest channel
            // (2^e / 255 / 2 with the largest mantissa >= 128, so <= max / 255).
            const float step = std::max(a.x, std::max(a.y, a.z)) / 255.0f + 1e-12f;
            CHECK(std::abs(a.x - b.x) <= step);
            CHECK(std::abs(a.y - b.y) <= step);
            CHECK(std::abs(a.z - b.z) <= step);
            ++checked;
        }
    CHECK(checked == 6 * expected.values.cubes.size());
    // Everything but the probes is the original map.
    CHECK(copy.surfaces.size() == world.surfaces.size());
    CHECK(copy.lightmaps.size() == world.lightmaps.size());

    const nlohmann::json report = readJson(dir + "/report.json");
    CHECK(report["kind"] == "cubes");
    CHECK(report["rays"] == 32);
    CHECK(report["points"]["total"].get<size_t>() == expected.values.cubes.size());
    CHECK(report["total_rays"].get<uint64_t>() == 32 * expected.values.cubes.size());
    CHECK(report["vs_stored"]["points"].get<size_t>() == expected.values.cubes.size());
    CHECK(report["vs_stored"]["relative_luminance_error"]["median"].get<double>() < 0.5);
    CHECK(report["rays_per_second"].get<double>() > 0);
}

TEST_CASE("rebake of a Quake 3 map reports nudged and walled grid points and a direction error",
          "[cli][maps][rebake]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const std::string dir = tempDir("rebake-q3");
    const CommandResult r = runLuxel("rebake '" + *sharedMaps() + "/q3/oa088_aggressor.bsp' --rays 16 --compare-rays 4,8 --report '" +
                                     dir + "/report.json'");
    REQUIRE(r.exitCode == 0);
    const nlohmann::json report = readJson(dir + "/report.json");
    CHECK(report["kind"] == "grid");
    const auto& p = report["points"];
    CHECK(p["baked"].get<size_t>() + p["nudged"].get<size_t>() + p["solid"].get<size_t>() == p["total"].get<size_t>());
    CHECK(p["baked"].get<size_t>() > 0);
    CHECK(report["vs_stored"].contains("direction_error_deg"));
    REQUIRE(report["vs_reference"].size() == 2);
    for (const auto& c : report["vs_reference"]) {
        CHECK(c["reference_rays"] == 16);
        CHECK(c["points"].get<size_t>() == p["baked"].get<size_t>() + p["nudged"].get<size_t>());
    }
    // Fewer rays, more sampling error.
    CHECK(report["vs_reference"][0]["rmse_ambient"][1].get<double>() >
          report["vs_reference"][1]["rmse_ambient"][1].get<double>());
}

TEST_CASE("rebake errors are one line with exit code 2", "[cli][rebake]") {
    const std::string dir = tempDir("rebake-bad");
    CommandResult r = runLuxel("rebake '" + dir + "/missing.bsp'");
    CHECK(r.exitCode == 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    r = runLuxel("rebake x.bsp --rays 0");
    CHECK(r.exitCode == 2);
    if (sharedMaps()) {
        // A Quake 2 map has neither grid nor cubes.
        r = runLuxel("rebake '" + *sharedMaps() + "/q2/quakeless-ii_test1.bsp'");
        CHECK(r.exitCode == 2);
        CHECK(r.err.find("no light grid or ambient cubes") != std::string::npos);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    }
}
