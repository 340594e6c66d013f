#include "support/vtf_writer.hpp"

#include <catch2/catch.hpp>

#include "support/decode_helpers.hpp"

namespace luxel::test {

Bytes makeVtf(const VtfSpec& s) {
    const bool resources = s.minor >= 3;
    const uint32_t entries = resources ? 2u + (s.extraResource.empty() ? 0u : 1u) + (s.axcStrength ? 1u : 0u) : 0u;
    const uint32_t headerSize = s.minor < 2 ? 64 : 80 + 8 * entries;
    LeWriter w;
    w.u8('V'), w.u8('T'), w.u8('F'), w.u8(0);
    w.u32(7);
    w.u32(s.minor);
    w.u32(headerSize);
    w.u16(s.width);
    w.u16(s.height);
    w.u32(s.flags);
    w.u16(s.frames);
    w.u16(s.firstFrame);
    w.u32(0);
    w.f32(0.25f), w.f32(0.5f), w.f32(0.75f);
    w.u32(0);
    w.f32(1.5f);
    w.i32(s.format);
    w.u8(s.mips);
    w.i32(s.lowFormat);
    w.u8(s.lowWidth);
    w.u8(s.lowHeight);
    if (s.minor >= 2) w.u16(s.depth);
    if (resources) {
        w.u8(0), w.u8(0), w.u8(0);
        w.u32(entries);
    }
    while (w.bytes.size() < (resources ? 80u : headerSize)) w.u8(0);
    if (resources) {
        const uint32_t lowAt = headerSize;
        const uint32_t extraAt = lowAt + uint32_t(s.lowData.size());
        const uint32_t axcAt = extraAt + (s.extraResource.empty() ? 0 : 4 + uint32_t(s.extraResource.size()));
        const uint32_t imageAt = axcAt + (s.axcStrength ? 8 : 0);
        // Order the entries so the image is not the first: a "CRC" entry with inline data (flag 0x02) first.
        w.u8('C'), w.u8('R'), w.u8('C'), w.u8(0x02), w.u32(0xdeadbeef);
        if (!s.extraResource.empty()) w.u8('K'), w.u8('V'), w.u8('D'), w.u8(0), w.u32(extraAt);
        if (s.axcStrength) w.u8('A'), w.u8('X'), w.u8('C'), w.u8(0), w.u32(axcAt);
        w.u8(0x30), w.u8(0), w.u8(0), w.u8(0), w.u32(imageAt);
        REQUIRE(w.bytes.size() == headerSize);
        w.bytes.insert(w.bytes.end(), s.lowData.begin(), s.lowData.end());
        if (!s.extraResource.empty()) {
            w.u32(uint32_t(s.extraResource.size()));
            w.bytes.insert(w.bytes.end(), s.extraResource.begin(), s.extraResource.end());
        }
        if (s.axcStrength) w.u32(4), w.u32(*s.axcStrength);
        REQUIRE(w.bytes.size() == imageAt);
    } else {
        w.bytes.insert(w.bytes.end(), s.lowData.begin(), s.lowData.end());
    }
    w.bytes.insert(w.bytes.end(), s.data.begin(), s.data.end());
    return w.bytes;
}

Bytes makeVtf2x2(const std::vector<std::array<uint8_t, 4>>& rgba) {
    VtfSpec s;
    s.width = s.height = 2;
    for (const auto& p : rgba) s.data.insert(s.data.end(), p.begin(), p.end());
    return makeVtf(s);
}

}  // namespace luxel::test
