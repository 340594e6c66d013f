// Static props into World surfaces (see props.hpp).
#include <algorithm>
#include <array>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include "luxel/geometry/leaf_lists.hpp"
#include "luxel/io/source_game.hpp"
#include "luxel/model/prop_lighting.hpp"
#include "luxel/model/props.hpp"
#include "luxel/model/studio_cache.hpp"
#include "luxel/render/camera.hpp"
#include "luxel/util/error.hpp"
#include "studio_read.hpp"

namespace luxel {
namespace {

struct PropFrame {
    Vec3 forward, left, up;
};

PropFrame propFrame(const StaticProp& prop) {
    PropFrame f;
    Vec3 right;
    angleVectors(prop.angles, f.forward, right, f.up);  // Quake's and Source's AngleVectors agree
    f.left = -right;                                    // AngleMatrix's second column
    return f;
}

std::shared_ptr<const StudioModel> tryLoad(const GameFiles& files, const std::string& path,
                                           std::vector<std::string>& warnings, size_t uses) {
    try {
        return loadStudioModelShared(files, path);
    } catch (const std::exception& e) {
        warnings.push_back("static prop model " + path + " (" + std::to_string(uses) + (uses == 1 ? " prop" : " props") +
                           ") not drawn: " + e.what());
        return nullptr;
    }
}

// vrad's light for each .vvd vertex of a placed prop (its .vhv), or nothing when it has none.
std::optional<std::vector<Vec3>> bakedLight(const World& world, const GameFiles& files, const StaticProp& prop, size_t index,
                                            const StudioModel& model, PropsPlaced& placed) {
    if (!prop.vertexLit) return std::nullopt;
    const std::string path = (world.hdrLighting ? "sp_hdr_" : "sp_") + std::to_string(index) + ".vhv";
    try {
        if (std::optional<Bytes> bytes = files.read(path)) {
            std::vector<Vec3> light = readVertexLight(*bytes, files.describe(path).value_or(path), model);
            ++placed.vertexLit;
            return light;
        }
    } catch (const DecodeError& e) {
        placed.warnings.push_back(std::string(e.what()) + " (lit as the engine lights props without baked light)");
    }
    return std::nullopt;
}

// The engine's run-time light for each .vvd vertex of a prop without baked light (model/prop_lighting.hpp).
std::vector<Vec3> runtimeLight(const PropLighter& lighter, const StaticProp& prop, const StudioModel& model) {
    const PropLightState state = lighter.state(prop.lightingOrigin.value_or(propPoint(prop, model.mdl.illumPosition)));
    std::vector<Vec3> light(model.vertices.size());
    for (size_t v = 0; v < light.size(); ++v)
        light[v] = propVertexLight(state, propPoint(prop, model.vertices[v].position), propNormal(prop, model.vertices[v].normal));
    return light;
}

}  // namespace

std::vector<std::string> propWarnings(const PropsPlaced& placed, bool searchedGameDirs) {
    std::vector<std::string> lines;
    if (const size_t n = placed.modelsNotFound.size(); n > 0) {
        constexpr size_t kNamesShown = 8;
        std::string line = fmt::format("{} static prop model{} not found, {} prop{} not drawn: ", n, n == 1 ? "" : "s",
                                       placed.propsNotFound, placed.propsNotFound == 1 ? "" : "s");
        for (size_t i = 0; i < n && i < kNamesShown; ++i) line += (i ? ", " : "") + placed.modelsNotFound[i];
        if (n > kNamesShown) line += ", ...";
        if (!searchedGameDirs) line += " (no game directory searched: add --game-dir DIR)";
        lines.push_back(std::move(line));
    }
    lines.insert(lines.end(), placed.warnings.begin(), placed.warnings.end());
    return lines;
}

GameFiles propFiles(const World& world, const std::vector<std::string>& gameDirs) {
    // The mount's own warnings (damaged VPKs) are the material loader's to report: it mounts the same folders.
    std::vector<std::string> mountWarnings;
    return mountSourceGame(world.file + ":pakfile", world.embeddedArchive, gameDirs, false, mountWarnings);
}

Vec3 propPoint(const StaticProp& prop, Vec3 local) {
    const PropFrame f = propFrame(prop);
    const Vec3 s = local * prop.scale;
    return prop.origin + f.forward * s.x + f.left * s.y + f.up * s.z;
}

Vec3 propNormal(const StaticProp& prop, Vec3 n) {
    const PropFrame f = propFrame(prop);
    const Vec3 s{n.x / prop.scale.x, n.y / prop.scale.y, n.z / prop.scale.z};  // inverse transpose of the scale
    return normalize(f.forward * s.x + f.left * s.y + f.up * s.z);
}

PropsPlaced placeStaticProps(World& world, const GameFiles& files) {
    PropsPlaced placed;
    if (world.staticProps.empty()) return placed;
    std::map<std::string, size_t> uses;
    for (const StaticProp& p : world.staticProps) ++uses[studio::gamePathForm(p.model)];
    std::map<std::string, std::shared_ptr<const StudioModel>> models;
    for (const auto& [path, count] : uses) {
        if (!files.exists(path)) {
            placed.modelsNotFound.push_back(path);
            placed.propsNotFound += count;
            continue;
        }
        models[path] = tryLoad(files, path, placed.warnings, count);
        placed.models += models[path] != nullptr;
    }
    // One material per name and diffuse modulation: props tinted differently share a VMT, not a look.
    std::map<std::pair<std::string, std::array<uint8_t, 4>>, int32_t> materialIndex;
    auto material = [&](const std::string& name, const std::array<uint8_t, 4>& tint) {
        auto [it, added] = materialIndex.emplace(std::make_pair(name, tint), int32_t(world.materials.size()));
        if (added) {
            Material m{name, kMaterialNoLightmap, 0, 0, Vec3{1, 1, 1}};
            m.modelColor = Vec4{tint[0] / 255.0f, tint[1] / 255.0f, tint[2] / 255.0f, tint[3] / 255.0f};
            world.materials.push_back(std::move(m));
        }
        return it->second;
    };
    auto exists = [&](const std::string& path) { return files.exists(path); };

    // Every prop's vertex light first, while the world is still as the map stores it (the run-time light's
    // rays and shadows see the world without props, as the engine's light cache traces the world only).
    const size_t count = world.staticProps.size();
    std::vector<const StudioModel*> modelOf(count, nullptr);
    std::vector<std::optional<std::vector<Vec3>>> lightOf(count);
    std::vector<size_t> unbaked;
    for (size_t i = 0; i < count; ++i) {
        const StudioModel* model = models[studio::gamePathForm(world.staticProps[i].model)].get();
        if (!model) continue;
        modelOf[i] = model;
        lightOf[i] = bakedLight(world, files, world.staticProps[i], i, *model, placed);
        if (!lightOf[i]) unbaked.push_back(i);
    }
    if (!unbaked.empty()) {
        const PropLighter lighter(world);
        tbb::parallel_for(size_t(0), unbaked.size(), [&](size_t k) {
            const size_t i = unbaked[k];
            lightOf[i] = runtimeLight(lighter, world.staticProps[i], *modelOf[i]);
        });
    }

    std::vector<std::vector<uint32_t>> surfacesOfLeaf(world.leaves.size());
    std::vector<uint32_t> remap;
    for (size_t i = 0; i < count; ++i) {
        const StaticProp& prop = world.staticProps[i];
        const StudioModel* model = modelOf[i];
        if (!model) continue;
        ++placed.props;
        const std::vector<Vec3>& light = *lightOf[i];
        const bool mirrored = prop.scale.x * prop.scale.y * prop.scale.z < 0;
        for (const StudioMesh& mesh : model->meshes) {
            if (mesh.indices.empty()) continue;
            Surface s;
            s.kind = SurfaceKind::Mesh;
            s.material = material(studioMaterial(model->mdl, prop.skin, mesh.skinRef, exists), prop.tint);
            s.firstVertex = uint32_t(world.vertices.size());
            s.firstIndex = uint32_t(world.indices.size());
            remap.assign(model->vertices.size(), UINT32_MAX);
            for (size_t k = 0; k < mesh.indices.size(); ++k) {
                const uint32_t v = mesh.indices[mirrored && k % 3 ? (k % 3 == 1 ? k + 1 : k - 1) : k];
                if (remap[v] == UINT32_MAX) {
                    remap[v] = uint32_t(world.vertices.size()) - s.firstVertex;
                    const StudioVertex& sv = model->vertices[v];
                    Vertex out;
                    out.position = propPoint(prop, sv.position);
                    out.normal = propNormal(prop, sv.normal);
                    out.texUV = sv.uv;
                    out.color = {light[v].x, light[v].y, light[v].z, 1.0f};
                    world.vertices.push_back(out);
                }
                world.indices.push_back(remap[v]);
            }
            s.numVertices = uint32_t(world.vertices.size()) - s.firstVertex;
            s.numIndices = uint32_t(mesh.indices.size());
            const uint32_t surface = uint32_t(world.surfaces.size());
            world.surfaces.push_back(s);
            for (uint32_t k = prop.firstLeaf; k < prop.firstLeaf + prop.numLeaves && k < world.staticPropLeaves.size(); ++k)
                if (world.staticPropLeaves[k] < surfacesOfLeaf.size()) surfacesOfLeaf[world.staticPropLeaves[k]].push_back(surface);
        }
    }
    appendLeafSurfaces(world, surfacesOfLeaf);
    return placed;
}

}  // namespace luxel
