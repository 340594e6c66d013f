#include "luxel/io/map_listing.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

#include "luxel/io/game_files.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"
#include "archive.hpp"
#include "pak_archive.hpp"
#include "zip_archive.hpp"

namespace luxel {
namespace fs = std::filesystem;

namespace {

std::string stem(const std::string& path) { return fs::path(path).stem().string(); }

// "maps/x.bsp" directly in maps/ (any case, '\' from Windows-made archives counts as '/').
bool isTopLevelMapMember(std::string name) {
    std::replace(name.begin(), name.end(), '\\', '/');
    if (!startsWithIgnoreCase(name, "maps/") || !endsWithIgnoreCase(name, ".bsp")) return false;
    return name.find('/', 5) == std::string::npos && name.size() > 9;
}

}  // namespace

bool isArchivePath(const std::string& path) {
    return endsWithIgnoreCase(path, ".pk3") || endsWithIgnoreCase(path, ".zip") || isPakPath(path);
}

namespace {

// The archive opened for one look at its directory, not kept (openArchive's sharing is for maps being drawn).
std::unique_ptr<const Archive> openOnce(const std::string& path) {
    if (isPakPath(path)) return std::make_unique<const PakArchive>(path);
    return std::make_unique<const ZipArchive>(path);
}

}  // namespace

std::vector<MapLocation> mapsInArchive(const std::string& archivePath) {
    const std::unique_ptr<const Archive> archive = openOnce(archivePath);
    std::vector<MapLocation> maps;
    for (const ArchiveEntry& entry : archive->entries())
        if (isTopLevelMapMember(entry.name)) maps.push_back({archivePath + ":" + entry.name, stem(entry.name), {}});
    std::sort(maps.begin(), maps.end(), [](const MapLocation& a, const MapLocation& b) { return a.spec < b.spec; });
    return maps;
}

bool archiveHasMember(const std::string& archivePath, const std::string& member) {
    return openOnce(archivePath)->locate(member).has_value();
}

bool looksLikeGameDir(const std::string& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return false;
    for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
         it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (endsWithIgnoreCase(name, ".pk3") && it->is_regular_file(ec)) return true;
        if (quakePakNumber(name) && it->is_regular_file(ec)) return true;
        if (equalsIgnoreCase(name, "maps") && it->is_directory(ec)) return true;
    }
    return false;
}

std::vector<MapLocation> mapsInGameDir(const std::string& dir) {
    std::map<std::string, MapLocation> byName;  // lower-case name -> the winner so far
    // Lowest precedence first, so each later source overrides: pk3s in load order, loose files, then paks in
    // load order (openMapInGameDir's search, backwards).
    auto addArchive = [&](const std::string& archive) {
        try {
            for (MapLocation& m : mapsInArchive(archive)) byName[toLowerAscii(m.name)] = std::move(m);
        } catch (const std::exception& e) {
            // One unreadable archive is one failed entry (keyed so it never clashes with a map name); the
            // other archives' maps still list.
            byName[std::string(1, '\x01') + archive] = {archive, stem(archive), e.what()};
        }
    };
    for (const std::string& pk3 : quake3PakFiles(dir)) addArchive(pk3);
    std::error_code ec;
    for (fs::directory_iterator top(dir, fs::directory_options::skip_permission_denied, ec), end; !ec && top != end;
         top.increment(ec)) {
        if (!equalsIgnoreCase(top->path().filename().string(), "maps") || !top->is_directory(ec)) continue;
        std::error_code ec2;
        for (fs::directory_iterator it(top->path(), fs::directory_options::skip_permission_denied, ec2);
             !ec2 && it != end; it.increment(ec2))
            if (endsWithIgnoreCase(it->path().string(), ".bsp") && it->is_regular_file(ec2))
                byName[toLowerAscii(stem(it->path().string()))] = {it->path().string(), stem(it->path().string()), {}};
    }
    for (const std::string& pak : quakePakFiles(dir)) addArchive(pak);
    std::vector<MapLocation> maps;
    for (auto& [name, m] : byName) maps.push_back(std::move(m));
    return maps;
}

std::vector<MapLocation> mapsUnderDirectory(const std::string& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw UsageError(dir + ": not a directory");
    std::vector<std::string> files;
    for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end; it.increment(ec)) {
        std::error_code ec2;
        if (!it->is_regular_file(ec2)) continue;
        const std::string path = it->path().string();
        if (endsWithIgnoreCase(path, ".bsp") || isArchivePath(path)) files.push_back(path);
        if (files.size() > kMaxListedMaps)
            throw UsageError(dir + ": more than " + std::to_string(kMaxListedMaps) + " map files below it");
    }
    std::vector<MapLocation> maps;
    for (const std::string& f : files) {
        if (isArchivePath(f)) {
            try {
                for (MapLocation& m : mapsInArchive(f)) maps.push_back(std::move(m));
            } catch (const std::exception& e) {
                maps.push_back({f, stem(f), e.what()});
            }
        } else {
            maps.push_back({f, stem(f), {}});
        }
        if (maps.size() > kMaxListedMaps)
            throw UsageError(dir + ": more than " + std::to_string(kMaxListedMaps) + " maps below it");
    }
    std::sort(maps.begin(), maps.end(), [](const MapLocation& a, const MapLocation& b) { return a.spec < b.spec; });
    return maps;
}

}  // namespace luxel
