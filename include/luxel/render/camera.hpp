#pragma once
// Cameras in Quake conventions: Z up, angles (pitch, yaw, roll) in degrees, positive pitch looks down,
// horizontal field of view.
#include <array>
#include <string>
#include <vector>

#include "luxel/bsp/world.hpp"

namespace luxel {

struct Geometry;  // luxel/geometry/geometry.hpp

struct Camera {
    Vec3 position;
    Vec3 angles;         // pitch, yaw, roll (degrees)
    float fovX = 90.0f;  // horizontal field of view (degrees)
    int width = 1920, height = 1080;
    float nearPlane = 4.0f;
};

// Derived view data used by culling and rasterization.
struct View {
    Vec3 forward, right, up;
    Mat4 viewProjection;  // world -> clip (x,y in [-w,w], w = view depth along forward)
    // Frustum planes (normal points inside): left, right, bottom, top, near. dot(n,p) - d >= 0 inside.
    std::array<Plane, 5> frustum;
    float tanHalfX = 1, tanHalfY = 1;
};

View makeView(const Camera& camera);

// The field of view (degrees) every way of asking for a view accepts: the CLI, scene files, the service's queries.
inline constexpr float kMinFov = 1, kMaxFov = 179;

// The horizontal FOV of a width x height frame for the game's FOV setting: unchanged where the FOV is
// horizontal at any aspect (world.fovReferenceAspect 0, Quake), widened for frames wider than the
// reference aspect (Source: 90 at 4:3 is 106.26 at 16:9).
float horizontalFov(const World& world, float fov, int width, int height);

// Camera specs (the renderer knows no entity classes: the decoder's World::viewpoints name the places):
// * "spawn", "spawn:N": the N-th Spawn viewpoint (N from 0; the decoders list them in the games' order),
//   at its eye position and angles.
// * "intermission": the first Intermission viewpoint (the game's own camera, aimed at its target).
// * "overview": the map's drawn geometry from above at an angle, every framed point inside the frame. The
//   points framed are the vertices of world-model surfaces that are neither sky nor nodraw, clamped into
//   models[0]'s bounds; when the map has a PVS and viewpoints, only surfaces of leaves in clusters that
//   some viewpoint can see (a Source 3D sky box or a Quake 3 portal sky room is seen from no playable
//   cluster) when that keeps at least half of the points, and with 0.5% of the points trimmed off each end of each axis (stray far-out brushes).
// * "best": see resolveCamera.
// cameraFromSpec resolves spawn, intermission and overview strictly, with no fallback: it throws
// UsageError naming what is missing (e.g. "map has 2 spawn points, asked for spawn:5"); "best" needs the
// tessellated geometry and throws here. fovX is the game's FOV setting (see horizontalFov).
Camera cameraFromSpec(const World& world, const std::string& spec, int width, int height, float fovX = 90.0f);

// A camera spec resolved for a thumbnail: what was asked, what was used, and why they differ.
struct ResolvedCamera {
    Camera camera;
    std::string spec;                // what was asked
    std::string used;                // what was actually used: "spawn:0", "intermission", "overview", "best"
    std::vector<std::string> notes;  // the fallbacks taken, one human-readable line each (no map name)
    double score = 0;                // "best": the chosen view's score (bestCamera); 0 otherwise
    std::vector<Camera> alternatives;  // "best": the next acceptable views (BestCamera::alternatives)
};

// Resolves a spec with fallbacks, so that a batch always gets a picture of the map:
//   intermission -> spawn:0 -> best -> overview   (each step taken when the previous one has nothing)
//   spawn, spawn:N -> best -> overview            (no spawn points, or N past the last one)
//   best -> overview                               (no candidate view draws anything)
// Every step taken adds a note ("map has no intermission camera; used spawn:0"). A malformed or unknown
// spec, a bad size or FOV, and a map with nothing to frame at all still throw UsageError.
ResolvedCamera resolveCamera(const World& world, const Geometry& geometry, const std::string& spec, int width,
                             int height, float fov = 90.0f);

}  // namespace luxel
