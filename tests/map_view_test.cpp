// The view API render and batch share: auto mode, textures decoded only for what a view sees (the same
// pixels as decoding everything), the camera used, image metadata, and a map's own archive folder searched
// for textures.
#include <OpenImageIO/imageio.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "luxel/io/map_source.hpp"
#include "luxel/render/map_view.hpp"
#include "support/q3_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;

namespace {

// room.bsp (the q3_writer room, wall texture "textures/luxel/wall", one grey lightmap page for every wall)
// and a game folder holding that texture.
struct Room {
    fs::path dir = tempDir("map-view");
    std::string map = (dir / "room.bsp").string(), game = (dir / "game").string();
    Room() {
        RoomOptions grey;
        grey.sharedPage = true;
        writeFile(map, makeRoomMap(grey).build());
        writeFile(fs::path(game) / "textures/luxel/wall.tga", tga1x1(250, 100, 50));
    }
};


}  // namespace

TEST_CASE("auto mode draws lit when the map's textures are found, its lightmaps when none are", "[mapview]") {
    Room room;
    ViewRequest request;
    request.camera = "spawn";
    request.width = 32;
    request.height = 18;

    LoadedMap bare = loadMap(openMapPath(room.map), {}, {});
    const RenderedView dark = renderView(bare, request);
    CHECK(dark.mode == RenderMode::Lightmap);
    REQUIRE_FALSE(dark.warnings.empty());  // the wall's texture is missing, and no game folder was searched
    CHECK(dark.warnings[0].find("--game-dir") != std::string::npos);

    LoadedMap textured = loadMap(openMapPath(room.map), {}, {{room.game}, "", 0});
    const RenderedView lit = renderView(textured, request);
    CHECK(lit.mode == RenderMode::Lit);
    CHECK(lit.warnings.empty());
    // The wall texel is (250, 100, 50): a lit pixel keeps that hue (red > green > blue); the lightmap alone is grey.
    const Image litFloats = viewFloats(lit), darkFloats = viewFloats(dark);
    const float* c = litFloats.at(16, 9);
    CHECK(c[0] > c[1]);
    CHECK(c[1] > c[2]);
    const float* g = darkFloats.at(16, 9);
    CHECK(g[0] == Approx(g[1]).margin(1e-6));
    CHECK(g[1] == Approx(g[2]).margin(1e-6));
}

TEST_CASE("a view asked with pos and angles uses them; a named camera reports what it used", "[mapview]") {
    Room room;
    LoadedMap map = loadMap(openMapPath(room.map), {}, {});
    ViewRequest request;
    request.mode = "lightmap";
    request.width = 16;
    request.height = 9;
    request.pos = Vec3{10, 20, 30};
    request.angles = Vec3{5, 45, 0};
    const RenderedView pinned = renderView(map, request);
    CHECK(pinned.camera.used == "pos");
    CHECK(pinned.camera.camera.position.x == 10.0f);
    CHECK(pinned.camera.camera.angles.y == 45.0f);

    request.pos.reset();
    request.angles.reset();
    request.camera = "intermission";  // the room has none: falls back to its spawn point, with a note
    const RenderedView fallback = renderView(map, request);
    CHECK(fallback.camera.spec == "intermission");
    CHECK(fallback.camera.used != "intermission");
    CHECK_FALSE(fallback.warnings.empty());
}

TEST_CASE("a written view carries luxel's version, the map, the mode and the camera as metadata", "[mapview]") {
    Room room;
    LoadedMap map = loadMap(openMapPath(room.map), {}, {});
    ViewRequest request;
    request.camera = "spawn";
    request.mode = "lightmap";
    request.width = 16;
    request.height = 9;
    const RenderedView view = renderView(map, request);
    const std::string out = (room.dir / "view.png").string();
    writeImage(out, view.display, viewMetadata(map, view));

    auto in = OIIO::ImageInput::open(out);
    REQUIRE(in);
    const OIIO::ImageSpec& spec = in->spec();
    CHECK(spec.get_string_attribute("Software") == std::string("luxel ") + LUXEL_VERSION);
    CHECK(spec.get_string_attribute("luxel:map") == room.map);
    CHECK(spec.get_string_attribute("luxel:mode") == "lightmap");
    const std::string camera = spec.get_string_attribute("luxel:camera");
    CHECK(camera.rfind("spawn", 0) == 0);
    // The room's spawn point is at (0 0 128) (q3_writer.hpp): the camera line names that position.
    CHECK(camera.find("pos 0.00 0.00 ") != std::string::npos);
}

TEST_CASE("decoding only the textures a view shows gives the same pixels as decoding all of them", "[mapview][maps]") {
    LUXEL_REQUIRE_OPENARENA();
    // Maps with cut-outs, blended and additive surfaces, cloud skies and deforms (oasago2, oa_dm4), one outside
    // the game folder (compromise), each from cameras that see much and little.
    std::vector<std::string> specs;
    for (const char* name : {"oa_dm1", "oa_dm4", "oasago2"}) specs.push_back((kOpenArenaDir / "pak1-maps.pk3:maps").string() + "/" + name + ".bsp");
    if (const auto maps = luxel::test::sharedMaps()) specs.push_back(*maps + "/q3/oa085_ctf_compromise.bsp");
    else WARN("SKIPPED compromise: ../shared/maps not found");
    size_t prunedViews = 0;
    for (const std::string& spec : specs) {
        for (const char* camera : {"spawn", "best", "intermission"}) {
            INFO(spec << " " << camera);
            LoadedMap partial = loadMap(openMapPath(spec), {}, {{kOpenArenaDir.string()}, "", 0});
            ViewRequest request;
            request.camera = camera;
            request.mode = "lit";
            request.width = 160;
            request.height = 90;
            const RenderedView a = renderView(partial, request);
            REQUIRE(partial.materials);
            const size_t decodedForView = partial.materials->textures.size();
            // What the PVS and frustum name, against what the frame can show.
            const std::vector<bool> seen = materialsSeen(partial.world, partial.geometry, a.camera.camera, CullOptions{});
            const size_t seenCount = size_t(std::count(seen.begin(), seen.end(), true));
            const size_t shownCount = size_t(std::count(partial.texturesFor.begin(), partial.texturesFor.end(), true));
            CHECK(shownCount <= seenCount);
            for (size_t m = 0; m < partial.texturesFor.size() && m < seen.size(); ++m)
                if (partial.texturesFor[m]) CHECK(seen[m]);  // never more than the PVS names
            if (shownCount < seenCount) ++prunedViews;

            // The other path: every material's textures, drawn through renderFrame directly.
            LoadedMap whole = loadMap(openMapPath(spec), {}, {{kOpenArenaDir.string()}, "", 0});
            ensureMaterials(whole, 0);
            REQUIRE(whole.materials);
            CHECK(decodedForView < whole.materials->textures.size());  // the view really skipped some
            RenderOptions o;
            o.mode = RenderMode::Lit;
            o.look = Look::Engine;
            o.drawFlares = false;
            o.materials = &*whole.materials;
            const Image b = renderFrame(whole.world, whole.geometry, a.camera.camera, o);
            CHECK(a.display.bytes == displayBytes(b));  // also: the display frame is the float frame's bytes
        }
    }
    // The opaque pass leaves out materials the PVS names on most of these views.
    CHECK(prunedViews * 2 > specs.size() * 3);
}

TEST_CASE("textures decoded from the level a view samples give its frame within a level of whole ones", "[mapview][maps]") {
    LUXEL_REQUIRE_OPENARENA();
    size_t reducedViews = 0;
    for (const char* name : {"oa_dm1", "oa_dm4", "oasago2"}) {
        for (const char* camera : {"best", "overview"}) {
            INFO(name << " " << camera);
            const std::string spec = (kOpenArenaDir / "pak1-maps.pk3:maps").string() + "/" + name + ".bsp";
            LoadedMap reduced = loadMap(openMapPath(spec), {}, {{kOpenArenaDir.string()}, "", 0});
            LoadedMap whole = loadMap(openMapPath(spec), {}, {{kOpenArenaDir.string()}, "", 0});
            ViewRequest request;
            request.camera = camera;
            request.mode = "lit";
            request.reducedTextures = true;
            const RenderedView a = renderView(reduced, request);
            request.reducedTextures = false;
            const RenderedView b = renderView(whole, request);
            REQUIRE(a.display.bytes.size() == b.display.bytes.size());
            REQUIRE(reduced.materials);
            REQUIRE(whole.materials);
            // The same materials, some of them from a coarser level, in less memory.
            CHECK(reduced.texturesFor == whole.texturesFor);
            size_t bytesReduced = 0, bytesWhole = 0, fromCoarser = 0;
            for (const auto& t : reduced.materials->textures) {
                for (const auto& level : t->paddedLevels) bytesReduced += level.size();
                fromCoarser += t->firstLevel > 0 ? 1 : 0;
            }
            for (const auto& t : whole.materials->textures)
                for (const auto& level : t->paddedLevels) bytesWhole += level.size();
            CHECK(bytesReduced <= bytesWhole);
            if (fromCoarser > 0) ++reducedViews;
            // Only JPEG's scaled IDCT changes texels (other formats' levels are the whole chain's): the frames
            // differ by a fraction of a level on average.
            double sum = 0;
            for (size_t i = 0; i < a.display.bytes.size(); ++i) sum += std::abs(int(a.display.bytes[i]) - int(b.display.bytes[i]));
            const double mean = sum / double(a.display.bytes.size());
            CHECK(mean <= 1.0);
        }
    }
    CHECK(reducedViews >= 4);  // thumbnails and overviews of these maps sample levels below the top
}

TEST_CASE("a map inside an archive finds its textures in the archive's own folder", "[mapview][maps]") {
    LUXEL_REQUIRE_OPENARENA();
    // No game folder given: pak1-maps.pk3 holds the map, pak0.pk3 and the others beside it the textures.
    LoadedMap map = loadMap(openMapPath((kOpenArenaDir / "pak1-maps.pk3:maps/oa_dm1.bsp").string()), {}, {});
    ViewRequest request;
    request.camera = "spawn";
    request.width = 64;
    request.height = 36;
    const RenderedView view = renderView(map, request);
    CHECK(view.mode == RenderMode::Lit);
    REQUIRE(map.materials);
    CHECK_FALSE(map.materials->textures.empty());
    // Found: nearly every pixel drawn has its texture (the view decodes only what it shows, 9 textures here).
    CHECK(view.stats.pixelsMissingTexture < view.stats.pixelsCovered / 10);
}

TEST_CASE("a kept map's cached best camera gives the pixels a fresh search gives, at another size of the same aspect", "[mapview][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const std::string file = *test::sharedMaps() + "/q3/oa088_am_thornish.bsp";
    ViewRequest request;
    request.mode = "lightmap";
    request.camera = "best";
    LoadedMap kept = loadMap(openMapPath(file), {}, {});
    request.width = 640, request.height = 360;
    (void)renderView(kept, request);  // searches and keeps the camera
    REQUIRE(kept.cameras.size() == 1);
    request.width = 320, request.height = 180;
    const RenderedView cached = renderView(kept, request);
    CHECK(kept.cameras.size() == 1);  // same aspect: no new search
    LoadedMap fresh = loadMap(openMapPath(file), {}, {});
    const RenderedView searched = renderView(fresh, request);
    CHECK(cached.camera.camera.width == 320);
    CHECK(cached.camera.used == searched.camera.used);
    CHECK(cached.display.bytes == searched.display.bytes);
    request.width = 300, request.height = 300;  // another aspect: searched anew
    (void)renderView(kept, request);
    CHECK(kept.cameras.size() == 2);
}
