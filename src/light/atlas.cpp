// Shelf packing of lightmap blocks into atlas pages (see atlas.hpp for the layout rules).
#include "luxel/light/atlas.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace luxel {

AtlasLayout packAtlas(std::span<const AtlasBlock> blocks, const AtlasOptions& options) {
    const int32_t b = options.border;
    if (b < 0 || options.pageWidth <= 2 * b || options.pageHeight <= 2 * b)
        throw std::invalid_argument("atlas page " + std::to_string(options.pageWidth) + "x" +
                                    std::to_string(options.pageHeight) + " cannot hold a block with border " +
                                    std::to_string(b));
    AtlasLayout layout;
    layout.border = b;
    layout.placements.resize(blocks.size());

    std::vector<uint32_t> order;
    order.reserve(blocks.size());
    for (uint32_t i = 0; i < blocks.size(); ++i) {
        if (blocks[i].width < 0 || blocks[i].height < 0)
            throw std::invalid_argument("atlas block " + std::to_string(i) + " has a negative size");
        if (blocks[i].width > 0 && blocks[i].height > 0) order.push_back(i);
    }
    // Tallest first keeps shelves tight; the index breaks ties so the order is total.
    std::sort(order.begin(), order.end(), [&](uint32_t l, uint32_t r) {
        if (blocks[l].height != blocks[r].height) return blocks[l].height > blocks[r].height;
        return l < r;
    });

    struct Used {
        int64_t width = 0, height = 0;
    };
    std::vector<Used> used;  // area each page's blocks cover
    int32_t current = -1;    // page the shelves are filling
    int64_t shelfY = 0, shelfHeight = 0, cursorX = 0;
    for (uint32_t i : order) {
        const int64_t bw = int64_t(blocks[i].width) + 2 * b, bh = int64_t(blocks[i].height) + 2 * b;
        AtlasPlacement& p = layout.placements[i];
        if (bw > options.pageWidth || bh > options.pageHeight) {
            // Larger than a page: a page of its own, exactly its size.
            if (bw > INT32_MAX || bh > INT32_MAX) throw std::invalid_argument("atlas block too large");
            p = {int32_t(used.size()), b, b};
            used.push_back({bw, bh});
            continue;
        }
        if (current >= 0 && cursorX + bw > options.pageWidth) {
            shelfY += shelfHeight;
            cursorX = 0;
            shelfHeight = 0;
        }
        if (current < 0 || shelfY + bh > options.pageHeight) {
            current = int32_t(used.size());
            used.push_back({});
            shelfY = cursorX = shelfHeight = 0;
        }
        p = {current, int32_t(cursorX + b), int32_t(shelfY + b)};
        cursorX += bw;
        shelfHeight = std::max(shelfHeight, bh);
        Used& u = used[size_t(current)];
        u.width = std::max(u.width, cursorX);
        u.height = std::max(u.height, shelfY + bh);
    }

    layout.pageSizes.reserve(used.size());
    for (const Used& u : used) {
        bool own = u.width > options.pageWidth || u.height > options.pageHeight;
        if (options.cropPages || own)
            layout.pageSizes.push_back({int32_t(u.width), int32_t(u.height)});
        else
            layout.pageSizes.push_back({options.pageWidth, options.pageHeight});
    }
    return layout;
}

std::vector<LightmapPage> makeAtlasPages(const AtlasLayout& layout) {
    std::vector<LightmapPage> pages(layout.pageSizes.size());
    for (size_t i = 0; i < pages.size(); ++i) {
        pages[i].width = layout.pageSizes[i][0];
        pages[i].height = layout.pageSizes[i][1];
        pages[i].rgb.assign(size_t(pages[i].width) * size_t(pages[i].height) * 3, 0.0f);
    }
    return pages;
}

void writeAtlasBlock(LightmapPage& page, const AtlasPlacement& p, int32_t width, int32_t height, int32_t border,
                     const float* rgb) {
    if (p.page < 0 || width <= 0 || height <= 0) return;
    if (p.x - border < 0 || p.y - border < 0 || p.x + width + border > page.width ||
        p.y + height + border > page.height)
        throw std::invalid_argument("atlas block does not fit its page");
    for (int32_t y = -border; y < height + border; ++y) {
        const int32_t sy = std::clamp(y, 0, height - 1);
        float* dst = page.rgb.data() + (size_t(p.y + y) * size_t(page.width) + size_t(p.x - border)) * 3;
        for (int32_t x = -border; x < width + border; ++x, dst += 3) {
            const int32_t sx = std::clamp(x, 0, width - 1);
            const float* src = rgb + (size_t(sy) * size_t(width) + size_t(sx)) * 3;
            dst[0] = src[0];
            dst[1] = src[1];
            dst[2] = src[2];
        }
    }
}

}  // namespace luxel
