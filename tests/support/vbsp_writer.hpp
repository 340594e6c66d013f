#pragma once
// Test-side VBSP container reader/writer: splits a Source map into its 64 lumps and game lumps and writes
// them back, optionally in the Left 4 Dead 2 directory layout and with lumps / game lumps in Valve's LZMA
// framing (liblzma's LZMA1 encoder without end marker, as Valve's tools write). It knows the container
// only, not what the lumps hold, so tests can re-pack real maps and compare decodes.
#include <array>
#include <cstdint>
#include <set>
#include <vector>

namespace luxel::test {

using Bytes = std::vector<uint8_t>;

struct VbspGameLump {
    uint32_t id = 0;
    uint16_t flags = 0, version = 0;
    Bytes data;  // uncompressed
};

struct VbspFile {
    int32_t version = 20;
    int32_t mapRevision = 0;
    std::array<Bytes, 64> lumps;
    std::array<int32_t, 64> lumpVersions{};
    std::vector<VbspGameLump> gameLumps;  // lump 35 is rebuilt from these
};

// Reads a map in the given directory layout (uncompressed lumps only).
VbspFile readVbsp(const Bytes& file, bool l4d2Layout = false);

struct VbspWriteOptions {
    bool l4d2Layout = false;
    std::set<int> lzmaLumps;      // lump indices written LZMA-framed
    bool lzmaGameLumps = false;   // every game lump LZMA-framed (flags 1, trailing dummy entry)
};

Bytes writeVbsp(const VbspFile& map, const VbspWriteOptions& options = {});

// Valve's framing: "LZMA", actual size, compressed size, 5 property bytes, raw LZMA1 stream.
Bytes lzmaFrame(const Bytes& raw);

}  // namespace luxel::test
