// TGA through stb_image (Debian's libstb): Quake 3's textures and external lightmaps. Pixels as stored, in the
// file's own channel count, top row first whatever the file's origin.
//
// stb_image and OpenImageIO agree on every TGA of OpenArena (1,890 files: 24/32-bit RGB(A), plain and RLE,
// bottom-up and top-down) and on 8-bit grey, grey+alpha and 24-bit palettes. They differ on rarer layouts
// (5-bit channels, 32-bit palettes, right-to-left rows, palettes not starting at entry 0): isStbLayout sends
// only the agreed ones here, the rest to OpenImageIO. stb_image also pads a short file's missing pixels with
// zeros where OpenImageIO reports it: the length is checked here first.
#include <stb/stb_image.h>

#include <algorithm>
#include <climits>
#include <memory>

#include "codecs.hpp"
#include "luxel/util/error.hpp"

namespace luxel {

namespace {

struct TgaHeader {
    int idLength, colourMapType, imageType, mapFirst, mapLength, mapBits, width, height, bits, descriptor;
};

constexpr size_t kHeaderBytes = 18;

TgaHeader readHeader(std::span<const uint8_t> b) {
    auto u16 = [&](size_t at) { return int(b[at]) | (int(b[at + 1]) << 8); };
    return {b[0], b[1], b[2], u16(3), u16(5), b[7], u16(12), u16(14), b[16], b[17]};
}

bool isStbLayout(const TgaHeader& h) {
    if (h.descriptor & 0x10) return false;  // right-to-left rows
    const int type = h.imageType & ~8;      // 8: run-length encoded
    switch (type) {
        case 2: return h.colourMapType == 0 && (h.bits == 24 || h.bits == 32);
        case 3: return h.colourMapType == 0 && (h.bits == 8 || (h.bits == 16 && (h.descriptor & 8)));
        case 1: return h.colourMapType == 1 && h.bits == 8 && h.mapFirst == 0 && h.mapBits == 24;
        default: return false;
    }
}

// Whether the pixel data after the header, ID and palette is all there: the plain size for uncompressed files,
// a walk over the run-length packets for compressed ones.
bool pixelsComplete(std::span<const uint8_t> b, const TgaHeader& h) {
    size_t at = kHeaderBytes + size_t(h.idLength) + size_t(h.mapLength) * size_t((h.mapBits + 7) / 8) * size_t(h.colourMapType);
    const size_t pixelBytes = size_t(h.bits / 8);
    uint64_t left = uint64_t(h.width) * uint64_t(h.height);
    if (!(h.imageType & 8)) return at <= b.size() && left * pixelBytes <= b.size() - at;
    while (left > 0) {
        if (at >= b.size()) return false;
        const uint8_t packet = b[at++];
        const uint64_t count = std::min<uint64_t>(uint64_t(packet & 0x7f) + 1, left);
        const size_t bytes = (packet & 0x80) ? pixelBytes : size_t(count) * pixelBytes;
        if (bytes > b.size() - at) return false;
        at += bytes;
        left -= count;
    }
    return true;
}

}  // namespace

bool isOwnTga(std::span<const uint8_t> bytes) {
    return bytes.size() >= kHeaderBytes && isStbLayout(readHeader(bytes));
}

DecodedSamples decodeTga(std::span<const uint8_t> bytes, const std::string& name) {
    if (bytes.size() > size_t(INT_MAX)) throw LimitError(name, "image", 0, "TGA file over 2 GiB");
    if (bytes.size() < kHeaderBytes) throw DecodeError(name, "image", 0, "TGA header truncated");
    const TgaHeader header = readHeader(bytes);
    DecodedSamples image;
    image.width = header.width, image.height = header.height;
    image.channels = (header.imageType & ~8) == 3 ? header.bits / 8 : std::max(3, header.bits / 8);
    checkDecodedSize(image.width, image.height, image.channels, bytes.size(), name);
    if (!pixelsComplete(bytes, header))
        throw DecodeError(name, "image", bytes.size(), "TGA truncated: its pixels end past the file's end");
    int width = 0, height = 0, channels = 0;
    std::unique_ptr<uint8_t, void (*)(void*)> pixels(
        stbi_load_from_memory(bytes.data(), int(bytes.size()), &width, &height, &channels, 0), stbi_image_free);
    if (!pixels) throw DecodeError(name, "image", 0, std::string("cannot decode TGA: ") + stbi_failure_reason());
    if (width != image.width || height != image.height || channels != image.channels)
        throw DecodeError(name, "image", 0, "TGA header and pixels disagree on the size");
    image.bytes.assign(pixels.get(), pixels.get() + size_t(width) * size_t(height) * size_t(channels));
    return image;
}

}  // namespace luxel
