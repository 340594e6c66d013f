// The names of the looks, shared by every command and the scene files.
#include "luxel/render/render.hpp"

namespace luxel {

std::optional<Look> parseLook(std::string_view name) {
    if (name == "engine") return Look::Engine;
    if (name == "engine-windowed") return Look::EngineWindowed;
    if (name == "linear") return Look::Linear;
    return std::nullopt;
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
