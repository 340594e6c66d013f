// mapLights (light/map_lights.hpp) on a synthetic Quake 3 room: q3map2's -pointscale, -areascale and
// -skyscale each scale their own kind of light and leave the others alone.
#include <catch2/catch.hpp>

#include <string>

#include "luxel/bsp/decode.hpp"
#include "luxel/light/map_lights.hpp"
#include "support/decode_helpers.hpp"
#include "support/q3_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

// The light of each kind arriving at a floor point (no shadows), under the given scale factors.
struct ByKind {
    float point = 0, area = 0, sun = 0;
};

ByKind arrivalsWith(float pointScale, float areaScale, float skyScale) {
    // The room's walls are a q3map_surfacelight shader; worldspawn keeps its light entities: a point light
    // and a _sun light aimed at a target below it.
    const std::string game = tempDir("map-lights-scales");
    const std::string shader = "textures/luxel/wall\n{\n\tq3map_surfacelight 100\n\t{\n\t\tmap $lightmap\n\t}\n}\n";
    writeFile(game + "/scripts/luxel.shader", Bytes(shader.begin(), shader.end()));
    writeFile(game + "/textures/luxel/wall.tga", tga1x1(200, 200, 200));
    Q3MapBuilder b = makeRoomMap();
    b.entities = R"({ "classname" "worldspawn" "_keepLights" "1" }
{ "classname" "light" "origin" "40 0 128" "light" "200" }
{ "classname" "light" "origin" "0 0 200" "_sun" "1" "target" "down" "light" "50" }
{ "classname" "target_position" "origin" "100 0 0" "targetname" "down" }
)";
    const MapSource src = memorySource(b.build(), "scales.bsp");
    const World world = decodeMap(src);
    MapLightOptions o;
    o.materials.gameDirs = {game};
    o.pointScale = pointScale, o.areaScale = areaScale, o.skyScale = skyScale;
    const MapLights lights = mapLights(world, src, o);
    ByKind k;
    size_t counts[3] = {};
    for (const Light& l : lights.lights) {
        const float v = arrivalAt(lights.rules.arrival, l, {10, 20, 0}, {0, 0, 1}).color.x;
        if (l.kind == Light::Kind::Point) k.point += v, ++counts[0];
        if (l.kind == Light::Kind::Area) k.area += v, ++counts[1];
        if (l.kind == Light::Kind::Sun) k.sun += v, ++counts[2];
    }
    REQUIRE(counts[0] == 1);
    REQUIRE(counts[1] > 0);
    REQUIRE(counts[2] == 1);
    return k;
}

}  // namespace

TEST_CASE("mapLights: --pointscale, --areascale and --skyscale scale their own lights as q3map2's options do", "[lights]") {
    const ByKind base = arrivalsWith(1, 1, 1);
    REQUIRE(base.point > 0);
    REQUIRE(base.area > 0);
    REQUIRE(base.sun > 0);
    // q3map2 multiplies its photons per unit: light arriving at a point doubles with the factor.
    const ByKind point = arrivalsWith(2, 1, 1);
    CHECK(point.point == Approx(2 * base.point).epsilon(1e-5));
    CHECK(point.area == Approx(base.area).epsilon(1e-6));
    CHECK(point.sun == Approx(base.sun).epsilon(1e-6));
    const ByKind area = arrivalsWith(1, 2, 1);
    CHECK(area.point == Approx(base.point).epsilon(1e-6));
    CHECK(area.area == Approx(2 * base.area).epsilon(1e-5));
    CHECK(area.sun == Approx(base.sun).epsilon(1e-6));
    const ByKind sky = arrivalsWith(1, 1, 3);
    CHECK(sky.point == Approx(base.point).epsilon(1e-6));
    CHECK(sky.area == Approx(base.area).epsilon(1e-6));
    CHECK(sky.sun == Approx(3 * base.sun).epsilon(1e-5));
}
