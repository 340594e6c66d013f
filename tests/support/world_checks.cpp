// Catch2 assertions over decoded worlds, kept apart from decode_helpers so the fuzz targets can link the map
// writers without Catch.
#include <catch2/catch.hpp>

#include "support/decode_helpers.hpp"

namespace luxel::test {

void requireSameGeometryAndLight(const World& a, const World& b) {
    REQUIRE(a.surfaces.size() == b.surfaces.size());
    REQUIRE(a.vertices.size() == b.vertices.size());
    for (size_t i = 0; i < a.vertices.size(); ++i) {
        REQUIRE(a.vertices[i].position == b.vertices[i].position);
        REQUIRE(a.vertices[i].lightmapUV.x == b.vertices[i].lightmapUV.x);
        REQUIRE(a.vertices[i].lightmapUV.y == b.vertices[i].lightmapUV.y);
        REQUIRE(a.vertices[i].color.w == b.vertices[i].color.w);
    }
    REQUIRE(a.indices == b.indices);
    REQUIRE(a.lightmaps.size() == b.lightmaps.size());
    for (size_t i = 0; i < a.lightmaps.size(); ++i) REQUIRE(a.lightmaps[i].rgb == b.lightmaps[i].rgb);
    REQUIRE(a.leaves.size() == b.leaves.size());
    REQUIRE(a.pvs.rows == b.pvs.rows);
}

}  // namespace luxel::test
