#pragma once
// A scene (or the command line's inputs) expanded into the maps to render: one MapJob per map, each with
// its views and options. Sorted and de-duplicated, so the list (and any shard of it) is the same on every
// machine that sees the same files.
#include <string>
#include <vector>

#include "luxel/io/map_listing.hpp"
#include "luxel/scene/scene.hpp"

namespace luxel {

struct MapJob {
    std::string source;   // what openMapPath opens: "/abs/x.bsp" or "/abs/pak0.pk3:maps/x.bsp"
    std::string name;     // the map's base name
    std::string outputName;  // name used in output paths: `name` made file-name safe and unique in the list
    std::string error;    // non-empty: the input could not be listed (a corrupt archive); rendered as a failure
    std::vector<std::string> gameDirs;  // for textures and shader scripts, highest precedence first
    bool ldr = false;
    std::string palette;
    std::vector<SceneView> views;
    SceneOutput output;
    std::string origin;   // the input that produced it ("scenes/a.toml:4: maps[0]" or "command line")
};

// The maps of one input. Kind::Auto: "a.pk3:maps/x.bsp" is that member; a .pk3/.zip file every maps/*.bsp in
// it; a game directory (holds *.pk3 or maps/) the maps the engine offers by name; another directory every
// map below it; a path with * ? [ a glob (each match expanded again); anything else a map file.
// Throws UsageError "where: what" when it names nothing (a missing file, a glob without matches).
std::vector<MapLocation> expandMapInput(const std::string& path, SceneMapInput::Kind kind, const std::string& where);

// Every map of every scene input, with the scene's views and options (per-input overrides applied). Maps
// from a game directory input use that directory for textures after the scene's game_dirs.
std::vector<MapJob> expandScene(const Scene& scene);

// Sorts jobs by (name, source), drops repeated sources (the first kept), and gives each an outputName that
// is safe in a path (sanitizeFileName) and unique in the list ("x", "x-2", ...).
void finalizeWorkList(std::vector<MapJob>& jobs);

// A name from a file (map names, archive members) made safe as one path component: bytes outside
// [A-Za-z0-9._-] become '_', no leading '.', at most 80 bytes, never empty ("map").
std::string sanitizeFileName(const std::string& name);

}  // namespace luxel
