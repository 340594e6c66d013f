// Contact sheets: the grid's layout and file names here; the drawing in contact_sheet_draw.cpp.
#include "luxel/batch/contact_sheet.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "luxel/util/error.hpp"

namespace luxel {
namespace fs = std::filesystem;

namespace {

constexpr double kTargetAspect = 16.0 / 9.0;
constexpr int kMaxSheetSide = 65535;      // PNG allows more; no viewer wants it
constexpr int kMaxTiles = 1000000;

double aspectError(int64_t width, int64_t height) {
    return std::abs(std::log(double(width) / double(height)) - std::log(kTargetAspect));
}

int ceilDiv(size_t a, int b) { return int((a + size_t(b) - 1) / size_t(b)); }

}  // namespace

int SheetLayout::sheetHeight(int sheet) const {
    int onSheet = std::clamp(rows - sheet * rowsPerSheet, 0, rowsPerSheet);
    return kSheetGap + onSheet * cellHeight;
}

int SheetLayout::sheetOf(size_t index) const { return int(index / size_t(columns)) / rowsPerSheet; }

int SheetLayout::tileX(size_t index) const { return kSheetGap + int(index % size_t(columns)) * cellWidth; }

int SheetLayout::tileY(size_t index) const {
    return kSheetGap + (int(index / size_t(columns)) % rowsPerSheet) * cellHeight;
}

SheetLayout layoutSheets(size_t tileCount, const SheetOptions& options) {
    if (options.tileWidth <= 0 || options.tileHeight <= 0 || options.tileWidth > kMaxSheetTileSide ||
        options.tileHeight > kMaxSheetTileSide)
        throw UsageError("contact sheet: tile size " + std::to_string(options.tileWidth) + "x" +
                         std::to_string(options.tileHeight) + " is not usable");
    if (options.columns < 0) throw UsageError("contact sheet: negative column count");
    SheetLayout l;
    l.cellWidth = options.tileWidth + kSheetGap;
    l.cellHeight = options.tileHeight + kSheetLabelHeight + kSheetGap;
    l.rowsPerSheet = std::max(1, (std::max(options.maxSheetHeight, kSheetGap) - kSheetGap) / l.cellHeight);
    if (tileCount > size_t(kMaxTiles)) throw UsageError("contact sheet: more than 1000000 tiles");
    int n = int(tileCount);
    auto widthFor = [&](int columns) { return kSheetGap + int64_t(columns) * l.cellWidth; };
    auto heightFor = [&](int rows) { return kSheetGap + int64_t(rows) * l.cellHeight; };

    if (n == 0) {
        l.columns = 1;
    } else if (options.columns > 0) {
        l.columns = std::min(options.columns, n);
    } else {
        int best = 1;
        for (int c = 2; c <= n; ++c)
            if (aspectError(widthFor(c), heightFor(ceilDiv(size_t(n), c))) <
                aspectError(widthFor(best), heightFor(ceilDiv(size_t(n), best))))
                best = c;
        if (ceilDiv(size_t(n), best) > l.rowsPerSheet) {  // several sheets: make a full one 16:9
            int64_t full = heightFor(l.rowsPerSheet);
            best = 1;
            for (int c = 2; c <= n; ++c)
                if (aspectError(widthFor(c), full) < aspectError(widthFor(best), full)) best = c;
        }
        l.columns = best;
    }
    l.rows = ceilDiv(size_t(n), l.columns);
    l.sheets = ceilDiv(size_t(l.rows), l.rowsPerSheet);
    if (widthFor(l.columns) > kMaxSheetSide || heightFor(std::min(l.rows, l.rowsPerSheet)) > kMaxSheetSide)
        throw UsageError("contact sheet: " + std::to_string(l.columns) + " columns of " +
                         std::to_string(options.tileWidth) + "x" + std::to_string(options.tileHeight) +
                         " px tiles make a sheet larger than " + std::to_string(kMaxSheetSide) +
                         " px (fewer columns, smaller tiles or a lower maxSheetHeight)");
    l.width = int(widthFor(l.columns));
    return l;
}

std::string sheetFileName(const std::string& path, int index) {
    if (index <= 0) return path;
    fs::path p(path);
    fs::path name = p.stem().string() + "-" + std::to_string(index + 1) + p.extension().string();
    return (p.parent_path() / name).string();
}

}  // namespace luxel
