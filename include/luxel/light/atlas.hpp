#pragma once
// Packs many small lightmap blocks (one per face: a grid of luxels) into a few atlas pages, for formats
// whose faces each carry their own lightmap (Quake 2, Source). Knows no file format.
//
// Each block is placed with a border ring of `border` texels that repeats the block's edge texels, so
// bilinear sampling near a block edge never mixes in a neighbour's light. Layout is deterministic: blocks
// sorted by height (tallest first), ties by input index, placed on shelves left to right, top to bottom;
// a new page starts when a shelf does not fit. The same input gives the same layout on every machine.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "luxel/bsp/world.hpp"

namespace luxel {

struct AtlasBlock {
    int32_t width = 0, height = 0;  // in luxels; a block with a zero side is not placed
};

struct AtlasOptions {
    int32_t pageWidth = 1024, pageHeight = 1024;  // largest page; a block that does not fit gets its own page
    int32_t border = 1;
    // Shrink each page to the area its blocks use (smaller pages, same uv mapping computed afterwards).
    bool cropPages = true;
};

// Where a block landed: (x, y) is the texel of its first luxel, inside the border ring.
struct AtlasPlacement {
    int32_t page = -1;  // -1: empty block, not placed
    int32_t x = 0, y = 0;
};

struct AtlasLayout {
    int32_t border = 1;
    std::vector<std::array<int32_t, 2>> pageSizes;  // width, height of each page
    std::vector<AtlasPlacement> placements;         // one per input block, in input order
};

// Throws std::invalid_argument on negative sizes or options that cannot hold any block.
AtlasLayout packAtlas(std::span<const AtlasBlock> blocks, const AtlasOptions& options = {});

// Zero-filled pages of the layout's sizes.
std::vector<LightmapPage> makeAtlasPages(const AtlasLayout& layout);

// Copies a width x height block of linear RGB (row-major, 3 floats a luxel) to its placement and fills
// the border ring with the nearest edge texel. Blocks write disjoint texels, so different blocks may be
// written in parallel.
void writeAtlasBlock(LightmapPage& page, const AtlasPlacement& placement, int32_t width, int32_t height,
                     int32_t border, const float* rgb);

// Normalised page coordinate of a point at luxel coordinate (lu, lv) of a placed block, where luxel
// centres sit at integers 0..width-1: the centre of luxel (i, j) maps to the centre of its texel.
inline Vec2 atlasUV(const AtlasLayout& layout, const AtlasPlacement& p, double lu, double lv) {
    const auto& size = layout.pageSizes[size_t(p.page)];
    return {float((double(p.x) + lu + 0.5) / double(size[0])), float((double(p.y) + lv + 0.5) / double(size[1]))};
}

}  // namespace luxel
