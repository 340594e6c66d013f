#include "luxel/vis/visibility.hpp"

#include <stdexcept>

namespace luxel {

// STUB: replaced by the real implementation.
int32_t findLeaf(const World&, Vec3) { return -1; } int32_t findCluster(const World&, Vec3) { return -1; } std::vector<uint32_t> visibleSurfaces(const World&, const Geometry&, const View&, Vec3, const CullOptions&, CullStats*) { return {}; } bool boxInFrustum(const View&, Vec3, Vec3) { return true; }

}  // namespace luxel
