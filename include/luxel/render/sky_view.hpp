#pragma once
// Source's 3D skybox: the view renderFrame draws first when the map has a sky camera (World::skyCamera), as
// the engine's CSkyboxView does. The skybox area is seen from sky origin + eye / scale with the frame's own
// direction and field of view, which puts a skybox point P where the world point origin' + (P - origin) *
// scale would be (origin' the eye's image); its picture then shows wherever the main frame draws sky.
#include <cstdint>
#include <optional>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/render/camera.hpp"
#include "luxel/vis/visibility.hpp"

namespace luxel {

struct SkyboxView {
    Camera camera;                   // the frame's camera moved to sky origin + eye / scale
    int32_t area = 0;                // the area of the sky camera's leaf
    std::vector<uint32_t> surfaces;  // ascending: in that area's leaves, in the PVS of the sky camera, in view
};

// The 3D skybox view of `camera`, or nullopt when the map has no sky camera or it lies in no leaf. Culling as
// the engine's skybox view: the PVS of the sky camera's own origin (ViewSetupVis with the sky origin), the
// frustum of the moved camera, and only surfaces that leaves of the sky camera's area list.
std::optional<SkyboxView> skyboxView(const World& world, const Geometry& geometry, const Camera& camera,
                                     const CullOptions& cull);

}  // namespace luxel
