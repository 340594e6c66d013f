#pragma once
// Internal to the batch stage: what the runner, the manifest and the merge share.
#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

#include "luxel/batch/batch.hpp"
#include "luxel/batch/contact_sheet.hpp"
#include "luxel/render/map_view.hpp"

namespace luxel::batch {

using Json = nlohmann::ordered_json;


// A hash of everything besides the map's bytes that decides a job's images (views, game dirs, options,
// luxel's version): a rerun may reuse outputs whose contentHash and optionsKey both match.
std::string optionsKey(const MapJob& job);
// Identifies the whole work list (every source in order), so a merge can tell shards of one batch apart.
std::string workListKey(const std::vector<MapJob>& jobs);

// The manifest entry of a finished map from the previous run in outDir when every output it lists still
// exists with its recorded size and the hashes match; null otherwise.
Json upToDateEntry(const Json& previousManifest, const MapJob& job, const std::string& hash, const std::string& options,
                   const std::string& outDir);

// The manifest: maps (in work-list order) with the summary of them; `timings` holds what varies run to run.
Json makeManifest(const std::vector<Json>& maps, size_t workListSize, const std::string& workList, Json timings);

// Contact sheet (unless sheetPath is "-") and index page for a finished manifest; records the sheet files in
// manifest["sheets"]. Failures to write them are warnings in the manifest, not errors.
// `fitted`, when not empty, holds per manifest map its first view already fitted to a sheet tile (or null: the
// sheet reads that view's file).
void writeSheetAndIndex(Json& manifest, const BatchOptions& options,
                        const std::vector<std::shared_ptr<const FittedThumbnail>>& fitted = {});
// The sheet's tile height for options.sheetTileWidth (16:9).
inline int sheetTileHeight(const BatchOptions& options) { return options.sheetTileWidth * 9 / 16; }

// The archives the manifest's maps name ("archive": a job's output.archive): each a zip in outDir holding the
// view images of its maps that rendered, members named by their paths below outDir, in work-list order; written
// atomically, listed in manifest["archives"]. Failures are warnings in the manifest, as the sheet's are.
void writeArchives(Json& manifest, const std::string& outDir);

// Writes outDir/manifest.json atomically.
void writeManifest(const Json& manifest, const std::string& outDir);
Json readManifest(const std::string& dir);  // null when there is none; UsageError when it is not JSON

// The folder the workers of --isolate share their decoded textures through: in /dev/shm (memory: on this
// project's machines, files on disk cost more in the kernel's writes than the decodes they save) when it has
// `bytes` free, else none (empty: each worker decodes on its own). Named for this process, so that a later batch
// removes it when this one was killed before it could. Removed with removeTextureShareDir.
std::string makeTextureShareDir(size_t bytes);
// What the shared textures may take in all: the texture cache's share of --max-memory (2 GiB without a cap).
inline size_t textureShareBytes(const BatchOptions& options) {
    return options.maxMemory ? options.maxMemory / 16 * 5 : size_t(2) << 30;
}
void removeTextureShareDir(const std::string& dir);

}  // namespace luxel::batch
