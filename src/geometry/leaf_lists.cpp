#include "luxel/geometry/leaf_lists.hpp"

#include <algorithm>

namespace luxel {

void appendLeafSurfaces(World& world, const std::vector<std::vector<uint32_t>>& surfacesOfLeaf) {
    std::vector<uint32_t> lists;
    lists.reserve(world.leafSurfaces.size());
    for (size_t l = 0; l < world.leaves.size(); ++l) {
        Leaf& leaf = world.leaves[l];
        const size_t first = std::min<size_t>(leaf.firstLeafSurface, world.leafSurfaces.size());
        const size_t last = size_t(std::min<uint64_t>(uint64_t(leaf.firstLeafSurface) + leaf.numLeafSurfaces, world.leafSurfaces.size()));
        leaf.firstLeafSurface = uint32_t(lists.size());
        lists.insert(lists.end(), world.leafSurfaces.begin() + std::ptrdiff_t(first), world.leafSurfaces.begin() + std::ptrdiff_t(last));
        if (l < surfacesOfLeaf.size()) lists.insert(lists.end(), surfacesOfLeaf[l].begin(), surfacesOfLeaf[l].end());
        leaf.numLeafSurfaces = uint32_t(lists.size() - leaf.firstLeafSurface);
    }
    world.leafSurfaces = std::move(lists);
}

}  // namespace luxel
