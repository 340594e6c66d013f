// Quake 3 lightmaps: 128x128 RGB pages in lump 14, or external lm_NNNN.tga images beside the map
// (q3map2 -external, DarkPlaces/Nexuiz) when that lump is empty.
#include <algorithm>
#include <array>
#include <cstdio>

#include <tbb/parallel_for.h>

#include "luxel/image/image.hpp"
#include "q3_format.hpp"

namespace luxel::q3 {

namespace {

void decodeInternal(Context& c, World& w) {
    ByteReader& r = c.lump(kLightmaps);
    const size_t n = c.numInternalLightmaps;
    std::array<float, 256> lut;
    for (int b = 0; b < 256; ++b) lut[size_t(b)] = overbright(uint8_t(b));
    auto all = r.bytes(n * kLightmapBytes);
    w.lightmaps.resize(n);
    tbb::parallel_for(size_t(0), n, [&](size_t p) {
        LightmapPage& page = w.lightmaps[p];
        page.width = page.height = int32_t(kLightmapSide);
        page.rgb.resize(kLightmapBytes);
        const uint8_t* src = all.data() + p * kLightmapBytes;
        for (size_t i = 0; i < kLightmapBytes; ++i) page.rgb[i] = lut[src[i]];
    });
}

void decodeExternal(Context& c, World& w) {
    // Only the pages faces reference: with -deluxe the odd files are light directions, not light.
    std::vector<int32_t> used;
    std::vector<size_t> usedBy;  // face index first referencing each page, for error positions
    for (size_t i = 0; i < w.surfaces.size(); ++i) {
        int32_t lm = w.surfaces[i].lightmapPage;
        if (lm < 0) continue;
        if (std::find(used.begin(), used.end(), lm) == used.end()) {
            used.push_back(lm);
            usedBy.push_back(i);
        }
    }
    if (used.empty()) return;
    const ByteReader& faces = c.lump(kFaces);
    w.lightmaps.resize(size_t(*std::max_element(used.begin(), used.end())) + 1);
    for (size_t u = 0; u < used.size(); ++u) {
        char name[32];
        std::snprintf(name, sizeof name, "/lm_%04d.tga", int(used[u]));
        const std::string path = c.source.mapName + name;
        const uint64_t at = faces.absolute(usedBy[u] * kFaceBytes + 28);
        std::optional<Bytes> bytes;
        if (c.source.openRelated) bytes = c.source.openRelated(path);
        if (!bytes)
            throw DecodeError(c.source.displayName, "lightmaps", at,
                              "external lightmap " + path + " (used by face " + std::to_string(usedBy[u]) +
                                  ") not found beside the map");
        Image img = decodeImage(*bytes, path);
        if (img.width <= 0 || img.height <= 0 || img.channels <= 0 || img.width > 16384 || img.height > 16384)
            throw DecodeError(c.source.displayName, "lightmaps", at,
                              "external lightmap " + path + " has unusable size " + std::to_string(img.width) + "x" +
                                  std::to_string(img.height));
        LightmapPage& page = w.lightmaps[size_t(used[u])];
        page.width = img.width;
        page.height = img.height;
        const size_t texels = size_t(img.width) * size_t(img.height), ch = size_t(img.channels);
        page.rgb.resize(texels * 3);
        for (size_t t = 0; t < texels; ++t)
            for (size_t k = 0; k < 3; ++k)
                page.rgb[t * 3 + k] = 4.0f * img.pixels[t * ch + std::min(k, ch - 1)];  // grey: replicate
    }
}

}  // namespace

void decodeLightmaps(Context& c, World& w) {
    if (c.numInternalLightmaps > 0)
        decodeInternal(c, w);
    else
        decodeExternal(c, w);
}

}  // namespace luxel::q3
