#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include <tbb/parallel_for.h>

#include "luxel/geometry/patch.hpp"

namespace luxel {

bool validPatch(const World& world, const Surface& s) {
    if (s.kind != SurfaceKind::Patch) return false;
    const int32_t w = s.patchWidth, h = s.patchHeight;
    if (w < 3 || h < 3 || w > kMaxPatchSide || h > kMaxPatchSide || w % 2 == 0 || h % 2 == 0) return false;
    if (uint64_t(s.numVertices) != uint64_t(w) * uint64_t(h)) return false;
    return uint64_t(s.firstVertex) + s.numVertices <= world.vertices.size();
}

PatchErrors patchErrors(const Vertex* ctrl, int32_t width, int32_t height) {
    PatchErrors e;
    e.columns.assign(size_t((width - 1) / 2), 0.0f);
    e.rows.assign(size_t((height - 1) / 2), 0.0f);
    auto p = [&](int32_t row, int32_t col) { return ctrl[size_t(row) * size_t(width) + size_t(col)].position; };
    // (a - 2b + c) / 4 is the curve's midpoint minus the chord's midpoint. Comparisons are written so
    // that NaN never wins (hostile input), while infinity does and lands on the maximum level.
    auto grow = [](float& m, Vec3 a, Vec3 b, Vec3 c) {
        const float d = length(a - b * 2.0f + c) * 0.25f;
        if (d > m) m = d;
    };
    for (size_t c = 0; c < e.columns.size(); ++c)
        for (int32_t r = 0; r < height; ++r)
            grow(e.columns[c], p(r, int32_t(2 * c)), p(r, int32_t(2 * c + 1)), p(r, int32_t(2 * c + 2)));
    for (size_t r = 0; r < e.rows.size(); ++r)
        for (int32_t c = 0; c < width; ++c)
            grow(e.rows[r], p(int32_t(2 * r), c), p(int32_t(2 * r + 1), c), p(int32_t(2 * r + 2), c));
    return e;
}

int32_t patchLevel(float error, float tolerance, int32_t maxLevel) {
    maxLevel = std::clamp(maxLevel, 1, kMaxPatchLevelCeiling);
    if (!(error > 0)) return 1;
    if (!(tolerance > 0)) return maxLevel;
    const double n = std::ceil(std::sqrt(double(error) / double(tolerance)));
    if (!(n < double(maxLevel))) return maxLevel;
    return std::max(1, int32_t(n));
}

namespace {

// A boundary piece edge of some patch: its three control points in canonical order (smaller endpoint
// first) and the level variable (patch, direction, piece) it belongs to.
struct EdgeKey {
    std::array<float, 9> p;
    uint32_t var;
};

bool lexLess(Vec3 a, Vec3 b) {
    if (a.x != b.x) return a.x < b.x;
    if (a.y != b.y) return a.y < b.y;
    return a.z < b.z;
}

uint32_t findRoot(std::vector<uint32_t>& parent, uint32_t v) {
    while (parent[v] != v) {
        parent[v] = parent[parent[v]];
        v = parent[v];
    }
    return v;
}

}  // namespace

std::vector<PatchLevels> stitchedPatchLevels(const World& world, const TessellationOptions& options) {
    const size_t count = world.surfaces.size();
    std::vector<PatchLevels> levels(count);
    std::vector<PatchErrors> errors(count);
    tbb::parallel_for(size_t(0), count, [&](size_t s) {
        const Surface& surf = world.surfaces[s];
        // Hidden patches draw nothing, so they neither need levels nor constrain their neighbours'.
        if (!validPatch(world, surf) || resolveShading(world, surf) == SurfaceShading::Hidden) return;
        errors[s] = patchErrors(&world.vertices[surf.firstVertex], surf.patchWidth, surf.patchHeight);
    });

    // One variable per piece column then per piece row of each patch, numbered in surface order.
    std::vector<uint32_t> base(count + 1, 0);
    for (size_t s = 0; s < count; ++s)
        base[s + 1] = base[s] + uint32_t(errors[s].columns.size() + errors[s].rows.size());
    const uint32_t vars = base[count];
    if (vars == 0) return levels;
    std::vector<float> error(vars);
    for (size_t s = 0; s < count; ++s) {
        std::copy(errors[s].columns.begin(), errors[s].columns.end(), error.begin() + base[s]);
        std::copy(errors[s].rows.begin(), errors[s].rows.end(), error.begin() + base[s] + errors[s].columns.size());
    }

    std::vector<EdgeKey> edges;
    for (size_t s = 0; s < count; ++s) {
        if (errors[s].columns.empty()) continue;
        const Surface& surf = world.surfaces[s];
        const Vertex* ctrl = &world.vertices[surf.firstVertex];
        const int32_t w = surf.patchWidth, h = surf.patchHeight;
        auto add = [&](Vec3 a, Vec3 b, Vec3 c, uint32_t var) {
            if (!isFinite(a) || !isFinite(b) || !isFinite(c)) return;  // NaN would break the sort
            if (a == b && b == c) return;  // a collapsed edge joins nothing meaningful
            if (lexLess(c, a)) std::swap(a, c);
            edges.push_back({{a.x, a.y, a.z, b.x, b.y, b.z, c.x, c.y, c.z}, var});
        };
        auto p = [&](int32_t row, int32_t col) { return ctrl[size_t(row) * size_t(w) + size_t(col)].position; };
        const uint32_t columns = uint32_t(errors[s].columns.size());
        for (uint32_t c = 0; c < columns; ++c)
            for (int32_t r : {0, h - 1})
                add(p(r, int32_t(2 * c)), p(r, int32_t(2 * c + 1)), p(r, int32_t(2 * c + 2)), base[s] + c);
        for (uint32_t r = 0; r < errors[s].rows.size(); ++r)
            for (int32_t c : {0, w - 1})
                add(p(int32_t(2 * r), c), p(int32_t(2 * r + 1), c), p(int32_t(2 * r + 2), c), base[s] + columns + r);
    }
    std::sort(edges.begin(), edges.end(), [](const EdgeKey& a, const EdgeKey& b) {
        if (a.p != b.p) return a.p < b.p;
        return a.var < b.var;
    });

    std::vector<uint32_t> parent(vars);
    std::iota(parent.begin(), parent.end(), 0u);
    for (size_t i = 1; i < edges.size(); ++i) {
        if (edges[i].p != edges[i - 1].p) continue;
        const uint32_t a = findRoot(parent, edges[i - 1].var), b = findRoot(parent, edges[i].var);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
    std::vector<uint32_t> root(vars);
    std::vector<float> groupError(vars, 0.0f);
    for (uint32_t v = 0; v < vars; ++v) {
        root[v] = findRoot(parent, v);
        float& g = groupError[root[v]];
        if (error[v] > g) g = error[v];
    }

    // Lower the ceiling until the whole map's patch grids fit the budget; every patch sees the same
    // ceiling, so joined edges still agree.
    int32_t maxLevel = std::clamp(options.maxPatchLevel, 1, kMaxPatchLevelCeiling);
    std::vector<int32_t> level(vars);
    for (;;) {
        for (uint32_t v = 0; v < vars; ++v) level[v] = patchLevel(groupError[root[v]], options.patchTolerance, maxLevel);
        uint64_t total = 0;
        for (size_t s = 0; s < count; ++s) {
            if (errors[s].columns.empty()) continue;
            const size_t columns = errors[s].columns.size();
            uint64_t gw = 1, gh = 1;
            for (size_t c = 0; c < columns; ++c) gw += uint64_t(level[base[s] + c]);
            for (size_t r = 0; r < errors[s].rows.size(); ++r) gh += uint64_t(level[base[s] + columns + r]);
            total += gw * gh;
        }
        if (total <= kPatchVertexBudget || maxLevel == 1) break;
        maxLevel /= 2;
    }

    for (size_t s = 0; s < count; ++s) {
        const size_t columns = errors[s].columns.size(), rows = errors[s].rows.size();
        levels[s].columns.assign(level.begin() + base[s], level.begin() + base[s] + columns);
        levels[s].rows.assign(level.begin() + base[s] + columns, level.begin() + base[s] + columns + rows);
    }
    return levels;
}

}  // namespace luxel
