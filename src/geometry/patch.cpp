#include "luxel/geometry/patch.hpp"

#include <algorithm>
#include <cmath>

namespace luxel {

namespace {

struct Bernstein {
    float w[3];
};

Bernstein bernstein(float t) {
    const float s = 1.0f - t;
    return {{s * s, 2.0f * t * s, t * t}};
}

// Derivative weights of the quadratic basis (for normals where the stored ones cancel out).
Bernstein bernsteinDerivative(float t) { return {{-2.0f * (1.0f - t), 2.0f - 4.0f * t, 2.0f * t}}; }

bool lexLess(Vec3 a, Vec3 b) {
    if (a.x != b.x) return a.x < b.x;
    if (a.y != b.y) return a.y < b.y;
    return a.z < b.z;
}

Vec2 mix(const Vec2* p[9], const float w[9]) {
    Vec2 r;
    for (int i = 0; i < 9; ++i) r = r + *p[i] * w[i];
    return r;
}

}  // namespace

Vec3 evalQuadratic(Vec3 a, Vec3 b, Vec3 c, float t) {
    const Bernstein b3 = bernstein(t);
    return a * b3.w[0] + b * b3.w[1] + c * b3.w[2];
}

Vec3 quadraticEdge(Vec3 a, Vec3 b, Vec3 c, int32_t k, int32_t n) {
    if (lexLess(c, a)) {
        std::swap(a, c);
        k = n - k;
    } else if (a == c) {
        // A closed curve reads the same both ways round; pick the step both directions agree on.
        k = std::min(k, n - k);
    }
    return evalQuadratic(a, b, c, float(k) / float(n));
}

Vec3 evalBiquadratic(const Vec3 ctrl[9], float u, float v) {
    const Bernstein bu = bernstein(u), bv = bernstein(v);
    Vec3 r;
    for (int row = 0; row < 3; ++row) {
        const Vec3 p = ctrl[row * 3] * bu.w[0] + ctrl[row * 3 + 1] * bu.w[1] + ctrl[row * 3 + 2] * bu.w[2];
        r += p * bv.w[row];
    }
    return r;
}

std::vector<GridParam> gridParams(const std::vector<int32_t>& levels) {
    std::vector<GridParam> out;
    size_t total = 1;
    for (int32_t n : levels) total += size_t(std::max(n, 1));
    out.reserve(total);
    for (size_t p = 0; p < levels.size(); ++p) {
        const int32_t n = std::max(levels[p], 1);
        for (int32_t k = 0; k < n; ++k) out.push_back({int32_t(p), k, n, float(k) / float(n)});
    }
    if (!levels.empty()) {
        const int32_t n = std::max(levels.back(), 1);
        out.push_back({int32_t(levels.size() - 1), n, n, 1.0f});
    }
    return out;
}

PatchGrid evaluatePatch(const Vertex* ctrl, int32_t width, int32_t height, const PatchLevels& levels) {
    PatchGrid grid;
    grid.columns = gridParams(levels.columns);
    grid.rows = gridParams(levels.rows);
    grid.width = int32_t(grid.columns.size());
    grid.height = int32_t(grid.rows.size());
    if (grid.width < 2 || grid.height < 2) return grid;
    grid.vertices.resize(size_t(grid.width) * size_t(grid.height));

    auto at = [&](int32_t row, int32_t col) -> const Vertex& { return ctrl[size_t(row) * size_t(width) + size_t(col)]; };
    std::vector<Bernstein> wu(size_t(grid.width)), wv(size_t(grid.height));
    for (int32_t j = 0; j < grid.width; ++j) wu[size_t(j)] = bernstein(grid.columns[size_t(j)].t);
    for (int32_t i = 0; i < grid.height; ++i) wv[size_t(i)] = bernstein(grid.rows[size_t(i)].t);

    for (int32_t i = 0; i < grid.height; ++i) {
        const GridParam& pv = grid.rows[size_t(i)];
        const int32_t r0 = 2 * pv.piece;
        const Bernstein& bv = wv[size_t(i)];
        for (int32_t j = 0; j < grid.width; ++j) {
            const GridParam& pu = grid.columns[size_t(j)];
            const int32_t c0 = 2 * pu.piece;
            const Bernstein& bu = wu[size_t(j)];
            const Vertex* cp[9];
            float w[9];
            for (int a = 0; a < 3; ++a)
                for (int b = 0; b < 3; ++b) {
                    cp[a * 3 + b] = &at(r0 + a, c0 + b);
                    w[a * 3 + b] = bv.w[a] * bu.w[b];
                }

            DrawVertex& out = grid.vertices[size_t(i) * size_t(grid.width) + size_t(j)];
            // Positions row by row as evalBiquadratic does; the patch border comes from the canonical
            // 1D curve so that a neighbour sharing the border computes the very same floats.
            if (i == 0 || i == grid.height - 1) {
                const int32_t r = i == 0 ? 0 : height - 1;
                out.position = quadraticEdge(at(r, c0).position, at(r, c0 + 1).position, at(r, c0 + 2).position,
                                             pu.k, pu.n);
            } else if (j == 0 || j == grid.width - 1) {
                const int32_t c = j == 0 ? 0 : width - 1;
                out.position = quadraticEdge(at(r0, c).position, at(r0 + 1, c).position, at(r0 + 2, c).position,
                                             pv.k, pv.n);
            } else {
                Vec3 p;
                for (int a = 0; a < 3; ++a)
                    p += (cp[a * 3]->position * bu.w[0] + cp[a * 3 + 1]->position * bu.w[1] +
                          cp[a * 3 + 2]->position * bu.w[2]) *
                         bv.w[a];
                out.position = p;
            }

            Vec3 n;
            Vec4 color;
            const Vec2* lm[9];
            const Vec2* st[9];
            for (int q = 0; q < 9; ++q) {
                n += cp[q]->normal * w[q];
                color = color + cp[q]->color * w[q];
                lm[q] = &cp[q]->lightmapUV;
                st[q] = &cp[q]->texUV;
            }
            if (!(dot(n, n) > 0)) {
                // Stored normals cancel (or are missing): fall back to the surface's own du x dv.
                const Bernstein du = bernsteinDerivative(pu.t), dv = bernsteinDerivative(pv.t);
                Vec3 tu, tv;
                for (int a = 0; a < 3; ++a)
                    for (int b = 0; b < 3; ++b) {
                        tu += cp[a * 3 + b]->position * (bv.w[a] * du.w[b]);
                        tv += cp[a * 3 + b]->position * (dv.w[a] * bu.w[b]);
                    }
                n = cross(tu, tv);
            }
            out.normal = normalize(n);
            out.color = color;
            out.lightmapUV = mix(lm, w);
            out.texUV = mix(st, w);
        }
    }
    return grid;
}

void patchTriangles(const PatchGrid& grid, uint32_t base, std::vector<uint32_t>& out) {
    const uint32_t w = uint32_t(grid.width);
    auto keep = [&](uint32_t a, uint32_t b, uint32_t c) {
        const Vec3 pa = grid.vertices[a].position;
        const Vec3 g = cross(grid.vertices[b].position - pa, grid.vertices[c].position - pa);
        if (g.x == 0 && g.y == 0 && g.z == 0) return;
        out.push_back(base + a);
        out.push_back(base + b);
        out.push_back(base + c);
    };
    for (int32_t i = 0; i + 1 < grid.height; ++i)
        for (uint32_t j = 0; j + 1 < w; ++j) {
            // Rows run along v, columns along u, and stored normals point along du x dv, so
            // (row i, row i+1, column j+1) is clockwise seen from the front, as Quake 3 draws it.
            const uint32_t a = uint32_t(i) * w + j, b = a + w, c = a + 1, d = b + 1;
            keep(a, b, c);
            keep(c, b, d);
        }
}

}  // namespace luxel
