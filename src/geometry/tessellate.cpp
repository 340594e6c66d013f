#include "luxel/geometry/geometry.hpp"

#include <stdexcept>

namespace luxel {

// STUB: replaced by the real implementation.
Geometry tessellate(const World&, const TessellationOptions&) { throw std::logic_error("not implemented"); } Vec3 evalBiquadratic(const Vec3[9], float, float) { return {}; }

}  // namespace luxel
