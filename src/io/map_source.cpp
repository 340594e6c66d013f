#include "luxel/io/map_source.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <system_error>
#include <unistd.h>

#include "luxel/io/game_files.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"
#include "zip_archive.hpp"

namespace luxel {
namespace fs = std::filesystem;

namespace {

// An archive member's path with "." and ".." resolved ("maps/../sources/maps/x.map" -> "sources/maps/x.map");
// nullopt when it would leave the archive's root.
std::optional<std::string> memberPath(const std::string& path) {
    const std::string normal = fs::path(path).lexically_normal().generic_string();
    if (normal.empty() || normal == ".." || normal.rfind("../", 0) == 0 || normal[0] == '/') return std::nullopt;
    return normal;
}

}  // namespace

namespace {


std::string stemOf(const std::string& path) { return fs::path(path).stem().string(); }

std::optional<Bytes> readLooseFile(const fs::path& path) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return std::nullopt;
    return readFile(path.string());
}

// Searches loose files first (the engine's search path puts the directory before its archives), then
// the archives from the highest precedence down. `zips`: the archives opened (openZipArchives); one that could
// not be opened raises its error when the search reaches it.
std::optional<Bytes> readFromGameDir(const std::string& gameDir, const std::vector<OpenedZip>& zips,
                                     const std::string& name, std::string* foundIn) {
    if (auto loose = readLooseFile(fs::path(gameDir) / name)) {
        if (foundIn) *foundIn = (fs::path(gameDir) / name).string();
        return loose;
    }
    for (auto it = zips.rbegin(); it != zips.rend(); ++it) {
        if (it->error) std::rethrow_exception(it->error);
        if (auto bytes = it->archive->read(name)) {
            if (foundIn) *foundIn = it->archive->displayName() + ":" + name;
            return bytes;
        }
    }
    return std::nullopt;
}

std::string parentDir(const std::string& member) {
    auto slash = member.find_last_of('/');
    return slash == std::string::npos ? std::string() : member.substr(0, slash + 1);
}

}  // namespace

Bytes readFile(const std::string& path) {
    std::error_code ec;
    if (!fs::exists(path, ec)) throw UsageError(path + ": no such file");
    if (fs::is_directory(path, ec)) throw UsageError(path + ": is a directory, not a map file");
    auto size = fs::file_size(path, ec);
    if (ec) throw UsageError(path + ": cannot read (" + ec.message() + ")");
    if (size > kMaxFileBytes) throw UsageError(path + ": " + std::to_string(size) + " bytes, over the 1 GiB limit");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UsageError(path + ": cannot open for reading");
    Bytes bytes(static_cast<size_t>(size));
    if (size && !in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(size)))
        throw UsageError(path + ": read failed");
    return bytes;
}

void writeFileAtomic(const std::string& path, const Bytes& bytes) {
    fs::path target(path);
    fs::path temp = target;
    temp += ".tmp" + std::to_string(::getpid());
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out) throw UsageError(path + ": cannot open for writing");
        out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
        out.close();
        if (!out) {
            std::error_code ec;
            fs::remove(temp, ec);
            throw UsageError(path + ": write failed");
        }
    }
    std::error_code ec;
    fs::rename(temp, target, ec);
    if (ec) {
        fs::remove(temp, ec);
        throw UsageError(path + ": cannot rename the temporary file into place");
    }
}

std::optional<ArchiveMember> splitArchiveMember(const std::string& spec) {
    const std::string lower = toLowerAscii(spec);
    for (const char* ext : {".pk3:", ".zip:"})
        if (const size_t pos = lower.find(ext); pos != std::string::npos)
            return ArchiveMember{spec.substr(0, pos + 4), spec.substr(pos + 5)};
    return std::nullopt;
}

MapSource openMapPath(const std::string& spec) {
    if (auto split = splitArchiveMember(spec)) {
        const std::string archive = split->archive, member = split->member;
        const std::shared_ptr<const ZipArchive> zip = openZipArchive(archive);
        auto bytes = zip->read(member);
        if (!bytes) throw UsageError(archive + ": has no member " + member);
        MapSource src;
        src.displayName = spec;
        src.mapName = stemOf(member);
        src.bytes = std::move(*bytes);
        std::string dir = parentDir(member);
        // Holding the archive keeps it open for the game's mount of it (openZipArchive).
        src.openRelated = [zip, dir](const std::string& rel) -> std::optional<Bytes> {
            const std::optional<std::string> member = memberPath(dir + rel);
            if (!member) return std::nullopt;
            return zip->read(*member);
        };
        return src;
    }
    MapSource src;
    src.displayName = spec;
    src.mapName = stemOf(spec);
    src.bytes = readFile(spec);
    fs::path dir = fs::path(spec).parent_path();
    src.openRelated = [dir](const std::string& rel) { return readLooseFile(dir / rel); };
    return src;
}

MapSource openMapInGameDir(const std::string& gameDir, const std::string& mapName) {
    std::string name = mapName;
    if (toLowerAscii(name).ends_with(".bsp")) name.resize(name.size() - 4);
    if (name.rfind("maps/", 0) == 0) name = name.substr(5);
    auto archives = quake3PakFiles(gameDir);
    std::string foundIn;
    // Every archive is opened (in parallel) and held by the map: the game's mount of the folder reuses them.
    auto zips = std::make_shared<const std::vector<OpenedZip>>(openZipArchives(archives));
    auto bytes = readFromGameDir(gameDir, *zips, "maps/" + name + ".bsp", &foundIn);
    if (!bytes)
        throw UsageError(gameDir + ": no maps/" + name + ".bsp in the directory or its " +
                         std::to_string(archives.size()) + " pk3 archives");
    MapSource src;
    src.displayName = foundIn;
    src.mapName = name;
    src.bytes = std::move(*bytes);
    src.openRelated = [gameDir, zips](const std::string& rel) -> std::optional<Bytes> {
        const std::optional<std::string> member = memberPath("maps/" + rel);
        if (!member) return std::nullopt;
        return readFromGameDir(gameDir, *zips, *member, nullptr);
    };
    return src;
}

}  // namespace luxel
