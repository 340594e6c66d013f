// The bounce step of `luxel bake` (see bake_bounce.hpp).
#include "bake_bounce.hpp"

#include <fmt/format.h>

#include <iostream>
#include <string>

#include "luxel/bake/bounce.hpp"
#include "luxel/bake/compare.hpp"
#include "luxel/bake/face_bounce.hpp"

namespace luxel::cli {

void addBounceOptions(CLI::App& bake, BounceArgs& args) {
    bake.add_option("--bounce", args.bounces,
                    "bounces of the baked direct light (never the stored light) into the lightmaps; default: what the "
                    "map's compiler does: Quake 3 0 (q3map2 bounces only with -bounce N, and then not into the grid), "
                    "Source 100 stopping once a bounce adds under 0.1% (vrad's numbounce 100; its ambient cubes gather "
                    "the bounced light), Quake 2 8 (qrad3's numbounce), or with --compiler ericw 1 (scale 0.85, "
                    "colour scale 0.5)")
        ->check(CLI::Range(0, 1000));
    bake.add_option("--bounce-rays", args.rays, "hemisphere rays per luxel and bounce (default 64)")->check(CLI::Range(1, 65536));
    bake.add_flag("--bounce-probes", args.probes,
                  "Quake 3: bounce into the light grid too (q3map2 -bouncegrid); Source cubes always get it");
}

nlohmann::json bakeBounce(const BounceArgs& args, const MapArgs& map, const World& world, const MaterialSet& materials,
                          const Geometry& geometry, const RayScene& scene, std::vector<LightmapPage>& pages,
                          std::optional<ProbeValues>& probes) {
    const CompilerBounce compiler = compilerBounce(world);
    BounceOptions options;
    options.bounces = args.bounces.value_or(compiler.bounces);
    options.rays = args.rays;
    options.scale = compiler.scale;
    options.formFactorCutoff = compiler.formFactorCutoff;
    options.pieceSize = compiler.pieceSize;
    if (options.bounces == 0) return nullptr;
    // With game directories, Quake 2 / 3 surfaces bounce their textures' mean colour (as luxel rebake does).
    if (!map.gameDirs.empty() && world.format != MapFormat::Source) {
        options.materials = &materials;
    } else if (world.format != MapFormat::Source) {
        std::cerr << "luxel: note: no textures (give --game-dir): every surface bounces its light with albedo 1, more "
                     "than any compiler would\n";
    }
    const BouncedLight light = bounceLightmaps(world, geometry, scene, pages, options);
    const BounceStats& st = light.stats;
    pages = light.total;
    nlohmann::json report;
    report["bounces"] = st.meanLuminance.size();
    report["asked"] = options.bounces;
    report["compiler"] = compiler.compiler;
    report["scale"] = options.scale;
    report["rays_per_luxel"] = options.rays;
    report["luxels"] = st.luxels;
    report["rays"] = st.rays;
    report["ms"] = st.lightmapMs;
    report["mean_luminance"] = st.meanLuminance;
    std::string means;
    for (double m : st.meanLuminance) means += fmt::format("{}{:.4f}", means.empty() ? "" : " ", m);
    std::cout << fmt::format(
        "bounce: {} of {} bounces ({} rays a luxel, scale {:.4f}, as {}): {} luxels in {:.1f} ms ({:.3f} M luxel "
        "bounces/s, {:.2f} M rays/s); mean luminance of each bounce {}\n",
        st.meanLuminance.size(), options.bounces, options.rays, options.scale, compiler.compiler, st.luxels,
        st.lightmapMs, st.lightmapMs > 0 ? double(st.luxels * st.meanLuminance.size()) / st.lightmapMs / 1e3 : 0.0,
        st.lightmapMs > 0 ? double(st.rays) / st.lightmapMs / 1e3 : 0.0, means);
    const LightmapComparison lc = compareLightmapPages(world, geometry, world.lightmaps, pages);
    std::cout << fmt::format(
        "lightmaps with bounce vs stored: relative luminance error median {:.1f}%, p90 {:.1f}% over {} lit luxels; "
        "mean luminance {:.4f} -> {:.4f}\n",
        100 * lc.medianRelative, 100 * lc.p90Relative, lc.compared, lc.meanReference, lc.meanCompared);
    report["lightmaps"] = toJson(lc);

    const ProbeValues stored = storedProbes(world);
    const bool cubes = stored.kind == ProbeKind::Cubes;
    if ((cubes && compiler.probes) || (probes && stored.kind == ProbeKind::Grid && (compiler.probes || args.probes))) {
        BounceStats probeStats;
        const ProbeValues baked = bounceProbes(world, geometry, scene, probes ? *probes : ProbeValues{}, light, options, probeStats);
        std::vector<bool> use(stored.size(), true);
        if (!cubes)
            for (size_t i = 0; i < use.size(); ++i) use[i] = !(stored.grid[i].ambient == Vec3{});  // q3map2's points in walls
        const ProbeComparison c = compareProbes(stored, baked, use);
        std::cout << fmt::format(
            "{} with bounce: {} points in {:.1f} ms ({:.2f} M rays/s); vs stored: relative luminance error median {:.1f}%, "
            "p90 {:.1f}%{}; mean luminance {:.4f} -> {:.4f}\n",
            probeKindName(stored.kind), stored.size(), probeStats.probeMs,
            probeStats.probeMs > 0 ? double(probeStats.probeRays) / probeStats.probeMs / 1e3 : 0.0, 100 * c.medianRelative,
            100 * c.p90Relative, cubes ? "" : fmt::format("; direction error median {:.1f} deg", c.medianDirectionDeg),
            c.meanReference, c.meanCompared);
        report["probes"] = toJson(c);
        report["probes"]["ms"] = probeStats.probeMs;
        probes = baked;
    } else if (probes) {
        std::cout << "grid: no bounce (q3map2 bounces into the grid only with -bouncegrid: --bounce-probes)\n";
    }
    return report;
}

void finishAsEricwStores(std::vector<LightmapPage>& pages, const LightmapSet& baked, size_t slot) {
    if (slot == 0 && !baked.floor.empty()) raiseToFloor(pages, baked.floor);
    fillHoles(pages, baked.holes);
    clampKeepingHue(pages, 1.0f);  // as ericw-tools and the byte writer clamp: the figures match the bytes
}

nlohmann::json bakeFaceBounce(const BounceArgs& args, const World& world, const Geometry& geometry, const RayScene& scene,
                              LightmapSet& baked, const MapLights& lights, const LuxelSamples& samples) {
    FaceBounceModel model = *lights.faceBounce;
    model.bounces = args.bounces.value_or(model.bounces);
    nlohmann::json report;
    if (model.bounces > 0) {
        const FaceBounceStats st = bounceFaces(world, geometry, scene, baked, lights.rules, model, &samples);
        std::string means;
        for (double m : st.meanLuminance) means += fmt::format("{}{:.4f}", means.empty() ? "" : " ", m);
        const double luxelBounces = double(st.luxels) * double(st.meanLuminance.size());
        std::cout << fmt::format(
            "bounce: {} of {} bounces as ericw-tools (a light per face and style: {} lights, scale {:.3f}): {} luxels in "
            "{:.1f} ms ({:.3f} M luxel bounces/s, {:.2f} M shadow rays/s); mean luminance of each bounce {}\n",
            st.meanLuminance.size(), model.bounces, st.lights, model.scale, st.luxels, st.ms,
            st.ms > 0 ? luxelBounces / st.ms / 1e3 : 0.0, st.ms > 0 ? double(st.shadowRays) / st.ms / 1e3 : 0.0, means);
        report["bounces"] = st.meanLuminance.size();
        report["asked"] = model.bounces;
        report["compiler"] = "ericw-tools";
        report["scale"] = model.scale;
        report["lights"] = st.lights;
        report["luxels"] = st.luxels;
        report["shadow_rays"] = st.shadowRays;
        report["ms"] = st.ms;
        report["luxel_bounces_per_s"] = st.ms > 0 ? luxelBounces / st.ms * 1e3 : 0.0;
        report["mean_luminance"] = st.meanLuminance;
    }
    for (size_t k = 0; k < baked.slots.size(); ++k) finishAsEricwStores(baked.slots[k], baked, k);
    if (model.bounces == 0) return nullptr;
    const LightmapComparison lc = compareLightmapPages(world, geometry, world.lightmaps, baked.slots[0]);
    std::cout << fmt::format(
        "lightmaps with bounce vs stored: relative luminance error median {:.1f}%, p90 {:.1f}% over {} lit luxels; "
        "mean luminance {:.4f} -> {:.4f}\n",
        100 * lc.medianRelative, 100 * lc.p90Relative, lc.compared, lc.meanReference, lc.meanCompared);
    report["lightmaps"] = toJson(lc);
    return report;
}

}  // namespace luxel::cli
