#pragma once
// VTF files written byte by byte from the format description (tests/vtf_test.cpp checks the decoder on them;
// the material tests use the small ones).
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "luxel/io/map_source.hpp"
#include "luxel/material/vtf.hpp"

namespace luxel::test {

struct VtfSpec {
    uint32_t minor = 2;
    uint16_t width = 4, height = 4, depth = 1, frames = 1, firstFrame = 0;
    uint32_t flags = 0;
    int32_t format = kVtfRGBA8888;
    uint8_t mips = 1;
    int32_t lowFormat = -1;
    uint8_t lowWidth = 0, lowHeight = 0;
    Bytes lowData;  // written where the format puts the thumbnail
    Bytes data;     // the high-res data, already in file order (smallest mip first)
    // 7.3+: a key-values resource with this payload goes between the thumbnail and the image, so the image
    // offset must come from the directory.
    Bytes extraResource;
    std::optional<uint32_t> axcStrength;  // 7.6 compression resource
};

// Header layout: signature, version[2], header size, width, height (u16), flags, frames, first frame (u16),
// 4 pad, reflectivity (3 floats), 4 pad, bump scale, format, mip count (u8), low-res format, low-res w, h (u8),
// then depth (u16, 7.2+), then 3 pad and the resource count (7.3+), padded to 80 bytes; 8-byte resource
// entries (3-byte tag, flags, offset) follow.
Bytes makeVtf(const VtfSpec& spec);

// A VTF 7.2 of 2x2 RGBA8888 texels (row-major), one mip, no thumbnail.
Bytes makeVtf2x2(const std::vector<std::array<uint8_t, 4>>& rgba);

}  // namespace luxel::test
