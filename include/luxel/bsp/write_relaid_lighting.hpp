#pragma once
// A Quake 1 (BSP29, BSP2, 2PSB), Half-Life (BSP30) or Quake 2 (IBSP 38) map with its lighting laid out anew,
// as ericw-tools' light writes it (write.cc SaveLightmapSurfaces): each face's styles and lightofs rewritten in the faces
// lump, a new lighting lump, and optionally the coloured light as a .lit file (QLIT v1, -lit) or BSPX
// RGBLIGHTING (-bspxlit). Every other lump keeps its bytes (moved, 4-aligned, when a lump before it
// changed size); BSPX lumps the new layout makes stale (RGBLIGHTING, LIGHTINGDIR, LMOFFSET, LMSTYLE,
// LMSTYLE16, DECOUPLED_LM) are dropped, the others kept (LMSHIFT too: the layout honours it).
//
// Bytes from luxel's linear light: value = linear x 255 x 256 / 264 for Quake 1 and Half-Life (q1/lighting.cpp
// decodes a byte b as b x 264 / 256 / 255), linear x 255 for Quake 2 (q2/lighting.cpp: b / 255); all three
// channels scaled down together past 255, truncated; the grey lump holds the largest of the three (ericw-tools'
// WriteSingleLightmap). Half-Life's and Quake 2's lumps are the RGB bytes, their offsets counting bytes.
#include <array>
#include <map>
#include <optional>
#include <string>

#include "luxel/bsp/world.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/light/lightmap_set.hpp"

namespace luxel {

struct RelaidOutLightingOptions {
    bool lit = false;       // also a .lit file (Quake 1 only)
    bool bspxLit = false;   // also BSPX RGBLIGHTING inside the map (Quake 1 only)
    // BSPX LIGHTINGDIR (Quake 1 only, -bspxlux): per luxel of each kept style the direction towards its light
    // from `directions` (world space, laid out like the set's slots), in the face's texture space as light
    // writes it: (s, -t, normal) axes, each component c stored as (c + 1) x 128 (at most 255); no light: (0, 0, 1).
    bool bspxLux = false;
    const std::array<std::vector<LightmapPage>, 4>* directions = nullptr;
    // A new entities lump (light switchable styles written into the light entities); nullopt: kept.
    std::optional<std::string> entities;
    // Quake 1: the luxel shift every face was laid out with (DecodeOptions::relayoutLuxelShift), written as a
    // BSPX LMSHIFT lump of one byte per face in place of any the map had (light -lmshift); nullopt: kept.
    std::optional<int> luxelShift{};
    // Quake 1: every face was laid out at this many world units a luxel (DecodeOptions::relayoutWorldUnitsPerLuxel),
    // written as light -world_units_per_luxel writes it: a BSPX DECOUPLED_LM record per face (size, offset, world
    // to luxel matrix) and, with `vanilla`, a copy at the engines' 16 units a luxel resampled from it (bilinear,
    // clamped at the block's edges, as light's WriteSingleLightmap_FromDecoupled) that the faces' lightofs name;
    // without, lightofs -1 (light -novanilla). The copy's grey bytes are the largest channel, as every other
    // block's (light leaves them 0).
    std::optional<float> worldUnitsPerLuxel{};
    std::map<uint32_t, float> texinfoWorldUnitsPerLuxel{};  // its per-texinfo exceptions, as DecodeOptions has them
    bool vanilla = true;
};

struct RelaidOutLightingFiles {
    Bytes map;
    std::optional<Bytes> lit;  // the .lit file, when asked for
};

// `world` decoded from `source`, `set` laid out like its pages: surface i is face i;
// a surface with a lightmap page gets its styles (Surface::styles) and their blocks, the others lightofs -1
// and no styles. Throws DecodeError for a malformed file, UsageError for a set that does not fit the World.
RelaidOutLightingFiles writeRelaidOutLighting(const MapSource& source, const World& world, const LightmapSet& set,
                                        const RelaidOutLightingOptions& options);

// ericw-tools' serialisation of an entities lump: each entity's pairs in order, "{\n\"k\" \"v\"\n...}\n", and
// the terminating NUL.
std::string entitiesLumpText(const std::vector<Entity>& entities);

}  // namespace luxel
