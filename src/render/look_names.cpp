// The names of the looks, shared by every command and the scene files.
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

}  // namespace luxel
