#pragma once
// Internal to the render stage: the pieces camera/spec.cpp (spawn, intermission, overview), camera/best.cpp
// (the automatic camera) and camera/resolve.cpp (fallbacks) share.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "luxel/geometry/geometry.hpp"
#include "luxel/render/camera.hpp"

namespace luxel::camera {

// A parsed camera spec.
struct Spec {
    enum class Kind { Spawn, Intermission, Overview, Best } kind = Kind::Overview;
    size_t index = 0;  // Spawn: N of spawn:N
};
// Throws UsageError for a malformed spawn index or an unknown name, listing the valid specs.
Spec parseSpec(const std::string& spec);

size_t countViewpoints(const World& world, Viewpoint::Kind kind);
// The index-th viewpoint of `kind` in World::viewpoints order, or nullptr.
const Viewpoint* viewpoint(const World& world, Viewpoint::Kind kind, size_t index);

// Per cluster, 1 when the PVS row of a cluster holding some viewpoint marks it visible: the part of the map
// a player can see. Empty when unknown (no PVS, no viewpoints, or none of them inside a cluster).
std::vector<uint8_t> playableClusters(const World& world);

// The camera every spec starts from: frame size and FOV checked (UsageError), position and angles zero.
Camera baseCamera(int width, int height, float fovX);

// The overview of world at this frame size and horizontal FOV (see cameraFromSpec); nullopt when the map
// has nothing to frame.
std::optional<Camera> overview(const World& world, int width, int height, float fovX);

// Overviews to choose among by what they show (resolveCamera), all framing the same points, in groups by pitch:
// 55 degrees (overview()'s first), 35 (walls fill more of a wide frame), 89 (the floor plan). Each group starts
// with its closest yaw (as overview() picks it), then the other yaws (all eight; at 89 degrees 0 and 90).
// Empty when the map has nothing to frame.
// A view is placed when asked for (camera()): working out its centring is most of the placement's time, and a
// search renders a few of the twenty.
struct OverviewCandidates {
    struct View {
        float pitch = 0, yaw = 0;
        double distance = 0;  // from the framed points' centre: the closest of a pitch leads its group
    };
    std::vector<std::vector<View>> groups;
    std::vector<Vec3> points;  // what the views frame (framingPoints)
    Bounds box;
    Camera base;
    Camera camera(size_t group, size_t index) const;
};
OverviewCandidates overviewCandidates(const World& world, int width, int height, float fovX);
// The points less those deep inside their convex hull: never the largest or smallest value of a linear function
// of a point (nor of a ratio of two with a positive denominator), which is all the overview's framing takes.
std::vector<Vec3> withoutInnerPoints(const std::vector<Vec3>& points);

// The small frame the automatic cameras are measured in: 64 pixels along the longer side, the same aspect.
Camera scoringCamera(const Camera& final);

// The share of each camera's scoring frame the map's geometry covers (sky not drawn, as in overviews), as the
// frame's visibility pass in lightmap mode counts it, in parallel (coverage.cpp).
std::vector<double> coverage(const World& world, const Geometry& geometry, const std::vector<Camera>& cameras);

// An overview covering at least this share of its (scoring) frame is kept as overview() frames it; below, the
// other candidates are tried (resolveCamera). The goal is 40% of the finished frame; the small scoring frame
// differs from it by a few percent.
constexpr double kOverviewCoverage = 0.45;

}  // namespace luxel::camera
