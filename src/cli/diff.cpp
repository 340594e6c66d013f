// `luxel diff A B`: two builds of a map, two images or two folders compared; exit 0 same (or only
// warnings), 1 differences over --fail, 2 an error (idiff's conventions).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <exception>
#include <iostream>
#include <map>
#include <set>

#include <tbb/parallel_invoke.h>

#include "commands.hpp"
#include "common.hpp"
#include "luxel/batch/batch.hpp"
#include "luxel/diff/diff.hpp"
#include "luxel/diff/heatmap.hpp"
#include "luxel/diff/report.hpp"
#include "luxel/render/map_view.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"
#include "luxel/scene/scene.hpp"
#include "luxel/scene/work_list.hpp"

namespace luxel::cli {
namespace {
namespace fs = std::filesystem;

struct DiffArgs {
    std::string a, b;
    std::vector<std::string> fail, warn, failPercent, hardFail;
    std::string json, junit, out;
    std::vector<std::string> cameras;
    std::string mode = "lightmap";
    std::string size = "1280x720";
    bool noViews = false;
    std::vector<std::string> gameDirs;
    bool ldr = false;
    std::string golden, scene;
    bool updateGolden = false;
    bool fullMatching = false;
    double heatScale = 0;
};

bool isImagePath(const std::string& p) {
    for (const char* ext : {".png", ".jpg", ".jpeg", ".exr", ".tif", ".tiff", ".tga", ".hdr", ".bmp"})
        if (endsWithIgnoreCase(p, ext)) return true;
    return false;
}

// "0.01" sets every kind; "luxels=0.01", "grid=0.02", "images=0.004" one kind. Values in display units
// (0..1; 2/255 = 0.00784), as idiff takes them.
void applyThresholds(const std::vector<std::string>& specs, double DiffThresholds::*field, DiffReport& r,
                     const char* option) {
    for (const std::string& spec : specs) {
        const size_t eq = spec.find('=');
        const std::string kind = eq == std::string::npos ? "" : spec.substr(0, eq);
        const std::string number = eq == std::string::npos ? spec : spec.substr(eq + 1);
        char* end = nullptr;
        const double v = std::strtod(number.c_str(), &end);
        if (number.empty() || *end || !(v >= 0))
            throw UsageError(fmt::format("{} wants a number >= 0 or KIND=NUMBER (luxels, grid, images), got '{}'",
                                         option, spec));
        if (kind.empty() || kind == "luxels") r.luxelThresholds.*field = v;
        if (kind.empty() || kind == "grid") r.probeThresholds.*field = v;
        if (kind.empty() || kind == "images") r.imageThresholds.*field = v;
        if (!kind.empty() && kind != "luxels" && kind != "grid" && kind != "images")
            throw UsageError(fmt::format("{}: unknown kind '{}' (luxels, grid, images)", option, kind));
    }
}

DiffReport thresholdsOnly(const DiffArgs& args) {
    DiffReport r;
    applyThresholds(args.fail, &DiffThresholds::fail, r, "--fail");
    applyThresholds(args.warn, &DiffThresholds::warn, r, "--warn");
    applyThresholds(args.failPercent, &DiffThresholds::failPercent, r, "--fail-percent");
    applyThresholds(args.hardFail, &DiffThresholds::hardFail, r, "--hard-fail");
    return r;
}

// The views to draw: a scene file's (named as there) or --camera specs (named by the camera; default spawn,
// intermission and overview), in --mode and --size, flares off.
std::vector<std::pair<std::string, ViewRequest>> requestedViews(const DiffArgs& args) {
    std::vector<std::pair<std::string, ViewRequest>> views;
    if (!args.scene.empty()) {
        const Scene scene = loadScene(args.scene);
        for (const SceneView& v : scene.views) views.emplace_back(v.name, sceneViewRequest(v, scene.output));
        return views;
    }
    int width = 0, height = 0;
    parseSize(args.size, width, height);
    const std::vector<std::string> specs =
        args.cameras.empty() ? std::vector<std::string>{"spawn", "intermission", "overview"} : args.cameras;
    for (const std::string& spec : specs) {
        ViewRequest r;
        r.camera = spec;
        r.width = width;
        r.height = height;
        r.mode = args.mode;
        r.flares = false;
        r.unlit = UnlitSurfaces::Light;  // the compiler's output: lightmaps and vertex light
        std::string name = spec;
        std::replace(name.begin(), name.end(), ':', '-');
        views.emplace_back(name, r);
    }
    return views;
}

DiffReport diffMaps(const DiffArgs& args, const std::string& pathA, const std::string& pathB, DiffReport r) {
    r.kind = "maps";
    MaterialOptions materials{args.gameDirs, "", 0};
    // Both builds load at once; A's error, if both fail, is the one reported (the same for any run).
    LoadedMap a, b;
    std::exception_ptr errorA, errorB;
    tbb::parallel_invoke(
        [&] {
            try {
                a = loadMap(openMapPath(pathA), {args.ldr}, materials);
            } catch (...) {
                errorA = std::current_exception();
            }
        },
        [&] {
            try {
                b = loadMap(openMapPath(pathB), {args.ldr}, materials);
            } catch (...) {
                errorB = std::current_exception();
            }
        });
    if (errorA) std::rethrow_exception(errorA);
    if (errorB) std::rethrow_exception(errorB);
    if (a.world.format != b.world.format)
        throw UsageError(fmt::format("{} is {} and {} is {}: formats differ", pathA, a.world.formatName, pathB,
                                     b.world.formatName));
    r.format = fmt::format("{} {}", a.world.formatName, a.world.version);
    LightmapDiffOptions lo;
    lo.thresholds = r.luxelThresholds;
    lo.reuseSameGeometry = !args.fullMatching;
    std::vector<LuxelMatch> matches;
    r.lightmaps = diffLightmaps(a.world, a.geometry, b.world, b.geometry, lo, args.out.empty() ? nullptr : &matches);
    if (probeKind(a.world) != ProbeKind::None || probeKind(b.world) != ProbeKind::None)
        r.probes = diffProbes(a.world, b.world, r.probeThresholds);

    // Views: the same camera (resolved on A) for both builds; a camera that falls back onto one already
    // drawn is drawn once.
    std::vector<std::pair<std::string, Camera>> views;
    if (!args.noViews) {
        std::set<std::string> drawn;
        for (auto& [viewName, request] : requestedViews(args)) {
            const RenderedView va = renderView(a, request);
            const std::string key = fmt::format("{} {} {} {}", va.camera.camera.position.x, va.camera.camera.position.y,
                                                va.camera.camera.position.z, va.camera.camera.angles.y);
            if (!drawn.insert(key).second) continue;
            // B is drawn through the same request pinned to A's resolved camera (a map's own spawn points may
            // move between builds; the comparison must not).
            ViewRequest pinned = request;
            pinned.pos = va.camera.camera.position;
            pinned.angles = va.camera.camera.angles;
            pinned.sky = request.sky.value_or(va.camera.used != "overview");
            const RenderedView vb = renderView(b, pinned);
            // Scene views keep their names; camera specs are named by the camera used ("spawn:0").
            const std::string name = args.scene.empty() ? va.camera.used : viewName;
            ImageDiff d = diffImages(viewFloats(va), viewFloats(vb), name, r.imageThresholds);
            d.a = pathA;
            d.b = pathB;
            r.images.push_back(std::move(d));
            std::string file = name;  // file-name safe for the heatmap ("spawn:0" -> "spawn-0")
            std::replace(file.begin(), file.end(), ':', '-');
            views.emplace_back(file, va.camera.camera);
        }
    }
    if (!args.out.empty()) {
        std::error_code ec;
        fs::create_directories(args.out, ec);
        HeatmapOptions heat;
        heat.scale = args.heatScale;
        writeHeatmaps(a.world, a.geometry, matches, *r.lightmaps, views, args.out, heat);
        writeGridSlices(a.world, b.world, args.out, heat);
    }
    return r;
}

DiffReport diffPaths(const DiffArgs& args, const std::string& pathA, const std::string& pathB, DiffReport r);

// Entries matched by relative path: maps with maps, images with images.
DiffReport diffFolders(const DiffArgs& args, const std::string& dirA, const std::string& dirB, DiffReport r) {
    r.kind = "folders";
    auto list = [](const std::string& dir) {
        std::set<std::string> out;
        std::error_code ec;
        for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
             !ec && it != end; it.increment(ec)) {
            std::error_code ec2;
            if (!it->is_regular_file(ec2)) continue;
            const std::string p = it->path().string();
            if (endsWithIgnoreCase(p, ".bsp") || isImagePath(p)) out.insert(fs::relative(it->path(), dir).string());
        }
        return out;
    };
    const std::set<std::string> a = list(dirA), b = list(dirB);
    for (const std::string& rel : a) {
        if (!b.count(rel)) {
            r.onlyInA.push_back(rel);
            continue;
        }
        DiffReport entry;
        entry.luxelThresholds = r.luxelThresholds;
        entry.probeThresholds = r.probeThresholds;
        entry.imageThresholds = r.imageThresholds;
        try {
            entry = diffPaths(args, (fs::path(dirA) / rel).string(), (fs::path(dirB) / rel).string(), entry);
            r.entries.push_back(std::move(entry));
        } catch (const std::exception& e) {
            r.errors.push_back(rel + ": " + e.what());
        }
    }
    for (const std::string& rel : b)
        if (!a.count(rel)) r.onlyInB.push_back(rel);
    return r;
}

DiffReport diffPaths(const DiffArgs& args, const std::string& pathA, const std::string& pathB, DiffReport r) {
    r.a = pathA;
    r.b = pathB;
    std::error_code ec;
    const bool dirA = fs::is_directory(pathA, ec), dirB = fs::is_directory(pathB, ec);
    if (dirA || dirB) {
        if (!(dirA && dirB)) throw UsageError(fmt::format("{} and {}: a folder can only be compared with a folder", pathA, pathB));
        return diffFolders(args, pathA, pathB, std::move(r));
    }
    if (isImagePath(pathA) || isImagePath(pathB)) {
        if (!(isImagePath(pathA) && isImagePath(pathB)))
            throw UsageError(fmt::format("{} and {}: an image can only be compared with an image", pathA, pathB));
        for (const std::string& p : {pathA, pathB})
            if (!fs::is_regular_file(p, ec)) throw UsageError(p + ": no such file");
        r.kind = "images";
        r.images.push_back(diffImageFiles(pathA, pathB, r.imageThresholds));
        r.images.back().name = fs::path(pathA).filename().string();
        if (!r.images.back().error.empty()) throw UsageError(r.images.back().error);
        return r;
    }
    return diffMaps(args, pathA, pathB, std::move(r));
}

// Golden-image testing: the map's views against images stored earlier in args.golden (NAME.png), or, with
// --update-golden, the images (re)written. A missing golden image is a failed comparison.
DiffReport diffGolden(const DiffArgs& args, DiffReport r) {
    r.kind = "golden";
    r.a = args.a;
    r.b = args.golden;
    LoadedMap map = loadMap(openMapPath(args.a), {args.ldr}, {args.gameDirs, "", 0});
    r.format = fmt::format("{} {}", map.world.formatName, map.world.version);
    std::error_code ec;
    if (args.updateGolden) fs::create_directories(args.golden, ec);
    for (auto& [name, request] : requestedViews(args)) {
        request.ldrOutput = true;
        const RenderedView view = renderView(map, request);
        const std::string file = (fs::path(args.golden) / (sanitizeFileName(name) + ".png")).string();
        if (args.updateGolden) {
            writeFileAtomic(file, encodeView(file, view, viewMetadata(map, view)));
            continue;
        }
        ImageDiff d;
        d.name = name;
        d.a = args.a;
        d.b = file;
        if (!fs::is_regular_file(file, ec)) {
            d.error = file + ": no golden image (write them with --update-golden)";
            d.verdict = Verdict::Fail;
        } else {
            // The golden PNG holds display bytes, as the view does (an LDR request).
            d = diffImages(viewFloats(view), readImage(file), name, r.imageThresholds);
            d.a = args.a;
            d.b = file;
        }
        r.images.push_back(std::move(d));
    }
    if (args.updateGolden) std::cerr << fmt::format("golden images written to {}\n", args.golden);
    return r;
}

int runDiff(const DiffArgs& args) {
    if (!args.golden.empty() && !args.b.empty())
        throw UsageError("--golden DIR compares one map with stored images: give the map only");
    if (args.golden.empty() && args.b.empty()) throw UsageError("diff needs A and B (or one map with --golden DIR)");
    if (args.updateGolden && args.golden.empty()) throw UsageError("--update-golden needs --golden DIR");
    DiffReport report = args.golden.empty() ? diffPaths(args, args.a, args.b, thresholdsOnly(args))
                                            : diffGolden(args, thresholdsOnly(args));
    std::cout << summaryText(report);
    if (!args.json.empty()) writeTextFile(args.json, toJson(report).dump(2) + "\n");
    if (!args.junit.empty()) writeTextFile(args.junit, junitXml(report));
    return exitCodeOf(overallVerdict(report));
}

}  // namespace

static void addDiffOptions(CLI::App* sub, Action& action) {
    auto args = std::make_shared<DiffArgs>();
    sub->add_option("a", args->a, "build A: a map, an image or a folder")->required();
    sub->add_option("b", args->b, "build B: the same kind as A (none with --golden)");
    sub->add_option("--fail", args->fail,
                    "a value fails above this display difference (0..1; 2/255 = 0.0078); KIND=X for one kind "
                    "(luxels, grid, images); default 1e-6")
        ->allow_extra_args(false);
    sub->add_option("--warn", args->warn, "warn above this difference (same syntax); default 1e-6")->allow_extra_args(false);
    sub->add_option("--fail-percent", args->failPercent,
                    "fail only when more than this percent of values fail (same syntax); default 0")
        ->allow_extra_args(false);
    sub->add_option("--hard-fail", args->hardFail, "fail when any value differs more than this (same syntax)")
        ->allow_extra_args(false);
    sub->add_option("--json", args->json, "write every figure as JSON");
    sub->add_option("--junit", args->junit, "write JUnit XML (a test case per comparison)");
    sub->add_option("--out", args->out, "write heatmaps here: views, an overview and atlas pages coloured by the change");
    sub->add_option("--camera", args->cameras, "views to render and compare (repeatable; default spawn, intermission, overview)")
        ->allow_extra_args(false);
    sub->add_option("--mode", args->mode, "view mode: lightmap (default) or lit")->check(CLI::IsMember({"lightmap", "lit"}));
    sub->add_option("--size", args->size, "view size WxH")->capture_default_str();
    sub->add_flag("--no-views", args->noViews, "compare lightmaps and probes only");
    sub->add_flag("--full-matching", args->fullMatching,
                  "trace both builds even when their lit geometry is identical (the same figures, slower; for "
                  "checking and benchmarking)");
    sub->add_option("--heat-scale", args->heatScale,
                    "heatmaps: the display difference shown at full colour (0..1; default 0: the largest found)")
        ->check(CLI::Range(0.0, 1.0));
    sub->add_option("--game-dir", args->gameDirs, "textures for --mode lit (repeatable)")->allow_extra_args(false);
    sub->add_flag("--ldr", args->ldr, "Source maps: compare the LDR lighting");
    sub->add_option("--golden", args->golden,
                    "golden-image test: render map A's views and compare them with DIR/VIEW.png stored earlier");
    sub->add_flag("--update-golden", args->updateGolden, "with --golden: (re)write the golden images instead");
    sub->add_option("--scene", args->scene, "views from a scene file (scenes/README.md) instead of --camera");
    sub->callback([args, &action] { action = [args] { return runDiff(*args); }; });
}

const Command kDiffCommand{
    "diff",
    "Compare two builds of a map in world space (lightmaps, light grid / ambient cubes, views), two "
    "images or two folders; exit 0 same, 1 different over --fail, 2 error",
    addDiffOptions};

}  // namespace luxel::cli
