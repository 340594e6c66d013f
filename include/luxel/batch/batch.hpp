#pragma once
// `luxel batch`: many maps x many views -> images, a manifest, a contact sheet and an index page. Maps run
// in parallel (TBB, a bounded number in flight), each map's frames keep their own parallelism inside;
// one bad map is recorded with its error and never stops the others. Renders through map_view.hpp, the
// API `luxel render` uses; never parses a map itself.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "luxel/batch/shard.hpp"
#include "luxel/render/map_view.hpp"
#include "luxel/scene/work_list.hpp"

namespace luxel {

enum class Verbosity { Quiet, Normal, Verbose };

struct BatchOptions {
    std::string outDir;
    int threads = 0;           // worker threads (0: TBB's default, all cores)
    int jobs = 0;              // maps in flight; 0: from threads and maxMemory (batchJobs)
    size_t maxMemory = 0;      // bytes the batch may use (3/8 for the texture and model caches); 0: no cap
    bool force = false;        // redo outputs that are up to date
    Shard shard;               // the part of the work list this process renders
    std::string sheetPath;     // contact sheet; empty: outDir/sheet.png; "-": none
    bool writeIndex = true;    // outDir/index.html
    Verbosity verbosity = Verbosity::Normal;
    int sheetTileWidth = 256;
    double mapTimeout = 0;     // seconds one map may take (0: no limit); checked between stages
    // Worker processes: with `isolate` every map, else the maps an earlier run started and never finished, is
    // rendered by a long-lived worker, `childCommand` (this batch's argv, the binary first) run with --worker,
    // so a map that crashes the process costs only itself.
    bool isolate = false;
    std::vector<std::string> childCommand;
    bool worker = false;  // set in such a worker: render the maps the parent sends (src/batch/worker_pool.hpp)
    int parentPid = 0;    // and the batch that started it: the worker dies with it
    // The folder the workers share their decoded textures through (shareTexturesThrough): made by the parent
    // for its workers, removed when they end.
    std::string textureShare;
};

struct BatchResult {
    nlohmann::ordered_json manifest;
    size_t ok = 0, failed = 0, upToDate = 0;
    // 0 all maps rendered, 1 some failed (a batch that could not run throws UsageError instead).
    int exitCode() const { return failed ? 1 : 0; }
};

// Maps in flight for this many threads and memory: one more than the threads (with several threads: a map's
// serial stretches, its shader scripts and the ends of its parallel loops, leave a core the next map takes),
// fewer when the estimate of a map's working set (kMapMemoryEstimate) times the count passes 5/8 of maxMemory
// (the rest is the texture and model caches').
constexpr size_t kMapMemoryEstimate = size_t(384) << 20;
int batchJobs(int threads, size_t maxMemory);

// The renderer's request for a scene view (the output format decides the default look); `luxel diff --scene`
// draws the same pictures.
ViewRequest sceneViewRequest(const SceneView& view, const SceneOutput& output);

// Checks every view of every job with the renderer's own parsers, so a bad mode or camera in a scene file
// fails before any map is read. Throws UsageError "file:line: view[i].key: what".
void checkJobs(const std::vector<MapJob>& jobs);

// Renders the shard's part of `jobs` (the whole finalized work list: positions decide shards) into
// options.outDir and writes manifest.json, the sheet and index.html there. Throws UsageError when the
// batch cannot run (unwritable output folder).
BatchResult runBatch(const std::vector<MapJob>& jobs, const BatchOptions& options);

// Combines the outputs of shard runs (each folder: manifest.json + images) into outDir: images copied,
// one manifest (maps in work-list order, as one process would have written it), the sheet and the index.
// Throws UsageError when the shards do not belong to one work list, overlap, or are missing.
BatchResult mergeBatches(const std::vector<std::string>& shardDirs, const BatchOptions& options);

namespace batch {
// 128-bit xxHash of a map's bytes, as 32 hex digits: the manifest's and the service's content hash.
std::string contentHash(const Bytes& bytes);
}  // namespace batch

// The output file of one view: pattern fields replaced ({map} = job.outputName, {view}, {ext}), relative to
// the output folder; never absolute, never with "..".
std::string outputPath(const MapJob& job, const SceneView& view);

}  // namespace luxel
