// Lightmap mode's surfaces without a lightmap stage (r_lightmap 1 rules, ref/README.md): engine draws them
// with their own stages, light with their stored vertex light alone, black not at all. Lightmapped surfaces
// show their lightmap alone in every case.
#include <catch2/catch.hpp>

#include "luxel/bsp/decode.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/render/render.hpp"
#include "support/decode_helpers.hpp"
#include "support/q3_writer.hpp"
#include "support/render_fixtures.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

struct Room {
    World world;
    Geometry geometry;
    MaterialSet set;
};

// A room map decoded, tessellated and with its materials loaded from game folder `dir`.
Room loadRoom(const RoomOptions& o, const std::string& dir) {
    const MapSource src = memorySource(makeRoomMap(o).build(), "room.bsp");
    Room r{decodeMap(src), {}, {}};
    r.geometry = tessellate(r.world);
    MaterialOptions mo;
    mo.gameDirs = {dir};
    r.set = loadMaterials(r.world, src, mo);
    return r;
}

// The default room with the wall texture (1x1, (128, 64, 255)), lightmapped or vertex-lit.
Room room(bool vertexLit, const std::string& name) {
    const std::string dir = tempDir(name);
    writeFile(dir + "/textures/luxel/wall.tga", tga1x1(128, 64, 255));
    RoomOptions o;
    o.vertexLit = vertexLit;
    o.wallBytes[3] = {32, 16, 8};  // the east wall: light (128, 64, 32) / 255 in vertex colours or lightmap
    return loadRoom(o, dir);
}

Vec3 east(const Room& r, UnlitSurfaces unlit) {
    RenderOptions o;
    o.mode = RenderMode::Lightmap;
    o.look = Look::Linear;
    o.unlit = unlit;
    o.materials = &r.set;
    return pixelAt(renderFrame(r.world, r.geometry, roomCamera({0, 0, 0}), o), 160, 90);
}

}  // namespace

TEST_CASE("lightmap mode: vertex-lit surfaces by the engine's r_lightmap rules, their light, or black", "[lightmapmode]") {
    const Room r = room(true, "lightmap-mode-vertex");
    const Vec3 light{128.0f / 255, 64.0f / 255, 32.0f / 255};
    // Engine: the implicit shader's texture x vertex light (linear look: no clamps).
    const Vec3 e = east(r, UnlitSurfaces::Engine);
    CHECK(e.x == Approx(light.x * 128 / 255).margin(1e-5));
    CHECK(e.y == Approx(light.y * 64 / 255).margin(1e-5));
    CHECK(e.z == Approx(light.z * 255 / 255).margin(1e-5));
    const Vec3 l = east(r, UnlitSurfaces::Light);
    CHECK(l.x == Approx(light.x).margin(1e-5));
    CHECK(l.z == Approx(light.z).margin(1e-5));
    const Vec3 b = east(r, UnlitSurfaces::Black);
    CHECK(b.x == 0.0f);
    CHECK(b.y == 0.0f);
}

TEST_CASE("lightmap mode: lightmapped surfaces show the lightmap alone under every rule", "[lightmapmode]") {
    const Room r = room(false, "lightmap-mode-lightmapped");
    for (UnlitSurfaces u : {UnlitSurfaces::Engine, UnlitSurfaces::Light, UnlitSurfaces::Black}) {
        const Vec3 c = east(r, u);
        CHECK(c.x == Approx(128.0f / 255).margin(1e-5));
        CHECK(c.y == Approx(64.0f / 255).margin(1e-5));
        CHECK(c.z == Approx(32.0f / 255).margin(1e-5));
    }
    CHECK(parseUnlit("black") == UnlitSurfaces::Black);
    CHECK_THROWS(parseUnlit("none"));
}

TEST_CASE("a Quake 3 shader without a lightmap stage, lit by its vertex colours, on a lightmapped surface", "[lightmapmode]") {
    // q3map2 stores a lightmap for every lit surface; a shader whose stages never name $lightmap and take their
    // light from rgbGen vertex ignores it, in a lit frame and under r_lightmap 1 (which draws such shaders
    // normally). The east wall: vertex colours from bytes (32, 16, 8), lightmap from bytes (200, 100, 50).
    const std::string dir = tempDir("lightmap-mode-vertex-shader");
    writeFile(dir + "/textures/luxel/wall.tga", tga1x1(128, 64, 255));
    const std::string script = "textures/luxel/wall\n{\n\t{\n\t\tmap textures/luxel/wall.tga\n\t\trgbGen vertex\n\t}\n}\n";
    writeFile(dir + "/scripts/luxel.shader", Bytes(script.begin(), script.end()));
    RoomOptions o;
    o.wallBytes[3] = {32, 16, 8};
    o.texel = [](int wall, int, int) {
        return wall == 3 ? std::array<uint8_t, 3>{200, 100, 50} : std::array<uint8_t, 3>{64, 64, 64};
    };
    const Room r = loadRoom(o, dir);
    REQUIRE(r.set.looks.at(0).noLightmapStage);
    REQUIRE(r.set.looks.at(0).vertexLight);
    const Vec3 vertexLight{128.0f / 255, 64.0f / 255, 32.0f / 255};  // 4 * byte / 255
    const Vec3 e = east(r, UnlitSurfaces::Engine);
    CHECK(e.x == Approx(vertexLight.x * 128 / 255).margin(1e-5));
    CHECK(e.y == Approx(vertexLight.y * 64 / 255).margin(1e-5));
    CHECK(e.z == Approx(vertexLight.z * 255 / 255).margin(1e-5));
    RenderOptions lit;
    lit.mode = RenderMode::Lit;
    lit.look = Look::Linear;
    lit.materials = &r.set;
    const Vec3 l = pixelAt(renderFrame(r.world, r.geometry, roomCamera({0, 0, 0}), lit), 160, 90);
    CHECK(l.x == e.x);
    CHECK(l.y == e.y);
    CHECK(l.z == e.z);
}
