// `luxel info MAP`: what is inside a map, as text or JSON.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <map>

#include "commands.hpp"
#include "common.hpp"
#include "luxel/bsp/decode.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/util/huge_page_heap.hpp"

namespace luxel::cli {
namespace {

struct InfoArgs {
    MapArgs map;
    bool json = false;
    bool materials = false;
};

const char* blendName(BlendMode b) {
    switch (b) {
        case BlendMode::Opaque: return "opaque";
        case BlendMode::AlphaTest: return "alphatest";
        case BlendMode::Blend: return "blend";
        case BlendMode::Additive: return "additive";
        case BlendMode::Multiply: return "multiply";
    }
    return "?";
}

nlohmann::ordered_json describeMaterials(const World& world, const MaterialSet& set) {
    auto textureName = [&](int32_t t) -> nlohmann::ordered_json {
        if (t < 0 || size_t(t) >= set.textures.size()) return nullptr;
        return set.textures[size_t(t)]->name;
    };
    nlohmann::ordered_json j;
    j["textures"] = set.textures.size();
    j["texture_gamma"] = set.textureGamma;
    auto& list = j["list"] = nlohmann::ordered_json::array();
    for (size_t i = 0; i < set.looks.size() && i < world.materials.size(); ++i) {
        const SurfaceLook& l = set.looks[i];
        std::vector<std::string> flags;
        if (l.hidden) flags.push_back("hidden");
        if (l.sky) flags.push_back("sky");
        if (l.unlit) flags.push_back("unlit");
        if (l.vertexColor) flags.push_back("vertex_color");
        if (l.noLightmapStage) flags.push_back("no_lightmap_stage");
        if (l.vertexLight) flags.push_back("vertex_light");
        if (l.twoSided) flags.push_back("two_sided");
        if (l.polygonOffset) flags.push_back("polygon_offset");
        nlohmann::ordered_json m;
        m["name"] = world.materials[i].name;
        m["texture"] = textureName(l.texture);
        m["missing"] = l.missing;
        m["blend"] = blendName(l.blend);
        if (l.skyBox >= 0) m["sky"] = l.skyBox;
        if (l.blend == BlendMode::AlphaTest) m["alpha_ref"] = l.alphaRef;
        if (l.opacity != 1.0f) m["opacity"] = l.opacity;
        if (l.tcScale.x != 1.0f || l.tcScale.y != 1.0f) m["tc_scale"] = {l.tcScale.x, l.tcScale.y};
        if (l.texture2 >= 0) m["texture2"] = textureName(l.texture2);
        if (l.program) m["program_stages"] = l.program->stages.size();
        if (!l.notDrawn.empty()) m["not_drawn"] = l.notDrawn;
        m["flags"] = flags;
        if (i < set.origins.size()) m["found"] = set.origins[i];
        list.push_back(std::move(m));
    }
    j["missing"] = set.missing;
    j["fog_shaders"] = set.fogShaders;
    // One entry per sky the materials show (Quake 3: per sky shader), the materials' "sky" index into it.
    auto& skies = j["skies"] = nlohmann::ordered_json::array();
    for (const SkyBox& sky : set.skies) {
        nlohmann::ordered_json s;
        auto& faces = s["faces"] = nlohmann::ordered_json::array();
        for (int32_t f : sky.faces) faces.push_back(textureName(f));
        s["cloud_layers"] = sky.clouds.size();
        skies.push_back(std::move(s));
    }
    j["warnings"] = set.warnings;
    return j;
}

void printMaterials(const nlohmann::ordered_json& j) {
    std::cout << fmt::format("materials: {} textures (texture gamma {})\n", j["textures"].get<uint64_t>(),
                             j["texture_gamma"].get<float>());
    for (const auto& m : j["list"]) {
        std::string texture = m["texture"].is_null() ? (m["missing"].get<bool>() ? "missing" : "-")
                                                     : m["texture"].get<std::string>();
        std::string extra = m["blend"].get<std::string>();
        if (m.contains("alpha_ref")) extra += fmt::format(" {:.3f}", m["alpha_ref"].get<float>());
        if (m.contains("opacity")) extra += fmt::format(" opacity {:.2f}", m["opacity"].get<float>());
        for (const auto& f : m["flags"]) extra += " " + f.get<std::string>();
        if (m.contains("program_stages"))
            extra += fmt::format(" program of {} stages", m["program_stages"].get<size_t>());
        if (m.contains("not_drawn")) {
            extra += "; not drawn:";
            for (const auto& f : m["not_drawn"]) extra += " " + f.get<std::string>() + ",";
            extra.pop_back();
        }
        std::cout << fmt::format("  {}\n    {}  [{}]\n", m["name"].get<std::string>(), texture, extra);
        if (m.contains("found")) std::cout << fmt::format("    found: {}\n", m["found"].get<std::string>());
    }
    std::cout << fmt::format("missing textures: {}\n", j["missing"].size());
    for (const auto& n : j["missing"]) std::cout << "  " << n.get<std::string>() << "\n";
    std::cout << fmt::format("fog shaders: {}\n", j["fog_shaders"].size());
    for (const auto& n : j["fog_shaders"]) std::cout << "  " << n.get<std::string>() << "\n";
    for (size_t k = 0; k < j["skies"].size(); ++k) {
        const auto& sky = j["skies"][k];
        std::cout << fmt::format("sky {}: {} cloud layer{}, box:", k, sky["cloud_layers"].get<size_t>(),
                                 sky["cloud_layers"].get<size_t>() == 1 ? "" : "s");
        for (const auto& f : sky["faces"]) std::cout << "  " << (f.is_null() ? "-" : f.get<std::string>());
        std::cout << "\n";
    }
    std::cout << fmt::format("material warnings: {}\n", j["warnings"].size());
    for (const auto& w : j["warnings"]) std::cout << "  " << w.get<std::string>() << "\n";
}

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

nlohmann::ordered_json describe(const MapSource& source, const World& world, size_t triangles) {
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
    j["triangles"] = triangles;
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
    size_t deluxePages = 0;
    for (const auto& p : world.deluxemaps) deluxePages += p.width > 0 ? 1 : 0;
    j["lightmaps"] = {{"pages", usedPages}, {"page_width", pageW}, {"page_height", pageH},
                      {"surfaces_lightmapped", lit}, {"surfaces_without_lightmap", vertexLit},
                      {"deluxe_pages", deluxePages}};
    if (!world.lightSource.empty()) j["lightmaps"]["source"] = world.lightSource;
    if (world.grid) {
        const auto& g = *world.grid;
        j["light_grid"] = {{"dims", g.dims},
                           {"cell_size", {g.cellSize.x, g.cellSize.y, g.cellSize.z}},
                           {"origin", {g.origin.x, g.origin.y, g.origin.z}},
                           {"samples", int64_t(g.dims[0]) * g.dims[1] * g.dims[2]}};
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
    if (lm.contains("source")) std::cout << fmt::format("light read from: {}\n", lm["source"].get<std::string>());
    if (lm["deluxe_pages"].get<uint64_t>() > 0)
        std::cout << fmt::format("deluxe maps (light direction per luxel): {} pages\n", lm["deluxe_pages"].get<uint64_t>());
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

static void addInfoOptions(CLI::App* sub, Action& action) {
    auto args = std::make_shared<InfoArgs>();
    args->map.addTo(*sub);
    sub->add_flag("--json", args->json, "print one JSON object");
    sub->add_flag("--materials", args->materials,
                  "load the materials (--game-dir, --palette) and list each one's texture, blending and flags");
    sub->callback([args, &action] { action = [args] {
        growHeapOnHugePages(size_t(64) << 20);
        MapSource source = args->map.open();
        DecodeOptions decode = args->map.decodeOptions();
        decode.lightSamples = false;  // info counts pages and grid points; their samples are half the decode
        World world = decodeMap(source, decode);
        auto j = describe(source, world, triangleCount(world));
        if (args->materials)
            j["material_details"] = describeMaterials(world, loadMaterials(world, source, args->map.materialOptions()));
        if (args->json) {
            std::cout << j.dump(2) << "\n";
        } else {
            printText(j);
            if (args->materials) printMaterials(j["material_details"]);
        }
        return 0;
    }; });
}

const Command kInfoCommand{"info", "What is inside a map: format, lumps, counts, entities, problems", addInfoOptions};

}  // namespace luxel::cli
