// The batch runner: the shard's maps through a TBB pipeline with a bounded number in flight, each map
// opened, hashed, skipped when its outputs are up to date, else decoded once and drawn for every view.
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <mutex>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "batch_parts.hpp"
#include "journal.hpp"
#include "test_hooks.hpp"
#include "luxel/batch/levelshots.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/model/studio_cache.hpp"
#include "luxel/util/clock.hpp"
#include "luxel/util/error.hpp"
#include "progress.hpp"
#include "worker_pool.hpp"

extern char** environ;

namespace luxel {
namespace fs = std::filesystem;

int batchJobs(int threads, size_t maxMemory) {
    const int wanted = threads > 1 ? threads + 1 : 1;
    if (maxMemory == 0) return wanted;
    const size_t byMemory = std::max<size_t>(1, maxMemory / 8 * 5 / kMapMemoryEstimate);
    return int(std::clamp<size_t>(byMemory, 1, size_t(wanted)));
}

namespace batch {
namespace {

// Errors end up in one manifest field and one log line.
std::string oneLine(std::string text) {
    std::replace(text.begin(), text.end(), '\n', ' ');
    std::replace(text.begin(), text.end(), '\r', ' ');
    return text;
}

double round2(double ms) { return std::round(ms * 100) / 100; }

Json cameraJson(const ResolvedCamera& rc) {
    const Camera& c = rc.camera;
    Json j;
    j["asked"] = rc.spec;
    j["used"] = rc.used;
    j["position"] = {c.position.x, c.position.y, c.position.z};
    j["angles"] = {c.angles.x, c.angles.y, c.angles.z};
    j["fov"] = c.fovX;
    if (rc.used == "best") j["score"] = rc.score;
    return j;
}

struct Outcome {
    Json entry;
    bool upToDate = false;
    std::vector<std::string> warnings;
    std::shared_ptr<const FittedThumbnail> sheetThumbnail;  // the first view fitted to its sheet tile
};

// What a map's work may take: the batch's --map-timeout (checked between stages: the work stops at the next
// boundary) and its share of the memory budget for its textures.
struct MapLimits {
    double seconds = 0;          // 0: none
    size_t textureBytes = 0;     // 0: none
};

// Maps in flight: --jobs, else one more than the threads, fewer when memory is short (batchJobs).
int mapsInFlight(const BatchOptions& options) {
    return options.jobs > 0 ? options.jobs : batchJobs(std::max(1, options.threads), options.maxMemory);
}

// --map-timeout, and a map's share of the maps' 5/8 of --max-memory for its textures.
MapLimits mapLimits(const BatchOptions& options, int inFlight) {
    MapLimits limits;
    limits.seconds = options.mapTimeout;
    if (options.maxMemory) limits.textureBytes = options.maxMemory / 8 * 5 / size_t(inFlight);
    return limits;
}

// Throws when the map's time is up, naming the stage it got through.
void checkTime(const MapLimits& limits, double startMs, const std::string& stage) {
    if (limits.seconds > 0 && nowMs() - startMs > limits.seconds * 1000)
        throw UsageError(fmt::format("took longer than --map-timeout {:g} s (stopped after {})", limits.seconds, stage));
}

// The image file `luxel render` would write, or (test hook) half of it under the temporary name, then SIGKILL.
void writeViewImage(const fs::path& file, const RenderedView& view, const ImageMetadata& metadata) {
    const Bytes bytes = encodeView(file.string(), view, metadata);
    if (testKillPoint("image-write")) {
        std::ofstream torn(file.string() + ".tmp" + std::to_string(::getpid()), std::ios::binary);
        torn.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size() / 2));
        torn.flush();
        testKillNow();
    }
    writeFileAtomic(file.string(), bytes);
}

Outcome renderJob(const MapJob& job, size_t index, const BatchOptions& options, const Json& previous, Journal* journal,
                  const MapLimits& limits) {
    Outcome out;
    Json& e = out.entry;
    e["index"] = index;
    e["name"] = job.name;
    e["output_name"] = job.outputName;
    e["source"] = job.source;
    e["status"] = "ok";
    if (!job.output.archive.empty()) e["archive"] = job.output.archive;
    Json ms;
    const double t0 = nowMs();
    try {
        if (!job.error.empty()) throw UsageError(job.error);
        MapSource source = openMapPath(job.source);
        const std::string hash = contentHash(source.bytes), options_ = optionsKey(job);
        ms["open"] = round2(nowMs() - t0);
        if (!options.force) {
            Json prev = upToDateEntry(previous, job, hash, options_, options.outDir);
            if (!prev.is_null()) {
                out.entry = std::move(prev);
                out.entry["index"] = index;  // the reused entry's position may have moved (maps added before it)
                out.upToDate = true;
                return out;
            }
        }
        e["hash"] = hash;
        e["options"] = options_;
        if (journal) journal->started(job.source);
        testMapStarted(job.name);
        checkTime(limits, t0, "opening");
        MaterialOptions materials{job.gameDirs, job.palette, 0};
        materials.textureBudget = limits.textureBytes;
        LoadedMap map = loadMap(std::move(source), {job.ldr}, materials);
        checkTime(limits, t0, "decoding");
        // Quake 1 family names carry their variant (BSP29, BSP2, 2PSB, BSP30); a BSP2 map's version field is a
        // magic, not a number to show.
        const bool q1Family = map.world.format == MapFormat::Quake1 || map.world.format == MapFormat::HalfLife;
        e["format"] = q1Family ? map.world.formatName : fmt::format("{} {}", map.world.formatName, map.world.version);
        ms["decode"] = round2(map.decodeMs);
        ms["tessellate"] = round2(map.tessellateMs);
        out.warnings = propWarnings(map.props, !job.gameDirs.empty());  // the views draw without those props
        e["views"] = Json::array();
        for (const SceneView& v : job.views) {
            const double v0 = nowMs();
            RenderedView r = renderView(map, sceneViewRequest(v, job.output));
            if (map.materials && !map.materials->overLimit.empty())
                throw UsageError(map.materials->overLimit.front() +
                                 fmt::format(" (the map's share of --max-memory: {} MiB)", limits.textureBytes >> 20));
            checkTime(limits, t0, "drawing view " + v.name);
            const bool display = !r.display.bytes.empty();
            const int frameWidth = display ? r.display.width : r.image.width, frameHeight = display ? r.display.height : r.image.height;
            if (v.levelshot > 0) {
                r.display = levelshotReduce(display ? r.display : toDisplayImage(r.image), v.levelshot);
                r.image = Image();
            }
            const std::string rel = outputPath(job, v);
            const fs::path file = fs::path(options.outDir) / rel;
            fs::create_directories(file.parent_path());
            const double w0 = nowMs();
            writeViewImage(file, r, viewMetadata(map, r));
            const double w1 = nowMs();
            // The sheet shows the first view: fitted now, while its pixels are at hand, instead of read back from
            // the file after the batch (same pixels: what the PNG holds, so a rerun that reads the file back
            // draws the same sheet). Lossy and linear files are read back.
            // A worker of --isolate sends it to the parent after its reply line.
            if (&v == &job.views.front() && options.sheetPath != "-" &&
                r.display.channels == 3 && file.extension() == ".png") {
                out.sheetThumbnail = fitThumbnail(r.display.bytes.data(), r.display.width, r.display.height,
                                                  options.sheetTileWidth, sheetTileHeight(options));
            }
            for (std::string& w : r.warnings)
                if (std::find(out.warnings.begin(), out.warnings.end(), w) == out.warnings.end())
                    out.warnings.push_back(std::move(w));
            Json vj;
            vj["name"] = v.name;
            vj["output"] = rel;
            std::error_code ec;
            vj["bytes"] = uint64_t(fs::file_size(file, ec));
            vj["width"] = r.display.bytes.empty() ? r.image.width : r.display.width;
            vj["height"] = r.display.bytes.empty() ? r.image.height : r.display.height;
            vj["mode"] = renderModeName(r.mode);
            if (v.levelshot > 0) vj["levelshot_of"] = {frameWidth, frameHeight};  // the frame it was reduced from
            vj["camera"] = cameraJson(r.camera);
            vj["figures"] = {{"brightness", std::round(r.figures.brightness * 1e4) / 1e4},
                             {"near", std::round(r.figures.nearShare * 1e4) / 1e4},
                             {"one_colour", std::round(r.figures.oneColour * 1e4) / 1e4},
                             {"coverage", std::round(r.figures.coverage * 1e4) / 1e4}};
            vj["ms"] = {{"camera", round2(r.cameraMs)}, {"materials", round2(r.materialsMs)}, {"frame", round2(r.frameMs)},
                        {"figures", round2(r.figuresMs)}, {"write", round2(w1 - w0)}, {"total", round2(w1 - v0)}};
            e["views"].push_back(std::move(vj));
        }
        ms["materials"] = round2(map.materialsMs);
    } catch (const std::exception& ex) {
        e["status"] = "failed";
        e["error"] = oneLine(ex.what());
    }
    e["warnings"] = out.warnings;
    ms["total"] = round2(nowMs() - t0);
    e["ms"] = ms;
    if (journal) journal->finished(e);
    return out;
}

// The entry of a map that crashed the process in two runs in a row: skipped.
Outcome poisonOutcome(const MapJob& job, size_t index, int runs) {
    Outcome out;
    out.entry = {{"index", index},       {"name", job.name},
                 {"output_name", job.outputName}, {"source", job.source},
                 {"status", "failed"},    {"poison", true},
                 {"error", fmt::format("crashed the process twice: started in {} runs in a row and never finished "
                                       "(journal.jsonl); skipped (--force tries it again)",
                                       runs)},
                 {"warnings", Json::array()}, {"ms", {{"total", 0.0}}}};
    return out;
}

// The environment a child starts with: this one, with glibc's malloc asked to back its large blocks with huge
// pages (transparent huge pages on madvise, Debian's default). A child is a fresh process: every page of the map
// and textures it decodes is a page fault, and on the OpenArena scene this takes a tenth off its wall time.
// Tunables the user set are kept; theirs wins for malloc.hugetlb.
std::vector<std::string> childEnvironment() {
    std::vector<std::string> env;
    bool found = false;
    for (char** e = environ; e && *e; ++e) {
        std::string entry = *e;
        if (entry.starts_with("GLIBC_TUNABLES=")) {
            found = true;
            if (entry.find("glibc.malloc.hugetlb") == std::string::npos)
                entry += (entry.size() > 15 ? ":" : "") + std::string("glibc.malloc.hugetlb=1");
        }
        env.push_back(std::move(entry));
    }
    if (!found) env.push_back("GLIBC_TUNABLES=glibc.malloc.hugetlb=1");
    return env;
}

// One map in a worker process (options.childCommand --worker): a crash or a hang costs that map only.
// `strikes`: runs that already started the map and never finished it.
Outcome renderIsolated(WorkerPool& workers, const MapJob& job, size_t index, const BatchOptions& options,
                       Journal& journal, int strikes) {
    journal.started(job.source, true);
    const double t0 = nowMs();
    // A worker past its map timeout stops at its next stage; one that hangs inside a stage is killed.
    WorkerReply r = workers.run(job.source, options.mapTimeout > 0 ? options.mapTimeout * 1000 + 30000 : 0);
    Outcome out;
    std::string failure;
    if (r.reply.is_object() && r.reply.contains("entry")) {
        out.entry = r.reply["entry"];
        out.upToDate = r.reply.value("up_to_date", false);
        for (const Json& w : r.reply.value("warnings", Json::array())) out.warnings.push_back(w.get<std::string>());
        // The first view fitted to its sheet tile, its pixels after the line: the sheet then reads no file back.
        const Json thumb = r.reply.value("thumbnail", Json());
        const int width = thumb.is_object() ? thumb.value("width", 0) : 0, height = thumb.is_object() ? thumb.value("height", 0) : 0;
        if (width > 0 && height > 0 && r.attachment.size() == size_t(width) * size_t(height) * 3)
            out.sheetThumbnail = std::make_shared<const FittedThumbnail>(FittedThumbnail{width, height, std::move(r.attachment)});
    } else if (!r.started) {
        failure = "could not start a child process for it";
    } else if (r.hung) {
        failure = fmt::format("hung past --map-timeout {:g} s and was killed", options.mapTimeout);
    } else if (WIFSIGNALED(r.waitStatus)) {
        failure = fmt::format("crashed the process{}: {} (signal {})", strikes > 0 ? " twice" : "",
                              strsignal(WTERMSIG(r.waitStatus)), WTERMSIG(r.waitStatus));
    } else {
        failure = fmt::format("its child process ended with status {} and no result",
                              WIFEXITED(r.waitStatus) ? WEXITSTATUS(r.waitStatus) : -1);
    }
    if (!failure.empty()) {
        out.entry = {{"index", index}, {"name", job.name}, {"output_name", job.outputName}, {"source", job.source},
                     {"status", "failed"}, {"error", failure}, {"warnings", Json::array()},
                     {"ms", {{"total", round2(nowMs() - t0)}}}};
        if (strikes > 0 && failure.starts_with("crashed")) out.entry["poison"] = true;
    }
    out.entry["index"] = index;
    if (!out.upToDate) journal.finished(out.entry);
    return out;
}

// A worker of a parent batch (--worker): renders the maps it is sent, one after another, with no journal,
// manifest, sheet or index of its own.
void runWorker(const std::vector<MapJob>& jobs, const BatchOptions& options, const Json& previous) {
    // A parent killed (kill -9, a preemption) takes its workers along: an orphan would write its images into
    // the folder the rerun is already working in.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (options.parentPid > 0 && ::getppid() != options.parentPid)
        throw UsageError("--parent-pid " + std::to_string(options.parentPid) + ": the batch that started this worker has ended");
    // Each map's share of the memory as in the parent; the caches' share split between the workers, each of
    // which keeps its own.
    const int inFlight = mapsInFlight(options);
    const MapLimits limits = mapLimits(options, inFlight);
    if (options.maxMemory) {
        setTextureCacheBudget(options.maxMemory / 16 * 5 / size_t(inFlight));
        setStudioModelCacheBudget(options.maxMemory / 16 / size_t(inFlight));
    }
    if (!options.textureShare.empty())
        shareTexturesThrough(options.textureShare, textureShareBytes(options) / size_t(inFlight));
    serveWorker([&](const std::string& source) {
        const auto it = std::find_if(jobs.begin(), jobs.end(), [&](const MapJob& j) { return j.source == source; });
        Outcome o;
        if (it == jobs.end()) {
            o.entry = {{"source", source}, {"status", "failed"}, {"error", "not in the worker's work list"}};
        } else {
            o = renderJob(*it, size_t(it - jobs.begin()), options, previous, nullptr, limits);
        }
        WorkerAnswer answer{Json{{"entry", o.entry}, {"up_to_date", o.upToDate}, {"warnings", o.warnings}}, {}};
        if (o.sheetThumbnail) {
            answer.reply["thumbnail"] = {{"width", o.sheetThumbnail->width}, {"height", o.sheetThumbnail->height}};
            answer.attachment = o.sheetThumbnail->rgb;
        }
        return answer;
    });
}

// Files a killed run left behind (writeFileAtomic's half-written "NAME.tmpPID"): removed before a run starts.
void removeTornFiles(const std::string& dir) {
    std::error_code ec;
    std::vector<fs::path> torn;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (!it->is_regular_file(ec)) continue;
        const std::string name = it->path().filename().string();
        const size_t at = name.rfind(".tmp");
        const bool tornTemp = at != std::string::npos && at + 4 < name.size() &&
                              name.find_first_not_of("0123456789", at + 4) == std::string::npos;
        if (tornTemp) torn.push_back(it->path());
    }
    for (const fs::path& p : torn) fs::remove(p, ec);
}

void prepareOutputDir(const std::string& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir, ec)) throw UsageError(dir + ": cannot create the output folder");
    const fs::path probe = fs::path(dir) / (".luxel-write-test" + std::to_string(::getpid()));
    try {
        writeFileAtomic(probe.string(), Bytes{'x'});
    } catch (const std::exception&) {
        throw UsageError(dir + ": the output folder is not writable");
    }
    fs::remove(probe, ec);
}

}  // namespace
}  // namespace batch

BatchResult runBatch(const std::vector<MapJob>& jobs, const BatchOptions& options) {
    using namespace batch;
    prepareOutputDir(options.outDir);
    if (!options.worker) removeTornFiles(options.outDir);
    if (options.force && !options.worker) fs::remove(fs::path(options.outDir) / "journal.jsonl");
    // What earlier runs finished: the journal of a run that did not end (newest first), then the last manifest.
    JournalState history = readJournal(options.outDir);
    Json previous = options.force ? Json() : readManifest(options.outDir);
    // A map the last manifest records as poison stays skipped until --force (or a new output folder).
    if (previous.is_object() && previous.contains("maps") && previous["maps"].is_array())
        for (const Json& m : previous["maps"])
            if (m.is_object() && m.value("poison", false)) {
                int& runs = history.unfinishedRuns[m.value("source", "")];
                runs = std::max(runs, kPoisonRuns);
            }
    if (!history.finished.empty()) {
        Json maps = Json::array();
        for (auto it = history.finished.rbegin(); it != history.finished.rend(); ++it) maps.push_back(*it);
        if (previous.is_object() && previous.contains("maps") && previous["maps"].is_array())
            for (const Json& m : previous["maps"]) maps.push_back(m);
        previous = Json{{"maps", std::move(maps)}};
    }
    if (options.worker) {
        runWorker(jobs, options, previous);
        return {};
    }
    Journal journal(options.outDir);
    const double start = nowMs();

    std::vector<size_t> mine;
    for (size_t i = 0; i < jobs.size(); ++i)
        if (inShard(i, options.shard)) mine.push_back(i);

    const int threads = std::max(1, options.threads);
    const size_t maxMemory = options.maxMemory;
    const int inFlight = mapsInFlight(options);
    // The decoded textures and models shared by all maps get 3/8 of the memory (models 1/16 of it, textures
    // the rest); the maps in flight the other 5/8 (batchJobs).
    if (maxMemory) {
        setTextureCacheBudget(maxMemory / 16 * 5);
        setStudioModelCacheBudget(maxMemory / 16);
    }

    const MapLimits limits = mapLimits(options, inFlight);
    std::vector<Outcome> outcomes(mine.size());
    // The worker processes, started when a map first needs one.
    std::unique_ptr<WorkerPool> pool;
    std::string textureShare;
    std::once_flag poolMade;
    auto workers = [&]() -> WorkerPool& {
        std::call_once(poolMade, [&] {
            std::vector<std::string> command = options.childCommand;
            for (const std::string& a : {std::string("--worker"), std::string("--parent-pid"), std::to_string(::getpid()), std::string("-q")})
                command.push_back(a);
            textureShare = makeTextureShareDir(textureShareBytes(options));
            if (!textureShare.empty()) command.insert(command.end(), {"--texture-share", textureShare});
            pool = std::make_unique<WorkerPool>(std::move(command), childEnvironment());
        });
        return *pool;
    };
    Progress progress(mine.size(), options.verbosity == Verbosity::Quiet, options.verbosity == Verbosity::Verbose);
    size_t next = 0;
    tbb::parallel_pipeline(
        size_t(inFlight),
        tbb::make_filter<void, size_t>(tbb::filter_mode::serial_in_order,
                                       [&](tbb::flow_control& fc) -> size_t {
                                           if (next >= mine.size()) {
                                               fc.stop();
                                               return 0;
                                           }
                                           return next++;
                                       }) &
            tbb::make_filter<size_t, size_t>(tbb::filter_mode::parallel,
                                             [&](size_t k) {
                                                 const MapJob& job = jobs[mine[k]];
                                                 const auto strikes = history.unfinishedRuns.find(job.source);
                                                 const int runs = strikes == history.unfinishedRuns.end() ? 0 : strikes->second;
                                                 if (runs >= kPoisonRuns && !options.force) {
                                                     outcomes[k] = poisonOutcome(job, mine[k], runs);
                                                     journal.finished(outcomes[k].entry);
                                                 } else if ((options.isolate || runs > 0) && !options.childCommand.empty()) {
                                                     outcomes[k] = renderIsolated(workers(), job, mine[k], options, journal, runs);
                                                 } else {
                                                     outcomes[k] = renderJob(job, mine[k], options, previous, &journal, limits);
                                                 }
                                                 return k;
                                             }) &
            tbb::make_filter<size_t, void>(tbb::filter_mode::serial_in_order, [&](size_t k) {
                const Json& e = outcomes[k].entry;
                for (const std::string& w : outcomes[k].warnings) progress.warning(e.value("name", ""), w);
                const std::string status = outcomes[k].upToDate ? "up to date" : e.value("status", "");
                const double ms = e.contains("ms") && e["ms"].contains("total") ? e["ms"]["total"].get<double>() : 0;
                progress.mapFinished(e.value("name", ""), status, ms, e.value("error", ""));
            }));
    progress.finish();
    pool.reset();  // the workers end with the list
    removeTextureShareDir(textureShare);

    BatchResult result;
    std::vector<Json> entries;
    std::vector<std::shared_ptr<const FittedThumbnail>> sheetThumbnails;
    for (Outcome& o : outcomes) {
        sheetThumbnails.push_back(std::move(o.sheetThumbnail));
        (o.entry.value("status", "") == "ok" ? result.ok : result.failed) += 1;
        if (o.upToDate) ++result.upToDate;
        entries.push_back(std::move(o.entry));
    }
    const double seconds = (nowMs() - start) / 1000;
    const TextureCacheStats cache = textureCacheStats();
    Json timings;
    timings["seconds"] = round2(seconds);
    timings["maps_per_second"] = seconds > 0 ? round2(double(mine.size()) / seconds) : 0.0;
    timings["threads"] = threads;
    timings["maps_in_flight"] = inFlight;
    timings["up_to_date"] = result.upToDate;
    timings["texture_cache"] = {{"lookups", cache.lookups},
                                {"hits", cache.hits},
                                {"hit_rate", cache.lookups ? round2(double(cache.hits) / double(cache.lookups)) : 0.0},
                                {"decodes", cache.decodes},
                                {"megabytes", round2(double(cache.bytes) / 1048576.0)}};
    const StudioModelCacheStats models = studioModelCacheStats();
    timings["model_cache"] = {{"lookups", models.lookups},
                              {"hits", models.hits},
                              {"decodes", models.decodes},
                              {"megabytes", round2(double(models.bytes) / 1048576.0)}};
    timings["shader_mounts"] = quake3GameMounts();
    result.manifest = makeManifest(entries, jobs.size(), workListKey(jobs), std::move(timings));
    if (!options.shard.all())
        result.manifest["shard"] = {{"index", options.shard.index}, {"count", options.shard.count}};
    writeArchives(result.manifest, options.outDir);
    writeSheetAndIndex(result.manifest, options, sheetThumbnails);
    writeManifest(result.manifest, options.outDir);
    journal.remove();  // the manifest holds everything it did
    return result;
}

}  // namespace luxel
