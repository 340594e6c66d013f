// Source lightmaps written back into the lighting lump the World was decoded from (LDR 8 or HDR 53, with
// its faces lump for the offsets): per lit face and style, `blocks` grids of ColorRGBExp32 luxels from
// lightofs (source/lighting.cpp's layout), every block of a bump-lit face given the flat light, and the
// style's per-channel median at lightofs - 4 (style + 1) as vrad's FinalLightFace keeps it, where that
// spot holds no face's luxels. An uncompressed lump is patched in place; an LZMA one is appended
// uncompressed with its directory entry pointed at the copy (as the ambient cube writer does).
#include <algorithm>
#include <string>

#include "luxel/bsp/write_probes.hpp"
#include "format.hpp"
#include "../write_probes_parts.hpp"

namespace luxel::vbsp {

namespace {

// vrad's median: per channel, the element at index n / 2 of the sorted values.
Vec3 medianLight(std::vector<Vec3> v) {
    if (v.empty()) return {};
    Vec3 m;
    for (int c = 0; c < 3; ++c) {
        std::vector<float> channel(v.size());
        for (size_t i = 0; i < v.size(); ++i) channel[i] = v[i][c];
        std::nth_element(channel.begin(), channel.begin() + std::ptrdiff_t(v.size() / 2), channel.end());
        (c == 0 ? m.x : c == 1 ? m.y : m.z) = channel[v.size() / 2];
    }
    return m;
}

struct LitFace {
    size_t surface = 0;
    uint64_t offset = 0, bytes = 0;
    int32_t width = 0, height = 0, blocks = 1, styles = 0;
};

}  // namespace

Bytes writeLighting(const MapSource& source, const World& world, std::span<const std::vector<LightmapPage>> slots) {
    Context c(source);
    World header;  // the directory's facts, read again from the file itself
    decodeHeader(c, header);
    useLightingSet(c, world.hdrLighting);
    ByteReader& faces = c.lump(c.facesLump);
    const ByteReader& lighting = c.lump(c.lightingLump);
    if (faces.recordCount(kFaceBytes) != world.surfaces.size())
        faces.fail(0, std::to_string(faces.recordCount(kFaceBytes)) + " faces for " +
                          std::to_string(world.surfaces.size()) + " surfaces of the map decoded");

    std::vector<LitFace> lit;
    for (size_t i = 0; i < world.surfaces.size(); ++i) {
        const Surface& s = world.surfaces[i];
        if (s.lightmapPage < 0) continue;
        LitFace f;
        f.surface = i;
        faces.seek(i * kFaceBytes + 20);
        const int32_t offset = faces.i32();
        const int32_t m = s.material;
        const bool bumped = m >= 0 && size_t(m) < world.materials.size() &&
                            (world.materials[size_t(m)].nativeSurfaceFlags & kSurfBumpLight);
        f.blocks = bumped ? kBumpBlocks : 1;
        f.width = s.lightmapRect[2], f.height = s.lightmapRect[3];
        f.styles = bsp::styleCount(s.styles);
        f.bytes = uint64_t(f.width) * uint64_t(f.height) * kColorBytes * uint64_t(f.blocks) * uint64_t(f.styles);
        f.offset = uint64_t(std::max(offset, 0));
        if (offset < 0 || f.offset + f.bytes > lighting.size())
            faces.fail(i * kFaceBytes + 20, "face " + std::to_string(i) + " lightmap does not lie where the map decoded it");
        lit.push_back(f);
    }
    // Where luxels lie, so a style's median is written only into bytes no face's luxels use: the ranges by
    // start, with the furthest end of each prefix.
    std::vector<std::pair<uint64_t, uint64_t>> used;
    for (const LitFace& f : lit) used.push_back({f.offset, f.offset + f.bytes});
    std::sort(used.begin(), used.end());
    std::vector<uint64_t> reach(used.size());
    for (size_t i = 0; i < used.size(); ++i) reach[i] = std::max(used[i].second, i > 0 ? reach[i - 1] : 0);
    auto free = [&](uint64_t from, uint64_t to) {
        const size_t before = size_t(std::lower_bound(used.begin(), used.end(), std::pair{to, uint64_t(0)}) - used.begin());
        return before == 0 || reach[before - 1] <= from;
    };

    Bytes data(lighting.data().begin(), lighting.data().end());
    std::vector<Vec3> luxels;
    for (const LitFace& f : lit) {
        const Surface& s = world.surfaces[f.surface];
        const size_t grid = size_t(f.width) * size_t(f.height) * kColorBytes;
        for (size_t k = 0; k < size_t(f.styles) && k < slots.size(); ++k) {
            if (slots[k].empty()) continue;
            luxels.clear();
            for (int32_t t = 0; t < f.height; ++t)
                for (int32_t u = 0; u < f.width; ++u) luxels.push_back(bsp::surfaceLuxel(slots[k], s, u, t));
            for (int32_t b = 0; b < f.blocks; ++b) {
                auto at = data.begin() + std::ptrdiff_t(f.offset + (k * size_t(f.blocks) + size_t(b)) * grid);
                for (const Vec3& v : luxels) at = std::ranges::copy(encodeColorRGBExp32(v), at).out;
            }
            const uint64_t average = 4 * (k + 1);
            if (f.offset >= average && free(f.offset - average, f.offset - average + 4))
                std::ranges::copy(encodeColorRGBExp32(medianLight(luxels)), data.begin() + std::ptrdiff_t(f.offset - average));
        }
    }

    const LumpDirectory dir = readLumpDirectory(ByteReader(source.bytes, source.displayName, "header", 0));
    const int lump = c.lightingLump;
    const DirectoryEntry& e = dir.entries[size_t(lump)];
    const bool compressed = header.lumps[size_t(lump)].compressed;
    Bytes out = source.bytes;
    bsp::placeLump(out, {source.displayName, kLumpNames[size_t(lump)], e.offset, e.length, dir.offsetField(lump), dir.lengthField(lump)},
                   data, !compressed);
    if (compressed) bsp::putU32(out, dir.fourCCField(lump), 0);
    return out;
}

}  // namespace luxel::vbsp
