#pragma once
// Finding the maps an input holds: an archive's maps/*.bsp members, a game directory's maps as the engine
// would load them by name, a directory tree's .bsp files and archives. Only directories and zip central
// directories are read, never a map's contents.
#include <string>
#include <vector>

namespace luxel {

struct MapLocation {
    std::string spec;  // what openMapPath opens: "dir/x.bsp" or "dir/pak0.pk3:maps/x.bsp"
    std::string name;  // the map's base name ("x")
    std::string error; // non-empty: an archive found while listing a folder could not be read (spec is the
                       // archive); a batch reports it as a failed input and goes on with the others
};

// Every maps/*.bsp member of a zip / pk3 (directly in maps/, as the engines load them), in member-name
// order. UsageError when the file is missing, DecodeError naming it when it is no zip.
std::vector<MapLocation> mapsInArchive(const std::string& archivePath);

// The maps a Quake 3 game directory offers, one per name (case-insensitive), each from where the engine
// would load it: loose maps/NAME.bsp first, then the pk3 archives from the highest precedence down
// (quake3PakFiles order, later wins). Sorted by name; an unreadable archive is listed once with its error.
std::vector<MapLocation> mapsInGameDir(const std::string& dir);

// A directory the engine would use as a game directory: it holds *.pk3 files or a maps/ folder.
bool looksLikeGameDir(const std::string& dir);

// Every .bsp file and every map inside every .pk3 / .zip below dir (recursively, symlinks not followed),
// sorted by spec; an unreadable archive is listed once with its error. At most kMaxListedMaps; more is an error (UsageError).
std::vector<MapLocation> mapsUnderDirectory(const std::string& dir);

// For "archive.pk3:maps/x.bsp": whether the archive holds that member (case-insensitive, as openMapPath
// finds it). UsageError when the archive is missing, DecodeError when it is no zip.
bool archiveHasMember(const std::string& archivePath, const std::string& member);

// Whether a path names a zip archive by extension (.pk3, .zip).
bool isArchivePath(const std::string& path);

constexpr size_t kMaxListedMaps = 100000;

}  // namespace luxel
