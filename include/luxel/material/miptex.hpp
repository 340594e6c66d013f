#pragma once
// Textures embedded in Quake 1 and Half-Life maps (the miptex lump) and in WAD3 files: a 40-byte header (name,
// size, four mip offsets) and 8-bit palette indices; Half-Life's carry their own palette after the last mip.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "luxel/material/pcx.hpp"
#include "luxel/material/rgba_image.hpp"

namespace luxel {

struct MiptexEntry {
    std::string name;
    int32_t width = 0, height = 0;
    uint64_t offset = 0;    // of the header, in the lump
    bool embedded = false;  // the pixels follow in the lump (Half-Life may leave them to a WAD: offsets 0)
};

// The 40-byte header at the start of `record` (an entry of the miptex lump, or a WAD lump): its name, size and
// whether pixels follow (offset left 0). Throws DecodeError naming `file`, `part` and base + the offset when the
// record is shorter than a header or the size is unusable (sides 1..4096).
MiptexEntry readMiptexHeader(std::span<const uint8_t> record, const std::string& file, const std::string& part,
                             uint64_t base);

// The lump's directory: one entry per slot (a slot of -1 gives an unnamed, empty entry). Throws DecodeError
// (naming `file`, lump "textures" and the offset) when the directory or a header lies outside the lump.
std::vector<MiptexEntry> readMiptexDirectory(std::span<const uint8_t> lump, const std::string& file);

// How a texture's indices become colours.
struct MiptexDecode {
    const Palette* palette = nullptr;  // Quake: the game's; null: the texture's own (Half-Life)
    bool fence = false;                // '{' textures: the palette's last index (255) is transparent
    // Quake's fullbright indices (224-255, drawn unlit): `base` gets them black, `fullbright` them alone (the
    // rest black, alpha 0). Off: `base` has every colour and `fullbright` stays empty.
    bool splitFullbrights = false;
    // Each colour's channels through this table (Half-Life: halfLifeTextureGamma()); null: as stored.
    const std::array<uint8_t, 256>* colourCurve = nullptr;
};

// GoldSrc's texgammatable at the engine's default cvars (BuildGammaTable: gamma 2.5, texgamma 2.0): byte b becomes
// (int)(pow(b / 255, texgamma / gamma) * 255), applied to every texture's palette as it is loaded.
const std::array<uint8_t, 256>& halfLifeTextureGamma();

struct MiptexImage {
    RgbaImage base;
    RgbaImage fullbright;  // empty when the texture has no fullbright texel (or splitting is off)
};

// Level 0 of the texture at `entry` in `lump`. Throws DecodeError when its pixels (or Half-Life palette) lie
// outside the lump or its size is unusable (sides 1..4096). Errors call the lump `part` and count offsets from
// `base` (where `lump` starts in `file`: a WAD lump's position).
MiptexImage decodeMiptex(std::span<const uint8_t> lump, const MiptexEntry& entry, const MiptexDecode& how,
                         const std::string& file, const std::string& part = "textures", uint64_t base = 0);

// Whether level 0 of a Quake texture uses a fullbright index (224-255; a fence's 255 is a hole, not one).
bool hasFullbrights(std::span<const uint8_t> lump, const MiptexEntry& entry, bool fence);

}  // namespace luxel
