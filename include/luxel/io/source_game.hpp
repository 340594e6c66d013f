#pragma once
// A Source game folder mounted the way the engine mounts it (FileSystem_LoadSearchPaths): the GAME search
// path its gameinfo.txt lists, or, for a folder without one (extracted content, a mod's loose files), the
// folder itself then its VPKs.
#include <string>
#include <vector>

#include "luxel/io/game_files.hpp"

namespace luxel {

struct SourceSearchPath {
    std::string path;  // absolute, normalised
    bool vpk = false;  // a VPK directory file (NAME_dir.vpk or a single-file NAME.vpk), else a directory
};

// The GAME search path of the Source game folder `gameDir`, highest precedence first.
// With a gameinfo.txt: its FileSystem / SearchPaths entries whose path IDs ("game+mod", split at '+')
// include "game", in order; "|gameinfo_path|x" is x in gameDir, "|all_source_engine_paths|x" and a plain
// "x" are x in gameDir's parent (the engine's base directory); a '*' or '?' in the last component expands
// to the directories and .vpk files it matches, sorted case-insensitively, with NAME_NNN.vpk left to its
// NAME_dir.vpk; "NAME.vpk" mounts NAME_dir.vpk when that exists; a folder holding pak01_dir.vpk,
// pak02_dir.vpk, ... has them mounted just before it (Left 4 Dead 2, Portal 2 and CS:GO list only folders).
// Paths that do not exist and repeats are left out; "|appid_N|" paths (Steam installs) are left out with a
// warning.
// Without a gameinfo.txt: gameDir, then every *_dir.vpk directly in it, sorted case-insensitively.
// Throws UsageError when gameDir is not a directory, DecodeError when gameinfo.txt is malformed or has no
// FileSystem / SearchPaths block.
std::vector<SourceSearchPath> sourceSearchPaths(const std::string& gameDir, std::vector<std::string>& warnings);

// The files a Source map sees: its pakfile (when not empty, called `pakfileName`), then each game folder's
// search path in turn. A VPK that cannot be opened is left out with a warning, or, when `strict`, throws
// (and `strict` makes CRC mismatches errors).
GameFiles mountSourceGame(const std::string& pakfileName, const Bytes& pakfile, const std::vector<std::string>& gameDirs,
                          bool strict, std::vector<std::string>& warnings);

}  // namespace luxel
