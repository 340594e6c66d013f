// Quake 2 lightmaps: per-face luxel grids (one per light style) in the lighting lump, packed into atlas
// pages, one page set per style slot.
//
// Colour. The GL renderer (id's ref_gl, yquake2 GL1: R_BuildLightMap) multiplies each stored byte by
// gl_modulate / r_modulate (default 1) and the style's brightness, sums the styles, scales all three
// channels together when the brightest passes 255 (hue kept), and multiplies the texture by the result
// / 255. So linear 1.0 here = stored byte 255 = the texture shown unchanged ("full white on white
// albedo"); values are kept unclamped and the hue-keeping clamp at 1.0 is World::look.hueClampAt.
// Display gamma: yquake2 sets a hardware gamma ramp of vid_gamma 1.2 (SDL_CalculateGammaRamp,
// out = in^(1/1.2)); id's release defaulted to 1.0 (no change). The engine also doubles texture colours
// (gl1_intensity / intensity 2, clamped per channel at 255): that belongs to albedo, not to the light.
#include <algorithm>

#include <tbb/parallel_for.h>

#include "luxel/light/atlas.hpp"
#include "format.hpp"

namespace luxel::q2 {

void decodeLighting(Context& c, World& w, const std::vector<FaceLightmap>& lit, const TexCoords& st) {
    ByteReader& r = c.lump(kLighting);
    const ByteReader& faces = c.lump(kFaces);
    uint64_t claimed = 0;
    int maxStyles = 0;
    std::vector<AtlasBlock> blocks(lit.size());
    for (size_t i = 0; i < lit.size(); ++i) {
        const FaceLightmap& f = lit[i];
        const uint64_t bytes = uint64_t(f.size[0]) * uint64_t(f.size[1]) * 3 * uint64_t(f.numStyles);
        if (!c.relayout && (uint64_t(f.lightOffset) > r.size() || bytes > r.size() - uint64_t(f.lightOffset)))
            faces.fail(f.surface * kFaceBytes + 16,
                       "face " + std::to_string(f.surface) + " lightmap (" + std::to_string(f.size[0]) + "x" +
                           std::to_string(f.size[1]) + " luxels x " + std::to_string(f.numStyles) + " styles = " +
                           std::to_string(bytes) + " bytes at offset " + std::to_string(f.lightOffset) +
                           ") extends past the lighting lump (" + std::to_string(r.size()) + " bytes)");
        claimed += bytes;
        maxStyles = std::max(maxStyles, f.numStyles);
        blocks[i] = {f.size[0], f.size[1]};
    }
    // Real compilers give each face its own bytes; heavy sharing would only inflate the pages.
    if (!c.relayout && claimed > kMaxSharing * r.size())
        r.fail(0, "faces claim " + std::to_string(claimed) + " bytes of lighting, more than " +
                      std::to_string(kMaxSharing) + " times the lump");
    if (lit.empty()) return;

    const AtlasLayout layout = packAtlas(blocks);
    w.lightmaps = makeAtlasPages(layout);
    for (int slot = 1; slot < maxStyles; ++slot) w.extraLightmapSlots[size_t(slot - 1)] = makeAtlasPages(layout);

    std::array<float, 256> lut;
    for (int b = 0; b < 256; ++b) lut[size_t(b)] = float(b) / 255.0f;
    const uint8_t* bytes = r.data().data();  // every block was checked to lie inside the lump above
    tbb::parallel_for(size_t(0), lit.size(), [&](size_t i) {
        const FaceLightmap& f = lit[i];
        const AtlasPlacement& p = layout.placements[i];
        const size_t luxels = size_t(f.size[0]) * size_t(f.size[1]);
        std::vector<float> rgb(luxels * 3);
        for (int slot = 0; slot < f.numStyles && !c.relayout; ++slot) {
            const uint8_t* src = bytes + size_t(f.lightOffset) + size_t(slot) * luxels * 3;
            for (size_t k = 0; k < luxels * 3; ++k) rgb[k] = lut[src[k]];
            auto& pages = slot == 0 ? w.lightmaps : w.extraLightmapSlots[size_t(slot - 1)];
            writeAtlasBlock(pages[size_t(p.page)], p, f.size[0], f.size[1], layout.border, rgb.data());
        }
        Surface& s = w.surfaces[f.surface];
        s.lightmapPage = p.page;
        s.lightmapRect = {p.x, p.y, f.size[0], f.size[1]};
        // Luxel (i, j) sits at texture coordinate (mins + i) * 16, so a vertex is at luxel s/16 - mins.
        for (uint32_t k = 0; k < s.numVertices; ++k) {
            const auto& tc = st[s.firstVertex + k];
            w.vertices[s.firstVertex + k].lightmapUV =
                atlasUV(layout, p, tc[0] / 16.0 - f.mins[0], tc[1] / 16.0 - f.mins[1]);
        }
    });
}

}  // namespace luxel::q2
