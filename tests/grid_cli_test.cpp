// `luxel grid` and `luxel render --mode grid` end to end: files written, their sizes and values for
// synthetic Quake 3 rooms with known grid bytes, errors for maps without probes, real maps.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

#include "luxel/image/image.hpp"
#include "support/q3_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;

namespace {

// The default room spans x, y in [-256, 256] and z in [0, 256]: with 64 x 64 x 128 cells the grid is
// 9 x 9 x 3 points from (-256, -256, 0) (notes/decoding.md: origin = size * ceil(mins / size), ...).
constexpr int kNx = 9, kNy = 9, kNz = 3;

}  // namespace

TEST_CASE("luxel grid writes one image per level of a Quake 3 grid, +Y up, and every point as JSON and CSV",
          "[light_grid][cli]") {
    auto dir = tempDir("grid-q3");
    RoomOptions room;
    room.lightGrid = true;
    room.gridAmbient = {16, 16, 16};
    room.gridDirected = {32, 32, 32};
    Q3MapBuilder b = makeRoomMap(room);
    REQUIRE(b.lightGrid.size() == size_t(kNx) * kNy * kNz * 8);
    // Point (0, 8, 1) -- left column, top row of level 1 -- gets a red ambient: 4 * 60 / 255 = 0.941.
    const size_t marked = (size_t(1) * kNy + 8) * kNx + 0;
    b.lightGrid[marked * 8 + 0] = 60;
    b.lightGrid[marked * 8 + 1] = 0;
    b.lightGrid[marked * 8 + 2] = 0;
    b.lightGrid[marked * 8 + 3] = 0;
    b.lightGrid[marked * 8 + 4] = 0;
    b.lightGrid[marked * 8 + 5] = 0;
    writeFile(dir + "/room.bsp", b.build());

    auto r = runLuxel("grid '" + dir + "/room.bsp' -o '" + dir + "/out' --json '" + dir + "/g.json' --csv '" + dir +
                      "/g.csv' --look linear --scale 3");
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    for (int k = 0; k < kNz; ++k) CHECK(fs::exists(dir + "/out/grid_z00" + std::to_string(k) + ".png"));
    CHECK_FALSE(fs::exists(dir + "/out/grid_z003.png"));

    const Image level1 = readImage(dir + "/out/grid_z001.png");
    REQUIRE(level1.width == kNx * 3);
    REQUIRE(level1.height == kNy * 3);
    // Ambient + directed elsewhere: 4 * (16 + 32) / 255 = 0.753, stored as byte 192.
    const float plain = 192.0f / 255.0f, red = 240.0f / 255.0f;
    for (auto [x, y] : {std::pair{0, 0}, {2, 2}})  // the marked point's 3 x 3 block, top left
        CHECK(level1.at(x, y)[0] == Approx(red).margin(0.6 / 255));
    CHECK(level1.at(0, 0)[1] == Approx(0.0f).margin(1e-6));
    for (auto [x, y] : {std::pair{3, 0}, {0, 3}, {0, 26}, {26, 26}}) CHECK(level1.at(x, y)[1] == Approx(plain).margin(0.6 / 255));
    // The same point on level 0 is plain.
    CHECK(readImage(dir + "/out/grid_z000.png").at(0, 0)[1] == Approx(plain).margin(0.6 / 255));

    const auto j = nlohmann::json::parse(readFileText(dir + "/g.json"));
    CHECK(j["kind"] == "grid");
    CHECK(j["dims"] == nlohmann::json::array({kNx, kNy, kNz}));
    CHECK(j["origin"] == nlohmann::json::array({-256.0, -256.0, 0.0}));
    CHECK(j["cellSize"] == nlohmann::json::array({64.0, 64.0, 128.0}));
    REQUIRE(j["samples"].size() == size_t(kNx) * kNy * kNz);
    const auto& m = j["samples"][marked];
    CHECK(m["index"] == marked);
    CHECK(m["position"] == nlohmann::json::array({-256.0, 256.0, 128.0}));
    CHECK(m["ambient"][0].get<double>() == Approx(4.0 * 60 / 255));
    CHECK(m["ambient"][1].get<double>() == 0.0);
    CHECK(j["samples"][0]["directed"][2].get<double>() == Approx(4.0 * 32 / 255));
    CHECK(j["samples"][0]["direction"][2].get<double>() == Approx(1.0));  // angle bytes (0, 0): straight up

    const std::string csv = readFileText(dir + "/g.csv");
    CHECK(lineCount(csv) == 1 + size_t(kNx) * kNy * kNz);
    CHECK(csv.rfind("index,x,y,z,ambient_r", 0) == 0);
}

TEST_CASE("luxel grid without a grid, and render --mode grid without one", "[light_grid][cli]") {
    auto dir = tempDir("grid-none");
    writeFile(dir + "/plain.bsp", makeRoomMap().build());
    auto r = runLuxel("grid '" + dir + "/plain.bsp' -o '" + dir + "/out'");
    CHECK(r.exitCode == 2);
    CHECK(lineCount(r.err) == 1);
    CHECK(r.err.find("has no light grid or ambient cubes") != std::string::npos);
    CHECK(r.err.find("plain.bsp") != std::string::npos);

    r = runLuxel("render '" + dir + "/plain.bsp' --mode grid --size 64x36 -o '" + dir + "/black.png'");
    CHECK(r.exitCode == 0);
    CHECK(lineCount(r.err) == 1);
    CHECK(r.err.find("warning") != std::string::npos);
    const Image img = readImage(dir + "/black.png");
    REQUIRE(img.width == 64);
    // Walls black, and the empty background black too.
    CHECK(*std::max_element(img.pixels.begin(), img.pixels.end()) == 0.0f);

    r = runLuxel("grid '" + dir + "/plain.bsp' -o '" + dir + "/out' --scale 0");
    CHECK(r.exitCode == 2);
    r = runLuxel("render '" + dir + "/plain.bsp' --mode grids -o '" + dir + "/x.png'");
    CHECK(r.exitCode == 2);
    CHECK(r.err.find("lit or grid") != std::string::npos);
}

TEST_CASE("luxel grid on real maps: every grid point or cube sample listed", "[light_grid][cli][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    auto dir = tempDir("grid-real");
    auto r = runLuxel("grid '" + *sharedMaps() + "/q3/oa085_ctf_compromise.bsp' -o '" + dir + "/q3' --json '" + dir +
                      "/q3.json'");
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    const auto q3 = nlohmann::json::parse(readFileText(dir + "/q3.json"));
    CHECK(q3["kind"] == "grid");
    const int nx = q3["dims"][0], ny = q3["dims"][1], nz = q3["dims"][2];
    CHECK(q3["samples"].size() == size_t(nx) * size_t(ny) * size_t(nz));
    for (int k = 0; k < nz; ++k) {
        char name[32];
        std::snprintf(name, sizeof name, "/q3/grid_z%03d.png", k);
        CHECK(fs::exists(dir + name));
    }
    const Image level = readImage(dir + "/q3/grid_z000.png");
    CHECK(level.width >= 256);
    CHECK(level.width % nx == 0);
    CHECK(level.height == level.width / nx * ny);

    r = runLuxel("grid '" + *sharedMaps() + "/source/sdk2013ce_sdk_vehicles_v20.bsp' -o '" + dir + "/src' --json '" +
                 dir + "/src.json' --csv '" + dir + "/src.csv'");
    REQUIRE(r.exitCode == 0);
    for (const char* f : {"cubes_top", "cubes_side_px", "cubes_side_nx", "cubes_side_py", "cubes_side_ny",
                          "cubes_side_pz", "cubes_side_nz"})
        CHECK(fs::exists(dir + "/src/" + f + ".png"));
    const auto src = nlohmann::json::parse(readFileText(dir + "/src.json"));
    CHECK(src["kind"] == "cubes");
    REQUIRE(src["samples"].size() > 100);
    CHECK(lineCount(readFileText(dir + "/src.csv")) == 1 + src["samples"].size());
    CHECK(src["samples"][0]["sides"].size() == 6);
    // vrad gives every sample to a leaf.
    for (const auto& s : src["samples"]) CHECK(s["leaf"].get<int>() >= 0);
}
