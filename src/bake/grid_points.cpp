// Grid point placement (see grid_points.hpp).
#include "luxel/bake/grid_points.hpp"

#include "luxel/vis/visibility.hpp"

namespace luxel {

namespace {

// True when every leaf the box (mins, maxs) reaches is solid: then no nudge inside it can find open space,
// and one walk of the tree replaces the hundred point lookups of the search below.
bool boxAllSolid(const World& world, Vec3 mins, Vec3 maxs) {
    if (world.nodes.empty()) return false;
    const Vec3 centre = (mins + maxs) * 0.5f, half = (maxs - mins) * 0.5f;
    int32_t stack[256];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const int32_t child = stack[--top];
        if (child < 0) {
            const size_t leaf = size_t(-(child + 1));
            if (leaf >= world.leaves.size() || world.leaves[leaf].cluster >= 0) return false;
            continue;
        }
        if (size_t(child) >= world.nodes.size()) return false;
        const Node& node = world.nodes[size_t(child)];
        if (node.plane < 0 || size_t(node.plane) >= world.planes.size()) return false;
        const Plane& pl = world.planes[size_t(node.plane)];
        const float d = dot(pl.normal, centre) - pl.dist;
        const float r = std::abs(pl.normal.x) * half.x + std::abs(pl.normal.y) * half.y + std::abs(pl.normal.z) * half.z;
        if (top + 2 > 256) return false;  // absurdly deep tree: let the point search decide
        if (d >= -r) stack[top++] = node.children[0];
        if (d <= r) stack[top++] = node.children[1];
    }
    return true;
}

}  // namespace

bool inSolid(const World& world, Vec3 p) {
    const int32_t leaf = findLeaf(world, p);
    return leaf >= 0 && world.leaves[size_t(leaf)].cluster < 0;
}

std::optional<Vec3> nudgeOutOfSolid(const World& world, Vec3 p, Vec3 cell) {
    const Vec3 reach = cell * 0.5f + Vec3{1, 1, 1};  // a little over the search, so rounding cannot hide a spot
    if (boxAllSolid(world, p - reach, p + reach)) return std::nullopt;
    for (int step = 1; step <= 4; ++step) {
        const float f = 0.125f * float(step);
        for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    if (dx == 0 && dy == 0 && dz == 0) continue;
                    const Vec3 q = p + Vec3{float(dx) * cell.x, float(dy) * cell.y, float(dz) * cell.z} * f;
                    if (!inSolid(world, q)) return q;
                }
    }
    return std::nullopt;
}

}  // namespace luxel
