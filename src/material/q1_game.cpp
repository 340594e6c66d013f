// Quake 1 / Half-Life game files: the mounts a map's materials search, and the WADs its worldspawn names.
#include "q1_game.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"

namespace luxel::materials {
namespace {
namespace fs = std::filesystem;

bool sameFolder(const fs::path& a, const fs::path& b) {
    std::error_code ea, eb;
    return fs::weakly_canonical(a, ea) == fs::weakly_canonical(b, eb) && !ea && !eb;
}

// The file called `name` (any case) directly in `dir`, as a case-insensitive file system (Windows, where the
// engine ran) would find it; "" when there is none.
std::string findInFolder(const fs::path& dir, const std::string& name) {
    std::error_code ec;
    if (dir.empty() || !fs::is_directory(dir, ec)) return "";
    if (fs::is_regular_file(dir / name, ec)) return (dir / name).string();
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (equalsIgnoreCase(it->path().filename().string(), name) && it->is_regular_file(ec)) return it->path().string();
    return "";
}

}  // namespace

GameFiles quake1GameFiles(const MapSource& source, const MaterialOptions& options, std::vector<std::string>& warnings) {
    GameFiles files;
    for (const std::string& dir : options.gameDirs) files.addQuakeGameDir(dir);
    fs::path implicit;
    std::error_code ec;
    if (auto split = splitArchiveMember(source.displayName)) {
        implicit = fs::path(split->archive).parent_path();
        if (implicit.empty()) implicit = ".";
    } else if (fs::is_regular_file(source.displayName, ec)) {
        const fs::path mapsDir = fs::path(source.displayName).parent_path();
        if (toLowerAscii(mapsDir.filename().string()) == "maps") {
            implicit = mapsDir.parent_path();
            if (implicit.empty()) implicit = ".";
        }
    }
    if (implicit.empty() || !fs::is_directory(implicit, ec)) return files;
    for (const std::string& d : options.gameDirs)
        if (sameFolder(d, implicit)) return files;
    try {
        files.addQuakeGameDir(implicit.string());
    } catch (const std::exception& e) {
        warnings.push_back(std::string("the map's game folder: ") + e.what());
    }
    return files;
}

std::vector<std::string> wadKeyNames(const std::string& key) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= key.size()) {
        const size_t end = std::min(key.find(';', start), key.size());
        std::string entry = key.substr(start, end - start);
        if (const size_t slash = entry.find_last_of("\\/"); slash != std::string::npos) entry = entry.substr(slash + 1);
        const size_t first = entry.find_first_not_of(" \t"), last = entry.find_last_not_of(" \t");
        if (first != std::string::npos) out.push_back(entry.substr(first, last - first + 1));
        start = end + 1;
    }
    return out;
}

std::vector<Wad> loadMapWads(const std::string& wadKey, const MapSource& source, const GameFiles& files,
                             std::vector<std::string>& warnings) {
    std::vector<Wad> wads;
    std::vector<std::string> seen;
    // A loose map: its folder and the one above; a map in an archive: its folder there (openRelated).
    std::error_code ec;
    const bool loose = !splitArchiveMember(source.displayName) && fs::is_regular_file(source.displayName, ec);
    const fs::path mapDir = loose ? fs::path(source.displayName).parent_path() : fs::path();
    for (const std::string& name : wadKeyNames(wadKey)) {
        const std::string lower = toLowerAscii(name);
        if (std::find(seen.begin(), seen.end(), lower) != seen.end()) continue;
        seen.push_back(lower);
        std::optional<Bytes> bytes;
        std::string where;
        try {
            if (loose) {
                for (const fs::path& dir : {mapDir.empty() ? fs::path(".") : mapDir,
                                            (mapDir.empty() ? fs::path(".") : mapDir).parent_path()}) {
                    where = findInFolder(dir, name);
                    if (!where.empty()) {
                        bytes = readFile(where);
                        break;
                    }
                }
            } else if (source.openRelated) {
                if ((bytes = source.openRelated(name))) where = source.displayName + ": " + name;
            }
            if (!bytes) {
                if (auto found = files.read(name)) {
                    bytes = std::move(found);
                    where = files.describe(name).value_or(name);
                }
            }
            if (!bytes) {
                warnings.push_back("wad " + name + " (worldspawn \"wad\") not found beside the map, in its parent folder or in the game folders");
                continue;
            }
            wads.push_back(readWad(std::move(*bytes), where));
        } catch (const std::exception& e) {
            warnings.push_back(e.what());
        }
    }
    return wads;
}

}  // namespace luxel::materials
