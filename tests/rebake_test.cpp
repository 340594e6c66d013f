// Rebaking light probes inside a closed cube whose six walls have constant, known lightmap light. From the
// cube's centre each wall subtends a known share of the cosine-weighted hemisphere: the facing wall
// 4/pi * atan(1/sqrt 2)/sqrt 2 = 0.554131 (differential area to a parallel square, centred), each of the
// four side walls a quarter of the rest, the opposite wall none. So a cube side and the Quake 3 terms
// have closed forms, and the tests allow the sampling error of N rays computed from the walls' spread.
#include <catch2/catch.hpp>
#include <tbb/task_arena.h>

#include <cmath>

#include "luxel/bake/compare.hpp"
#include "luxel/bake/rebake.hpp"
#include "luxel/bsp/decode.hpp"
#include "luxel/util/error.hpp"
#include "luxel/vis/visibility.hpp"
#include "support/decode_helpers.hpp"
#include "support/q3_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;

namespace {

const double kFacing = 4.0 / M_PI * std::atan(1.0 / std::sqrt(2.0)) / std::sqrt(2.0);  // 0.554131
const double kSide = (1.0 - kFacing) / 4.0;                                             // 0.111467

// Room walls (q3_writer order): 0 floor (-Z), 1 ceiling (+Z), 2 west (-X), 3 east (+X), 4 south (-Y),
// 5 north (+Y). Cube side s (+X, -X, +Y, -Y, +Z, -Z) looks at wall kWallOfSide[s].
constexpr int kWallOfSide[6] = {3, 2, 5, 4, 1, 0};
constexpr int kOppositeSide[6] = {1, 0, 3, 2, 5, 4};

struct CubeRoom {
    World world;
    Geometry geometry;
};

// A 256-unit cube room with the light grid on (cell 64 64 128: 5 x 5 x 3 points, the centre is point 37).
CubeRoom makeCubeRoom(const std::array<std::array<uint8_t, 3>, 6>& wallBytes) {
    test::RoomOptions o;
    o.mins = {-128, -128, 0};
    o.maxs = {128, 128, 256};
    o.wallBytes = wallBytes;
    o.lightGrid = true;
    CubeRoom room;
    room.world = test::decodeBytes(test::makeRoomMap(o).build());
    room.geometry = tessellate(room.world);
    return room;
}
constexpr size_t kCentre = 37;

// The same room, its probes replaced by one ambient cube sample at the centre (the Source path).
CubeRoom withCentreCube(CubeRoom room) {
    room.world.grid.reset();
    room.world.ambientSamples = {AmbientSample{{0, 0, 128}, {}}};
    room.world.leafAmbient.assign(room.world.leaves.size(), {0, 0});
    const int32_t leaf = findLeaf(room.world, {0, 0, 128});
    REQUIRE(leaf >= 0);
    room.world.leafAmbient[size_t(leaf)] = {0, 1};
    return room;
}

double linear(uint8_t b) { return 4.0 * b / 255.0; }

// Expected cube side s, channel c, and its sampling tolerance with N rays: 4 standard errors of an
// unstratified cosine-weighted estimate (the stratified one is tighter).
struct Expect {
    double value, tolerance;
};
Expect expectedSide(const std::array<std::array<uint8_t, 3>, 6>& w, int side, int c, int rays) {
    double mean = 0, meanSq = 0;
    for (int s = 0; s < 6; ++s) {
        if (s == kOppositeSide[side]) continue;
        const double share = s == side ? kFacing : kSide;
        const double l = linear(w[size_t(kWallOfSide[s])][size_t(c)]);
        mean += share * l;
        meanSq += share * l * l;
    }
    const double sigma = std::sqrt(std::max(0.0, meanSq - mean * mean));
    return {mean, 4.0 * sigma * std::sqrt(16.0 / 6.0) / std::sqrt(double(rays)) + 1e-5};
}

RebakeResult rebake(const CubeRoom& room, int rays, uint64_t seed = 1) {
    RayScene scene(room.world, room.geometry);
    RebakeOptions o;
    o.rays = rays;
    o.seed = seed;
    return rebakeProbes(room.world, room.geometry, scene, o);
}

}  // namespace

TEST_CASE("probe directions are unit, stratified in z and reproducible", "[rebake]") {
    const auto a = probeDirections(256, 7, 3), b = probeDirections(256, 7, 3), c = probeDirections(256, 7, 4);
    REQUIRE(a.size() == 256);
    CHECK(a == b);
    CHECK_FALSE(a == c);
    Vec3 mean;
    for (size_t i = 0; i < a.size(); ++i) {
        CHECK(length(a[i]) == Approx(1.0f).margin(1e-5));
        // Direction i lies in the i-th of 256 equal-area bands of z.
        const float top = 1.0f - 2.0f * float(i) / 256.0f, bottom = 1.0f - 2.0f * float(i + 1) / 256.0f;
        CHECK(a[i].z <= top + 1e-6f);
        CHECK(a[i].z >= bottom - 1e-6f);
        mean += a[i];
    }
    CHECK(length(mean / 256.0f) < 0.02f);  // balanced over the sphere
}

TEST_CASE("ambient cube sides at the centre of a lit cube have their analytic values", "[rebake]") {
    const std::array<std::array<uint8_t, 3>, 6> walls{{{64, 8, 0}, {32, 96, 16}, {80, 0, 40},
                                                       {0, 48, 120}, {24, 24, 24}, {100, 60, 20}}};
    const int rays = 2048;
    const CubeRoom room = withCentreCube(makeCubeRoom(walls));
    const RebakeResult r = rebake(room, rays);
    REQUIRE(r.values.kind == ProbeKind::Cubes);
    REQUIRE(r.values.cubes.size() == 1);
    CHECK(r.stats.rays == uint64_t(rays));
    CHECK(r.stats.hits == uint64_t(rays));  // closed room: every ray meets a wall's front
    for (int side = 0; side < 6; ++side)
        for (int c = 0; c < 3; ++c) {
            const Expect e = expectedSide(walls, side, c, rays);
            INFO("side " << side << " channel " << c << " expected " << e.value << " +- " << e.tolerance);
            CHECK(std::abs(double(r.values.cubes[0][size_t(side)][c]) - e.value) <= e.tolerance);
        }
}

TEST_CASE("a wall twice as bright doubles the cube side facing it when it is the only light", "[rebake]") {
    std::array<std::array<uint8_t, 3>, 6> walls{};
    walls[3] = {40, 40, 40};  // east wall only: light from +X
    const RebakeResult once = rebake(withCentreCube(makeCubeRoom(walls)), 512);
    walls[3] = {80, 80, 80};
    const RebakeResult twice = rebake(withCentreCube(makeCubeRoom(walls)), 512);
    const float single = once.values.cubes[0][0].x;
    CHECK(single == Approx(kFacing * linear(40)).margin(expectedSide(walls, 0, 0, 512).tolerance));
    CHECK(twice.values.cubes[0][0].x == Approx(2.0 * single).epsilon(1e-5));
    CHECK(once.values.cubes[0][1].x == 0.0f);  // nothing lit behind
}

TEST_CASE("surface reflectivity multiplies the light a ray brings back", "[rebake]") {
    std::array<std::array<uint8_t, 3>, 6> walls;
    for (auto& w : walls) w = {50, 50, 50};
    CubeRoom room = withCentreCube(makeCubeRoom(walls));
    for (Material& m : room.world.materials) m.reflectivity = {0.5f, 0.25f, 1.0f};
    const RebakeResult r = rebake(room, 256);
    for (int side = 0; side < 6; ++side) {
        CHECK(r.values.cubes[0][size_t(side)].x == Approx(0.5 * linear(50)).epsilon(1e-4));
        CHECK(r.values.cubes[0][size_t(side)].y == Approx(0.25 * linear(50)).epsilon(1e-4));
        CHECK(r.values.cubes[0][size_t(side)].z == Approx(linear(50)).epsilon(1e-4));
    }
}

TEST_CASE("Quake 3 grid: a uniform room gives pure ambient, a brighter ceiling gives light from above", "[rebake]") {
    std::array<std::array<uint8_t, 3>, 6> walls;
    for (auto& w : walls) w = {40, 40, 40};
    SECTION("uniform") {
        const RebakeResult r = rebake(makeCubeRoom(walls), 1024);
        REQUIRE(r.values.kind == ProbeKind::Grid);
        REQUIRE(r.status[kCentre] == ProbeStatus::Baked);
        CHECK(r.bakedAt[kCentre] == Vec3{0, 0, 128});
        const GridSample& s = r.values.grid[kCentre];
        // A uniform surround: every irradiance is the wall light, so nothing is directed.
        CHECK(s.ambient.x == Approx(linear(40)).epsilon(1e-4));
        CHECK(s.directed.x == Approx(0).margin(1e-4));
    }
    SECTION("ceiling twice as bright") {
        walls[1] = {80, 80, 80};
        const int rays = 4096;
        const RebakeResult r = rebake(makeCubeRoom(walls), rays);
        const GridSample& s = r.values.grid[kCentre];
        // Luminance-weighted mean direction: the ceiling's extra light, straight up.
        CHECK(s.direction.z > 0.99f);
        // ambient = E(-Z) = all walls' light L; directed = E(+Z) - E(-Z) = 0.554131 * L.
        const double l = linear(40);
        std::array<std::array<uint8_t, 3>, 6> w = walls;
        const double tol = expectedSide(w, 4, 0, rays).tolerance;
        CHECK(std::abs(s.ambient.x - l) <= tol);
        CHECK(std::abs(s.directed.x - kFacing * l) <= 2 * tol);
    }
}

TEST_CASE("Quake 3 grid points in walls are nudged out or kept as stored", "[rebake]") {
    std::array<std::array<uint8_t, 3>, 6> walls;
    for (auto& w : walls) w = {40, 40, 40};
    const CubeRoom room = makeCubeRoom(walls);
    const RebakeResult r = rebake(room, 64);
    const std::vector<Vec3> pos = probePositions(room.world);
    const ProbeValues stored = storedProbes(room.world);
    size_t solid = 0;
    for (size_t i = 0; i < r.status.size(); ++i) {
        const int32_t leaf = findLeaf(room.world, r.bakedAt[i]);
        if (r.status[i] == ProbeStatus::Solid) {
            ++solid;
            CHECK(r.values.grid[i].ambient == stored.grid[i].ambient);  // untouched
        } else {
            // Wherever a point was baked, it was in open space, within half a cell of its grid point.
            REQUIRE(leaf >= 0);
            CHECK(room.world.leaves[size_t(leaf)].cluster >= 0);
            const Vec3 d = r.bakedAt[i] - pos[i];
            CHECK(std::abs(d.x) <= 32.0f);
            CHECK(std::abs(d.z) <= 64.0f);
        }
    }
    CHECK(r.stats.solid == solid);
    CHECK(r.stats.baked + r.stats.nudged + r.stats.solid == r.status.size());
    CHECK(r.stats.nudged > 0);  // the points on the walls and corners
}

TEST_CASE("rebaking gives the same bytes on 1 and 2 threads", "[rebake]") {
    std::array<std::array<uint8_t, 3>, 6> walls{{{64, 8, 0}, {32, 96, 16}, {80, 0, 40},
                                                 {0, 48, 120}, {24, 24, 24}, {100, 60, 20}}};
    const CubeRoom room = makeCubeRoom(walls);
    RebakeResult one, two;
    tbb::task_arena(1).execute([&] { one = rebake(room, 128); });
    tbb::task_arena(2).execute([&] { two = rebake(room, 128); });
    REQUIRE(one.values.grid.size() == two.values.grid.size());
    for (size_t i = 0; i < one.values.grid.size(); ++i) {
        CHECK(one.values.grid[i].ambient == two.values.grid[i].ambient);
        CHECK(one.values.grid[i].directed == two.values.grid[i].directed);
        CHECK(one.values.grid[i].direction == two.values.grid[i].direction);
    }
}

TEST_CASE("probe comparison figures on hand-made values", "[rebake]") {
    ProbeValues a, b;
    a.kind = b.kind = ProbeKind::Cubes;
    AmbientCube unit, half;
    for (auto& s : unit) s = {1, 1, 1};
    for (auto& s : half) s = {0.5f, 0.5f, 0.5f};
    a.cubes = {unit, unit, unit, unit};
    b.cubes = {unit, unit, half, half};
    const ProbeComparison c = compareProbes(a, b, {});
    CHECK(c.points == 4);
    CHECK(c.relativeCount == 24);
    CHECK(c.medianRelative == Approx(0.0));   // 12 of 24 sides exact (nearest rank)
    CHECK(c.p90Relative == Approx(0.5));
    CHECK(c.rmseAmbient[0] == Approx(std::sqrt(0.25 / 2)));  // half the values off by 0.5
    const ProbeComparison masked = compareProbes(a, b, {true, true, false, false});
    CHECK(masked.points == 2);
    CHECK(masked.skipped == 2);
    CHECK(masked.p90Relative == Approx(0.0));
    ProbeValues g;
    g.kind = ProbeKind::Grid;
    CHECK_THROWS_AS(compareProbes(a, g, {}), UsageError);
}

TEST_CASE("rebaked Source ambient cubes land near vrad's stored values", "[rebake][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    for (const char* name : {"source/sdk2013ce_sdk_vehicles_v20.bsp", "source/sdk2013_sdk_vehicles_v19.bsp",
                             "source/sdk2013pr_ss_hl2_level_1_v20.bsp", "source/lanofdoom_$2000$_csgo_v21.bsp",
                             "source/bsptool_tf2_test2.bsp"}) {
        const std::string path = *test::sharedMaps() + "/" + name;
        World world = decodeMap(openMapPath(path));
        if (probeKind(world) != ProbeKind::Cubes) continue;
        const Geometry geometry = tessellate(world);
        const RayScene scene(world, geometry);
        RebakeOptions o;
        o.rays = 128;
        const RebakeResult r = rebakeProbes(world, geometry, scene, o);
        const ProbeComparison c = compareProbes(storedProbes(world), r.values, {});
        WARN(name << ": " << c.points << " cubes, relative luminance error median " << c.medianRelative << ", p90 "
                  << c.p90Relative << ", mean luminance stored " << c.meanReference << " rebaked " << c.meanCompared);
        // vrad gathers the same lightmaps: a median off by half or more means a decoding or units error.
        CHECK(c.medianRelative < 0.5);
        CHECK(c.relativeCount > 0);
    }
}

TEST_CASE("with textures, Quake 3 surfaces bounce their texture's mean colour", "[rebake]") {
    std::array<std::array<uint8_t, 3>, 6> walls;
    for (auto& w : walls) w = {50, 50, 50};
    const CubeRoom room = withCentreCube(makeCubeRoom(walls));
    // A 2x2 texture whose mean is (128, 64, 255) / 255 (its 1x1 mip).
    RgbaImage img;
    img.width = img.height = 2;
    img.rgba = {128, 0, 255, 255, 128, 128, 255, 255, 128, 64, 255, 255, 128, 64, 255, 255};
    MaterialSet m;
    m.textures.push_back(std::make_shared<const Texture>(makeTexture("wall", img)));
    m.looks.resize(room.world.materials.size());
    for (SurfaceLook& l : m.looks) l.texture = 0;
    RayScene scene(room.world, room.geometry);
    RebakeOptions o;
    o.rays = 64;
    o.materials = &m;
    const RebakeResult r = rebakeProbes(room.world, room.geometry, scene, o);
    for (int side = 0; side < 6; ++side) {
        CHECK(r.values.cubes[0][size_t(side)].x == Approx(128 / 255.0 * linear(50)).epsilon(1e-4));
        CHECK(r.values.cubes[0][size_t(side)].y == Approx(64 / 255.0 * linear(50)).epsilon(1e-4));
        CHECK(r.values.cubes[0][size_t(side)].z == Approx(linear(50)).epsilon(1e-4));
    }
}

TEST_CASE("the default sky light is light_environment's ambient as vrad reads it", "[rebake]") {
    auto sky = [](std::vector<std::pair<std::string, std::string>> keys, bool hdr) {
        World w;
        w.hdrLighting = hdr;
        keys.insert(keys.begin(), {"classname", "light_environment"});
        w.entities.push_back({{{"classname", "worldspawn"}}});
        w.entities.push_back({keys});
        return defaultSkyLight(w);
    };
    auto same = [](Vec3 a, Vec3 b) { return std::abs(a.x - b.x) < 1e-6f && std::abs(a.y - b.y) < 1e-6f && std::abs(a.z - b.z) < 1e-6f; };
    const float half = float(std::pow(128.0 / 255.0, 2.2));  // gamma 2.2 colour byte 128
    // "r g b brightness": (c / 255)^2.2 * brightness / 255.
    CHECK(same(sky({{"_ambient", "255 128 0 200"}}, false), {200 / 255.0f, half * 200 / 255.0f, 0}));
    CHECK(same(sky({{"_ambient", "255 255 255"}}, false), {1, 1, 1}));  // no brightness: 255
    // HDR: _ambientHDR when set, times _AmbientScaleHDR; "-1 -1 -1 1" means not set.
    CHECK(same(sky({{"_ambient", "255 255 255 200"}, {"_ambientHDR", "255 255 255 100"}, {"_AmbientScaleHDR", "0.5"}}, true),
               Vec3{50, 50, 50} / 255.0f));
    CHECK(same(sky({{"_ambient", "255 255 255 200"}, {"_ambientHDR", "-1 -1 -1 1"}, {"_AmbientScaleHDR", "0.5"}}, true),
               Vec3{100, 100, 100} / 255.0f));
    CHECK(same(sky({{"_ambient", "255 255 255 200"}, {"_ambientHDR", "255 255 255 100"}}, false), Vec3{200, 200, 200} / 255.0f));
    // Two 4-tuples: the second is the HDR one.
    CHECK(same(sky({{"_ambient", "255 0 0 100 0 255 0 50"}}, false), {100 / 255.0f, 0, 0}));
    CHECK(same(sky({{"_ambient", "255 0 0 100 0 255 0 50"}}, true), {0, 50 / 255.0f, 0}));
    // No ambient: half the sun (HDR: _lightHDR when set, scaled by _lightscaleHDR).
    CHECK(same(sky({{"_light", "255 255 255 200"}}, false), Vec3{100, 100, 100} / 255.0f));
    CHECK(same(sky({{"_light", "255 255 255 200"}, {"_lightHDR", "255 255 255 40"}, {"_lightscaleHDR", "2"}}, true),
               Vec3{40, 40, 40} / 255.0f));
    CHECK(same(sky({{"_light", "255 255 255 200"}, {"_lightHDR", "-1 -1 -1 1"}, {"_lightscaleHDR", "2"}}, true),
               Vec3{200, 200, 200} / 255.0f));
    CHECK(same(sky({}, false), {0, 0, 0}));
    World none;
    CHECK(same(defaultSkyLight(none), {0, 0, 0}));
}
