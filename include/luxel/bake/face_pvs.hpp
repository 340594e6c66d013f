#pragma once
// ericw-tools' vis culling of light entities (ltface.cc CalcPvs, VisCullEntity): a world face sees the union of
// the PVS rows of the leaves that list it (its marksurfaces), and every cluster when one of them is liquid; a
// face no leaf lists sees none. A light whose leaf is solid, sky or liquid is never culled.
#include <cstdint>
#include <vector>

#include "luxel/bsp/world.hpp"

namespace luxel {

// Per surface, the leaves that list it (World::leafSurfaces), in leaf order.
std::vector<std::vector<uint32_t>> leavesListing(const World& world);

// What one face sees, made from the leaves that list it.
struct FaceSight {
    bool all = false;           // a liquid leaf lists it (or the map has no PVS)
    std::vector<uint8_t> rows;  // the union of the PVS rows, one bit a cluster
    bool sees(int32_t cluster) const {
        if (all || cluster < 0) return true;
        const size_t byte = size_t(cluster) >> 3;
        return byte < rows.size() && ((rows[byte] >> (cluster & 7)) & 1);
    }
};
FaceSight faceSight(const World& world, const std::vector<uint32_t>& leaves);

// The cluster a light is culled by: -1 (never culled) when its leaf is solid, sky or liquid, or lies outside.
int32_t lightCullCluster(const World& world, Vec3 origin);

}  // namespace luxel
