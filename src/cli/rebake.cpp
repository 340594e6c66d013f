// `luxel rebake MAP`: recompute the light grid / ambient cubes from the map's lit geometry with Embree
// rays, compare with what the compiler stored, optionally write a copy of the map holding the new values.
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "common.hpp"
#include "luxel/bake/compare.hpp"
#include "luxel/bake/rebake.hpp"
#include "luxel/bsp/write_probes.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/util/error.hpp"

namespace luxel::cli {
namespace {

struct RebakeArgs {
    MapArgs map;
    int rays = 256;
    uint64_t seed = 1;
    std::vector<float> sky;
    std::vector<int> compareRays;
    std::string write, report;
};

// Stored values are compared where the compiler stored light: Quake 3 grid points it left at zero are
// in walls (q3map2 found no free spot), and points luxel could not free are not rebaked at all.
std::vector<bool> comparedPoints(const ProbeValues& stored, const RebakeResult& r) {
    std::vector<bool> use(stored.size(), true);
    if (stored.kind != ProbeKind::Grid) return use;
    for (size_t i = 0; i < use.size(); ++i) {
        const Vec3 a = stored.grid[i].ambient;
        use[i] = r.status[i] != ProbeStatus::Solid && !(a.x == 0 && a.y == 0 && a.z == 0);
    }
    return use;
}

std::string comparisonLine(const char* label, const ProbeComparison& c) {
    std::string line;
    if (c.kind == ProbeKind::Grid)
        line = fmt::format("{}: {} points; RMSE ambient ({:.4f} {:.4f} {:.4f}), directed ({:.4f} {:.4f} {:.4f})", label,
                           c.points, c.rmseAmbient[0], c.rmseAmbient[1], c.rmseAmbient[2], c.rmseDirected[0],
                           c.rmseDirected[1], c.rmseDirected[2]);
    else
        line = fmt::format("{}: {} points; RMSE ({:.4f} {:.4f} {:.4f})", label, c.points, c.rmseAmbient[0],
                           c.rmseAmbient[1], c.rmseAmbient[2]);
    line += fmt::format("; relative luminance error median {:.1f}%, p90 {:.1f}% ({} values, {} dark)",
                        100 * c.medianRelative, 100 * c.p90Relative, c.relativeCount, c.dark);
    if (c.kind == ProbeKind::Grid)
        line += fmt::format("; direction error median {:.1f} deg, p90 {:.1f} deg ({} points)", c.medianDirectionDeg,
                            c.p90DirectionDeg, c.directionCount);
    line += fmt::format("; mean luminance {:.4f} -> {:.4f}", c.meanReference, c.meanCompared);
    return line;
}

int runRebake(const RebakeArgs& args) {
    RebakeOptions options;
    options.rays = args.rays;
    options.seed = args.seed;
    if (!args.sky.empty()) options.sky = Vec3{args.sky[0], args.sky[1], args.sky[2]};

    const double t0 = nowMs();
    MapSource source = args.map.open();
    World world = decodeMap(source, args.map.decodeOptions());
    Geometry geometry = tessellate(world);
    const double loadMs = nowMs() - t0;
    const ProbeValues stored = storedProbes(world);
    if (stored.kind == ProbeKind::None) throw UsageError(source.displayName + ": the map has no light grid or ambient cubes");

    // With game directories, Quake 2 / 3 surfaces bounce their textures' mean colour.
    std::optional<MaterialSet> materials;
    if (!args.map.gameDirs.empty() && world.format != MapFormat::Source) {
        materials = loadMaterials(world, source, args.map.materialOptions());
        if (const std::string line = missingSummary(*materials); !line.empty())
            std::cerr << "luxel: warning: " << line << "\n";
        options.materials = &*materials;
    }
    RayScene scene(world, geometry);
    RebakeResult result = rebakeProbes(world, geometry, scene, options);
    const RebakeStats& st = result.stats;
    const int threads = workerThreads();
    const double raysPerSecond = st.bakeMs > 0 ? double(st.rays) / (st.bakeMs / 1000.0) : 0;
    const ProbeComparison vsStored = compareProbes(stored, result.values, comparedPoints(stored, result));

    std::cout << fmt::format("{}: {} {} points: {} baked, {} nudged out of walls, {} in walls (kept as stored)\n",
                             source.displayName, stored.kind == ProbeKind::Grid ? "light grid" : "ambient cube",
                             st.points, st.baked, st.nudged, st.solid);
    std::cout << fmt::format(
        "load {:.1f} ms; scene {} triangles built in {:.1f} ms; {} rays a point, {} rays in {:.1f} ms = {:.2f} M rays/s "
        "on {} threads; {:.1f}% hit surfaces, {:.1f}% sky, {:.1f}% backs; sky light ({:.4g} {:.4g} {:.4g})\n",
        loadMs, scene.triangleCount(), scene.buildMs(), options.rays, st.rays, st.bakeMs, raysPerSecond / 1e6, threads,
        st.rays ? 100.0 * double(st.hits) / double(st.rays) : 0.0,
        st.rays ? 100.0 * double(st.skyHits) / double(st.rays) : 0.0,
        st.rays ? 100.0 * double(st.backHits) / double(st.rays) : 0.0, result.sky.x, result.sky.y, result.sky.z);
    std::cout << comparisonLine("rebaked vs stored", vsStored) << "\n";

    nlohmann::json report;
    report["map"] = source.displayName;
    report["kind"] = stored.kind == ProbeKind::Grid ? "grid" : "cubes";
    report["rays"] = options.rays;
    report["seed"] = options.seed;
    report["sky"] = {result.sky.x, result.sky.y, result.sky.z};
    report["threads"] = threads;
    report["points"] = {{"total", st.points}, {"baked", st.baked}, {"nudged", st.nudged}, {"solid", st.solid}};
    report["timing_ms"] = {{"load", loadMs}, {"scene", scene.buildMs()}, {"bake", st.bakeMs}};
    report["scene_triangles"] = scene.triangleCount();
    report["total_rays"] = st.rays;
    report["rays_per_second"] = raysPerSecond;
    report["hit_fraction"] = {{"surface", st.rays ? double(st.hits) / double(st.rays) : 0.0},
                              {"sky", st.rays ? double(st.skyHits) / double(st.rays) : 0.0},
                              {"back", st.rays ? double(st.backHits) / double(st.rays) : 0.0}};
    report["vs_stored"] = toJson(vsStored);

    // Sampling error of cheaper settings, measured against this run's result as the reference.
    if (!args.compareRays.empty()) {
        std::vector<bool> use(stored.size());
        for (size_t i = 0; i < use.size(); ++i) use[i] = result.status[i] != ProbeStatus::Solid;
        report["vs_reference"] = nlohmann::json::array();
        for (size_t k = 0; k < args.compareRays.size(); ++k) {
            RebakeOptions cheap = options;
            cheap.rays = args.compareRays[k];
            cheap.seed = options.seed + 1 + k;  // independent directions: the figure is the sampling error
            const RebakeResult other = rebakeProbes(world, geometry, scene, cheap);
            const ProbeComparison c = compareProbes(result.values, other.values, use);
            std::cout << comparisonLine(fmt::format("{} rays vs {} rays", cheap.rays, options.rays).c_str(), c) << "\n";
            nlohmann::json j = toJson(c);
            j["rays"] = cheap.rays;
            j["reference_rays"] = options.rays;
            j["bake_ms"] = other.stats.bakeMs;
            report["vs_reference"].push_back(j);
        }
    }

    if (!args.write.empty()) {
        writeFileAtomic(args.write, writeProbes(source, world, result.values));
        std::cout << "wrote " << args.write << "\n";
    }
    if (!args.report.empty()) writeTextFile(args.report, report.dump(2) + "\n");
    return 0;
}

}  // namespace

static void addRebakeOptions(CLI::App* sub, Action& action) {
    auto args = std::make_shared<RebakeArgs>();
    args->map.addTo(*sub);
    sub->add_option("--rays", args->rays, "rays per probe point")->capture_default_str()->check(CLI::Range(1, 1 << 20));
    sub->add_option("--seed", args->seed, "seed of the ray directions' jitter")->capture_default_str();
    sub->add_option("--sky", args->sky, "linear light of rays that reach the sky, R G B (default: from the map, else 0)")
        ->expected(3);
    sub->add_option("--compare-rays", args->compareRays,
                    "also rebake with each of these ray counts (other seeds) and report its error against this run's "
                    "result, to choose --rays (give this run many rays)")
        ->delimiter(',')
        ->check(CLI::Range(1, 1 << 20));
    sub->add_option("--write", args->write, "write a copy of the map whose grid / cube lumps hold the rebaked values");
    sub->add_option("--report", args->report, "write the figures as JSON");
    sub->callback([args, &action] { action = [args] { return runRebake(*args); }; });
}

const Command kRebakeCommand{
    "rebake",
    "Recompute the light grid / ambient cubes from the lit geometry with rays and compare with the stored "
    "values",
    addRebakeOptions};

}  // namespace luxel::cli
