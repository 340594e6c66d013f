// The display frame (renderFrame into bytes: each tile stored as display bytes once shaded) against the float
// frame of the same view put through displayBytes, the way PNG, JPEG and WebP files were written before: two
// code paths, byte for byte, over every mode, sample passes, coverage alpha, overlays, fog, skies and Quake 1.
#include <catch2/catch.hpp>
#include <tbb/global_control.h>

#include <filesystem>

#include "luxel/io/map_source.hpp"
#include "luxel/render/map_view.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;

namespace {


// The view drawn both ways; checks the bytes agree and that the frame is not one colour (a test that could pass
// on an empty frame would prove nothing).
void checkDisplayFrame(LoadedMap& map, ViewRequest request) {
    request.look = request.look.value_or(Look::Engine);
    request.ldrOutput = true;
    const RenderedView display = renderView(map, request);
    request.ldrOutput = false;
    const RenderedView floats = renderView(map, request);
    REQUIRE(display.image.pixels.empty());
    REQUIRE(floats.display.bytes.empty());
    REQUIRE(display.display.width == request.width);
    REQUIRE(display.display.channels == floats.image.channels);
    CHECK(display.display.bytes == displayBytes(floats.image));
    size_t differing = 0;
    for (size_t i = 3; i < display.display.bytes.size(); ++i) differing += display.display.bytes[i] != display.display.bytes[i % 3];
    CHECK(differing > display.display.bytes.size() / 20);
}

ViewRequest at(Vec3 pos, Vec3 angles, const std::string& mode) {
    ViewRequest r;
    r.pos = pos;
    r.angles = angles;
    r.width = 200;  // not a whole number of tiles
    r.height = 113;
    r.mode = mode;
    return r;
}

}  // namespace

TEST_CASE("display frames are the float frames' display bytes: every mode, samples, alpha (OpenArena)", "[render][maps]") {
    LUXEL_REQUIRE_OPENARENA();
    tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 2);
    const std::string pak = (kOpenArenaDir / "pak1-maps.pk3:maps/").string();
    // oa_dm4's intermission: lava, blended trims and stage programs over the opaque picture.
    LoadedMap dm4 = loadMap(openMapPath(pak + "oa_dm4.bsp"), {}, {{kOpenArenaDir.string()}, "", 0});
    for (const char* mode : {"lit", "lightmap", "vertex", "normals", "depth", "clusters", "grid", "albedo"}) {
        INFO(mode);
        checkDisplayFrame(dm4, at({464, -112, 48}, {43.090f, -155.433f, 0}, mode));
    }
    ViewRequest samples = at({464, -112, 48}, {43.090f, -155.433f, 0}, "lit");
    samples.spp = 3;  // passes summed in floats, then stored as bytes
    checkDisplayFrame(dm4, samples);
    ViewRequest alpha = at({464, -112, 48}, {43.090f, -155.433f, 0}, "lit");
    alpha.transparent = true;  // coverage alpha: a fourth channel
    alpha.sky = false;
    checkDisplayFrame(dm4, alpha);
    ViewRequest linear = at({464, -112, 48}, {43.090f, -155.433f, 0}, "lit");
    linear.look = Look::Linear;  // values over 1 clamped by the bytes
    checkDisplayFrame(dm4, linear);
    // oasago2: cloud skies.
    LoadedMap sago = loadMap(openMapPath((kOpenArenaDir / "pak6-patch088.pk3:maps/oasago2.bsp").string()), {},
                             {{kOpenArenaDir.string()}, "", 0});
    checkDisplayFrame(sago, at({-60, -1536, 436}, {0, 90, 0}, "lit"));
}

TEST_CASE("display frames are the float frames' display bytes: Quake 1 fog and liquids, a Source map", "[render][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 2);
    const fs::path maps = *sharedMaps();
    LoadedMap lqdm1 = loadMap(openMapPath((maps / "q1/lqdm1/bsp29_lit/lqdm1.bsp").string()), {}, {{}, "", 0});
    for (const char* mode : {"lit", "lightmap"}) {
        ViewRequest r = at({776, -872, 264}, {25, -120, 0}, mode);  // QuakeSpasm's reference camera: fog, water, sky
        checkDisplayFrame(lqdm1, r);
    }
    LoadedMap source = loadMap(openMapPath((maps / "source/sdk2013ce_sdk_vehicles_v20.bsp").string()), {}, {{}, "", 0});
    ViewRequest overview;
    overview.camera = "overview";
    overview.width = 160, overview.height = 90;
    overview.mode = "lightmap";
    checkDisplayFrame(source, overview);
}
