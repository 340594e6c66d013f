// Real maps rendered with their textures: OpenArena (Debian's openarena-data) and the shared Quake 2 map
// with PNG textures.
#include <catch2/catch.hpp>

#include <filesystem>

#include "luxel/bsp/decode.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/render/camera.hpp"
#include "luxel/render/render.hpp"
#include "support/test_paths.hpp"

using namespace luxel;

namespace {

const char* kBaseoa = "/usr/share/games/openarena/baseoa";

struct Drawn {
    size_t covered = 0, missing = 0;
};

Drawn renderWithTextures(const MapSource& source, const std::vector<std::string>& gameDirs, const std::string& cameraSpec) {
    const World world = decodeMap(source);
    const Geometry geometry = tessellate(world);
    MaterialOptions mo;
    mo.gameDirs = gameDirs;
    const MaterialSet materials = loadMaterials(world, source, mo);
    RenderOptions o;
    o.mode = RenderMode::Lit;
    o.materials = &materials;
    FrameStats st;
    renderFrame(world, geometry, cameraFromSpec(world, cameraSpec, 320, 180, 90.0f), o, &st);
    return {st.pixelsCovered, st.pixelsMissingTexture};
}

}  // namespace

TEST_CASE("OpenArena maps draw under 2% of their pixels with the missing-texture grey", "[maps][textured]") {
    if (!std::filesystem::is_directory(kBaseoa)) {
        WARN("SKIPPED: " << kBaseoa << " not found (Debian package openarena-data)");
        return;
    }
    std::vector<std::pair<MapSource, std::string>> maps;
    for (const char* name : {"oa_ctf2", "am_thornish", "oa_dm1", "aggressor"})
        maps.emplace_back(openMapInGameDir(kBaseoa, name), "spawn");
    if (test::sharedMaps()) maps.emplace_back(openMapPath(*test::sharedMaps() + "/q3/oa085_ctf_compromise.bsp"), "overview");
    for (const auto& [source, camera] : maps) {
        const Drawn d = renderWithTextures(source, {kBaseoa}, camera);
        INFO(source.displayName << ": " << d.missing << " of " << d.covered << " pixels missing a texture");
        REQUIRE(d.covered > 1000);
        CHECK(double(d.missing) < 0.02 * double(d.covered));
    }
}

TEST_CASE("quakeless-ii renders with its PNG textures", "[maps][textured]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const std::string dir = *test::sharedMaps() + "/q2";
    const Drawn d = renderWithTextures(openMapPath(dir + "/quakeless-ii_test1.bsp"), {dir + "/quakeless-ii_textures"},
                                       "spawn");
    REQUIRE(d.covered > 1000);
    CHECK(double(d.missing) < 0.02 * double(d.covered));
}
