#include "catalogue.hpp"

#include <sys/stat.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <filesystem>

#include "luxel/batch/batch.hpp"
#include "luxel/bsp/decode.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/scene/work_list.hpp"
#include "luxel/util/error.hpp"

namespace luxel::serve {
namespace fs = std::filesystem;

namespace {

// The file a map's bytes come from: the archive of "a.pk3:maps/x.bsp", else the path itself.
std::string fileOf(const std::string& source) {
    if (auto split = splitArchiveMember(source)) return split->archive;
    return source;
}

// Whether `path`, with every symlink resolved, lies inside `root` (also resolved).
bool insideRoot(const std::string& path, const fs::path& root) {
    std::error_code ec;
    const fs::path real = fs::canonical(path, ec);
    if (ec) return false;
    auto r = root.begin();
    auto p = real.begin();
    for (; r != root.end(); ++r, ++p)
        if (p == real.end() || *p != *r) return false;
    return true;
}

// The file's stamp, or nullopt when it cannot be read.
std::optional<FileStamp> stampOf(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return std::nullopt;
    return FileStamp{uint64_t(st.st_size), uint64_t(st.st_ino), int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec,
                     int64_t(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec};
}

}  // namespace

std::string mapFormatText(const std::vector<uint8_t>& bytes) {
    const std::optional<MapFormat> format = mapFormatOf(bytes);
    if (!format) return {};
    const int32_t version = int32_t(uint32_t(bytes[4]) | uint32_t(bytes[5]) << 8 | uint32_t(bytes[6]) << 16 |
                                    uint32_t(bytes[7]) << 24);
    switch (*format) {
        case MapFormat::Quake3: return "Quake 3 IBSP v46";
        case MapFormat::Quake2: return "Quake 2 IBSP v38";
        case MapFormat::Source: return "Source VBSP v" + std::to_string(version);
        case MapFormat::Quake1: return bytes[0] == 'B' ? "Quake 1 BSP2" : bytes[0] == '2' ? "Quake 1 2PSB" : "Quake 1 BSP29";
        case MapFormat::HalfLife: return "Half-Life BSP30";
    }
    return {};
}

Catalogue buildCatalogue(const std::vector<std::string>& roots, const std::vector<std::string>& gameDirs,
                         const Catalogue* previous) {
    Scene scene;  // the batch's vocabulary: roots are its map inputs, with the service's game folders
    scene.gameDirs = gameDirs;
    scene.views.emplace_back();
    for (size_t i = 0; i < roots.size(); ++i) {
        SceneMapInput in;
        in.path = roots[i];
        in.location = {"serve", 0, "root[" + std::to_string(i) + "]"};
        scene.maps.push_back(std::move(in));
    }
    std::vector<MapJob> jobs = expandScene(scene);
    // Which root each job came from, for the containment check (the origin text names it).
    std::vector<fs::path> rootPaths;
    for (const std::string& r : roots) {
        std::error_code ec;
        fs::path canonical = fs::canonical(fileOf(r), ec);
        if (!ec && !fs::is_directory(canonical, ec)) canonical = canonical.parent_path();  // an archive or map file
        rootPaths.push_back(ec ? fs::path() : canonical);
    }
    finalizeWorkList(jobs);

    Catalogue cat;
    for (const MapJob& job : jobs) {
        const std::string prefix = "serve: root[";
        size_t root = 0;
        if (job.origin.starts_with(prefix)) root = std::stoul(job.origin.substr(prefix.size()));
        if (job.error.empty() && (root >= rootPaths.size() || !insideRoot(fileOf(job.source), rootPaths[root]))) {
            cat.warnings.push_back(job.source + ": left out: it lies outside its root once links are resolved");
            continue;
        }
        CatalogueEntry e;
        e.name = job.outputName;
        e.source = job.source;
        e.gameDirs = job.gameDirs;
        e.error = job.error;
        cat.maps.push_back(std::move(e));
    }
    tbb::parallel_for(size_t(0), cat.maps.size(), [&](size_t i) {
        CatalogueEntry& e = cat.maps[i];
        if (!e.error.empty()) return;
        // Stamped before reading: a write during the read changes the stamp, and the next rescan reads again.
        const std::optional<FileStamp> stamp = stampOf(fileOf(e.source));
        if (previous && stamp) {
            const CatalogueEntry* before = previous->find(e.name);
            if (before && before->source == e.source && before->stamp == *stamp && !before->hash.empty()) {
                e.bytes = before->bytes, e.hash = before->hash, e.format = before->format, e.error = before->error;
                e.stamp = before->stamp;
                return;
            }
        }
        if (stamp) e.stamp = *stamp;
        try {
            const MapSource source = openMapPath(e.source);
            e.bytes = source.bytes.size();
            e.hash = batch::contentHash(source.bytes);
            e.format = mapFormatText(source.bytes);
            if (e.format.empty()) e.error = source.displayName + ": not a map luxel reads (magic bytes)";
        } catch (const std::exception& ex) {
            e.error = ex.what();
        }
    });
    std::sort(cat.maps.begin(), cat.maps.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    for (size_t i = 0; i < cat.maps.size(); ++i) cat.byName.emplace(cat.maps[i].name, i);
    return cat;
}

}  // namespace luxel::serve
