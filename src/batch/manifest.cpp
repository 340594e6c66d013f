// The batch manifest: building, reading back for up-to-date checks, and the pieces that hash a job.
#include <xxhash.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "batch_parts.hpp"
#include "luxel/batch/contact_sheet.hpp"
#include "luxel/batch/index_page.hpp"
#include "luxel/util/error.hpp"

namespace luxel::batch {
namespace fs = std::filesystem;

namespace {

std::string hex64(uint64_t v) { return fmt::format("{:016x}", v); }

Json viewJson(const SceneView& v) {
    Json j;
    j["name"] = v.name;
    j["camera"] = v.camera;
    if (v.pos) j["pos"] = *v.pos;
    if (v.angles) j["angles"] = *v.angles;
    j["fov"] = v.fov;
    j["size"] = {v.width, v.height};
    j["mode"] = v.mode;
    j["look"] = v.look;
    j["styles"] = v.styles;
    j["time"] = v.time;
    j["spp"] = v.spp;
    j["flares"] = v.flares ? Json(*v.flares) : Json();
    j["sky"] = v.sky ? Json(*v.sky) : Json();
    j["transparent"] = v.transparent;
    if (v.worldOnly) j["world_only"] = true;  // only when set: older manifests stay up to date
    if (v.noPvs) j["no_pvs"] = true;
    if (v.levelshot > 0) j["levelshot"] = v.levelshot;  // only when set: existing batches keep their keys
    return j;
}

}  // namespace

std::string contentHash(const Bytes& bytes) {
    const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
    return hex64(h.high64) + hex64(h.low64);
}

std::string optionsKey(const MapJob& job) {
    Json j;
    j["luxel"] = luxelVersionString();
    j["game_dirs"] = job.gameDirs;
    j["ldr"] = job.ldr;
    j["palette"] = job.palette;
    j["pattern"] = job.output.pattern;
    j["format"] = job.output.format;
    j["output_name"] = job.outputName;
    if (!job.output.archive.empty()) j["archive"] = job.output.archive;
    if (job.output.wholeTextures) j["whole_textures"] = true;
    for (const SceneView& v : job.views) j["views"].push_back(viewJson(v));
    const std::string text = j.dump();
    return hex64(XXH3_64bits(text.data(), text.size()));
}

std::string workListKey(const std::vector<MapJob>& jobs) {
    XXH3_state_t* state = XXH3_createState();
    XXH3_64bits_reset(state);
    for (const MapJob& job : jobs) {
        XXH3_64bits_update(state, job.source.data(), job.source.size() + 1);  // with the NUL: a separator
    }
    const uint64_t h = XXH3_64bits_digest(state);
    XXH3_freeState(state);
    return hex64(h);
}

Json upToDateEntry(const Json& previous, const MapJob& job, const std::string& hash, const std::string& options,
                   const std::string& outDir) {
    if (!previous.is_object() || !previous.contains("maps") || !previous["maps"].is_array()) return nullptr;
    for (const Json& m : previous["maps"]) {
        if (!m.is_object() || m.value("source", "") != job.source) continue;
        if (m.value("status", "") != "ok" || m.value("hash", "") != hash || m.value("options", "") != options)
            return nullptr;
        if (!m.contains("views") || !m["views"].is_array()) return nullptr;
        for (const Json& v : m["views"]) {
            const std::string out = v.value("output", "");
            std::error_code ec;
            const auto size = fs::file_size(fs::path(outDir) / out, ec);
            if (out.empty() || ec || !v.contains("bytes") || size != v["bytes"].get<uint64_t>()) return nullptr;
        }
        return m;
    }
    return nullptr;
}

Json makeManifest(const std::vector<Json>& maps, size_t workListSize, const std::string& workList, Json timings) {
    Json m;
    m["luxel"] = LUXEL_VERSION;
    m["work_list"] = {{"maps", workListSize}, {"key", workList}};
    size_t ok = 0, failed = 0, views = 0;
    for (const Json& map : maps) {
        (map.value("status", "") == "ok" ? ok : failed) += 1;
        if (map.contains("views")) views += map["views"].size();
    }
    m["summary"] = {{"maps", maps.size()}, {"ok", ok}, {"failed", failed}, {"views", views}};
    m["timings"] = std::move(timings);
    m["maps"] = maps;
    return m;
}

void writeSheetAndIndex(Json& manifest, const BatchOptions& options,
                        const std::vector<std::shared_ptr<const FittedThumbnail>>& fitted) {
    if (options.sheetPath != "-") {
        const std::string sheet = options.sheetPath.empty() ? (fs::path(options.outDir) / "sheet.png").string()
                                                            : options.sheetPath;
        std::vector<SheetTile> tiles;
        for (const Json& map : manifest["maps"]) {
            SheetTile tile;
            tile.label = map.value("name", "?");
            if (map.value("status", "") != "ok") tile.error = map.value("error", "failed");
            else if (map.contains("views") && !map["views"].empty())
                tile.imagePath = (fs::path(options.outDir) / map["views"][0].value("output", "")).string();
            else
                tile.error = "no views";
            if (tile.error.empty() && tiles.size() < fitted.size()) tile.fitted = fitted[tiles.size()];
            tiles.push_back(std::move(tile));
        }
        SheetOptions sheetOptions;
        sheetOptions.tileWidth = options.sheetTileWidth;
        sheetOptions.tileHeight = sheetTileHeight(options);
        manifest["sheets"] = Json::array();
        try {
            for (const std::string& file : writeContactSheets(tiles, sheet, sheetOptions)) {
                std::error_code ec;
                const fs::path rel = fs::relative(file, options.outDir, ec);
                manifest["sheets"].push_back(ec || rel.empty() ? file : rel.string());
            }
        } catch (const std::exception& e) {
            manifest["warnings"].push_back(std::string("contact sheet not written: ") + e.what());
        }
    }
    if (options.writeIndex) {
        try {
            writeIndexPage(nlohmann::json::parse(manifest.dump()), options.outDir);
        } catch (const std::exception& e) {
            manifest["warnings"].push_back(std::string("index page not written: ") + e.what());
        }
    }
}

void writeManifest(const Json& manifest, const std::string& outDir) {
    const std::string text = manifest.dump(2) + "\n";
    writeFileAtomic((fs::path(outDir) / "manifest.json").string(), Bytes(text.begin(), text.end()));
}

Json readManifest(const std::string& dir) {
    const fs::path path = fs::path(dir) / "manifest.json";
    std::ifstream in(path, std::ios::binary);
    if (!in) return nullptr;
    std::ostringstream text;
    text << in.rdbuf();
    try {
        return Json::parse(text.str());
    } catch (const std::exception& e) {
        throw UsageError(path.string() + ": not a luxel manifest (" + e.what() + ")");
    }
}

}  // namespace luxel::batch
