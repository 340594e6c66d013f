// A map's lightmap pages as one set (see lightmap_set.hpp).
#include "luxel/light/lightmap_set.hpp"

#include <utility>

namespace luxel {

LightmapSet takeLightmaps(World& world) {
    LightmapSet set;
    set.slots[0] = std::move(world.lightmaps);
    for (size_t k = 1; k < 4; ++k) set.slots[k] = std::move(world.extraLightmapSlots[k - 1]);
    set.deluxe = std::move(world.deluxemaps);
    world.lightmaps.clear();
    for (auto& slot : world.extraLightmapSlots) slot.clear();
    world.deluxemaps.clear();
    return set;
}

}  // namespace luxel
