#include "luxel/io/source_game.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>

#include "luxel/io/keyvalues.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"

namespace luxel {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view kGameinfoPath = "|gameinfo_path|";
constexpr std::string_view kAllSourceEnginePaths = "|all_source_engine_paths|";
constexpr std::string_view kAppIdPrefix = "|appid_";

// Absolute, "." and ".." resolved, no trailing separator (V_RemoveDotSlashes, V_StripTrailingSlash).
fs::path normalised(const fs::path& p) {
    fs::path out = fs::absolute(p).lexically_normal();
    if (out.has_relative_path() && out.filename().empty()) out = out.parent_path();
    return out;
}

// "NAME_NNN.vpk" -> NAME in lower case.
std::optional<std::string> numberedArchiveBase(const std::string& name) {
    if (name.size() < 9 || !endsWithIgnoreCase(name, ".vpk")) return std::nullopt;
    const size_t digits = name.size() - 7;
    if (name[digits - 1] != '_') return std::nullopt;
    for (size_t i = digits; i < digits + 3; ++i)
        if (name[i] < '0' || name[i] > '9') return std::nullopt;
    return toLowerAscii(name.substr(0, digits - 1));
}

bool lessIgnoreCase(const std::string& a, const std::string& b) {
    const std::string al = toLowerAscii(a), bl = toLowerAscii(b);
    return al != bl ? al < bl : a < b;  // byte order only breaks ties, for determinism
}

// The entries of `dir` whose name matches `pattern` (any case) and that the engine mounts: directories and
// names containing ".vpk", none starting with '.'; sorted, with each NAME_NNN.vpk dropped when NAME_dir.vpk is
// among them.
std::vector<fs::path> expandWildcard(const fs::path& dir, const std::string& pattern) {
    std::vector<std::string> names;
    std::error_code ec;
    fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
        const std::string name = it->path().filename().string();
        std::error_code typeEc;
        if (name.empty() || name[0] == '.' || fnmatch(pattern.c_str(), name.c_str(), FNM_CASEFOLD) != 0) continue;
        if (it->is_directory(typeEc) || toLowerAscii(name).find(".vpk") != std::string::npos) names.push_back(name);
    }
    std::sort(names.begin(), names.end(), lessIgnoreCase);
    std::set<std::string> dirVpks;  // lower-case NAME of each NAME_dir.vpk
    for (const std::string& n : names)
        if (endsWithIgnoreCase(n, "_dir.vpk")) dirVpks.insert(toLowerAscii(n.substr(0, n.size() - 8)));
    std::vector<fs::path> out;
    for (const std::string& n : names) {
        const std::optional<std::string> base = numberedArchiveBase(n);
        if (!base || !dirVpks.contains(*base)) out.push_back(dir / n);
    }
    return out;
}

// A mountable search path for an expanded location, or nullopt when nothing exists there.
std::optional<SourceSearchPath> mountable(const fs::path& p) {
    std::error_code ec;
    const std::string name = p.filename().string();
    if (toLowerAscii(name).find(".vpk") == std::string::npos)
        return fs::is_directory(p, ec) ? std::optional<SourceSearchPath>({p.string(), false}) : std::nullopt;
    // "NAME.vpk" in gameinfo.txt names the archive set NAME_dir.vpk + NAME_NNN.vpk.
    if (endsWithIgnoreCase(name, ".vpk") && !endsWithIgnoreCase(name, "_dir.vpk")) {
        const fs::path dirVpk = p.parent_path() / (name.substr(0, name.size() - 4) + "_dir.vpk");
        if (fs::is_regular_file(dirVpk, ec)) return SourceSearchPath{dirVpk.string(), true};
    }
    return fs::is_regular_file(p, ec) ? std::optional<SourceSearchPath>({p.string(), true}) : std::nullopt;
}

// pak01_dir.vpk, pak02_dir.vpk, ... (while they exist) in a game folder: the later engines (Left 4 Dead 2,
// Portal 2, CS:GO) mount them with every folder on the search path, ahead of its loose files.
std::vector<fs::path> numberedPaks(const fs::path& dir) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (int i = 1; i < 100; ++i) {
        char name[16];
        std::snprintf(name, sizeof name, "pak%02d_dir.vpk", i);
        if (!fs::is_regular_file(dir / name, ec)) break;
        out.push_back(dir / name);
    }
    return out;
}

// gameinfo.txt in any case (Windows-made game folders copied to Linux keep "GameInfo.txt").
std::optional<fs::path> findGameinfo(const fs::path& dir) {
    std::error_code ec;
    std::vector<fs::path> found;
    fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
        std::error_code typeEc;
        if (equalsIgnoreCase(it->path().filename().string(), "gameinfo.txt") && it->is_regular_file(typeEc))
            found.push_back(it->path());
    }
    if (found.empty()) return std::nullopt;
    return *std::min_element(found.begin(), found.end());  // the same one on every machine
}

bool hasGameId(const std::string& ids) {
    size_t start = 0;
    while (start <= ids.size()) {
        size_t end = ids.find('+', start);
        if (end == std::string::npos) end = ids.size();
        std::string_view id = std::string_view(ids).substr(start, end - start);
        while (!id.empty() && (id.front() == ' ' || id.front() == '\t')) id.remove_prefix(1);
        while (!id.empty() && (id.back() == ' ' || id.back() == '\t')) id.remove_suffix(1);
        if (equalsIgnoreCase(id, "game")) return true;
        start = end + 1;
    }
    return false;
}

std::vector<SourceSearchPath> gameinfoSearchPaths(const fs::path& gameDir, const fs::path& gameinfo,
                                                  std::vector<std::string>& warnings) {
    const Bytes bytes = readFile(gameinfo.string());
    const KeyValue root = parseKeyValues(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                                         gameinfo.string());
    const KeyValue* fileSystem = root.find("FileSystem");
    const KeyValue* searchPaths = fileSystem && fileSystem->isBlock ? fileSystem->find("SearchPaths") : nullptr;
    if (!searchPaths || !searchPaths->isBlock)
        throw DecodeError(gameinfo.string(), "", 0, "no FileSystem { SearchPaths { ... } } block");
    const fs::path baseDir = gameDir.parent_path();
    std::vector<SourceSearchPath> out;
    std::set<std::string> seen;
    for (const KeyValue& entry : searchPaths->children) {
        if (entry.isBlock || !hasGameId(entry.key)) continue;
        std::string_view location = entry.value;
        fs::path base = baseDir;
        if (startsWithIgnoreCase(location, kAppIdPrefix)) {
            warnings.push_back(gameinfo.string() + ": search path \"" + entry.value + "\" left out (mounted from a Steam app)");
            continue;
        }
        if (startsWithIgnoreCase(location, kGameinfoPath)) {
            location.remove_prefix(kGameinfoPath.size());
            base = gameDir;
        } else if (startsWithIgnoreCase(location, kAllSourceEnginePaths)) {
            location.remove_prefix(kAllSourceEnginePaths.size());
        }
        std::string relative(location);
        std::replace(relative.begin(), relative.end(), '\\', '/');
        const fs::path full = normalised(base / relative);
        std::vector<fs::path> expanded;
        if (relative.find_first_of("*?") != std::string::npos)
            expanded = expandWildcard(full.parent_path(), full.filename().string());
        else
            expanded.push_back(full);
        for (const fs::path& p : expanded) {
            std::optional<SourceSearchPath> sp = mountable(p);
            if (!sp) continue;
            if (!sp->vpk)
                for (const fs::path& pak : numberedPaks(p))
                    if (seen.insert(pak.string()).second) out.push_back({pak.string(), true});
            if (seen.insert(sp->path).second) out.push_back(std::move(*sp));
        }
    }
    return out;
}

}  // namespace

std::vector<SourceSearchPath> sourceSearchPaths(const std::string& gameDirText, std::vector<std::string>& warnings) {
    std::error_code ec;
    if (!fs::is_directory(gameDirText, ec)) throw UsageError(gameDirText + ": not a directory");
    const fs::path gameDir = normalised(gameDirText);
    if (const std::optional<fs::path> gameinfo = findGameinfo(gameDir)) return gameinfoSearchPaths(gameDir, *gameinfo, warnings);
    std::vector<SourceSearchPath> out{{gameDir.string(), false}};
    for (const fs::path& p : expandWildcard(gameDir, "*_dir.vpk"))
        if (fs::is_regular_file(p, ec)) out.push_back({p.string(), true});
    return out;
}

GameFiles mountSourceGame(const std::string& pakfileName, const Bytes& pakfile, const std::vector<std::string>& gameDirs,
                          bool strict, std::vector<std::string>& warnings) {
    GameFiles files;
    if (!pakfile.empty()) files.addArchiveBytes(pakfileName, pakfile);
    for (const std::string& dir : gameDirs) {
        for (const SourceSearchPath& sp : sourceSearchPaths(dir, warnings)) {
            if (!sp.vpk) {
                files.addDirectory(sp.path);
                continue;
            }
            try {
                files.addVpk(sp.path, strict);
            } catch (const DecodeError& e) {
                if (strict) throw;
                warnings.push_back(std::string(e.what()) + " (archive left out)");
            }
        }
    }
    return files;
}

}  // namespace luxel
