// diffProbes on hand-built light grids and ambient cubes. Values are chosen as exact binary fractions
// (0.25, 0.5, 0.125 ...) so the expected figures follow by hand without rounding.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "luxel/diff/diff.hpp"
#include "luxel/util/error.hpp"

using namespace luxel;

namespace {

const Vec3 kAmbient{0.25f, 0.5f, 0.125f};
const Vec3 kDirected{0.5f, 0.5f, 0.5f};

// 4 x 3 x 2 = 24 points, origin 0, cells 64 x 64 x 128, every point the same light, direction +X.
World gridWorld() {
    World w;
    w.file = "grid.bsp";
    LightGrid g;
    g.origin = {0, 0, 0};
    g.cellSize = {64, 64, 128};
    g.dims = {4, 3, 2};
    g.samples.assign(24, GridSample{kAmbient, kDirected, {1, 0, 0}});
    w.grid = g;
    return w;
}

World cubesWorld() {
    World w;
    w.format = MapFormat::Source;
    w.file = "cubes.bsp";
    for (int k = 0; k < 3; ++k) {
        AmbientSample s;
        s.position = {float(10 * k), 5, 0};
        for (size_t i = 0; i < 6; ++i) s.sides[i] = Vec3{0.125f * float(k + 1), 0.0625f * float(i), 0.25f};
        w.ambientSamples.push_back(s);
    }
    return w;
}

void checkAllZero(const DiffStats& s) {
    CHECK(s.meanAbsLinear == 0);
    CHECK(s.rmsLinear == 0);
    CHECK(s.maxAbsLinear == 0);
    CHECK(s.meanAbsDisplay == 0);
    CHECK(s.rmsDisplay == 0);
    CHECK(s.maxAbsDisplay == 0);
    CHECK(std::isinf(s.psnrDisplay));
    CHECK(s.overWarn == 0);
    CHECK(s.overFail == 0);
    CHECK(s.overHardFail == 0);
}

}  // namespace

TEST_CASE("probe diff: a grid against itself is all zero", "[diff]") {
    const World a = gridWorld();
    const ProbeDiff d = diffProbes(a, a, DiffThresholds{});
    CHECK(d.kind == ProbeKind::Grid);
    CHECK(d.pointwise);
    CHECK(d.pointsA == 24);
    CHECK(d.pointsB == 24);
    CHECK(d.ambient.count == 24);
    CHECK(d.directed.count == 24);
    checkAllZero(d.ambient);
    checkAllZero(d.directed);
    CHECK(d.medianDirectionDeg == 0);
    CHECK(d.maxDirectionDeg == 0);
    CHECK(d.verdict == Verdict::Same);
    CHECK(d.worst.empty());
}

TEST_CASE("probe diff: one grid point's ambient changed is that point, with hand-computed figures", "[diff]") {
    const World a = gridWorld();
    World b = a;
    // Point 7 = (i 3, j 1, k 0): red 0.25 -> 0.75 (+0.5), green 0.5 -> 0.25 (-0.25).
    b.grid->samples[7].ambient = {0.75f, 0.25f, 0.125f};
    const ProbeDiff d = diffProbes(a, b, DiffThresholds{});
    CHECK(d.pointwise);
    REQUIRE(d.ambient.count == 24);
    // 24 points x 3 channels = 72 values; the absolute differences sum to 0.75, their squares to 0.3125.
    CHECK(d.ambient.maxAbsLinear == 0.5);
    CHECK(d.ambient.meanAbsLinear == Approx(0.75 / 72.0));
    CHECK(d.ambient.rmsLinear == Approx(std::sqrt(0.3125 / 72.0)));
    // Default look (no clamp, gamma 1): display = linear.
    CHECK(d.ambient.maxAbsDisplay == 0.5);
    CHECK(d.ambient.meanAbsDisplay == Approx(0.75 / 72.0));
    CHECK(d.ambient.psnrDisplay == Approx(20.0 * std::log10(1.0 / std::sqrt(0.3125 / 72.0))));
    CHECK(d.ambient.overFail == 1);
    CHECK(d.ambient.overWarn == 1);
    checkAllZero(d.directed);
    CHECK(d.verdict == Verdict::Fail);  // 1 of 24 over fail > 0% allowed
    REQUIRE(d.worst.size() == 1);
    CHECK(d.worst[0].index == 7);
    CHECK(d.worst[0].position == Vec3{192, 64, 0});
    CHECK(d.worst[0].maxAbsDisplay == 0.5);
    CHECK(d.worst[0].directionDeg == 0);

    // idiff's thresholds: 1 point of 24 is 4.17% of the values.
    DiffThresholds loose;
    loose.fail = 0.6;
    loose.warn = 0.4;
    CHECK(diffProbes(a, b, loose).verdict == Verdict::Warn);
    loose.fail = 0.1;
    loose.failPercent = 5;
    CHECK(diffProbes(a, b, loose).verdict == Verdict::Warn);
    loose.hardFail = 0.45;
    CHECK(diffProbes(a, b, loose).verdict == Verdict::Fail);
}

TEST_CASE("probe diff: display figures go through each build's engine look", "[diff]") {
    World a = gridWorld();
    a.look.gamma = 2.0f;
    World b = a;
    // Red 0.25 -> 0.36: linear +0.11, display sqrt: 0.5 -> 0.6, +0.1.
    b.grid->samples[3].ambient.x = 0.36f;
    ProbeDiff d = diffProbes(a, b, DiffThresholds{});
    CHECK(d.ambient.maxAbsLinear == Approx(0.11).margin(1e-6));
    CHECK(d.ambient.maxAbsDisplay == Approx(0.1).margin(1e-6));
    REQUIRE(d.worst.size() == 1);
    CHECK(d.worst[0].index == 3);

    // Hue clamp at 0.5, gamma 1: directed (0.5, 0.5, 0.5) stays (its largest channel is not over 0.5);
    // (1, 0.5, 0.5) is scaled as a whole to (0.5, 0.25, 0.25). Linear difference 0.5, display 0.25.
    World c = gridWorld();
    c.look.hueClampAt = 0.5f;
    World e = c;
    e.grid->samples[0].directed = {1.0f, 0.5f, 0.5f};
    d = diffProbes(c, e, DiffThresholds{});
    CHECK(d.directed.maxAbsLinear == 0.5);
    CHECK(d.directed.maxAbsDisplay == 0.25);
}

TEST_CASE("probe diff: a direction turned by 90 degrees at one point", "[diff]") {
    const World a = gridWorld();
    World b = a;
    b.grid->samples[5].direction = {0, 1, 0};
    // Point 6 is dark in both builds (directed light under 1% of A's mean): its direction is not measured,
    // even turned right round.
    World a2 = a;
    a2.grid->samples[6].directed = {0, 0, 0};
    b.grid->samples[6].directed = {0, 0, 0};
    b.grid->samples[6].direction = {-1, 0, 0};
    const ProbeDiff d = diffProbes(a2, b, DiffThresholds{});
    CHECK(d.maxDirectionDeg == Approx(90).margin(1e-3));
    CHECK(d.medianDirectionDeg == 0);  // 23 measured points, 22 of them unturned
    checkAllZero(d.ambient);
    checkAllZero(d.directed);
    CHECK(d.verdict == Verdict::Same);  // the angle does not decide the verdict
    REQUIRE(d.worst.size() == 1);
    CHECK(d.worst[0].index == 5);
    CHECK(d.worst[0].maxAbsDisplay == 0);
    CHECK(d.worst[0].directionDeg == Approx(90).margin(1e-3));
}

TEST_CASE("probe diff: grids of different shape are resampled at A's points", "[diff]") {
    // A: 4 x 3 x 2 points 64 x 64 x 128 apart. B: 3 x 2 x 2 points 128 apart over the same box, red growing
    // linearly with x in both (x / 512), so trilinear resampling reproduces A exactly.
    World a = gridWorld();
    for (size_t i = 0; i < a.grid->samples.size(); ++i)
        a.grid->samples[i].ambient.x = gridPointPosition(*a.grid, i).x / 512.0f;
    World b = a;
    b.grid->cellSize = {128, 128, 128};
    b.grid->dims = {3, 2, 2};
    b.grid->samples.assign(12, GridSample{kAmbient, kDirected, {1, 0, 0}});
    for (size_t i = 0; i < b.grid->samples.size(); ++i)
        b.grid->samples[i].ambient.x = gridPointPosition(*b.grid, i).x / 512.0f;

    ProbeDiff d = diffProbes(a, b, DiffThresholds{});
    CHECK_FALSE(d.pointwise);
    CHECK(d.pointsA == 24);
    CHECK(d.pointsB == 12);
    CHECK(d.ambient.count == 24);
    checkAllZero(d.ambient);
    checkAllZero(d.directed);
    CHECK(d.maxDirectionDeg == 0);
    CHECK(d.verdict == Verdict::Same);
    CHECK(d.worst.empty());

    // B's point (1, 0, 0) at x = 128 raised by 0.25 in red: A's points get 0.25 times their trilinear
    // weight on it, x weight 0.5 / 1 / 0.5 at x = 64 / 128 / 192, y weight 1 / 0.5 / 0 at y = 0 / 64 / 128,
    // z weight 1 at z = 0 only: sum 0.25 * 2 * 1.5 = 0.75 over 72 values; largest at A's (2, 0, 0).
    b.grid->samples[1].ambient.x += 0.25f;
    d = diffProbes(a, b, DiffThresholds{});
    CHECK_FALSE(d.pointwise);
    CHECK(d.ambient.maxAbsLinear == 0.25);
    CHECK(d.ambient.meanAbsLinear == Approx(0.75 / 72.0));
    CHECK(d.ambient.overFail == 6);
    REQUIRE(d.worst.size() == 6);
    CHECK(d.worst[0].index == 2);
    CHECK(d.worst[0].position == Vec3{128, 0, 0});
    CHECK(d.worst[0].maxAbsDisplay == 0.25);
    // Then the 0.125s in index order: (1,0,0), (3,0,0), (2,1,0); then the 0.0625s: (1,1,0), (3,1,0).
    CHECK(d.worst[1].index == 1);
    CHECK(d.worst[2].index == 3);
    CHECK(d.worst[3].index == 6);
    CHECK(d.worst[4].index == 5);
    CHECK(d.worst[5].index == 7);
    CHECK(d.worst[5].maxAbsDisplay == 0.0625);
}

TEST_CASE("probe diff: one ambient cube side changed is that sample", "[diff]") {
    const World a = cubesWorld();
    ProbeDiff d = diffProbes(a, a, DiffThresholds{});
    CHECK(d.kind == ProbeKind::Cubes);
    CHECK(d.pointwise);
    CHECK(d.ambient.count == 18);  // 3 samples x 6 sides
    checkAllZero(d.ambient);
    CHECK(d.directed.count == 0);
    CHECK(d.verdict == Verdict::Same);
    CHECK(d.worst.empty());

    World b = a;
    b.ambientSamples[1].sides[4].y += 0.25f;  // sample 1, +Z side, green
    d = diffProbes(a, b, DiffThresholds{});
    CHECK(d.pointwise);
    CHECK(d.ambient.count == 18);
    CHECK(d.ambient.maxAbsLinear == 0.25);
    CHECK(d.ambient.meanAbsLinear == Approx(0.25 / 54.0));  // 18 sides x 3 channels
    CHECK(d.ambient.rmsLinear == Approx(std::sqrt(0.0625 / 54.0)));
    CHECK(d.ambient.overFail == 1);
    CHECK(d.verdict == Verdict::Fail);
    REQUIRE(d.worst.size() == 1);
    CHECK(d.worst[0].index == 1);
    CHECK(d.worst[0].position == Vec3{10, 5, 0});
    CHECK(d.worst[0].maxAbsDisplay == 0.25);
}

TEST_CASE("probe diff: cubes at other positions are sampled from B's leaves", "[diff]") {
    // One leaf (a single node whose both sides are leaf 0) holding B's two samples; A has one sample with
    // sample 0's values at (1, 0, 0), where B has none. sampleCubes blends by 1 / (1 + d^2): weight 1/2 for
    // sample 0 (d = 1) and 1 / 10 for sample 1 (d = 3), so B at A's point is s0 + (s1 - s0) / 6.
    World b;
    b.format = MapFormat::Source;
    Leaf leaf;
    leaf.cluster = 0;
    leaf.mins = {-100, -100, -100};
    leaf.maxs = {100, 100, 100};
    b.leaves = {leaf};
    b.planes = {Plane{{1, 0, 0}, 1000}};
    b.nodes = {Node{0, {-1, -1}, {-100, -100, -100}, {100, 100, 100}}};
    AmbientSample s0, s1;
    s0.position = {0, 0, 0};
    s1.position = {4, 0, 0};
    for (size_t i = 0; i < 6; ++i) {
        s0.sides[i] = {0.25f, 0.25f, 0.25f};
        s1.sides[i] = {0.25f + 0.375f, 0.25f, 0.25f};
    }
    b.ambientSamples = {s0, s1};
    b.leafAmbient = {{0, 2}};
    World a = b;
    AmbientSample moved = s0;
    moved.position = {1, 0, 0};
    a.ambientSamples = {moved};
    a.leafAmbient = {{0, 1}};
    const ProbeDiff d = diffProbes(a, b, DiffThresholds{});
    CHECK_FALSE(d.pointwise);
    CHECK(d.matchedPoints == 0);
    CHECK(d.pointsA == 1);
    CHECK(d.pointsB == 2);
    CHECK(d.ambient.count == 6);
    CHECK(d.ambient.maxAbsLinear == Approx(0.375 / 6.0).margin(1e-6));
    REQUIRE(d.worst.size() == 1);
    CHECK(d.worst[0].index == 0);
}

TEST_CASE("probe diff: cube samples are matched by their leaf's bounds and position when leaves are renumbered", "[diff]") {
    // Two leaves split at x = 0, two samples each with different values. B stores the same leaves in the
    // other order, and their samples in the other order: every sample of A has its own stored twin in B.
    World a;
    a.format = MapFormat::Source;
    Leaf west, east;
    west.cluster = 0, east.cluster = 1;
    west.mins = {-100, -100, -100}, west.maxs = {0, 100, 100};
    east.mins = {0, -100, -100}, east.maxs = {100, 100, 100};
    a.leaves = {west, east};
    a.planes = {Plane{{1, 0, 0}, 0}};
    a.nodes = {Node{0, {-2, -1}, {-100, -100, -100}, {100, 100, 100}}};  // front (x > 0): leaf 1
    auto sample = [](Vec3 p, float v) {
        AmbientSample s;
        s.position = p;
        for (size_t i = 0; i < 6; ++i) s.sides[i] = {v, v * 0.5f, 0.125f * float(i)};
        return s;
    };
    a.ambientSamples = {sample({-50, 0, 0}, 0.25f), sample({-10, 0, 0}, 0.75f), sample({50, 0, 0}, 1.0f),
                        sample({10, 0, 0}, 0.5f)};
    a.leafAmbient = {{0, 2}, {2, 2}};
    World b = a;
    b.leaves = {east, west};
    b.nodes = {Node{0, {-1, -2}, {-100, -100, -100}, {100, 100, 100}}};
    b.ambientSamples = {a.ambientSamples[3], a.ambientSamples[2], a.ambientSamples[1], a.ambientSamples[0]};
    b.leafAmbient = {{0, 2}, {2, 2}};

    ProbeDiff d = diffProbes(a, b, DiffThresholds{});
    CHECK_FALSE(d.pointwise);
    CHECK(d.matchedPoints == 4);
    CHECK(d.ambient.count == 24);
    checkAllZero(d.ambient);
    CHECK(d.verdict == Verdict::Same);

    // One of them changed in B: exactly that sample of A, by the change.
    b.ambientSamples[1].sides[0].x += 0.25f;  // A's sample 2
    d = diffProbes(a, b, DiffThresholds{});
    CHECK(d.matchedPoints == 4);
    CHECK(d.ambient.maxAbsLinear == 0.25);
    REQUIRE(d.worst.size() == 1);
    CHECK(d.worst[0].index == 2);

    // A leaf whose bounds changed is not the same leaf: its samples are resampled from B's leaves.
    b.leaves[0].maxs.z = 90;
    d = diffProbes(a, b, DiffThresholds{});
    CHECK(d.matchedPoints == 2);
}

TEST_CASE("probe diff: kinds must match", "[diff]") {
    World none;
    const ProbeDiff d = diffProbes(none, none, DiffThresholds{});
    CHECK(d.kind == ProbeKind::None);
    CHECK(d.verdict == Verdict::Same);
    CHECK(d.pointsA == 0);
    CHECK(d.ambient.count == 0);
    CHECK(d.worst.empty());
    CHECK_THROWS_AS(diffProbes(gridWorld(), cubesWorld(), DiffThresholds{}), UsageError);
    CHECK_THROWS_AS(diffProbes(gridWorld(), none, DiffThresholds{}), UsageError);
    CHECK_THROWS_AS(diffProbes(none, cubesWorld(), DiffThresholds{}), UsageError);
}
