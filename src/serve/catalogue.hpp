#pragma once
// The maps a service offers: every map under its roots, named as the batch names them (the work list's
// output names, unique), each with its format and content hash. URL names resolve only through this table,
// so no part of a URL is ever used as a path.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace luxel::serve {

// What identifies a map file's bytes without reading them: a rescan reads again only the files whose stamp
// changed (any write changes ctime; a rename onto the path changes the inode).
struct FileStamp {
    uint64_t size = 0, inode = 0;
    int64_t modifiedNs = 0, changedNs = 0;
    bool operator==(const FileStamp&) const = default;
};

struct CatalogueEntry {
    std::string name;      // unique URL name (work list outputName)
    std::string source;    // what openMapPath opens
    std::vector<std::string> gameDirs;  // the roots' game folder (a game-dir root) and the configured ones
    std::string format;    // "Quake 3 IBSP v46", or empty when the map could not be read
    std::string hash;      // 128-bit xxHash of the map's bytes (32 hex digits), empty when unreadable
    uint64_t bytes = 0;    // the map file's size
    std::string error;     // why the map cannot be read (listing or opening), one line
    FileStamp stamp;       // of the file holding the map (its archive for a member) when it was read
    // What identifies the decoded map and the pictures drawn of it: the source and its content.
    std::string key() const { return source + "\n" + hash; }
};

struct Catalogue {
    std::vector<CatalogueEntry> maps;  // sorted by name
    std::unordered_map<std::string, size_t> byName;
    std::vector<std::string> warnings;  // entries left out (a symlink leading out of its root)
    const CatalogueEntry* find(const std::string& name) const {
        auto it = byName.find(name);
        return it == byName.end() ? nullptr : &maps[it->second];
    }
};

// Lists every root (as `luxel batch` inputs: folders, game directories, archives, map files), keeps the maps
// whose files lie inside their root once symlinks are resolved, and reads each map once (in parallel) for its
// format and hash. With `previous` (a rescan), a map whose file has the same stamp keeps its earlier reading
// instead. Throws UsageError when a root names nothing.
Catalogue buildCatalogue(const std::vector<std::string>& roots, const std::vector<std::string>& gameDirs,
                         const Catalogue* previous = nullptr);

// The map's format as "Quake 3 IBSP v46" from its header; empty when it is none luxel reads.
std::string mapFormatText(const std::vector<uint8_t>& bytes);

}  // namespace luxel::serve
