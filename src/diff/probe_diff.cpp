// Light grid / ambient cube comparison of two builds: point by point when both builds store the same
// points, else B sampled at A's points the way the engine samples it.
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <string>
#include <vector>

#include "luxel/diff/diff.hpp"
#include "luxel/vis/visibility.hpp"
#include "luxel/render/look.hpp"
#include "luxel/util/error.hpp"
#include "diff_math.hpp"

namespace luxel {

namespace {

using diffmath::angleDeg;
using diffmath::median;

constexpr size_t kMaxWorst = 20;
// Points per work block. The blocks' sums are merged in block order, so the figures do not depend on
// the thread count.
constexpr size_t kBlock = 4096;

// What the game shows for light `linear`: the look's hue-preserving clamp, then [0,1] and the display gamma.
Vec3 displayOf(Vec3 linear, const EngineLook& look) { return toDisplay(clampEngineLight(linear, look), look); }

double largestChannelDiff(Vec3 a, Vec3 b) {
    return std::max({std::fabs(double(b.x) - double(a.x)), std::fabs(double(b.y) - double(a.y)),
                     std::fabs(double(b.z) - double(a.z))});
}

// Per point of A: the largest display difference, the direction angle (negative: not measured) and
// whether anything about the point differs at all.
struct PointResult {
    double maxAbsDisplay = 0;
    double directionDeg = -1;
    bool changed = false;
};

// Runs `perPoint(i, ambientAcc, directedAcc)` for every point in fixed blocks and merges the blocks in order.
template <class F>
void accumulate(size_t n, const DiffThresholds& t, DiffAccumulator& ambient, DiffAccumulator& directed, F perPoint) {
    const size_t blocks = (n + kBlock - 1) / kBlock;
    std::vector<DiffAccumulator> amb(blocks), dir(blocks);
    for (size_t k = 0; k < blocks; ++k) amb[k].thresholds = dir[k].thresholds = t;
    tbb::parallel_for(size_t(0), blocks, [&](size_t k) {
        const size_t end = std::min(n, (k + 1) * kBlock);
        for (size_t i = k * kBlock; i < end; ++i) perPoint(i, amb[k], dir[k]);
    });
    for (size_t k = 0; k < blocks; ++k) {
        ambient.merge(amb[k]);
        directed.merge(dir[k]);
    }
}

void compareGrid(const World& a, const World& b, const DiffThresholds& t, ProbeDiff& out,
                 std::vector<PointResult>& points, DiffAccumulator& ambient, DiffAccumulator& directed) {
    const LightGrid& ga = *a.grid;
    const LightGrid& gb = *b.grid;
    const size_t n = ga.samples.size();
    out.pointwise = ga.origin == gb.origin && ga.cellSize == gb.cellSize && ga.dims == gb.dims &&
                    ga.samples.size() == gb.samples.size();
    out.matchedPoints = out.pointwise ? n : 0;

    // B at A's points. Resampled: trilinear over B's 8 surrounding points with sampleGrid, the engine's
    // blend (corners inside walls, ambient all zero, are skipped and the weights renormalised; the
    // direction is the normalised weighted sum), so a grid that moved by a fraction of a cell compares
    // with what the game would show at A's points.
    std::vector<GridSample> resampled;
    if (!out.pointwise) {
        resampled.resize(n);
        tbb::parallel_for(size_t(0), n, [&](size_t i) { resampled[i] = sampleGrid(gb, gridPointPosition(ga, i)); });
    }
    const std::vector<GridSample>& bAt = out.pointwise ? gb.samples : resampled;

    // Directions are measured only where both builds' directed light is at least 1% of A's mean directed
    // luminance: in the dark the compiler's direction is noise and says nothing about the lighting.
    double sumLum = 0;
    for (const GridSample& s : ga.samples) sumLum += double(luminance(s.directed));
    const double meanLum = n ? sumLum / double(n) : 0.0;
    const double minLum = 0.01 * meanLum;

    accumulate(n, t, ambient, directed, [&](size_t i, DiffAccumulator& amb, DiffAccumulator& dir) {
        const GridSample& sa = ga.samples[i];
        const GridSample& sb = bAt[i];
        const Vec3 aAmb = displayOf(sa.ambient, a.look), bAmb = displayOf(sb.ambient, b.look);
        const Vec3 aDir = displayOf(sa.directed, a.look), bDir = displayOf(sb.directed, b.look);
        amb.add(sa.ambient, sb.ambient, aAmb, bAmb);
        dir.add(sa.directed, sb.directed, aDir, bDir);
        PointResult& p = points[i];
        p.maxAbsDisplay = std::max(largestChannelDiff(aAmb, bAmb), largestChannelDiff(aDir, bDir));
        if (meanLum > 0 && double(luminance(sa.directed)) >= minLum && double(luminance(sb.directed)) >= minLum)
            p.directionDeg = angleDeg(sa.direction, sb.direction);
        p.changed = p.maxAbsDisplay > 0 || !(sa.ambient == sb.ambient) || !(sa.directed == sb.directed) ||
                    p.directionDeg > 0;
    });

    std::vector<double> angles;
    for (const PointResult& p : points)
        if (p.directionDeg >= 0) angles.push_back(p.directionDeg);
    if (!angles.empty()) {
        out.maxDirectionDeg = *std::max_element(angles.begin(), angles.end());
        out.medianDirectionDeg = median(std::move(angles));
    }
}

// The leaf owning each ambient sample (World::leafAmbient), -1 for none.
std::vector<int32_t> sampleOwners(const World& w) {
    std::vector<int32_t> owner(w.ambientSamples.size(), -1);
    for (size_t leaf = 0; leaf < w.leafAmbient.size() && leaf < w.leaves.size(); ++leaf) {
        const auto [first, count] = w.leafAmbient[leaf];
        for (size_t k = first; k < size_t(first) + count && k < owner.size(); ++k) owner[k] = int32_t(leaf);
    }
    return owner;
}

// A sample's identity across builds: its leaf's bounds and its position (leaf and sample numbers change
// when the compiler renumbers leaves; vrad places samples in a leaf by its bounds).
using SampleKey = std::array<float, 9>;
SampleKey sampleKey(const World& w, size_t i, int32_t owner) {
    const Leaf& l = w.leaves[size_t(owner)];
    const Vec3 p = w.ambientSamples[i].position;
    return {l.mins.x, l.mins.y, l.mins.z, l.maxs.x, l.maxs.y, l.maxs.z, p.x, p.y, p.z};
}

void compareCubes(const World& a, const World& b, const DiffThresholds& t, ProbeDiff& out,
                  std::vector<PointResult>& points, DiffAccumulator& ambient, DiffAccumulator& directed) {
    const std::vector<AmbientSample>& sa = a.ambientSamples;
    const std::vector<AmbientSample>& sb = b.ambientSamples;
    const size_t n = sa.size();

    // Each sample of A matched to B's sample in a leaf with the same bounds at the same position; the same
    // index when both builds store the same samples in the same order.
    constexpr size_t kNone = size_t(-1);
    std::vector<size_t> partner(n, kNone);
    bool sameOrder = sa.size() == sb.size();
    for (size_t i = 0; sameOrder && i < n; ++i) sameOrder = sa[i].position == sb[i].position;
    if (sameOrder) {
        for (size_t i = 0; i < n; ++i) partner[i] = i;
    } else {
        const std::vector<int32_t> ownerA = sampleOwners(a), ownerB = sampleOwners(b);
        std::map<SampleKey, size_t> inB;
        for (size_t j = 0; j < sb.size(); ++j)
            if (ownerB[j] >= 0) inB.emplace(sampleKey(b, j, ownerB[j]), j);  // the first of duplicates
        for (size_t i = 0; i < n; ++i)
            if (ownerA[i] >= 0)
                if (auto it = inB.find(sampleKey(a, i, ownerA[i])); it != inB.end()) partner[i] = it->second;
    }
    out.matchedPoints = size_t(std::count_if(partner.begin(), partner.end(), [&](size_t j) { return j != kNone; }));
    out.pointwise = sameOrder;

    // The rest: B's cubes as a model at A's sample would receive them: the leaf holding the point, its
    // samples blended by inverse squared distance (sampleCubes).
    std::vector<AmbientCube> resampled(n);
    if (out.matchedPoints < n) {
        const ProbeSampler sampler = makeProbeSampler(b);
        tbb::parallel_for(size_t(0), n, [&](size_t i) {
            if (partner[i] == kNone) resampled[i] = sampleCubes(sampler, sa[i].position);
        });
    }

    accumulate(n, t, ambient, directed, [&](size_t i, DiffAccumulator& amb, DiffAccumulator&) {
        const AmbientCube& ca = sa[i].sides;
        const AmbientCube& cb = partner[i] != kNone ? sb[partner[i]].sides : resampled[i];
        PointResult& p = points[i];
        for (size_t s = 0; s < 6; ++s) {
            const Vec3 da = displayOf(ca[s], a.look), db = displayOf(cb[s], b.look);
            amb.add(ca[s], cb[s], da, db);  // every side is one value of `ambient`
            p.maxAbsDisplay = std::max(p.maxAbsDisplay, largestChannelDiff(da, db));
            p.changed = p.changed || !(ca[s] == cb[s]);
        }
        p.changed = p.changed || p.maxAbsDisplay > 0;
    });
}

}  // namespace

ProbeDiff diffProbes(const World& a, const World& b, const DiffThresholds& thresholds) {
    ProbeDiff out;
    const ProbeKind ka = probeKind(a), kb = probeKind(b);
    if (ka != kb)
        throw UsageError(a.file + " stores " + probeKindName(ka) + ", " + b.file + " stores " + probeKindName(kb) +
                         ": the probes cannot be compared");
    out.kind = ka;
    if (ka == ProbeKind::None) return out;

    const std::vector<Vec3> positions = probePositions(a);
    out.pointsA = positions.size();
    out.pointsB = storedProbes(b).size();

    std::vector<PointResult> points(positions.size());
    DiffAccumulator ambient, directed;
    ambient.thresholds = directed.thresholds = thresholds;
    if (ka == ProbeKind::Grid)
        compareGrid(a, b, thresholds, out, points, ambient, directed);
    else
        compareCubes(a, b, thresholds, out, points, ambient, directed);
    out.ambient = ambient.finish();
    out.directed = directed.finish();  // cubes: no values, count 0
    // The verdict is the colours' (idiff's rules on ambient and directed). The direction angle is reported
    // but decides nothing: it is meaningful only together with the directed light it steers, and a turned
    // direction under weak directed light changes what the game shows by less than the colours say.
    out.verdict = std::max(verdictOf(out.ambient, thresholds), verdictOf(out.directed, thresholds));

    // The most changed points: largest display difference first, ties to the lower index; points where
    // nothing differs (colours bit-identical, direction unturned) are not listed.
    std::vector<size_t> changed;
    for (size_t i = 0; i < points.size(); ++i)
        if (points[i].changed) changed.push_back(i);
    auto worse = [&](size_t x, size_t y) {
        if (points[x].maxAbsDisplay != points[y].maxAbsDisplay) return points[x].maxAbsDisplay > points[y].maxAbsDisplay;
        return x < y;
    };
    out.changed = changed.size();
    for (size_t i : changed) out.changedInSolid += findCluster(a, positions[i]) < 0 ? 1 : 0;
    const size_t keep = std::min(kMaxWorst, changed.size());
    std::partial_sort(changed.begin(), changed.begin() + std::ptrdiff_t(keep), changed.end(), worse);
    for (size_t k = 0; k < keep; ++k) {
        const size_t i = changed[k];
        ProbePointDiff d;
        d.index = i;
        d.position = positions[i];
        d.maxAbsDisplay = points[i].maxAbsDisplay;
        d.directionDeg = std::max(0.0, points[i].directionDeg);
        out.worst.push_back(d);
    }
    return out;
}

}  // namespace luxel
