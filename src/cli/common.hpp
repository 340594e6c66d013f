#pragma once
// What every subcommand shares: how a map is named on the command line and opened.
#include <CLI/CLI.hpp>

#include <string>

#include "luxel/bsp/decode.hpp"
#include "luxel/bsp/world.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/model/props.hpp"
#include "luxel/render/render.hpp"

#include <optional>
#include <vector>

namespace luxel::cli {

struct MapArgs {
    std::string path;                   // file.bsp or archive.pk3:maps/x.bsp
    std::vector<std::string> gameDirs;  // the first, with mapName: search its pk3 files; all: materials
    std::string mapName;
    bool ldr = false;
    std::string palette;  // Quake 2 .wal textures
    float time = 0;       // animated textures
    bool strict = false;  // damaged game content (VPK CRC mismatches) is an error
    bool noProps = false;     // --no-props (commands that draw: addPropsFlag)
    bool noOverlays = false;  // --no-overlays (the same commands)

    void addTo(CLI::App& app);
    void addPropsFlag(CLI::App& app);
    MapSource open() const;
    DecodeOptions decodeOptions() const { return {ldr}; }
    MaterialOptions materialOptions() const { return {gameDirs, palette, time, strict}; }
    PropOptions propOptions() const { return {!noProps}; }
};

// Lit / albedo modes: the map's materials (textures, blending, sky), with one warning line on stderr
// naming the materials without a texture; `ms` gets the load time. nullopt for the other modes.
std::optional<MaterialSet> loadMaterialsFor(RenderMode mode, const World& world, const MapSource& source,
                                            const MapArgs& args, double* ms = nullptr);

// Parses "WxH" (e.g. 1920x1080); throws UsageError.
void parseSize(const std::string& text, int& width, int& height);

// Writes text to a file through writeFileAtomic (reports, JSON, CSV).
void writeTextFile(const std::string& path, const std::string& text);

// How many threads TBB work runs on: the arena's, capped by --threads (a global limit the arena alone
// does not report).
int workerThreads();

// The command line this process was started with (argv), for commands that start themselves again.
const std::vector<std::string>& commandLine();
void setCommandLine(int argc, char** argv);


}  // namespace luxel::cli

#include "luxel/render/map_view.hpp"
#include "luxel/util/clock.hpp"
#include "luxel/render/render.hpp"

namespace luxel::cli {

// Camera and picture options shared by render, batch and bench. The defaults are a thumbnail's (best
// camera, lit when textures are found); a command may change them before addTo.
struct ViewArgs {
    std::string camera = "best";
    std::vector<float> pos, angles;
    float fov = 90.0f;
    std::string size = "1920x1080";
    std::string mode = "auto";
    std::string look;  // engine | linear; default from the output file type
    std::string unlit;  // lightmap mode: engine | light | black
    std::vector<float> skyColor;
    int spp = 1;
    bool noPvs = false, worldOnly = false, flares = false, noFlares = false, sky = false, noSky = false, transparent = false;
    std::string styles;  // --styles: light style weights (Quake 2 / Source), resolved per map

    void addTo(CLI::App& app);
    // The view as render and batch draw it (checked: throws UsageError); `ldrOutput` picks the default look.
    ViewRequest request(bool ldrOutput) const;
    // bench: the camera with resolveCamera's fallbacks (each printed as a warning) and concrete options
    // (mode auto is not accepted there).
    Camera camera_(const World& world, const Geometry& geometry) const;
    RenderOptions options(bool ldrOutput) const;
};

}  // namespace luxel::cli
