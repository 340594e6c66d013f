// Lightmap pages as images (see lightmap_images.hpp).
#include "lightmap_images.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "luxel/image/image.hpp"
#include "luxel/light/styles.hpp"
#include "luxel/render/look.hpp"
#include "luxel/util/error.hpp"

namespace luxel::cli {
namespace {

// The page as the light of one style alone: each surface's block (with its border ring) copied from the
// slot that holds that style, black elsewhere.
LightmapPage pageOfStyle(const World& world, const LightmapSet& set, size_t page, int style) {
    const LightmapPage& base = set.slots[0][page];
    LightmapPage out{base.width, base.height, std::vector<float>(base.rgb.size(), 0.0f)};
    for (const Surface& s : world.surfaces) {
        if (s.lightmapPage != int32_t(page) || s.lightmapRect[2] <= 0) continue;
        for (size_t k = 0; k < 4; ++k) {
            if (s.styles[k] != style || page >= set.slots[k].size()) continue;
            const LightmapPage& src = set.slots[k][page];
            if (src.width != base.width || src.height != base.height) continue;
            const auto& r = s.lightmapRect;
            for (int y = std::max(0, r[1] - 1); y < std::min(base.height, r[1] + r[3] + 1); ++y)
                for (int x = std::max(0, r[0] - 1); x < std::min(base.width, r[0] + r[2] + 1); ++x)
                    for (int c = 0; c < 3; ++c) {
                        size_t i = (size_t(y) * size_t(base.width) + size_t(x)) * 3 + size_t(c);
                        out.rgb[i] = src.rgb[i];
                    }
        }
    }
    return out;
}

void writePage(const LightmapPage& page, const World& world, bool engineLook, const std::string& path) {
    Image image(page.width, page.height, 3);
    for (size_t t = 0; t < size_t(page.width) * size_t(page.height); ++t) {
        Vec3 light{page.rgb[t * 3], page.rgb[t * 3 + 1], page.rgb[t * 3 + 2]};
        if (engineLook) light = toDisplay(clampEngineLight(light, world.look), world.look);
        image.pixels[t * 3] = light.x;
        image.pixels[t * 3 + 1] = light.y;
        image.pixels[t * 3 + 2] = light.z;
    }
    writeImage(path, image);
}

}  // namespace

LightmapImages writeLightmapImages(const World& world, const LightmapSet& set, const std::string& dir,
                                   const std::string& ext, bool engineLook) {
    namespace fs = std::filesystem;
    const bool styled = !set.slots[1].empty();
    const std::vector<int> styles = styled ? stylesInUse(world) : std::vector<int>{0};
    LightmapImages written;
    written.styles = styles.size();
    for (int style : styles) {
        const fs::path folder = styled ? fs::path(dir) / fmt::format("style_{:03d}", style) : fs::path(dir);
        std::error_code ec;
        fs::create_directories(folder, ec);
        if (ec) throw UsageError(folder.string() + ": cannot create directory: " + ec.message());
        for (size_t i = 0; i < set.slots[0].size(); ++i) {
            if (set.slots[0][i].width <= 0) continue;  // no surface's page (e.g. a deluxe direction map)
            const std::string path = (folder / fmt::format("lm_{:04d}{}", i, ext)).string();
            writePage(styled ? pageOfStyle(world, set, i, style) : set.slots[0][i], world, engineLook, path);
            ++written.pages;
        }
    }
    return written;
}

}  // namespace luxel::cli
