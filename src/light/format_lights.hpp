#pragma once
// The per-format light readers behind mapLights (map_lights.hpp), one folder a format family, and the
// pieces they share.
#include "luxel/light/map_lights.hpp"

namespace luxel {

MapLights quake3MapLights(const World& world, const MapSource& source, const MapLightOptions& options);
MapLights quake2MapLights(const World& world, const MapSource& source, const MapLightOptions& options);
MapLights sourceMapLights(const World& world);
MapLights quake1MapLights(const World& world, const MapSource& source, const MapLightOptions& options);

// Lights with every sky light as dome suns, and the notes every format gives about them.
MapLights withSkyDomes(const std::vector<Light>& lights, ArrivalFn arrival);

// The note a format's reader ends with when, all its kinds of light read, it found none.
void noteIfNoLights(MapLights& out);

// ericw-tools' rules around its lights, shared by the formats it lights (Quake 1, Quake 2, GoldSrc).
void ericwRules(const World& world, const MapSource& source, const MapLightOptions& options, MapLights& out);

}  // namespace luxel
