#include "luxel/vis/visibility.hpp"

#include <algorithm>
#include <tuple>

namespace luxel {

int32_t findLeaf(const World& world, Vec3 p) {
    const auto& nodes = world.nodes;
    if (nodes.empty()) return -1;
    int32_t index = 0;
    // A well-formed walk visits each node at most once, so more steps than nodes means a cycle.
    for (size_t steps = 0; steps <= nodes.size(); ++steps) {
        if (index < 0) {
            const int64_t leaf = -(int64_t(index) + 1);
            return leaf < int64_t(world.leaves.size()) ? int32_t(leaf) : -1;
        }
        if (size_t(index) >= nodes.size()) return -1;
        const Node& node = nodes[size_t(index)];
        if (node.plane < 0 || size_t(node.plane) >= world.planes.size()) return -1;
        const Plane& plane = world.planes[size_t(node.plane)];
        index = node.children[dot(plane.normal, p) - plane.dist >= 0 ? 0 : 1];
    }
    return -1;
}

int32_t findCluster(const World& world, Vec3 p) {
    const int32_t leaf = findLeaf(world, p);
    return leaf < 0 ? -1 : world.leaves[size_t(leaf)].cluster;
}

namespace {

constexpr unsigned kAllPlanes = (1u << std::tuple_size_v<decltype(View::frustum)>) - 1;

// Conservative box test against the planes in `mask`. Returns -1 when the box is outside one of them,
// else the planes the box still straddles (those it is wholly inside of need no test for anything the box
// contains).
int cullBox(const View& view, Vec3 mins, Vec3 maxs, unsigned mask) {
    for (size_t i = 0; i < view.frustum.size(); ++i) {
        if (!(mask & (1u << i))) continue;
        const Plane& plane = view.frustum[i];
        const Vec3 n = plane.normal;
        // The corner furthest along the normal: if even it is outside, the whole box is; the nearest
        // corner inside means the whole box is.
        const Vec3 far{n.x >= 0 ? maxs.x : mins.x, n.y >= 0 ? maxs.y : mins.y, n.z >= 0 ? maxs.z : mins.z};
        if (dot(n, far) - plane.dist < 0) return -1;
        const Vec3 near{n.x >= 0 ? mins.x : maxs.x, n.y >= 0 ? mins.y : maxs.y, n.z >= 0 ? mins.z : maxs.z};
        if (dot(n, near) - plane.dist >= 0) mask &= ~(1u << i);
    }
    return int(mask);
}

bool validBox(Vec3 mins, Vec3 maxs) { return mins.x <= maxs.x && mins.y <= maxs.y && mins.z <= maxs.z; }

}  // namespace

bool boxInFrustum(const View& view, Vec3 mins, Vec3 maxs) {
    return validBox(mins, maxs) && cullBox(view, mins, maxs, kAllPlanes) >= 0;
}

namespace {

// Per-surface state for one call, one byte each.
enum SurfaceState : uint8_t {
    kListed = 1u << 0,         // listed by a leaf with a cluster: reachable through the PVS
    kVisible = 1u << 1,        // goes into the result
    kTested = 1u << 2,         // already tested once in this call
    kBillboard = 1u << 3,      // named by a Billboard (drawn although its shading is Hidden)
    kBillboardInView = 1u << 4,
    kBrushEntity = 1u << 5,    // of models[1..]: culled by its model's box, whatever leaves list it
};

// A PVS the decoder filled inconsistently is treated as absent rather than read out of bounds.
bool pvsUsable(const Pvs& pvs) {
    if (pvs.numClusters <= 0 || pvs.rowBytes <= 0) return false;
    if (int64_t(pvs.rowBytes) * 8 < int64_t(pvs.numClusters)) return false;
    return pvs.rows.size() >= size_t(pvs.numClusters) * size_t(pvs.rowBytes);
}

// Whether the PVS row sees a clustered leaf the box touches, or the box touches none (a model in solid:
// the frustum decides, as without the PVS). The walk is bounded by the node count, so a tree with a cycle
// (hostile maps) ends; a walk cut short counts as seen.
bool boxClustersSeen(const World& world, const Bounds& box, const uint8_t* row) {
    const Pvs& pvs = world.pvs;
    if (world.nodes.empty()) return true;
    std::vector<int32_t> stack{0};
    bool touchedCluster = false;
    size_t budget = 4 * world.nodes.size() + 64;
    while (!stack.empty()) {
        if (budget-- == 0) return true;
        const int32_t index = stack.back();
        stack.pop_back();
        if (index < 0) {
            const int64_t leaf = -(int64_t(index) + 1);
            if (leaf >= int64_t(world.leaves.size())) continue;
            const int32_t cluster = world.leaves[size_t(leaf)].cluster;
            if (cluster < 0) continue;
            touchedCluster = true;
            if (cluster >= pvs.numClusters || ((row[cluster >> 3] >> (cluster & 7)) & 1)) return true;
            continue;
        }
        if (size_t(index) >= world.nodes.size()) return true;
        const Node& node = world.nodes[size_t(index)];
        if (node.plane < 0 || size_t(node.plane) >= world.planes.size()) return true;
        const Plane& plane = world.planes[size_t(node.plane)];
        const Vec3 n = plane.normal;
        const Vec3 far{n.x >= 0 ? box.maxs.x : box.mins.x, n.y >= 0 ? box.maxs.y : box.mins.y, n.z >= 0 ? box.maxs.z : box.mins.z};
        const Vec3 near{n.x >= 0 ? box.mins.x : box.maxs.x, n.y >= 0 ? box.mins.y : box.maxs.y, n.z >= 0 ? box.mins.z : box.maxs.z};
        if (dot(n, far) - plane.dist >= 0) stack.push_back(node.children[0]);
        if (dot(n, near) - plane.dist < 0) stack.push_back(node.children[1]);
    }
    return !touchedCluster;
}

}  // namespace

// Policy, chosen so that culling never changes the picture from inside the map:
// * Leaves with cluster >= 0 are gated by the camera's PVS row (a cluster past the PVS is always visible,
//   as in Pvs::visible) and by their box against the frustum.
// * World-model surfaces that no clustered leaf lists (the compiler left them out, or only solid leaves
//   list them) cannot be reached through the PVS; they are drawn whenever their bounds are in the frustum,
//   with or without the PVS, so switching the PVS off never adds them to the picture.
// * Surfaces outside models[0]'s range that clustered leaves list (static props, placed by
//   model/props.hpp) are gated by the PVS like world surfaces. Brush entities' models (doors, platforms),
//   which no leaf lists, are gated as a whole: by the clustered leaves their bounds touch (a model that
//   touches none is drawn as without the PVS), then each surface by its bounds.
// * Every drawn surface is also tested by its own bounds, which only removes surfaces with no pixel in view.
// * The camera is outside the map (all leaves drawn) when its leaf has no cluster or the eye lies
//   outside that leaf's box; CullStats::cameraCluster is then -1.
// Stats: leavesVisited counts clustered leaves that passed the PVS, leavesDrawn those also in the frustum.
std::vector<uint32_t> visibleSurfaces(const World& world, const Geometry& geometry, const View& view,
                                      Vec3 eye, const CullOptions& options, CullStats* stats) {
    const auto& surfaces = geometry.surfaces;
    const size_t count = surfaces.size();
    std::vector<uint8_t> state(count, 0);

    for (const Billboard& b : geometry.billboards) {
        if (b.surface >= count) continue;
        const Vec3 r{b.radius, b.radius, b.radius};
        state[b.surface] |= kBillboard;
        if (!options.useFrustum || boxInFrustum(view, b.origin - r, b.origin + r))
            state[b.surface] |= kBillboardInView;
    }

    size_t worldBegin = 0, worldEnd = count;
    if (!world.models.empty()) {
        const Model& m = world.models[0];
        worldBegin = std::min<size_t>(m.firstSurface, count);
        worldEnd = size_t(std::min<uint64_t>(uint64_t(m.firstSurface) + m.numSurfaces, count));
    }

    // Brush entities' surfaces. q3map2 also lists them in the world's leaves, where they were at compile time
    // (before Model::origin moves them), so those lists say nothing: as the engines do, their model's box
    // is tested instead (below).
    for (size_t m = 1; m < world.models.size(); ++m) {
        const size_t first = std::min<size_t>(world.models[m].firstSurface, count);
        const size_t last = size_t(std::min<uint64_t>(uint64_t(world.models[m].firstSurface) + world.models[m].numSurfaces, count));
        for (size_t i = first; i < last; ++i)
            if (i < worldBegin || i >= worldEnd) state[i] |= kBrushEntity;
    }

    // Planes the whole world model's box lies inside of need no test for world leaves and surfaces (an
    // overview camera sees the whole map: then nothing is tested one by one).
    const unsigned frustumMask = options.useFrustum ? kAllPlanes : 0;
    unsigned worldMask = frustumMask;
    if (worldMask && !world.models.empty() && validBox(world.models[0].mins, world.models[0].maxs)) {
        const int m = cullBox(view, world.models[0].mins, world.models[0].maxs, kAllPlanes);
        worldMask = m < 0 ? kAllPlanes : unsigned(m);  // outside: leave the verdict to the parts
    }

    // Tests a surface once; marks it visible when it has something to draw inside the frustum.
    auto consider = [&](uint32_t s, unsigned mask) {
        uint8_t& st = state[s];
        if (st & kTested) return;
        st |= kTested;
        if (st & kBillboard) {
            if (st & kBillboardInView) st |= kVisible;
            return;
        }
        const DrawSurface& ds = surfaces[s];
        if (ds.shading == SurfaceShading::Hidden || ds.numIndices == 0 || ds.bounds.empty()) return;
        if (mask && cullBox(view, ds.bounds.mins, ds.bounds.maxs, mask) < 0) return;
        st |= kVisible;
    };

    // The node tree places every point in some leaf, also points far outside the map (an overview camera
    // above it) whose leaf cell the tree never bounded there. A PVS row is only trusted when the eye is
    // inside the box of the leaf the walk found; otherwise the eye counts as outside the map.
    int32_t cameraCluster = -1;
    if (const int32_t leafIndex = findLeaf(world, eye); leafIndex >= 0) {
        const Leaf& leaf = world.leaves[size_t(leafIndex)];
        constexpr float kSlack = 1.0f;  // leaf boxes are whole units in Quake formats
        const bool inside = eye.x >= leaf.mins.x - kSlack && eye.x <= leaf.maxs.x + kSlack &&
                            eye.y >= leaf.mins.y - kSlack && eye.y <= leaf.maxs.y + kSlack &&
                            eye.z >= leaf.mins.z - kSlack && eye.z <= leaf.maxs.z + kSlack;
        if (inside) cameraCluster = leaf.cluster;
    }
    const Pvs& pvs = world.pvs;
    const uint8_t* row = nullptr;
    if (options.usePvs && pvsUsable(pvs) && cameraCluster >= 0 && cameraCluster < pvs.numClusters)
        row = pvs.rows.data() + size_t(cameraCluster) * size_t(pvs.rowBytes);

    size_t leavesVisited = 0, leavesDrawn = 0;
    const auto& leafSurfaces = world.leafSurfaces;
    for (const Leaf& leaf : world.leaves) {
        if (leaf.cluster < 0) continue;
        const size_t first = std::min<size_t>(leaf.firstLeafSurface, leafSurfaces.size());
        const size_t last =
            size_t(std::min<uint64_t>(uint64_t(leaf.firstLeafSurface) + leaf.numLeafSurfaces, leafSurfaces.size()));
        // Every clustered leaf marks what it lists, even when not drawn, so the orphans are known below.
        for (size_t i = first; i < last; ++i) {
            const uint32_t s = leafSurfaces[i];
            if (s < count && !(state[s] & kBrushEntity)) state[s] |= kListed;
        }
        if (row && leaf.cluster < pvs.numClusters && !((row[leaf.cluster >> 3] >> (leaf.cluster & 7)) & 1))
            continue;
        ++leavesVisited;
        // An inverted (garbage) leaf box says nothing about where its surfaces are: their bounds decide.
        if (worldMask && validBox(leaf.mins, leaf.maxs) && cullBox(view, leaf.mins, leaf.maxs, worldMask) < 0)
            continue;
        ++leavesDrawn;
        for (size_t i = first; i < last; ++i) {
            const uint32_t s = leafSurfaces[i];
            if (s < count && !(state[s] & kBrushEntity)) consider(s, s >= worldBegin && s < worldEnd ? worldMask : frustumMask);
        }
    }

    // Brush entities (models[1..]): left out with worldOnly; else, under a PVS row, a model none of whose
    // clustered leaves the camera's cluster sees is left out whole (its surfaces count as tested).
    for (size_t m = 1; m < world.models.size(); ++m) {
        const Model& model = world.models[m];
        const size_t first = std::min<size_t>(model.firstSurface, count);
        const size_t last = size_t(std::min<uint64_t>(uint64_t(model.firstSurface) + model.numSurfaces, count));
        bool hide = options.worldOnly;
        if (!hide && row) {
            Bounds box;
            for (size_t i = first; i < last; ++i)
                if ((state[i] & kBrushEntity) && !surfaces[i].bounds.empty()) box.grow(surfaces[i].bounds);
            hide = !box.empty() && !boxClustersSeen(world, box, row);
        }
        if (!hide) continue;
        for (size_t i = first; i < last; ++i)
            if (state[i] & kBrushEntity) state[i] |= kTested;
    }

    // Surfaces no clustered leaf lists (orphans of the world model, the other models'): frustum only.
    std::vector<uint32_t> result;
    for (size_t s = 0; s < count; ++s) {
        const bool inWorld = s >= worldBegin && s < worldEnd;
        if (!(state[s] & kListed)) consider(uint32_t(s), inWorld ? worldMask : frustumMask);
        if (state[s] & kVisible) result.push_back(uint32_t(s));
    }

    if (stats) {
        stats->cameraCluster = cameraCluster;
        stats->leavesVisited = leavesVisited;
        stats->leavesDrawn = leavesDrawn;
        stats->surfacesDrawn = result.size();
    }
    return result;
}

}  // namespace luxel
