// `luxel bake MAP`: direct light from the map's own lights into its light grid or ambient cubes and its
// lightmaps with Embree shadow rays, compared with what the compiler stored; the baked lightmap pages written as images.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "bake_bounce.hpp"
#include "bake_relaid_out.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "lightmap_images.hpp"
#include "luxel/bake/compare.hpp"
#include "luxel/bake/direct_cubes.hpp"
#include "luxel/bake/direct_light.hpp"
#include "luxel/bsp/write_lightmaps.hpp"
#include "luxel/bsp/write_probes.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/light/map_lights.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/util/error.hpp"

namespace luxel::cli {
namespace {

struct BakeArgs {
    MapArgs map;
    std::string lights, output, report, write, compiler, emissiveQuality = "low";
    float pointScale = 1, areaScale = 1, skyScale = 1;
    BounceArgs bounce;
    bool relayout = false, lit = false, bspxLit = false, bspxLux = false;
    std::optional<int> lmShift;
    std::optional<float> worldUnitsPerLuxel;
    bool noVanilla = false;
};

// One line naming the lights whose style no surface has a slot for (they light nothing), or "".
std::string unslottedStyles(const World& world, const std::vector<Light>& lights) {
    std::array<bool, 256> slotted{}, unslotted{};
    for (const Surface& s : world.surfaces)
        for (uint8_t st : s.styles) slotted[st] = true;
    size_t count = 0;
    for (const Light& l : lights)
        if (!slotted[l.style]) unslotted[l.style] = true, ++count;
    std::string styles;
    for (size_t st = 0; st < 256; ++st)
        if (unslotted[st]) styles += (styles.empty() ? "" : " ") + std::to_string(st);
    return count == 0 ? "" : fmt::format("{} lights of styles no surface has a lightmap slot for ({}) light nothing", count, styles);
}

int runBake(const BakeArgs& args) {
    const double t0 = nowMs();
    MapSource source = args.map.open();
    World world = decodeMap(source, args.map.decodeOptions());
    // A Quake 2 map without light gets the layout a light tool makes (as one asked to, with --relayout); a Quake 1
    // or Half-Life map always does, as ericw-tools' light lays every map out anew.
    const bool quake1 = world.format == MapFormat::Quake1 || world.format == MapFormat::HalfLife;
    const bool unlit = std::none_of(world.surfaces.begin(), world.surfaces.end(), [](const Surface& s) { return s.lightmapPage >= 0; });
    if (args.relayout || quake1 || (world.format == MapFormat::Quake2 && unlit)) {
        if (unlit) std::cerr << "luxel: note: the map has no light: its lightmaps are laid out as ericw-tools' light lays them out\n";
        else std::cerr << "luxel: note: the stored lightmaps are laid out anew, as ericw-tools' light does (the stored light is not read)\n";
        std::optional<Q2LightCompiler> compiler;
        if (args.compiler == "qrad3") compiler = Q2LightCompiler::Qrad3;
        if (args.compiler == "ericw") compiler = Q2LightCompiler::Ericw;
        return bakeRelaidOut(args.map, args.bounce,
                             {args.write, args.report, args.output, args.lit, args.bspxLit, args.bspxLux, args.lmShift,
                              args.worldUnitsPerLuxel, !args.noVanilla},
                             compiler);
    }
    if (args.lit || args.bspxLit || args.bspxLux || args.lmShift || args.worldUnitsPerLuxel || args.noVanilla)
        throw UsageError("--lit, --bspxlit, --bspxlux, --lmshift, --world-units-per-luxel and --novanilla write a map laid out anew "
                         "(--relayout or a map without light)");
    Geometry geometry = tessellate(world);
    const double tLoaded = nowMs();
    MapLightOptions lightOptions;
    lightOptions.lightsFile = args.lights;
    lightOptions.materials = args.map.materialOptions();
    if (args.compiler == "qrad3") lightOptions.quake2Compiler = Q2LightCompiler::Qrad3;
    if (args.compiler == "ericw") lightOptions.quake2Compiler = Q2LightCompiler::Ericw;
    lightOptions.pointScale = args.pointScale, lightOptions.areaScale = args.areaScale, lightOptions.skyScale = args.skyScale;
    // The shadow rays' materials (surfaces that cast no shadow, alpha-shadow textures: SurfaceLook::shadow), and
    // Quake 2's texture colours for surface lights and bounce.
    const MaterialSet materials = loadMaterials(world, source, args.map.materialOptions());
    const double tTextures = nowMs();
    lightOptions.loaded = &materials;
    lightOptions.emissiveHigh = args.emissiveQuality == "high";
    const MapLights lights = mapLights(world, source, lightOptions);
    for (const std::string& note : lights.notes) std::cerr << "luxel: note: " << note << "\n";
    if (const std::string note = unslottedStyles(world, lights.lights); !note.empty()) std::cerr << "luxel: note: " << note << "\n";
    const double tLights = nowMs(), loadMs = tLights - t0;
    const RayScene scene(world, geometry, &materials, &lights.castsNoShadow);
    const double tScene = nowMs();
    const int threads = workerThreads();

    DirectBakeStats stats;
    nlohmann::json report;
    report["map"] = source.displayName;
    report["threads"] = threads;
    report["lights"] = lights.lights.size();
    std::cout << fmt::format("{}: {} lights; load {:.1f} ms, scene {} triangles + {} of brushes in {:.1f} ms, {} threads\n",
                             source.displayName, lights.lights.size(), loadMs, scene.triangleCount(),
                             scene.blockerTriangleCount(), scene.buildMs(), threads);
    std::optional<ProbeValues> bakedProbes;
    if (world.grid && lights.rules.combine) {
        const ProbeValues& grid = bakedProbes.emplace( bakeGridDirect(world, geometry, scene, lights.lights, lights.rules, stats));
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
    if (probeKind(world) == ProbeKind::Cubes && lights.rules.cubeCombine) {
        // The direct part of the cubes; the stored ones also hold bounce (vrad always bounces), so baked may
        // fall short of stored, and `brighter` counts the sides where it does not.
        const ProbeValues& cubes = bakedProbes.emplace(bakeCubesDirect(world, geometry, scene, lights.lights, lights.rules, stats));
        const ProbeComparison c = compareProbes(storedProbes(world), cubes, {});
        std::cout << fmt::format(
            "cubes (direct part): {} samples in {:.1f} ms; vs stored: relative luminance error median {:.1f}%, p90 "
            "{:.1f}%; mean luminance {:.4f} -> {:.4f}; {} of {} sides brighter than stored by over {:.0f}%\n",
            stats.gridPoints, stats.gridMs, 100 * c.medianRelative, 100 * c.p90Relative, c.meanReference,
            c.meanCompared, c.brighter, c.values, 100 * kBrighterRelative);
        report["cubes"] = toJson(c);
        report["cubes"]["ms"] = stats.gridMs;
    }
    const uint64_t gridRays = stats.shadowRays;
    // Measured once for the direct light and every bounce pass; the lightmap figure counts it.
    const double tSamples = nowMs();
    const LuxelSamples samples = luxelSamples(world, geometry, scene, lights.rules);
    const double samplesMs = nowMs() - tSamples;
    LightmapSet baked = bakeLightmapsDirect(world, geometry, scene, lights.lights, lights.rules, stats, &samples);
    stats.lightmapMs += samplesMs;
    const uint64_t lightmapRays = stats.shadowRays - gridRays;
    std::cout << fmt::format("lightmaps: {} luxels in {:.1f} ms ({:.2f} M luxels/s, {:.2f} M shadow rays/s)\n", stats.luxels,
                             stats.lightmapMs, stats.lightmapMs > 0 ? double(stats.luxels) / stats.lightmapMs / 1e3 : 0.0,
                             stats.lightmapMs > 0 ? double(lightmapRays) / stats.lightmapMs / 1e3 : 0.0);
    // Each style slot against the stored one, over the luxels of the surfaces that use it.
    for (size_t k = 0; k < 4; ++k) {
        const std::vector<LightmapPage>& stored = k == 0 ? world.lightmaps : world.extraLightmapSlots[k - 1];
        if (stored.empty() || baked.slots[k].size() != stored.size()) continue;
        // Floors left for after bounce (ericw-tools' minlight) and its clamp count in the direct figures too.
        std::vector<LightmapPage> pages = baked.slots[k];
        if (lights.faceBounce) finishAsEricwStores(pages, baked, k);
        const LightmapComparison lc = compareLightmapPages(world, geometry, stored, pages, k);
        std::cout << fmt::format(
            "  slot {}: vs stored: relative luminance error median {:.1f}%, p90 {:.1f}% over {} lit luxels (of {}); "
            "mean luminance {:.4f} -> {:.4f}; {} luxels brighter than stored by over {:.0f}%\n",
            k, 100 * lc.medianRelative, 100 * lc.p90Relative, lc.compared, lc.luxels, lc.meanReference, lc.meanCompared,
            lc.brighter, 100 * kBrighterRelative);
        nlohmann::json j = toJson(lc);
        j["slot"] = k;
        if (k == 0) {
            report["lightmaps"] = j;
            report["lightmaps"]["ms"] = stats.lightmapMs;
        }
        report["lightmap_slots"].push_back(j);
    }
    report["shadow_rays"] = {{"probes", gridRays}, {"lightmaps", lightmapRays}, {"blocked", stats.blocked}};
    const double tDirect = nowMs();
    if (lights.faceBounce) {
        report["bounce"] = bakeFaceBounce(args.bounce, world, geometry, scene, baked, lights, samples);
    } else {
        report["bounce"] = bakeBounce(args.bounce, args.map, world, materials, geometry, scene, baked.slots[0], bakedProbes);
    }
    const double tBounce = nowMs();
    if (!args.output.empty()) {
        const LightmapImages written = writeLightmapImages(world, baked, args.output, ".png", true);
        std::cout << fmt::format("wrote {} baked lightmap pages ({} style{}) to {}\n", written.pages, written.styles,
                                 written.styles == 1 ? "" : "s", args.output);
    }
    if (!args.write.empty()) {
        // Lightmaps then grid or cubes, each lump rewritten in a copy of the map; external lightmaps beside it.
        const LightmapFiles files = writeLightmaps(source, world, baked);
        MapSource copy = source;
        copy.bytes = files.map;
        if (bakedProbes) copy.bytes = writeProbes(copy, world, *bakedProbes);
        writeFileAtomic(args.write, copy.bytes);
        writeExternalLightmaps(args.write, files);
        std::cout << "wrote " << args.write;
        if (!files.images.empty()) std::cout << fmt::format(" and {} lightmap images beside it", files.images.size());
        std::cout << "\n";
    }
    // Where the command's time went, from the map's opening to the files written (the process start before it
    // is `luxel --version`'s time): direct holds the grid or cubes, the lightmaps and their comparisons.
    const double tEnd = nowMs();
    report["time_ms"] = {{"load", tLoaded - t0},       {"textures", tTextures - tLoaded}, {"lights", tLights - tTextures},
                         {"scene", tScene - tLights},  {"direct", tDirect - tScene},     {"bounce", tBounce - tDirect},
                         {"write", tEnd - tBounce},    {"total", tEnd - t0}};
    if (!args.report.empty()) writeTextFile(args.report, report.dump(2) + "\n");
    return 0;
}

}  // namespace

static void addBakeOptions(CLI::App* sub, Action& action) {
    auto args = std::make_shared<BakeArgs>();
    args->map.addTo(*sub);
    sub->add_option("--lights", args->lights, "Quake 3: the map's .map source, for the light entities the compile removed");
    sub->add_option("-o,--output", args->output,
                    "folder for the baked lightmap pages (lm_NNNN.png; maps with light styles: style_NNN/ folders)");
    sub->add_option("--json", args->report, "write the figures as JSON");
    sub->add_option("--compiler", args->compiler,
                    "Quake 2: read the light entities as this compiler does (default: ericw when an entity has a key "
                    "only ericw-tools reads, else qrad3)")
        ->check(CLI::IsMember({"qrad3", "ericw"}));
    sub->add_option("--write", args->write,
                    "write a copy of the map holding the baked lightmaps and grid or ambient cubes (every other byte "
                    "kept; external lightmaps as OUT/lm_NNNN.tga beside OUT.bsp)");
    sub->add_option("--pointscale", args->pointScale, "Quake 3: q3map2's -pointscale (point and spot light entities)")
        ->check(CLI::PositiveNumber);
    sub->add_option("--areascale", args->areaScale, "Quake 3: q3map2's -areascale (shader surface lights)")
        ->check(CLI::PositiveNumber);
    sub->add_option("--skyscale", args->skyScale, "Quake 3: q3map2's -skyscale (suns and sky light)")->check(CLI::PositiveNumber);
    sub->add_option("--emissive-quality", args->emissiveQuality,
                    "Quake 2 with ericw-tools: its -emissivequality: low (one light point a SURF_LIGHT face, its default) "
                    "or high (faces diced by the worldspawn's _surflightsubdivision, 16)")
        ->check(CLI::IsMember({"low", "high"}));
    sub->add_flag("--relayout", args->relayout,
                  "Quake 2: lay the lightmaps out anew as ericw-tools' light does (every face's extents at 16 units a "
                  "luxel, styles from the lights that reach it) instead of filling the stored layout; automatic for a "
                  "map without light, and always for Quake 1 and Half-Life maps");
    sub->add_flag("--lit", args->lit, "with a new layout: also write the coloured light as OUT.lit beside --write (light -lit)");
    sub->add_flag("--bspxlit", args->bspxLit,
                  "with a new layout: also write the coloured light as BSPX RGBLIGHTING inside --write (light -bspxlit)");
    sub->add_flag("--bspxlux", args->bspxLux,
                  "with a new layout: also write each luxel's light direction as BSPX LIGHTINGDIR inside --write (light -bspxlux)");
    sub->add_option("--lmshift", args->lmShift,
                    "Quake 1: lay every face out at 2^N units a luxel (light -lmshift N) and write that as a BSPX LMSHIFT lump")
        ->check(CLI::Range(0, 10));
    sub->add_option("--world-units-per-luxel", args->worldUnitsPerLuxel,
                    "Quake 1: lay every face out in world space, N units a luxel (light -world_units_per_luxel N), written as a "
                    "BSPX DECOUPLED_LM lump beside a copy at 16 units a luxel for engines without it")
        ->check(CLI::Range(0.001, 1024.0))
        ->excludes("--lmshift");
    sub->add_flag("--novanilla", args->noVanilla,
                  "with --world-units-per-luxel: no copy at 16 units a luxel; the faces' lightofs are -1 (light -novanilla)")
        ->needs("--world-units-per-luxel");
    addBounceOptions(*sub, args->bounce);
    sub->callback([args, &action] { action = [args] { return runBake(*args); }; });
}

const Command kBakeCommand{
    "bake",
    "Bake direct light from the map's own lights into its light grid and lightmaps, and compare with the "
    "stored light",
    addBakeOptions};

}  // namespace luxel::cli
