// `luxel batch INPUT... -o DIR`: many maps to thumbnails, manifest, contact sheet and index page;
// `luxel batch --merge DIR... -o DIR` combines shard outputs.
#include <sys/sysinfo.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include <fmt/format.h>

#include "commands.hpp"
#include "common.hpp"
#include "luxel/batch/batch.hpp"
#include "luxel/batch/levelshots.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/frame_heap.hpp"

namespace luxel::cli {
namespace {

struct BatchArgs {
    std::vector<std::string> inputs;
    std::string output;
    std::vector<std::string> gameDirs;
    bool ldr = false;
    bool wholeTextures = false;
    std::string palette;
    float time = 0;
    ViewArgs view;
    std::string format = "png";
    std::string shard;
    int shards = 0;
    int jobs = 0;
    std::string maxMemory;
    double mapTimeout = 0;
    bool isolate = false;
    bool worker = false;  // a worker of --isolate: the maps its parent sends
    int parentPid = 0;
    std::string textureShare;
    bool force = false, quiet = false, verbose = false, merge = false, noIndex = false;
    std::string sheet;
    std::string preset;          // "levelshots": plain inputs get the levelshot view and output
    int levelshotSize = kLevelshotSize;
    std::vector<std::string> given;  // the options the command line named (a preset fills in the others)
    bool named(const std::string& option) const {
        return std::find(given.begin(), given.end(), option) != given.end();
    }
};

// "1.5G", "800M", "2000000000".
size_t parseBytes(const std::string& text) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    double scale = 1;
    const std::string unit = end ? std::string(end) : "";
    if (unit == "K" || unit == "k") scale = 1024.0;
    else if (unit == "M" || unit == "m") scale = 1024.0 * 1024;
    else if (unit == "G" || unit == "g") scale = 1024.0 * 1024 * 1024;
    else if (!unit.empty()) throw UsageError("--max-memory wants a size such as 2G or 800M, got '" + text + "'");
    if (!(v > 0) || v * scale > 1e15) throw UsageError("--max-memory must be positive, got '" + text + "'");
    return size_t(v * scale);
}

// Half the machine's memory, at most 2 GiB: a thumbnail batch needs no more, and a shared server keeps the rest.
size_t defaultMaxMemory() {
    constexpr size_t kCap = size_t(2) << 30;
    struct sysinfo info {};
    if (sysinfo(&info) != 0) return kCap;
    return std::min(kCap, size_t(info.totalram) * info.mem_unit / 2);
}

// The maps and views the inputs name: scene files bring their own, other inputs get the command line's.
std::vector<MapJob> workList(const BatchArgs& args) {
    std::vector<MapJob> jobs;
    SceneView view;
    view.name = "thumb";
    view.camera = args.view.camera;
    if (!args.view.pos.empty()) view.pos = args.view.pos;
    if (!args.view.angles.empty()) view.angles = args.view.angles;
    view.fov = args.view.fov;
    parseSize(args.view.size, view.width, view.height);
    view.mode = args.view.mode;
    view.look = args.view.look;
    view.styles = args.view.styles;
    view.time = args.time;
    view.spp = args.view.spp;
    if (args.view.flares) view.flares = true;
    if (args.view.noFlares) view.flares = false;
    if (args.view.sky) view.sky = true;
    if (args.view.noSky) view.sky = false;
    view.transparent = args.view.transparent;
    view.worldOnly = args.view.worldOnly;
    view.noPvs = args.view.noPvs;
    view.location = {"command line", 0, ""};

    Scene plain;
    plain.file = "command line";
    plain.gameDirs = args.gameDirs;
    plain.ldr = args.ldr;
    plain.palette = args.palette;
    plain.views = {view};
    plain.output.format = args.format;
    plain.output.wholeTextures = args.wholeTextures;
    if (args.preset == "levelshots") {
        // The preset's camera, frame, mode and look unless the command line names its own; the output is the
        // game's: levelshots/NAME.jpg and levelshots.pk3.
        SceneView shot = levelshotView(args.levelshotSize);
        shot.location = view.location;
        if (!args.named("--camera")) view.camera = shot.camera;
        if (!args.named("--fov")) view.fov = shot.fov;
        if (!args.named("--size")) view.width = shot.width, view.height = shot.height;
        if (!args.named("--mode")) view.mode = shot.mode;
        if (!args.named("--look")) view.look = shot.look;
        view.name = shot.name;
        view.levelshot = shot.levelshot;
        plain.views = {view};
        plain.output = levelshotOutput();
        plain.output.wholeTextures = args.wholeTextures;
        if (args.named("--format")) plain.output.format = args.format;
    }
    for (const std::string& input : args.inputs) {
        if (isSceneFile(input)) {
            Scene scene = loadScene(input);
            // Command-line game dirs come first: a user points a shared scene at their own install.
            scene.gameDirs.insert(scene.gameDirs.begin(), args.gameDirs.begin(), args.gameDirs.end());
            scene.output.wholeTextures = scene.output.wholeTextures || args.wholeTextures;
            for (MapJob& job : expandScene(scene)) jobs.push_back(std::move(job));
        } else {
            SceneMapInput in;
            in.path = input;
            in.location = {"command line", 0, ""};  // expandMapInput names the input itself
            plain.maps = {in};
            for (MapJob& job : expandScene(plain)) jobs.push_back(std::move(job));
        }
    }
    finalizeWorkList(jobs);
    return jobs;
}

int runBatchCommand(const BatchArgs& args) {
    BatchOptions o;
    o.threads = workerThreads();
    o.jobs = args.jobs;
    o.maxMemory = args.maxMemory.empty() ? defaultMaxMemory() : parseBytes(args.maxMemory);
    o.force = args.force;
    o.mapTimeout = args.mapTimeout;
    o.isolate = args.isolate;
    o.worker = args.worker;
    o.parentPid = args.parentPid;
    o.textureShare = args.textureShare;
    o.childCommand = commandLine();
    o.childCommand.at(0) = "/proc/self/exe";  // this very binary, wherever it was started from
    o.sheetPath = args.sheet;
    o.writeIndex = !args.noIndex;
    o.verbosity = args.quiet ? Verbosity::Quiet : args.verbose ? Verbosity::Verbose : Verbosity::Normal;
    o.outDir = args.output;
    if (args.inputs.empty()) throw UsageError(args.merge ? "--merge needs shard folders" : "no inputs given");
    if (args.merge) {
        const BatchResult r = mergeBatches(args.inputs, o);
        if (!args.quiet)
            std::cerr << fmt::format("merged {} shard folders: {} maps, {} failed -> {}\n", args.inputs.size(),
                                     r.ok + r.failed, r.failed, o.outDir);
        return r.exitCode();
    }
    if (!args.shard.empty())
        o.shard = parseShard(args.shard);
    else if (auto s = shardFromEnvironment([](const char* name) { return std::getenv(name); }, args.shards))
        o.shard = *s;
    else if (args.shards > 1)
        throw UsageError("--shards N needs JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) or --shard K/N");

    const std::vector<MapJob> jobs = workList(args);
    checkJobs(jobs);
    // Scene files may name their own output folder.
    std::string outDir = args.output;
    if (outDir.empty()) {
        for (const MapJob& job : jobs)
            if (!job.output.dir.empty()) outDir = job.output.dir;
        if (outDir.empty()) throw UsageError("no output folder: give -o DIR (or output.dir in the scene file)");
    }
    o.outDir = outDir;
    const BatchResult r = runBatch(jobs, o);
    if (!args.quiet)
        std::cerr << fmt::format("{} maps: {} rendered, {} up to date, {} failed{} -> {}\n", r.ok + r.failed,
                                 r.ok - r.upToDate, r.upToDate, r.failed,
                                 o.shard.all() ? "" : fmt::format(" (shard {}/{})", o.shard.index, o.shard.count),
                                 o.outDir + "/manifest.json");
    return r.exitCode();
}

}  // namespace

static void addBatchOptions(CLI::App* sub, Action& action) {
    auto args = std::make_shared<BatchArgs>();
    sub->add_option("inputs", args->inputs,
                    "scene files (.toml), maps, archives (.pk3/.zip/.pak), folders and game folders; with --merge: shard "
                    "output folders");
    sub->add_option("-o,--output", args->output, "output folder (default: the scene file's output.dir)");
    sub->add_option("--game-dir", args->gameDirs, "game directory for textures (repeatable), searched first")
        ->allow_extra_args(false);
    sub->add_flag("--ldr", args->ldr, "Source maps: LDR lighting");
    sub->add_flag("--whole-textures", args->wholeTextures,
                  "Quake 3 lit views: decode whole textures (the pixels of luxel render and serve) instead of each "
                  "from the finest mip level the view samples (JPEGs by scaled IDCT; within a fraction of a level)");
    sub->add_option("--palette", args->palette, "Quake 2: colormap.pcx for .wal textures");
    sub->add_option("--time", args->time, "animated textures: the frame at this time");
    args->view.size = "512x288";
    args->view.addTo(*sub);
    sub->add_option("--format", args->format, "image format of plain inputs' views: png | jpg | webp | exr | tif")
        ->check(CLI::IsMember({"png", "jpg", "webp", "exr", "tif"}))
        ->capture_default_str();
    sub->add_option("--shard", args->shard, "render only shard K of N (1-based): --shard 2/4");
    sub->add_option("--shards", args->shards, "shard count for a Kubernetes Indexed Job (JOB_COMPLETION_INDEX)")
        ->check(CLI::Range(1, 100000));
    sub->add_option("--jobs", args->jobs, "maps in flight (default: one more than the threads, fewer when memory is short)")
        ->check(CLI::Range(1, 1024));
    sub->add_option("--max-memory", args->maxMemory, "memory the batch may use, e.g. 4G (default: half the RAM, at most 2G); decides maps in flight and the texture cache");
    sub->add_flag("--force", args->force, "redo maps whose outputs are up to date (and forget the journal's poison maps)");
    sub->add_flag("--isolate", args->isolate, "render each map in a child process: a crash costs that map only");
    sub->add_flag("--worker", args->worker, "(a worker of --isolate) render the maps the batch sends on fd 3")->group("");
    sub->add_option("--parent-pid", args->parentPid, "(a worker of --isolate) the batch that started it")->group("");
    sub->add_option("--texture-share", args->textureShare, "(a worker of --isolate) the folder its decoded textures are shared through")->group("");
    sub->add_option("--map-timeout", args->mapTimeout, "seconds one map may take; past it the map fails, naming its stage")
        ->check(CLI::Range(0.0, 1e7));
    sub->add_option("--sheet", args->sheet, "contact sheet file (default: DIR/sheet.png; - for none)");
    sub->add_flag("--no-index", args->noIndex, "do not write DIR/index.html");
    sub->add_flag("-q,--quiet", args->quiet, "print only errors");
    sub->add_flag("-v,--verbose", args->verbose, "print every warning, prefixed with its map")->excludes("--quiet");
    sub->add_flag("--merge", args->merge, "merge shard output folders (the inputs) into -o DIR");
    sub->add_option("--preset", args->preset,
                    "levelshots: plain inputs drawn as Quake 3's levelshot command makes them (intermission camera, "
                    "640x480 lit frame reduced to 128x128) into DIR/levelshots/NAME.jpg and DIR/levelshots.pk3")
        ->check(CLI::IsMember({"levelshots"}));
    sub->add_option("--levelshot-size", args->levelshotSize,
                    "--preset levelshots: the levelshots' side (the same 4x3 point samples per pixel)")
        ->check(CLI::Range(1, 4096))
        ->capture_default_str();
    sub->callback([args, sub, &action] {
        for (const CLI::Option* option : sub->get_options())
            if (option->count() > 0) args->given.push_back(option->get_name());
        if (args->named("--levelshot-size") && args->preset.empty())
            throw UsageError("--levelshot-size needs --preset levelshots");
        action = [args] {
            keepFrameMemory();
            return runBatchCommand(*args);
        };
    });
}

const Command kBatchCommand{
    "batch",
    "Render many maps: thumbnails, manifest.json, a contact sheet and index.html (exit 0 all rendered, 1 "
    "some failed, 2 the batch could not run)",
    addBatchOptions};

}  // namespace luxel::cli
