// Quake 1 lightmaps: per-face luxel grids (one per light style) in the grey lighting lump, a `.lit` beside the
// map or BSPX RGBLIGHTING (RGB, 3 bytes a luxel at 3 x the face's offset), or Half-Life's RGB lump; packed into
// atlas pages, one page set per style slot.
//
// Colour. QuakeSpasm (R_BuildLightMap) sums sample x style value (style 'm' = 264) and shifts by 8 with
// gl_overbright 1, clamping each channel at 255: linear 1.0 here = that texel 255, so a stored byte b of a
// normal style is b x 264 / 256 / 255. The world is then drawn texture x 2 x texel / 255 (the materials' x 2,
// material/load_q1.cpp), and r_lightmap 1 shows the texel alone.
//
// Half-Life's engine (without overbright: GoldSrc's GL renderer, as Xash3D's ref_gl R_BuildLightMap rebuilds it)
// sums sample x style value (264) the same way, scales by lightscale = (int)(2^(1 / lightgamma) x 256 + 0.5) = 338
// at the default lightgamma 2.5, shifts by 14 to a 10-bit value clamped at 1023, and stores lightgammatable of
// it >> 2. At the default brightness 0 that table is the identity (pow(pow(x, 2.5), 0.4), truncated: at most one
// step of 1023 low), so a texel is min(255, sum x 338 / 256 >> 8): b x 264 / 256 x 338 / 256 / 255 here, each
// channel clamped at 1 (EngineLook::clampPerChannel), and the world is drawn texture x texel / 255 (no x 2).
#include <algorithm>

#include <tbb/parallel_for.h>

#include "luxel/light/atlas.hpp"
#include "format.hpp"

namespace luxel::q1 {

namespace {

constexpr double kNormalStyle = 264.0 / 256.0;  // QuakeSpasm's d_lightstylevalue for 'm' over the >> 8
constexpr double kHalfLifeLightScale = 338.0 / 256.0;  // GoldSrc's lightscale at lightgamma 2.5 over its 256

// The light bytes the engines would show, and how many bytes a luxel takes there (1 grey, 3 RGB).
struct LightBytes {
    std::span<const uint8_t> bytes;
    int channels = 1;
    std::string source;                   // for `info`
    std::optional<Bytes> owned;           // a .lit read from beside the map
};

LightBytes chooseLight(Context& c) {
    ByteReader& grey = c.lump(kLighting);
    LightBytes out;
    if (c.variant == Variant::HalfLife) {
        out.bytes = grey.data();
        out.channels = 3;
        out.source = "lighting lump (RGB)";
        return out;
    }
    if (const ByteReader* rgb = c.bspxLump("RGBLIGHTING")) {
        if (rgb->size() != 3 * grey.size())
            rgb->fail(0, "RGBLIGHTING holds " + std::to_string(rgb->size()) + " bytes, not 3 x the " +
                             std::to_string(grey.size()) + " of the lighting lump");
        out.bytes = rgb->data();
        out.channels = 3;
        out.source = "BSPX RGBLIGHTING";
        return out;
    }
    const std::string litName = c.source->mapName + ".lit";
    if (c.source->openRelated)
        if (std::optional<Bytes> lit = c.source->openRelated(litName)) {
            const std::string litFile = c.source->displayName.substr(0, c.source->displayName.size() -
                                                                          std::min(c.source->displayName.size(), size_t(4))) + ".lit";
            ByteReader r(*lit, litFile, "lit", 0);
            if (lit->size() < 8 || r.fixedString(4) != "QLIT") r.fail(0, "not a .lit file (no QLIT header)");
            const int32_t version = r.i32();
            if (version != 1) r.fail(4, "unsupported .lit version " + std::to_string(version) + " (supported: 1)");
            if (r.remaining() != 3 * grey.size())
                r.fail(8, ".lit holds " + std::to_string(r.remaining()) + " bytes of light, not 3 x the " +
                              std::to_string(grey.size()) + " of the map's lighting lump");
            out.owned = std::move(*lit);
            out.bytes = std::span<const uint8_t>(*out.owned).subspan(8);
            out.channels = 3;
            out.source = ".lit (" + litName + ")";
            return out;
        }
    out.bytes = grey.data();
    out.channels = 1;
    out.source = grey.size() > 0 ? "lighting lump (grey)" : "none";
    return out;
}

}  // namespace

void decodeLighting(Context& c, World& w, const std::vector<FaceLightmap>& lit) {
    LightBytes light;
    if (c.relayout) {
        light.source = "none (laid out anew, unlit)";
        light.channels = c.variant == Variant::HalfLife ? 3 : 1;
    } else {
        light = chooseLight(c);
    }
    w.lightSource = light.source;
    const ByteReader& faces = c.lump(kFaces);
    // Half-Life's offsets count bytes of its RGB lump; Quake's count luxels of the grey lump, which RGB
    // sources hold at three times the offset.
    const uint64_t offsetScale = c.variant == Variant::HalfLife ? 1 : uint64_t(light.channels);
    const uint64_t size = light.bytes.size();
    uint64_t claimed = 0;
    int maxStyles = 0;
    std::vector<AtlasBlock> blocks(lit.size());
    for (size_t i = 0; i < lit.size(); ++i) {
        const FaceLightmap& f = lit[i];
        const uint64_t bytes = uint64_t(f.size[0]) * uint64_t(f.size[1]) * uint64_t(light.channels) * uint64_t(f.numStyles);
        const uint64_t start = uint64_t(f.lightOffset) * offsetScale;
        if (!c.relayout && !f.dark && (start > size || bytes > size - start))
            faces.fail(f.surface * c.layout.faceBytes + c.layout.faceBytes - 4,
                       "face " + std::to_string(f.surface) + " lightmap (" + std::to_string(f.size[0]) + "x" +
                           std::to_string(f.size[1]) + " luxels x " + std::to_string(f.numStyles) + " styles = " +
                           std::to_string(bytes) + " bytes at offset " + std::to_string(start) + ") extends past the " +
                           light.source + " (" + std::to_string(size) + " bytes)");
        if (!f.dark) claimed += bytes;
        maxStyles = std::max(maxStyles, f.numStyles);
        blocks[i] = {f.size[0], f.size[1]};
    }
    if (!c.relayout && claimed > kMaxSharing * std::max<uint64_t>(size, 1))
        faces.fail(0, "faces claim " + std::to_string(claimed) + " bytes of lighting, more than " +
                          std::to_string(kMaxSharing) + " times the " + std::to_string(size) + " stored");
    if (lit.empty()) return;

    const AtlasLayout layout = packAtlas(blocks);
    w.lightmaps = makeAtlasPages(layout);
    for (int slot = 1; slot < maxStyles; ++slot) w.extraLightmapSlots[size_t(slot - 1)] = makeAtlasPages(layout);

    std::array<float, 256> lut;
    const double scale = c.variant == Variant::HalfLife ? kNormalStyle * kHalfLifeLightScale : kNormalStyle;
    for (int b = 0; b < 256; ++b) lut[size_t(b)] = float(double(b) * scale / 255.0);
    tbb::parallel_for(size_t(0), lit.size(), [&](size_t i) {
        const FaceLightmap& f = lit[i];
        const AtlasPlacement& p = layout.placements[i];
        const size_t luxels = size_t(f.size[0]) * size_t(f.size[1]);
        std::vector<float> rgb(luxels * 3);
        for (int slot = 0; slot < f.numStyles && !c.relayout && !f.dark; ++slot) {
            const uint8_t* src = light.bytes.data() + size_t(uint64_t(f.lightOffset) * offsetScale) +
                                 size_t(slot) * luxels * size_t(light.channels);
            if (light.channels == 3)
                for (size_t k = 0; k < luxels * 3; ++k) rgb[k] = lut[src[k]];
            else
                for (size_t k = 0; k < luxels; ++k) rgb[k * 3] = rgb[k * 3 + 1] = rgb[k * 3 + 2] = lut[src[k]];
            auto& pages = slot == 0 ? w.lightmaps : w.extraLightmapSlots[size_t(slot - 1)];
            writeAtlasBlock(pages[size_t(p.page)], p, f.size[0], f.size[1], layout.border, rgb.data());
        }
        Surface& s = w.surfaces[f.surface];
        s.lightmapPage = p.page;
        s.lightmapRect = {p.x, p.y, f.size[0], f.size[1]};
        for (uint32_t k = 0; k < s.numVertices; ++k) {
            const Vec3 q = w.vertices[s.firstVertex + k].position;
            double uv[2];
            for (size_t a = 0; a < 2; ++a)
                uv[a] = double(q.x) * f.toLuxel[a][0] + double(q.y) * f.toLuxel[a][1] + double(q.z) * f.toLuxel[a][2] +
                        f.toLuxel[a][3];
            w.vertices[s.firstVertex + k].lightmapUV = atlasUV(layout, p, uv[0], uv[1]);
        }
    });
}

}  // namespace luxel::q1
