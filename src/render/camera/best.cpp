// The automatic camera: candidate views from the map's viewpoints and open spaces, scored by small renders.
#include "luxel/render/best_camera.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "parts.hpp"
#include "luxel/render/render.hpp"
#include "luxel/vis/visibility.hpp"

namespace luxel {

namespace {

constexpr int kScoreSide = 64;          // pixels across the longer side of a scoring render
constexpr size_t kMaxSpawns = 3, kMaxItems = 1, kMaxLeaves = 1;
constexpr float kMinSeparation = 64.0f;  // places closer than this to an earlier one add nothing
constexpr float kPitch = 10.0f;          // degrees down
// The author's view is taken when at least this share of it is geometry, this much is geometry or sky (not
// the void outside the map), and under this share of the geometry is a wall in the face.
constexpr double kAuthorViewCoverage = 0.1, kAuthorViewFilled = 0.9, kAuthorViewNearWall = 0.5;
// The rules of acceptableView a scoring render can judge for the finished frame: light and distance. A lightmap
// render is far flatter than the textured frame, so "one colour" is left to the finished frame (map_view.cpp).
bool acceptableScoring(const ViewFigures& f) { return f.brightness >= kMinBrightness && f.nearShare <= kMaxNearShare; }

// The overview joins the candidates when no view from the map's places is acceptable with at least this share
// of geometry.
constexpr double kOverviewFallbackCoverage = 0.25;

struct Place {
    Vec3 position;
    Vec3 angles;
    std::string origin;
    bool keepAngles = false;  // also try the place's own angles as they are (intermission)
};

float distanceSquared(Vec3 a, Vec3 b) { return dot(a - b, a - b); }

bool farFrom(const std::vector<Place>& places, Vec3 p) {
    for (const Place& q : places)
        if (distanceSquared(q.position, p) < kMinSeparation * kMinSeparation) return false;
    return true;
}

// Adds up to `count` of `from` (in order), each time the one farthest from every place taken so far (the
// first of `from` when nothing is taken yet); ties go to the earlier one.
void addSpread(std::vector<Place>& places, std::vector<Place> from, size_t count) {
    for (size_t added = 0; added < count && !from.empty(); ++added) {
        size_t pick = 0;
        if (!places.empty()) {
            float bestDistance = -1;
            for (size_t i = 0; i < from.size(); ++i) {
                float nearest = std::numeric_limits<float>::max();
                for (const Place& q : places) nearest = std::min(nearest, distanceSquared(q.position, from[i].position));
                if (nearest > bestDistance) bestDistance = nearest, pick = i;
            }
        }
        if (farFrom(places, from[pick].position)) places.push_back(from[pick]);
        from.erase(from.begin() + std::ptrdiff_t(pick));
    }
}

std::vector<Place> candidatePlaces(const World& world) {
    std::vector<Place> spawns, items;
    const Viewpoint* intermission = nullptr;
    size_t spawnIndex = 0;
    for (const Viewpoint& v : world.viewpoints) {
        if (!isFinite(v.position)) continue;
        switch (v.kind) {
            case Viewpoint::Kind::Spawn:
                spawns.push_back({v.position, v.angles, fmt::format("spawn:{}", spawnIndex++)});
                break;
            case Viewpoint::Kind::Intermission:
                if (!intermission) intermission = &v;
                break;
            case Viewpoint::Kind::Item: items.push_back({v.position, v.angles, "item:" + v.className}); break;
        }
    }
    std::vector<Place> places;
    addSpread(places, spawns, kMaxSpawns);
    // The intermission camera comes even next to a spawn: its own angles are a view of their own.
    if (intermission) places.push_back({intermission->position, intermission->angles, "intermission", true});
    addSpread(places, items, kMaxItems);

    // Open space: the largest leaves with a cluster (inside the map), among those a viewpoint can see.
    const std::vector<uint8_t> playable = camera::playableClusters(world);
    std::vector<std::pair<double, size_t>> leaves;  // (-volume, index): sorted, largest first, then by index
    for (size_t i = 0; i < world.leaves.size(); ++i) {
        const Leaf& leaf = world.leaves[i];
        if (leaf.cluster < 0 || !isFinite(leaf.mins) || !isFinite(leaf.maxs)) continue;
        if (!playable.empty() && (size_t(leaf.cluster) >= playable.size() || !playable[size_t(leaf.cluster)])) continue;
        const Vec3 size = leaf.maxs - leaf.mins;
        if (size.x <= 0 || size.y <= 0 || size.z <= 0) continue;
        leaves.push_back({-double(size.x) * double(size.y) * double(size.z), i});
    }
    std::sort(leaves.begin(), leaves.end());
    size_t taken = 0;
    for (const auto& [negVolume, i] : leaves) {
        if (taken == kMaxLeaves) break;
        const Leaf& leaf = world.leaves[i];
        const Vec3 centre = (leaf.mins + leaf.maxs) * 0.5f;
        if (findCluster(world, centre) < 0 || !farFrom(places, centre)) continue;
        places.push_back({centre, {}, fmt::format("open:leaf {}", i)});
        ++taken;
    }
    return places;
}


}  // namespace

ViewScore scoreView(const World& world, const Geometry& geometry, const Camera& camera, const StyleWeights* rest) {
    RenderOptions o;
    if (rest) o.styleWeights = *rest;
    o.mode = RenderMode::Lightmap;
    o.look = Look::Engine;
    o.drawFlares = false;
    Image image;
    FrameSamples samples;
    renderFrame(world, geometry, camera, o, image, nullptr, &samples);

    ViewScore s;
    const size_t pixels = samples.depth.size();
    if (pixels == 0) return s;
    size_t covered = 0, sky = 0, nearWall = 0;
    double sumLog = 0, sumLog2 = 0, sumBright = 0;
    std::vector<int32_t> ids;
    for (size_t i = 0; i < pixels; ++i) {
        if (samples.surface[i] < 0) continue;
        if (samples.sky[i]) {
            ++sky;
            continue;
        }
        ++covered;
        const double depth = std::max(1.0f, samples.depth[i]);
        if (depth < kNearWallDepth) ++nearWall;
        const double l = std::log2(depth);
        sumLog += l, sumLog2 += l * l;
        const float* p = image.at(int(i % size_t(samples.width)), int(i / size_t(samples.width)));
        sumBright += std::clamp((double(p[0]) + p[1] + p[2]) / 3.0, 0.0, 1.0);
        ids.push_back(samples.surface[i]);
    }
    s.coverage = double(covered) / double(pixels);
    s.sky = double(sky) / double(pixels);
    if (covered > 0) {
        const double n = double(covered);
        s.nearWall = double(nearWall) / n;
        const double mean = sumLog / n;
        s.depthSpread = std::sqrt(std::max(0.0, sumLog2 / n - mean * mean));
        s.brightness = sumBright / n;
        std::sort(ids.begin(), ids.end());
        size_t run = 0, longest = 0;
        for (size_t i = 0; i < ids.size(); ++i) {
            run = (i > 0 && ids[i] == ids[i - 1]) ? run + 1 : 1;
            if (run == 1) ++s.surfaces;
            longest = std::max(longest, run);
        }
        s.largestSurface = double(longest) / n;
    }
    const double D = std::min(1.0, s.depthSpread / 1.25), S = std::min(1.0, double(s.surfaces) / 24.0),
                 B = std::min(1.0, s.brightness / 0.35), W = 1.0 - std::max(0.0, s.largestSurface - 0.4);
    s.score = s.coverage * (1.0 - s.nearWall) * W * (0.4 + 0.2 * D + 0.2 * S + 0.2 * B) - 0.5 * s.sky;
    s.figures = viewFigures(toDisplayImage(image), samples);
    return s;
}

std::optional<BestCamera> bestCamera(const World& world, const Geometry& geometry, int width, int height, float fovX) {
    const Camera base = camera::baseCamera(width, height, fovX);
    struct Candidate {
        Camera camera;
        size_t place;
    };
    std::vector<Place> places = candidatePlaces(world);
    std::vector<Candidate> candidates;
    for (size_t p = 0; p < places.size(); ++p) {
        Camera c = base;
        c.position = places[p].position;
        if (places[p].keepAngles) {
            c.angles = places[p].angles;
            candidates.push_back({c, p});
        }
        for (int k = 0; k < 4; ++k) {
            c.angles = {kPitch, std::fmod(places[p].angles.y + 90.0f * float(k), 360.0f), 0};
            candidates.push_back({c, p});
        }
    }
    std::vector<ViewScore> scores(candidates.size());
    const StyleWeights rest = parseStyleSpec("rest", world);  // what each render would work out again
    tbb::parallel_for(size_t(0), candidates.size(), [&](size_t i) {
        scores[i] = scoreView(world, geometry, camera::scoringCamera(candidates[i].camera), &rest);
    });
    // The overview, from outside the map, only when no view from inside it is acceptable and shows a fair part
    // of the map.
    const bool insideWorks = std::any_of(scores.begin(), scores.end(), [](const ViewScore& s) {
        return acceptableScoring(s.figures) && s.coverage >= kOverviewFallbackCoverage;
    });
    if (!insideWorks)
        if (std::optional<Camera> overview = camera::overview(world, width, height, fovX)) {
            places.push_back({overview->position, overview->angles, "overview"});
            candidates.push_back({*overview, places.size() - 1});
            scores.push_back(scoreView(world, geometry, camera::scoringCamera(candidates.back().camera), &rest));
        }
    if (candidates.empty()) return std::nullopt;
    // The candidates by score, best first (ties: the earlier), those breaking the rules for a thumbnail after
    // all the others.
    std::vector<size_t> order(candidates.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const bool okA = acceptableScoring(scores[a].figures), okB = acceptableScoring(scores[b].figures);
        if (okA != okB) return okA;
        return scores[a].score > scores[b].score;
    });
    size_t best = order.front();
    // The map's own showcase camera (intermission, Source point_viewcontrol) at its own angles is the
    // author's choice of view: taken whenever it shows the map (see kAuthorView*), sky included, and keeps
    // the rules.
    for (size_t i = 0; i < candidates.size(); ++i) {
        const Place& place = places[candidates[i].place];
        const ViewScore& s = scores[i];
        if (!place.keepAngles || !(candidates[i].camera.angles == place.angles)) continue;
        if (s.coverage >= kAuthorViewCoverage && s.coverage + s.sky >= kAuthorViewFilled &&
            s.nearWall < kAuthorViewNearWall && (acceptableScoring(s.figures) || !acceptableScoring(scores[best].figures)))
            best = i;
        break;
    }
    if (!(scores[best].coverage > 0)) return std::nullopt;
    BestCamera out{candidates[best].camera, scores[best], places[candidates[best].place].origin, candidates.size(), {}};
    for (size_t i : order)
        if (i != best && out.alternatives.size() < 4 && acceptableScoring(scores[i].figures) && scores[i].coverage > 0)
            out.alternatives.push_back(candidates[i].camera);
    return out;
}

}  // namespace luxel

namespace luxel::camera {

Camera scoringCamera(const Camera& final) {
    Camera c = final;
    if (final.width >= final.height) {
        c.width = kScoreSide;
        c.height = std::max(8, int(std::lround(double(kScoreSide) * final.height / final.width)));
    } else {
        c.height = kScoreSide;
        c.width = std::max(8, int(std::lround(double(kScoreSide) * final.width / final.height)));
    }
    return c;
}

}  // namespace luxel::camera
