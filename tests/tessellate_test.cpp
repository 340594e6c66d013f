#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>

#include <tbb/task_arena.h>

#include "luxel/bsp/decode.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/geometry/patch.hpp"
#include "luxel/io/map_source.hpp"

using namespace luxel;

namespace {

Vertex vertexAt(Vec3 p) {
    Vertex v;
    v.position = p;
    v.normal = {0, 0, 1};
    v.color = {1, 1, 1, 1};
    return v;
}

uint32_t addTriangleSurface(World& w, SurfaceKind kind, int32_t material, int32_t page) {
    Surface s;
    s.kind = kind;
    s.material = material;
    s.lightmapPage = page;
    s.firstVertex = uint32_t(w.vertices.size());
    s.numVertices = 3;
    s.firstIndex = uint32_t(w.indices.size());
    s.numIndices = 3;
    for (Vec3 p : {Vec3{0, 0, 0}, Vec3{0, 8, 0}, Vec3{8, 0, 0}}) w.vertices.push_back(vertexAt(p));
    for (uint32_t i : {0u, 1u, 2u}) w.indices.push_back(i);
    w.surfaces.push_back(s);
    return uint32_t(w.surfaces.size() - 1);
}

uint32_t addPatch(World& w, int32_t width, int32_t height, const std::vector<Vec3>& points, int32_t material = 0) {
    Surface s;
    s.kind = SurfaceKind::Patch;
    s.material = material;
    s.patchWidth = width;
    s.patchHeight = height;
    s.firstVertex = uint32_t(w.vertices.size());
    s.numVertices = uint32_t(points.size());
    for (Vec3 p : points) w.vertices.push_back(vertexAt(p));
    w.surfaces.push_back(s);
    return uint32_t(w.surfaces.size() - 1);
}

World baseWorld() {
    World w;
    w.materials.resize(1);  // plain
    return w;
}

// Positions of one grid row or column of a tessellated patch, as raw bits, sorted: a patch's vertices in
// Geometry are its grid row-major (patch.hpp), with width 1 + sum of its column levels.
using Bits = std::array<uint32_t, 3>;
std::vector<Bits> gridLine(const Geometry& g, const World& world, const PatchLevels& levels, uint32_t surface,
                           bool row, int32_t which) {
    int32_t gw = 1, gh = 1;
    for (int32_t n : levels.columns) gw += n;
    for (int32_t n : levels.rows) gh += n;
    const uint32_t first = g.surfaces[surface].firstVertex;
    REQUIRE(g.surfaces[surface].numVertices == uint32_t(gw * gh));
    (void)world;
    std::vector<Bits> out;
    const int32_t count = row ? gw : gh;
    for (int32_t k = 0; k < count; ++k) {
        const int32_t r = row ? which : k, c = row ? k : which;
        const Vec3 p = g.vertices[first + uint32_t(r * gw + c)].position;
        Bits b;
        std::memcpy(b.data(), &p, sizeof p);
        out.push_back(b);
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

TEST_CASE("polygon and mesh indices become absolute, winding kept", "[geometry]") {
    World w = baseWorld();
    for (int i = 0; i < 3; ++i) w.vertices.push_back(vertexAt({-100, -100, -100}));  // not part of any surface
    Surface quad;
    quad.kind = SurfaceKind::Polygon;
    quad.material = 0;
    quad.firstVertex = 3;
    quad.numVertices = 4;
    quad.firstIndex = 0;
    quad.numIndices = 6;
    for (Vec3 p : {Vec3{0, 0, 0}, Vec3{0, 10, 0}, Vec3{10, 10, 2}, Vec3{10, 0, 2}}) w.vertices.push_back(vertexAt(p));
    for (uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) w.indices.push_back(i);
    w.surfaces.push_back(quad);
    Surface mesh;
    mesh.kind = SurfaceKind::Mesh;
    mesh.material = 0;
    mesh.firstVertex = 7;
    mesh.numVertices = 3;
    mesh.firstIndex = 6;
    mesh.numIndices = 6;
    for (Vec3 p : {Vec3{5, 5, 5}, Vec3{6, 5, 5}, Vec3{5, 6, 5}}) w.vertices.push_back(vertexAt(p));
    for (uint32_t i : {2u, 1u, 0u, 0u, 1u, 7u}) w.indices.push_back(i);  // second triangle names vertex 7 of 3
    w.surfaces.push_back(mesh);

    const Geometry g = tessellate(w);
    REQUIRE(g.surfaces.size() == 2);
    const DrawSurface& a = g.surfaces[0];
    const DrawSurface& b = g.surfaces[1];
    REQUIRE(a.numIndices == 6);
    REQUIRE(b.numIndices == 3);  // the triangle with an out-of-range index is dropped
    auto pos = [&](const DrawSurface& s, uint32_t k) { return g.vertices.at(g.indices.at(s.firstIndex + k)).position; };
    const uint32_t quadOrder[6] = {0, 1, 2, 0, 2, 3};
    for (uint32_t k = 0; k < 6; ++k) CHECK(pos(a, k) == w.vertices[3 + quadOrder[k]].position);
    CHECK(pos(b, 0) == Vec3{5, 6, 5});
    CHECK(pos(b, 1) == Vec3{6, 5, 5});
    CHECK(pos(b, 2) == Vec3{5, 5, 5});
    CHECK(a.bounds.mins == Vec3{0, 0, 0});
    CHECK(a.bounds.maxs == Vec3{10, 10, 2});
    CHECK(b.bounds.mins == Vec3{5, 5, 5});
    CHECK(b.bounds.maxs == Vec3{6, 6, 5});
    CHECK(g.triangleCount() == 3);
}

TEST_CASE("a polygon without indices is drawn as a fan", "[geometry]") {
    World w = baseWorld();
    Surface s;
    s.kind = SurfaceKind::Polygon;
    s.material = 0;
    s.numVertices = 5;
    for (int i = 0; i < 5; ++i) w.vertices.push_back(vertexAt({float(i), float(i * i), 0}));
    w.surfaces.push_back(s);
    const Geometry g = tessellate(w);
    REQUIRE(g.surfaces[0].numIndices == 9);
    const uint32_t want[9] = {0, 1, 2, 0, 2, 3, 0, 3, 4};
    for (int k = 0; k < 9; ++k)
        CHECK(g.vertices[g.indices[size_t(k)]].position == w.vertices[want[k]].position);
}

TEST_CASE("shading is resolved from material flags and lightmap pages", "[geometry]") {
    World w;
    w.materials.resize(5);
    w.materials[1].flags = kMaterialNoDraw;
    w.materials[2].flags = kMaterialSky;
    w.materials[3].flags = kMaterialNoLightmap;
    w.materials[4].flags = kMaterialTwoSided;
    w.lightmaps.resize(2);
    w.lightmaps[0].width = w.lightmaps[0].height = 128;  // page 1 stays empty (width 0)

    const uint32_t lit = addTriangleSurface(w, SurfaceKind::Polygon, 0, 0);
    const uint32_t emptyPage = addTriangleSurface(w, SurfaceKind::Polygon, 0, 1);
    const uint32_t missingPage = addTriangleSurface(w, SurfaceKind::Polygon, 0, 5);
    const uint32_t vertexLit = addTriangleSurface(w, SurfaceKind::Mesh, 0, -3);
    const uint32_t nodraw = addTriangleSurface(w, SurfaceKind::Polygon, 1, 0);
    const uint32_t sky = addTriangleSurface(w, SurfaceKind::Polygon, 2, 0);
    const uint32_t noLightmap = addTriangleSurface(w, SurfaceKind::Polygon, 3, 0);
    const uint32_t twoSided = addTriangleSurface(w, SurfaceKind::Mesh, 4, 0);
    const uint32_t noMaterial = addTriangleSurface(w, SurfaceKind::Polygon, -1, 0);
    const uint32_t badMaterial = addTriangleSurface(w, SurfaceKind::Polygon, 99, -1);

    const Geometry g = tessellate(w);
    REQUIRE(g.surfaces.size() == w.surfaces.size());
    auto& s = g.surfaces;
    CHECK(s[lit].shading == SurfaceShading::Lightmap);
    CHECK(s[lit].lightmapPage == 0);
    CHECK(s[emptyPage].shading == SurfaceShading::Vertex);
    CHECK(s[emptyPage].lightmapPage == -1);
    CHECK(s[missingPage].shading == SurfaceShading::Vertex);
    CHECK(s[vertexLit].shading == SurfaceShading::Vertex);
    CHECK(s[nodraw].shading == SurfaceShading::Hidden);
    CHECK(s[nodraw].numIndices == 0);
    CHECK(s[sky].shading == SurfaceShading::Sky);
    CHECK(s[sky].numIndices == 3);
    CHECK(s[noLightmap].shading == SurfaceShading::Vertex);
    CHECK(s[twoSided].shading == SurfaceShading::Lightmap);
    CHECK(s[twoSided].twoSided);
    CHECK_FALSE(s[lit].twoSided);
    CHECK(s[noMaterial].shading == SurfaceShading::Lightmap);
    CHECK(s[noMaterial].material == -1);
    CHECK(s[badMaterial].shading == SurfaceShading::Vertex);
    for (uint32_t i : {lit, emptyPage, missingPage, vertexLit, sky, noLightmap, twoSided, noMaterial, badMaterial})
        CHECK(s[i].numIndices == 3);
}

TEST_CASE("billboards become points with bounds and no triangles", "[geometry]") {
    World w = baseWorld();
    addTriangleSurface(w, SurfaceKind::Polygon, 0, -1);
    Surface flare;
    flare.kind = SurfaceKind::Billboard;
    flare.material = 0;
    flare.origin = {10, 20, 30};
    flare.color = {1, 0.5f, 0.25f};
    flare.normal = {0, 1, 0};
    w.surfaces.push_back(flare);

    const Geometry g = tessellate(w);
    REQUIRE(g.billboards.size() == 1);
    const Billboard& b = g.billboards[0];
    CHECK(b.surface == 1);
    CHECK(b.origin == Vec3{10, 20, 30});
    CHECK(b.color == Vec3{1, 0.5f, 0.25f});
    CHECK(b.normal == Vec3{0, 1, 0});
    const DrawSurface& ds = g.surfaces[1];
    CHECK(ds.shading == SurfaceShading::Hidden);
    CHECK(ds.numIndices == 0);
    REQUIRE_FALSE(ds.bounds.empty());
    CHECK(ds.bounds.mins == Vec3{10 - b.radius, 20 - b.radius, 30 - b.radius});
    CHECK(ds.bounds.maxs == Vec3{10 + b.radius, 20 + b.radius, 30 + b.radius});
    CHECK(g.triangleCount() == 1);
}

TEST_CASE("patches sharing an edge get bit-identical edge vertices", "[geometry]") {
    // A: 3x3, rows along +y. Its far column bulges hard in z, so alone it would split v finely. Its
    // column 2 is the shared edge E, which is only mildly curved.
    const Vec3 e0{32, 0, 0}, e1{35.3f, 16.1f, 7.7f}, e2{32.2f, 32, 1.1f};
    World w = baseWorld();
    const uint32_t a = addPatch(w, 3, 3,
                                {{0, 0, 0}, {16, 0, 0.5f}, e0,  //
                                 {0, 16, 200}, {16, 16, 3}, e1,  //
                                 {0, 32, 0}, {16, 32, 0.5f}, e2});
    // B: 3x3 whose top row is E backwards, rows stepping in +x, so E runs along B's u.
    auto shift = [](Vec3 p, float dx, float dz) { return Vec3{p.x + dx, p.y, p.z + dz}; };
    const Vec3 f0 = shift(e2, 32, 0), f1 = shift(e1, 32, -1.5f), f2 = shift(e0, 32, 0);
    const uint32_t b = addPatch(w, 3, 3,
                                {e2, e1, e0,  //
                                 shift(e2, 16, 0.25f), shift(e1, 16, -2), shift(e0, 16, 0.25f),  //
                                 f0, f1, f2});
    // C: shares B's bottom row F, given the other way round and as C's left column (along C's v).
    const uint32_t c = addPatch(w, 3, 3,
                                {f2, shift(f2, 16, 0), shift(f2, 32, 0),  //
                                 f1, shift(f1, 16, 0), shift(f1, 32, 0),  //
                                 f0, shift(f0, 16, 0), shift(f0, 32, 0)});

    const TessellationOptions options;  // tolerance 4, at most 16
    auto alone = [&](uint32_t s) {
        const Surface& surf = w.surfaces[s];
        const PatchErrors e = patchErrors(&w.vertices[surf.firstVertex], 3, 3);
        return std::pair{patchLevel(e.columns[0], options.patchTolerance, options.maxPatchLevel),
                         patchLevel(e.rows[0], options.patchTolerance, options.maxPatchLevel)};
    };
    // Alone, A splits E (its v) in 5: the bulge's error is |(0,0,-400)| / 4 = 100, sqrt(100 / 4) = 5;
    // B splits E (its u) once and C splits F (its v) once: the test is meaningful only if they differ.
    REQUIRE(alone(a).second == 5);
    REQUIRE(alone(b).first == 1);
    REQUIRE(alone(c).second == 1);

    const auto levels = stitchedPatchLevels(w, options);
    CHECK(levels[a].rows[0] == 5);
    CHECK(levels[b].columns[0] == 5);
    CHECK(levels[c].rows[0] == 5);  // through B: B's u level also governs its bottom row F

    const Geometry g = tessellate(w, options);
    const auto edgeA = gridLine(g, w, levels[a], a, false, levels[a].columns[0]);  // last column
    const auto edgeB = gridLine(g, w, levels[b], b, true, 0);
    const auto bottomB = gridLine(g, w, levels[b], b, true, levels[b].rows[0]);
    const auto edgeC = gridLine(g, w, levels[c], c, false, 0);
    REQUIRE(edgeA.size() == 6);
    CHECK(edgeA == edgeB);
    CHECK(bottomB == edgeC);
}

TEST_CASE("hostile surfaces draw nothing and do not crash", "[geometry]") {
    World w = baseWorld();
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    std::vector<Vec3> nine(9, Vec3{1, 2, 3});
    const uint32_t evenWidth = addPatch(w, 4, 2, std::vector<Vec3>(8));
    const uint32_t countMismatch = addPatch(w, 3, 3, std::vector<Vec3>(8));
    const uint32_t tooLarge = addPatch(w, 3, kMaxPatchSide + 2, std::vector<Vec3>(size_t(3 * (kMaxPatchSide + 2))));
    nine[4] = {nan, 0, inf};
    const uint32_t notFinite = addPatch(w, 3, 3, nine);
    nine[4] = {1e30f, -1e30f, 1e30f};
    const uint32_t huge = addPatch(w, 3, 3, nine);
    const uint32_t outside = addPatch(w, 3, 3, std::vector<Vec3>(9));
    w.surfaces[outside].firstVertex = uint32_t(w.vertices.size()) - 4;
    const uint32_t badRange = addTriangleSurface(w, SurfaceKind::Mesh, 0, -1);
    w.surfaces[badRange].firstIndex = 0xFFFFFFF0u;

    TessellationOptions options;
    options.maxPatchLevel = 1 << 30;
    const Geometry g = tessellate(w, options);
    REQUIRE(g.surfaces.size() == w.surfaces.size());
    for (uint32_t s : {evenWidth, countMismatch, tooLarge, outside, badRange}) CHECK(g.surfaces[s].numIndices == 0);
    // The silly ceiling is clamped: the two patches with infinite or huge error get at most
    // (kMaxPatchLevelCeiling + 1)^2 vertices each.
    const size_t most = size_t(kMaxPatchLevelCeiling + 1) * size_t(kMaxPatchLevelCeiling + 1);
    CHECK(g.surfaces[huge].numVertices == most);
    CHECK(g.surfaces[notFinite].numVertices <= most);
    CHECK(g.vertices.size() <= 2 * most + 3);
}

TEST_CASE("the same geometry for 1 and 2 threads", "[geometry]") {
    World w;
    w.materials.resize(2);
    w.materials[1].flags = kMaterialTwoSided;
    w.lightmaps.resize(1);
    w.lightmaps[0].width = 128;
    uint32_t seed = 12345;
    auto rnd = [&]() {
        seed = seed * 1664525u + 1013904223u;
        return float(seed >> 8) / float(1 << 24);
    };
    for (int s = 0; s < 300; ++s) {
        if (s % 3 == 0) {
            addTriangleSurface(w, SurfaceKind::Polygon, s % 2, s % 4 == 0 ? 0 : -1);
            continue;
        }
        const int pw = 3 + 2 * (s % 3), ph = 3 + 2 * (s % 4);
        std::vector<Vec3> pts;
        for (int r = 0; r < ph; ++r)
            for (int c = 0; c < pw; ++c) pts.push_back({float(c) * 20 + rnd() * 30, float(r) * 20 + rnd() * 30, rnd() * 60});
        // Every other patch reuses the previous patch's last row as its first, so levels get joined.
        if (s % 3 == 2 && w.surfaces.back().kind == SurfaceKind::Patch && w.surfaces.back().patchWidth == pw) {
            const Surface& prev = w.surfaces.back();
            for (int c = 0; c < pw; ++c)
                pts[size_t(c)] = w.vertices[prev.firstVertex + uint32_t((prev.patchHeight - 1) * pw + c)].position;
        }
        const uint32_t id = addPatch(w, pw, ph, pts, s % 2);
        w.surfaces[id].lightmapPage = 0;
    }
    Geometry one, two;
    tbb::task_arena(1).execute([&] { one = tessellate(w); });
    tbb::task_arena(2).execute([&] { two = tessellate(w); });
    REQUIRE(one.vertices.size() == two.vertices.size());
    REQUIRE(one.indices == two.indices);
    REQUIRE(one.surfaces.size() == two.surfaces.size());
    CHECK(std::memcmp(one.vertices.data(), two.vertices.data(), one.vertices.size() * sizeof(DrawVertex)) == 0);
    for (size_t i = 0; i < one.surfaces.size(); ++i) {
        const DrawSurface &x = one.surfaces[i], &y = two.surfaces[i];
        REQUIRE(x.firstIndex == y.firstIndex);
        REQUIRE(x.numIndices == y.numIndices);
        REQUIRE(x.shading == y.shading);
        REQUIRE(x.bounds.mins == y.bounds.mins);
        REQUIRE(x.bounds.maxs == y.bounds.maxs);
    }
    CHECK(one.triangleCount() > 300 * 2);
}

namespace {

std::string mapPath(const char* name) { return std::string(LUXEL_SHARED_MAPS) + "/q3/" + name; }

}  // namespace

TEST_CASE("real maps: winding agrees with normals, shared patch edges match", "[geometry][maps]") {
    if (!std::filesystem::exists(mapPath("oa088_am_thornish.bsp"))) {
        WARN("skipped: " << mapPath("oa088_am_thornish.bsp") << " not found");
        return;
    }
    for (const char* name : {"oa088_am_thornish.bsp", "oa085_ctf_compromise.bsp", "oa081_oa_ctf2.bsp"}) {
        INFO(name);
        const World decoded = decodeMap(openMapPath(mapPath(name)));
        const Geometry drawn = tessellate(decoded);
        REQUIRE(drawn.surfaces.size() == decoded.surfaces.size());
        size_t billboards = 0;
        for (const Surface& s : decoded.surfaces) billboards += s.kind == SurfaceKind::Billboard;
        CHECK(drawn.billboards.size() == billboards);
        if (std::string(name) == "oa088_am_thornish.bsp") CHECK(billboards == 135);  // maps/README: 135 flares

        // q3map2 -patchmeta marks patches nodraw (their triangles are stored again as meshes); draw every
        // surface here so all real patches go through the tessellator.
        World world = decoded;
        for (Material& m : world.materials) m.flags &= ~uint32_t(kMaterialNoDraw);
        const Geometry g = tessellate(world);

        // Winding: cross(b - a, c - a) opposes the interpolated normals (clockwise seen from the front).
        size_t agree = 0, disagree = 0, patchAgree = 0, patchDisagree = 0;
        for (size_t s = 0; s < g.surfaces.size(); ++s) {
            const DrawSurface& ds = g.surfaces[s];
            const bool patch = world.surfaces[s].kind == SurfaceKind::Patch;
            for (uint32_t k = 0; k < ds.numIndices; k += 3) {
                const DrawVertex& a = g.vertices[g.indices[ds.firstIndex + k]];
                const DrawVertex& b = g.vertices[g.indices[ds.firstIndex + k + 1]];
                const DrawVertex& c = g.vertices[g.indices[ds.firstIndex + k + 2]];
                const Vec3 n = cross(b.position - a.position, c.position - a.position);
                if (length(n) < 1e-2f) continue;
                const bool ok = dot(n, a.normal + b.normal + c.normal) < 0;
                (ok ? agree : disagree) += 1;
                if (patch) (ok ? patchAgree : patchDisagree) += 1;
            }
            // Bounds hold every triangle's vertices.
            for (uint32_t k = 0; k < ds.numIndices; ++k) {
                const Vec3 p = g.vertices[g.indices[ds.firstIndex + k]].position;
                REQUIRE((p.x >= ds.bounds.mins.x && p.y >= ds.bounds.mins.y && p.z >= ds.bounds.mins.z));
                REQUIRE((p.x <= ds.bounds.maxs.x && p.y <= ds.bounds.maxs.y && p.z <= ds.bounds.maxs.z));
            }
        }
        WARN(name << ": winding agrees on " << agree << " triangles, disagrees on " << disagree << " (patches "
                  << patchAgree << " / " << patchDisagree << ")");
        CHECK(patchAgree > 0);
        CHECK(double(agree) >= 0.99 * double(agree + disagree));
        CHECK(double(patchAgree) >= 0.99 * double(patchAgree + patchDisagree));

        // Shared patch edges: find boundary piece edges with the same three control points in two
        // patches (either direction) and compare their tessellated vertices bit for bit.
        const auto levels = stitchedPatchLevels(world, {});
        struct Side {
            uint32_t surface;
            bool row;
            int32_t line, piece;
        };
        std::map<std::array<float, 9>, std::vector<Side>> sides;
        for (uint32_t s = 0; s < world.surfaces.size(); ++s) {
            const Surface& surf = world.surfaces[s];
            if (!validPatch(world, surf) || g.surfaces[s].numIndices == 0) continue;
            const int32_t pw = surf.patchWidth, ph = surf.patchHeight;
            auto p = [&](int32_t r, int32_t c) { return world.vertices[surf.firstVertex + uint32_t(r * pw + c)].position; };
            auto add = [&](Vec3 x, Vec3 y, Vec3 z, Side side) {
                if (x == y && y == z) return;
                if (std::tie(z.x, z.y, z.z) < std::tie(x.x, x.y, x.z)) std::swap(x, z);
                sides[{x.x, x.y, x.z, y.x, y.y, y.z, z.x, z.y, z.z}].push_back(side);
            };
            for (int32_t c = 0; c + 2 < pw; c += 2)
                for (int32_t r : {0, ph - 1}) add(p(r, c), p(r, c + 1), p(r, c + 2), {s, true, r, c / 2});
            for (int32_t r = 0; r + 2 < ph; r += 2)
                for (int32_t c : {0, pw - 1}) add(p(r, c), p(r + 1, c), p(r + 2, c), {s, false, c, r / 2});
        }
        size_t shared = 0;
        for (const auto& [key, list] : sides) {
            if (list.size() < 2) continue;
            auto points = [&](const Side& side) {
                // The boundary grid line, restricted to the piece's vertices.
                const PatchLevels& l = levels[side.surface];
                const auto& along = side.row ? l.columns : l.rows;
                int32_t start = 0;
                for (int32_t q = 0; q < side.piece; ++q) start += along[size_t(q)];
                int32_t gw = 1, gh = 1;
                for (int32_t n : l.columns) gw += n;
                for (int32_t n : l.rows) gh += n;
                const int32_t line = side.line == 0 ? 0 : (side.row ? gh - 1 : gw - 1);
                const uint32_t first = g.surfaces[side.surface].firstVertex;
                REQUIRE(g.surfaces[side.surface].numVertices == uint32_t(gw * gh));
                std::vector<std::array<uint32_t, 3>> out;
                for (int32_t k = 0; k <= along[size_t(side.piece)]; ++k) {
                    const int32_t r = side.row ? line : start + k, c = side.row ? start + k : line;
                    const Vec3 v = g.vertices[first + uint32_t(r * gw + c)].position;
                    std::array<uint32_t, 3> bits;
                    std::memcpy(bits.data(), &v, sizeof v);
                    out.push_back(bits);
                }
                std::sort(out.begin(), out.end());
                return out;
            };
            const auto reference = points(list[0]);
            for (size_t k = 1; k < list.size(); ++k) {
                ++shared;
                REQUIRE(points(list[k]) == reference);
            }
        }
        WARN(name << ": " << shared << " shared patch edges checked");
        if (std::string(name) == "oa088_am_thornish.bsp") CHECK(shared > 0);
    }
}
