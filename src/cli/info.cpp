// `luxel info MAP`: what is inside a map, as text or JSON.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <map>

#include "commands.hpp"
#include "common.hpp"
#include "luxel/bsp/decode.hpp"
#include "luxel/geometry/geometry.hpp"

namespace luxel::cli {
namespace {

struct InfoArgs {
    MapArgs map;
    bool json = false;
};

const char* surfaceKindName(SurfaceKind k) {
    switch (k) {
        case SurfaceKind::Polygon: return "polygon";
        case SurfaceKind::Patch: return "patch";
        case SurfaceKind::Mesh: return "mesh";
        case SurfaceKind::Billboard: return "billboard";
        case SurfaceKind::Displacement: return "displacement";
    }
    return "?";
}

nlohmann::ordered_json describe(const MapSource& source, const World& world, const Geometry& geometry) {
    nlohmann::ordered_json j;
    j["file"] = source.displayName;
    j["bytes"] = source.bytes.size();
    j["format"] = world.formatName;
    j["version"] = world.version;
    if (!world.layoutName.empty()) j["layout"] = world.layoutName;
    if (world.format == MapFormat::Source) j["map_revision"] = world.mapRevision;
    auto& lumps = j["lumps"] = nlohmann::ordered_json::array();
    for (const auto& l : world.lumps)
        lumps.push_back({{"name", l.name}, {"offset", l.offset}, {"length", l.length}, {"version", l.version},
                         {"compressed", l.compressed}});

    std::map<std::string, uint64_t> kinds;
    for (const auto& s : world.surfaces) kinds[surfaceKindName(s.kind)]++;
    j["surfaces"] = {{"total", world.surfaces.size()}, {"by_type", kinds}};
    j["triangles"] = geometry.triangleCount();
    j["vertices"] = world.vertices.size();
    j["materials"] = world.materials.size();
    j["models"] = world.models.size();
    j["nodes"] = world.nodes.size();
    j["leaves"] = world.leaves.size();
    j["planes"] = world.planes.size();

    size_t usedPages = 0;
    int pageW = 0, pageH = 0;
    for (const auto& p : world.lightmaps)
        if (p.width > 0) {
            ++usedPages;
            pageW = p.width;
            pageH = p.height;
        }
    size_t lit = 0, vertexLit = 0;
    for (const auto& s : world.surfaces) (s.lightmapPage >= 0 ? lit : vertexLit)++;
    j["lightmaps"] = {{"pages", usedPages}, {"page_width", pageW}, {"page_height", pageH},
                      {"surfaces_lightmapped", lit}, {"surfaces_without_lightmap", vertexLit}};
    if (world.grid) {
        const auto& g = *world.grid;
        j["light_grid"] = {{"dims", g.dims},
                           {"cell_size", {g.cellSize.x, g.cellSize.y, g.cellSize.z}},
                           {"origin", {g.origin.x, g.origin.y, g.origin.z}},
                           {"samples", g.samples.size()}};
    } else {
        j["light_grid"] = nullptr;
    }
    size_t leavesWithAmbient = 0;
    for (const auto& [first, count] : world.leafAmbient) leavesWithAmbient += count > 0;
    if (!world.ambientSamples.empty() || !world.leafAmbient.empty())
        j["ambient_cubes"] = {{"samples", world.ambientSamples.size()}, {"leaves_with_samples", leavesWithAmbient}};
    std::vector<std::string> styles;
    {
        std::map<int, uint64_t> perStyle;
        for (const auto& s : world.surfaces)
            if (s.lightmapPage >= 0)
                for (uint8_t st : s.styles)
                    if (st != 255) perStyle[st]++;
        nlohmann::ordered_json js = nlohmann::ordered_json::object();
        for (const auto& [style, count] : perStyle) js[std::to_string(style)] = count;
        j["light_styles"] = js;  // style -> lightmapped surfaces using it
    }
    if (!world.staticProps.empty()) {
        auto& props = j["static_props"] = nlohmann::ordered_json::array();
        for (const auto& p : world.staticProps)
            props.push_back({{"model", p.model},
                             {"origin", {p.origin.x, p.origin.y, p.origin.z}},
                             {"angles", {p.angles.x, p.angles.y, p.angles.z}}});
    }
    j["clusters"] = world.pvs.numClusters;
    j["vis"] = !world.pvs.empty();

    std::map<std::string, uint64_t> classes;
    for (const auto& e : world.entities)
        if (const std::string* c = e.get("classname")) classes[*c]++;
    j["entities"] = {{"total", world.entities.size()}, {"by_class", classes}};
    nlohmann::ordered_json other = nlohmann::ordered_json::object();
    for (const auto& [name, count] : world.otherCounts) other[name] = count;
    j["other"] = other;
    j["problems"] = world.problems;
    return j;
}

void printText(const nlohmann::ordered_json& j) {
    std::cout << fmt::format("{}\n  {} version {}, {} bytes", j["file"].get<std::string>(),
                             j["format"].get<std::string>(), j["version"].get<int>(), j["bytes"].get<uint64_t>());
    if (j.contains("layout")) std::cout << fmt::format(", {} lump directory", j["layout"].get<std::string>());
    if (j.contains("map_revision")) std::cout << fmt::format(", map revision {}", j["map_revision"].get<int>());
    std::cout << "\n";
    std::cout << "lumps:\n";
    for (const auto& l : j["lumps"])
        std::cout << fmt::format("  {:<14} offset {:>10}  length {:>10}{}\n", l["name"].get<std::string>(),
                                 l["offset"].get<uint64_t>(), l["length"].get<uint64_t>(),
                                 l["compressed"].get<bool>() ? "  (compressed)" : "");
    std::cout << fmt::format("surfaces: {}", j["surfaces"]["total"].get<uint64_t>());
    for (const auto& [k, v] : j["surfaces"]["by_type"].items()) std::cout << fmt::format("  {} {}", k, v.get<uint64_t>());
    std::cout << fmt::format("\ntriangles: {}  vertices: {}  materials: {}  models: {}\n", j["triangles"].get<uint64_t>(),
                             j["vertices"].get<uint64_t>(), j["materials"].get<uint64_t>(), j["models"].get<uint64_t>());
    const auto& lm = j["lightmaps"];
    std::cout << fmt::format("lightmaps: {} pages of {}x{}; {} surfaces lightmapped, {} without\n",
                             lm["pages"].get<uint64_t>(), lm["page_width"].get<int>(), lm["page_height"].get<int>(),
                             lm["surfaces_lightmapped"].get<uint64_t>(), lm["surfaces_without_lightmap"].get<uint64_t>());
    if (j["light_grid"].is_null()) {
        std::cout << "light grid: none\n";
    } else {
        const auto& g = j["light_grid"];
        std::cout << fmt::format("light grid: {}x{}x{} points ({}), cell {} {} {}\n", g["dims"][0].get<int>(),
                                 g["dims"][1].get<int>(), g["dims"][2].get<int>(), g["samples"].get<uint64_t>(),
                                 g["cell_size"][0].get<float>(), g["cell_size"][1].get<float>(),
                                 g["cell_size"][2].get<float>());
    }
    if (!j["light_styles"].empty()) {
        std::cout << "light styles (style: lightmapped surfaces):";
        for (const auto& [k, v] : j["light_styles"].items()) std::cout << fmt::format("  {}: {}", k, v.get<uint64_t>());
        std::cout << "\n";
    }
    if (j.contains("ambient_cubes"))
        std::cout << fmt::format("ambient cubes: {} samples in {} leaves\n", j["ambient_cubes"]["samples"].get<uint64_t>(),
                                 j["ambient_cubes"]["leaves_with_samples"].get<uint64_t>());
    if (j.contains("static_props")) {
        std::cout << fmt::format("static props: {}\n", j["static_props"].size());
        for (const auto& p : j["static_props"])
            std::cout << fmt::format("  {} at ({} {} {}) angles ({} {} {})\n", p["model"].get<std::string>(),
                                     p["origin"][0].get<float>(), p["origin"][1].get<float>(), p["origin"][2].get<float>(),
                                     p["angles"][0].get<float>(), p["angles"][1].get<float>(), p["angles"][2].get<float>());
    }
    std::cout << fmt::format("visibility: {} clusters{}; {} leaves, {} nodes, {} planes\n", j["clusters"].get<int>(),
                             j["vis"].get<bool>() ? "" : " (no vis data: everything is drawn)",
                             j["leaves"].get<uint64_t>(), j["nodes"].get<uint64_t>(), j["planes"].get<uint64_t>());
    std::cout << fmt::format("entities: {}\n", j["entities"]["total"].get<uint64_t>());
    for (const auto& [k, v] : j["entities"]["by_class"].items())
        std::cout << fmt::format("  {:<32} {}\n", k, v.get<uint64_t>());
    if (!j["other"].empty()) {
        std::cout << "other records:";
        for (const auto& [k, v] : j["other"].items()) std::cout << fmt::format("  {} {}", k, v.get<uint64_t>());
        std::cout << "\n";
    }
    std::cout << fmt::format("problems: {}\n", j["problems"].size());
    for (const auto& p : j["problems"]) std::cout << "  " << p.get<std::string>() << "\n";
}

}  // namespace

void addInfoCommand(CLI::App& app, Action& action) {
    auto args = std::make_shared<InfoArgs>();
    CLI::App* sub = app.add_subcommand("info", "What is inside a map: format, lumps, counts, entities, problems");
    args->map.addTo(*sub);
    sub->add_flag("--json", args->json, "print one JSON object");
    sub->callback([args, &action] { action = [args] {
        MapSource source = args->map.open();
        World world = decodeMap(source, args->map.decodeOptions());
        Geometry geometry = tessellate(world);
        auto j = describe(source, world, geometry);
        if (args->json)
            std::cout << j.dump(2) << "\n";
        else
            printText(j);
        return 0;
    }; });
}

}  // namespace luxel::cli
