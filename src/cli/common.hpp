#pragma once
// What every subcommand shares: how a map is named on the command line and opened.
#include <CLI/CLI.hpp>

#include <string>

#include "luxel/bsp/decode.hpp"
#include "luxel/bsp/world.hpp"
#include "luxel/io/map_source.hpp"

namespace luxel::cli {

struct MapArgs {
    std::string path;     // file.bsp or archive.pk3:maps/x.bsp
    std::string gameDir;  // with mapName: search the directory's pk3 files
    std::string mapName;
    bool ldr = false;

    void addTo(CLI::App& app);
    MapSource open() const;
    DecodeOptions decodeOptions() const { return {ldr}; }
};

// Parses "WxH" (e.g. 1920x1080); throws UsageError.
void parseSize(const std::string& text, int& width, int& height);

// Milliseconds since an arbitrary start, for timings.
double nowMs();

}  // namespace luxel::cli

#include "luxel/render/render.hpp"

namespace luxel::cli {

// Camera and picture options shared by render and bench.
struct ViewArgs {
    std::string camera = "overview";
    std::vector<float> pos, angles;
    float fov = 90.0f;
    std::string size = "1920x1080";
    std::string mode = "lightmap";
    std::string look;  // engine | linear; default from the output file type
    std::vector<float> skyColor;
    int spp = 1;
    bool noPvs = false, noFlares = false;
    std::string styles;  // --styles: light style weights (Quake 2 / Source), resolved per map

    void addTo(CLI::App& app);
    Camera camera_(const World& world) const;
    // `ldrOutput` picks the default look when --look is not given.
    RenderOptions options(bool ldrOutput) const;
};

}  // namespace luxel::cli
