// Baked lightmaps written back into a copy of the map, for every format (see write_lightmaps.hpp): the set's
// layout checked against the World's, then each format's writer.
#include "luxel/bsp/write_lightmaps.hpp"

#include <span>
#include <string>

#include "luxel/util/error.hpp"
#include "write_probes_parts.hpp"

namespace luxel {

LightmapFiles writeLightmaps(const MapSource& source, const World& world, const LightmapSet& set) {
    for (size_t k = 0; k < set.slots.size(); ++k) {
        const std::vector<LightmapPage>& stored = k == 0 ? world.lightmaps : world.extraLightmapSlots[k - 1];
        if (set.slots[k].empty()) continue;
        bool same = set.slots[k].size() == stored.size();
        for (size_t p = 0; same && p < stored.size(); ++p)
            same = set.slots[k][p].width == stored[p].width && set.slots[k][p].height == stored[p].height &&
                   set.slots[k][p].rgb.size() == size_t(stored[p].width) * size_t(stored[p].height) * 3;
        if (!same) throw UsageError(world.file + ": baked lightmap pages of style slot " + std::to_string(k) +
                                    " do not match the map's");
    }
    const std::span<const std::vector<LightmapPage>> slots(set.slots);
    switch (world.format) {
        case MapFormat::Quake3: return q3::writeLightmapFiles(source, world, set);
        case MapFormat::Source: return {vbsp::writeLighting(source, world, slots), {}};
        case MapFormat::Quake2: return {q2::writeLighting(source, world, slots), {}};
        case MapFormat::Quake1:
        case MapFormat::HalfLife: break;
    }
    throw UsageError(world.file + ": lightmaps of this format cannot be written");
}

}  // namespace luxel
