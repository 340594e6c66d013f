#pragma once
// Cameras in Quake conventions: Z up, angles (pitch, yaw, roll) in degrees, positive pitch looks down,
// horizontal field of view.
#include <array>
#include <string>

#include "luxel/bsp/world.hpp"

namespace luxel {

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

// Quake's AngleVectors: forward, right, up for (pitch, yaw, roll).
void angleVectors(Vec3 angles, Vec3& forward, Vec3& right, Vec3& up);

// Resolves a camera spec: "spawn", "spawn:N", "intermission", "overview".
// spawn:N counts from 0 over info_player_deathmatch, then info_player_start, then team spawns
// (team_CTF_*spawn/*player, info_player_team1..4), each class in file order; the eye is 26 units above.
// intermission: info_player_intermission, aimed at its target's origin when it has one.
// overview: the world model's drawn geometry seen from above at an angle, every box corner in frame.
// Throws UsageError naming what is missing (e.g. "map has 2 spawn points, asked for spawn:5").
// fovX is the horizontal field of view the camera will use: "overview" frames the map for it.
// The horizontal FOV of a width x height frame for the game's FOV setting: unchanged where the FOV is
// horizontal at any aspect (world.fovReferenceAspect 0, Quake), widened for frames wider than the
// reference aspect (Source: 90 at 4:3 is 106.26 at 16:9).
float horizontalFov(const World& world, float fov, int width, int height);

Camera cameraFromSpec(const World& world, const std::string& spec, int width, int height, float fovX = 90.0f);

}  // namespace luxel
