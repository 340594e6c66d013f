#pragma once
// Scene files (scenes/*.toml): what to render - which maps, which views, where the images go. This stage
// knows TOML and paths, nothing about rendering: view values stay text/numbers with the line each came
// from, so the batch can check them with the renderer's own parsers and still name file:line:key.
// The schema is documented in scenes/README.md.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace luxel {

// Where a value came from, for messages: "scenes/a.toml:12: view[1].mode".
struct SceneLocation {
    std::string file;
    int line = 0;
    std::string key;
    std::string text() const;  // "file:line: key"
};

// One picture per map: the camera and the picture settings. Unset optionals take the renderer's defaults.
struct SceneView {
    std::string name = "thumb";
    std::string camera = "best";               // spawn[:N] | intermission | overview | best
    std::optional<std::vector<float>> pos;     // explicit camera (X Y Z) with angles (PITCH YAW ROLL)
    std::optional<std::vector<float>> angles;
    float fov = 90;
    int width = 512, height = 288;
    std::string mode = "auto";                 // auto: lit when textures are found, else lightmap
    std::string look;                          // engine | engine-windowed | linear; empty: by output format
    std::string unlit;                         // lightmap mode: engine | light | black; empty: engine
    std::string styles;                        // light styles (render --styles syntax)
    float time = 0;                            // animated textures / light styles
    int spp = 1;
    std::optional<bool> flares;                // unset: the mode's default
    std::optional<bool> sky;                   // unset: drawn, except in overviews
    bool transparent = false;                  // PNG: alpha 0 where nothing is drawn
    bool worldOnly = false;                    // the world without its brush entities (doors, platforms)
    bool noPvs = false;                        // every leaf drawn (no PVS culling)
    int levelshot = 0;                         // > 0: the frame reduced to levelshot x levelshot as Quake 3's
                                               // levelshot command does (batch/levelshots.hpp)
    std::map<std::string, SceneLocation> where;  // key -> where it was set (only keys present in the file)
    SceneLocation location;                      // the [[view]] table itself
};

// One entry of `maps`: a file, glob, directory, archive or game directory, with per-map overrides.
struct SceneMapInput {
    enum class Kind { Auto, File, Glob, Directory, Archive, GameDir };
    Kind kind = Kind::Auto;
    std::string path;                           // resolved against the scene file's folder (globs too)
    std::optional<std::vector<std::string>> gameDirs;  // overrides the scene's game_dirs
    std::optional<std::vector<std::string>> views;     // names of the scene's views to render (default: all)
    std::optional<bool> ldr;
    std::optional<std::string> palette;
    SceneLocation location;
};

struct SceneOutput {
    std::string dir;                             // empty: the command line's -o
    std::string pattern = "{map}/{view}.{ext}";  // relative to dir; {map} {view} {ext} {format}
    std::string format = "png";                  // image format by extension: png jpg exr tif
    std::string archive;                         // non-empty: a zip (pk3) in dir holding every image written,
                                                 // members named by their paths below dir
    // Quake 3 lit and albedo views decode whole textures (the pixels `luxel render` and the service draw)
    // instead of each texture from the finest mip level the view samples (ViewRequest::reducedTextures).
    bool wholeTextures = false;
};

struct Scene {
    std::string file;                    // the scene file as given
    std::string folder;                  // its folder: relative paths are resolved against it
    std::vector<SceneMapInput> maps;
    std::vector<std::string> gameDirs;   // textures / shader scripts, for every map
    bool ldr = false;
    std::string palette;
    std::vector<SceneView> views;        // at least one (a default "thumb" when the file has none)
    SceneOutput output;
};

// Parses a scene file. Throws UsageError "file:line: key: what" for syntax errors, unknown keys, values of
// the wrong type or out of range, bad output patterns and a map input that does not exist.
Scene loadScene(const std::string& path);
// The same from text; `file` names it in messages and `folder` resolves relative paths.
Scene parseScene(const std::string& text, const std::string& file, const std::string& folder);

// Whether a command-line input names a scene file (by its .toml extension).
bool isSceneFile(const std::string& path);

}  // namespace luxel
