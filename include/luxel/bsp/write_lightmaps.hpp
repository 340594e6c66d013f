#pragma once
// Baked lightmaps written back into a copy of the map: every style slot and direction page the format holds,
// every other lump keeping its bytes. A slot of the set without pages keeps its stored light. Per format:
//  * Quake 3 (IBSP 46) holds slot 0 and, for -deluxe maps, the direction pages, either in its lightmaps lump
//    (128x128 pages, rewritten in place) or, when that lump is empty, as external images lm_NNNN.tga in a
//    folder named after the map beside it (q3map2 -external; direction pages interleaved as the odd numbers,
//    as q3map2 writes them).
//  * Source: the lighting lump the World was decoded from (LDR or HDR), each lit face's luxels of each style
//    as ColorRGBExp32 at its lightofs, and the style's per-channel median just before lightofs as vrad
//    keeps it (FinalLightFace; written only where no face's luxels lie). A bump-lit face's three basis blocks
//    get the flat light too: the baker gives no light along vrad's basis normals, and with a flat normal map
//    the engine's basis weights (1/3 each) then show the flat light. An LZMA lighting lump is appended
//    uncompressed.
//  * Quake 2: the lighting lump's RGB bytes of each style at each face's lightofs: linear x 255 (qrad3 and
//    ericw-tools store their 0..255 light unscaled), all three scaled down together past 255.
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "luxel/bsp/decode.hpp"
#include "luxel/image/image.hpp"
#include "luxel/light/lightmap_set.hpp"

namespace luxel {

struct LightmapFiles {
    Bytes map;                                          // the map file with its lightmaps lump rewritten
    std::vector<std::pair<std::string, Image>> images;  // external pages by file name (lm_NNNN.tga)
};

// `world` is the map decoded from `source`, `set` laid out like its pages. A set without deluxe pages keeps
// the map's stored directions. Throws UsageError for a set whose layout differs from the map's (or styled
// slots for Quake 3), DecodeError for a malformed file or one that does not match the World.
LightmapFiles writeLightmaps(const MapSource& source, const World& world, const LightmapSet& set);

// Writes `files.images` into the folder `mapPath` names without its extension (maps/x.bsp: maps/x/), where
// q3map2 puts them and the decoder looks for them. Throws UsageError when a file cannot be written.
void writeExternalLightmaps(const std::string& mapPath, const LightmapFiles& files);

// A direction page texel as q3map2 stores it: (d + 1) * 127.5 per axis truncated to a byte, for the unit
// vector along `d`; a zero vector (a texel no luxel covers) stays 0 0 0.
std::array<uint8_t, 3> encodeQuake3Direction(Vec3 d);

}  // namespace luxel
