#pragma once
// Quake 2 and Source brush lumps, laid out alike (Source's brush sides append a displacement and a bevel
// field), read for World::brushes: the brushes of the world model's tree, each decoder keeping the ones its
// compiler's shadow rays see.
#include <cstdint>
#include <vector>

#include "decode_common.hpp"

namespace luxel::bsp {

struct BrushSideRecord {
    uint16_t plane = 0;
    int16_t texinfo = -1;       // -1: none (Quake 2 bevels)
    bool displacement = false;  // Source: the side carries a displacement
    bool bevel = false;         // Source: the bevel flag
};

struct QuakeBrushes {
    std::vector<BrushSideRecord> sides;
    std::vector<Range> brushSides;  // per brush
    std::vector<int32_t> contents;  // per brush
    std::vector<size_t> brushAt;    // per brush: its record's offset in the brushes lump, for errors
};

// Brush sides (sideBytes 4: Quake 2; 8: Source) and brushes (12 bytes: first side, side count, contents),
// every plane, texinfo and side range checked.
QuakeBrushes readQuakeBrushes(ByteReader& sides, size_t sideBytes, ByteReader& brushes, size_t numPlanes,
                              size_t numTexinfo);

// The brushes listed by the leaves under node 0 (the world model's head node: compilers write the world's
// tree first; brush entities have trees of their own), each once, in index order.
std::vector<uint32_t> worldTreeBrushes(const World& w, const std::vector<Range>& leafBrushRanges,
                                       const std::vector<uint32_t>& leafBrushes);

}  // namespace luxel::bsp
