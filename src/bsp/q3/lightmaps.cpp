// Quake 3 lightmaps: 128x128 RGB pages in lump 14, or external lm_NNNN.tga images beside the map
// (q3map2 -external, DarkPlaces/Nexuiz) when that lump is empty. Maps lit with q3map2 -deluxe interleave
// direction pages: page 2k + 1 holds the light direction of page 2k, and faces use even pages only. There
// is no flag for it; engines that draw deluxe maps (DarkPlaces, qfusion / Warsow) infer it the same way as
// here: at least two pages, an even number of them, every face on an even page, and (with exactly two) a
// second page that is not all black. A direction is stored as bytes (d + 1) * 127.5 per axis, in world
// space, pointing towards the light.
#include <algorithm>
#include <array>
#include <cstdio>
#include <exception>
#include <optional>

#include <tbb/parallel_for.h>

#include "luxel/image/image.hpp"
#include "format.hpp"

namespace luxel::q3 {

namespace {

// Direction per texel from bytes (or values 0..1 times 255) stored as (d + 1) * 127.5.
float directionOf(float byteValue) { return byteValue * (2.0f / 255.0f) - 1.0f; }

// Whether every lightmapped face uses an even page.
bool onlyEvenPages(const World& w) {
    bool any = false;
    for (const Surface& s : w.surfaces) {
        if (s.lightmapPage < 0) continue;
        if (s.lightmapPage & 1) return false;
        any = true;
    }
    return any;
}

// Moves the odd internal pages into World::deluxemaps when the map is deluxe (see the top of the file).
void splitInternalDeluxe(Context& c, World& w, const uint8_t* all) {
    const size_t n = c.numInternalLightmaps;
    if (n < 2 || (n & 1) || !onlyEvenPages(w)) return;
    if (n == 2 && std::all_of(all + kLightmapBytes, all + 2 * kLightmapBytes, [](uint8_t b) { return b == 0; })) return;
    w.deluxemaps.resize(n);
    tbb::parallel_for(size_t(0), n / 2, [&](size_t k) {
        LightmapPage& dir = w.deluxemaps[2 * k];
        dir.width = dir.height = int32_t(kLightmapSide);
        w.lightmaps[2 * k + 1] = LightmapPage{};  // not light
        if (!c.lightSamples) return;
        dir.rgb.resize(kLightmapBytes);
        const uint8_t* src = all + (2 * k + 1) * kLightmapBytes;
        for (size_t i = 0; i < kLightmapBytes; ++i) dir.rgb[i] = directionOf(float(src[i]));
    });
}

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
        if (!c.lightSamples) return;
        page.rgb.resize(kLightmapBytes);
        const uint8_t* src = all.data() + p * kLightmapBytes;
        for (size_t i = 0; i < kLightmapBytes; ++i) page.rgb[i] = lut[src[i]];
    });
    splitInternalDeluxe(c, w, all.data());
}

// External deluxe maps: every used (even) page's odd successor lm_NNNN.tga present beside the map, at
// the same size. Missing or unreadable ones mean the map has none (light pages decode either way).
void decodeExternalDeluxe(Context& c, World& w, const std::vector<int32_t>& used) {
    if (!c.source->openRelated || !onlyEvenPages(w)) return;
    std::vector<LightmapPage> dirs(w.lightmaps.size() + 1);
    for (int32_t u : used) {
        char name[32];
        std::snprintf(name, sizeof name, "/lm_%04d.tga", int(u) + 1);
        const std::optional<Bytes> bytes = c.source->openRelated(c.source->mapName + name);
        if (!bytes) return;
        Image img;
        try {
            img = decodeImage(*bytes, c.source->mapName + name);
        } catch (const std::exception&) {
            return;
        }
        const LightmapPage& light = w.lightmaps[size_t(u)];
        if (img.width != light.width || img.height != light.height || img.channels < 3) return;
        LightmapPage& dir = dirs[size_t(u)];
        dir.width = img.width;
        dir.height = img.height;
        if (!c.lightSamples) continue;
        const size_t texels = size_t(img.width) * size_t(img.height), ch = size_t(img.channels);
        dir.rgb.resize(texels * 3);
        for (size_t t = 0; t < texels; ++t)
            for (size_t k = 0; k < 3; ++k) dir.rgb[t * 3 + k] = directionOf(255.0f * img.pixels[t * ch + k]);
    }
    dirs.resize(w.lightmaps.size());
    w.deluxemaps = std::move(dirs);
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
        const std::string path = c.source->mapName + name;
        const uint64_t at = faces.absolute(usedBy[u] * kFaceBytes + 28);
        std::optional<Bytes> bytes;
        if (c.source->openRelated) bytes = c.source->openRelated(path);
        if (!bytes)
            throw DecodeError(c.source->displayName, "lightmaps", at,
                              "external lightmap " + path + " (used by face " + std::to_string(usedBy[u]) +
                                  ") not found beside the map");
        Image img = decodeImage(*bytes, path);
        if (img.width <= 0 || img.height <= 0 || img.channels <= 0 || img.width > 16384 || img.height > 16384)
            throw DecodeError(c.source->displayName, "lightmaps", at,
                              "external lightmap " + path + " has unusable size " + std::to_string(img.width) + "x" +
                                  std::to_string(img.height));
        LightmapPage& page = w.lightmaps[size_t(used[u])];
        page.width = img.width;
        page.height = img.height;
        if (!c.lightSamples) continue;
        const size_t texels = size_t(img.width) * size_t(img.height), ch = size_t(img.channels);
        page.rgb.resize(texels * 3);
        for (size_t t = 0; t < texels; ++t)
            for (size_t k = 0; k < 3; ++k)
                page.rgb[t * 3 + k] = 4.0f * img.pixels[t * ch + std::min(k, ch - 1)];  // grey: replicate
    }
    decodeExternalDeluxe(c, w, used);
}

}  // namespace

void decodeLightmaps(Context& c, World& w) {
    if (c.numInternalLightmaps > 0)
        decodeInternal(c, w);
    else
        decodeExternal(c, w);
}

}  // namespace luxel::q3
