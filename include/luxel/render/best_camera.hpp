#pragma once
// The automatic camera ("--camera best"): candidate views in the map's playable space, each judged by a
// cheap low-resolution render, the best one kept. Deterministic: the same camera for any thread count.
#include <optional>
#include <string>

#include "luxel/bsp/world.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/light/styles.hpp"
#include "luxel/render/camera.hpp"
#include "luxel/render/view_figures.hpp"

namespace luxel {

// What one view shows, from a lightmap-mode render (engine look, no flares, sky drawn) at the camera's size.
// Fractions are of all pixels unless said otherwise.
struct ViewScore {
    double coverage = 0;     // C: pixels showing drawn non-sky geometry
    double sky = 0;          // K: pixels showing sky
    double nearWall = 0;     // N: of the covered pixels, those nearer than kNearWallDepth
    double depthSpread = 0;  // standard deviation of log2(view depth) over covered pixels
    double largestSurface = 0;  // M: of the covered pixels, the share of the one surface covering most
    size_t surfaces = 0;     // distinct surfaces seen
    double brightness = 0;   // mean display value (0..1) of covered pixels
    double score = 0;        // see scoreView
    ViewFigures figures;     // of the whole scoring frame (render/view_figures.hpp)
};

// World units: a covered pixel nearer than this is "a wall in the face" (a player is 56-72 units tall).
constexpr double kNearWallDepth = 96.0;

// Renders `camera` as it is (callers pass a small frame, e.g. 64x36) and scores it:
//   D = min(1, depthSpread / 1.25)        depth variety (1.25 octaves of depth spread saturate)
//   S = min(1, surfaces / 24)             many distinct surfaces
//   B = min(1, brightness / 0.35)         lit, not dark
//   W = 1 - max(0, M - 0.4)               one surface filling the view costs up to 60%
//   score = C * (1 - N) * W * (0.4 + 0.2 D + 0.2 S + 0.2 B) - 0.5 K
// So a view scores high when geometry fills the frame (no void), little of it is close, no single wall
// dominates, depth and surfaces vary and it is lit; sky is penalised beyond not counting as coverage.
// `rest`: the map's light styles at rest (parseStyleSpec("rest")), when the caller scores many views.
ViewScore scoreView(const World& world, const Geometry& geometry, const Camera& camera, const StyleWeights* rest = nullptr);

struct BestCamera {
    Camera camera;       // at the requested size and FOV
    ViewScore score;     // of the chosen candidate, at the scoring size
    std::string origin;  // where the candidate came from: "spawn:3", "intermission", "item:weapon_rocketlauncher", "open:leaf 812", "overview"
    size_t candidates = 0;
    // The next acceptable candidates by score (at most 4), for a caller whose finished frame at `camera` breaks
    // the rules after all (the scoring render is lightmap mode, the frame may be lit: render/map_view.cpp).
    std::vector<Camera> alternatives;
};

// Candidates (at most 25 views, scored in parallel with TBB at 64 pixels across, same aspect):
// * places: spawn:0 and up to 2 more spawn points, each the one farthest from the places already taken
//   (so they spread over the map); the first intermission camera; 1 item, again the farthest; the centre
//   of the largest leaf that a viewpoint's cluster can see (open space; the largest of all leaves with a
//   cluster when the map has no PVS or viewpoints); places within 64 units of an earlier one are skipped
//   (but never the intermission camera);
// * views from each place: 4 yaws 90 degrees apart starting at the place's own yaw, pitched 10 degrees
//   down (the intermission camera also keeps its own angles as its first view);
// * last, the overview (camera::overview), only when no view above is acceptable (below) with at least 25% of
//   it geometry: a map whose places see nothing (a test block under its spawn) still gets a picture of itself.
// Only candidates whose scoring frame is not dark and not mostly wall in the face (acceptableView's first two
// rules; the third, one colour, is judged on the finished frame: map_view.cpp) are considered, unless none is. Among them the highest score wins; ties go to the earlier
// candidate in the order above; but the intermission camera at its own angles (the author's showcase view:
// Quake's info_player_intermission, Source's point_viewcontrol aimed at its target) wins whenever it shows the
// map: at least 10% of it geometry, at least 90% geometry or sky, under half of the geometry nearer than
// kNearWallDepth. nullopt when there is no candidate or no candidate sees any non-sky geometry (score and
// coverage 0).
// width, height and fovX are the final frame's (fovX horizontal, already through horizontalFov).
std::optional<BestCamera> bestCamera(const World& world, const Geometry& geometry, int width, int height, float fovX);

}  // namespace luxel
