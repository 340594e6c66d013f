#pragma once
#include <map>
#include <optional>

#include "luxel/bsp/world.hpp"
#include "luxel/io/map_source.hpp"

namespace luxel {

// Detects the format from the header (never the file name) and decodes the whole map.
// Throws DecodeError (file, lump, offset) on anything malformed.
struct DecodeOptions {
    bool preferLdr = false;  // Source: decode the LDR lighting even when HDR lighting is present
    // Quake 3: false keeps the light pages', direction pages' and light grid's sizes but not their samples
    // (LightmapPage::rgb and LightGrid::samples left empty), for readers that only count them (luxel info).
    bool lightSamples = true;
    // Quake 1, Quake 2, Half-Life: ignore the stored lightmaps and lay out a style-0 block of zeros on every
    // face ericw-tools' light would light (its Face_IsLightmapped), at 16 units a luxel (or the BSPX LMSHIFT
    // qbsp wrote): the layout a light tool makes for a map fresh from qbsp and vis, for the baker to fill.
    bool relayoutLightmaps = false;
    // Quake 1 with relayoutLightmaps: every face's luxel is 2^shift units instead (light -lmshift), whatever
    // LMSHIFT the map has; 0..10.
    std::optional<int> relayoutLuxelShift{};
    // Quake 1 with relayoutLightmaps: every face laid out in world space instead, this many units a luxel
    // (light -world_units_per_luxel, bsp/decoupled_layout.hpp); (0, 1024].
    std::optional<float> relayoutWorldUnitsPerLuxel{};
    // With relayoutWorldUnitsPerLuxel: texinfos with units of their own (qbsp's texinfo.json
    // "world_units_per_luxel", light's extended_flags), in its place; values outside (0, 1024] are ignored.
    std::map<uint32_t, float> relayoutTexinfoUnitsPerLuxel{};
};

World decodeMap(const MapSource& source, const DecodeOptions& options = {});
// The format decodeMap reads these bytes as, from the header alone (IBSP 46, IBSP 38, VBSP); nullopt for
// anything else (decodeMap then says what is wrong).
std::optional<MapFormat> mapFormatOf(const Bytes& bytes);

// Per-format decoders (src/bsp/q3/decode.cpp, ...).
World decodeQuake3(const MapSource& source, bool lightSamples = true);
World decodeQuake2(const MapSource& source, bool relayoutLightmaps = false);
// Quake 1 BSP29, BSP2 and 2PSB (with BSPX lumps and a .lit beside the map) and Half-Life BSP30.
// Of the options, the relayout ones.
World decodeQuake1(const MapSource& source, const DecodeOptions& options = {});
World decodeSource(const MapSource& source);
// Source maps may carry LDR and HDR lighting; decodeSource(source) prefers HDR, preferLdr picks the LDR
// set when the map has one.
World decodeSource(const MapSource& source, bool preferLdr);

}  // namespace luxel
