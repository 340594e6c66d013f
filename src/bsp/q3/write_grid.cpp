// Quake 3 light grid written back: the lightvols lump keeps its size (one 8-byte point per sample, in
// the decoder's order, x fastest), so it is overwritten in place and nothing else in the file moves.
#include <string>

#include "luxel/bsp/write_probes.hpp"
#include "format.hpp"
#include "../write_probes_parts.hpp"

namespace luxel::q3 {

Bytes writeLightGrid(const MapSource& source, const std::vector<GridSample>& samples) {
    ByteReader file(source.bytes, source.displayName, "header", 0);
    constexpr size_t kHeaderBytes = 8 + 8 * size_t(kLumpCount);
    if (file.size() < kHeaderBytes)
        file.fail(0, "file too small for a Quake 3 header (" + std::to_string(file.size()) + " of " +
                         std::to_string(kHeaderBytes) + " bytes)");
    if (file.fixedString(4) != "IBSP" || file.i32() != 46) file.fail(0, "not a Quake 3 (IBSP 46) file");

    const size_t entry = 8 + 8 * size_t(kLightVols);
    file.seek(entry);
    const int32_t offset = file.i32(), length = file.i32();
    const char* name = kLumpNames[kLightVols];
    if (offset < 0 || length < 0) file.fail(entry, std::string(name) + " directory entry is negative");
    ByteReader lump = file.sub(uint64_t(offset), uint64_t(length), name);
    if (lump.size() != samples.size() * kGridPointBytes)
        lump.fail(0, "lump has " + std::to_string(lump.size()) + " bytes but " + std::to_string(samples.size()) +
                         " grid points need " + std::to_string(samples.size() * kGridPointBytes));

    Bytes grid;
    grid.reserve(lump.size());
    for (const GridSample& s : samples) {
        const auto point = encodeGridPoint(s);
        grid.insert(grid.end(), point.begin(), point.end());
    }
    Bytes out = source.bytes;
    bsp::placeLump(out, {source.displayName, name, uint64_t(offset), uint64_t(length), entry, entry + 4}, grid, true);
    return out;
}

}  // namespace luxel::q3
