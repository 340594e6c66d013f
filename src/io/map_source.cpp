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
#include "archive.hpp"

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

// A game directory's archives, opened (openArchives), each list highest precedence first: the Quake 1 / 2 paks
// searched before its loose files, the Quake 3 pk3s after them. One that could not be opened raises its error
// when a search reaches it.
struct GameDirArchives {
    std::vector<OpenedArchive> beforeLoose, afterLoose;
    size_t count() const { return beforeLoose.size() + afterLoose.size(); }
};

// Every archive is opened (in parallel): the map holds them, and the game's mount of the folder reuses them.
GameDirArchives openGameDirArchives(const std::string& gameDir) {
    const std::vector<std::string> paks = quakePakFiles(gameDir), pk3s = quake3PakFiles(gameDir);
    std::vector<std::string> all(paks.rbegin(), paks.rend());
    all.insert(all.end(), pk3s.rbegin(), pk3s.rend());
    std::vector<OpenedArchive> opened = openArchives(all);
    GameDirArchives out;
    out.beforeLoose.assign(opened.begin(), opened.begin() + ptrdiff_t(paks.size()));
    out.afterLoose.assign(opened.begin() + ptrdiff_t(paks.size()), opened.end());
    return out;
}

std::optional<Bytes> readFromArchives(const std::vector<OpenedArchive>& archives, const std::string& name,
                                      std::string* foundIn) {
    for (const OpenedArchive& a : archives) {
        if (a.error) std::rethrow_exception(a.error);
        if (auto bytes = a.archive->read(name)) {
            if (foundIn) *foundIn = a.archive->displayName() + ":" + name;
            return bytes;
        }
    }
    return std::nullopt;
}

// Searches as the engines do: the paks (Quake 1 / 2 put every pakN.pak before the directory, pakN first), the
// loose files, then the pk3s (Quake 3 puts the directory before its pk3s, the last in paksort order first).
std::optional<Bytes> readFromGameDir(const std::string& gameDir, const GameDirArchives& archives,
                                     const std::string& name, std::string* foundIn) {
    if (auto bytes = readFromArchives(archives.beforeLoose, name, foundIn)) return bytes;
    if (auto loose = readLooseFile(fs::path(gameDir) / name)) {
        if (foundIn) *foundIn = (fs::path(gameDir) / name).string();
        return loose;
    }
    return readFromArchives(archives.afterLoose, name, foundIn);
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
    for (const char* ext : {".pk3:", ".zip:", ".pak:"})
        if (const size_t pos = lower.find(ext); pos != std::string::npos)
            return ArchiveMember{spec.substr(0, pos + 4), spec.substr(pos + 5)};
    return std::nullopt;
}

MapSource openMapPath(const std::string& spec) {
    if (auto split = splitArchiveMember(spec)) {
        const std::string archive = split->archive, member = split->member;
        const std::shared_ptr<const Archive> opened = openArchive(archive);
        auto bytes = opened->read(member);
        if (!bytes) throw UsageError(archive + ": has no member " + member);
        MapSource src;
        src.displayName = spec;
        src.mapName = stemOf(member);
        src.bytes = std::move(*bytes);
        std::string dir = parentDir(member);
        // Holding the archive keeps it open for the game's mount of it (openArchive).
        src.openRelated = [opened, dir](const std::string& rel) -> std::optional<Bytes> {
            const std::optional<std::string> member = memberPath(dir + rel);
            if (!member) return std::nullopt;
            return opened->read(*member);
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
    auto archives = std::make_shared<const GameDirArchives>(openGameDirArchives(gameDir));
    std::string foundIn;
    auto bytes = readFromGameDir(gameDir, *archives, "maps/" + name + ".bsp", &foundIn);
    if (!bytes)
        throw UsageError(gameDir + ": no maps/" + name + ".bsp in the directory or its " +
                         std::to_string(archives->count()) + " archives (pk3, pak)");
    MapSource src;
    src.displayName = foundIn;
    src.mapName = name;
    src.bytes = std::move(*bytes);
    src.openRelated = [gameDir, archives](const std::string& rel) -> std::optional<Bytes> {
        const std::optional<std::string> member = memberPath("maps/" + rel);
        if (!member) return std::nullopt;
        return readFromGameDir(gameDir, *archives, *member, nullptr);
    };
    return src;
}

}  // namespace luxel
