// The names of the looks and the render modes, shared by every command and the scene files.
#include "luxel/render/render.hpp"

#include <string>

#include "luxel/util/error.hpp"

namespace luxel {

std::optional<Look> parseLook(std::string_view name) {
    if (name == "engine") return Look::Engine;
    if (name == "engine-windowed") return Look::EngineWindowed;
    if (name == "linear") return Look::Linear;
    return std::nullopt;
}

UnlitSurfaces parseUnlit(std::string_view name) {
    if (name == "engine") return UnlitSurfaces::Engine;
    if (name == "light") return UnlitSurfaces::Light;
    if (name == "black") return UnlitSurfaces::Black;
    throw UsageError("unlit: expected engine, light or black, got '" + std::string(name) + "'");
}

const char* lookName(Look look) {
    switch (look) {
        case Look::Engine: return "engine";
        case Look::EngineWindowed: return "engine-windowed";
        case Look::Linear: return "linear";
    }
    return "engine";
}

RenderMode parseRenderMode(const std::string& name) {
    for (RenderMode m : {RenderMode::Lightmap, RenderMode::Vertex, RenderMode::Normals, RenderMode::Depth,
                         RenderMode::Clusters, RenderMode::Lit, RenderMode::Albedo, RenderMode::Grid})
        if (name == renderModeName(m)) return m;
    throw UsageError("unknown render mode '" + name +
                     "' (expected lightmap, vertex, normals, depth, clusters, lit or grid)");
}

const char* renderModeName(RenderMode mode) {
    switch (mode) {
        case RenderMode::Lightmap: return "lightmap";
        case RenderMode::Vertex: return "vertex";
        case RenderMode::Normals: return "normals";
        case RenderMode::Depth: return "depth";
        case RenderMode::Clusters: return "clusters";
        case RenderMode::Lit: return "lit";
        case RenderMode::Albedo: return "albedo";
        case RenderMode::Grid: return "grid";
    }
    return "?";
}

}  // namespace luxel
