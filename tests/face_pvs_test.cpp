// ericw-tools' vis culling of light entities by the leaves that list a face (bake/face_pvs.hpp).
#include <catch2/catch.hpp>

#include "luxel/bake/face_pvs.hpp"
#include "luxel/bsp/decode.hpp"
#include "luxel/io/map_source.hpp"
#include "support/decode_helpers.hpp"
#include "support/q1_writer.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

// Four clusters (one a leaf, leaf l in cluster l - 1 after the solid leaf 0), one byte a row: cluster 0 sees
// 0 and 1, cluster 1 sees 1, cluster 2 sees 2 and 3, cluster 3 sees 3.
World fourLeaves() {
    World w;
    w.surfaces.resize(4);
    w.leaves.resize(5);
    for (int32_t l = 1; l < 5; ++l) w.leaves[size_t(l)].cluster = l - 1;
    w.pvs.numClusters = 4;
    w.pvs.rowBytes = 1;
    w.pvs.rows = {0b0011, 0b0010, 0b1100, 0b1000};
    // Surface 0 is listed by leaves 1 and 3; surface 1 by leaf 2 (twice); surface 2 by leaf 4; surface 3 by none.
    w.leafSurfaces = {0, 1, 1, 0, 2};
    w.leaves[1].firstLeafSurface = 0, w.leaves[1].numLeafSurfaces = 1;
    w.leaves[2].firstLeafSurface = 1, w.leaves[2].numLeafSurfaces = 2;
    w.leaves[3].firstLeafSurface = 3, w.leaves[3].numLeafSurfaces = 1;
    w.leaves[4].firstLeafSurface = 4, w.leaves[4].numLeafSurfaces = 1;
    return w;
}

}  // namespace

TEST_CASE("face pvs: a face sees the union of its leaves' rows; a liquid leaf sees all; an unlisted face none") {
    World w = fourLeaves();
    const std::vector<std::vector<uint32_t>> listing = leavesListing(w);
    REQUIRE(listing.size() == 4);
    CHECK(listing[0] == std::vector<uint32_t>{1, 3});
    CHECK(listing[1] == std::vector<uint32_t>{2});
    CHECK(listing[2] == std::vector<uint32_t>{4});
    CHECK(listing[3].empty());
    // Surface 0: rows of clusters 0 and 2, {0, 1} | {2, 3}: all four.
    const FaceSight s0 = faceSight(w, listing[0]);
    for (int32_t c = 0; c < 4; ++c) CHECK(s0.sees(c));
    // Surface 1: cluster 1's row, {1}.
    const FaceSight s1 = faceSight(w, listing[1]);
    CHECK_FALSE(s1.sees(0));
    CHECK(s1.sees(1));
    CHECK_FALSE(s1.sees(2));
    CHECK_FALSE(s1.sees(3));
    CHECK(s1.sees(-1));  // a light never culled
    // Surface 3: no leaf lists it, so it sees no cluster (only lights that are never culled).
    const FaceSight s3 = faceSight(w, listing[3]);
    for (int32_t c = 0; c < 4; ++c) CHECK_FALSE(s3.sees(c));
    CHECK(s3.sees(-1));
    // Leaf 2 liquid: surface 1 sees every cluster.
    w.leaves[2].liquid = true;
    const FaceSight wet = faceSight(w, listing[1]);
    for (int32_t c = 0; c < 4; ++c) CHECK(wet.sees(c));
}

TEST_CASE("face pvs: a light in a solid, sky or liquid leaf is never culled") {
    // The floor map: leaf 0 solid under z = 0, leaf 1 (x < 64) and leaf 2 above it.
    World w = decodeMap(memorySource(makeQ1FloorMap(Q1Variant::Bsp29).build(), "floor.bsp"));
    REQUIRE(w.leaves.size() >= 3);
    const int32_t open = lightCullCluster(w, {32, 16, 10});
    CHECK(open == w.leaves[1].cluster);
    CHECK(open >= 0);
    CHECK(lightCullCluster(w, {32, 16, -10}) == -1);  // solid
    w.leaves[1].liquid = true;
    CHECK(lightCullCluster(w, {32, 16, 10}) == -1);
    w.leaves[1].liquid = false, w.leaves[1].sky = true;
    CHECK(lightCullCluster(w, {32, 16, 10}) == -1);
}
