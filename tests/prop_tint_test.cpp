// The engine's colour modulation of Source materials (material/load_source.cpp): $color on brushes; on models
// the render colour (a static prop's diffuse modulation) in $color's place times $color2, to linear with 2.2;
// a prop's modulation alpha as its opacity.
#include <catch2/catch.hpp>

#include "luxel/geometry/geometry.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/model/props.hpp"
#include "luxel/render/render.hpp"
#include "support/decode_helpers.hpp"
#include "support/studio_writer.hpp"
#include "support/test_paths.hpp"
#include "support/vtf_writer.hpp"

using namespace luxel;

namespace {

// props_test.cpp's triangle (one mesh, material models/test/red) with a flat texture (200, 100, 50) and
// $color (ignored on models) and $color2; vrad light (64, 64, 64) for props 0-2.
std::string tintGame() {
    const std::string dir = test::tempDir("prop-tint");
    test::SynthStudio m;
    m.vertices = {{{-10, 0, -10}, {0, -1, 0}, {0, 1}}, {{10, 0, -10}, {0, -1, 0}, {1, 1}}, {{0, 0, 10}, {0, -1, 0}, {0.5f, 0}}};
    m.meshTriangles = {{0, 1, 2}};
    m.textures = {"red"};
    const test::SynthFiles f = test::writeStudio(m);
    test::writeFile(dir + "/models/test/tri.mdl", f.mdl);
    test::writeFile(dir + "/models/test/tri.vvd", f.vvd);
    test::writeFile(dir + "/models/test/tri.dx90.vtx", f.vtx);
    for (int i = 0; i < 3; ++i) test::writeFile(dir + "/sp_" + std::to_string(i) + ".vhv", test::writeVhv(m, 64, 64, 64));
    test::writeFile(dir + "/materials/models/test/flat.vtf", test::makeVtf2x2({{200, 100, 50, 255}, {200, 100, 50, 255},
                                                                               {200, 100, 50, 255}, {200, 100, 50, 255}}));
    test::writeFile(dir + "/materials/models/test/red.vmt",
                    test::bytesOf("\"VertexLitGeneric\"\n{\n \"$basetexture\" \"models/test/flat\"\n \"$color\" \"[0.5 0.5 0.5]\"\n"
                         " \"$color2\" \"{255 200 170}\" // salmon, as the sakura branches\n}\n"));
    test::writeFile(dir + "/materials/models/test/masked.vmt",
                    test::bytesOf("\"VertexLitGeneric\"\n{\n \"$basetexture\" \"models/test/flat\"\n \"$color2\" \"[0.5 0.5 0.5]\"\n"
                         " \"$blendtintbybasealpha\" 1\n}\n"));
    return dir;
}

StaticProp prop(Vec3 origin, std::array<uint8_t, 4> tint) {
    StaticProp p;
    p.model = "models/test/tri.mdl";
    p.origin = origin;
    p.angles = {0, 90, 0};
    p.scale = {2, 2, 2};
    p.tint = tint;
    return p;
}

}  // namespace

TEST_CASE("Source colour modulation: $color2 x a prop's diffuse modulation on models, $color on brushes", "[materials][props]") {
    const std::string dir = tintGame();
    World world;
    world.format = MapFormat::Source;
    world.file = "tint.bsp";
    // A brush material of the same VMT: its $color counts, $color2 does not; one with $blendtintbybasealpha.
    world.materials = {Material{"models/test/red", 0, 0, 0, {1, 1, 1}}, Material{"models/test/masked", 0, 0, 0, {1, 1, 1}}};
    world.staticProps = {prop({100, 0, 0}, {255, 255, 255, 255}), prop({100, 50, 0}, {255, 128, 64, 255}),
                         prop({100, -50, 0}, {255, 255, 255, 128})};
    const PropsPlaced placed = placeStaticProps(world, propFiles(world, {dir}));
    REQUIRE(placed.warnings.empty());
    REQUIRE(placed.props == 3);
    // One material per name and modulation, after the world's.
    REQUIRE(world.materials.size() == 5);
    REQUIRE(world.surfaces.size() == 3);
    for (size_t s = 0; s < 3; ++s) CHECK(world.surfaces[s].material == int32_t(2 + s));
    REQUIRE(world.materials[3].modelColor);
    CHECK(world.materials[3].modelColor->y == 128 / 255.0f);
    CHECK(world.materials[4].modelColor->w == 128 / 255.0f);

    const MaterialSet set = loadMaterials(world, MapSource{}, {{dir}, "", 0});
    REQUIRE(set.looks.size() == 5);
    auto near3 = [](Vec3 a, Vec3 b) { return std::abs(a.x - b.x) < 1e-5f && std::abs(a.y - b.y) < 1e-5f && std::abs(a.z - b.z) < 1e-5f; };
    // Brush: $color 0.5 -> 0.5^2.2 = 0.217638.
    CHECK(near3(set.looks[0].albedoScale, {0.217638f, 0.217638f, 0.217638f}));
    // $blendtintbybasealpha: left out, said so.
    CHECK(set.looks[1].albedoScale == Vec3{1, 1, 1});
    REQUIRE(set.looks[1].notDrawn.size() == 1);
    CHECK(set.looks[1].notDrawn[0].find("$blendtintbybasealpha") != std::string::npos);
    // White prop: $color2 (1, 200/255, 170/255)^2.2 = (1, 0.585973, 0.409826).
    CHECK(near3(set.looks[2].albedoScale, {1, 0.585973f, 0.409826f}));
    CHECK(set.looks[2].blend == BlendMode::Opaque);
    // Modulation (255, 128, 64) x $color2: (1, 128/255 x 200/255, 64/255 x 170/255)^2.2 = (1, 0.128633, 0.0195797).
    CHECK(near3(set.looks[3].albedoScale, {1, 0.128633f, 0.0195797f}));
    // Modulation alpha 128: the prop drawn at opacity 128/255, blended.
    CHECK(set.looks[4].opacity == Approx(128 / 255.0));
    CHECK(set.looks[4].blend == BlendMode::Blend);

    // Drawn lit in the linear look: light x albedo x modulation. The camera of props_test.cpp's triangle test:
    // prop 0's triangle covers pixel (32, 37), prop 1's (placed 50 units to the left) pixel (16, 37).
    const Geometry geometry = tessellate(world);
    Camera camera;
    camera.width = camera.height = 64;
    RenderOptions o;
    o.mode = RenderMode::Lit;
    o.look = Look::Linear;
    o.background = {0, 0, 0};
    o.materials = &set;
    const Image image = renderFrame(world, geometry, camera, o);
    auto px = [&](int x, int y) { return Vec3{image.at(x, y)[0], image.at(x, y)[1], image.at(x, y)[2]}; };
    const Vec3 white = px(32, 37), tinted = px(16, 37);
    // vrad's 64 -> (128/255)^2.2 = 0.21952 light; texel 200 -> (200/255)^2.2 = 0.585973 albedo, times $color2.
    CHECK(white.x == Approx(0.21952 * 0.585973).epsilon(1e-3));
    CHECK(white.y == Approx(0.21952 * std::pow(100 / 255.0, 2.2) * 0.585973).epsilon(1e-3));
    // The same light and texel: the two differ by the modulation alone.
    CHECK(tinted.x == Approx(white.x).epsilon(1e-4));
    CHECK(tinted.y / white.y == Approx(0.128633 / 0.585973).epsilon(1e-3));
    CHECK(tinted.z / white.z == Approx(0.0195797 / 0.409826).epsilon(1e-3));
}
