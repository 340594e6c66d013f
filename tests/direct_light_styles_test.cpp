// The direct-light baker's style slots and deluxe direction pages (bake/direct_light.hpp): a surface's
// slot k holds exactly its lights of style Surface::styles[k]; a luxel's direction is the normalised
// weighted sum of the directions to its lights, written back and decoded within byte quantisation.
#include <catch2/catch.hpp>

#include <cmath>

#include "luxel/bake/direct_light.hpp"
#include "luxel/bsp/decode.hpp"
#include "luxel/bsp/write_lightmaps.hpp"
#include "luxel/light/luxels.hpp"
#include "support/decode_helpers.hpp"
#include "support/point_arrival.hpp"
#include "support/q2_writer.hpp"
#include "support/q3_writer.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

float expectedAt(const Light& l, Vec3 p) {
    const Vec3 d = l.origin - p;
    return l.intensity * (l.origin.z - p.z) / std::pow(dot(d, d), 1.5f);  // a floor: cos = dz / d
}

Light pointLight(Vec3 at, float intensity, uint8_t style) {
    Light l;
    l.origin = at;
    l.intensity = intensity;
    l.style = style;
    return l;
}

std::vector<std::array<uint8_t, 3>> grey(int w, int h) { return std::vector<std::array<uint8_t, 3>>(size_t(w * h), {9, 9, 9}); }

const float* texelOf(const std::vector<LightmapPage>& pages, const Luxel& x) {
    const LightmapPage& p = pages.at(size_t(x.page));
    return p.rgb.data() + (size_t(x.y) * size_t(p.width) + size_t(x.x)) * 3;
}

}  // namespace

TEST_CASE("direct bake: slot k of a surface gets exactly its lights of style k", "[bake]") {
    // Two 64 x 32 floor faces side by side at z = 0: face 0 (y 0..32) holds styles 0 and 5, face 1 (y 32..64)
    // style 0 alone. Quake 2 luxels are 16 units: 5 x 3 a face.
    Q2MapBuilder b;
    b.entities = "{\n\"classname\" \"worldspawn\"\n}\n";
    const int32_t floor = b.addPlane({0, 0, 1}, 0);
    const int32_t tex = b.addTexinfo({1, 0, 0, 0}, {0, 1, 0, 0});
    b.addFace({{0, 0, 0}, {0, 32, 0}, {64, 32, 0}, {64, 0, 0}}, floor, false, tex, {0, 5, 255, 255},
              b.addLighting({grey(5, 3), grey(5, 3)}));
    b.addFace({{0, 32, 0}, {0, 64, 0}, {64, 64, 0}, {64, 32, 0}}, floor, false, tex, {0, 255, 255, 255},
              b.addLighting({grey(5, 3)}));
    addQ2FloorWorld(b, floor, tex, 2, {64, 64, 0});
    const World world = decodeBytes(b.build(), "styles.bsp");
    REQUIRE(world.surfaces.size() == 2);
    REQUIRE(world.extraLightmapSlots[0].size() == world.lightmaps.size());
    const Geometry geometry = tessellate(world);
    const RayScene scene(world, geometry);
    const Light plain = pointLight({20, 40, 100}, 30000, 0), pulsing = pointLight({50, 10, 60}, 10000, 5);
    DirectBakeStats stats;
    const LightmapSet set = bakeLightmapsDirect(world, geometry, scene, {plain, pulsing}, DirectBakeRules{pointArrivals, {}, false, {}, {}}, stats);
    REQUIRE(set.slots[0].size() == world.lightmaps.size());
    REQUIRE(set.slots[1].size() == world.extraLightmapSlots[0].size());
    CHECK(set.slots[2].empty());
    CHECK(set.slots[3].empty());
    CHECK(set.deluxe.empty());
    size_t styled = 0, plainOnly = 0;
    for (const Luxel& x : luxelCentres(world, geometry)) {
        const float* s0 = texelOf(set.slots[0], x);
        const float* s1 = texelOf(set.slots[1], x);
        // Slot 0: the style-0 light alone, on both faces.
        CHECK(s0[0] == Approx(expectedAt(plain, x.position)).epsilon(1e-4));
        CHECK(s0[2] == s0[0]);
        if (x.surface == 0) {
            // Slot 1 (style 5): the style-5 light alone.
            CHECK(s1[0] == Approx(expectedAt(pulsing, x.position)).epsilon(1e-4));
            CHECK(s1[1] == s1[0]);
            ++styled;
        } else {
            // No style-5 slot: the style-5 light reaches it but lights nothing, in no page.
            CHECK(expectedAt(pulsing, x.position) > 0.5f);
            CHECK(s1[0] == 0.0f);
            CHECK(s1[1] == 0.0f);
            ++plainOnly;
        }
    }
    CHECK(styled == 15);
    CHECK(plainOnly == 15);
}

TEST_CASE("direct bake: deluxe pages hold the direction to the light, written back within byte quantisation", "[bake]") {
    // A -deluxe room (light page then direction page per wall) lit by one light off its centre.
    RoomOptions o;
    o.direction = [](int, int, int) { return std::array<uint8_t, 3>{128, 128, 255}; };
    const Bytes file = makeRoomMap(o).build();
    const MapSource src = memorySource(file, "deluxe.bsp");
    const World world = decodeMap(src);
    REQUIRE(world.deluxemaps.size() == 12);
    const Geometry geometry = tessellate(world);
    const RayScene scene(world, geometry);
    const Light light = pointLight({40, -30, 150}, 40000, 0);
    const std::vector<Luxel> luxels = luxelCentres(world, geometry);
    REQUIRE(luxels.size() == 6 * 128 * 128);

    SECTION("the unit vector to the light, written into the lump and decoded back") {
        DirectBakeStats stats;
        const LightmapSet set = bakeLightmapsDirect(world, geometry, scene, {light}, DirectBakeRules{pointArrivals, {}, false, {}, {}}, stats);
        REQUIRE(set.deluxe.size() == 12);
        for (size_t p = 1; p < 12; p += 2) CHECK(set.deluxe[p].width == 0);  // only light pages have directions
        const World back = decodeMap(memorySource(writeLightmaps(src, world, set).map, "deluxe2.bsp"));
        REQUIRE(back.deluxemaps.size() == 12);
        for (const Luxel& x : luxels) {
            const Vec3 want = normalize(light.origin - x.position);
            const float* d = texelOf(set.deluxe, x);
            REQUIRE(d[0] == Approx(want.x).margin(1e-5));
            REQUIRE(d[1] == Approx(want.y).margin(1e-5));
            REQUIRE(d[2] == Approx(want.z).margin(1e-5));
            // Stored as (d + 1) * 127.5 truncated, decoded as b * 2 / 255 - 1: at most 2/255 below.
            const float* stored = texelOf(back.deluxemaps, x);
            for (int k = 0; k < 3; ++k) {
                REQUIRE(stored[k] <= d[k] + 1e-5f);
                REQUIRE(stored[k] >= d[k] - 2.0f / 255 - 1e-5f);
            }
        }
    }
    SECTION("q3map2's weights: the luxel normal / 64 plus the direction times the light's 0.3 0.59 0.11 luminance") {
        DirectBakeRules rules{pointArrivals, {}, false, {}, {}};
        rules.deluxeWeights = {0.3f, 0.59f, 0.11f};
        rules.deluxeNormal = 1.0f / 64;
        Light coloured = light;
        coloured.color = {1, 0.5f, 0.25f};
        DirectBakeStats stats;
        const LightmapSet set = bakeLightmapsDirect(world, geometry, scene, {coloured}, rules, stats);
        for (const Luxel& x : luxels) {
            const LightArrival a = pointArrival(coloured, x.position, x.normal);
            const float weight = 0.3f * a.color.x + 0.59f * a.color.y + 0.11f * a.color.z;
            const Vec3 want = normalize(x.normal * (1.0f / 64) + a.toLight * weight);
            const float* d = texelOf(set.deluxe, x);
            REQUIRE(d[0] == Approx(want.x).margin(1e-4));
            REQUIRE(d[1] == Approx(want.y).margin(1e-4));
            REQUIRE(d[2] == Approx(want.z).margin(1e-4));
        }
    }
}

TEST_CASE("encodeQuake3Direction: q3map2's (d + 1) * 127.5 truncated, of the unit vector; zero stays 0 0 0", "[bake]") {
    CHECK(encodeQuake3Direction({0, 0, 1}) == std::array<uint8_t, 3>{127, 127, 255});
    CHECK(encodeQuake3Direction({0, 0, -3}) == std::array<uint8_t, 3>{127, 127, 0});
    // (0.6, -0.8, 0): 1.6 * 127.5 = 204, 0.2 * 127.5 = 25.5 -> 25.
    CHECK(encodeQuake3Direction({3, -4, 0}) == std::array<uint8_t, 3>{204, 25, 127});
    CHECK(encodeQuake3Direction({}) == std::array<uint8_t, 3>{0, 0, 0});
}
