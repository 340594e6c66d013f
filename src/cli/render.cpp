// `luxel render MAP -o OUT`: one camera view written as an image.
#include <fmt/format.h>

#include <iostream>

#include "commands.hpp"
#include "common.hpp"
#include "luxel/bsp/decode.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/image/image.hpp"
#include "luxel/light/light_grid.hpp"
#include "luxel/render/render.hpp"

namespace luxel::cli {
namespace {

struct RenderArgs {
    MapArgs map;
    ViewArgs view;
    std::string output;
    bool stats = false;
};

int runRender(const RenderArgs& args) {
    bool ldr = isLdrPath(args.output);
    RenderOptions options = args.view.options(ldr);  // validates the mode before the slow part
    MapSource source = args.map.open();
    World world = decodeMap(source, args.map.decodeOptions());
    Geometry geometry = tessellate(world);
    Camera camera = args.view.camera_(world);
    if (options.mode == RenderMode::Grid && probeKind(world) == ProbeKind::None)
        std::cerr << "luxel: warning: " << source.displayName
                  << " has no light grid or ambient cubes: grid mode draws its surfaces black\n";
    double materialsMs = 0;
    const std::optional<MaterialSet> materials = loadMaterialsFor(options.mode, world, source, args.map, &materialsMs);
    if (materials) options.materials = &*materials;
    FrameStats stats;
    Image image = renderFrame(world, geometry, camera, options, &stats);
    writeImage(args.output, image);
    if (args.stats && materials)
        std::cerr << fmt::format("{}: {} textures loaded in {:.1f} ms; {} pixels drawn with the missing-texture grey\n",
                                 args.output, materials->textures.size(), materialsMs, stats.pixelsMissingTexture);
    if (args.stats)
        std::cerr << fmt::format(
            "{}: camera ({:.1f} {:.1f} {:.1f}) angles ({:.1f} {:.1f} {:.1f}) cluster {}; {} surfaces, {} of {} "
            "triangles drawn, {} pixels covered; cull {:.2f} ms, setup {:.2f} ms, raster {:.2f} ms, shade {:.2f} ms\n",
            args.output, camera.position.x, camera.position.y, camera.position.z, camera.angles.x, camera.angles.y,
            camera.angles.z, stats.cull.cameraCluster, stats.cull.surfacesDrawn, stats.trianglesDrawn,
            stats.trianglesIn, stats.pixelsCovered, stats.cullMs, stats.setupMs, stats.rasterMs, stats.shadeMs);
    return 0;
}

}  // namespace

void addRenderCommand(CLI::App& app, Action& action) {
    auto args = std::make_shared<RenderArgs>();
    CLI::App* sub = app.add_subcommand("render", "Render a camera view of a map to an image (PNG, JPEG, EXR, TIFF)");
    args->map.addTo(*sub);
    args->view.addTo(*sub);
    sub->add_option("-o,--output", args->output, "output image; the format follows the extension")->required();
    sub->add_flag("--stats", args->stats, "print camera, culling and timing figures to stderr");
    sub->callback([args, &action] { action = [args] { return runRender(*args); }; });
}

}  // namespace luxel::cli
