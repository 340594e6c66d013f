#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <vector>

#include "luxel/bsp/decode.hpp"
#include "luxel/bsp/entities.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/render/render.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/vis/visibility.hpp"
#include "support/test_paths.hpp"

using namespace luxel;

namespace {

// A view whose planes accept every point (dot(0,p) - (-1) = 1 >= 0).
View openView() {
    View v;
    for (Plane& p : v.frustum) p = {{0, 0, 0}, -1};
    return v;
}

// A 90x90 degree view looking along +X from eye, near plane 4: inside when x - ex >= 4,
// |y - ey| <= x - ex and |z - ez| <= x - ex. Planes written out by hand, normals pointing inside.
View lookPlusX(Vec3 e) {
    View v;
    v.frustum[0] = {{1, -1, 0}, e.x - e.y};  // x - ex >= y - ey
    v.frustum[1] = {{1, 1, 0}, e.x + e.y};   // x - ex >= -(y - ey)
    v.frustum[2] = {{1, 0, 1}, e.x + e.z};   // x - ex >= -(z - ez)
    v.frustum[3] = {{1, 0, -1}, e.x - e.z};  // x - ex >= z - ez
    v.frustum[4] = {{1, 0, 0}, e.x + 4};     // x - ex >= 4
    return v;
}

DrawSurface drawn(Vec3 mins, Vec3 maxs, SurfaceShading shading = SurfaceShading::Lightmap) {
    DrawSurface d;
    d.numIndices = 3;
    d.shading = shading;
    d.bounds.grow(mins);
    d.bounds.grow(maxs);
    return d;
}

// Space z < 100 is cut by x = 0 and, for x >= 0, by y = 0:
//   leaf 0 (cluster 0, "A"): x < 0          leaf 1 (cluster 1, "B"): x >= 0, y >= 0
//   leaf 2 (cluster 2, "C"): x >= 0, y < 0  leaf 3 (cluster -1): z >= 100, the void above the map.
// PVS: A sees {A, C}, B sees {B, C}, C sees all.
// Surfaces: 0 in A, 1 in B, 2 in C, 3 listed by A and C, 4 hidden in A, 5 a billboard in A (Hidden
// shading), 6 a world-model surface no leaf lists, 7 a door (models[1]) whose box lies in A.
struct Fixture {
    World world;
    Geometry geometry;
    Fixture() {
        world.planes = {{{1, 0, 0}, 0}, {{0, 1, 0}, 0}, {{0, 0, 1}, 100}};
        Node n0, n1, n2;
        n0.plane = 2, n0.children = {-4, 1};
        n1.plane = 0, n1.children = {2, -1};
        n2.plane = 1, n2.children = {-2, -3};
        world.nodes = {n0, n1, n2};
        auto leaf = [](int32_t cluster, Vec3 mins, Vec3 maxs, uint32_t first, uint32_t n) {
            Leaf l;
            l.cluster = cluster, l.mins = mins, l.maxs = maxs, l.firstLeafSurface = first, l.numLeafSurfaces = n;
            return l;
        };
        world.leafSurfaces = {0, 3, 4, 5, 1, 2, 3};
        world.leaves = {leaf(0, {-100, -100, 0}, {0, 100, 100}, 0, 4),
                        leaf(1, {0, 0, 0}, {100, 100, 100}, 4, 1),
                        leaf(2, {0, -100, 0}, {100, 0, 100}, 5, 2),
                        leaf(-1, {-100, -100, 100}, {100, 100, 200}, 0, 0)};
        world.pvs.numClusters = 3;
        world.pvs.rowBytes = 1;
        world.pvs.rows = {0b101, 0b110, 0b111};
        Model m0, m1;
        m0.firstSurface = 0, m0.numSurfaces = 7, m0.mins = {-100, -100, 0}, m0.maxs = {100, 100, 200};
        m1.firstSurface = 7, m1.numSurfaces = 1;
        world.models = {m0, m1};
        world.surfaces.resize(8);

        geometry.surfaces = {
            drawn({-60, -10, 40}, {-40, 10, 60}),                           // 0
            drawn({40, 40, 40}, {60, 60, 60}),                              // 1
            drawn({40, -60, 40}, {60, -40, 60}),                            // 2
            drawn({-10, -60, 40}, {10, -40, 60}),                           // 3
            drawn({-60, 20, 40}, {-40, 30, 60}, SurfaceShading::Hidden),    // 4
            drawn({-58, -58, 42}, {-42, -42, 58}, SurfaceShading::Hidden),  // 5
            drawn({40, 70, 40}, {60, 80, 60}),                              // 6
            drawn({-60, 60, 40}, {-40, 80, 60}),                            // 7
        };
        geometry.surfaces[5].numIndices = 0;
        Billboard b;
        b.surface = 5, b.origin = {-50, -50, 50}, b.radius = 8;
        geometry.billboards = {b};
    }
};

using Ids = std::vector<uint32_t>;

bool sortedUnique(const Ids& ids) {
    return std::adjacent_find(ids.begin(), ids.end(), [](uint32_t a, uint32_t b) { return a >= b; }) == ids.end();
}

}  // namespace

TEST_CASE("findLeaf walks the node tree by plane side", "[vis]") {
    Fixture f;
    CHECK(findLeaf(f.world, {-1, 0, 0}) == 0);
    CHECK(findLeaf(f.world, {1, 5, 0}) == 1);
    CHECK(findLeaf(f.world, {1, -5, 0}) == 2);
    CHECK(findLeaf(f.world, {0, 0, 150}) == 3);
    // On a plane: dot(n,p) - d == 0 counts as the front side (children[0]).
    CHECK(findLeaf(f.world, {0, 0, 0}) == 1);
    CHECK(findLeaf(f.world, {5, 0, 0}) == 1);
    CHECK(findLeaf(f.world, {-5, 0, 100}) == 3);
    CHECK(findCluster(f.world, {-1, 0, 0}) == 0);
    CHECK(findCluster(f.world, {1, -5, 0}) == 2);
    CHECK(findCluster(f.world, {0, 0, 150}) == -1);
}

TEST_CASE("findLeaf survives hostile trees", "[vis]") {
    Fixture f;
    SECTION("no nodes") {
        f.world.nodes.clear();
        CHECK(findLeaf(f.world, {0, 0, 0}) == -1);
        CHECK(findCluster(f.world, {0, 0, 0}) == -1);
    }
    SECTION("a cycle ends instead of hanging") {
        f.world.nodes[2].children = {0, 0};
        CHECK(findLeaf(f.world, {1, 1, 1}) == -1);
    }
    SECTION("child, leaf and plane indices out of range") {
        f.world.nodes[2].children = {7, -50};
        CHECK(findLeaf(f.world, {1, 1, 1}) == -1);
        CHECK(findLeaf(f.world, {1, -1, 1}) == -1);
        f.world.nodes[0].plane = 99;
        CHECK(findLeaf(f.world, {-1, 0, 0}) == -1);
    }
}

TEST_CASE("boxInFrustum against hand-computed boxes", "[vis]") {
    const View v = lookPlusX({0, 0, 0});
    CHECK(boxInFrustum(v, {20, -5, -5}, {30, 5, 5}));          // straight ahead
    CHECK_FALSE(boxInFrustum(v, {-30, -5, -5}, {-20, 5, 5}));  // behind
    CHECK_FALSE(boxInFrustum(v, {0, -1, -1}, {3, 1, 1}));      // between eye and near plane
    CHECK(boxInFrustum(v, {0, -1, -1}, {5, 1, 1}));            // crosses the near plane
    CHECK_FALSE(boxInFrustum(v, {20, 50, -5}, {30, 60, 5}));   // left of the 45 degree edge (+Y is left)
    CHECK_FALSE(boxInFrustum(v, {20, -60, -5}, {30, -50, 5})); // right
    CHECK_FALSE(boxInFrustum(v, {20, -5, 40}, {30, 5, 50}));   // above
    CHECK_FALSE(boxInFrustum(v, {20, -5, -50}, {30, 5, -40})); // below
    CHECK(boxInFrustum(v, {20, 25, -5}, {30, 35, 5}));         // corner (30, 25) is inside: partly in
    CHECK(boxInFrustum(v, {-100, -100, -100}, {100, 100, 100}));  // encloses the eye
    CHECK_FALSE(boxInFrustum(v, {30, 0, 0}, {20, 1, 1}));         // empty box
    CHECK(boxInFrustum(openView(), {-1e6f, -1e6f, -1e6f}, {-1e6f, -1e6f, -1e6f}));
}

TEST_CASE("PVS: a cluster that cannot see another draws none of its surfaces", "[vis]") {
    Fixture f;
    CullStats stats;
    SECTION("from A") {
        const Ids ids = visibleSurfaces(f.world, f.geometry, openView(), {-50, 0, 50}, {}, &stats);
        // 1 (B) is out of A's PVS, 4 is hidden; 6 (listed by no leaf) is frustum-only; 7 (the door) lies in A.
        CHECK(ids == Ids{0, 2, 3, 5, 6, 7});
        CHECK(stats.cameraCluster == 0);
        CHECK(stats.leavesVisited == 2);
        CHECK(stats.leavesDrawn == 2);
        CHECK(stats.surfacesDrawn == 6);
    }
    SECTION("from B") {
        const Ids ids = visibleSurfaces(f.world, f.geometry, openView(), {50, 50, 50}, {}, &stats);
        // 3 is listed by A and C: C is visible from B, so it is drawn (once). The door's box lies in A, which
        // B does not see: it is culled like A's own surfaces.
        CHECK(ids == Ids{1, 2, 3, 6});
        CHECK(stats.cameraCluster == 1);
    }
    SECTION("from C every cluster is visible") {
        CHECK(visibleSurfaces(f.world, f.geometry, openView(), {50, -50, 50}, {}) == Ids{0, 1, 2, 3, 5, 6, 7});
    }
}

TEST_CASE("without a usable PVS every leaf is drawn", "[vis]") {
    Fixture f;
    const Ids all{0, 1, 2, 3, 5, 6, 7};
    CullStats stats;
    SECTION("camera outside the map (cluster -1)") {
        CHECK(visibleSurfaces(f.world, f.geometry, openView(), {0, 0, 150}, {}, &stats) == all);
        CHECK(stats.cameraCluster == -1);
        CHECK(stats.leavesVisited == 3);
    }
    SECTION("camera beyond the map: the tree finds leaf A, but the eye is outside A's box") {
        CHECK(findCluster(f.world, {-500, 0, 50}) == 0);
        CHECK(visibleSurfaces(f.world, f.geometry, openView(), {-500, 0, 50}, {}, &stats) == all);
        CHECK(stats.cameraCluster == -1);
    }
    SECTION("usePvs off") {
        CullOptions o;
        o.usePvs = false;
        CHECK(visibleSurfaces(f.world, f.geometry, openView(), {-50, 0, 50}, o, &stats) == all);
        CHECK(stats.cameraCluster == 0);
    }
    SECTION("map without PVS") {
        f.world.pvs = {};
        CHECK(visibleSurfaces(f.world, f.geometry, openView(), {-50, 0, 50}, {}) == all);
    }
    SECTION("truncated PVS rows are ignored, not read past") {
        f.world.pvs.rows.resize(2);
        CHECK(visibleSurfaces(f.world, f.geometry, openView(), {-50, 0, 50}, {}) == all);
    }
}

TEST_CASE("a surface listed by several leaves is returned once", "[vis]") {
    Fixture f;
    // Make every leaf list surface 3 several times over.
    f.world.leafSurfaces = {0, 3, 4, 5, 3, 1, 3, 2, 3, 3};
    f.world.leaves[0].firstLeafSurface = 0, f.world.leaves[0].numLeafSurfaces = 5;
    f.world.leaves[1].firstLeafSurface = 5, f.world.leaves[1].numLeafSurfaces = 2;
    f.world.leaves[2].firstLeafSurface = 7, f.world.leaves[2].numLeafSurfaces = 3;
    CullOptions o;
    o.usePvs = false;
    const Ids ids = visibleSurfaces(f.world, f.geometry, openView(), {50, -50, 50}, o);
    CHECK(std::count(ids.begin(), ids.end(), 3u) == 1);
    CHECK(sortedUnique(ids));
    CHECK(ids == Ids{0, 1, 2, 3, 5, 6, 7});
}

TEST_CASE("frustum culling removes leaves and surfaces behind the camera", "[vis]") {
    Fixture f;
    const Vec3 eye{10, 50, 50};  // in B, looking +X
    const View v = lookPlusX(eye);
    CullOptions o;
    o.usePvs = false;
    CullStats stats;
    const Ids ids = visibleSurfaces(f.world, f.geometry, v, eye, o, &stats);
    // Leaf A (x <= 0) is behind: it and everything at x < 0 go. Surface 2 (y - ey in [-110,-90], depth <= 50)
    // and 3 (depth <= 0) lie outside the view though leaf C is inside it.
    CHECK(ids == Ids{1, 6});
    CHECK(stats.leavesVisited == 3);
    CHECK(stats.leavesDrawn == 2);

    // The renderer's own view for the same camera (yaw 0 looks along +X, square image) culls the same.
    Camera camera;
    camera.position = eye, camera.angles = {0, 0, 0}, camera.width = 100, camera.height = 100;
    CHECK(visibleSurfaces(f.world, f.geometry, makeView(camera), eye, o) == Ids{1, 6});

    o.useFrustum = false;
    CHECK(visibleSurfaces(f.world, f.geometry, v, eye, o) == Ids{0, 1, 2, 3, 5, 6, 7});
}

TEST_CASE("a camera that sees the whole world box from afar draws everything", "[vis]") {
    Fixture f;
    const Vec3 eye{-1000, 0, 50};  // the tree puts it in leaf A, but it is far outside A's box
    CullStats stats;
    CHECK(visibleSurfaces(f.world, f.geometry, lookPlusX(eye), eye, {}, &stats) == Ids{0, 1, 2, 3, 5, 6, 7});
    CHECK(stats.cameraCluster == -1);
    CHECK(stats.leavesDrawn == 3);
    // Looking away (+X from beyond the far side): nothing.
    const Vec3 beyond{1000, 0, 50};
    CHECK(visibleSurfaces(f.world, f.geometry, lookPlusX(beyond), beyond, {}).empty());
}

TEST_CASE("billboards are culled by their quad, not their Hidden shading", "[vis]") {
    Fixture f;
    const Vec3 eye{-100, -50, 50};  // in A, looking +X at the billboard at (-50,-50,50)
    const View v = lookPlusX(eye);
    Ids ids = visibleSurfaces(f.world, f.geometry, v, eye, {});
    CHECK(std::count(ids.begin(), ids.end(), 5u) == 1);
    // Turned away from it (eye past it, still looking +X): gone.
    const Vec3 past{-20, -50, 50};
    ids = visibleSurfaces(f.world, f.geometry, lookPlusX(past), past, {});
    CHECK(std::count(ids.begin(), ids.end(), 5u) == 0);
}

TEST_CASE("visibleSurfaces survives hostile leaf lists", "[vis]") {
    Fixture f;
    f.world.leafSurfaces.push_back(1000);  // a surface index past the end
    f.world.leaves[1].firstLeafSurface = uint32_t(f.world.leafSurfaces.size() - 2);
    f.world.leaves[1].numLeafSurfaces = 0xFFFFFFFFu;  // runs past the list
    f.world.leaves[2].firstLeafSurface = 0xFFFFFFF0u;
    f.world.leaves[0].cluster = 1000;  // past the PVS: treated as always visible
    f.world.models[0].numSurfaces = 0xFFFFFFFFu;
    f.world.models[1].firstSurface = 0xFFFFFFFFu;
    const Ids ids = visibleSurfaces(f.world, f.geometry, openView(), {50, 50, 50}, {});
    CHECK(sortedUnique(ids));
    CHECK(std::all_of(ids.begin(), ids.end(), [](uint32_t s) { return s < 8; }));
    CHECK(std::count(ids.begin(), ids.end(), 0u) == 1);  // leaf 0 with its out-of-PVS cluster is drawn
}

TEST_CASE("real Quake 3 maps: spawn camera clusters and culling counts", "[vis][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const std::vector<std::string> maps = test::sharedMapFiles("q3");
    REQUIRE(!maps.empty());
    for (const std::string& path : maps) {
        const std::string name = std::filesystem::path(path).filename().string();
        INFO(name);
        const World world = decodeMap(openMapPath(path));
        const Geometry geometry = tessellate(world);
        REQUIRE(geometry.surfaces.size() == world.surfaces.size());
        const Camera camera = cameraFromSpec(world, "spawn", 1920, 1080);
        const int32_t cluster = findCluster(world, camera.position);
        CHECK(cluster >= 0);  // a spawn point's eye is inside the playable space
        if (!findEntities(world, "info_player_intermission").empty())
            CHECK(findCluster(world, cameraFromSpec(world, "intermission", 640, 480).position) >= 0);
        const View view = makeView(camera);
        CullStats pvsStats, allStats;
        const std::vector<uint32_t> culled = visibleSurfaces(world, geometry, view, camera.position, {}, &pvsStats);
        CullOptions none;
        none.usePvs = false, none.useFrustum = false;
        const Ids all = visibleSurfaces(world, geometry, view, camera.position, none, &allStats);
        CullOptions frustumOnly;
        frustumOnly.usePvs = false;
        const Ids inFrustum = visibleSurfaces(world, geometry, view, camera.position, frustumOnly);
        // Culling only ever removes: PVS+frustum within frustum-only within everything.
        CHECK(pvsStats.cameraCluster == cluster);  // the spawn eye lies inside its leaf's box
        CHECK(sortedUnique(culled));
        CHECK(std::includes(inFrustum.begin(), inFrustum.end(), culled.begin(), culled.end()));
        CHECK(std::includes(all.begin(), all.end(), inFrustum.begin(), inFrustum.end()));
        CHECK(!culled.empty());
        if (!world.pvs.empty()) CHECK(pvsStats.leavesVisited < world.leaves.size());
        // The identity culling must keep: from inside the map, the picture with the PVS is the picture
        // without it (the PVS only removes what walls hide).
        Camera small = camera;
        small.width = 320, small.height = 180;
        RenderOptions withPvs, withoutPvs;
        withPvs.look = withoutPvs.look = Look::Linear;
        withoutPvs.usePvs = false;
        const Image a = renderFrame(world, geometry, small, withPvs);
        const Image b = renderFrame(world, geometry, small, withoutPvs);
        REQUIRE(a.pixels.size() == b.pixels.size());
        size_t differing = 0;
        for (size_t i = 0; i < a.pixels.size(); ++i) differing += a.pixels[i] != b.pixels[i];
        CHECK(differing == 0);
    }
}
