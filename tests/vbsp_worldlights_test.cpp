// The Source decoder's world lights (source/worldlights.cpp): synthetic worldlights lumps in an otherwise empty
// map decoded field by field, the lump the lighting set picks, hostile lumps, and the real maps' lights.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include "luxel/bsp/decode.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/light/sky_dome.hpp"
#include "luxel/light/source_lights.hpp"
#include "support/decode_helpers.hpp"
#include "support/test_paths.hpp"
#include "support/vbsp_writer.hpp"
#include "support/vec_checks.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

Vec3 v(float x, float y, float z) { return {x, y, z}; }

// One dworldlight_t as the test writes it.
struct Rec {
    Vec3 origin, intensity, normal, shadowOffset{7, 7, 7};
    int32_t cluster = 3, type = 1, style = 0;
    float stopdot = 0, stopdot2 = 0, exponent = 0, radius = 0, constant = 0, linear = 0, quadratic = 1;
    int32_t flags = 0, texinfo = -1, owner = 0;
};

Bytes lumpOf(const std::vector<Rec>& recs, bool version1) {
    LeWriter w;
    for (const Rec& r : recs) {
        w.vec3(r.origin);
        w.vec3(r.intensity);
        w.vec3(r.normal);
        if (version1) w.vec3(r.shadowOffset);
        w.i32(r.cluster);
        w.i32(r.type);
        w.i32(r.style);
        for (float f : {r.stopdot, r.stopdot2, r.exponent, r.radius, r.constant, r.linear, r.quadratic}) w.f32(f);
        w.i32(r.flags);
        w.i32(r.texinfo);
        w.i32(r.owner);
    }
    return w.bytes;
}

Bytes textBytes(const std::string& s) {
    Bytes b(s.begin(), s.end());
    b.push_back(0);
    return b;
}

// An otherwise empty v20 map (one plane, node and leaf, the world model) with these world light lumps (LDR lump 15,
// HDR lump 54) and entities; an HDR (53) and an LDR (8) lighting lump of 4 bytes each say which lighting
// sets the map has.
World mapWith(const Bytes& ldr, const Bytes& hdr, int32_t version = 0, const std::string& entities = "",
              bool ldrLighting = true, bool hdrLighting = false, bool preferLdr = false) {
    VbspFile m;
    m.lumps[0] = textBytes("{\n\"classname\" \"worldspawn\"\n}\n" + entities);
    m.lumps[15] = ldr;
    m.lumps[54] = hdr;
    m.lumpVersions[15] = m.lumpVersions[54] = version;
    LeWriter plane, node, model;
    plane.vec3(v(0, 0, 1)), plane.f32(0), plane.i32(2);
    m.lumps[1] = plane.bytes;
    node.i32(0), node.i32(-1), node.i32(-1);  // on plane 0, leaf 0 on both sides
    for (int i = 0; i < 10; ++i) node.i16(0);  // bounds, faces, area, padding
    m.lumps[5] = node.bytes;
    m.lumps[10] = Bytes(56, 0);  // one version 0 leaf (contents and cluster 0, no faces)
    model.vec3(v(-1000, -1000, -1000));
    model.vec3(v(1000, 1000, 1000));
    model.vec3(v(0, 0, 0));
    model.i32(0);  // head node
    model.i32(0), model.i32(0);
    m.lumps[14] = model.bytes;
    if (ldrLighting) m.lumps[8] = Bytes(4, 0);
    if (hdrLighting) m.lumps[53] = Bytes(4, 0);
    return decodeSource(memorySource(writeVbsp(m)), preferLdr);
}

bool hasProblem(const World& w, const std::string& part) {
    return std::any_of(w.problems.begin(), w.problems.end(),
                       [&](const std::string& p) { return p.find(part) != std::string::npos; });
}

void checkNear(Vec3 a, Vec3 b, float eps = 1e-5f) { test::checkNearRelative(a, b, eps); }

// One record of each emit type, and two falloff variants (a fitted falloff that turns back up, a hard
// falloff the entity lump asks for).
std::vector<Rec> everyType() {
    std::vector<Rec> r(8);
    r[0].type = 0;  // emit_surface
    r[0].origin = v(10, 20, 30), r[0].intensity = v(2, 1, 0.5f), r[0].normal = v(0, 0, -1), r[0].flags = 1;
    r[1].type = 1;  // emit_point
    r[1].origin = v(-64, 0, 128), r[1].intensity = v(3, 3, 3), r[1].style = 5, r[1].radius = 500;
    r[1].constant = 0.25f, r[1].linear = 0.5f, r[1].quadratic = 0.75f;
    r[2].type = 2;  // emit_spotlight
    r[2].origin = v(0, 0, 100), r[2].intensity = v(1, 2, 4), r[2].normal = v(0, 0, -2);
    r[2].stopdot = std::cos(degToRad(30)), r[2].stopdot2 = std::cos(degToRad(45)), r[2].exponent = 2;
    r[2].constant = 1, r[2].linear = 0, r[2].quadratic = 0;
    r[3].type = 3;  // emit_skylight
    r[3].origin = v(5, 5, 5), r[3].intensity = v(1, 0.9f, 0.8f), r[3].normal = v(0.6f, 0, -0.8f);
    r[4].type = 4;  // emit_quakelight
    r[4].origin = v(1, 2, 3), r[4].intensity = v(0.5f, 0.5f, 0.5f), r[4].linear = 300;
    r[5].type = 5;  // emit_skyambient
    r[5].origin = v(5, 5, 5), r[5].intensity = v(0.2f, 0.3f, 0.4f);
    r[6].type = 1;  // a fitted falloff rising again past linear / (-2 quadratic) = 500 units
    r[6].origin = v(0, 0, 0), r[6].intensity = v(1, 1, 1), r[6].constant = 1, r[6].linear = 0.1f, r[6].quadratic = -0.0001f;
    r[7].type = 1;  // _hardfalloff from the entity lump
    r[7].origin = v(100, 200, 300), r[7].intensity = v(1, 1, 1), r[7].constant = 1, r[7].quadratic = 0;
    return r;
}

const std::string kHardFalloffEntity =
    "{\n\"classname\" \"light\"\n\"origin\" \"100 200 300\"\n\"_fifty_percent_distance\" \"100\"\n"
    "\"_zero_percent_distance\" \"50\"\n\"_hardfalloff\" \"1\"\n}\n";

void checkEveryType(const World& w) {
    REQUIRE(w.lights.size() == 8);
    const Light& surface = w.lights[0];
    CHECK(surface.kind == Light::Kind::Area);
    CHECK(surface.origin == v(10, 20, 30));
    CHECK(surface.intensity == 2.0f);
    CHECK(surface.color == v(1, 0.5f, 0.25f));
    CHECK(surface.normal == v(0, 0, -1));
    CHECK(surface.falloff == Light::Falloff::InverseSquare);
    CHECK(surface.area == 0.0f);
    CHECK(surface.inProbes);
    CHECK(surface.nativeFlags == 1u);
    CHECK(std::isinf(surface.envelope));
    CHECK(surface.source == "worldlight 0 (emit_surface) at 10 20 30");

    const Light& point = w.lights[1];
    CHECK(point.kind == Light::Kind::Point);
    CHECK(point.intensity == 3.0f);
    CHECK(point.color == v(1, 1, 1));
    CHECK(point.style == 5);
    CHECK(point.falloff == Light::Falloff::Quadratic);
    CHECK(point.constant == 0.25f);
    CHECK(point.linear == 0.5f);
    CHECK(point.quadratic == 0.75f);
    CHECK(point.radius == 500.0f);
    CHECK(std::isinf(point.envelope));  // vrad does not cut at the radius
    CHECK_FALSE(point.inProbes);
    CHECK(std::isinf(point.falloffCap));
    CHECK_FALSE(point.fadeEnd > point.fadeStart);

    const Light& spot = w.lights[2];
    CHECK(spot.kind == Light::Kind::Spot);
    CHECK(spot.intensity == 4.0f);
    CHECK(spot.color == v(0.25f, 0.5f, 1));
    CHECK(spot.direction == v(0, 0, -1));  // stored (0, 0, -2), normalised
    CHECK(spot.spotCosInner == std::cos(degToRad(30)));
    CHECK(spot.spotCosOuter == std::cos(degToRad(45)));
    CHECK(spot.spotExponent == 2.0f);
    CHECK(spot.constant == 1.0f);
    CHECK(spot.quadratic == 0.0f);

    const Light& sun = w.lights[3];
    CHECK(sun.kind == Light::Kind::Sun);
    CHECK(sun.intensity == 1.0f);
    CHECK(sun.color == v(1, 0.9f, 0.8f));
    checkNear(sun.direction, v(0.6f, 0, -0.8f));
    CHECK(sun.falloff == Light::Falloff::None);

    const Light& quake = w.lights[4];
    CHECK(quake.kind == Light::Kind::Point);
    CHECK(quake.falloff == Light::Falloff::Linear);
    CHECK(quake.range == 300.0f);
    CHECK(quake.intensity == Approx(0.5 * 300));
    CHECK(quake.envelope == 300.0f);

    const Light& sky = w.lights[5];
    CHECK(sky.kind == Light::Kind::Sky);
    CHECK(sky.intensity == 0.4f);
    checkNear(sky.color, v(0.5f, 0.75f, 1));
    CHECK(sky.inProbes);

    const Light& capped = w.lights[6];
    CHECK(capped.falloffCap == Approx(500));
    CHECK(capped.fadeStart == Approx(500));
    CHECK(capped.fadeEnd == Approx(5000));
    CHECK(capped.envelope == Approx(5000));

    const Light& hard = w.lights[7];
    CHECK(hard.fadeStart == Approx(0.75 * 200 + 0.25 * 100));  // 0% distance below the 50% one: twice it
    CHECK(hard.fadeEnd == Approx(200));
    CHECK(std::isinf(hard.falloffCap));
    CHECK(hard.envelope == Approx(200));
}

}  // namespace

// ---- Decoding ------------------------------------------------------------------------------------------

TEST_CASE("srclights: a synthetic worldlights lump decodes field by field, in both record versions", "[srclights]") {
    const std::vector<Rec> recs = everyType();
    SECTION("version 0: 88-byte records") {
        const World w = mapWith(lumpOf(recs, false), {}, 0, kHardFalloffEntity);
        checkEveryType(w);
        CHECK(w.problems.empty());
        CHECK(std::find(w.otherCounts.begin(), w.otherCounts.end(), std::pair<std::string, uint64_t>{"world lights", 8}) !=
              w.otherCounts.end());
    }
    SECTION("version 1: 100-byte records with the shadow cast offset") {
        const World w = mapWith(lumpOf(recs, true), {}, 1, kHardFalloffEntity);
        checkEveryType(w);
        CHECK(w.problems.empty());
    }
    SECTION("without its light entity a hard falloff is unknown") {
        const World w = mapWith(lumpOf(recs, false), {}, 0);
        REQUIRE(w.lights.size() == 8);
        CHECK_FALSE(w.lights[7].fadeEnd > w.lights[7].fadeStart);
    }
}

TEST_CASE("srclights: the HDR lump goes with HDR lighting, the LDR one otherwise", "[srclights]") {
    Rec a, b;
    a.origin = v(1, 0, 0), a.intensity = v(1, 1, 1);
    b.origin = v(2, 0, 0), b.intensity = v(5, 5, 5);
    const Bytes ldr = lumpOf({a}, false), hdr = lumpOf({b, b}, false);
    const World hdrMap = mapWith(ldr, hdr, 0, "", true, true);
    REQUIRE(hdrMap.lights.size() == 2);
    CHECK(hdrMap.lights[0].intensity == 5.0f);
    const World ldrAsked = mapWith(ldr, hdr, 0, "", true, true, true);
    REQUIRE(ldrAsked.lights.size() == 1);
    CHECK(ldrAsked.lights[0].intensity == 1.0f);
    const World ldrOnly = mapWith(ldr, hdr, 0, "", true, false);
    REQUIRE(ldrOnly.lights.size() == 1);
    const World hdrEmpty = mapWith(ldr, {}, 0, "", true, true);  // HDR lighting without HDR lights: the LDR ones
    REQUIRE(hdrEmpty.lights.size() == 1);
}

TEST_CASE("srclights: hostile worldlights lumps are skipped with a problem, never trusted", "[srclights]") {
    Rec good;
    good.intensity = v(1, 1, 1);
    SECTION("a size that fits no record") {
        Bytes lump = lumpOf({good}, false);
        lump.resize(90);
        const World w = mapWith(lump, {});
        CHECK(w.lights.empty());
        CHECK(hasProblem(w, "lump worldlights at byte"));
        CHECK(hasProblem(w, "not a multiple of the 88-byte dworldlight_t"));
    }
    SECTION("version 0 with 100-byte records is read as such, and said so") {
        const World w = mapWith(lumpOf({good, good}, true), {}, 0);
        CHECK(w.lights.size() == 2);
        CHECK(hasProblem(w, "holds 100-byte records"));
    }
    SECTION("an unknown version") {
        const World w = mapWith(lumpOf({good}, true), {}, 2);
        CHECK(w.lights.empty());
        CHECK(hasProblem(w, "version 2 is not 0 or 1"));
    }
    SECTION("NaN, infinity, unknown types and styles") {
        std::vector<Rec> recs(6, good);
        recs[1].origin.y = std::nanf("");
        recs[2].quadratic = std::numeric_limits<float>::infinity();
        recs[3].type = 9;
        recs[4].style = 300;
        recs[5].style = -1;
        const World w = mapWith(lumpOf(recs, false), {});
        CHECK(w.lights.size() == 1);
        CHECK(hasProblem(w, "2 world light(s) with a non-finite field"));
        CHECK(hasProblem(w, "1 world light(s) of an unknown emit type"));
        CHECK(hasProblem(w, "2 world light(s) with a style outside 0..254"));
    }
    SECTION("absurdly many records") {
        const World w = mapWith(Bytes(88 * 65537, 0), {});
        CHECK(w.lights.empty());
        CHECK(hasProblem(w, "65537 world lights, more than"));
    }
    SECTION("random bytes decode to finite lights whose arrivals stay finite") {
        std::mt19937 rng(1234);
        for (int round = 0; round < 20; ++round) {
            Bytes lump(88 * 50);
            for (uint8_t& b : lump) b = uint8_t(rng());
            // Some records get a valid type and style so that they are kept with their random floats.
            for (size_t i = 0; i < 50; i += 2) {
                lump[i * 88 + 40] = uint8_t(i % 6), lump[i * 88 + 41] = lump[i * 88 + 42] = lump[i * 88 + 43] = 0;
                lump[i * 88 + 44] = uint8_t(i), lump[i * 88 + 45] = lump[i * 88 + 46] = lump[i * 88 + 47] = 0;
            }
            const World w = mapWith(lump, {});
            for (const Light& l : expandSkyLights(w.lights)) {
                CHECK(isFinite(l.origin));
                CHECK(std::isfinite(l.intensity));
                for (Vec3 n : {v(0, 0, 1), v(0, 0, 0), v(0.6f, 0.8f, 0)}) CHECK(isFinite(sourceLightArrival(l, v(3, -2, 1), n).color));
            }
        }
    }
}

// ---- Real maps -----------------------------------------------------------------------------------------

TEST_CASE("srclights: the real Source maps' lights", "[srclights][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    // Each map's lights by emit type, from the lighting set luxel decodes by default (HDR when present).
    const std::map<std::string, std::string> expected = {
        {"bspsrc_l4d2_tooltextures_v21.bsp", "LDR: none"},  // unlit
        {"bsptool_tf2_mp_lobby.bsp", "HDR: emit_point 1 emit_spotlight 1"},
        {"bsptool_tf2_test2.bsp", "LDR: emit_skyambient 1 emit_skylight 1 emit_spotlight 2"},
        {"bsputils_gmod_map_v20.bsp", "LDR: emit_skyambient 1 emit_skylight 1"},
        {"lanofdoom_$2000$_csgo_v21.bsp", "LDR: emit_point 16 emit_skyambient 1 emit_skylight 1 emit_spotlight 16"},
        {"sdk2013_sdk_vehicles_v19.bsp", "LDR: emit_skyambient 1 emit_skylight 1"},
        {"sdk2013ce_sdk_vehicles_v20.bsp", "LDR: emit_skyambient 1 emit_skylight 1 emit_spotlight 2"},
        {"sdk2013pr_ss_hl2_level_1_v20.bsp", "LDR: emit_point 2"},
    };
    for (const std::string& path : sharedMapFiles("source")) {
        if (path.find("_v25_") != std::string::npos) continue;  // refused (vbsp_decode_test)
        const World w = decodeMap(openMapPath(path));
        std::map<std::string, int> counts;
        for (const Light& l : w.lights) {
            const std::string type = l.source.substr(l.source.find('(') + 1, l.source.find(')') - l.source.find('(') - 1);
            ++counts[type];
            CHECK(isFinite(l.origin));
            CHECK(std::isfinite(l.intensity));
        }
        const std::string name = path.substr(path.rfind('/') + 1);
        std::string line = w.hdrLighting ? "HDR:" : "LDR:";
        for (const auto& [type, n] : counts) line += " " + type + " " + std::to_string(n);
        if (w.lights.empty()) line += " none";
        INFO(name);
        CHECK(line == expected.at(name));
        CHECK(w.problems.empty());
    }
}

TEST_CASE("srclights: sdk_vehicles v20's lights lie inside the world", "[srclights][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const World w = decodeMap(openMapPath(*sharedMaps() + "/source/sdk2013ce_sdk_vehicles_v20.bsp"));
    REQUIRE(w.lights.size() == 4);  // 352 bytes of 88-byte records
    REQUIRE_FALSE(w.models.empty());
    const Vec3 lo = w.models[0].mins, hi = w.models[0].maxs;
    for (const Light& l : w.lights) {
        INFO(l.source);
        CHECK(std::isfinite(l.intensity));
        CHECK(l.intensity > 0);
        CHECK((l.origin.x >= lo.x && l.origin.y >= lo.y && l.origin.z >= lo.z));
        CHECK((l.origin.x <= hi.x && l.origin.y <= hi.y && l.origin.z <= hi.z));
        if (l.kind == Light::Kind::Sun) CHECK(l.direction.z < 0);  // the sun shines down
    }
    // Units: vrad scales a light so that 100 units away it gives its brightness / 255 of the colour's linear
    // value (SetLightFalloffParams, LightForKey): the light_spot "_light" "254 255 225 200" with quadratic
    // attenuation lights the point 100 units down its axis with 200 / 255 in green (255: linear 1), and
    // light_environment "_light" "255 244 213 512" gives 512 / 255 to a surface facing the sun.
    const Light& spot = w.lights[2];
    REQUIRE(spot.kind == Light::Kind::Spot);
    CHECK(spot.origin == Vec3{4630, 1384, 888});
    CHECK(spot.spotCosInner == Approx(std::cos(degToRad(30))));
    CHECK(spot.spotCosOuter == Approx(std::cos(degToRad(60))));
    CHECK(spot.spotExponent == 1.0f);
    const LightArrival a = sourceLightArrival(spot, spot.origin - Vec3{0, 0, 100}, Vec3{0, 0, 1});
    CHECK(a.color.y == Approx(200.0 / 255).epsilon(1e-4));
    const Light& sun = w.lights[1];
    REQUIRE(sun.kind == Light::Kind::Sun);
    CHECK(sun.intensity * sun.color.x == Approx(512.0 / 255).epsilon(1e-4));
    CHECK(sourceLightArrival(sun, Vec3{}, -sun.direction).color.x == Approx(512.0 / 255).epsilon(1e-4));
}
