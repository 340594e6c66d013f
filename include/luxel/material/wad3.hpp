#pragma once
// WAD texture archives: Half-Life's WAD3 (each texture a miptex record with its own palette, lump type 0x43) and
// Quake's WAD2 (miptex records without one, type 0x44, drawn through the Quake palette). A 12-byte header
// ("WAD3" / "WAD2", lump count, directory offset) and a directory of 32-byte entries {int32 filepos, disksize,
// size; int8 type, compression, pad, pad; char name[16]}.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "luxel/io/map_source.hpp"
#include "luxel/material/miptex.hpp"

namespace luxel {

struct WadTexture {
    std::string name;
    uint64_t offset = 0, size = 0;  // the lump's bytes in the file (filepos, disksize)
    uint64_t entryOffset = 0;       // its directory entry, for messages
    // Why the lump cannot be read (compressed, outside the file); empty when it can.
    std::string problem;
};

struct Wad {
    std::string file;  // what messages call it
    bool halfLife = true;  // WAD3: textures carry their palette; WAD2: they use the Quake palette
    std::shared_ptr<const Bytes> bytes;
    std::vector<WadTexture> textures;  // the miptex lumps, in directory order
};

// Reads the header and directory. Throws DecodeError (naming `file`, the part and the byte) when the magic is not
// WAD2 / WAD3 or the directory does not fit in the file; a texture lump that cannot be read is kept with its
// `problem`, so only the textures a map asks for are reported.
Wad readWad(Bytes bytes, const std::string& file);

// The texture lump named `name`, compared case-insensitively; the first of equal names, as the engine's lookup.
const WadTexture* findWadTexture(const Wad& wad, const std::string& name);

// A texture lump's bytes and its miptex header (offset 0 in those bytes). Throws DecodeError naming the file,
// the lump and the byte when the lump has a problem, is too short for a header or claims an unusable size.
std::span<const uint8_t> wadLumpBytes(const Wad& wad, const WadTexture& lump);
MiptexEntry readWadMiptex(const Wad& wad, const WadTexture& lump);

// What messages call a lump: its name (DecodeError's part, shown as "lump NAME").
std::string wadLumpPart(const WadTexture& lump);

}  // namespace luxel
