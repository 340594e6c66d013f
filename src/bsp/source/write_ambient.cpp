// Source ambient cubes written back where the decoder read them: the cube at byte 30 of each version 0
// leaf, or the first 24 bytes of each 28-byte sample of lump 56 / 55 (the position bytes and padding
// after them are kept). An uncompressed lump keeps its size and is patched in place; an LZMA lump is
// decompressed, patched and appended uncompressed, its directory entry (in the file's own layout)
// pointed at the copy with the uncompressed-size field cleared as for any plain lump.
#include <algorithm>
#include <string>

#include "luxel/bsp/write_probes.hpp"
#include "format.hpp"
#include "lzma.hpp"
#include "../write_probes_parts.hpp"

namespace luxel::vbsp {

Bytes writeAmbientCubes(const MapSource& source, const std::string& lumpName, const std::vector<AmbientCube>& cubes) {
    const auto named = std::find(kLumpNames.begin(), kLumpNames.end(), lumpName);
    const int lumpIndex = int(named - kLumpNames.begin());
    if (lumpIndex != kLeafs && lumpIndex != kLeafAmbientLighting && lumpIndex != kLeafAmbientLightingHdr)
        throw UsageError(source.displayName + ": ambient cubes cannot be written to lump \"" + lumpName + "\"");
    const char* name = kLumpNames[size_t(lumpIndex)];
    // Version 0 leaves hold one cube at byte 30; a sample record starts with its cube.
    const bool leaves = lumpIndex == kLeafs;
    const size_t recordBytes = leaves ? kLeafBytesV0 : kAmbientSampleBytes, cubeAt = leaves ? 30 : 0;

    ByteReader file(source.bytes, source.displayName, "header", 0);
    if (file.size() < kHeaderBytes)
        file.fail(0, "file too small for a VBSP header (" + std::to_string(file.size()) + " of " +
                         std::to_string(kHeaderBytes) + " bytes)");
    if (file.fixedString(4) != "VBSP") file.fail(0, "not a VBSP file");
    const LumpDirectory dir = readLumpDirectory(file);
    const DirectoryEntry& e = dir.entries[size_t(lumpIndex)];
    if (e.length > 0 && e.offset < kHeaderBytes)
        file.fail(dir.offsetField(lumpIndex), std::string(name) + " offset " + std::to_string(e.offset) +
                                                   " lies inside the header");
    if (leaves && e.version != 0)
        file.fail(dir.offsetField(lumpIndex), "leaf lump version " + std::to_string(e.version) +
                                                   " has no embedded ambient cubes (version 0 has)");
    const ByteReader raw = file.sub(e.length ? e.offset : 0, e.length, name);
    const bool compressed = isLzmaFramed(raw);
    Bytes data = compressed ? decompressLzma(raw, kMaxLumpBytes) : Bytes(raw.data().begin(), raw.data().end());

    const ByteReader lump(data, source.displayName, compressed ? std::string(name) + " (decompressed)" : name,
                          e.offset);
    const size_t records = lump.recordCount(recordBytes);
    if (records != cubes.size())
        lump.fail(0, std::to_string(records) + " records for " + std::to_string(cubes.size()) + " ambient cubes");
    for (size_t k = 0; k < records; ++k) {
        auto at = data.begin() + std::ptrdiff_t(k * recordBytes + cubeAt);
        for (const Vec3& side : cubes[k])
            at = std::ranges::copy(encodeColorRGBExp32(side / kAmbientCubeScale), at).out;
    }

    Bytes out = source.bytes;
    const bsp::LumpPlace place{source.displayName, name, e.offset, e.length, dir.offsetField(lumpIndex),
                               dir.lengthField(lumpIndex)};
    bsp::placeLump(out, place, data, !compressed);
    if (compressed) bsp::putU32(out, dir.fourCCField(lumpIndex), 0);
    return out;
}

}  // namespace luxel::vbsp
