// mapLights: the per-format light decoders behind one call (see map_lights.hpp).
#include "luxel/light/map_lights.hpp"

#include "luxel/util/error.hpp"

namespace luxel {

MapLights mapLights(const World& world, const MapSource& source, const MapLightOptions& options) {
    (void)source;
    (void)options;
    throw UsageError(world.file + ": luxel cannot read the lights of " + world.formatName + " maps yet");
}

}  // namespace luxel
