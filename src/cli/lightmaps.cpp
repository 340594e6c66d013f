// `luxel lightmaps MAP -o DIR`: every lightmap page as an image.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "common.hpp"
#include "luxel/bsp/decode.hpp"
#include "luxel/light/styles.hpp"
#include "luxel/image/image.hpp"
#include "luxel/render/look.hpp"
#include "luxel/util/error.hpp"

namespace luxel::cli {
namespace {

struct LightmapsArgs {
    MapArgs map;
    std::string outputDir;
    std::string format = "png";
    std::string look;
};

// The page as the light of one style alone: each surface's block (with its border ring) copied from the
// slot that holds that style, black elsewhere.
LightmapPage pageOfStyle(const World& world, size_t page, int style) {
    const LightmapPage& base = world.lightmaps[page];
    LightmapPage out{base.width, base.height, std::vector<float>(base.rgb.size(), 0.0f)};
    for (const Surface& s : world.surfaces) {
        if (s.lightmapPage != int32_t(page) || s.lightmapRect[2] <= 0) continue;
        for (size_t k = 0; k < 4; ++k) {
            if (s.styles[k] != style) continue;
            const LightmapPage& src = k == 0 ? base : world.extraLightmapSlots[k - 1][page];
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
        if (engineLook) light = toDisplay(clampLightHue(light, world.look), world.look);
        image.pixels[t * 3] = light.x;
        image.pixels[t * 3 + 1] = light.y;
        image.pixels[t * 3 + 2] = light.z;
    }
    writeImage(path, image);
}

int runLightmaps(const LightmapsArgs& args) {
    MapSource source = args.map.open();
    World world = decodeMap(source, args.map.decodeOptions());
    namespace fs = std::filesystem;
    std::string ext = "." + args.format;
    bool engineLook = args.look.empty() ? isLdrPath(ext) : args.look == "engine";
    bool styled = !world.extraLightmapSlots[0].empty();
    std::vector<int> styles = styled ? stylesInUse(world) : std::vector<int>{0};
    size_t written = 0;
    for (int style : styles) {
        // Maps with several styles get one directory per style; single-style maps write the pages directly.
        fs::path dir = styled ? fs::path(args.outputDir) / fmt::format("style_{:03d}", style) : fs::path(args.outputDir);
        std::error_code ec;
        fs::create_directories(dir, ec);
        if (ec) throw UsageError(dir.string() + ": cannot create directory: " + ec.message());
        for (size_t i = 0; i < world.lightmaps.size(); ++i) {
            if (world.lightmaps[i].width <= 0) continue;  // a slot no surface uses (e.g. a deluxe direction map)
            std::string path = (dir / fmt::format("lm_{:04d}{}", i, ext)).string();
            if (styled)
                writePage(pageOfStyle(world, i, style), world, engineLook, path);
            else
                writePage(world.lightmaps[i], world, engineLook, path);
            ++written;
        }
    }
    std::cout << fmt::format("{}: wrote {} lightmap pages ({} style{}) to {}\n", source.displayName, written,
                             styles.size(), styles.size() == 1 ? "" : "s", args.outputDir);
    return 0;
}

}  // namespace

void addLightmapsCommand(CLI::App& app, Action& action) {
    auto args = std::make_shared<LightmapsArgs>();
    CLI::App* sub = app.add_subcommand("lightmaps", "Write each lightmap page of a map as an image");
    args->map.addTo(*sub);
    sub->add_option("-o,--output", args->outputDir, "output directory")->required();
    sub->add_option("--format", args->format, "image file type: png, exr, tif, jpg")
        ->capture_default_str()
        ->check(CLI::IsMember({"png", "exr", "tif", "tiff", "jpg"}));
    sub->add_option("--look", args->look, "engine | linear (default: engine for png/jpg, linear for exr/tif)")
        ->check(CLI::IsMember({"engine", "linear"}));
    sub->callback([args, &action] { action = [args] { return runLightmaps(*args); }; });
}

}  // namespace luxel::cli
