#include "luxel/render/camera.hpp"

#include <stdexcept>

namespace luxel {

// STUB: replaced by the real implementation.
View makeView(const Camera&) { throw std::logic_error("not implemented"); }
void angleVectors(Vec3, Vec3&, Vec3&, Vec3&) {}

}  // namespace luxel
