// Source ambient cubes -> World::ambientSamples / leafAmbient. The leaf lump's VERSION picks the layout:
// version 0 leaves embed one cube (at the leaf's centre); version 1 maps keep samples in lumps 56 (LDR) /
// 55 (HDR) indexed per leaf by lumps 52 / 51, each sample a cube plus its position as 0-255 fractions of
// the leaf bounds. A leaf with a zero count has no samples of its own (the engine then looks elsewhere).
#include "format.hpp"

namespace luxel::vbsp {

namespace {

// 6 ColorRGBExp32 in the order +X, -X, +Y, -Y, +Z, -Z.
std::array<Vec3, 6> readCube(ByteReader& r) {
    std::array<Vec3, 6> sides;
    for (auto& s : sides) s = ambientCubeColor(r.bytes(kColorBytes).data());
    return sides;
}

}  // namespace

void decodeAmbient(Context& c, World& w) {
    const size_t numLeaves = w.leaves.size();
    w.leafAmbient.assign(numLeaves, {0, 0});
    if (c.leafVersion == 0) {
        ByteReader& r = c.lump(kLeafs);
        w.ambientSamples.resize(numLeaves);
        for (size_t i = 0; i < numLeaves; ++i) {
            r.seek(i * kLeafBytesV0 + 30);
            AmbientSample& s = w.ambientSamples[i];
            s.sides = readCube(r);
            s.position = (w.leaves[i].mins + w.leaves[i].maxs) * 0.5f;
            w.leafAmbient[i] = {uint32_t(i), 1};
        }
        if (numLeaves > 0) w.probeLump = kLumpNames[kLeafs];
        return;
    }

    // The HDR set goes with HDR lighting; a map may carry only one set (or HDR cubes beside LDR light).
    const bool ldrPresent = c.lump(kLeafAmbientIndex).size() > 0;
    const bool hdrPresent = c.lump(kLeafAmbientIndexHdr).size() > 0;
    if (!ldrPresent && !hdrPresent) return;
    const bool hdr = hdrPresent && (c.useHdr || !ldrPresent);
    ByteReader& index = c.lump(hdr ? kLeafAmbientIndexHdr : kLeafAmbientIndex);
    const Lump samplesLump = hdr ? kLeafAmbientLightingHdr : kLeafAmbientLighting;
    ByteReader& samples = c.lump(samplesLump);
    const size_t numSamples = samples.recordCount(kAmbientSampleBytes);
    const size_t numIndices = index.recordCount(kAmbientIndexBytes);
    if (numIndices != numLeaves)
        index.fail(0, std::to_string(numIndices) + " ambient index entries for " + std::to_string(numLeaves) +
                          " leaves (one each)");
    w.ambientSamples.resize(numSamples);
    if (numSamples > 0) w.probeLump = kLumpNames[samplesLump];
    for (size_t k = 0; k < numSamples; ++k) {
        AmbientSample& s = w.ambientSamples[k];
        s.sides = readCube(samples);
        s.position = {samples.u8() / 255.0f, samples.u8() / 255.0f, samples.u8() / 255.0f};  // fractions for now
        samples.skip(1);
    }
    std::vector<int32_t> owner(numSamples, -1);
    for (size_t i = 0; i < numLeaves; ++i) {
        const size_t at = index.position();
        const uint16_t count = index.u16(), first = index.u16();
        if (count == 0) continue;
        checkRange(index, at, first, count, numSamples, "ambient sample");
        for (uint32_t k = first; k < uint32_t(first) + count; ++k) {
            if (owner[k] >= 0 && owner[k] != int32_t(i))
                index.fail(at, "leaf " + std::to_string(i) + " claims ambient sample " + std::to_string(k) +
                                   " of leaf " + std::to_string(owner[k]));
            owner[k] = int32_t(i);
        }
        w.leafAmbient[i] = {first, count};
    }
    // Fractions of the owning leaf's bounds -> world positions. vrad gives every sample to one leaf; a
    // sample no leaf lists is unreachable (left at its fraction, reported).
    size_t orphans = 0;
    for (size_t k = 0; k < numSamples; ++k) {
        if (owner[k] < 0) {
            ++orphans;
            continue;
        }
        const Leaf& leaf = w.leaves[size_t(owner[k])];
        const Vec3 f = w.ambientSamples[k].position;
        w.ambientSamples[k].position = leaf.mins + (leaf.maxs - leaf.mins) * f;
    }
    if (orphans > 0)
        w.problems.push_back(std::to_string(orphans) + " ambient samples belong to no leaf");
}

}  // namespace luxel::vbsp
