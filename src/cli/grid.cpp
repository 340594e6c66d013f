// `luxel grid MAP -o DIR`: the light a map stores for moving objects, as pictures and tables. Quake 3:
// one image per level of the light grid; Source: ambient cube samples seen from above.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <numeric>

#include "commands.hpp"
#include "common.hpp"
#include "luxel/bsp/decode.hpp"
#include "luxel/image/image.hpp"
#include "luxel/light/light_grid.hpp"
#include "luxel/render/look.hpp"
#include "luxel/util/error.hpp"

namespace luxel::cli {
namespace {

struct GridArgs {
    MapArgs map;
    std::string outputDir;
    std::string json, csv;
    std::string look = "engine";
    int scale = 0;  // 0: chosen per map
};

// Quake 3 grids and Source top views are drawn at whole pixels per cell; the default magnification makes
// the picture at least this wide.
constexpr int kMinWidth = 256;
// Source top views: one cell of the picture is this many world units at scale 1.
constexpr float kCubeCellUnits = 32.0f;
// No default picture grows past this on its longer side.
constexpr int kMaxDefaultSide = 4096;

// Pictures past this many pixels are refused (a large --scale on a large map) rather than allocated.
constexpr size_t kMaxPixels = size_t(1) << 26;

// Cells of kCubeCellUnits across `extent`, 1..4096 (NaN and empty extents: 1).
int cellsAcross(float extent) {
    const float c = std::ceil(extent / kCubeCellUnits);
    return c >= 1.0f ? (c < 4096.0f ? int(c) : 4096) : 1;
}

void checkPictureSize(int width, int height) {
    if (size_t(width) * size_t(height) > kMaxPixels)
        throw UsageError(fmt::format("the pictures would be {}x{} pixels; choose a smaller --scale", width, height));
}

int defaultScale(int cellsWide, int cellsHigh) {
    int s = std::max(1, (kMinWidth + std::max(cellsWide, 1) - 1) / std::max(cellsWide, 1));
    while (s > 1 && std::max(cellsWide, cellsHigh) * s > kMaxDefaultSide) --s;
    return s;
}

Vec3 shown(Vec3 light, const World& world, bool engineLook) {
    return engineLook ? toDisplay(clampEngineLight(light, world.look), world.look) : light;
}

void setPixel(Image& image, int x, int y, Vec3 c) {
    float* p = image.at(x, y);
    p[0] = c.x, p[1] = c.y, p[2] = c.z;
}

nlohmann::ordered_json vec(Vec3 v) { return {v.x, v.y, v.z}; }

std::string csvVec(Vec3 v) { return fmt::format("{},{},{}", v.x, v.y, v.z); }

// --- Quake 3 ----------------------------------------------------------------------------------------------

// Pixel (i, j) of level k is grid point (i, j, k), +Y up (row 0 is the largest j), showing ambient +
// directed: what a surface facing the light receives.
size_t writeGridLevels(const World& world, const std::filesystem::path& dir, bool engineLook, int scaleOption) {
    const LightGrid& g = *world.grid;
    const int nx = g.dims[0], ny = g.dims[1], nz = g.dims[2];
    const int scale = scaleOption > 0 ? scaleOption : defaultScale(nx, ny);
    checkPictureSize(nx * scale, ny * scale);
    for (int k = 0; k < nz; ++k) {
        Image image(nx * scale, ny * scale, 3);
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
                const GridSample& s = g.samples[(size_t(k) * size_t(ny) + size_t(j)) * size_t(nx) + size_t(i)];
                const Vec3 c = shown(s.ambient + s.directed, world, engineLook);
                for (int y = 0; y < scale; ++y)
                    for (int x = 0; x < scale; ++x) setPixel(image, i * scale + x, (ny - 1 - j) * scale + y, c);
            }
        writeImage((dir / fmt::format("grid_z{:03d}.png", k)).string(), image);
    }
    return size_t(nz);
}

nlohmann::ordered_json gridJson(const World& world) {
    const LightGrid& g = *world.grid;
    nlohmann::ordered_json j;
    j["kind"] = "grid";
    j["origin"] = vec(g.origin);
    j["cellSize"] = vec(g.cellSize);
    j["dims"] = {g.dims[0], g.dims[1], g.dims[2]};
    auto& samples = j["samples"] = nlohmann::ordered_json::array();
    for (size_t i = 0; i < g.samples.size(); ++i) {
        const GridSample& s = g.samples[i];
        samples.push_back({{"index", i},
                           {"position", vec(gridPointPosition(g, i))},
                           {"ambient", vec(s.ambient)},
                           {"directed", vec(s.directed)},
                           {"direction", vec(s.direction)}});
    }
    return j;
}

std::string gridCsv(const World& world) {
    const LightGrid& g = *world.grid;
    std::string out = "index,x,y,z,ambient_r,ambient_g,ambient_b,directed_r,directed_g,directed_b,dir_x,dir_y,dir_z\n";
    for (size_t i = 0; i < g.samples.size(); ++i) {
        const GridSample& s = g.samples[i];
        out += fmt::format("{},{},{},{},{}\n", i, csvVec(gridPointPosition(g, i)), csvVec(s.ambient),
                           csvVec(s.directed), csvVec(s.direction));
    }
    return out;
}

// --- Source -----------------------------------------------------------------------------------------------

constexpr const char* kSideNames[6] = {"px", "nx", "py", "ny", "pz", "nz"};

// Owner leaf of each sample (World::leafAmbient), -1 for none.
std::vector<int32_t> sampleOwners(const World& world) {
    std::vector<int32_t> owner(world.ambientSamples.size(), -1);
    for (size_t i = 0; i < world.leafAmbient.size(); ++i) {
        const auto [first, count] = world.leafAmbient[i];
        for (size_t k = first; k < size_t(first) + count && k < owner.size(); ++k)
            if (owner[k] < 0) owner[k] = int32_t(i);
    }
    return owner;
}

// Top view of models[0]'s bounds, +Y up: each sample a small square, drawn lowest first so the highest
// sample over a spot is the one shown. Image 0 shows the mean of the six sides, images 1..6 one side each.
size_t writeCubeViews(const World& world, const std::filesystem::path& dir, bool engineLook, int scaleOption) {
    Bounds box;
    if (!world.models.empty()) {
        box.grow(world.models[0].mins);
        box.grow(world.models[0].maxs);
    }
    for (const AmbientSample& s : world.ambientSamples)
        if (isFinite(s.position)) box.grow(s.position);  // samples outside the model bounds still show
    const Vec3 size = box.size();
    const int cellsX = cellsAcross(size.x), cellsY = cellsAcross(size.y);
    const int scale = scaleOption > 0 ? scaleOption : defaultScale(cellsX, cellsY);
    const int width = cellsX * scale, height = cellsY * scale;
    checkPictureSize(width, height);
    const float pixelsPerUnit = float(scale) / kCubeCellUnits;
    const int half = std::max(1, scale / 2);  // splat: (2 half + 1) pixels square, about one cell

    std::vector<uint32_t> order(world.ambientSamples.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return world.ambientSamples[a].position.z < world.ambientSamples[b].position.z;
    });
    std::vector<Image> images(7, Image(width, height, 3));
    for (uint32_t k : order) {
        const AmbientSample& s = world.ambientSamples[k];
        if (!isFinite(s.position)) continue;
        const float fx = std::floor((s.position.x - box.mins.x) * pixelsPerUnit);
        const float fy = std::floor((s.position.y - box.mins.y) * pixelsPerUnit);
        if (!(fx >= float(-half) && fx < float(width + half) && fy >= float(-half) && fy < float(height + half)))
            continue;  // off the picture (only when the bounds were too large to draw whole)
        const int cx = int(fx), cy = height - 1 - int(fy);
        Vec3 mean;
        for (const Vec3& side : s.sides) mean += side;
        Vec3 colors[7];
        colors[0] = shown(mean * (1.0f / 6.0f), world, engineLook);
        for (size_t side = 0; side < 6; ++side) colors[side + 1] = shown(s.sides[side], world, engineLook);
        for (int y = std::max(0, cy - half); y <= std::min(height - 1, cy + half); ++y)
            for (int x = std::max(0, cx - half); x <= std::min(width - 1, cx + half); ++x)
                for (size_t v = 0; v < 7; ++v) setPixel(images[v], x, y, colors[v]);
    }
    writeImage((dir / "cubes_top.png").string(), images[0]);
    for (size_t side = 0; side < 6; ++side)
        writeImage((dir / fmt::format("cubes_side_{}.png", kSideNames[side])).string(), images[side + 1]);
    return 7;
}

nlohmann::ordered_json cubesJson(const World& world) {
    const std::vector<int32_t> owner = sampleOwners(world);
    nlohmann::ordered_json j;
    j["kind"] = "cubes";
    auto& samples = j["samples"] = nlohmann::ordered_json::array();
    for (size_t i = 0; i < world.ambientSamples.size(); ++i) {
        const AmbientSample& s = world.ambientSamples[i];
        auto sides = nlohmann::ordered_json::array();
        for (const Vec3& side : s.sides) sides.push_back(vec(side));
        samples.push_back({{"index", i}, {"leaf", owner[i]}, {"position", vec(s.position)}, {"sides", sides}});
    }
    return j;
}

std::string cubesCsv(const World& world) {
    const std::vector<int32_t> owner = sampleOwners(world);
    std::string out = "index,leaf,x,y,z";
    for (const char* side : kSideNames) out += fmt::format(",{0}_r,{0}_g,{0}_b", side);
    out += "\n";
    for (size_t i = 0; i < world.ambientSamples.size(); ++i) {
        const AmbientSample& s = world.ambientSamples[i];
        out += fmt::format("{},{},{}", i, owner[i], csvVec(s.position));
        for (const Vec3& side : s.sides) out += "," + csvVec(side);
        out += "\n";
    }
    return out;
}

int runGrid(const GridArgs& args) {
    MapSource source = args.map.open();
    World world = decodeMap(source, args.map.decodeOptions());
    const ProbeKind kind = probeKind(world);
    if (kind == ProbeKind::None) throw UsageError(source.displayName + " has no light grid or ambient cubes");
    namespace fs = std::filesystem;
    const fs::path dir(args.outputDir);
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw UsageError(dir.string() + ": cannot create directory: " + ec.message());
    const bool engineLook = args.look == "engine";
    const bool grid = kind == ProbeKind::Grid;
    const size_t images = grid ? writeGridLevels(world, dir, engineLook, args.scale)
                               : writeCubeViews(world, dir, engineLook, args.scale);
    if (!args.json.empty()) writeTextFile(args.json, (grid ? gridJson(world) : cubesJson(world)).dump() + "\n");
    if (!args.csv.empty()) writeTextFile(args.csv, grid ? gridCsv(world) : cubesCsv(world));
    if (grid)
        std::cout << fmt::format("{}: light grid {}x{}x{} ({} points), wrote {} images to {}\n", source.displayName,
                                 world.grid->dims[0], world.grid->dims[1], world.grid->dims[2],
                                 world.grid->samples.size(), images, args.outputDir);
    else
        std::cout << fmt::format("{}: {} ambient cube samples, wrote {} images to {}\n", source.displayName,
                                 world.ambientSamples.size(), images, args.outputDir);
    return 0;
}

}  // namespace

static void addGridOptions(CLI::App* sub, Action& action) {
    auto args = std::make_shared<GridArgs>();
    args->map.addTo(*sub);
    sub->add_option("-o,--output", args->outputDir, "output directory for the images")->required();
    sub->add_option("--json", args->json, "also write every sample (linear values) to this JSON file");
    sub->add_option("--csv", args->csv, "also write every sample (linear values) to this CSV file");
    sub->add_option("--look", args->look, "engine (the game's overbright and clamping) | linear (raw light)")
        ->capture_default_str()
        ->check(CLI::IsMember({"engine", "linear"}));
    sub->add_option("--scale", args->scale,
                    "pixels per grid cell (Quake 3) or per 32 units (Source); default: at least 256 pixels wide")
        ->check(CLI::Range(1, 64));
    sub->callback([args, &action] { action = [args] { return runGrid(*args); }; });
}

const Command kGridCommand{
    "grid",
    "Write a map's light grid (Quake 3) or ambient cubes (Source) as images, JSON or CSV",
    addGridOptions};

}  // namespace luxel::cli
