#pragma once
// A map's lightmaps as one set of pages laid out like World's: the light of every style slot and the light
// direction pages. The light baker makes them; the map writers and image writers take them.
#include <array>
#include <vector>

#include "luxel/bsp/world.hpp"

namespace luxel {

struct LightmapSet {
    // slots[0] like World::lightmaps, slots[k] like World::extraLightmapSlots[k - 1] (empty: no surface
    // uses slot k). Slot k of a surface holds the light of style Surface::styles[k].
    std::array<std::vector<LightmapPage>, 4> slots;
    // Like World::deluxemaps: unit vectors towards the light per texel of slots[0]; empty when the map has none.
    std::vector<LightmapPage> deluxe;
};

// The set a decoded map stores, its pages moved out of `world` (its slots and deluxe pages are left empty).
LightmapSet takeLightmaps(World& world);

}  // namespace luxel
