// Quake 3 fog: the share of the fog colour over a point, from ioquake3's RB_CalcFogTexCoords and
// R_FogFactor, hand-computed for an eye inside a fog without a visible side and an eye above a fog's surface.
#include <catch2/catch.hpp>

#include <cmath>

#include "luxel/render/shade.hpp"

using namespace luxel;
using namespace luxel::render;

TEST_CASE("fog factor: eye inside a fog without a surface", "[fog]") {
    FogVolume fog;  // no visible side: the eye is always inside
    const Vec3 eye{0, 0, 0}, forward{1, 0, 0};
    // Distance to opaque 512: s = depth / (512 * 8); x 8 = depth / 512; the factor is its square root.
    CHECK(fogFactor(fog, 512, eye, forward, {128, 0, 0}) == Approx(0.5f));
    CHECK(fogFactor(fog, 512, eye, forward, {512, 40, 0}) == Approx(1.0f));   // opaque at the distance
    CHECK(fogFactor(fog, 512, eye, forward, {2048, 0, 0}) == Approx(1.0f));  // and beyond
    CHECK(fogFactor(fog, 512, eye, forward, {-10, 0, 0}) == 0.0f);           // behind the eye
}

TEST_CASE("fog factor: eye above the fog's surface counts only the distance inside the fog", "[fog]") {
    FogVolume fog;
    fog.hasSurface = true;
    fog.surface = {{0, 0, -1}, 0};  // fog below z = 0: depth below the surface is -z
    const Vec3 eye{0, 0, 64}, down{0, 0, -1};
    // Point at z = -192, 256 units below the eye: t = 1/32 + 30/32 * 192 / (192 + 64); s = 256 / 4096 scaled
    // by (t - 1/32) / (30/32) = 0.75 -> 192 units of fog -> 192 / 512 = 0.375 -> sqrt.
    CHECK(fogFactor(fog, 512, eye, down, {0, 0, -192}) == Approx(std::sqrt(0.375f)));
    // A point above the surface (or less than a unit into it) is not fogged.
    CHECK(fogFactor(fog, 512, eye, down, {0, 0, 10}) == 0.0f);
    CHECK(fogFactor(fog, 512, eye, down, {0, 0, -0.5f}) == 0.0f);
    // The eye inside (below the surface): the whole view distance counts.
    CHECK(fogFactor(fog, 512, {0, 0, -10}, down, {0, 0, -138}) == Approx(0.5f));
}

#include <filesystem>

#include "luxel/bsp/decode.hpp"
#include "luxel/material/material_set.hpp"

TEST_CASE("real fog volumes: decoded with their shader and surface, fogparms from the game's scripts", "[fog][maps]") {
    const std::string game = "/usr/share/games/openarena/baseoa";
    if (!std::filesystem::exists(game + "/pak1-maps.pk3")) {
        WARN("SKIPPED: openarena-data is not installed");
        return;
    }
    MapSource src = openMapPath(game + "/pak1-maps.pk3:maps/dm4ish.bsp");
    const World w = decodeMap(src);
    REQUIRE_FALSE(w.fogs.empty());
    size_t fogged = 0;
    for (const Surface& s : w.surfaces) fogged += s.fog >= 0 ? 1 : 0;
    CHECK(fogged > 0);
    for (const FogVolume& f : w.fogs) {
        CHECK_FALSE(f.shader.empty());
        if (f.hasSurface) CHECK(dot(f.surface.normal, f.surface.normal) == Approx(1.0f).margin(1e-4));
    }
    MaterialOptions mo;
    mo.gameDirs = {game};
    const MaterialSet set = loadMaterials(w, src, mo);
    REQUIRE(set.fogs.size() == w.fogs.size());
    size_t withParms = 0;
    for (const auto& f : set.fogs) withParms += f.present && f.distance > 0 ? 1 : 0;
    CHECK(withParms > 0);
}
