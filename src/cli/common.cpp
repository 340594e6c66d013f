#include "common.hpp"

#include <chrono>
#include <cstdio>

#include "luxel/light/styles.hpp"
#include "luxel/util/error.hpp"

namespace luxel::cli {

void MapArgs::addTo(CLI::App& app) {
    app.add_option("map", path, "map file (.bsp) or archive member (pak.pk3:maps/name.bsp)");
    app.add_option("--game-dir", gameDir, "game directory whose pk3 archives are searched for --map");
    app.add_option("--map", mapName, "map name to find in --game-dir (e.g. am_thornish)");
    app.add_flag("--ldr", ldr, "Source maps: use the LDR lighting even when HDR lighting is present");
}

MapSource MapArgs::open() const {
    if (!gameDir.empty()) {
        if (mapName.empty() && path.empty()) throw UsageError("--game-dir needs --map NAME");
        return openMapInGameDir(gameDir, mapName.empty() ? path : mapName);
    }
    if (!mapName.empty()) throw UsageError("--map needs --game-dir DIR");
    if (path.empty()) throw UsageError("no map given (a .bsp path, pak.pk3:maps/x.bsp, or --game-dir DIR --map NAME)");
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
    app.add_option("--mode", mode, "lightmap | vertex | normals | depth | clusters | lit | grid")->capture_default_str();
    app.add_option("--look", look, "engine (game's overbright and clamping) | linear (raw light); default: engine "
                                   "for PNG/JPEG, linear for EXR/TIFF")
        ->check(CLI::IsMember({"engine", "linear"}));
    app.add_option("--sky-color", skyColor, "sky colour R G B (linear)")->expected(3);
    app.add_option("--spp", spp, "samples per pixel (supersampling)")->capture_default_str()->check(CLI::Range(1, 64));
    app.add_flag("--no-pvs", noPvs, "draw every leaf (no PVS culling)");
    app.add_flag("--no-flares", noFlares, "hide billboards / flares");
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
    o.drawFlares = !noFlares;
    if (!skyColor.empty()) o.skyColor = {skyColor[0], skyColor[1], skyColor[2]};
    if (!styles.empty()) {
        parseStyleSpec(styles, World{});  // a malformed spec fails here, before the map is read
        o.styleSpec = styles;
    }
    return o;
}

}  // namespace luxel::cli
