// `luxel render MAP -o OUT`: one camera view written as an image.
#include <fmt/format.h>

#include <iostream>

#include "commands.hpp"
#include "common.hpp"
#include "luxel/image/image.hpp"
#include "luxel/render/map_view.hpp"

namespace luxel::cli {
namespace {

struct RenderArgs {
    MapArgs map;
    ViewArgs view;
    std::string output;
    bool stats = false;
};

int runRender(const RenderArgs& args) {
    ViewRequest request = args.view.request(isLdrPath(args.output));  // checked before the slow part
    request.time = args.map.time;  // --time: the moment animated things (textures, skies, warps) are drawn at
    LoadedMap map = loadMap(args.map.open(), args.map.decodeOptions(), args.map.materialOptions(), args.map.propOptions(),
                            !args.map.noOverlays);
    for (const std::string& w : propWarnings(map.props, !map.materialOptions.gameDirs.empty()))
        std::cerr << "luxel: warning: " << map.displayName << ": " << w << "\n";
    const RenderedView view = renderView(map, request);
    for (const std::string& w : view.warnings) std::cerr << "luxel: warning: " << map.displayName << ": " << w << "\n";
    writeFileAtomic(args.output, encodeView(args.output, view, viewMetadata(map, view)));
    if (!args.stats) return 0;
    const Camera& camera = view.camera.camera;
    const FrameStats& stats = view.stats;
    if (!map.world.staticProps.empty())
        std::cerr << fmt::format("{}: {} of {} static props placed ({} models, {} lit by .vhv) in {:.1f} ms\n", args.output,
                                 map.props.props, map.world.staticProps.size(), map.props.models, map.props.vertexLit,
                                 map.propsMs);
    if (map.materials)
        std::cerr << fmt::format("{}: {} textures loaded in {:.1f} ms; {} pixels drawn with the missing-texture grey\n",
                                 args.output, map.materials->textures.size(), map.materialsMs,
                                 stats.pixelsMissingTexture);
    std::cerr << fmt::format(
        "{}: mode {}; camera {} ({:.1f} {:.1f} {:.1f}) angles ({:.1f} {:.1f} {:.1f}) cluster {}; {} surfaces, {} of {} "
        "triangles drawn, {} pixels covered; camera {:.2f} ms, cull {:.2f} ms, setup {:.2f} ms, raster {:.2f} ms, "
        "shade {:.2f} ms\n",
        args.output, renderModeName(view.mode), view.camera.used, camera.position.x, camera.position.y,
        camera.position.z, camera.angles.x, camera.angles.y, camera.angles.z, stats.cull.cameraCluster,
        stats.cull.surfacesDrawn, stats.trianglesDrawn, stats.trianglesIn, stats.pixelsCovered, view.cameraMs,
        stats.cullMs, stats.setupMs, stats.rasterMs, stats.shadeMs);
    return 0;
}

}  // namespace

static void addRenderOptions(CLI::App* sub, Action& action) {
    auto args = std::make_shared<RenderArgs>();
    args->map.addTo(*sub);
    args->map.addPropsFlag(*sub);
    args->view.addTo(*sub);
    sub->add_option("-o,--output", args->output,
                    "output image; the format follows the extension: .png, .jpg, .webp (display), .exr, .tif (linear)")
        ->required();
    sub->add_flag("--stats", args->stats, "print camera, culling and timing figures to stderr");
    sub->callback([args, &action] { action = [args] { return runRender(*args); }; });
}

const Command kRenderCommand{
    "render",
    "Render a camera view of a map to an image (PNG, JPEG, EXR, TIFF)",
    addRenderOptions};

}  // namespace luxel::cli
