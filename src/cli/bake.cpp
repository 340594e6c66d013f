// `luxel bake MAP`: direct light from the map's own lights into its light grid and lightmaps with Embree
// shadow rays, compared with what the compiler stored; the baked lightmap pages written as images.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "common.hpp"
#include "luxel/bake/compare.hpp"
#include "luxel/bake/direct_light.hpp"
#include "luxel/bsp/write_probes.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/image/image.hpp"
#include "luxel/light/map_lights.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/render/look.hpp"
#include "luxel/util/error.hpp"

namespace luxel::cli {
namespace {

struct BakeArgs {
    MapArgs map;
    std::string lights, output, report, write;
};

void writePage(const LightmapPage& page, const World& world, const std::string& path) {
    Image image(page.width, page.height, 3);
    for (size_t t = 0; t < size_t(page.width) * size_t(page.height); ++t) {
        const Vec3 c = toDisplay(clampLightHue({page.rgb[t * 3], page.rgb[t * 3 + 1], page.rgb[t * 3 + 2]}, world.look), world.look);
        image.pixels[t * 3] = c.x, image.pixels[t * 3 + 1] = c.y, image.pixels[t * 3 + 2] = c.z;
    }
    writeImage(path, image);
}

int runBake(const BakeArgs& args) {
    const double t0 = nowMs();
    MapSource source = args.map.open();
    World world = decodeMap(source, args.map.decodeOptions());
    Geometry geometry = tessellate(world);
    MapLightOptions lightOptions;
    lightOptions.lightsFile = args.lights;
    lightOptions.materials = args.map.materialOptions();
    const MapLights lights = mapLights(world, source, lightOptions);
    for (const std::string& note : lights.notes) std::cerr << "luxel: note: " << note << "\n";
    // The shadow rays' materials: surfaces that cast no shadow, alpha-shadow textures (SurfaceLook::shadow).
    const MaterialSet materials = loadMaterials(world, source, args.map.materialOptions());
    const double loadMs = nowMs() - t0;
    const RayScene scene(world, geometry, &materials);
    const int threads = workerThreads();

    DirectBakeStats stats;
    nlohmann::json report;
    report["map"] = source.displayName;
    report["threads"] = threads;
    report["lights"] = lights.lights.size();
    std::cout << fmt::format("{}: {} lights; load {:.1f} ms, scene {} triangles + {} of brushes in {:.1f} ms, {} threads\n",
                             source.displayName, lights.lights.size(), loadMs, scene.triangleCount(),
                             scene.blockerTriangleCount(), scene.buildMs(), threads);
    std::optional<ProbeValues> bakedGrid;
    if (world.grid && lights.rules.combine) {
        const ProbeValues& grid = bakedGrid.emplace( bakeGridDirect(world, geometry, scene, lights.lights, lights.rules, stats));
        const ProbeValues stored = storedProbes(world);
        std::vector<bool> use(stored.size(), true);
        for (size_t i = 0; i < use.size(); ++i) {
            const Vec3 a = stored.grid[i].ambient;
            use[i] = !(a.x == 0 && a.y == 0 && a.z == 0);  // q3map2 leaves points in walls at zero
        }
        const ProbeComparison c = compareProbes(stored, grid, use);
        std::cout << fmt::format(
            "grid: {} points ({} moved out of walls, {} in walls) in {:.1f} ms; vs stored: relative luminance error "
            "median {:.1f}%, p90 {:.1f}%; direction error median {:.1f} deg; mean luminance {:.4f} -> {:.4f}\n",
            stats.gridPoints, stats.nudged, stats.solid, stats.gridMs, 100 * c.medianRelative, 100 * c.p90Relative,
            c.medianDirectionDeg, c.meanReference, c.meanCompared);
        report["grid"] = toJson(c);
        report["grid"]["ms"] = stats.gridMs;
    }
    const uint64_t gridRays = stats.shadowRays;
    const std::vector<LightmapPage> pages = bakeLightmapsDirect(world, geometry, scene, lights.lights, lights.rules, stats);
    const LightmapComparison lc = compareLightmapPages(world, geometry, world.lightmaps, pages);
    const uint64_t lightmapRays = stats.shadowRays - gridRays;
    std::cout << fmt::format(
        "lightmaps: {} luxels in {:.1f} ms ({:.2f} M luxels/s, {:.2f} M shadow rays/s); vs stored: relative luminance "
        "error median {:.1f}%, p90 {:.1f}% over {} lit luxels; mean luminance {:.4f} -> {:.4f}\n",
        stats.luxels, stats.lightmapMs, stats.lightmapMs > 0 ? double(stats.luxels) / stats.lightmapMs / 1e3 : 0.0,
        stats.lightmapMs > 0 ? double(lightmapRays) / stats.lightmapMs / 1e3 : 0.0, 100 * lc.medianRelative,
        100 * lc.p90Relative, lc.compared, lc.meanReference, lc.meanCompared);
    report["lightmaps"] = toJson(lc);
    report["lightmaps"]["ms"] = stats.lightmapMs;
    report["shadow_rays"] = {{"grid", gridRays}, {"lightmaps", lightmapRays}, {"blocked", stats.blocked}};
    if (!args.output.empty()) {
        std::filesystem::create_directories(args.output);
        for (size_t i = 0; i < pages.size(); ++i) writePage(pages[i], world, fmt::format("{}/lm_{:04d}.png", args.output, i));
        std::cout << fmt::format("wrote {} baked lightmap pages to {}\n", pages.size(), args.output);
    }
    if (!args.write.empty()) {
        // Lightmaps then grid, each lump rewritten in place in a copy of the map.
        MapSource copy = source;
        copy.bytes = writeLightmaps(source, world, pages);
        if (bakedGrid) copy.bytes = writeProbes(copy, world, *bakedGrid);
        writeFileAtomic(args.write, copy.bytes);
        std::cout << "wrote " << args.write << "\n";
    }
    if (!args.report.empty()) writeTextFile(args.report, report.dump(2) + "\n");
    return 0;
}

}  // namespace

void addBakeCommand(CLI::App& app, Action& action) {
    auto args = std::make_shared<BakeArgs>();
    CLI::App* sub = app.add_subcommand(
        "bake", "Bake direct light from the map's own lights into its light grid and lightmaps, and compare with the stored light");
    args->map.addTo(*sub);
    sub->add_option("--lights", args->lights, "Quake 3: the map's .map source, for the light entities the compile removed");
    sub->add_option("-o,--output", args->output, "folder for the baked lightmap pages (lm_NNNN.png)");
    sub->add_option("--json", args->report, "write the figures as JSON");
    sub->add_option("--write", args->write, "write a copy of the map holding the baked lightmaps and grid (every other byte kept)");
    sub->callback([args, &action] { action = [args] { return runBake(*args); }; });
}

}  // namespace luxel::cli
