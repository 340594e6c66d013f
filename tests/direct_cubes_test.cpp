// Direct light into Source ambient cubes (bake/direct_cubes.hpp): in a closed 256-unit room whose ceiling is
// sky, the sky ambient light (as its dome suns) gives each cube side the cosine-weighted share of the dome
// directions whose ray meets the ceiling first, which the test finds by intersecting each direction with the
// room's walls itself; a flagged surface light gives I k / d^2 on the side facing it; unflagged lights and
// other styles give nothing. On the shared Source maps the baked direct part stays below vrad's cubes
// (which add bounce) and is the same for 1 and 2 threads.
#include <catch2/catch.hpp>
#include <tbb/task_arena.h>

#include <cmath>

#include "luxel/bake/compare.hpp"
#include "luxel/bake/direct_cubes.hpp"
#include "luxel/bsp/decode.hpp"
#include "luxel/light/map_lights.hpp"
#include "luxel/light/sky_dome.hpp"
#include "luxel/light/source_lights.hpp"
#include "support/decode_helpers.hpp"
#include "support/q3_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;

namespace {

constexpr Vec3 kSample{10, -20, 100};
constexpr Vec3 kAxes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};

// The room of q3_writer (x, y in [-128, 128], z in [0, 256]), its ceiling (wall 1) made sky, one ambient
// sample at kSample.
struct Room {
    World world;
    Geometry geometry;
};
Room skyCeilingRoom() {
    test::RoomOptions o;
    o.mins = {-128, -128, 0};
    o.maxs = {128, 128, 256};
    Room r;
    r.world = test::decodeBytes(test::makeRoomMap(o).build());
    Material sky;
    sky.name = "sky";
    sky.flags = kMaterialSky;
    r.world.materials.push_back(sky);
    r.world.surfaces[1].material = int32_t(r.world.materials.size() - 1);
    r.world.ambientSamples = {AmbientSample{kSample, {}}};
    r.geometry = tessellate(r.world);
    return r;
}

// Whether a ray from kSample along d leaves the room through the ceiling (z = 256) before any wall.
bool meetsCeiling(Vec3 d) {
    if (!(d.z > 0)) return false;
    const float tc = (256 - kSample.z) / d.z;
    const float tx = d.x > 0 ? (128 - kSample.x) / d.x : d.x < 0 ? (-128 - kSample.x) / d.x : INFINITY;
    const float ty = d.y > 0 ? (128 - kSample.y) / d.y : d.y < 0 ? (-128 - kSample.y) / d.y : INFINITY;
    return tc < tx && tc < ty;
}

DirectBakeRules sourceRules() {
    DirectBakeRules rules;
    rules.arrival = sourceLightArrivals;
    rules.cubeCombine = sourceAmbientCube;
    rules.cubesTakeFlaggedOnly = true;
    return rules;
}

AmbientCube bake(const Room& room, const std::vector<Light>& lights) {
    const RayScene scene(room.world, room.geometry);
    DirectBakeStats stats;
    const ProbeValues v = bakeCubesDirect(room.world, room.geometry, scene, lights, sourceRules(), stats);
    REQUIRE(v.kind == ProbeKind::Cubes);
    REQUIRE(v.cubes.size() == 1);
    CHECK(stats.gridPoints == 1);
    return v.cubes[0];
}

}  // namespace

TEST_CASE("direct cubes: the sky light seen through a sky ceiling, side by side as vrad's ray sums", "[bake]") {
    const Room room = skyCeilingRoom();
    Light sky;
    sky.kind = Light::Kind::Sky;
    sky.intensity = 2;
    sky.color = {1, 0.5f, 0.25f};
    sky.inProbes = true;
    Light lamp;  // a bright point light vrad does not put into cubes directly
    lamp.origin = {0, 0, 200};
    lamp.intensity = 1000;
    lamp.falloff = Light::Falloff::Quadratic;
    std::vector<Light> lights = expandSkyLights({sky});
    lights.push_back(lamp);
    const AmbientCube cube = bake(room, lights);

    // Each side: intensity x colour x (sum over ceiling directions of max(0, axis . d)) / (that sum over all).
    const std::vector<Vec3> dirs = geodesicDirections(kSkyDomeFrequency);
    for (size_t side = 0; side < 6; ++side) {
        double open = 0, all = 0;
        for (Vec3 d : dirs) {
            const double c = std::max(0.0f, dot(kAxes[side], d));
            all += c;
            if (meetsCeiling(d)) open += c;
        }
        INFO("side " << side);
        for (int ch = 0; ch < 3; ++ch) CHECK(cube[side][ch] == Approx(2.0 * sky.color[ch] * open / all).epsilon(1e-4).margin(1e-6));
    }
    CHECK(cube[5] == Vec3{});            // the floor side sees no sky
    CHECK(cube[4].x > cube[0].x);  // looking up sees more of the ceiling than looking sideways
}

TEST_CASE("direct cubes: a flagged surface light gives I k / d^2 on the side facing it; others give nothing", "[bake]") {
    const Room room = skyCeilingRoom();
    Light panel;
    panel.kind = Light::Kind::Area;
    panel.origin = {kSample.x, kSample.y, 250};
    panel.normal = {0, 0, -1};
    panel.intensity = 5;
    panel.color = {1, 1, 0.5f};
    panel.inProbes = true;
    const float d = 250 - kSample.z;
    const AmbientCube cube = bake(room, {panel});
    CHECK(cube[4].x == Approx(5.0 / (d * d)).epsilon(1e-5));
    CHECK(cube[4].z == Approx(2.5 / (d * d)).epsilon(1e-5));
    for (size_t side : {0, 1, 2, 3, 5}) CHECK(cube[side] == Vec3{});
    // The same light unflagged, or on another style: nothing.
    Light unflagged = panel, styled = panel;
    unflagged.inProbes = false;
    styled.style = 5;
    for (const Vec3& side : bake(room, {unflagged, styled})) CHECK(side == Vec3{});
}

TEST_CASE("direct cubes of the shared Source maps stay below vrad's cubes, which add bounce", "[bake][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    for (const char* name : {"sdk2013ce_sdk_vehicles_v20.bsp", "bsptool_tf2_test2.bsp", "bsputils_gmod_map_v20.bsp",
                             "sdk2013pr_ss_hl2_level_1_v20.bsp", "bsptool_tf2_mp_lobby.bsp"}) {
        INFO(name);
        const MapSource src = openMapPath(*test::sharedMaps() + "/source/" + name);
        const World world = decodeMap(src);
        const Geometry geometry = tessellate(world);
        const MapLights lights = mapLights(world, src, {});
        const RayScene scene(world, geometry);
        DirectBakeStats stats;
        const ProbeValues cubes = bakeCubesDirect(world, geometry, scene, lights.lights, lights.rules, stats);
        REQUIRE(cubes.size() == world.ambientSamples.size());
        const ProbeComparison c = compareProbes(storedProbes(world), cubes, {});
        WARN(name << ": cube sides median relative error " << 100 * c.medianRelative << "%, mean luminance "
                  << c.meanReference << " stored, " << c.meanCompared << " baked; " << c.brighter << " of " << c.values
                  << " sides brighter by over 10%");
        // Measured: at most 16 of 10,854 sides (sdk_vehicles) pass stored light by over 10% + 1% of its mean.
        CHECK(double(c.brighter) <= 0.005 * double(c.values));
        CHECK(c.meanCompared <= c.meanReference);
        // The same bytes on 1 thread.
        ProbeValues one;
        tbb::task_arena(1).execute([&] { one = bakeCubesDirect(world, geometry, scene, lights.lights, lights.rules, stats); });
        REQUIRE(one.cubes == cubes.cubes);
    }
}
