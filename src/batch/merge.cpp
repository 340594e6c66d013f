// `luxel batch --merge`: shard outputs into the result one process would have written.
#include <algorithm>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "batch_parts.hpp"
#include "luxel/util/error.hpp"

namespace luxel {
namespace fs = std::filesystem;

namespace {

// Copies through a temporary name so a killed merge leaves no half file under the final name.
void copyAtomic(const fs::path& from, const fs::path& to) {
    std::error_code ec;
    if (fs::equivalent(from, to, ec)) return;
    fs::create_directories(to.parent_path(), ec);
    fs::path temp = to;
    temp += ".tmp-merge";
    fs::copy_file(from, temp, fs::copy_options::overwrite_existing, ec);
    if (!ec) fs::rename(temp, to, ec);
    if (ec) {
        fs::remove(temp, ec);
        throw UsageError(fmt::format("{}: cannot copy to {}", from.string(), to.string()));
    }
}

}  // namespace

BatchResult mergeBatches(const std::vector<std::string>& shardDirs, const BatchOptions& options) {
    using batch::Json;
    if (shardDirs.empty()) throw UsageError("--merge needs the shard output folders");
    std::error_code ec;
    fs::create_directories(options.outDir, ec);
    if (ec) throw UsageError(options.outDir + ": cannot create the output folder");

    std::string workList;
    size_t workListSize = 0;
    std::map<size_t, std::pair<Json, std::string>> byIndex;  // work-list position -> (entry, its shard folder)
    double seconds = 0;
    for (const std::string& dir : shardDirs) {
        const Json m = batch::readManifest(dir);
        if (m.is_null()) throw UsageError(dir + ": no manifest.json (not a batch output folder)");
        if (!m.contains("work_list") || !m.contains("maps") || !m["maps"].is_array())
            throw UsageError(dir + "/manifest.json: not a luxel batch manifest");
        const std::string key = m["work_list"].value("key", "");
        const size_t size = m["work_list"].value("maps", size_t(0));
        if (workList.empty()) {
            workList = key;
            workListSize = size;
        } else if (key != workList || size != workListSize) {
            throw UsageError(dir + ": its shard belongs to another work list (other maps or inputs) than " +
                             shardDirs.front());
        }
        if (m.contains("timings") && m["timings"].contains("seconds"))
            seconds = std::max(seconds, m["timings"]["seconds"].get<double>());
        for (const Json& e : m["maps"]) {
            const size_t index = e.value("index", size_t(-1));
            if (index >= workListSize) throw UsageError(dir + "/manifest.json: a map entry without a valid index");
            if (!byIndex.emplace(index, std::make_pair(e, dir)).second)
                throw UsageError(fmt::format("{}: map {} ({}) is in two shards", dir, index, e.value("name", "?")));
        }
    }
    if (byIndex.size() != workListSize)
        throw UsageError(fmt::format("the shards hold {} of the work list's {} maps: a shard folder is missing",
                                     byIndex.size(), workListSize));

    BatchResult result;
    std::vector<Json> entries;
    for (auto& [index, entryAndDir] : byIndex) {
        Json& e = entryAndDir.first;
        if (e.contains("views"))
            for (const Json& v : e["views"]) {
                const std::string rel = v.value("output", "");
                const fs::path relPath = fs::path(rel).lexically_normal();
                if (rel.empty() || relPath.is_absolute() || *relPath.begin() == "..")
                    throw UsageError(entryAndDir.second + "/manifest.json: output '" + rel + "' outside the folder");
                copyAtomic(fs::path(entryAndDir.second) / relPath, fs::path(options.outDir) / relPath);
            }
        (e.value("status", "") == "ok" ? result.ok : result.failed) += 1;
        entries.push_back(std::move(e));
    }
    Json timings;
    timings["seconds"] = seconds;
    timings["shards"] = shardDirs.size();
    result.manifest = batch::makeManifest(entries, workListSize, workList, std::move(timings));
    batch::writeArchives(result.manifest, options.outDir);
    batch::writeSheetAndIndex(result.manifest, options);
    batch::writeManifest(result.manifest, options.outDir);
    return result;
}

}  // namespace luxel
