// ericw-tools' vis culling of light entities (see face_pvs.hpp).
#include "luxel/bake/face_pvs.hpp"

#include <algorithm>

#include "luxel/vis/visibility.hpp"

namespace luxel {

std::vector<std::vector<uint32_t>> leavesListing(const World& world) {
    std::vector<std::vector<uint32_t>> out(world.surfaces.size());
    for (uint32_t l = 0; l < world.leaves.size(); ++l) {
        const Leaf& leaf = world.leaves[l];
        for (uint32_t k = 0; k < leaf.numLeafSurfaces; ++k) {
            const size_t at = size_t(leaf.firstLeafSurface) + k;
            if (at >= world.leafSurfaces.size()) break;
            const uint32_t s = world.leafSurfaces[at];
            if (s < out.size() && (out[s].empty() || out[s].back() != l)) out[s].push_back(l);
        }
    }
    return out;
}

FaceSight faceSight(const World& world, const std::vector<uint32_t>& leaves) {
    FaceSight out;
    const Pvs& pvs = world.pvs;
    if (pvs.empty()) {
        out.all = true;
        return out;
    }
    out.rows.assign(size_t(pvs.rowBytes), 0);
    for (uint32_t l : leaves) {
        const Leaf& leaf = world.leaves[l];
        if (leaf.liquid) {
            out.all = true;
            return out;
        }
        if (leaf.cluster < 0 || leaf.cluster >= pvs.numClusters) continue;
        const uint8_t* row = pvs.rows.data() + size_t(leaf.cluster) * size_t(pvs.rowBytes);
        for (size_t b = 0; b < out.rows.size(); ++b) out.rows[b] |= row[b];
    }
    return out;
}

int32_t lightCullCluster(const World& world, Vec3 origin) {
    const int32_t l = findLeaf(world, origin);
    if (l < 0) return -1;
    const Leaf& leaf = world.leaves[size_t(l)];
    return leaf.sky || leaf.liquid ? -1 : leaf.cluster;
}

}  // namespace luxel
