#include "luxel/image/text.hpp"

#include <ft2build.h>
#include FT_FREETYPE_H

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace luxel {

const Glyph& GlyphSet::of(char c) const {
    const auto code = static_cast<unsigned char>(c);
    return glyphs[code >= 32 && code <= 126 ? size_t(code - 32) : size_t('?' - 32)];
}

std::shared_ptr<const GlyphSet> loadGlyphs(const std::string& fontPath, int pixelSize) {
    std::error_code ec;
    if (pixelSize <= 0 || pixelSize > 512 || !std::filesystem::is_regular_file(fontPath, ec)) return nullptr;
    FT_Library library = nullptr;
    if (FT_Init_FreeType(&library) != 0) return nullptr;
    std::shared_ptr<GlyphSet> set;
    FT_Face face = nullptr;
    if (FT_New_Face(library, fontPath.c_str(), 0, &face) == 0 && FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixelSize)) == 0) {
        set = std::make_shared<GlyphSet>();
        set->pixelSize = pixelSize;
        for (size_t i = 0; i < set->glyphs.size() && set; ++i) {
            if (FT_Load_Char(face, FT_ULong(32 + i), FT_LOAD_RENDER) != 0) {
                set.reset();
                break;
            }
            const FT_GlyphSlot slot = face->glyph;
            const FT_Bitmap& bitmap = slot->bitmap;
            Glyph& g = set->glyphs[i];
            g.left = slot->bitmap_left, g.top = slot->bitmap_top;
            g.advance = int(slot->advance.x >> 6);
            if (bitmap.pixel_mode != FT_PIXEL_MODE_GRAY || bitmap.num_grays != 256 || bitmap.pitch < int(bitmap.width))
                continue;  // a space, or a bitmap of another kind: no ink drawn
            g.width = int(bitmap.width), g.height = int(bitmap.rows);
            g.coverage.resize(size_t(g.width) * size_t(g.height));
            for (int row = 0; row < g.height; ++row)
                std::copy_n(bitmap.buffer + ptrdiff_t(row) * bitmap.pitch, g.width,
                            g.coverage.begin() + ptrdiff_t(row) * g.width);
        }
    }
    if (face) FT_Done_Face(face);
    FT_Done_FreeType(library);
    return set;
}

int textRight(const GlyphSet& glyphs, std::string_view text) {
    int pen = 0, right = 0;
    for (char c : text) {
        const Glyph& g = glyphs.of(c);
        if (g.width > 0) right = std::max(right, pen + g.left + g.width);
        pen += g.advance;
    }
    return right;
}

}  // namespace luxel
