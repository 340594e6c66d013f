// `luxel bake` of a map laid out anew (see bake_relaid_out.hpp).
#include "bake_relaid_out.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <limits>

#include "lightmap_images.hpp"
#include "luxel/bake/relaid_out_styles.hpp"
#include "luxel/bsp/brush_entities.hpp"
#include "luxel/bsp/write_relaid_lighting.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/light/ericw_lights.hpp"
#include "luxel/light/texinfo_json.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/util/error.hpp"

namespace luxel::cli {

int bakeRelaidOut(const MapArgs& map, const BounceArgs& bounceArgs, const RelaidOutOutput& out,
                  std::optional<Q2LightCompiler> quake2Compiler) {
    const double t0 = nowMs();
    MapSource source = map.open();
    DecodeOptions decode = map.decodeOptions();
    decode.relayoutLightmaps = true;
    decode.relayoutLuxelShift = out.lmShift;
    decode.relayoutWorldUnitsPerLuxel = out.worldUnitsPerLuxel;
    // light -world_units_per_luxel lays a texinfo out at qbsp's own value for it where texinfo.json has one.
    if (out.worldUnitsPerLuxel)
        for (const auto& [texinfo, e] : readTexinfoJson(source, std::numeric_limits<uint32_t>::max()).texinfos)
            if (e.worldUnitsPerLuxel) decode.relayoutTexinfoUnitsPerLuxel[texinfo] = *e.worldUnitsPerLuxel;
    World world = decodeMap(source, decode);
    placeBrushModelsAsCompiled(world);  // lit where the light tools light them, not where the game starts them
    const bool quake2 = world.format == MapFormat::Quake2;
    if (world.format != MapFormat::Quake1 && world.format != MapFormat::HalfLife && !quake2)
        throw UsageError(source.displayName + ": laying lightmaps out anew is done for Quake 1, Quake 2 and Half-Life maps (this is " +
                         world.formatName + ")");
    // Refused now, not after the bake: these layouts are BSPX lumps, which only Quake 1 maps carry.
    if ((out.lmShift || out.worldUnitsPerLuxel) && world.format != MapFormat::Quake1)
        throw UsageError(source.displayName + ": --lmshift and --world-units-per-luxel write BSPX lumps, for Quake 1 maps (this is " +
                         world.formatName + ")");
    const Geometry geometry = tessellate(world);
    const double tLoad = nowMs();
    const MaterialSet materials = loadMaterials(world, source, map.materialOptions());
    MapLightOptions lightOptions;
    lightOptions.materials = map.materialOptions();
    lightOptions.loaded = &materials;
    lightOptions.quake2Compiler = quake2Compiler;
    MapLights lights = mapLights(world, source, lightOptions);
    if (out.bspxLux) {
        // Directions baked beside the light: each light's direction weighted by its brightness (ericw-tools
        // weights by the light's value before its colour; the same for white lights), no normal term.
        world.deluxemaps = world.lightmaps;
        lights.rules.deluxeWeights = {1.0f / 3, 1.0f / 3, 1.0f / 3};
        lights.rules.deluxeNormal = 0;
    }
    for (const std::string& note : lights.notes) std::cerr << "luxel: note: " << note << "\n";
    const RayScene scene(world, geometry, &materials, &lights.castsNoShadow);
    const double tScene = nowMs();
    size_t faces = 0, luxels = 0;
    for (const Surface& s : world.surfaces)
        if (s.lightmapPage >= 0) ++faces, luxels += size_t(s.lightmapRect[2]) * size_t(s.lightmapRect[3]);
    std::cout << fmt::format("{}: lightmaps laid out anew: {} faces, {} luxels; {} lights; {} threads\n", source.displayName,
                             faces, luxels, lights.lights.size(), workerThreads());

    DirectBakeStats stats;
    const LuxelSamples samples = luxelSamples(world, geometry, scene, lights.rules);
    const double tLayout = nowMs();
    std::vector<StylePass> passes = bakeEachStyle(world, geometry, scene, lights, samples, stats);
    const double tDirect = nowMs();
    nlohmann::json report;
    report["map"] = source.displayName;
    if (lights.faceBounce && !passes.empty())
        report["bounce"] = bakeFaceBounce(bounceArgs, world, geometry, scene, passes[0].set, lights, samples);
    const double tBounce = nowMs();
    // The compiler's 0..255 units (Quake 1 and Half-Life decode byte x 264 / 256 / 255); Quake 2 keeps style 0
    // on every face (a face without light data would be drawn full bright).
    StyleChoice choice = chooseFaceStyles(world, passes, quake2 ? 255.0f : 255.0f * 256.0f / 264.0f, quake2);
    std::cout << fmt::format("styles: {} baked ({} shadow rays); {} faces lit, {} left unlit (no style reaches 1), {} with "
                             "light of more than 4 styles\n",
                             passes.size(), stats.shadowRays, choice.facesLit, choice.facesDark, choice.facesOverflow);
    for (const std::string& n : choice.overflowNotes) std::cerr << "luxel: warning: " << n << "\n";
    if (choice.facesOverflow > choice.overflowNotes.size())
        std::cerr << fmt::format("luxel: warning: ... and {} more faces with more than 4 styles\n",
                                 choice.facesOverflow - choice.overflowNotes.size());
    if (!out.output.empty()) {
        const LightmapImages written = writeLightmapImages(world, choice.set, out.output, ".png", true);
        std::cout << fmt::format("wrote {} baked lightmap pages to {}\n", written.pages, out.output);
    }
    if (!out.write.empty()) {
        RelaidOutLightingOptions options;
        options.lit = out.lit;
        options.bspxLit = out.bspxLit;
        options.bspxLux = out.bspxLux;
        options.luxelShift = out.lmShift;
        options.worldUnitsPerLuxel = out.worldUnitsPerLuxel;
        options.texinfoWorldUnitsPerLuxel = decode.relayoutTexinfoUnitsPerLuxel;
        options.vanilla = out.vanilla;
        options.directions = &choice.directions;
        // ericw-tools writes the switchable styles it gave into the light entities; qrad3 does not.
        const std::vector<Entity> styled =
            lights.quake2Compiler == Q2LightCompiler::Qrad3 ? world.entities : withSwitchableStyles(world.entities);
        bool changed = styled.size() != world.entities.size();
        for (size_t i = 0; !changed && i < styled.size(); ++i) changed = styled[i].keys != world.entities[i].keys;
        if (changed) options.entities = entitiesLumpText(styled);
        const RelaidOutLightingFiles files = writeRelaidOutLighting(source, world, choice.set, options);
        writeFileAtomic(out.write, files.map);
        std::cout << "wrote " << out.write;
        if (files.lit) {
            const std::string litPath = std::filesystem::path(out.write).replace_extension(".lit").string();
            writeFileAtomic(litPath, *files.lit);
            std::cout << " and " << litPath;
        }
        std::cout << "\n";
    }
    const double tEnd = nowMs();
    report["faces"] = {{"lit", choice.facesLit}, {"unlit", choice.facesDark}, {"over_4_styles", choice.facesOverflow}};
    // "dirt" is the part of "layout" its occlusion rays took; "sun_thread" the thread time (over all threads) of
    // the direct pass's sun lights.
    report["time_ms"] = {{"load", tLoad - t0},       {"lights", tScene - tLoad}, {"layout", tLayout - tScene},
                         {"dirt", samples.occlusionMs}, {"direct", tDirect - tLayout}, {"sun_thread", stats.sunThreadMs},
                         {"bounce", tBounce - tDirect}, {"write", tEnd - tBounce}, {"total", tEnd - t0}};
    if (!out.report.empty()) writeTextFile(out.report, report.dump(2) + "\n");
    return 0;
}

}  // namespace luxel::cli
