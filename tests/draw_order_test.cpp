// The engine's draw order of blended surfaces (render/draw_order.hpp) on a hand-made tree.
#include <catch2/catch.hpp>

#include "../src/render/draw_order.hpp"

using namespace luxel;

TEST_CASE("engineDrawOrder: shaders by first use, surfaces in the tree walk (children[0] first)", "[render]") {
    World w;
    w.materials.resize(3);
    w.surfaces.resize(5);
    const int32_t mats[5] = {2, 0, 2, 1, 0};
    for (size_t i = 0; i < 5; ++i) w.surfaces[i].material = mats[i];
    // Root node 0: children[0] = node 1, children[1] = leaf 2. Node 1: children[0] = leaf 1, [1] = leaf 0.
    w.nodes.resize(2);
    w.nodes[0].children = {1, -3};
    w.nodes[1].children = {-2, -1};
    w.leaves.resize(3);
    w.leafSurfaces = {3, 0, 4, 0, 1};  // leaf 0: {3}; leaf 1: {0, 4}; leaf 2: {0, 1} (surface 0 twice)
    w.leaves[0].firstLeafSurface = 0, w.leaves[0].numLeafSurfaces = 1;
    w.leaves[1].firstLeafSurface = 1, w.leaves[1].numLeafSurfaces = 2;
    w.leaves[2].firstLeafSurface = 3, w.leaves[2].numLeafSurfaces = 2;
    const render::DrawOrder o = render::engineDrawOrder(w);
    // First use in surface order: material 2 (surface 0), 0 (surface 1), 1 (surface 3).
    CHECK(o.materialRank == std::vector<uint32_t>{1, 2, 0});
    // Walk: leaf 1 (surfaces 0, 4), leaf 0 (3), leaf 2 (0 again: kept at its first place, then 1); surface 2
    // is in no leaf and comes last.
    CHECK(o.surfaceRank == std::vector<uint32_t>{0, 3, 4, 2, 1});
}

TEST_CASE("engineDrawOrder: a hostile tree (cycles, children out of range) ends and ranks every surface", "[render]") {
    World w;
    w.surfaces.resize(2);
    w.nodes.resize(2);
    w.nodes[0].children = {1, 7};     // a node that does not exist
    w.nodes[1].children = {0, -1};    // back to the root (a cycle); leaf 0
    w.nodes.push_back({});
    w.nodes[2].children = {-100, 2};  // unreachable anyway: a leaf that does not exist, itself
    w.leaves.resize(1);
    w.leaves[0].firstLeafSurface = 0, w.leaves[0].numLeafSurfaces = 1000;  // past leafSurfaces
    w.leafSurfaces = {1};
    const render::DrawOrder o = render::engineDrawOrder(w);
    CHECK(o.surfaceRank == std::vector<uint32_t>{1, 0});  // surface 0 is in no reachable leaf
}
