// Quake 3 lightmaps written back (see write_lightmaps.hpp; the format dispatch is in write_lightmaps.cpp). Internal pages: the lightmaps lump keeps its size
// (128x128 RGB pages in the decoder's order, a deluxe map's direction page after each light page), so it is
// overwritten in place and nothing else in the file moves. External pages: the map file keeps every byte and
// the pages become lm_NNNN.tga images, numbered as the map's faces and the decoder number them.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include "luxel/bsp/write_lightmaps.hpp"
#include "luxel/bsp/write_probes.hpp"
#include "luxel/util/error.hpp"
#include "format.hpp"
#include "../write_probes_parts.hpp"

namespace luxel {

namespace {

// One page's texels as bytes: light as q3map2's ColorToBytes, directions as its deluxe encoding.
std::vector<uint8_t> pageBytes(const LightmapPage& page, bool direction) {
    const size_t texels = size_t(page.width) * size_t(page.height);
    std::vector<uint8_t> out(texels * 3);
    for (size_t t = 0; t < texels; ++t) {
        const Vec3 v{page.rgb[3 * t], page.rgb[3 * t + 1], page.rgb[3 * t + 2]};
        const auto b = direction ? encodeQuake3Direction(v) : encodeQuake3Light(v);
        out[3 * t] = b[0], out[3 * t + 1] = b[1], out[3 * t + 2] = b[2];
    }
    return out;
}

// The baked page for page i of `stored` (same size, else UsageError); nullptr when the map has no page there.
const LightmapPage* bakedPage(const World& world, const std::vector<LightmapPage>& stored,
                              const std::vector<LightmapPage>& baked, size_t i, const char* what) {
    if (i >= stored.size() || stored[i].width <= 0) return nullptr;
    const LightmapPage& b = baked[i];
    if (b.width != stored[i].width || b.height != stored[i].height ||
        b.rgb.size() != size_t(b.width) * size_t(b.height) * 3)
        throw UsageError(world.file + ": baked " + what + " page " + std::to_string(i) + " is " + std::to_string(b.width) +
                         "x" + std::to_string(b.height) + ", the map's is " + std::to_string(stored[i].width) + "x" +
                         std::to_string(stored[i].height));
    return &b;
}

std::string externalName(size_t page) {
    char name[32];
    std::snprintf(name, sizeof name, "lm_%04zu.tga", page);
    return name;
}

Image imageOf(const LightmapPage& page, bool direction) {
    const std::vector<uint8_t> bytes = pageBytes(page, direction);
    Image image(page.width, page.height, 3);
    for (size_t i = 0; i < bytes.size(); ++i) image.pixels[i] = float(bytes[i]) / 255.0f;
    return image;
}

}  // namespace

std::array<uint8_t, 3> encodeQuake3Direction(Vec3 d) {
    const float len = length(d);
    if (!(len > 0) || !std::isfinite(len)) return {0, 0, 0};
    const Vec3 u = d / len;
    auto byte = [](float v) { return uint8_t(std::clamp((v + 1.0f) * 127.5f, 0.0f, 255.0f)); };
    return {byte(u.x), byte(u.y), byte(u.z)};
}

namespace q3 {

LightmapFiles writeLightmapFiles(const MapSource& source, const World& world, const LightmapSet& set) {
    for (size_t k = 1; k < set.slots.size(); ++k)
        if (!set.slots[k].empty()) throw UsageError(world.file + ": Quake 3 (IBSP 46) lightmaps hold style slot 0 only");
    if (set.slots[0].empty() && set.deluxe.empty()) return {source.bytes, {}};
    const std::vector<LightmapPage>& pages = set.slots[0];
    if (pages.size() != world.lightmaps.size()) throw UsageError(world.file + ": baked lightmap pages do not match the map's");
    const bool directions = !set.deluxe.empty() && !world.deluxemaps.empty();
    if (directions && set.deluxe.size() != world.deluxemaps.size())
        throw UsageError(world.file + ": baked direction pages do not match the map's");
    ByteReader file(source.bytes, source.displayName, "header", 0);
    constexpr size_t kHeaderBytes = 8 + 8 * size_t(q3::kLumpCount);
    if (file.size() < kHeaderBytes) file.fail(0, "file too small for a Quake 3 header");
    if (file.fixedString(4) != "IBSP" || file.i32() != 46) file.fail(0, "not a Quake 3 (IBSP 46) file");
    const size_t entry = 8 + 8 * size_t(q3::kLightmaps);
    file.seek(entry);
    const int32_t offset = file.i32(), length = file.i32();
    const char* name = q3::kLumpNames[q3::kLightmaps];
    if (offset < 0 || length < 0) file.fail(entry, std::string(name) + " directory entry is negative");
    ByteReader lump = file.sub(uint64_t(offset), uint64_t(length), name);

    LightmapFiles out;
    if (lump.size() == 0) {  // external images
        out.map = source.bytes;
        for (size_t p = 0; p < pages.size(); ++p) {
            if (const LightmapPage* light = bakedPage(world, world.lightmaps, pages, p, "lightmap"))
                out.images.push_back({externalName(p), imageOf(*light, false)});
            if (const LightmapPage* dir = directions ? bakedPage(world, world.deluxemaps, set.deluxe, p, "direction") : nullptr)
                out.images.push_back({externalName(p + 1), imageOf(*dir, true)});
        }
        return out;
    }
    if (lump.size() != pages.size() * q3::kLightmapBytes)
        lump.fail(0, "lump has " + std::to_string(lump.size()) + " bytes for " + std::to_string(pages.size()) + " pages");
    const std::span<const uint8_t> stored = lump.bytes(lump.size());
    Bytes data(stored.begin(), stored.end());
    auto put = [&](size_t at, const LightmapPage& page, bool direction) {
        if (page.width != int32_t(q3::kLightmapSide) || page.height != int32_t(q3::kLightmapSide))
            throw UsageError(world.file + ": baked lightmap page " + std::to_string(at) + " is not 128x128");
        const std::vector<uint8_t> bytes = pageBytes(page, direction);
        std::copy(bytes.begin(), bytes.end(), data.begin() + std::ptrdiff_t(at * q3::kLightmapBytes));
    };
    for (size_t p = 0; p < pages.size(); ++p) {
        if (const LightmapPage* light = bakedPage(world, world.lightmaps, pages, p, "lightmap")) put(p, *light, false);
        // A direction page sits after its light page; the decoder left page p + 1 of World::lightmaps empty.
        if (const LightmapPage* dir = directions ? bakedPage(world, world.deluxemaps, set.deluxe, p, "direction") : nullptr)
            if (p + 1 < pages.size()) put(p + 1, *dir, true);
    }
    out.map = source.bytes;
    bsp::placeLump(out.map, {source.displayName, name, uint64_t(offset), uint64_t(length), entry, entry + 4}, data, true);
    return out;
}

}  // namespace q3

void writeExternalLightmaps(const std::string& mapPath, const LightmapFiles& files) {
    if (files.images.empty()) return;
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(mapPath).replace_extension();
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw UsageError(dir.string() + ": cannot create directory: " + ec.message());
    for (const auto& [name, image] : files.images) writeImage((dir / name).string(), image);
}

}  // namespace luxel
