#pragma once
// Writing rebaked light probes back into a copy of the map file: Quake 3's light grid lump, Source's
// ambient cube lumps (or the cubes embedded in version 0 leaves). Every other lump keeps its bytes and
// place; a lump that cannot be rewritten in place (compressed, or a new size) is appended at the end
// of the file and its directory entry fixed up.
#include <span>

#include "luxel/bsp/decode.hpp"
#include "luxel/light/light_grid.hpp"

namespace luxel {

// `world` is the map decoded from `source` (World::probeLump says which lump its probes came from);
// `values` has its probe kind and count. Throws UsageError when the kinds or counts disagree
// (checkProbeValues), DecodeError when the file is malformed.
Bytes writeProbes(const MapSource& source, const World& world, const ProbeValues& values);

// The stored encodings, exposed for tests: Quake 3 grid bytes (ambient RGB, directed RGB, polar, azimuth;
// colours as the decoder's 4 * byte / 255, scaled down together when a channel passes 255 as q3map2
// does) and Source ColorRGBExp32 (mantissas 0-255, signed exponent, linear = m * 2^e / 255).
std::array<uint8_t, 8> encodeGridPoint(const GridSample& s);
// Quake 3 light bytes (lightmaps, grid colours): linear * 255 / 4, scaled down together past 255.
std::array<uint8_t, 3> encodeQuake3Light(Vec3 linear);

// Quake 2 light bytes (lightmaps): linear * 255, scaled down together past 255.
std::array<uint8_t, 3> encodeQuake2Light(Vec3 linear);
std::array<uint8_t, 4> encodeColorRGBExp32(Vec3 linear);

}  // namespace luxel
