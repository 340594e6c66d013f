// PCX header (128 bytes): manufacturer 0x0A (0), version (1), encoding 1 = RLE (2), bits per pixel (3),
// window xmin, ymin, xmax, ymax as u16 (4..11), ..., colour planes (65), bytes per plane scanline u16 (66).
// RLE: a byte with both top bits set is a count (low 6 bits) for the byte after it, any other byte is
// itself. Quake 2's reader lets runs cross scanline ends, so the data is decoded as one stream.
#include "luxel/material/pcx.hpp"

#include "luxel/io/reader.hpp"
#include "luxel/util/error.hpp"

namespace luxel {
namespace {

constexpr size_t kHeaderBytes = 128;
constexpr size_t kPaletteBytes = 769;  // marker + 256 * RGB
constexpr uint8_t kPaletteMarker = 0x0c;

struct PcxHeader {
    uint8_t bitsPerPixel = 0, planes = 0;
    int32_t width = 0, height = 0, bytesPerLine = 0;
};

PcxHeader readHeader(ByteReader& r) {
    if (r.size() < kHeaderBytes) r.fail(0, "file of " + std::to_string(r.size()) + " bytes is too small for a PCX header");
    if (r.u8() != 0x0a) r.fail(0, "not a PCX file (manufacturer byte is not 0x0A)");
    PcxHeader h;
    r.seek(3);
    h.bitsPerPixel = r.u8();
    const int32_t xmin = r.u16(), ymin = r.u16(), xmax = r.u16(), ymax = r.u16();
    if (xmax < xmin || ymax < ymin)
        r.fail(4, "window " + std::to_string(xmin) + "," + std::to_string(ymin) + " to " + std::to_string(xmax) + "," +
                      std::to_string(ymax) + " is empty");
    h.width = xmax - xmin + 1, h.height = ymax - ymin + 1;
    if (h.width > kMaxTextureSide || h.height > kMaxTextureSide)
        r.failLimit(4, "image size " + std::to_string(h.width) + "x" + std::to_string(h.height) + " is outside 1.." +
                      std::to_string(kMaxTextureSide));
    r.seek(65);
    h.planes = r.u8();
    h.bytesPerLine = r.u16();
    if (h.bytesPerLine < h.width)
        r.fail(66, std::to_string(h.bytesPerLine) + " bytes per scanline for an image " + std::to_string(h.width) +
                       " wide");
    return h;
}

// height * planes * bytesPerLine bytes of RLE-decoded scanlines from the image data window `r`.
std::vector<uint8_t> decodeRle(ByteReader r, const PcxHeader& h) {
    const size_t total = size_t(h.height) * h.planes * size_t(h.bytesPerLine);
    std::vector<uint8_t> out;
    out.reserve(std::min(total, r.size() * 63));  // a byte decodes to at most 63: no huge reservation
    while (out.size() < total) {
        if (r.remaining() == 0)
            r.fail(r.position(), "image data ends after " + std::to_string(out.size()) + " of " + std::to_string(total) +
                                     " bytes");
        const uint8_t b = r.u8();
        if ((b & 0xc0) != 0xc0) {
            out.push_back(b);
            continue;
        }
        if (r.remaining() == 0) r.fail(r.position() - 1, "run at the end of the image data has no value byte");
        const uint8_t value = r.u8();
        out.insert(out.end(), std::min<size_t>(b & 0x3f, total - out.size()), value);
    }
    return out;
}

}  // namespace

Palette readPcxPalette(const std::vector<uint8_t>& bytes, const std::string& name) {
    ByteReader r(bytes, name, "header");
    if (r.size() < kHeaderBytes + kPaletteBytes)
        r.fail(0, "file of " + std::to_string(r.size()) + " bytes is too small for a PCX header and a 256-colour palette");
    if (r.u8() != 0x0a) r.fail(0, "not a PCX file (manufacturer byte is not 0x0A)");
    r.seek(3);
    if (const uint8_t bits = r.u8(); bits != 8) r.fail(3, std::to_string(bits) + " bits per pixel; a 256-colour palette needs 8");
    r.seek(65);
    if (const uint8_t planes = r.u8(); planes != 1)
        r.fail(65, std::to_string(planes) + " colour planes; a 256-colour palette needs 1");

    ByteReader p = r.sub(r.size() - kPaletteBytes, kPaletteBytes, "palette");
    if (const uint8_t marker = p.u8(); marker != kPaletteMarker)
        p.fail(0, "palette marker is " + std::to_string(marker) + ", not 12 (0x0C)");
    Palette palette{};
    for (auto& c : palette)
        for (uint8_t& v : c) v = p.u8();
    return palette;
}

RgbaImage decodePcx(const std::vector<uint8_t>& bytes, const std::string& name) {
    ByteReader r(bytes, name, "header");
    const PcxHeader h = readHeader(r);
    const bool paletted = h.bitsPerPixel == 8 && h.planes == 1, rgb = h.bitsPerPixel == 8 && h.planes == 3;
    if (!paletted && !rgb)
        r.fail(3, std::to_string(h.bitsPerPixel) + " bits per pixel in " + std::to_string(h.planes) +
                      " planes; supported are 8 in 1 (256 colours) and 8 in 3 (RGB)");
    const Palette palette = paletted ? readPcxPalette(bytes, name) : Palette{};
    const size_t end = paletted ? bytes.size() - kPaletteBytes : bytes.size();  // readPcxPalette: >= 128
    const std::vector<uint8_t> lines = decodeRle(r.sub(kHeaderBytes, end - kHeaderBytes, "image data"), h);

    RgbaImage img;
    img.width = h.width;
    img.height = h.height;
    img.rgba.resize(size_t(h.width) * size_t(h.height) * 4);
    for (int32_t y = 0; y < h.height; ++y) {
        const uint8_t* line = lines.data() + size_t(y) * h.planes * size_t(h.bytesPerLine);
        uint8_t* out = img.rgba.data() + size_t(y) * size_t(h.width) * 4;
        for (int32_t x = 0; x < h.width; ++x, out += 4) {
            if (paletted) {
                const auto& c = palette[line[x]];
                out[0] = c[0], out[1] = c[1], out[2] = c[2];
            } else {
                for (int c = 0; c < 3; ++c) out[c] = line[size_t(c) * size_t(h.bytesPerLine) + size_t(x)];
            }
            out[3] = 255;
        }
    }
    return img;
}

}  // namespace luxel
