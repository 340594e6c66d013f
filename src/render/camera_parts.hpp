#pragma once
// Internal to the render stage: the pieces camera_spec.cpp (spawn, intermission, overview), camera_best.cpp
// (the automatic camera) and camera_resolve.cpp (fallbacks) share.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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

}  // namespace luxel::camera
