// Light grid and ambient cube sampling, checked on hand-built grids, cubes and BSP trees whose answers
// follow from the engine formulas by hand; grid render mode on synthetic Quake 3 rooms; real maps.
#include <catch2/catch.hpp>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>

#include "luxel/bsp/decode.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/light/light_grid.hpp"
#include "luxel/render/render.hpp"
#include "luxel/util/error.hpp"
#include "luxel/vis/visibility.hpp"
#include "support/decode_helpers.hpp"
#include "support/q3_writer.hpp"
#include "support/render_fixtures.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

// 3 x 2 x 2 points, origin (10, 20, 30), the default Quake 3 cell. Point i has ambient (1 + i, 2 + i, 3 + i) / 10,
// directed (i, 2i, 3i) / 20, and a direction turning with i in the xy plane and tilted up.
LightGrid smallGrid() {
    LightGrid g;
    g.origin = {10, 20, 30};
    g.cellSize = {64, 64, 128};
    g.dims = {3, 2, 2};
    for (int i = 0; i < 12; ++i) {
        const float fi = float(i);
        GridSample s;
        s.ambient = Vec3{1 + fi, 2 + fi, 3 + fi} * 0.1f;
        s.directed = Vec3{fi, 2 * fi, 3 * fi} * 0.05f;
        const float a = 0.5f * fi;
        s.direction = normalize(Vec3{std::cos(a), std::sin(a), 1.0f});
        g.samples.push_back(s);
    }
    return g;
}

size_t indexOf(const LightGrid& g, int i, int j, int k) {
    return (size_t(k) * size_t(g.dims[1]) + size_t(j)) * size_t(g.dims[0]) + size_t(i);
}

void checkNear(Vec3 a, Vec3 b, float eps = 1e-5f) {
    CHECK(a.x == Approx(b.x).margin(eps));
    CHECK(a.y == Approx(b.y).margin(eps));
    CHECK(a.z == Approx(b.z).margin(eps));
}

void checkSample(const GridSample& got, const GridSample& want) {
    checkNear(got.ambient, want.ambient);
    checkNear(got.directed, want.directed);
    checkNear(got.direction, want.direction);
}

}  // namespace

TEST_CASE("grid points sit at origin + (i, j, k) * cell, x fastest", "[light_grid]") {
    const LightGrid g = smallGrid();
    CHECK(gridPointPosition(g, 0) == Vec3{10, 20, 30});
    CHECK(gridPointPosition(g, 1) == Vec3{74, 20, 30});
    CHECK(gridPointPosition(g, 3) == Vec3{10, 84, 30});
    CHECK(gridPointPosition(g, 6) == Vec3{10, 20, 158});
    CHECK(gridPointPosition(g, 11) == Vec3{138, 84, 158});
}

TEST_CASE("sampleGrid: grid points exactly, midpoints averaged", "[light_grid]") {
    const LightGrid g = smallGrid();
    // At a point every other corner has weight 0: the point's own values, unchanged.
    for (size_t i = 0; i < g.samples.size(); ++i) {
        const GridSample s = sampleGrid(g, gridPointPosition(g, i));
        CHECK(s.ambient == g.samples[i].ambient);
        CHECK(s.directed == g.samples[i].directed);
        checkNear(s.direction, g.samples[i].direction);
    }
    // Half way between (0,0,0) and (1,0,0): the mean; the direction is the normalised sum.
    const GridSample& a = g.samples[indexOf(g, 0, 0, 0)];
    const GridSample& b = g.samples[indexOf(g, 1, 0, 0)];
    checkSample(sampleGrid(g, {42, 20, 30}),
                {(a.ambient + b.ambient) * 0.5f, (a.directed + b.directed) * 0.5f, normalize(a.direction + b.direction)});
    // A quarter of the way up in z between (2,1,0) and (2,1,1).
    const GridSample& c = g.samples[indexOf(g, 2, 1, 0)];
    const GridSample& d = g.samples[indexOf(g, 2, 1, 1)];
    checkSample(sampleGrid(g, {138, 84, 30 + 32}),
                {c.ambient * 0.75f + d.ambient * 0.25f, c.directed * 0.75f + d.directed * 0.25f,
                 normalize(c.direction * 0.75f + d.direction * 0.25f)});
}

TEST_CASE("sampleGrid skips corners inside walls and renormalises the rest", "[light_grid]") {
    LightGrid g = smallGrid();
    // Point (1,0,0) in a wall: zero ambient; its directed light and direction must not leak in.
    GridSample& wall = g.samples[indexOf(g, 1, 0, 0)];
    wall.ambient = {0, 0, 0};
    wall.directed = {100, 100, 100};
    wall.direction = {-1, 0, 0};
    checkSample(sampleGrid(g, {42, 20, 30}), g.samples[0]);  // the only other corner, at full weight

    // The centre of cell (0..1, 0..1, 0..1): 7 corners left of 8, each weight 1/8 -> 1/7.
    Vec3 amb, dir, sumDir;
    for (int k = 0; k < 2; ++k)
        for (int j = 0; j < 2; ++j)
            for (int i = 0; i < 2; ++i) {
                if (i == 1 && j == 0 && k == 0) continue;
                const GridSample& s = g.samples[indexOf(g, i, j, k)];
                amb += s.ambient;
                dir += s.directed;
                sumDir += s.direction;
            }
    checkSample(sampleGrid(g, {42, 52, 94}), {amb * (1.0f / 7.0f), dir * (1.0f / 7.0f), normalize(sumDir)});

    // Every corner in a wall: nothing.
    for (GridSample& s : g.samples) s.ambient = {0, 0, 0};
    const GridSample none = sampleGrid(g, {42, 52, 94});
    CHECK(none.ambient == Vec3{0, 0, 0});
    CHECK(none.directed == Vec3{0, 0, 0});
    CHECK(none.direction == Vec3{0, 0, 0});
}

TEST_CASE("sampleGrid clamps points outside the grid to its boundary", "[light_grid]") {
    const LightGrid g = smallGrid();
    checkSample(sampleGrid(g, {-1000, -1000, -1000}), g.samples[0]);
    checkSample(sampleGrid(g, {1000, 1000, 1000}), g.samples[11]);
    // Below the origin in x only: as if on the x = origin face; half way between points (0,0,0) and (0,1,0).
    const GridSample& a = g.samples[indexOf(g, 0, 0, 0)];
    const GridSample& b = g.samples[indexOf(g, 0, 1, 0)];
    checkSample(sampleGrid(g, {-37.5f, 52, 30}),
                {(a.ambient + b.ambient) * 0.5f, (a.directed + b.directed) * 0.5f, normalize(a.direction + b.direction)});
    // Past the last point in y, between points (1,1,0) and (1,1,1) in z.
    const GridSample& c = g.samples[indexOf(g, 1, 1, 0)];
    const GridSample& d = g.samples[indexOf(g, 1, 1, 1)];
    checkSample(sampleGrid(g, {74, 500, 94}),
                {(c.ambient + d.ambient) * 0.5f, (c.directed + d.directed) * 0.5f, normalize(c.direction + d.direction)});
    // NaN positions and a grid whose sample count disagrees with its dims do not crash.
    const float nan = std::numeric_limits<float>::quiet_NaN();
    CHECK(isFinite(sampleGrid(g, {nan, nan, nan}).ambient));
    LightGrid bad = g;
    bad.samples.pop_back();
    CHECK(sampleGrid(bad, {42, 20, 30}).ambient == Vec3{0, 0, 0});
}

TEST_CASE("grid light is ambient + directed * max(0, n . dir)", "[light_grid]") {
    GridSample s{{0.1f, 0.2f, 0.3f}, {1.0f, 0.5f, 0.25f}, {0, 0, 1}};
    checkNear(evalGridSample(s, {0, 0, 1}), {1.1f, 0.7f, 0.55f});
    checkNear(evalGridSample(s, {0, 0, -1}), {0.1f, 0.2f, 0.3f});  // facing away: ambient only
    checkNear(evalGridSample(s, {1, 0, 0}), {0.1f, 0.2f, 0.3f});
    const float c60 = 0.5f;  // cos 60 degrees
    checkNear(evalGridSample(s, {std::sqrt(3.0f) / 2, 0, c60}), {0.1f + c60, 0.2f + 0.5f * c60, 0.3f + 0.25f * c60});
}

TEST_CASE("evalCube weighs each axis's side by the normal component squared", "[light_grid]") {
    AmbientCube cube;
    for (size_t i = 0; i < 6; ++i) cube[i] = Vec3{float(i + 1), float(10 * (i + 1)), float(100 * (i + 1))};
    checkNear(evalCube(cube, {1, 0, 0}), cube[0]);
    checkNear(evalCube(cube, {-1, 0, 0}), cube[1]);
    checkNear(evalCube(cube, {0, -1, 0}), cube[3]);
    checkNear(evalCube(cube, {0, 0, -1}), cube[5]);
    checkNear(evalCube(cube, normalize({1, 1, 0})), (cube[0] + cube[2]) * 0.5f, 1e-4f);
    // (-1, 2, -2) / 3: 1/9 of -X, 4/9 of +Y, 4/9 of -Z.
    checkNear(evalCube(cube, Vec3{-1, 2, -2} * (1.0f / 3.0f)), cube[1] * (1.0f / 9) + cube[2] * (4.0f / 9) + cube[5] * (4.0f / 9),
              1e-3f);
}

namespace {

// A four-leaf BSP: plane x = 0 splits the world; x > 0 is split by y = 0 into leaf A (y > 0) and leaf B
// (y < 0); x < 0 is split by x = -300 into leaf C (cluster 2, no samples) and leaf D (x < -300, solid).
// A holds samples 0 and 1, B samples 2 and 3.
World cubeWorld() {
    World w;
    w.format = MapFormat::Source;
    w.planes = {{{1, 0, 0}, 0}, {{0, 1, 0}, 0}, {{1, 0, 0}, -300}};
    Node root{0, {1, 2}, {-600, -200, -100}, {200, 200, 100}};
    Node right{1, {-1, -2}, {0, -200, -100}, {200, 200, 100}};
    Node left{2, {-3, -4}, {-600, -200, -100}, {0, 200, 100}};
    w.nodes = {root, right, left};
    auto leaf = [](int32_t cluster, Vec3 mins, Vec3 maxs) {
        Leaf l;
        l.cluster = cluster;
        l.mins = mins;
        l.maxs = maxs;
        return l;
    };
    w.leaves = {leaf(0, {0, 0, -100}, {200, 200, 100}), leaf(1, {0, -200, -100}, {200, 0, 100}),
                leaf(2, {-300, -200, -100}, {0, 200, 100}), leaf(-1, {-600, -200, -100}, {-300, 200, 100})};
    auto sample = [](Vec3 p, float v) {
        AmbientSample s;
        s.position = p;
        for (size_t i = 0; i < 6; ++i) s.sides[i] = Vec3{v, v * float(i + 1), 1.0f};
        return s;
    };
    // C's centre is (-150, 0, 0): sample 2 in B, 155 units away, is nearer than A's (about 160 and 164).
    w.ambientSamples = {sample({10, 10, 0}, 1), sample({13, 14, 0}, 3), sample({5, -2, 0}, 5),
                        sample({190, -190, 0}, 7)};
    w.leafAmbient = {{0, 2}, {2, 2}, {0, 0}, {0, 0}};
    return w;
}

}  // namespace

TEST_CASE("sampleCubes blends the leaf's samples by 1 / (1 + d^2)", "[light_grid]") {
    const World w = cubeWorld();
    REQUIRE(probeKind(w) == ProbeKind::Cubes);
    const ProbeSampler sampler = makeProbeSampler(w);
    REQUIRE(sampler.sampleLeaf.size() == 4);
    CHECK(sampler.sampleLeaf[0] == 0);
    CHECK(sampler.sampleLeaf[1] == 1);
    CHECK(sampler.sampleLeaf[2] == 1);   // borrows from B, owner of the sample nearest its centre
    CHECK(sampler.sampleLeaf[3] == -1);  // solid: none

    // (10, 11, 0) in A: d^2 = 1 to sample 0 (weight 1/2) and 9 + 9 = 18 to sample 1 (weight 1/19).
    const float w0 = 0.5f, w1 = 1.0f / 19.0f;
    const AmbientCube a = sampleCubes(sampler, {10, 11, 0});
    for (size_t i = 0; i < 6; ++i)
        checkNear(a[i], (w.ambientSamples[0].sides[i] * w0 + w.ambientSamples[1].sides[i] * w1) * (1.0f / (w0 + w1)));

    // (-100, 0, 0) in C, lit by B's samples: d^2 = 105^2 + 2^2 = 11029 and 290^2 + 190^2 = 120200.
    const float w2 = 1.0f / 11030.0f, w3 = 1.0f / 120201.0f;
    const AmbientCube c = sampleCubes(sampler, {-100, 0, 0});
    for (size_t i = 0; i < 6; ++i)
        checkNear(c[i], (w.ambientSamples[2].sides[i] * w2 + w.ambientSamples[3].sides[i] * w3) * (1.0f / (w2 + w3)));

    // Solid leaf D: a zero cube, and black light.
    for (const Vec3& side : sampleCubes(sampler, {-400, 0, 0})) CHECK(side == Vec3{0, 0, 0});
    CHECK(probeLight(sampler, {-400, 0, 0}, {0, 0, 1}) == Vec3{0, 0, 0});
    // probeLight = evalCube of the blended cube.
    checkNear(probeLight(sampler, {10, 11, 0}, {0, 0, -1}), a[5]);
}

TEST_CASE("a sample at the query point does not divide by zero", "[light_grid]") {
    const World w = cubeWorld();
    const ProbeSampler sampler = makeProbeSampler(w);
    // d = 0 to sample 0 (weight 1), d^2 = 25 to sample 1 (weight 1/26).
    const AmbientCube a = sampleCubes(sampler, {10, 10, 0});
    const float w1 = 1.0f / 26.0f;
    for (size_t i = 0; i < 6; ++i)
        checkNear(a[i], (w.ambientSamples[0].sides[i] + w.ambientSamples[1].sides[i] * w1) * (1.0f / (1.0f + w1)));
}

TEST_CASE("probe values: kinds, positions, applying", "[light_grid]") {
    World none;
    CHECK(probeKind(none) == ProbeKind::None);
    CHECK(storedProbes(none).size() == 0);
    CHECK(probePositions(none).empty());
    CHECK(probeLight(makeProbeSampler(none), {0, 0, 0}, {0, 0, 1}) == Vec3{0, 0, 0});
    CHECK_THROWS_AS(applyProbes(none, ProbeValues{}), UsageError);

    World grid;
    grid.grid = smallGrid();
    REQUIRE(probeKind(grid) == ProbeKind::Grid);
    ProbeValues v = storedProbes(grid);
    REQUIRE(v.kind == ProbeKind::Grid);
    REQUIRE(v.size() == 12);
    const std::vector<Vec3> positions = probePositions(grid);
    REQUIRE(positions.size() == 12);
    CHECK(positions[10] == Vec3{74, 84, 158});
    v.grid[3].ambient = {9, 9, 9};
    applyProbes(grid, v);
    CHECK(grid.grid->samples[3].ambient == Vec3{9, 9, 9});
    v.grid.pop_back();
    CHECK_THROWS_AS(applyProbes(grid, v), UsageError);

    World cubes = cubeWorld();
    ProbeValues c = storedProbes(cubes);
    REQUIRE(c.kind == ProbeKind::Cubes);
    REQUIRE(c.size() == 4);
    CHECK(probePositions(cubes)[2] == Vec3{5, -2, 0});
    c.cubes[1][4] = {2, 3, 4};
    applyProbes(cubes, c);
    CHECK(cubes.ambientSamples[1].sides[4] == Vec3{2, 3, 4});
    CHECK(cubes.ambientSamples[1].position == Vec3{13, 14, 0});  // positions stay
    CHECK_THROWS_AS(applyProbes(cubes, v), UsageError);           // grid values for a cube map
}

TEST_CASE("the grid render mode parses and names", "[light_grid]") {
    CHECK(parseRenderMode("grid") == RenderMode::Grid);
    CHECK(std::string(renderModeName(RenderMode::Grid)) == "grid");
}

namespace {

RenderOptions gridOptions() {
    RenderOptions o;
    o.mode = RenderMode::Grid;
    o.look = Look::Linear;
    return o;
}

}  // namespace

TEST_CASE("grid mode lights each wall by ambient + directed * max(0, n . dir)", "[light_grid]") {
    RoomOptions room;
    room.lightGrid = true;
    room.gridAmbient = {16, 24, 8};
    room.gridDirected = {64, 32, 48};
    room.gridAngles = {32, 64};  // polar 45 degrees from +Z, azimuth 90: dir = (0, 0.7071, 0.7071)
    World world = decodeBytes(makeRoomMap(room).build());
    REQUIRE(probeKind(world) == ProbeKind::Grid);
    Geometry geometry = tessellate(world);
    const Vec3 ambient{q3Linear(16), q3Linear(24), q3Linear(8)};
    const Vec3 directed{q3Linear(64), q3Linear(32), q3Linear(48)};
    const float c45 = std::sqrt(0.5f);

    // Floor (normal +Z): cos 45.
    checkNear(pixelAt(renderFrame(world, geometry, roomCamera({90, 0, 0}), gridOptions()), 160, 90),
              ambient + directed * c45);
    // South wall y = -256, normal +Y (yaw -90 looks -Y): cos 45 as well.
    checkNear(pixelAt(renderFrame(world, geometry, roomCamera({0, -90, 0}), gridOptions()), 160, 90),
              ambient + directed * c45);
    // North wall (normal -Y), east wall (normal -X, perpendicular to dir) and ceiling (-Z): ambient alone.
    checkNear(pixelAt(renderFrame(world, geometry, roomCamera({0, 90, 0}), gridOptions()), 160, 90), ambient);
    checkNear(pixelAt(renderFrame(world, geometry, roomCamera({0, 0, 0}), gridOptions()), 160, 90), ambient);
    checkNear(pixelAt(renderFrame(world, geometry, roomCamera({-90, 0, 0}), gridOptions()), 160, 90), ambient);

    // The engine look (albedo 1): Quake 3 scales light over 2 down with its hue, then the display clamps.
    RoomOptions bright;
    bright.lightGrid = true;
    bright.gridAmbient = {200, 100, 50};  // linear 3.137, 1.569, 0.784
    bright.gridDirected = {0, 0, 0};
    World brightWorld = decodeBytes(makeRoomMap(bright).build());
    Geometry brightGeometry = tessellate(brightWorld);
    RenderOptions engine = gridOptions();
    engine.look = Look::Engine;
    // x 2 / 3.137 -> (2, 1, 0.5), clamped for display -> (1, 1, 0.5).
    checkNear(pixelAt(renderFrame(brightWorld, brightGeometry, roomCamera({90, 0, 0}), engine), 160, 90), {1, 1, 0.5f});
}

TEST_CASE("grid mode: sky keeps the sky colour, a map without probes is black", "[light_grid]") {
    RoomOptions sky;
    sky.lightGrid = true;
    sky.textureFlags = kQ3SurfSky;
    World skyWorld = decodeBytes(makeRoomMap(sky).build());
    Geometry skyGeometry = tessellate(skyWorld);
    RenderOptions o = gridOptions();
    o.skyColor = {0.25f, 0.5f, 0.75f};
    checkNear(pixelAt(renderFrame(skyWorld, skyGeometry, roomCamera({0, 0, 0}), o), 160, 90), o.skyColor);

    World plain = decodeBytes(makeRoomMap().build());
    REQUIRE(probeKind(plain) == ProbeKind::None);
    Geometry plainGeometry = tessellate(plain);
    o.background = {1, 0, 1};  // so black is the surfaces, not the empty frame
    FrameStats stats;
    const Image img = renderFrame(plain, plainGeometry, roomCamera({90, 0, 0}), o, &stats);
    CHECK(stats.pixelsCovered == size_t(320) * 180);
    for (auto [x, y] : {std::pair{0, 0}, {160, 90}, {319, 179}}) CHECK(pixelAt(img, x, y) == Vec3{0, 0, 0});
}

TEST_CASE("grid mode gives the same bytes at 1, 2 and 8 threads, with or without a shared sampler", "[light_grid]") {
    RoomOptions room;
    room.lightGrid = true;
    World world = decodeBytes(makeRoomMap(room).build());
    REQUIRE(world.grid);
    // A grid that varies from point to point, so each pixel blends different corners.
    for (size_t i = 0; i < world.grid->samples.size(); ++i) {
        GridSample& s = world.grid->samples[i];
        s.ambient = Vec3{float(i % 7), float(i % 5), float(i % 3)} * 0.1f;
        s.directed = Vec3{float(i % 4), float(i % 6), float(i % 2)} * 0.2f;
        s.direction = normalize(Vec3{std::cos(float(i)), std::sin(float(i)), 0.5f});
    }
    Geometry geometry = tessellate(world);
    Camera camera = roomCamera({20, 35, 0});
    RenderOptions o = gridOptions();
    o.spp = 2;
    tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 8);
    Image ref;
    for (int threads : {1, 2, 8}) {
        tbb::task_arena arena(threads);
        Image img;
        arena.execute([&] { img = renderFrame(world, geometry, camera, o); });
        if (threads == 1) {
            ref = img;
            continue;
        }
        REQUIRE(img.pixels.size() == ref.pixels.size());
        CHECK(std::memcmp(img.pixels.data(), ref.pixels.data(), img.pixels.size() * sizeof(float)) == 0);
    }
    const ProbeSampler shared = makeProbeSampler(world);
    o.probes = &shared;
    const Image withShared = renderFrame(world, geometry, camera, o);
    CHECK(std::memcmp(withShared.pixels.data(), ref.pixels.data(), ref.pixels.size() * sizeof(float)) == 0);
    // Not a uniform picture: the grid's variation shows.
    CHECK_FALSE(pixelAt(ref, 10, 10) == pixelAt(ref, 300, 170));
}

namespace {

double meanOf(const Image& img) {
    double sum = 0;
    for (float v : img.pixels) sum += double(v);
    return img.pixels.empty() ? 0 : sum / double(img.pixels.size());
}

// Nearest usable sample to q by brute force (ties: lowest index), its owner leaf.
int32_t bruteBorrow(const World& w, const std::vector<int32_t>& owner, Vec3 q) {
    float best = std::numeric_limits<float>::infinity();
    int32_t leaf = -1;
    for (size_t k = 0; k < w.ambientSamples.size(); ++k) {
        if (owner[k] < 0) continue;
        const Vec3 d = w.ambientSamples[k].position - q;
        if (dot(d, d) < best) {
            best = dot(d, d);
            leaf = owner[k];
        }
    }
    return leaf;
}

}  // namespace

TEST_CASE("real maps: probe lists agree, grid points sample to themselves, grid mode is lit", "[light_grid][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    {
        World w = decodeMap(openMapPath(*sharedMaps() + "/q3/oa085_ctf_compromise.bsp"));
        REQUIRE(probeKind(w) == ProbeKind::Grid);
        const LightGrid& g = *w.grid;
        CHECK(probePositions(w).size() == storedProbes(w).size());
        CHECK(storedProbes(w).size() == size_t(g.dims[0]) * size_t(g.dims[1]) * size_t(g.dims[2]));
        // Every lit grid point, sampled at its own position, gives back its own values.
        size_t lit = 0;
        for (size_t i = 0; i < g.samples.size(); i += 7) {
            const GridSample& s = g.samples[i];
            if (s.ambient == Vec3{0, 0, 0}) continue;
            ++lit;
            const GridSample got = sampleGrid(g, gridPointPosition(g, i));
            CHECK(got.ambient == s.ambient);
            CHECK(got.directed == s.directed);
        }
        CHECK(lit > 100);
        Geometry geometry = tessellate(w);
        RenderOptions o;
        o.mode = RenderMode::Grid;
        const Image img = renderFrame(w, geometry, cameraFromSpec(w, "spawn", 320, 180), o);
        CHECK(meanOf(img) > 0.05);
    }
    {
        World w = decodeMap(openMapPath(*sharedMaps() + "/source/sdk2013ce_sdk_vehicles_v20.bsp"));
        REQUIRE(probeKind(w) == ProbeKind::Cubes);
        CHECK(probePositions(w).size() == storedProbes(w).size());
        CHECK(storedProbes(w).size() == w.ambientSamples.size());
        // The sampler's borrowed leaves match a brute-force nearest-sample search; every leaf in a
        // cluster has samples to use.
        const ProbeSampler sampler = makeProbeSampler(w);
        std::vector<int32_t> owner(w.ambientSamples.size(), -1);
        for (size_t i = 0; i < w.leafAmbient.size(); ++i)
            for (uint32_t k = w.leafAmbient[i].first; k < w.leafAmbient[i].first + w.leafAmbient[i].second; ++k)
                owner[k] = int32_t(i);
        size_t borrowed = 0;
        for (size_t i = 0; i < w.leaves.size(); ++i) {
            if (w.leaves[i].cluster < 0 || w.leafAmbient[i].second > 0) continue;
            ++borrowed;
            const int32_t from = sampler.sampleLeaf[i];
            REQUIRE(from >= 0);
            CHECK(w.leafAmbient[size_t(from)].second > 0);
            CHECK(from == bruteBorrow(w, owner, (w.leaves[i].mins + w.leaves[i].maxs) * 0.5f));
        }
        INFO("leaves that borrow: " << borrowed);
        Geometry geometry = tessellate(w);
        RenderOptions o;
        o.mode = RenderMode::Grid;
        o.look = Look::Linear;
        const Image img = renderFrame(w, geometry, cameraFromSpec(w, "spawn", 320, 180), o);
        CHECK(meanOf(img) > 0.0);
    }
}
