#pragma once
// Internal to writeProbes (write_probes.cpp): the per-format probe writers and the lump placement they
// share. Each writer re-reads the file's own directory through ByteReader, so a file that does not match
// the World it was decoded into fails with a DecodeError instead of being patched blindly.
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/bsp/write_lightmaps.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/light/light_grid.hpp"

namespace luxel::bsp {

void putU32(Bytes& file, size_t at, uint32_t value);

// Where a lump sits and where its directory entry keeps the offset and length.
struct LumpPlace {
    std::string file, name;  // for errors
    uint64_t offset = 0, length = 0;
    size_t offsetField = 0, lengthField = 0;
};

// Puts a lump's new bytes into the file image: over the old ones when `inPlace` (same size, nothing
// moves), else appended at the end on a 4-byte boundary with the entry's offset and length pointed at
// them; the old bytes stay behind unused so every other offset in the file stays valid.
void placeLump(Bytes& file, const LumpPlace& place, std::span<const uint8_t> data, bool inPlace);

// Linear light as bytes, perUnit bytes a unit, scaled down together past 255 (write_probes.cpp).
std::array<uint8_t, 3> encodeLightBytes(Vec3 linear, double perUnit);

// The baked light of luxel (i, j) of a surface in `pages` (its Surface::lightmapPage and lightmapRect):
// where the decoder put that luxel. Zero when the page or rectangle lies outside the pages.
Vec3 surfaceLuxel(const std::vector<LightmapPage>& pages, const Surface& s, int32_t i, int32_t j);

}  // namespace luxel::bsp

namespace luxel::q3 {
// The lightvols lump rewritten in place with one encoded point per sample.
Bytes writeLightGrid(const MapSource& source, const std::vector<GridSample>& samples);
// Slot 0 and the direction pages into the lightmaps lump in place, or as external lm_NNNN.tga images when the
// map keeps its pages outside (q3/write_lightmaps.cpp); the set's layout already checked.
LightmapFiles writeLightmapFiles(const MapSource& source, const World& world, const LightmapSet& set);
}  // namespace luxel::q3

namespace luxel::vbsp {
// The cubes written back into `lumpName` (World::probeLump: "leafs", "leaf_ambient_lighting" or
// "leaf_ambient_lighting_hdr"), in place or, for an LZMA lump, appended uncompressed.
Bytes writeAmbientCubes(const MapSource& source, const std::string& lumpName, const std::vector<AmbientCube>& cubes);
// The lighting lump the World was decoded from, rewritten from the slots (source/write_lighting.cpp).
Bytes writeLighting(const MapSource& source, const World& world, std::span<const std::vector<LightmapPage>> slots);
}  // namespace luxel::vbsp

namespace luxel::q2 {
// The lighting lump rewritten in place from the slots (q2/write_lighting.cpp).
Bytes writeLighting(const MapSource& source, const World& world, std::span<const std::vector<LightmapPage>> slots);
}  // namespace luxel::q2
