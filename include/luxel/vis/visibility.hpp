#pragma once
// Camera point -> leaf -> cluster -> PVS row; leaves outside the PVS or the frustum are skipped and a
// surface listed by several leaves is returned once. Brush models other than the world are culled by the
// clustered leaves their bounds touch and their surfaces' bounds against the frustum.
#include <cstdint>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/render/camera.hpp"

namespace luxel {

// Leaf containing point p (walks the node tree); -1 when the map has no nodes.
int32_t findLeaf(const World& world, Vec3 p);

// Cluster of the leaf containing p, or -1.
int32_t findCluster(const World& world, Vec3 p);

struct CullOptions {
    bool usePvs = true;      // false: every surface of every model (still frustum-tested by bounds)
    bool useFrustum = true;
    bool worldOnly = false;  // leave out the brush entities' models (models[1..])
};

struct CullStats {
    int32_t cameraCluster = -1;
    size_t leavesVisited = 0, leavesDrawn = 0;
    size_t surfacesDrawn = 0;
};

// Visible surface indices, sorted ascending (deterministic), each once.
std::vector<uint32_t> visibleSurfaces(const World& world, const Geometry& geometry, const View& view,
                                      Vec3 eye, const CullOptions& options, CullStats* stats = nullptr);

// True when box (mins,maxs) is at least partly inside the frustum.
bool boxInFrustum(const View& view, Vec3 mins, Vec3 maxs);

}  // namespace luxel
