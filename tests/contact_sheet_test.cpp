// Contact sheets: geometry computed by hand from the layout rule in contact_sheet.hpp
// (width = 4 + columns * (tileWidth + 4), height = 4 + rows * (tileHeight + 20 + 4)), thumbnails made here
// as solid-colour PNGs, and the pixels of the written sheets read back.
#include <catch2/catch.hpp>

#include <OpenImageIO/imagebuf.h>
#include <OpenImageIO/imagebufalgo.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "luxel/batch/contact_sheet.hpp"
#include "luxel/util/error.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
namespace fs = std::filesystem;

namespace {

using Rgb = std::array<int, 3>;

std::string solidPng(const std::string& dir, const std::string& name, int w, int h, Rgb color) {
    OIIO::ImageBuf buf(OIIO::ImageSpec(w, h, 3, OIIO::TypeDesc::UINT8));
    OIIO::ImageBufAlgo::fill(buf, {color[0] / 255.0f, color[1] / 255.0f, color[2] / 255.0f});
    std::string path = (fs::path(dir) / name).string();
    REQUIRE(buf.write(path));
    return path;
}

struct Sheet {
    int width = 0, height = 0;
    OIIO::ImageBuf buf;
    Rgb at(int x, int y) const {
        float p[3] = {0, 0, 0};
        buf.getpixel(x, y, p, 3);
        return {int(p[0] * 255.0f + 0.5f), int(p[1] * 255.0f + 0.5f), int(p[2] * 255.0f + 0.5f)};
    }
};

Sheet readSheet(const std::string& path) {
    Sheet s;
    s.buf = OIIO::ImageBuf(path);
    REQUIRE(s.buf.read(0, 0, true, OIIO::TypeDesc::UINT8));
    s.width = s.buf.spec().width, s.height = s.buf.spec().height;
    return s;
}

Rgb rgb8(const std::array<float, 3>& c) {
    return {int(c[0] * 255.0f + 0.5f), int(c[1] * 255.0f + 0.5f), int(c[2] * 255.0f + 0.5f)};
}

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

bool hasBrightPixel(const Sheet& s, int x0, int y0, int x1, int y1) {
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) {
            Rgb p = s.at(x, y);
            if (p[0] > 180 && p[1] > 180 && p[2] > 180) return true;
        }
    return false;
}

}  // namespace

TEST_CASE("Contact sheet size follows the grid rule", "[sheet]") {
    auto dir = luxel::test::tempDir("sheet-size");
    std::vector<SheetTile> tiles(5);
    for (size_t i = 0; i < tiles.size(); ++i) tiles[i] = {"map" + std::to_string(i), "", "failed on purpose"};
    SheetOptions options;
    options.tileWidth = 40, options.tileHeight = 30, options.columns = 3;

    auto files = writeContactSheets(tiles, dir + "/sheet.png", options);
    REQUIRE(files == std::vector<std::string>{dir + "/sheet.png"});
    Sheet s = readSheet(files[0]);
    CHECK(s.width == 4 + 3 * (40 + 4));         // 136
    CHECK(s.height == 4 + 2 * (30 + 20 + 4));   // 112: 5 tiles in 3 columns are 2 rows
    // The unused sixth cell and the gaps show the sheet background.
    CHECK(s.at(4 + 2 * 44 + 20, 4 + 54 + 15) == rgb8(kSheetBackground));
    CHECK(s.at(0, 0) == rgb8(kSheetBackground));
    CHECK(s.at(4 + 40 + 1, 10) == rgb8(kSheetBackground));  // between columns 0 and 1
}

TEST_CASE("Contact sheet columns: explicit, clamped to the tile count, or roughly 16:9", "[sheet]") {
    SheetOptions options;  // 256x144 tiles: cells of 260 x 168 px
    // 12 tiles: 4 columns make 1044 x 508 (2.06:1), 3 make 784 x 676 (1.16:1), 5 make 1304 x 508 (2.57:1).
    SheetLayout twelve = layoutSheets(12, options);
    CHECK(twelve.columns == 4);
    CHECK(twelve.rows == 3);
    CHECK(twelve.sheets == 1);
    CHECK(twelve.width == 1044);
    CHECK(twelve.sheetHeight(0) == 508);
    CHECK(layoutSheets(1, options).columns == 1);

    options.columns = 10;
    CHECK(layoutSheets(3, options).columns == 3);
    CHECK(layoutSheets(30, options).columns == 10);

    // 1000 tiles: 34 columns make 8844 x 5044 (1.753:1, 30 rows), 33 make 8584 x 5212, 35 make 9104 x 4876.
    options.columns = 0;
    SheetLayout thousand = layoutSheets(1000, options);
    CHECK(thousand.columns == 34);
    CHECK(thousand.rows == 30);
    CHECK(thousand.sheets == 1);
    // 3000 tiles: the best whole grid (59 columns, 51 rows) is taller than 8192 px, which holds 48 rows
    // (4 + 48 * 168 = 8068); a full sheet at 16:9 is 14343 px wide: 55 columns (4 + 55 * 260 = 14304).
    SheetLayout many = layoutSheets(3000, options);
    CHECK(many.rowsPerSheet == 48);
    CHECK(many.columns == 55);
    CHECK(many.rows == 55);
    CHECK(many.sheets == 2);
    CHECK(many.sheetHeight(0) == 8068);
    CHECK(many.sheetHeight(1) == 4 + 7 * 168);
    CHECK(many.sheetOf(48 * 55 - 1) == 0);
    CHECK(many.sheetOf(48 * 55) == 1);
    CHECK(many.tileY(48 * 55 + 56) == 4 + 168);
    CHECK(many.tileX(48 * 55 + 56) == 4 + 260);

    options.columns = 300;  // 4 + 300 * 260 = 78004 px wide
    CHECK_THROWS_AS(layoutSheets(1000, options), UsageError);
    options.columns = 0;
    options.tileWidth = 0;
    CHECK_THROWS_AS(layoutSheets(3, options), UsageError);
}

TEST_CASE("Contact sheet places each thumbnail fitted and centred in its tile", "[sheet]") {
    auto dir = luxel::test::tempDir("sheet-place");
    std::string red = solidPng(dir, "red.png", 64, 36, {255, 0, 0});
    std::string green = solidPng(dir, "green.png", 32, 32, {0, 255, 0});  // square: letterboxed left and right
    std::string blue = solidPng(dir, "blue.png", 640, 360, {0, 0, 255});   // shrunk 10x
    std::vector<SheetTile> tiles = {{"red", red, ""}, {"green", green, ""}, {"blue", blue, ""}};
    SheetOptions options;
    options.tileWidth = 64, options.tileHeight = 36, options.columns = 2;

    auto files = writeContactSheets(tiles, dir + "/sheet.png", options);
    Sheet s = readSheet(files.at(0));
    REQUIRE(s.width == 4 + 2 * 68);
    REQUIRE(s.height == 4 + 2 * 60);
    // Tile 0 at (4, 4): red over its whole thumbnail area, corners included.
    CHECK(s.at(4 + 32, 4 + 18) == Rgb{255, 0, 0});
    CHECK(s.at(4, 4) == Rgb{255, 0, 0});
    CHECK(s.at(4 + 63, 4 + 35) == Rgb{255, 0, 0});
    // Tile 1 at (72, 4): green 36x36 from x = 72 + 14 to 72 + 50, letterbox on both sides.
    CHECK(s.at(72 + 32, 4 + 18) == Rgb{0, 255, 0});
    CHECK(s.at(72 + 14, 4 + 18) == Rgb{0, 255, 0});
    CHECK(s.at(72 + 49, 4 + 18) == Rgb{0, 255, 0});
    CHECK(s.at(72 + 5, 4 + 18) == rgb8(kSheetLetterbox));
    CHECK(s.at(72 + 58, 4 + 18) == rgb8(kSheetLetterbox));
    // Tile 2 at (4, 64) in the second row.
    CHECK(s.at(4 + 32, 64 + 18) == Rgb{0, 0, 255});
    // The label strip under tile 0, past any text.
    CHECK(s.at(4 + 62, 4 + 36 + 1) == rgb8(kSheetLabelBackground));
}

TEST_CASE("Contact sheet marks failed maps and unreadable thumbnails as placeholder tiles", "[sheet]") {
    auto dir = luxel::test::tempDir("sheet-failed");
    std::string red = solidPng(dir, "red.png", 16, 9, {255, 0, 0});
    std::ofstream(dir + "/broken.png") << "not a png";
    std::vector<SheetTile> tiles = {{"good", red, ""},
                                    {"bad", "", "dm_bad.bsp: lump 13 (faces) at byte 1024: count past the end"},
                                    {"unreadable", dir + "/broken.png", ""},
                                    {"missing", dir + "/nope.png", ""},
                                    {"nothing", "", ""}};
    SheetOptions options;
    options.tileWidth = 128, options.tileHeight = 72, options.columns = 5;

    auto files = writeContactSheets(tiles, dir + "/sheet.png", options);
    Sheet s = readSheet(files.at(0));
    Rgb failed = rgb8(kSheetFailedColor);
    CHECK(s.at(4 + 64, 4 + 36) == Rgb{255, 0, 0});
    for (int i = 1; i < 5; ++i) {
        INFO("tile " << i);
        int x = 4 + i * 132;
        // Top middle: beside the cross's arms and above the centred text band.
        CHECK(s.at(x + 64, 4 + 4) == failed);
        CHECK(s.at(x + 64, 4 + 68) == failed);
    }
    CHECK(s.at(4 + 64, 4 + 4) != failed);
}

TEST_CASE("Contact sheet labels are drawn, and a missing font is no error", "[sheet]") {
    auto dir = luxel::test::tempDir("sheet-font");
    std::string grey = solidPng(dir, "grey.png", 16, 9, {60, 60, 60});
    std::vector<SheetTile> tiles = {{"oa_dm1", grey, ""},
                                    {std::string("a very long map name that cannot fit \xff\n<&>"), grey, ""}};
    SheetOptions options;
    options.tileWidth = 96, options.tileHeight = 54, options.columns = 2;
    int stripTop = 4 + 54;

    if (fs::exists("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")) {
        auto files = writeContactSheets(tiles, dir + "/with-font.png", options);
        Sheet s = readSheet(files.at(0));
        CHECK(hasBrightPixel(s, 4, stripTop, 4 + 96, stripTop + 20));
        CHECK(hasBrightPixel(s, 104, stripTop, 104 + 96, stripTop + 20));
        CHECK_FALSE(hasBrightPixel(s, 4, 4, 4 + 96, stripTop));  // no text over the thumbnail
    } else {
        WARN("SKIPPED label check: fonts-dejavu-core is not installed");
    }

    options.fontPath = dir + "/no-such-font.ttf";
    std::vector<std::string> files;
    REQUIRE_NOTHROW(files = writeContactSheets(tiles, dir + "/no-font.png", options));
    REQUIRE(files.size() == 1);
    Sheet s = readSheet(files[0]);
    CHECK(s.width == 4 + 2 * 100);
    CHECK(s.at(4 + 48, 4 + 27) == Rgb{60, 60, 60});
}

TEST_CASE("Contact sheets split past maxSheetHeight into numbered files", "[sheet]") {
    auto dir = luxel::test::tempDir("sheet-split");
    std::vector<std::string> colours;
    std::vector<SheetTile> tiles;
    for (int i = 0; i < 9; ++i) {
        std::string png = solidPng(dir, "t" + std::to_string(i) + ".png", 8, 6, {20 * i, 200 - 20 * i, 100});
        tiles.push_back({"map" + std::to_string(i), png, ""});
    }
    SheetOptions options;
    options.tileWidth = 40, options.tileHeight = 30, options.columns = 2;  // cells 44 x 54
    options.maxSheetHeight = 4 + 2 * 54 + 10;  // room for two rows, not three

    auto files = writeContactSheets(tiles, dir + "/out.sheet.png", options);
    // 9 tiles in 2 columns are 5 rows: 2 + 2 + 1.
    REQUIRE(files == std::vector<std::string>{dir + "/out.sheet.png", dir + "/out.sheet-2.png",
                                              dir + "/out.sheet-3.png"});
    Sheet first = readSheet(files[0]), second = readSheet(files[1]), third = readSheet(files[2]);
    CHECK(first.width == 92);
    CHECK(second.width == 92);
    CHECK(third.width == 92);
    CHECK(first.height == 112);
    CHECK(second.height == 112);
    CHECK(third.height == 58);
    // Tile 4 opens the second sheet, tile 8 the third; tile 7 is the second sheet's bottom right.
    CHECK(second.at(4 + 20, 4 + 15) == Rgb{80, 120, 100});
    CHECK(second.at(48 + 20, 58 + 15) == Rgb{140, 60, 100});
    CHECK(third.at(4 + 20, 4 + 15) == Rgb{160, 40, 100});
    CHECK(third.at(48 + 20, 4 + 15) == rgb8(kSheetBackground));
    CHECK(sheetFileName("a/b/sheet.png", 0) == "a/b/sheet.png");
    CHECK(sheetFileName("a/b/sheet.png", 3) == "a/b/sheet-4.png");
}

TEST_CASE("Contact sheet bytes depend only on the tiles, and writes leave no temporaries", "[sheet]") {
    auto dir = luxel::test::tempDir("sheet-determinism");
    std::vector<SheetTile> tiles;
    for (int i = 0; i < 6; ++i) {
        std::string png = solidPng(dir, "t" + std::to_string(i) + ".png", 48 + i, 27, {40 * i, 90, 255 - 40 * i});
        tiles.push_back({"map_" + std::to_string(i), png, ""});
    }
    tiles.push_back({"broken", "", "cannot open: truncated header"});
    fs::create_directories(dir + "/a");
    fs::create_directories(dir + "/b");
    auto a = writeContactSheets(tiles, dir + "/a/sheet.png");
    auto b = writeContactSheets(tiles, dir + "/b/sheet.png");
    REQUIRE(a.size() == 1);
    REQUIRE(b.size() == 1);
    std::string bytesA = slurp(a[0]);
    CHECK(bytesA.size() > 1000);
    CHECK(bytesA == slurp(b[0]));
    // Again into the same file: replaced, same bytes, nothing else left in the folder.
    writeContactSheets(tiles, dir + "/a/sheet.png");
    CHECK(slurp(dir + "/a/sheet.png") == bytesA);
    size_t entries = 0;
    for (const auto& e : fs::directory_iterator(dir + "/a")) entries += e.is_regular_file() ? 1 : 0;
    CHECK(entries == 1);
}

TEST_CASE("Contact sheet: unwritable paths are UsageErrors; no tiles write nothing", "[sheet]") {
    auto dir = luxel::test::tempDir("sheet-errors");
    std::vector<SheetTile> tiles = {{"x", "", "failed"}};
    CHECK_THROWS_AS(writeContactSheets(tiles, dir + "/missing-folder/sheet.png"), UsageError);
    CHECK_THROWS_AS(writeContactSheets(tiles, dir + "/sheet"), UsageError);
    CHECK(writeContactSheets({}, dir + "/empty.png").empty());
    CHECK_FALSE(fs::exists(dir + "/empty.png"));
    CHECK(fs::is_empty(dir));
}

TEST_CASE("Contact sheet: thumbnails fitted from memory give the pixels of the files read back", "[sheet]") {
    // Noisy images (so filtering shows), at the batch's 2:1 and at ratios that are no integer, written as
    // PNG; each tile once from its file and once fitted from the same bytes.
    auto dir = luxel::test::tempDir("sheet-fitted");
    std::vector<SheetTile> fromFiles, fromMemory;
    uint32_t x = 7;
    for (auto [w, h] : {std::pair{512, 288}, std::pair{300, 200}, std::pair{97, 41}, std::pair{64, 36}}) {
        std::vector<uint8_t> rgb(size_t(w) * size_t(h) * 3);
        for (uint8_t& b : rgb) b = uint8_t((x = x * 1664525u + 1013904223u) >> 24);
        const std::string path = (fs::path(dir) / ("t" + std::to_string(w) + ".png")).string();
        OIIO::ImageBuf buf(OIIO::ImageSpec(w, h, 3, OIIO::TypeDesc::UINT8), rgb.data());
        REQUIRE(buf.write(path));
        fromFiles.push_back({"t", path, ""});
        SheetTile t = fromFiles.back();
        t.fitted = fitThumbnail(rgb.data(), w, h, 256, 144);
        REQUIRE(t.fitted);
        CHECK(t.fitted->rgb.size() == size_t(t.fitted->width) * size_t(t.fitted->height) * 3);
        fromMemory.push_back(t);
    }
    CHECK(fitThumbnail(nullptr, 0, 10, 256, 144) == nullptr);
    SheetOptions options;
    const Sheet a = readSheet(writeContactSheets(fromFiles, dir + "/files.png", options).at(0));
    const Sheet b = readSheet(writeContactSheets(fromMemory, dir + "/memory.png", options).at(0));
    REQUIRE(a.width == b.width);
    REQUIRE(a.height == b.height);
    std::vector<uint8_t> pa(size_t(a.width) * size_t(a.height) * 3), pb(pa.size());
    REQUIRE(a.buf.get_pixels(OIIO::ROI(0, a.width, 0, a.height, 0, 1, 0, 3), OIIO::TypeDesc::UINT8, pa.data()));
    REQUIRE(b.buf.get_pixels(OIIO::ROI(0, b.width, 0, b.height, 0, 1, 0, 3), OIIO::TypeDesc::UINT8, pb.data()));
    CHECK(pa == pb);
}

TEST_CASE("Contact sheet: a thumbnail halved is the mean of each 2x2 block", "[sheet]") {
    // The batch's 512x288 thumbnails go into 256x144 tiles: each tile pixel is its four pixels' mean, rounded
    // (the box filter's weights are a quarter each; float arithmetic may round a .5 either way).
    const int w = 64, h = 36;
    std::vector<uint8_t> rgb(size_t(w) * size_t(h) * 3);
    uint32_t x = 11;
    for (uint8_t& b : rgb) b = uint8_t((x = x * 1664525u + 1013904223u) >> 24);
    const auto fitted = fitThumbnail(rgb.data(), w, h, w / 2, h / 2);
    REQUIRE(fitted);
    REQUIRE(fitted->width == w / 2);
    REQUIRE(fitted->height == h / 2);
    int exact = 0, worst = 0;
    for (int y = 0; y < h / 2; ++y)
        for (int x2 = 0; x2 < w / 2; ++x2)
            for (int k = 0; k < 3; ++k) {
                const auto at = [&](int px, int py) { return int(rgb[(size_t(py) * size_t(w) + size_t(px)) * 3 + size_t(k)]); };
                const int sum = at(2 * x2, 2 * y) + at(2 * x2 + 1, 2 * y) + at(2 * x2, 2 * y + 1) + at(2 * x2 + 1, 2 * y + 1);
                const int got = fitted->rgb[(size_t(y) * size_t(w / 2) + size_t(x2)) * 3 + size_t(k)];
                exact += got == (sum + 2) / 4;
                worst = std::max(worst, std::abs(4 * got - sum));
            }
    CHECK(worst <= 2);                            // within half a step of the exact mean
    CHECK(exact >= (w / 2) * (h / 2) * 3 * 9 / 10);  // and almost always its rounding
}
