#pragma once
// Finding the maps an input holds: an archive's maps/*.bsp members, a game directory's maps as the engine
// would load them by name, a directory tree's .bsp files and archives. Only directories and archive
// directories (a zip's central directory, a pak's) are read, never a map's contents.
#include <string>
#include <vector>

namespace luxel {

struct MapLocation {
    std::string spec;  // what openMapPath opens: "dir/x.bsp" or "dir/pak0.pk3:maps/x.bsp"
    std::string name;  // the map's base name ("x")
    std::string error; // non-empty: an archive found while listing a folder could not be read (spec is the
                       // archive); a batch reports it as a failed input and goes on with the others
};

// Every maps/*.bsp member of a zip / pk3 or an id PACK (.pak) (directly in maps/, as the engines load them),
// in member-name order. UsageError when the file is missing, DecodeError naming it when it is damaged.
std::vector<MapLocation> mapsInArchive(const std::string& archivePath);

// The maps a game directory offers, one per name (case-insensitive), each from where openMapInGameDir would
// load it: the Quake 1 / 2 paks from the highest number down (quakePakFiles), loose maps/NAME.bsp, then the
// Quake 3 pk3 archives from the highest precedence down (quake3PakFiles order, later wins). Sorted by name; an
// unreadable archive is listed once with its error.
std::vector<MapLocation> mapsInGameDir(const std::string& dir);

// A directory the engine would use as a game directory: it holds *.pk3 files, pakN.pak files (quakePakNumber)
// or a maps/ folder.
bool looksLikeGameDir(const std::string& dir);

// Every .bsp file and every map inside every .pk3 / .zip / .pak below dir (recursively, symlinks not followed),
// sorted by spec; an unreadable archive is listed once with its error. At most kMaxListedMaps; more is an error (UsageError).
std::vector<MapLocation> mapsUnderDirectory(const std::string& dir);

// For "archive.pk3:maps/x.bsp": whether the archive holds that member (case-insensitive, as openMapPath
// finds it). UsageError when the archive is missing, DecodeError when it is damaged.
bool archiveHasMember(const std::string& archivePath, const std::string& member);

// Whether a path names an archive by extension (.pk3, .zip, .pak).
bool isArchivePath(const std::string& path);

constexpr size_t kMaxListedMaps = 100000;

}  // namespace luxel
