// The batch runner: the shard's maps through a TBB pipeline with a bounded number in flight, each map
// opened, hashed, skipped when its outputs are up to date, else decoded once and drawn for every view.
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "batch_parts.hpp"
#include "luxel/batch/levelshots.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/model/studio_cache.hpp"
#include "luxel/util/clock.hpp"
#include "luxel/util/error.hpp"
#include "progress.hpp"

namespace luxel {
namespace fs = std::filesystem;

int batchJobs(int threads, size_t maxMemory) {
    if (maxMemory == 0) return std::max(threads, 1);
    const size_t byMemory = std::max<size_t>(1, maxMemory / 8 * 5 / kMapMemoryEstimate);
    return int(std::clamp<size_t>(byMemory, 1, size_t(std::max(threads, 1))));
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

Outcome renderJob(const MapJob& job, size_t index, const BatchOptions& options, const Json& previous) {
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
        LoadedMap map = loadMap(std::move(source), {job.ldr}, {job.gameDirs, job.palette, 0});
        e["format"] = fmt::format("{} {}", map.world.formatName, map.world.version);
        ms["decode"] = round2(map.decodeMs);
        ms["tessellate"] = round2(map.tessellateMs);
        out.warnings = propWarnings(map.props, !job.gameDirs.empty());  // the views draw without those props
        e["views"] = Json::array();
        for (const SceneView& v : job.views) {
            const double v0 = nowMs();
            RenderedView r = renderView(map, sceneViewRequest(v, job.output));
            const int frameWidth = r.image.width, frameHeight = r.image.height;
            if (v.levelshot > 0) r.image = levelshotImage(r.image, v.levelshot);
            const std::string rel = outputPath(job, v);
            const fs::path file = fs::path(options.outDir) / rel;
            fs::create_directories(file.parent_path());
            const double w0 = nowMs();
            writeImage(file.string(), r.image, viewMetadata(map, r));
            const double w1 = nowMs();
            // The sheet shows the first view: fitted now, while its pixels are at hand, instead of read back from
            // the file after the batch (same pixels: what the PNG holds, so a rerun that reads the file back
            // draws the same sheet). Lossy and linear files are read back.
            if (&v == &job.views.front() && options.sheetPath != "-" && r.image.channels == 3 &&
                file.extension() == ".png") {
                const std::vector<uint8_t> bytes = displayBytes(r.image);
                out.sheetThumbnail = fitThumbnail(bytes.data(), r.image.width, r.image.height, options.sheetTileWidth,
                                                  sheetTileHeight(options));
            }
            for (std::string& w : r.warnings)
                if (std::find(out.warnings.begin(), out.warnings.end(), w) == out.warnings.end())
                    out.warnings.push_back(std::move(w));
            Json vj;
            vj["name"] = v.name;
            vj["output"] = rel;
            std::error_code ec;
            vj["bytes"] = uint64_t(fs::file_size(file, ec));
            vj["width"] = r.image.width;
            vj["height"] = r.image.height;
            vj["mode"] = renderModeName(r.mode);
            if (v.levelshot > 0) vj["levelshot_of"] = {frameWidth, frameHeight};  // the frame it was reduced from
            vj["camera"] = cameraJson(r.camera);
            vj["figures"] = {{"brightness", std::round(r.figures.brightness * 1e4) / 1e4},
                             {"near", std::round(r.figures.nearShare * 1e4) / 1e4},
                             {"one_colour", std::round(r.figures.oneColour * 1e4) / 1e4},
                             {"coverage", std::round(r.figures.coverage * 1e4) / 1e4}};
            vj["ms"] = {{"camera", round2(r.cameraMs)}, {"frame", round2(r.frameMs)}, {"write", round2(w1 - w0)},
                        {"total", round2(w1 - v0)}};
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
    return out;
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
    const Json previous = options.force ? Json() : readManifest(options.outDir);
    const double start = nowMs();

    std::vector<size_t> mine;
    for (size_t i = 0; i < jobs.size(); ++i)
        if (inShard(i, options.shard)) mine.push_back(i);

    const int threads = std::max(1, options.threads);
    const size_t maxMemory = options.maxMemory;
    const int inFlight = options.jobs > 0 ? options.jobs : batchJobs(threads, maxMemory);
    // The decoded textures and models shared by all maps get 3/8 of the memory (models 1/16 of it, textures
    // the rest); the maps in flight the other 5/8 (batchJobs).
    if (maxMemory) {
        setTextureCacheBudget(maxMemory / 16 * 5);
        setStudioModelCacheBudget(maxMemory / 16);
    }

    std::vector<Outcome> outcomes(mine.size());
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
                                                 outcomes[k] = renderJob(jobs[mine[k]], mine[k], options, previous);
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
    return result;
}

}  // namespace luxel
