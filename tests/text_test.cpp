// Text drawn with FreeType (luxel/image/text.hpp): placement rules checked on DejaVu Sans, whose glyph shapes
// are known (a capital I is one vertical stem as tall as the cap height, about 0.73 em).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "luxel/image/text.hpp"

using namespace luxel;

namespace {

constexpr const char* kDejaVu = kDefaultFontPath;

struct Ink {
    int x0 = 1 << 30, y0 = 1 << 30, x1 = -(1 << 30), y1 = -(1 << 30);  // inclusive bounds of plotted pixels
    int full = 0, plotted = 0;
};

Ink inkOf(const GlyphSet& glyphs, int x, int y, const std::string& text, TextAlign align) {
    Ink ink;
    rasterText(glyphs, x, y, text, align, [&](int px, int py, uint8_t a) {
        ink.x0 = std::min(ink.x0, px), ink.x1 = std::max(ink.x1, px);
        ink.y0 = std::min(ink.y0, py), ink.y1 = std::max(ink.y1, py);
        ink.full += a == 255;
        ++ink.plotted;
    });
    return ink;
}

}  // namespace

TEST_CASE("Text: glyphs of a missing font are refused; other bytes draw as '?'", "[text]") {
    CHECK(loadGlyphs("/nonexistent/font.ttf", 13) == nullptr);
    CHECK(loadGlyphs(kDejaVu, 0) == nullptr);
    if (!std::filesystem::exists(kDejaVu)) {
        WARN("SKIPPED: fonts-dejavu-core is not installed");
        return;
    }
    const auto glyphs = loadGlyphs(kDejaVu, 13);
    REQUIRE(glyphs);
    CHECK(&glyphs->of('\xff') == &glyphs->of('?'));
    CHECK(&glyphs->of('\n') == &glyphs->of('?'));
    CHECK(&glyphs->of('A') != &glyphs->of('?'));
    CHECK(glyphs->of(' ').coverage.empty());
    CHECK(glyphs->of(' ').advance > 0);
    CHECK(textRight(*glyphs, "ab") > textRight(*glyphs, "a"));
    CHECK(textRight(*glyphs, "") == 0);
}

TEST_CASE("Text: a capital I stands on the baseline at the cap height, anchored left, centred or right", "[text]") {
    if (!std::filesystem::exists(kDejaVu)) {
        WARN("SKIPPED: fonts-dejavu-core is not installed");
        return;
    }
    const auto glyphs = loadGlyphs(kDejaVu, 40);
    REQUIRE(glyphs);
    const Ink i = inkOf(*glyphs, 100, 200, "I", TextAlign::Left);
    CHECK(i.y1 == 199);                           // the stem ends on the row above the baseline
    CHECK(200 - i.y0 >= 27);                      // cap height 0.729 em of 40 px: 29 rows
    CHECK(200 - i.y0 <= 31);
    CHECK(i.x0 >= 100);                           // a positive left bearing
    CHECK(i.x1 - i.x0 + 1 <= 8);                  // one stem, about 0.1 em wide
    CHECK(i.full >= 27 * 3);                      // fully covered for most of its height

    const Ink right = inkOf(*glyphs, 300, 200, "Map 12", TextAlign::Right);
    CHECK(right.x1 == 299);
    const int width = textRight(*glyphs, "Map 12");
    const Ink centre = inkOf(*glyphs, 300, 200, "Map 12", TextAlign::Center);
    CHECK(centre.x1 == 300 - width / 2 + width - 1);
    const Ink left = inkOf(*glyphs, 300, 200, "Map 12", TextAlign::Left);
    CHECK(left.x1 == 300 + width - 1);
    CHECK(left.plotted == right.plotted);  // the same glyphs, moved
}
