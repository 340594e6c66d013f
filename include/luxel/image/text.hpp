#pragma once
// Labels drawn with FreeType: the printable ASCII glyphs of one TrueType font at one pixel size, rendered once
// as anti-aliased coverage bitmaps, then placed by any number of threads (the contact sheet draws its tiles in
// parallel; a FreeType face is not thread-safe, its rendered glyphs are plain data).
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace luxel {

// DejaVu Sans (Debian's fonts-dejavu-core): the labels' font unless one is asked for.
inline constexpr const char* kDefaultFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

// Where text is anchored horizontally at its pen position.
enum class TextAlign { Left, Center, Right };

struct Glyph {
    int left = 0, top = 0;          // the bitmap's top-left corner from the pen position on the baseline (y up)
    int width = 0, height = 0;
    int advance = 0;                // pen step to the next glyph, whole pixels
    std::vector<uint8_t> coverage;  // width x height, 0 (none) .. 255 (covered)
};

struct GlyphSet {
    int pixelSize = 0;
    std::array<Glyph, 95> glyphs;  // ' ' .. '~'; any other byte is drawn as '?'
    const Glyph& of(char c) const;
};

// The glyphs of the font at `fontPath` at `pixelSize` pixels (FreeType's nominal size); null when the file is
// missing or no font FreeType can read.
std::shared_ptr<const GlyphSet> loadGlyphs(const std::string& fontPath, int pixelSize);

// The right end of the text's ink when its pen starts at x = 0 (what a box starting at the pen must hold).
int textRight(const GlyphSet& glyphs, std::string_view text);

// Calls plot(x, y, coverage) for every pixel the text covers (coverage 1..255), pen at x for Left, the ink
// centred on x for Center, ending at x for Right; y is the baseline. Overlapping glyphs plot a pixel twice.
template <class Plot>
void rasterText(const GlyphSet& glyphs, int x, int y, std::string_view text, TextAlign align, Plot&& plot) {
    int pen = x;
    if (align != TextAlign::Left) {
        const int right = textRight(glyphs, text);
        pen -= align == TextAlign::Center ? right / 2 : right;
    }
    for (char c : text) {
        const Glyph& g = glyphs.of(c);
        for (int row = 0; row < g.height; ++row)
            for (int column = 0; column < g.width; ++column)
                if (const uint8_t a = g.coverage[size_t(row) * size_t(g.width) + size_t(column)])
                    plot(pen + g.left + column, y - g.top + row, a);
        pen += g.advance;
    }
}

}  // namespace luxel
