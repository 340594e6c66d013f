#include "common.hpp"

#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <cstdio>
#include <filesystem>
#include <iostream>

#include "luxel/light/styles.hpp"
#include "luxel/render/camera.hpp"
#include "luxel/util/clock.hpp"
#include "luxel/util/error.hpp"

namespace luxel::cli {

void MapArgs::addTo(CLI::App& app) {
    app.add_option("map", path, "map file (.bsp) or archive member (pak.pk3:maps/name.bsp, pak0.pak:maps/name.bsp)");
    app.add_option("--game-dir", gameDirs,
                   "game directory (repeatable): textures and shaders are searched in each, in order (a Source game "
                   "folder as its gameinfo.txt search paths, VPKs included); the first one's pk3 and pak archives are "
                   "searched for --map")
        ->allow_extra_args(false);
    app.add_option("--map", mapName, "map name to find in the first --game-dir (e.g. am_thornish)");
    app.add_flag("--ldr", ldr, "Source maps: use the LDR lighting even when HDR lighting is present");
    app.add_option("--palette", palette, "Quake 2: the game's pics/colormap.pcx, for .wal textures; Quake 1: a gfx/palette.lmp instead of the built-in palette");
    app.add_option("--time", time, "animated textures: show the frame at this time in seconds")->capture_default_str();
    app.add_flag("--strict", strict, "Source game content: a VPK entry whose CRC does not match (or that cannot be read) "
                                     "is an error, not a warning");
}

void MapArgs::addPropsFlag(CLI::App& app) {
    app.add_flag("--no-props", noProps, "Source maps: leave the static props (studio models) out");
    app.add_flag("--no-overlays", noOverlays, "Source maps: leave the overlays (info_overlay decals) out");
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

void writeTextFile(const std::string& path, const std::string& text) {
    writeFileAtomic(path, Bytes(text.begin(), text.end()));
}

namespace {
std::vector<std::string>& storedCommandLine() {
    static std::vector<std::string> args;
    return args;
}
}  // namespace

const std::vector<std::string>& commandLine() { return storedCommandLine(); }

void setCommandLine(int argc, char** argv) { storedCommandLine().assign(argv, argv + argc); }

int workerThreads() {
    return int(std::min<size_t>(size_t(tbb::this_task_arena::max_concurrency()),
                                tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism)));
}


}  // namespace luxel::cli

namespace luxel::cli {

void ViewArgs::addTo(CLI::App& app) {
    app.add_option("--camera", camera,
                   "best (an automatic preview) | spawn[:N] | intermission | overview; a missing one falls back "
                   "(intermission -> spawn:0 -> best -> overview)")
        ->capture_default_str();
    app.add_option("--pos", pos, "camera position X Y Z (overrides --camera)")->expected(3);
    app.add_option("--angles", angles, "camera angles PITCH YAW ROLL in degrees (with --pos)")->expected(3);
    app.add_option("--fov", fov, "field of view in degrees as the game sets it: horizontal (Source: at 4:3, widened for wider frames)")->capture_default_str()->check(CLI::Range(double(kMinFov), double(kMaxFov)));
    app.add_option("--size", size, "image size WIDTHxHEIGHT")->capture_default_str();
    app.add_option("--mode", mode, "auto (lit when textures are found, else lightmap) | lightmap | vertex | normals | depth | clusters | lit | albedo | grid")->capture_default_str();
    app.add_option("--look", look, "engine (the game full-screen: overbright through the display ramp) | "
                                   "engine-windowed (Quake 3 in a window, r_overBrightBits 0: more saturated) | "
                                   "linear (raw light); default: engine for PNG/JPEG, linear for EXR/TIFF")
        ->check(CLI::IsMember({"engine", "engine-windowed", "linear"}));
    app.add_option("--sky-color", skyColor, "sky colour R G B (linear); replaces sky boxes and clouds")->expected(3);
    app.add_option("--unlit", unlit,
                   "lightmap mode, surfaces without a lightmap stage (vertex-lit, sky, lava): engine (their own "
                   "stages, as Quake 3's r_lightmap 1; the default) | light (their stored vertex light alone) | "
                   "black")
        ->check(CLI::IsMember({"engine", "light", "black"}));
    app.add_option("--spp", spp, "samples per pixel (supersampling)")->capture_default_str()->check(CLI::Range(1, 64));
    app.add_flag("--no-pvs", noPvs, "draw every leaf (no PVS culling)");
    app.add_flag("--world-only", worldOnly, "leave out the brush entities (doors, platforms, movers): the world alone");
    app.add_flag("--flares", flares, "draw billboards / flares (default: yes, except in lit and albedo, where the "
                                     "game draws none at its default r_flares 0)");
    app.add_flag("--no-flares", noFlares, "hide billboards / flares")->excludes("--flares");
    app.add_flag("--sky", sky, "draw sky surfaces (default: yes, except in overviews, where sky brushes cover the map)");
    app.add_flag("--no-sky", noSky, "hide sky surfaces")->excludes("--sky");
    app.add_flag("--transparent", transparent, "PNG/EXR/TIFF: an alpha channel, 0 where nothing is drawn");
    app.add_option("--styles", styles,
                   "light style weights: rest (default: the map at time 0) | time=SECONDS | STYLE=WEIGHT,... "
                   "(e.g. 0=1,5=0.3; styles not listed are off)");
}

ViewRequest ViewArgs::request(bool ldrOutput) const {
    ViewRequest r;
    r.camera = camera;
    if (!pos.empty()) r.pos = Vec3{pos[0], pos[1], pos[2]};
    if (!angles.empty()) r.angles = Vec3{angles[0], angles[1], angles[2]};
    if (r.angles && !r.pos) throw UsageError("--angles needs --pos");
    r.fov = fov;
    parseSize(size, r.width, r.height);
    r.mode = mode;
    if (!look.empty()) r.look = parseLook(look).value_or(Look::Engine);
    r.ldrOutput = ldrOutput;
    r.spp = spp;
    r.styles = styles;
    if (flares) r.flares = true;
    if (noFlares) r.flares = false;
    if (sky) r.sky = true;
    if (noSky) r.sky = false;
    r.transparent = transparent;
    if (!skyColor.empty()) r.skyColor = Vec3{skyColor[0], skyColor[1], skyColor[2]};
    if (!unlit.empty()) r.unlit = parseUnlit(unlit);
    r.usePvs = !noPvs;
    r.worldOnly = worldOnly;
    checkViewRequest(r);  // a bad mode or style spec fails here, before the map is read
    return r;
}

Camera ViewArgs::camera_(const World& world, const Geometry& geometry) const {
    int width = 0, height = 0;
    parseSize(size, width, height);
    Camera cam;
    if (!pos.empty()) {
        cam.position = {pos[0], pos[1], pos[2]};
        if (!angles.empty()) cam.angles = {angles[0], angles[1], angles[2]};
        cam.width = width;
        cam.height = height;
        cam.fovX = horizontalFov(world, fov, width, height);
        return cam;
    }
    if (!angles.empty()) throw UsageError("--angles needs --pos");
    const ResolvedCamera resolved = resolveCamera(world, geometry, camera, width, height, fov);
    for (const std::string& note : resolved.notes) std::cerr << "luxel: warning: " << world.file << ": " << note << "\n";
    return resolved.camera;
}

RenderOptions ViewArgs::options(bool ldrOutput) const {
    RenderOptions o;
    o.mode = parseRenderMode(mode);
    o.look = look.empty() ? (ldrOutput ? Look::Engine : Look::Linear) : parseLook(look).value_or(Look::Engine);
    o.spp = spp;
    o.usePvs = !noPvs;
    o.worldOnly = worldOnly;
    // Quake 3 engines ship r_flares 0, so a game-look render has no flares unless asked for.
    const bool gameLook = o.mode == RenderMode::Lit || o.mode == RenderMode::Albedo;
    o.drawFlares = flares || (!noFlares && !gameLook);
    o.drawSky = !noSky;
    o.transparentBackground = transparent;
    if (!skyColor.empty()) o.skyColor = {skyColor[0], skyColor[1], skyColor[2]}, o.skyColorOverride = true;
    if (!unlit.empty()) o.unlit = parseUnlit(unlit);
    if (!styles.empty()) {
        parseStyleSpec(styles, World{});  // a malformed spec fails here, before the map is read
        o.styleSpec = styles;
    }
    return o;
}

}  // namespace luxel::cli
