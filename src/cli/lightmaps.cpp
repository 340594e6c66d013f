// `luxel lightmaps MAP -o DIR`: every lightmap page as an image.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "common.hpp"
#include "luxel/bsp/decode.hpp"
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

int runLightmaps(const LightmapsArgs& args) {
    MapSource source = args.map.open();
    World world = decodeMap(source);
    std::error_code ec;
    std::filesystem::create_directories(args.outputDir, ec);
    if (ec) throw UsageError(args.outputDir + ": cannot create directory: " + ec.message());
    std::string ext = "." + args.format;
    bool engineLook = args.look.empty() ? isLdrPath(ext) : args.look == "engine";
    size_t written = 0;
    for (size_t i = 0; i < world.lightmaps.size(); ++i) {
        const LightmapPage& page = world.lightmaps[i];
        if (page.width <= 0) continue;  // a slot no surface uses (e.g. a deluxe direction map)
        Image image(page.width, page.height, 3);
        for (size_t t = 0; t < size_t(page.width) * size_t(page.height); ++t) {
            Vec3 light{page.rgb[t * 3], page.rgb[t * 3 + 1], page.rgb[t * 3 + 2]};
            if (engineLook) light = toDisplay(clampLightHue(light, world.look), world.look);
            image.pixels[t * 3] = light.x;
            image.pixels[t * 3 + 1] = light.y;
            image.pixels[t * 3 + 2] = light.z;
        }
        writeImage((std::filesystem::path(args.outputDir) / fmt::format("lm_{:04d}{}", i, ext)).string(), image);
        ++written;
    }
    std::cout << fmt::format("{}: wrote {} lightmap pages to {}\n", source.displayName, written, args.outputDir);
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
