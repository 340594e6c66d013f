// Quake 1 / Half-Life miptex textures: the lump directory and level 0 through a palette.
#include "luxel/material/miptex.hpp"

#include <algorithm>
#include <cmath>

#include "luxel/io/reader.hpp"
#include "luxel/util/error.hpp"

namespace luxel {

namespace {

constexpr size_t kHeaderBytes = 40;
constexpr int32_t kMaxSide = 4096;
constexpr uint8_t kFirstFullbright = 224;

}  // namespace

MiptexEntry readMiptexHeader(std::span<const uint8_t> record, const std::string& file, const std::string& part,
                             uint64_t base) {
    ByteReader h(record, file, part, base);
    if (record.size() < kHeaderBytes)
        h.fail(0, "a miptex header needs " + std::to_string(kHeaderBytes) + " bytes, the record has " +
                      std::to_string(record.size()));
    MiptexEntry e;
    e.name = h.fixedString(16);
    const uint32_t w = h.u32(), hgt = h.u32();
    const uint32_t first = h.u32();
    if (w == 0 || hgt == 0 || w > uint32_t(kMaxSide) || hgt > uint32_t(kMaxSide))
        h.fail(16, "texture " + e.name + " claims a size of " + std::to_string(w) + "x" + std::to_string(hgt) +
                       " (sides 1.." + std::to_string(kMaxSide) + ")");
    e.width = int32_t(w), e.height = int32_t(hgt);
    e.embedded = first != 0;
    return e;
}

std::vector<MiptexEntry> readMiptexDirectory(std::span<const uint8_t> lump, const std::string& file) {
    std::vector<MiptexEntry> out;
    if (lump.empty()) return out;
    ByteReader r(lump, file, "textures", 0);
    const int32_t count = r.i32();
    if (count < 0 || uint64_t(count) * 4 > r.remaining())
        r.fail(0, "miptex count " + std::to_string(count) + " does not fit in the " + std::to_string(lump.size()) +
                      "-byte lump");
    out.resize(size_t(count));
    for (MiptexEntry& e : out) {
        const size_t at = r.position();
        const int32_t offset = r.i32();
        if (offset == -1) continue;
        if (offset < 0 || uint64_t(offset) + kHeaderBytes > lump.size())
            r.fail(at, "miptex offset " + std::to_string(offset) + " leaves no room for its header");
        e = readMiptexHeader(lump.subspan(size_t(offset), kHeaderBytes), file, "textures", uint64_t(offset));
        e.offset = uint64_t(offset);
    }
    return out;
}

MiptexImage decodeMiptex(std::span<const uint8_t> lump, const MiptexEntry& entry, const MiptexDecode& how,
                         const std::string& file, const std::string& part, uint64_t base) {
    ByteReader r(lump, file, part, base);
    ByteReader h = r.sub(entry.offset, kHeaderBytes, part);
    h.skip(24);
    const uint32_t mip0 = h.u32();
    h.skip(8);
    const uint32_t mip3 = h.u32();
    const uint64_t texels = uint64_t(entry.width) * uint64_t(entry.height);
    const uint64_t start = entry.offset + mip0;
    if (mip0 == 0 || start > lump.size() || texels > lump.size() - start)
        r.fail(entry.offset + 24, "texture " + entry.name + " (" + std::to_string(entry.width) + "x" +
                                      std::to_string(entry.height) + ") has its pixels outside the lump");
    const uint8_t* index = lump.data() + start;

    Palette own;
    const Palette* palette = how.palette;
    if (!palette) {
        // Half-Life: after mip 3 (a quarter of a quarter of a quarter of the texels), a count and the colours.
        const uint64_t at = entry.offset + uint64_t(mip3) + (uint64_t(entry.width) / 8) * (uint64_t(entry.height) / 8);
        if (mip3 == 0 || at > lump.size() || lump.size() - at < 2)
            r.fail(entry.offset + 36, "texture " + entry.name + " has no palette after its last mip level");
        ByteReader p = r.sub(at, lump.size() - at, part);
        const uint16_t colours = p.u16();
        if (colours == 0 || colours > 256 || p.remaining() < size_t(colours) * 3)
            p.fail(0, "texture " + entry.name + " palette of " + std::to_string(colours) + " colours does not fit");
        own = {};
        for (size_t i = 0; i < colours; ++i) own[i] = {p.u8(), p.u8(), p.u8()};
        palette = &own;
    }
    Palette curved;
    if (how.colourCurve) {
        for (size_t i = 0; i < curved.size(); ++i)
            for (size_t c = 0; c < 3; ++c) curved[i][c] = (*how.colourCurve)[(*palette)[i][c]];
        palette = &curved;
    }

    MiptexImage out;
    out.base.width = out.fullbright.width = entry.width;
    out.base.height = out.fullbright.height = entry.height;
    out.base.rgba.resize(size_t(texels) * 4);
    bool anyFullbright = false;
    if (how.splitFullbrights)
        for (uint64_t i = 0; i < texels && !anyFullbright; ++i) anyFullbright = index[i] >= kFirstFullbright && !(how.fence && index[i] == 255);
    if (anyFullbright) out.fullbright.rgba.assign(size_t(texels) * 4, 0);
    for (uint64_t i = 0; i < texels; ++i) {
        const uint8_t k = index[i];
        const auto& c = (*palette)[k];
        uint8_t* o = out.base.rgba.data() + i * 4;
        if (how.fence && k == 255) {
            o[0] = o[1] = o[2] = o[3] = 0;
            continue;
        }
        if (anyFullbright && k >= kFirstFullbright) {
            uint8_t* f = out.fullbright.rgba.data() + i * 4;
            f[0] = c[0], f[1] = c[1], f[2] = c[2], f[3] = 255;
            o[0] = o[1] = o[2] = 0, o[3] = 255;
            continue;
        }
        o[0] = c[0], o[1] = c[1], o[2] = c[2], o[3] = 255;
    }
    if (!anyFullbright) out.fullbright = RgbaImage{};
    return out;
}

bool hasFullbrights(std::span<const uint8_t> lump, const MiptexEntry& entry, bool fence) {
    if (!entry.embedded || entry.offset + kHeaderBytes > lump.size()) return false;
    ByteReader h(lump.subspan(size_t(entry.offset), kHeaderBytes), "", "textures", 0);
    h.skip(24);
    const uint64_t start = entry.offset + h.u32();
    const uint64_t texels = uint64_t(entry.width) * uint64_t(entry.height);
    if (start > lump.size() || texels > lump.size() - start) return false;
    for (uint64_t i = 0; i < texels; ++i)
        if (lump[size_t(start + i)] >= kFirstFullbright && !(fence && lump[size_t(start + i)] == 255)) return true;
    return false;
}

const std::array<uint8_t, 256>& halfLifeTextureGamma() {
    static const std::array<uint8_t, 256> table = [] {
        constexpr double kGamma = 2.5, kTextureGamma = 2.0;  // the engine's defaults of gamma and texgamma
        std::array<uint8_t, 256> t{};
        for (size_t i = 0; i < t.size(); ++i)
            t[i] = uint8_t(std::clamp(int(std::pow(double(i) / 255.0, kTextureGamma / kGamma) * 255.0), 0, 255));
        return t;
    }();
    return table;
}

}  // namespace luxel
