// Source lightmaps: per face, per style, (bumped ? 4 : 1) grids of (w+1)x(h+1) ColorRGBExp32 luxels from
// lightofs on (the per-style averages sit just before lightofs). The flat grid of each style is packed into
// atlas pages, one page set per style slot, as linear float.
//
// Display (World::look, documented in source/decode.cpp): values stay linear and unclamped here.
#include <algorithm>

#include <tbb/parallel_for.h>

#include "luxel/light/atlas.hpp"
#include "format.hpp"

namespace luxel::vbsp {

void decodeLighting(Context& c, World& w) {
    ByteReader& r = c.lump(c.lightingLump);
    const ByteReader& faces = c.lump(c.facesLump);
    uint64_t claimed = 0;
    int maxStyles = 0;
    std::vector<AtlasBlock> blocks(c.lit.size());
    for (size_t i = 0; i < c.lit.size(); ++i) {
        const FaceLightmap& f = c.lit[i];
        const uint64_t luxels = uint64_t(f.size[0] + 1) * uint64_t(f.size[1] + 1);
        const uint64_t bytes = luxels * kColorBytes * uint64_t(f.blocks) * uint64_t(f.numStyles);
        // CS:GO maps may carry bytes past the last face (odd lump lengths): only each face's own range counts.
        if (uint64_t(f.lightOffset) > r.size() || bytes > r.size() - uint64_t(f.lightOffset))
            faces.fail(f.surface * kFaceBytes + 20,
                       "face " + std::to_string(f.surface) + " lightmap (" + std::to_string(f.size[0] + 1) + "x" +
                           std::to_string(f.size[1] + 1) + " luxels x " + std::to_string(f.blocks) + " blocks x " +
                           std::to_string(f.numStyles) + " styles = " + std::to_string(bytes) + " bytes at offset " +
                           std::to_string(f.lightOffset) + ") extends past the " + r.lump() + " lump (" +
                           std::to_string(r.size()) + " bytes)");
        claimed += bytes;
        maxStyles = std::max(maxStyles, f.numStyles);
        blocks[i] = {f.size[0] + 1, f.size[1] + 1};
    }
    if (claimed > kMaxSharing * r.size())
        r.fail(0, "faces claim " + std::to_string(claimed) + " bytes of lighting, more than " +
                      std::to_string(kMaxSharing) + " times the lump");
    if (c.lit.empty()) return;

    const AtlasLayout layout = packAtlas(blocks);
    w.lightmaps = makeAtlasPages(layout);
    for (int slot = 1; slot < maxStyles; ++slot) w.extraLightmapSlots[size_t(slot - 1)] = makeAtlasPages(layout);

    const uint8_t* bytes = r.data().data();  // every face's range was checked above
    tbb::parallel_for(size_t(0), c.lit.size(), [&](size_t i) {
        const FaceLightmap& f = c.lit[i];
        const AtlasPlacement& p = layout.placements[i];
        const int32_t width = f.size[0] + 1, height = f.size[1] + 1;
        const size_t luxels = size_t(width) * size_t(height);
        std::vector<float> rgb(luxels * 3);
        for (int slot = 0; slot < f.numStyles; ++slot) {
            // A style's blocks are consecutive; a bumped face's first block is the flat (unbumped) light.
            const uint8_t* src = bytes + size_t(f.lightOffset) + size_t(slot) * size_t(f.blocks) * luxels * kColorBytes;
            for (size_t k = 0; k < luxels; ++k) {
                const Vec3 v = colorRGBExp32(src + k * kColorBytes);
                rgb[k * 3] = v.x, rgb[k * 3 + 1] = v.y, rgb[k * 3 + 2] = v.z;
            }
            auto& pages = slot == 0 ? w.lightmaps : w.extraLightmapSlots[size_t(slot - 1)];
            writeAtlasBlock(pages[size_t(p.page)], p, width, height, layout.border, rgb.data());
        }
        Surface& s = w.surfaces[f.surface];
        s.lightmapPage = p.page;
        s.lightmapRect = {p.x, p.y, width, height};
        for (uint32_t k = 0; k < s.numVertices; ++k) {
            const auto& lc = c.luxels[s.firstVertex + k];
            w.vertices[s.firstVertex + k].lightmapUV = atlasUV(layout, p, lc[0], lc[1]);
        }
    });
}

}  // namespace luxel::vbsp
