// The vector shading loops against the portable ones, and 1 thread against 2, on real maps: every shared Quake
// 3 map from its spawn, the OpenArena views of issue 19 (stage programs with environment maps, turbulent
// lava, cloud skies) and Quake 1 views over warped liquids, lit and lightmap-only, each pair byte for byte.
#include <catch2/catch.hpp>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <cstring>
#include <filesystem>

#include "luxel/util/cpu.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/render/map_view.hpp"
#include "luxel/render/raster.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;

namespace {


struct MapView {
    std::string map;
    std::optional<Vec3> pos, angles;  // none: the camera below
    std::string camera = "spawn";
};

bool sameBytes(const Image& a, const Image& b) {
    return a.pixels.size() == b.pixels.size() &&
           std::memcmp(a.pixels.data(), b.pixels.data(), a.pixels.size() * sizeof(float)) == 0;
}

void checkView(const MapView& v, const std::vector<std::string>& gameDirs) {
    LoadedMap map = loadMap(openMapPath(v.map), {}, {gameDirs, "", 0});
    for (const char* mode : {"lit", "lightmap"}) {
        for (Look look : {Look::Engine, Look::Linear}) {
            INFO(v.map << " " << mode << " look " << int(look));
            ViewRequest request;
            request.camera = v.camera;
            request.pos = v.pos;
            request.angles = v.angles;
            request.mode = mode;
            request.look = look;
            request.ldrOutput = false;  // the frame's floats: every bit of them compared
            request.width = 240;
            request.height = 136;
            allowAvx2(true);
            const Image vec = renderView(map, request).image;
            allowAvx2(false);
            const Image portable = renderView(map, request).image;
            allowAvx2(true);
            CHECK(sameBytes(vec, portable));
            Image one, two;
            tbb::task_arena(1).execute([&] { one = renderView(map, request).image; });
            tbb::task_arena(2).execute([&] { two = renderView(map, request).image; });
            CHECK(sameBytes(one, vec));
            CHECK(sameBytes(two, vec));
        }
    }
}

}  // namespace

TEST_CASE("real maps: vector and portable shading and 1 and 2 threads give the same bytes from every shared map spawn",
          "[render][maps]") {
    const auto maps = sharedMaps();
    if (!maps) {
        WARN("SKIPPED: ../shared/maps not found");
        return;
    }
    tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 2);
    std::error_code ec;
    const bool openArena = fs::is_directory(kOpenArenaDir, ec);
    std::vector<std::string> gameDirs;
    if (openArena) gameDirs.push_back(kOpenArenaDir.string());
    const std::vector<std::string> files = sharedMapFiles("q3");
    REQUIRE(!files.empty());
    for (const std::string& file : files) checkView({file, std::nullopt, std::nullopt}, gameDirs);
}

TEST_CASE("real maps: vector and portable stage programs and cloud skies give the same bytes on issue 19's views",
          "[render][maps]") {
    LUXEL_REQUIRE_OPENARENA();
    tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 2);
    const std::string pak = (kOpenArenaDir / "pak1-maps.pk3:maps/").string();
    const std::string patch = (kOpenArenaDir / "pak6-patch088.pk3:maps/").string();
    checkView({pak + "oa_dm1.bsp", Vec3{1128, 1424, 124}, Vec3{0, -135, 0}}, {kOpenArenaDir.string()});
    checkView({pak + "oa_dm4.bsp", Vec3{464, -112, 48}, Vec3{43.090f, -155.433f, 0}}, {kOpenArenaDir.string()});
    checkView({patch + "oasago2.bsp", Vec3{-60, -1536, 436}, Vec3{0, 90, 0}}, {kOpenArenaDir.string()});
}

TEST_CASE("real maps: vector and portable Quake 1 warped liquids, fullbrights, skies and Half-Life light give the same bytes", "[render][maps]") {
    const auto maps = sharedMaps();
    if (!maps) {
        WARN("SKIPPED: ../shared/maps not found");
        return;
    }
    tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 2);
    const fs::path q1 = fs::path(*maps) / "q1";
    // lq_e1m5's intermission looks over slime and water (a tenth of its pixels warped); lqdm1's is QuakeSpasm's
    // reference view (fullbrights, sky).
    checkView({(q1 / "lq_e1m5/bsp29_lit/lq_e1m5.bsp").string(), std::nullopt, std::nullopt, "intermission"}, {});
    checkView({(q1 / "lqdm1/bsp29_lit/lqdm1.bsp").string(), std::nullopt, std::nullopt, "intermission"}, {});
    // Half-Life's per-channel light clamp (grey textures: halflife.wad is not given).
    checkView({(fs::path(*maps) / "hl/more/freehl_test_weapons.bsp").string(), std::nullopt, std::nullopt, "spawn"}, {});
}

TEST_CASE("real maps: Source props' cut-out foliage, vector and portable, 1 and 2 threads, the same bytes", "[render][maps]") {
    LUXEL_REQUIRE_SOURCE_CONTENT();
    tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 2);
    const std::string game = *sharedSourceContent() + "/momentum_background_01";
    // From the spawn, and close under the sakura tree's canopy (alpha-tested branch cards over the sky).
    checkView({game + "/maps/background_01.bsp", std::nullopt, std::nullopt}, {game});
    checkView({game + "/maps/background_01.bsp", Vec3{-32, -500, 250}, Vec3{5, 90, 0}}, {game});
}
