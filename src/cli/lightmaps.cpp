// `luxel lightmaps MAP -o DIR`: every lightmap page as an image.
#include <fmt/format.h>

#include <iostream>

#include "commands.hpp"
#include "common.hpp"
#include "lightmap_images.hpp"
#include "luxel/bsp/decode.hpp"
#include "luxel/image/image.hpp"

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
    World world = decodeMap(source, args.map.decodeOptions());
    std::string ext = "." + args.format;
    bool engineLook = args.look.empty() ? isLdrPath(ext) : args.look == "engine";
    const LightmapImages written = writeLightmapImages(world, takeLightmaps(world), args.outputDir, ext, engineLook);
    std::cout << fmt::format("{}: wrote {} lightmap pages ({} style{}) to {}\n", source.displayName, written.pages,
                             written.styles, written.styles == 1 ? "" : "s", args.outputDir);
    return 0;
}

}  // namespace

static void addLightmapsOptions(CLI::App* sub, Action& action) {
    auto args = std::make_shared<LightmapsArgs>();
    args->map.addTo(*sub);
    sub->add_option("-o,--output", args->outputDir, "output directory")->required();
    sub->add_option("--format", args->format, "image file type: png, exr, tif, jpg")
        ->capture_default_str()
        ->check(CLI::IsMember({"png", "exr", "tif", "tiff", "jpg"}));
    sub->add_option("--look", args->look, "engine | linear (default: engine for png/jpg, linear for exr/tif)")
        ->check(CLI::IsMember({"engine", "linear"}));
    sub->callback([args, &action] { action = [args] { return runLightmaps(*args); }; });
}

const Command kLightmapsCommand{"lightmaps", "Write each lightmap page of a map as an image", addLightmapsOptions};

}  // namespace luxel::cli
