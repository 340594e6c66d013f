// The engine's draw order of blended surfaces (see draw_order.hpp).
#include "draw_order.hpp"

namespace luxel::render {

DrawOrder engineDrawOrder(const World& world) {
    DrawOrder order;
    const size_t numSurfaces = world.surfaces.size();
    order.materialRank.assign(world.materials.size(), UINT32_MAX);
    uint32_t nextMaterial = 0;
    for (const Surface& s : world.surfaces)
        if (s.material >= 0 && size_t(s.material) < order.materialRank.size() &&
            order.materialRank[size_t(s.material)] == UINT32_MAX)
            order.materialRank[size_t(s.material)] = nextMaterial++;
    for (uint32_t& r : order.materialRank)
        if (r == UINT32_MAX) r = nextMaterial++;

    order.surfaceRank.assign(numSurfaces, UINT32_MAX);
    uint32_t nextSurface = 0;
    auto visitLeaf = [&](size_t leaf) {
        if (leaf >= world.leaves.size()) return;
        const Leaf& l = world.leaves[leaf];
        for (uint64_t k = l.firstLeafSurface; k < uint64_t(l.firstLeafSurface) + l.numLeafSurfaces; ++k) {
            if (k >= world.leafSurfaces.size()) break;
            const uint32_t s = world.leafSurfaces[size_t(k)];
            if (s < numSurfaces && order.surfaceRank[s] == UINT32_MAX) order.surfaceRank[s] = nextSurface++;
        }
    };
    if (!world.nodes.empty()) {
        std::vector<uint8_t> seen(world.nodes.size(), 0);
        std::vector<int32_t> stack{0};  // children[0] is walked first: pushed last
        while (!stack.empty()) {
            const int32_t n = stack.back();
            stack.pop_back();
            if (n < 0) {
                visitLeaf(size_t(-(int64_t(n) + 1)));
                continue;
            }
            if (size_t(n) >= world.nodes.size() || seen[size_t(n)]) continue;
            seen[size_t(n)] = 1;
            stack.push_back(world.nodes[size_t(n)].children[1]);
            stack.push_back(world.nodes[size_t(n)].children[0]);
        }
    } else {
        for (size_t leaf = 0; leaf < world.leaves.size(); ++leaf) visitLeaf(leaf);
    }
    for (uint32_t& r : order.surfaceRank)
        if (r == UINT32_MAX) r = nextSurface++;
    return order;
}

}  // namespace luxel::render
