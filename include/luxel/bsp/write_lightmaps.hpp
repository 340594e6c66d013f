#pragma once
// Baked lightmaps written back into a copy of the map: every style slot and direction page the format holds.
// Quake 3 (IBSP 46) holds slot 0 and, for -deluxe maps, the direction pages, either in its lightmaps lump
// (128x128 pages, rewritten in place: every other byte of the file kept) or, when that lump is empty, as
// external images lm_NNNN.tga in a folder named after the map beside it (q3map2 -external; direction pages
// interleaved as the odd numbers, as q3map2 writes them).
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
// the map's stored directions. Throws UsageError for a format luxel cannot write or a set whose layout
// differs from the map's, DecodeError for a malformed file.
LightmapFiles writeLightmaps(const MapSource& source, const World& world, const LightmapSet& set);

// Writes `files.images` into the folder `mapPath` names without its extension (maps/x.bsp: maps/x/), where
// q3map2 puts them and the decoder looks for them. Throws UsageError when a file cannot be written.
void writeExternalLightmaps(const std::string& mapPath, const LightmapFiles& files);

// A direction page texel as q3map2 stores it: (d + 1) * 127.5 per axis truncated to a byte, for the unit
// vector along `d`; a zero vector (a texel no luxel covers) stays 0 0 0.
std::array<uint8_t, 3> encodeQuake3Direction(Vec3 d);

}  // namespace luxel
