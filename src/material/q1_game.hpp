#pragma once
// Internal to loadQuake1: where a Quake 1 / Half-Life map's game files come from, and the WAD files a Half-Life
// map's worldspawn names.
#include <string>
#include <vector>

#include "luxel/io/game_files.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/material/wad3.hpp"

namespace luxel::materials {

// The game dirs given (each one's paks, then its loose files), then the game folder the map belongs to when
// not one of them: GAME of a loose GAME/maps/x.bsp, or the folder holding the map's archive. Failing to mount
// that implicit folder is a warning.
GameFiles quake1GameFiles(const MapSource& source, const MaterialOptions& options, std::vector<std::string>& warnings);

// The file names a "wad" key lists: entries split on ';', each path's last component (after '\' or '/'),
// empty ones dropped ("\\half-life\\valve\\halflife.wad;decals.wad" -> halflife.wad, decals.wad).
std::vector<std::string> wadKeyNames(const std::string& key);

// The WADs a "wad" key names, in its order, each found (case-insensitively) in the map's folder, its parent
// folder (maps live in GAME/maps/), then `files` (the game folders, their paks). One warning per WAD not found
// or unreadable; those are left out.
std::vector<Wad> loadMapWads(const std::string& wadKey, const MapSource& source, const GameFiles& files,
                             std::vector<std::string>& warnings);

}  // namespace luxel::materials
