#include "common.hpp"

#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "luxel/light/styles.hpp"
#include "luxel/util/error.hpp"

namespace luxel::cli {

void MapArgs::addTo(CLI::App& app) {
    app.add_option("map", path, "map file (.bsp) or archive member (pak.pk3:maps/name.bsp)");
    app.add_option("--game-dir", gameDirs,
                   "game directory (repeatable): textures and shaders are searched in each, in order; the first "
                   "one's pk3 archives are searched for --map")
        ->allow_extra_args(false);
    app.add_option("--map", mapName, "map name to find in the first --game-dir (e.g. am_thornish)");
    app.add_flag("--ldr", ldr, "Source maps: use the LDR lighting even when HDR lighting is present");
    app.add_option("--palette", palette, "Quake 2: the game's pics/colormap.pcx, for .wal textures");
    app.add_option("--time", time, "animated textures: show the frame at this time in seconds")->capture_default_str();
}

MapSource MapArgs::open() const {
    if (!mapName.empty()) {
        if (gameDirs.empty()) throw UsageError("--map needs --game-dir DIR");
        if (!path.empty()) throw UsageError("give either a map path or --map NAME, not both");
        return openMapInGameDir(gameDirs.front(), mapName);
    }
    if (path.empty()) throw UsageError("no map given (a .bsp path, pak.pk3:maps/x.bsp, or --game-dir DIR --map NAME)");
    // `--game-dir DIR NAME` names a map in DIR unless NAME is a map file (then DIR is for materials only).
    std::error_code ec;
    const bool isFile = std::filesystem::is_regular_file(path, ec) || path.find(':') != std::string::npos;
    if (!gameDirs.empty() && !isFile && path.find('/') == std::string::npos)
        return openMapInGameDir(gameDirs.front(), path);
    return openMapPath(path);
}

void parseSize(const std::string& text, int& width, int& height) {
    int w = 0, h = 0;
    char x = 0, extra = 0;
    if (std::sscanf(text.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X') || w < 1 ||
        h < 1 || w > 16384 || h > 16384)
        throw UsageError("--size wants WIDTHxHEIGHT between 1 and 16384, got '" + text + "'");
    width = w;
    height = h;
}

std::optional<MaterialSet> loadMaterialsFor(RenderMode mode, const World& world, const MapSource& source,
                                            const MapArgs& args, double* ms) {
    if (mode != RenderMode::Lit && mode != RenderMode::Albedo) return std::nullopt;
    const double t0 = nowMs();
    MaterialSet set = loadMaterials(world, source, args.materialOptions());
    if (ms) *ms = nowMs() - t0;
    if (const std::string line = missingSummary(set); !line.empty()) std::cerr << "luxel: warning: " << line << "\n";
    return set;
}

std::string missingSummary(const MaterialSet& set) {
    if (set.missing.empty()) return {};
    constexpr size_t kNamesShown = 8;
    std::string line = std::to_string(set.missing.size()) + " material" + (set.missing.size() == 1 ? "" : "s") +
                       " without texture: ";
    for (size_t i = 0; i < set.missing.size() && i < kNamesShown; ++i) line += (i ? ", " : "") + set.missing[i];
    if (set.missing.size() > kNamesShown) line += ", ...";
    return line;
}

void writeTextFile(const std::string& path, const std::string& text) {
    writeFileAtomic(path, Bytes(text.begin(), text.end()));
}

int workerThreads() {
    return int(std::min<size_t>(size_t(tbb::this_task_arena::max_concurrency()),
                                tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism)));
}

double nowMs() {
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace luxel::cli

namespace luxel::cli {

void ViewArgs::addTo(CLI::App& app) {
    app.add_option("--camera", camera, "spawn[:N] | intermission | overview")->capture_default_str();
    app.add_option("--pos", pos, "camera position X Y Z (overrides --camera)")->expected(3);
    app.add_option("--angles", angles, "camera angles PITCH YAW ROLL in degrees (with --pos)")->expected(3);
    app.add_option("--fov", fov, "field of view in degrees as the game sets it: horizontal (Source: at 4:3, widened for wider frames)")->capture_default_str()->check(CLI::Range(1.0, 179.0));
    app.add_option("--size", size, "image size WIDTHxHEIGHT")->capture_default_str();
    app.add_option("--mode", mode, "lightmap | vertex | normals | depth | clusters | lit | albedo | grid")->capture_default_str();
    app.add_option("--look", look, "engine (game's overbright and clamping) | linear (raw light); default: engine "
                                   "for PNG/JPEG, linear for EXR/TIFF")
        ->check(CLI::IsMember({"engine", "linear"}));
    app.add_option("--sky-color", skyColor, "sky colour R G B (linear)")->expected(3);
    app.add_option("--spp", spp, "samples per pixel (supersampling)")->capture_default_str()->check(CLI::Range(1, 64));
    app.add_flag("--no-pvs", noPvs, "draw every leaf (no PVS culling)");
    app.add_flag("--flares", flares, "draw billboards / flares (default: yes, except in lit and albedo, where the "
                                     "game draws none at its default r_flares 0)");
    app.add_flag("--no-flares", noFlares, "hide billboards / flares")->excludes("--flares");
    app.add_option("--styles", styles,
                   "light style weights: rest (default: the map at time 0) | time=SECONDS | STYLE=WEIGHT,... "
                   "(e.g. 0=1,5=0.3; styles not listed are off)");
}

Camera ViewArgs::camera_(const World& world) const {
    int width = 0, height = 0;
    parseSize(size, width, height);
    Camera cam;
    if (!pos.empty()) {
        cam.position = {pos[0], pos[1], pos[2]};
        if (!angles.empty()) cam.angles = {angles[0], angles[1], angles[2]};
        cam.width = width;
        cam.height = height;
        cam.fovX = horizontalFov(world, fov, width, height);
    } else {
        if (!angles.empty()) throw UsageError("--angles needs --pos");
        cam = cameraFromSpec(world, camera, width, height, fov);
    }
    return cam;
}

RenderOptions ViewArgs::options(bool ldrOutput) const {
    RenderOptions o;
    o.mode = parseRenderMode(mode);
    o.look = look.empty() ? (ldrOutput ? Look::Engine : Look::Linear) : (look == "engine" ? Look::Engine : Look::Linear);
    o.spp = spp;
    o.usePvs = !noPvs;
    // Quake 3 engines ship r_flares 0, so a game-look render has no flares unless asked for.
    const bool gameLook = o.mode == RenderMode::Lit || o.mode == RenderMode::Albedo;
    o.drawFlares = flares || (!noFlares && !gameLook);
    if (!skyColor.empty()) o.skyColor = {skyColor[0], skyColor[1], skyColor[2]};
    if (!styles.empty()) {
        parseStyleSpec(styles, World{});  // a malformed spec fails here, before the map is read
        o.styleSpec = styles;
    }
    return o;
}

}  // namespace luxel::cli
