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

// Baked lightmaps written into a copy of the map, every other lump keeping its bytes. slots[k] is the light
// of style slot k, laid out like World::lightmaps (k = 0) or World::extraLightmapSlots[k - 1]; a slot not
// given, or given without pages, keeps its stored light. Per format:
//  * Quake 3: the lightmaps lump rewritten in place (slot 0 only; a deluxe map's direction pages keep their
//    bytes); maps whose lightmaps are external images are refused.
//  * Source: the lighting lump the World was decoded from (LDR or HDR), each lit face's luxels of each style
//    as ColorRGBExp32 at its lightofs, and the style's per-channel median just before lightofs as vrad
//    keeps it (FinalLightFace; written only where no face's luxels lie). A bump-lit face's three basis blocks
//    get the flat light too: the baker gives no light along vrad's basis normals, and with a flat normal map
//    the engine's basis weights (1/3 each) then show the flat light. An LZMA lighting lump is appended
//    uncompressed.
//  * Quake 2: the lighting lump's RGB bytes of each style at each face's lightofs: linear x 255 (qrad3 and
//    ericw-tools store their 0..255 light unscaled), all three scaled down together past 255.
// Throws UsageError when the pages do not match the World's layout or the format has no lightmaps to write,
// DecodeError when the file does not match the World it was decoded into.
Bytes writeLightmaps(const MapSource& source, const World& world, std::span<const std::vector<LightmapPage>> slots);
// Quake 2 light bytes (lightmaps): linear * 255, scaled down together past 255.
std::array<uint8_t, 3> encodeQuake2Light(Vec3 linear);
std::array<uint8_t, 4> encodeColorRGBExp32(Vec3 linear);

}  // namespace luxel
