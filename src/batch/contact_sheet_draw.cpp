// Contact sheets drawn: thumbnails fitted with stb_image_resize's box filter, labels with FreeType (luxel/image/
// text.hpp), the sheet encoded by luxel's own codecs. OpenImageIO's module is loaded only for a thumbnail file or
// a sheet format that only it reads or writes (EXR, TIFF, ...).
#include <stb/stb_image_resize.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string_view>

#include "luxel/batch/contact_sheet.hpp"
#include "luxel/image/image.hpp"
#include "luxel/image/text.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/util/error.hpp"

namespace luxel {
namespace fs = std::filesystem;

namespace {

constexpr int kLabelFontSize = 13;
constexpr int kLabelPadding = 6;     // text inset from the strip's left and right ends
constexpr int kLabelBaseline = 14;   // below the strip's top: capitals sit centred in the 20 px strip
constexpr int kErrorFontSize = 11;
constexpr int kErrorLineStep = 14;
constexpr std::array<float, 3> kLabelText = {0.93f, 0.93f, 0.93f};
constexpr std::array<float, 3> kFailedLabelText = {1.0f, 0.62f, 0.6f};
constexpr std::array<float, 3> kFailedCross = {0.47f, 0.09f, 0.09f};
constexpr std::array<float, 3> kFailedBand = {0.2f, 0.02f, 0.03f};
constexpr std::array<float, 3> kFailedTitle = {1.0f, 1.0f, 1.0f};
constexpr std::array<float, 3> kFailedDetail = {1.0f, 0.82f, 0.8f};

using Rgb8 = std::array<uint8_t, 3>;

Rgb8 bytesOf(const std::array<float, 3>& c) {
    Rgb8 out;
    for (size_t k = 0; k < 3; ++k) out[k] = uint8_t(std::lround(std::clamp(c[k], 0.0f, 1.0f) * 255.0f));
    return out;
}

// One sheet's pixels. Every drawing call is clipped to a rectangle (its tile), so tiles drawn in parallel
// never touch the same pixel.
struct Canvas {
    int width = 0, height = 0;
    std::vector<uint8_t> rgb;
    uint8_t* at(int x, int y) { return rgb.data() + (size_t(y) * size_t(width) + size_t(x)) * 3; }
};

struct Clip {
    int x0, y0, x1, y1;  // [x0, x1) x [y0, y1)
    bool holds(int x, int y) const { return x >= x0 && x < x1 && y >= y0 && y < y1; }
};

void fillBox(Canvas& c, int x, int y, int w, int h, const std::array<float, 3>& color) {
    const Rgb8 v = bytesOf(color);
    for (int row = std::max(y, 0); row < std::min(y + h, c.height); ++row)
        for (int column = std::max(x, 0); column < std::min(x + w, c.width); ++column)
            std::copy(v.begin(), v.end(), c.at(column, row));
}

// A one-pixel line (Bresenham, both ends drawn), clipped.
void drawLine(Canvas& c, int x0, int y0, int x1, int y1, const std::array<float, 3>& color, const Clip& clip) {
    const Rgb8 v = bytesOf(color);
    const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0), sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    for (int err = dx + dy;;) {
        if (clip.holds(x0, y0)) std::copy(v.begin(), v.end(), c.at(x0, y0));
        if (x0 == x1 && y0 == y1) break;
        const int e2 = 2 * err;
        if (e2 >= dy) err += dy, x0 += sx;
        if (e2 <= dx) err += dx, y0 += sy;
    }
}

void drawText(Canvas& c, const GlyphSet* glyphs, int x, int y, std::string_view text,
              const std::array<float, 3>& color, TextAlign align, const Clip& clip) {
    if (!glyphs || text.empty()) return;
    const Rgb8 v = bytesOf(color);
    rasterText(*glyphs, x, y, text, align, [&](int px, int py, uint8_t a) {
        if (!clip.holds(px, py)) return;
        uint8_t* p = c.at(px, py);
        for (size_t k = 0; k < 3; ++k) p[k] = uint8_t((p[k] * (255 - a) + v[k] * a + 127) / 255);
    });
}

// Text as the glyph sets hold it: printable ASCII; every other code point (or invalid UTF-8 byte) becomes one
// '?'. Returns each character's byte offset too, for cutting.
struct CleanText {
    std::string text;
    std::vector<size_t> starts;  // byte offset of each code point
};

CleanText cleanText(std::string_view in) {
    CleanText out;
    size_t i = 0;
    while (i < in.size()) {
        auto c = static_cast<unsigned char>(in[i]);
        size_t length = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
        bool valid = length > 0 && i + length <= in.size();
        uint32_t cp = length == 1 ? c : length == 2 ? (c & 0x1fu) : length == 3 ? (c & 0x0fu) : (c & 0x07u);
        for (size_t k = 1; valid && k < length; ++k) {
            auto d = static_cast<unsigned char>(in[i + k]);
            valid = (d & 0xc0) == 0x80;
            cp = (cp << 6) | (d & 0x3fu);
        }
        // Overlong forms, surrogates and values past Unicode are invalid too.
        static constexpr uint32_t kMinimum[5] = {0, 0, 0x80, 0x800, 0x10000};
        valid = valid && cp >= kMinimum[length] && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
        out.starts.push_back(out.text.size());
        if (!valid || cp < 0x20 || cp >= 0x7f) {
            out.text += '?';
            i += valid ? length : 1;
        } else {
            out.text.append(in.substr(i, length));
            i += length;
        }
    }
    return out;
}

// The longest start of `text` that fits `maxWidth` pixels, with "..." when cut.
std::string fitText(const CleanText& text, int maxWidth, const GlyphSet& glyphs) {
    if (textRight(glyphs, text.text) <= maxWidth) return text.text;
    static const std::string kEllipsis = "...";
    size_t lo = 0, hi = text.starts.size();  // code points kept: lo fits, hi does not
    while (hi - lo > 1) {
        const size_t mid = (lo + hi) / 2;
        if (textRight(glyphs, text.text.substr(0, text.starts[mid]) + kEllipsis) <= maxWidth)
            lo = mid;
        else
            hi = mid;
    }
    return lo == 0 ? kEllipsis : text.text.substr(0, text.starts[lo]) + kEllipsis;
}

// Greedy word wrap into at most `maxLines` lines of `maxWidth` pixels; the last line gets "..." when the
// text goes on.
std::vector<std::string> wrapText(const std::string& text, int maxWidth, const GlyphSet& glyphs, int maxLines) {
    std::vector<std::string> words;
    for (size_t i = 0; i < text.size();) {
        size_t end = text.find(' ', i);
        if (end == std::string::npos) end = text.size();
        if (end > i) words.push_back(text.substr(i, end - i));
        i = end + 1;
    }
    std::vector<std::string> lines;
    size_t w = 0;
    while (w < words.size() && int(lines.size()) < maxLines) {
        std::string line = words[w++];
        while (w < words.size() && textRight(glyphs, line + " " + words[w]) <= maxWidth) line += " " + words[w++];
        if (int(lines.size()) + 1 == maxLines && w < words.size()) {
            while (w < words.size()) line += " " + words[w++];  // the rest, cut so it ends in "..."
        }
        lines.push_back(fitText(cleanText(line), maxWidth, glyphs));
    }
    return lines;
}

std::string firstLine(std::string message) {
    const size_t end = message.find_first_of("\r\n");
    if (end != std::string::npos) message.resize(end);
    return message.empty() ? "unknown error" : message;
}

bool usableThumbnailSize(int width, int height) {
    return width > 0 && height > 0 && width <= kMaxSheetTileSide && height <= kMaxSheetTileSide;
}

// 8-bit RGB fitted into areaWidth x areaHeight, aspect kept (box filter; a same-size image is copied).
std::shared_ptr<const FittedThumbnail> fitRgb(const uint8_t* rgb, int width, int height, int areaWidth,
                                              int areaHeight) {
    const double scale = std::min(double(areaWidth) / width, double(areaHeight) / height);
    auto fitted = std::make_shared<FittedThumbnail>();
    fitted->width = std::clamp(int(std::lround(width * scale)), 1, areaWidth);
    fitted->height = std::clamp(int(std::lround(height * scale)), 1, areaHeight);
    fitted->rgb.resize(size_t(fitted->width) * size_t(fitted->height) * 3);
    if (!stbir_resize_uint8_generic(rgb, width, height, 0, fitted->rgb.data(), fitted->width, fitted->height, 0, 3,
                                    STBIR_ALPHA_CHANNEL_NONE, 0, STBIR_EDGE_CLAMP, STBIR_FILTER_BOX,
                                    STBIR_COLORSPACE_LINEAR, nullptr))
        return nullptr;
    return fitted;
}

float linearToSrgb(float v) {
    v = std::clamp(v, 0.0f, 1.0f);  // NaN stays NaN: displayBytes takes it as 0
    return v <= 0.0031308f ? 12.92f * v : 1.055f * std::pow(v, 1.0f / 2.4f) - 0.055f;
}

// A thumbnail file as 8-bit RGB: grey files repeat their one channel; linear-light files (EXR, TIFF, HDR) are
// shown as a PNG of them would look. Alpha is dropped: over the black letterbox the colours are what shows.
std::vector<uint8_t> thumbnailRgb(const std::string& path, int& width, int& height) {
    Image floats;
    ByteImage bytes;
    if (isLdrPath(path)) {
        bytes = decodeImageBytes(readFile(path), path);
    } else {
        floats = readImage(path);
        for (float& v : floats.pixels) v = linearToSrgb(v);
        bytes = toDisplayImage(floats);
    }
    width = bytes.width, height = bytes.height;
    if (!usableThumbnailSize(width, height) || bytes.channels < 1)
        throw DecodeError(path, "image", 0, "unusable size " + std::to_string(width) + "x" + std::to_string(height));
    std::vector<uint8_t> rgb(size_t(width) * size_t(height) * 3);
    const size_t n = size_t(bytes.channels);
    for (size_t i = 0, pixels = size_t(width) * size_t(height); i < pixels; ++i)
        for (size_t k = 0; k < 3; ++k) rgb[i * 3 + k] = bytes.bytes[i * n + (n >= 3 ? k : 0)];
    return rgb;
}

std::shared_ptr<const FittedThumbnail> loadFitted(const std::string& path, int areaWidth, int areaHeight,
                                                  std::string& error) {
    try {
        int width = 0, height = 0;
        const std::vector<uint8_t> rgb = thumbnailRgb(path, width, height);
        auto fitted = fitRgb(rgb.data(), width, height, areaWidth, areaHeight);
        if (!fitted) error = "cannot scale thumbnail " + path;
        return fitted;
    } catch (const std::exception& e) {
        error = "cannot read thumbnail " + path + ": " + firstLine(e.what());
        return nullptr;
    }
}

// The glyphs every tile of a sheet uses.
struct SheetFonts {
    std::shared_ptr<const GlyphSet> label, error, title;
};

SheetFonts loadFonts(const SheetOptions& options) {
    std::shared_ptr<const GlyphSet> label = options.fontPath.empty() ? nullptr : loadGlyphs(options.fontPath, kLabelFontSize);
    const std::string path = label ? options.fontPath : kDefaultFontPath;
    if (!label) label = loadGlyphs(path, kLabelFontSize);
    return {label, loadGlyphs(path, kErrorFontSize), loadGlyphs(path, std::clamp(options.tileHeight / 7, 10, 28))};
}

void drawFailed(Canvas& sheet, int x, int y, int w, int h, const std::string& error, const SheetFonts& fonts) {
    fillBox(sheet, x, y, w, h, kSheetFailedColor);
    const Clip area{x, y, x + w, y + h};
    for (int d = 0; d < 2; ++d) {  // a 2 px cross corner to corner
        drawLine(sheet, x + d, y, x + w - 2 + d, y + h - 1, kFailedCross, area);
        drawLine(sheet, x + w - 2 + d, y, x + d, y + h - 1, kFailedCross, area);
    }
    if (!fonts.title || !fonts.error) return;

    const int titleSize = fonts.title->pixelSize;
    const int lineCount = std::clamp((h / 2 - 10) / kErrorLineStep, 0, 3);
    const std::vector<std::string> lines = wrapText(cleanText(error).text, w - 2 * kLabelPadding, *fonts.error, lineCount);
    // The title and the error lines as one block, centred, on a dark band so the cross does not cut them.
    const int blockHeight = titleSize + int(lines.size()) * kErrorLineStep;
    const int top = y + (h - blockHeight) / 2;
    const int bandTop = std::max(y, top - 6), bandBottom = std::min(y + h, top + blockHeight + 6);
    fillBox(sheet, x, bandTop, w, bandBottom - bandTop, kFailedBand);
    const int cx = x + w / 2;
    int baseline = top + titleSize * 3 / 4 + 1;
    drawText(sheet, fonts.title.get(), cx, baseline, "FAILED", kFailedTitle, TextAlign::Center, area);
    baseline += titleSize / 4 + kErrorLineStep - 1;
    for (const std::string& line : lines) {
        drawText(sheet, fonts.error.get(), cx, baseline, line, kFailedDetail, TextAlign::Center, area);
        baseline += kErrorLineStep;
    }
}

void drawTile(Canvas& sheet, int x, int y, const SheetTile& tile, const SheetOptions& options, const SheetFonts& fonts) {
    const int w = options.tileWidth, h = options.tileHeight;
    std::string error = tile.error;
    if (error.empty() && tile.imagePath.empty()) error = "no thumbnail";
    if (error.empty()) {
        const std::shared_ptr<const FittedThumbnail> fitted = tile.fitted ? tile.fitted : loadFitted(tile.imagePath, w, h, error);
        if (fitted) {
            fillBox(sheet, x, y, w, h, kSheetLetterbox);
            const int left = x + (w - fitted->width) / 2, top = y + (h - fitted->height) / 2;
            for (int row = 0; row < fitted->height; ++row)
                std::copy_n(fitted->rgb.data() + size_t(row) * size_t(fitted->width) * 3, size_t(fitted->width) * 3,
                            sheet.at(left, top + row));
        } else if (error.empty()) {
            error = "cannot scale thumbnail " + tile.imagePath;
        }
    }
    if (!error.empty()) drawFailed(sheet, x, y, w, h, error, fonts);

    fillBox(sheet, x, y + h, w, kSheetLabelHeight, kSheetLabelBackground);
    if (!fonts.label) return;
    const Clip strip{x, y + h, x + w, y + h + kSheetLabelHeight};
    const std::string label = fitText(cleanText(tile.label), w - 2 * kLabelPadding, *fonts.label);
    drawText(sheet, fonts.label.get(), x + kLabelPadding, y + h + kLabelBaseline, label,
             error.empty() ? kLabelText : kFailedLabelText, TextAlign::Left, strip);
}

}  // namespace

std::shared_ptr<const FittedThumbnail> fitThumbnail(const uint8_t* rgb, int width, int height, int tileWidth,
                                                    int tileHeight) {
    if (!rgb || !usableThumbnailSize(width, height) || tileWidth <= 0 || tileHeight <= 0) return nullptr;
    return fitRgb(rgb, width, height, tileWidth, tileHeight);
}

std::vector<std::string> writeContactSheets(const std::vector<SheetTile>& tiles, const std::string& path,
                                            const SheetOptions& options) {
    const SheetLayout layout = layoutSheets(tiles.size(), options);
    if (tiles.empty()) return {};
    if (fs::path(path).extension().empty()) throw UsageError(path + ": no file extension to choose an image format by");
    const SheetFonts fonts = loadFonts(options);
    std::vector<std::string> written;
    size_t next = 0;
    for (int s = 0; s < layout.sheets; ++s) {
        Canvas sheet{layout.width, layout.sheetHeight(s), {}};
        sheet.rgb.resize(size_t(sheet.width) * size_t(sheet.height) * 3);
        fillBox(sheet, 0, 0, sheet.width, sheet.height, kSheetBackground);
        const size_t end = std::min(tiles.size(), size_t(s + 1) * size_t(layout.rowsPerSheet) * size_t(layout.columns));
        // Tiles cover disjoint pixels (every drawing call is clipped to its tile): the bytes do not depend on
        // the order they are drawn in.
        tbb::parallel_for(tbb::blocked_range<size_t>(next, end, 1), [&](const tbb::blocked_range<size_t>& r) {
            for (size_t i = r.begin(); i < r.end(); ++i)
                drawTile(sheet, layout.tileX(i), layout.tileY(i), tiles[i], options, fonts);
        });
        next = end;
        const std::string file = sheetFileName(path, s);
        const ByteImage image{sheet.width, sheet.height, 3, std::move(sheet.rgb)};
        std::vector<uint8_t> bytes;
        try {
            bytes = encodeImage(file, image);
        } catch (const std::exception& e) {
            throw UsageError(file + ": cannot write the contact sheet: " + firstLine(e.what()));
        }
        writeFileAtomic(file, bytes);  // its UsageError names the file and what failed
        written.push_back(file);
    }
    return written;
}

}  // namespace luxel
