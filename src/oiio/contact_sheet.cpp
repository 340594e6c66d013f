// Contact sheets drawn with OpenImageIO: thumbnails fitted with its box filter, labels with its FreeType text.
#include "luxel/batch/contact_sheet.hpp"

#include <OpenImageIO/imagebuf.h>
#include <OpenImageIO/imagebufalgo.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>
#include <cmath>
#include <filesystem>
#include <string_view>
#include <system_error>
#include <unistd.h>

#include "luxel/image/image.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/util/error.hpp"
#include "module_parts.hpp"

namespace luxel::oiio {
namespace fs = std::filesystem;
namespace IBA = OIIO::ImageBufAlgo;

namespace {

// Sharp enough for thumbnails at a quarter of lanczos3's cost (OIIO 2.4 resizes with a 2D kernel).
constexpr const char* kThumbnailFilter = "box";
constexpr const char* kDejaVuSans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

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

// Text as render_text can draw it: printable ASCII; every other code point (or invalid UTF-8 byte) becomes
// one '?'. OIIO 2.4's render_text mangles code points past U+007F (e.g. U+00E9 comes out as ')', U+2026 as
// '&'), and a line feed would start a new line. Returns each character's byte offset too, for cutting.
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

// The font every text of one call uses; empty `name` with `found` is OIIO's own default font.
struct Font {
    bool found = false;
    std::string name;
};

bool fontWorks(const std::string& name) {
    bool ok = IBA::text_size("Ag", kLabelFontSize, name).defined();
    if (!ok) OIIO::geterror();  // the failed lookup leaves a message behind; it is not ours to show
    return ok;
}

Font findFont(const std::string& wanted) {
    std::vector<std::string> candidates;
    if (!wanted.empty()) {
        candidates.push_back(wanted);
    } else {
        candidates.push_back(kDejaVuSans);
        candidates.push_back("DejaVuSans");  // OIIO searches its font folders for it
    }
    candidates.push_back("");
    for (const std::string& name : candidates) {
        std::error_code ec;
        if (name.find('/') != std::string::npos && !fs::is_regular_file(name, ec)) continue;
        if (fontWorks(name)) return {true, name};
    }
    return {};
}

// Right end of `text` drawn from x = 0 (what a box starting at the pen position must hold).
int textRight(const std::string& text, int size, const Font& font) {
    OIIO::ROI r = IBA::text_size(text, size, font.name);
    if (!r.defined()) {
        OIIO::geterror();
        return 0;
    }
    return r.xend;
}

// The longest start of `text` that fits `maxWidth` pixels, with "..." when cut.
std::string fitText(const CleanText& text, int maxWidth, int size, const Font& font) {
    if (textRight(text.text, size, font) <= maxWidth) return text.text;
    static const std::string kEllipsis = "...";
    size_t lo = 0, hi = text.starts.size();  // code points kept: lo fits, hi does not
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (textRight(text.text.substr(0, text.starts[mid]) + kEllipsis, size, font) <= maxWidth)
            lo = mid;
        else
            hi = mid;
    }
    return lo == 0 ? kEllipsis : text.text.substr(0, text.starts[lo]) + kEllipsis;
}

// Greedy word wrap into at most `maxLines` lines of `maxWidth` pixels; the last line gets "..." when the
// text goes on.
std::vector<std::string> wrapText(const std::string& text, int maxWidth, int size, const Font& font, int maxLines) {
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
        while (w < words.size() && textRight(line + " " + words[w], size, font) <= maxWidth) line += " " + words[w++];
        bool last = int(lines.size()) + 1 == maxLines;
        if (last && w < words.size()) {
            std::string rest = line;
            while (w < words.size()) rest += " " + words[w++];
            line = fitText(cleanText(rest), maxWidth, size, font);  // cut, so it ends in "..."
        } else {
            line = fitText(cleanText(line), maxWidth, size, font);
        }
        lines.push_back(line);
    }
    return lines;
}

void drawText(OIIO::ImageBuf& sheet, int x, int y, const std::string& text, int size, const Font& font,
              const std::array<float, 3>& color, IBA::TextAlignX alignX, OIIO::ROI clip) {
    if (!font.found || text.empty()) return;
    if (!IBA::render_text(sheet, x, y, text, size, font.name, color, alignX, IBA::TextAlignY::Baseline, 0, clip, 1))
        sheet.geterror();  // no text is better than no sheet
}

std::string firstLine(std::string message) {
    size_t end = message.find_first_of("\r\n");
    if (end != std::string::npos) message.resize(end);
    return message.empty() ? "unknown error" : message;
}

// The thumbnail as 3-channel display values fitted into w x h (aspect kept), or the reason it cannot be.
struct Thumbnail {
    OIIO::ImageBuf image;
    std::string error;
};

// `src` (read as float) fitted into areaWidth x areaHeight; `path` names it in errors and decides whether it
// holds linear light.
Thumbnail fitImage(const OIIO::ImageBuf& src, const std::string& path, int areaWidth, int areaHeight) {
    Thumbnail out;
    const OIIO::ImageSpec& spec = src.spec();
    double scale = std::min(double(areaWidth) / spec.width, double(areaHeight) / spec.height);
    int w = std::clamp(int(std::lround(spec.width * scale)), 1, areaWidth);
    int h = std::clamp(int(std::lround(spec.height * scale)), 1, areaHeight);
    int n = spec.nchannels;
    int alpha = spec.alpha_channel >= 0 ? spec.alpha_channel : (n == 2 || n == 4 ? n - 1 : -1);
    bool linear = !isLdrPath(path);
    std::string why;
    if (n == 3 && alpha < 0 && !linear) {  // what luxel writes: straight to size
        out.image = IBA::resize(src, kThumbnailFilter, 0.0f, OIIO::ROI(0, w, 0, h, 0, 1, 0, 3), 1);
    } else {
        // RGB plus alpha (opaque when the file has none); grey files repeat their one channel. Linear-light
        // files (EXR, TIFF, HDR) are shown as a PNG of them would look; transparency shows the letterbox.
        std::vector<int> order = n >= 3 ? std::vector<int>{0, 1, 2, alpha} : std::vector<int>{0, 0, 0, alpha};
        std::vector<float> values = {0.0f, 0.0f, 0.0f, 1.0f};
        std::vector<std::string> names = {"R", "G", "B", "A"};
        OIIO::ImageBuf rgba = IBA::channels(src, 4, order, values, names, false, 1);
        if (linear) rgba = IBA::colorconvert(rgba, "linear", "sRGB", true, "", "", nullptr, {}, 1);
        OIIO::ImageBuf fitted = IBA::resize(rgba, kThumbnailFilter, 0.0f, OIIO::ROI(0, w, 0, h, 0, 1, 0, 4), 1);
        OIIO::ImageBuf backdrop = IBA::fill({kSheetLetterbox[0], kSheetLetterbox[1], kSheetLetterbox[2], 1.0f},
                                            OIIO::ROI(0, w, 0, h, 0, 1, 0, 4), 1);
        backdrop.specmod().alpha_channel = 3;
        out.image = IBA::over(fitted, backdrop, {}, 1);
        why = rgba.geterror() + fitted.geterror();
    }
    why += out.image.geterror();
    if (!why.empty() || !out.image.initialized()) {
        out.error = "cannot scale thumbnail " + path + ": " + firstLine(why);
        OIIO::geterror();
        out.image.reset();
    }
    return out;
}

bool usableThumbnailSize(int width, int height, int channels) {
    return width > 0 && height > 0 && channels > 0 && width <= kMaxSheetTileSide && height <= kMaxSheetTileSide;
}

// A fitted image as the sheet stores it: OpenImageIO's conversion of its float pixels to 8 bits.
std::shared_ptr<const FittedThumbnail> toFitted(const OIIO::ImageBuf& image) {
    auto fitted = std::make_shared<FittedThumbnail>();
    fitted->width = image.spec().width;
    fitted->height = image.spec().height;
    fitted->rgb.resize(size_t(fitted->width) * size_t(fitted->height) * 3);
    if (!image.get_pixels(OIIO::ROI(0, fitted->width, 0, fitted->height, 0, 1, 0, 3), OIIO::TypeDesc::UINT8,
                          fitted->rgb.data()))
        return nullptr;
    return fitted;
}

// 8-bit RGB bytes fitted: the one path for what luxel writes, from memory (the batch) or read back from a PNG.
std::shared_ptr<const FittedThumbnail> fitBytes(const uint8_t* rgb, int width, int height, int areaWidth,
                                                int areaHeight, const std::string& path, std::string& error) {
    OIIO::ImageBuf bytes(OIIO::ImageSpec(width, height, 3, OIIO::TypeDesc::UINT8), const_cast<uint8_t*>(rgb));
    OIIO::ImageBuf src(OIIO::ImageSpec(width, height, 3, OIIO::TypeDesc::FLOAT));
    if (!src.copy_pixels(bytes)) {
        error = "cannot scale thumbnail " + path + ": " + firstLine(src.geterror());
        return nullptr;
    }
    Thumbnail thumb = fitImage(src, path, areaWidth, areaHeight);
    error = thumb.error;
    return error.empty() ? toFitted(thumb.image) : nullptr;
}

// The thumbnail file fitted into areaWidth x areaHeight, or null with `error` set.
std::shared_ptr<const FittedThumbnail> loadFitted(const std::string& path, int areaWidth, int areaHeight,
                                                  std::string& error) {
    OIIO::ImageBuf src(path);
    if (!src.init_spec(path, 0, 0)) {
        error = "cannot read thumbnail " + path + ": " + firstLine(src.geterror());
        OIIO::geterror();
        return nullptr;
    }
    const OIIO::ImageSpec& spec = src.spec();
    if (!usableThumbnailSize(spec.width, spec.height, spec.nchannels)) {
        error = "thumbnail " + path + " has an unusable size " + std::to_string(spec.width) + "x" +
                std::to_string(spec.height);
        return nullptr;
    }
    // 8-bit RGB without alpha (luxel's PNG and JPEG views): through the bytes, as the batch fits them.
    const bool rgb8 = spec.nchannels == 3 && spec.alpha_channel < 0 && spec.format == OIIO::TypeDesc::UINT8 &&
                      isLdrPath(path);
    if (!src.read(0, 0, true, rgb8 ? OIIO::TypeDesc::UINT8 : OIIO::TypeDesc::FLOAT)) {
        error = "cannot read thumbnail " + path + ": " + firstLine(src.geterror());
        OIIO::geterror();
        return nullptr;
    }
    if (rgb8) {
        std::vector<uint8_t> bytes(size_t(spec.width) * size_t(spec.height) * 3);
        if (!src.get_pixels(OIIO::ROI(0, spec.width, 0, spec.height, 0, 1, 0, 3), OIIO::TypeDesc::UINT8, bytes.data())) {
            error = "cannot read thumbnail " + path + ": " + firstLine(src.geterror());
            return nullptr;
        }
        return fitBytes(bytes.data(), spec.width, spec.height, areaWidth, areaHeight, path, error);
    }
    Thumbnail thumb = fitImage(src, path, areaWidth, areaHeight);
    error = thumb.error;
    return error.empty() ? toFitted(thumb.image) : nullptr;
}

void fillBox(OIIO::ImageBuf& sheet, int x, int y, int w, int h, const std::array<float, 3>& color) {
    IBA::fill(sheet, color, OIIO::ROI(x, x + w, y, y + h, 0, 1, 0, 3), 1);
}

void drawFailed(OIIO::ImageBuf& sheet, int x, int y, int w, int h, const std::string& error, const Font& font) {
    fillBox(sheet, x, y, w, h, kSheetFailedColor);
    OIIO::ROI area(x, x + w, y, y + h, 0, 1, 0, 3);
    for (int d = 0; d < 2; ++d) {  // a 2 px cross corner to corner
        IBA::render_line(sheet, x + d, y, x + w - 2 + d, y + h - 1, kFailedCross, false, area, 1);
        IBA::render_line(sheet, x + w - 2 + d, y, x + d, y + h - 1, kFailedCross, false, area, 1);
    }
    if (!font.found) return;

    int titleSize = std::clamp(h / 7, 10, 28);
    int lineCount = std::clamp((h / 2 - 10) / kErrorLineStep, 0, 3);
    std::vector<std::string> lines = wrapText(cleanText(error).text, w - 2 * kLabelPadding, kErrorFontSize, font,
                                              lineCount);
    // The title and the error lines as one block, centred, on a dark band so the cross does not cut them.
    int blockHeight = titleSize + int(lines.size()) * kErrorLineStep;
    int top = y + (h - blockHeight) / 2;
    int bandTop = std::max(y, top - 6), bandBottom = std::min(y + h, top + blockHeight + 6);
    fillBox(sheet, x, bandTop, w, bandBottom - bandTop, kFailedBand);
    int cx = x + w / 2;
    int baseline = top + titleSize * 3 / 4 + 1;
    drawText(sheet, cx, baseline, "FAILED", titleSize, font, kFailedTitle, IBA::TextAlignX::Center, area);
    baseline += titleSize / 4 + kErrorLineStep - 1;
    for (const std::string& line : lines) {
        drawText(sheet, cx, baseline, line, kErrorFontSize, font, kFailedDetail, IBA::TextAlignX::Center, area);
        baseline += kErrorLineStep;
    }
}

void drawTile(OIIO::ImageBuf& sheet, int x, int y, const SheetTile& tile, const SheetOptions& options,
              const Font& font) {
    int w = options.tileWidth, h = options.tileHeight;
    std::string error = tile.error;
    if (error.empty() && tile.imagePath.empty()) error = "no thumbnail";
    if (error.empty()) {
        std::shared_ptr<const FittedThumbnail> fitted = tile.fitted ? tile.fitted : loadFitted(tile.imagePath, w, h, error);
        if (fitted) {
            const FittedThumbnail& f = *fitted;
            fillBox(sheet, x, y, w, h, kSheetLetterbox);
            OIIO::ImageBuf image(OIIO::ImageSpec(f.width, f.height, 3, OIIO::TypeDesc::UINT8),
                                 const_cast<uint8_t*>(f.rgb.data()));
            IBA::paste(sheet, x + (w - f.width) / 2, y + (h - f.height) / 2, 0, 0, image,
                       OIIO::ROI(0, f.width, 0, f.height, 0, 1, 0, 3), 1);
        } else if (error.empty()) {
            error = "cannot scale thumbnail " + tile.imagePath;
        }
    }
    if (!error.empty()) drawFailed(sheet, x, y, w, h, error, font);

    fillBox(sheet, x, y + h, w, kSheetLabelHeight, kSheetLabelBackground);
    OIIO::ROI strip(x, x + w, y + h, y + h + kSheetLabelHeight, 0, 1, 0, 3);
    std::string label = fitText(cleanText(tile.label), w - 2 * kLabelPadding, kLabelFontSize, font);
    drawText(sheet, x + kLabelPadding, y + h + kLabelBaseline, label, kLabelFontSize, font,
             error.empty() ? kLabelText : kFailedLabelText, IBA::TextAlignX::Left, strip);
}

void writeAtomically(OIIO::ImageBuf& sheet, const std::string& path) {
    fs::path target(path);
    std::string ext = target.extension().string();
    if (ext.empty()) throw UsageError(path + ": no file extension to choose an image format by");
    // The temporary keeps the extension so OpenImageIO picks the same writer.
    fs::path temp = target.parent_path() / ("." + target.stem().string() + ".tmp" + std::to_string(::getpid()) + ext);
    std::error_code ec;
    if (!sheet.write(temp.string())) {
        std::string why = firstLine(sheet.geterror());
        OIIO::geterror();
        fs::remove(temp, ec);
        throw UsageError(path + ": cannot write the contact sheet: " + why);
    }
    fs::rename(temp, target, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(temp, ignored);
        throw UsageError(path + ": cannot move the finished contact sheet into place: " + ec.message());
    }
}

}  // namespace

std::shared_ptr<const FittedThumbnail> fitThumbnail(const uint8_t* rgb, int width, int height, int tileWidth,
                                                    int tileHeight) {
    if (!rgb || !usableThumbnailSize(width, height, 3) || tileWidth <= 0 || tileHeight <= 0) return nullptr;
    std::string error;
    return fitBytes(rgb, width, height, tileWidth, tileHeight, ".png", error);
}

std::vector<std::string> writeContactSheets(const std::vector<SheetTile>& tiles, const std::string& path,
                                            const SheetOptions& options) {
    SheetLayout layout = layoutSheets(tiles.size(), options);
    if (tiles.empty()) return {};
    if (fs::path(path).extension().empty())
        throw UsageError(path + ": no file extension to choose an image format by");
    Font font = findFont(options.fontPath);

    std::vector<std::string> written;
    size_t next = 0;
    for (int s = 0; s < layout.sheets; ++s) {
        OIIO::ImageSpec spec(layout.width, layout.sheetHeight(s), 3, OIIO::TypeDesc::UINT8);
        OIIO::ImageBuf sheet(spec);
        IBA::fill(sheet, kSheetBackground);
        size_t end = std::min(tiles.size(), size_t(s + 1) * size_t(layout.rowsPerSheet) * size_t(layout.columns));
        // Tiles are independent and cover disjoint pixels (every drawing call is clipped to its tile), so
        // they are drawn in parallel, each OIIO call single-threaded; the bytes do not depend on the order.
        tbb::parallel_for(tbb::blocked_range<size_t>(next, end, 1), [&](const tbb::blocked_range<size_t>& r) {
            for (size_t i = r.begin(); i < r.end(); ++i)
                drawTile(sheet, layout.tileX(i), layout.tileY(i), tiles[i], options, font);
        });
        next = end;
        std::string file = sheetFileName(path, s);
        // PNG, JPEG and WebP through luxel's own codecs, as the views are written (the sheet's pixels the same,
        // its PNG encoded in a quarter of the time zlib took); other formats through OpenImageIO.
        std::vector<uint8_t> pixels(size_t(spec.width) * size_t(spec.height) * 3);
        sheet.get_pixels(sheet.roi(), OIIO::TypeDesc::UINT8, pixels.data());
        if (const auto bytes = encodeOwnFormat(file, pixels.data(), spec.width, spec.height, 3))
            writeFileAtomic(file, *bytes);
        else
            writeAtomically(sheet, file);
        written.push_back(file);
    }
    return written;
}

}  // namespace luxel::oiio
