#include "rle_pvs.hpp"

#include <string>

namespace luxel::bsp {

void decompressPvsRow(ByteReader& r, uint8_t* out, size_t rowBytes, int32_t cluster) {
    size_t o = 0;
    while (o < rowBytes) {
        const uint8_t b = r.u8();
        if (b != 0) {
            out[o++] = b;
            continue;
        }
        const size_t at = r.position();
        const uint8_t run = r.u8();
        if (run > rowBytes - o)
            r.fail(at, "zero run of " + std::to_string(run) + " bytes passes the end of cluster " +
                           std::to_string(cluster) + "'s row (" + std::to_string(rowBytes - o) + " bytes left)");
        o += run;  // rows start zeroed
    }
}

void decodeRlePvs(ByteReader& r, size_t numLeaves, Pvs& pvs) {
    if (r.size() == 0) return;  // no vis: every cluster sees every other
    const int32_t n = r.i32();
    if (n < 0) r.fail(0, "negative cluster count " + std::to_string(n));
    if (n == 0) return;
    if (uint64_t(n) > numLeaves || n > kMaxClusters)
        r.fail(0, std::to_string(n) + " clusters but only " + std::to_string(numLeaves) +
                      " leaves (every cluster is made of leaves; the engine allows " + std::to_string(kMaxClusters) +
                      ")");
    const uint64_t headerBytes = 4 + 8 * uint64_t(n);
    if (headerBytes > r.size())
        r.fail(0, "directory of " + std::to_string(n) + " clusters needs " + std::to_string(headerBytes) +
                      " bytes, lump has " + std::to_string(r.size()));
    const size_t rowBytes = (size_t(n) + 7) / 8;
    if (uint64_t(n) * rowBytes > kMaxPvsBytes)
        r.fail(0, std::to_string(n) + " clusters need " + std::to_string(uint64_t(n) * rowBytes) +
                      " bytes uncompressed, more than the " + std::to_string(kMaxPvsBytes) + " allowed");

    pvs.numClusters = n;
    pvs.rowBytes = int32_t(rowBytes);
    pvs.rows.assign(size_t(n) * rowBytes, 0);
    for (int32_t i = 0; i < n; ++i) {
        const size_t at = r.position();
        // The second row (Quake 2's hearable set, Source's audible set) is checked, not decoded.
        const uint32_t visible = r.u32(), audible = r.u32();
        for (uint32_t offset : {visible, audible})
            if (offset < headerBytes || offset >= r.size())
                r.fail(at, "cluster " + std::to_string(i) + " row offset " + std::to_string(offset) +
                               " outside the row data (" + std::to_string(headerBytes) + ".." +
                               std::to_string(r.size() - 1) + ")");
        ByteReader row = r.sub(visible, r.size() - visible, r.lump());
        decompressPvsRow(row, pvs.rows.data() + size_t(i) * rowBytes, rowBytes, i);
    }
}

}  // namespace luxel::bsp
