#pragma once
// The visibility lump Quake 2 and Source share: a cluster count, a (PVS, PHS/PAS) row offset pair per
// cluster, then run-length encoded rows.
#include <cstdint>

#include "luxel/bsp/world.hpp"
#include "luxel/io/reader.hpp"

namespace luxel::bsp {

// The engines' PVS limit (MAX_MAP_LEAFS, every cluster has a leaf).
inline constexpr int64_t kMaxClusters = 65536;
// Uncompressed PVS larger than this is refused rather than allocated.
inline constexpr uint64_t kMaxPvsBytes = uint64_t(64) << 20;

// One run-length encoded row into `out` (rowBytes, zeroed before): a zero byte is followed by a count of zero
// bytes to emit. The row ends when `out` is full; a run past its end means a corrupt lump (the vis compilers
// never write one) and throws, naming `cluster`.
void decompressPvsRow(ByteReader& r, uint8_t* out, size_t rowBytes, int32_t cluster);

// Decodes the PVS rows into `pvs` (left empty for an empty lump or zero clusters: every cluster sees every
// other). Throws DecodeError on a count above the leaf count, offsets outside the row data or a zero run
// past a row's end.
void decodeRlePvs(ByteReader& r, size_t numLeaves, Pvs& pvs);

}  // namespace luxel::bsp
