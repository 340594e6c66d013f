// `luxel bench MAP`: load/tessellate time and per-frame times, for the performance targets.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>

#include "commands.hpp"
#include "common.hpp"
#include "luxel/bsp/decode.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/geometry/overlays.hpp"
#include "luxel/image/image.hpp"
#include "luxel/model/props.hpp"
#include "luxel/render/render.hpp"
#include "luxel/util/frame_heap.hpp"

namespace luxel::cli {
namespace {

struct BenchArgs {
    MapArgs map;
    ViewArgs view;
    int frames = 30;
    bool json = false;
    bool noEncode = false;
    std::string shadingFloor = "off";
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : (v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]));
}

double percentile(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5))];
}

int runBench(const BenchArgs& args) {
    RenderOptions options = args.view.options(true);
    options.shadingFloor = args.shadingFloor == "flat"   ? ShadingFloor::Flat
                           : args.shadingFloor == "skip" ? ShadingFloor::Skip
                                                         : ShadingFloor::Off;
    double t0 = nowMs();
    MapSource source = args.map.open();
    double t1 = nowMs();
    World world = decodeMap(source, args.map.decodeOptions());
    const double tp = nowMs();
    const OverlaysPlaced overlays = args.map.noOverlays ? OverlaysPlaced{} : placeOverlays(world);
    PropsPlaced props;
    if (!args.map.noProps) props = placeStaticProps(world, propFiles(world, args.map.gameDirs));
    for (const std::string& w : propWarnings(props, !args.map.gameDirs.empty()))
        std::cerr << "luxel: warning: " << source.displayName << ": " << w << "\n";
    double t2 = nowMs();
    Geometry geometry = tessellate(world);
    double t3 = nowMs();
    Camera camera = args.view.camera_(world, geometry);
    double materialsMs = 0;
    const std::optional<MaterialSet> materials = loadMaterialsFor(options.mode, world, source, args.map, &materialsMs);
    if (materials) options.materials = &*materials;

    // One frame buffer for every frame, as a viewer keeps its own: the first frame pays for its pages. Display
    // bytes, the frame `luxel render` and `luxel serve` draw for PNG, JPEG and WebP.
    ByteImage image;
    FrameStats first;
    double f0 = nowMs();
    renderFrame(world, geometry, camera, options, image, &first);
    double firstFrameMs = nowMs() - f0;

    std::vector<double> frame, cull, setup, raster, shade, skyView;
    FrameStats stats;
    for (int i = 0; i < args.frames; ++i) {
        double s = nowMs();
        renderFrame(world, geometry, camera, options, image, &stats);
        frame.push_back(nowMs() - s);
        cull.push_back(stats.cullMs);
        setup.push_back(stats.setupMs);
        raster.push_back(stats.rasterMs);
        shade.push_back(stats.shadeMs);
        skyView.push_back(stats.skyViewMs);
    }

    // The last frame encoded as each common format, as `luxel render` and `luxel serve` write it; WebP (method 6, as OpenImageIO wrote it) is slow enough that fewer runs do.
    struct Encoded {
        const char* format;
        double medianMs = 0;
        size_t bytes = 0;
    };
    std::vector<Encoded> encoded = {{"png"}, {"jpg"}, {"webp"}};
    // A floor's frame is not a picture anyone would encode.
    if (args.noEncode || options.shadingFloor != ShadingFloor::Off) encoded.clear();
    for (Encoded& e : encoded) {
        std::vector<double> times;
        const int runs = e.format == std::string("webp") ? std::min(args.frames, 5) : args.frames;
        for (int i = 0; i < runs; ++i) {
            const double s = nowMs();
            e.bytes = encodeImage(std::string("frame.") + e.format, image).size();
            times.push_back(nowMs() - s);
        }
        e.medianMs = median(times);
    }

    nlohmann::ordered_json j;
    j["map"] = source.displayName;
    j["threads"] = workerThreads();
    j["width"] = camera.width;
    j["height"] = camera.height;
    j["mode"] = renderModeName(options.mode);
    j["shading_floor"] = args.shadingFloor;
    j["spp"] = options.spp;
    j["read_ms"] = t1 - t0;
    j["decode_ms"] = tp - t1;
    j["props_ms"] = t2 - tp;  // static props: models read and placed (their materials load with the rest)
    j["props"] = props.props;
    j["overlay_fragments"] = overlays.fragments;  // overlay pieces placed (with props_ms)
    j["tessellate_ms"] = t3 - t2;
    j["load_ms"] = t3 - t1;  // decode + tessellate, the figure the targets name
    j["materials_ms"] = materialsMs;  // lit / albedo modes: shaders, materials and textures (0 otherwise)
    j["textures"] = materials ? materials->textures.size() : 0;
    j["first_frame_ms"] = firstFrameMs;
    j["load_and_first_frame_ms"] = t3 - t1 + firstFrameMs;
    j["first_frame_split_ms"] = {{"cull", first.cullMs}, {"setup", first.setupMs}, {"raster", first.rasterMs},
                                 {"shade", first.shadeMs}};
    j["frames"] = args.frames;
    j["frame_ms_median"] = median(frame);
    j["frame_ms_min"] = frame.empty() ? 0 : *std::min_element(frame.begin(), frame.end());
    j["frame_ms_p90"] = percentile(frame, 0.9);
    j["cull_ms_median"] = median(cull);
    j["setup_ms_median"] = median(setup);
    j["raster_ms_median"] = median(raster);
    j["shade_ms_median"] = median(shade);
    j["sky_view_ms_median"] = median(skyView);  // Source 3D skybox view (0 without one)
    j["surfaces_drawn"] = stats.cull.surfacesDrawn;
    j["triangles_in"] = stats.trianglesIn;
    j["triangles_drawn"] = stats.trianglesDrawn;
    j["pixels_covered"] = stats.pixelsCovered;
    j["pixels_missing_texture"] = stats.pixelsMissingTexture;
    for (const Encoded& e : encoded) {
        j[std::string("encode_") + e.format + "_ms_median"] = e.medianMs;
        j[std::string("encode_") + e.format + "_bytes"] = e.bytes;
    }
    if (args.json) {
        std::cout << j.dump() << "\n";
    } else {
        std::cout << fmt::format(
            "{}\n  {} threads, {}x{} {} spp {}{}\n  read {:.1f} ms, decode {:.1f} ms, props {:.1f} ms ({} placed), "
            "tessellate {:.1f} ms (load {:.1f} ms), materials {:.1f} ms ({} textures)\n  first frame {:.2f} ms; over {} frames: median {:.2f} ms, min {:.2f}, p90 {:.2f}\n"
            "  median split: cull {:.2f} ms, setup {:.2f} ms, raster {:.2f} ms, shade {:.2f} ms\n"
            "  {} surfaces, {} of {} triangles drawn, {} pixels covered\n",
            source.displayName, j["threads"].get<int>(), camera.width, camera.height, renderModeName(options.mode),
            options.spp, options.shadingFloor != ShadingFloor::Off ? ", shading floor " + args.shadingFloor : "", t1 - t0, tp - t1, t2 - tp, props.props, t3 - t2, t3 - t1, materialsMs, j["textures"].get<size_t>(), firstFrameMs, args.frames, median(frame),
            j["frame_ms_min"].get<double>(), j["frame_ms_p90"].get<double>(), median(cull), median(setup),
            median(raster), median(shade), stats.cull.surfacesDrawn, stats.trianglesDrawn, stats.trianglesIn,
            stats.pixelsCovered);
        if (!encoded.empty())
            std::cout << fmt::format(
                "  encoding the frame (median): PNG {:.2f} ms ({} bytes), JPEG {:.2f} ms ({} bytes), WebP {:.2f} ms ({} bytes)\n",
                encoded[0].medianMs, encoded[0].bytes, encoded[1].medianMs, encoded[1].bytes, encoded[2].medianMs,
                encoded[2].bytes);
    }
    return 0;
}

}  // namespace

static void addBenchOptions(CLI::App* sub, Action& action) {
    auto args = std::make_shared<BenchArgs>();
    args->map.addTo(*sub);
    args->map.addPropsFlag(*sub);
    // Bench keeps the defaults its published figures were measured with: the overview, lightmap only.
    args->view.camera = "overview";
    args->view.mode = "lightmap";
    args->view.addTo(*sub);
    sub->add_option("--frames", args->frames, "frames to time after the first")->capture_default_str()->check(CLI::Range(1, 10000));
    sub->add_flag("--json", args->json, "print one JSON object");
    sub->add_flag("--no-encode", args->noEncode,
                  "leave out the encoding figures (each format is otherwise timed over as many runs as frames)");
    sub->add_option("--shading-floor", args->shadingFloor,
                    "measurement: off | flat (every surface one flat colour: no texture, light, program, sky or fog work, "
                    "no overlays; the block walk and the frame's stores kept) | skip (culling, set-up and raster alone); "
                    "a floor's frames are not encoded")
        ->check(CLI::IsMember({"off", "flat", "skip"}))
        ->capture_default_str();
    sub->callback([args, &action] {
        action = [args] {
            keepFrameMemory();
            return runBench(*args);
        };
    });
}

const Command kBenchCommand{"bench", "Time loading, tessellation and frames of a map", addBenchOptions};

}  // namespace luxel::cli
