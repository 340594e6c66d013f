#include "luxel/render/render.hpp"

#include <stdexcept>

namespace luxel {

// STUB: replaced by the real implementation.
RenderMode parseRenderMode(const std::string&) { return RenderMode::Lightmap; } const char* renderModeName(RenderMode) { return ""; } Image renderFrame(const World&, const Geometry&, const Camera&, const RenderOptions&, FrameStats*) { throw std::logic_error("not implemented"); }

}  // namespace luxel
