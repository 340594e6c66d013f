#pragma once
// Contact sheets: a grid of map thumbnails, each labelled with its map name, failed maps as marked
// placeholder tiles; split into several files when one would be too tall. Thumbnails are fitted with a box
// filter (stb_image_resize), labels drawn with FreeType; OpenImageIO's module is loaded only for thumbnail files
// or sheet formats that luxel's own codecs do not cover.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace luxel {

// A thumbnail already fitted into its tile area (fitThumbnail): 8-bit RGB, as the sheet stores it.
struct FittedThumbnail {
    int width = 0, height = 0;
    std::vector<uint8_t> rgb;
};

struct SheetTile {
    std::string label;      // map name, drawn under the thumbnail
    std::string imagePath;  // thumbnail to place (any image format luxel reads); empty when the map failed
    std::string error;      // non-empty: a failed map -> a placeholder tile with "FAILED" and the error's start
    // When set, the image at imagePath fitted already (the batch fits what it renders while it still holds
    // it): placed as it is, the file is not read.
    std::shared_ptr<const FittedThumbnail> fitted = nullptr;
};

struct SheetOptions {
    int tileWidth = 256, tileHeight = 144;  // thumbnail area per tile; images are fitted (aspect kept, centred)
    int columns = 0;                        // 0: chosen so the sheet is roughly 16:9
    int maxSheetHeight = 8192;              // a sheet taller than this is split into several files
    std::string fontPath;                   // empty or unusable: DejaVu Sans (fonts-dejavu-core), else no text
};

// Fixed parts of the grid: every tile is its thumbnail area plus a label strip below it, and tiles are
// separated from each other and from the sheet's edges by kSheetGap pixels.
inline constexpr int kSheetLabelHeight = 20;
inline constexpr int kSheetGap = 4;
// Thumbnails and tiles larger than this a side are hostile or a mistake.
inline constexpr int kMaxSheetTileSide = 16384;
// Colours (display values, 0..1): the sheet behind the tiles, a thumbnail's letterbox, the label strip and
// a failed map's placeholder.
inline constexpr std::array<float, 3> kSheetBackground = {0.11f, 0.11f, 0.12f};
inline constexpr std::array<float, 3> kSheetLetterbox = {0.0f, 0.0f, 0.0f};
inline constexpr std::array<float, 3> kSheetLabelBackground = {0.05f, 0.05f, 0.06f};
inline constexpr std::array<float, 3> kSheetFailedColor = {0.33f, 0.04f, 0.05f};

// The grid a set of tiles is laid out on. Tile i sits in row i / columns, column i % columns of the whole
// grid; sheet s holds rows [s * rowsPerSheet, (s + 1) * rowsPerSheet). Sizes:
//   width  = kSheetGap + columns * (tileWidth + kSheetGap)
//   height = kSheetGap + rows * (tileHeight + kSheetLabelHeight + kSheetGap)   (rows on that sheet)
struct SheetLayout {
    int columns = 0, rows = 0;  // of the whole grid
    int rowsPerSheet = 0;       // the most rows whose sheet fits maxSheetHeight (at least 1)
    int sheets = 0;             // files to write
    int width = 0;              // of every sheet
    int cellWidth = 0, cellHeight = 0;  // tile pitch: tile + gap
    int sheetHeight(int sheet) const;   // rows actually on that sheet (the last may hold fewer)
    // Top-left corner of tile `index`'s thumbnail area on its sheet, and that sheet's number.
    int sheetOf(size_t index) const;
    int tileX(size_t index) const;
    int tileY(size_t index) const;
};

// Throws UsageError for tile sizes outside 1..16384, a negative column count, more than a million tiles or a
// sheet wider or taller than 65535 px (columns are clamped to the tile count first). With columns == 0 the count
// that makes the whole grid closest to 16:9 is taken; when that grid would need several sheets, the count
// that makes one full sheet closest to 16:9 instead.
SheetLayout layoutSheets(size_t tileCount, const SheetOptions& options = {});

// An 8-bit RGB image (what luxel writes as PNG) fitted into a tile area of `tileWidth` x `tileHeight`, aspect
// kept: the same pixels the sheet gets by reading that PNG back. nullptr for sizes the sheet would refuse.
std::shared_ptr<const FittedThumbnail> fitThumbnail(const uint8_t* rgb, int width, int height, int tileWidth,
                                                    int tileHeight);

// The file name of sheet `index` (0-based): `path` for the first, then "<stem>-2<ext>", "<stem>-3<ext>", ...
std::string sheetFileName(const std::string& path, int index);

// Writes the grid to `path` (image format by extension, PNG intended); when one sheet would exceed
// maxSheetHeight, writes path, then "<stem>-2<ext>", "<stem>-3<ext>", ... Returns the files written, in order
// (none for no tiles). Each file appears atomically (temporary name in the same folder + rename). The same
// tiles and options give the same bytes. A thumbnail that cannot be read becomes a failed tile carrying that
// reason; a missing font falls back to DejaVu Sans, or to no text. Throws UsageError when it cannot
// write (the folder must exist).
std::vector<std::string> writeContactSheets(const std::vector<SheetTile>& tiles, const std::string& path,
                                            const SheetOptions& options = {});

}  // namespace luxel
