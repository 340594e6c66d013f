#include "luxel/render/camera.hpp"

#include <stdexcept>

namespace luxel {

// STUB: replaced by the real implementation.
Camera cameraFromSpec(const World&, const std::string&, int, int) { throw std::logic_error("not implemented"); }

}  // namespace luxel
