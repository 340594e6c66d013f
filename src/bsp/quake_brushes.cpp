// Quake 2 / Source brush lumps (see quake_brushes.hpp).
#include "quake_brushes.hpp"

#include <algorithm>

namespace luxel::bsp {

QuakeBrushes readQuakeBrushes(ByteReader& sides, size_t sideBytes, ByteReader& brushes, size_t numPlanes,
                              size_t numTexinfo) {
    QuakeBrushes out;
    out.sides.resize(sides.recordCount(sideBytes));
    for (BrushSideRecord& s : out.sides) {
        const size_t at = sides.position();
        s.plane = sides.u16();
        checkIndex(sides, at, s.plane, numPlanes, "plane");
        s.texinfo = sides.i16();
        checkIndex(sides, at + 2, s.texinfo, numTexinfo, "texinfo", true);
        if (sideBytes == 8) {
            s.displacement = sides.i16() != 0;
            s.bevel = (sides.u16() & 0xff) != 0;  // Source 2013 splits this short into bevel and thin bytes
        }
    }
    const size_t numBrushes = brushes.recordCount(12);
    out.brushSides.resize(numBrushes);
    out.contents.resize(numBrushes);
    out.brushAt.resize(numBrushes);
    for (size_t i = 0; i < numBrushes; ++i) {
        out.brushAt[i] = brushes.position();
        out.brushSides[i] = readRange(brushes, out.sides.size(), "brush side");
        out.contents[i] = brushes.i32();
    }
    return out;
}

std::vector<uint32_t> worldTreeBrushes(const World& w, const std::vector<Range>& leafBrushRanges,
                                       const std::vector<uint32_t>& leafBrushes) {
    std::vector<uint8_t> listed(leafBrushes.empty() ? 0 : *std::max_element(leafBrushes.begin(), leafBrushes.end()) + 1, 0);
    auto visitLeaf = [&](size_t leaf) {
        if (leaf >= leafBrushRanges.size()) return;
        const Range r = leafBrushRanges[leaf];
        for (uint32_t k = r.first; k < r.first + r.count; ++k) listed[leafBrushes[k]] = 1;
    };
    // Children come after their parents (readShortNodes checks it), so the walk ends.
    std::vector<int32_t> stack;
    if (!w.nodes.empty()) stack.push_back(0);
    else visitLeaf(0);
    while (!stack.empty()) {
        const Node& n = w.nodes[size_t(stack.back())];
        stack.pop_back();
        for (const int32_t child : n.children) {
            if (child >= 0) stack.push_back(child);
            else visitLeaf(size_t(-(int64_t(child) + 1)));
        }
    }
    std::vector<uint32_t> out;
    for (uint32_t b = 0; b < listed.size(); ++b)
        if (listed[b]) out.push_back(b);
    return out;
}

}  // namespace luxel::bsp
