// Static props placed into a World (model/props.hpp): transforms, skins, baked vertex light, drawing and
// PVS listing; the shared content map's three props.
#include <catch2/catch.hpp>

#include <filesystem>

#include "luxel/bsp/decode.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/model/props.hpp"
#include "luxel/render/map_view.hpp"
#include "luxel/render/render.hpp"
#include "support/studio_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;

namespace {

bool near3(Vec3 a, Vec3 b) { return length(a - b) < 1e-4f; }

StaticProp at(Vec3 origin, Vec3 angles, Vec3 scale = {1, 1, 1}) {
    StaticProp p;
    p.model = "models/test/tri.mdl";
    p.origin = origin;
    p.angles = angles;
    p.scale = scale;
    return p;
}

// One triangle in the model's x-z plane, two meshes sharing it (skin refs 0 and 1), textures red / blue.
test::SynthStudio triangle() {
    test::SynthStudio m;
    m.vertices = {{{-10, 0, -10}, {0, -1, 0}, {0, 1}}, {{10, 0, -10}, {0, -1, 0}, {1, 1}}, {{0, 0, 10}, {0, -1, 0}, {0.5f, 0}}};
    m.meshTriangles = {{0, 1, 2}};
    m.textures = {"red", "blue"};
    m.skins = {{0}, {1}};
    return m;
}

std::string writeGameDir(const std::string& name, const test::SynthStudio& model, bool vhv) {
    const std::string dir = test::tempDir(name);
    const test::SynthFiles f = test::writeStudio(model);
    test::writeFile(dir + "/models/test/tri.mdl", f.mdl);
    test::writeFile(dir + "/models/test/tri.vvd", f.vvd);
    test::writeFile(dir + "/models/test/tri.dx90.vtx", f.vtx);
    if (vhv) test::writeFile(dir + "/sp_0.vhv", test::writeVhv(model, 64, 128, 32));
    return dir;
}

}  // namespace

TEST_CASE("props: Source's AngleMatrix places model points (pitch yaw roll, scale)", "[props]") {
    // Yaw 90: the model's forward (x) is world +y, its left (y) world -x.
    CHECK(near3(propPoint(at({10, 20, 30}, {0, 90, 0}), {1, 0, 0}), {10, 21, 30}));
    CHECK(near3(propPoint(at({10, 20, 30}, {0, 90, 0}), {0, 1, 0}), {9, 20, 30}));
    // Pitch 90 looks down: forward is -z, up is +x.
    CHECK(near3(propPoint(at({10, 20, 30}, {90, 0, 0}), {1, 0, 0}), {10, 20, 29}));
    CHECK(near3(propPoint(at({10, 20, 30}, {90, 0, 0}), {0, 0, 1}), {11, 20, 30}));
    // Roll 90 turns the left axis up.
    CHECK(near3(propPoint(at({10, 20, 30}, {0, 0, 90}), {0, 1, 0}), {10, 20, 31}));
    CHECK(near3(propPoint(at({10, 20, 30}, {0, 0, 0}, {2, 2, 2}), {1, 2, 3}), {12, 24, 36}));
    CHECK(near3(propNormal(at({0, 0, 0}, {0, 90, 0}, {2, 2, 2}), {1, 0, 0}), {0, 1, 0}));
}

TEST_CASE("props: a one-triangle model drawn where the hand-computed projection puts it, in its baked light", "[props]") {
    const test::SynthStudio model = triangle();
    GameFiles files;
    files.addDirectory(writeGameDir("props_triangle", model, true));
    World world;
    world.format = MapFormat::Source;
    world.staticProps = {at({100, 0, 0}, {0, 90, 0}, {2, 2, 2})};
    const PropsPlaced placed = placeStaticProps(world, files);
    CHECK(placed.warnings.empty());
    CHECK(placed.props == 1);
    CHECK(placed.vertexLit == 1);
    REQUIRE(world.surfaces.size() == 1);
    CHECK(world.materials[size_t(world.surfaces[0].material)].name == "models/test/red");
    // (-10,0,-10) -> (100,-20,-20), (10,0,-10) -> (100,20,-20), (0,0,10) -> (100,0,20).
    REQUIRE(world.vertices.size() == 3);
    CHECK(near3(world.vertices[0].position, {100, -20, -20}));
    CHECK(near3(world.vertices[2].position, {100, 0, 20}));
    // vrad's bytes (64, 128, 32) as linear light (2 c / 255)^2.2.
    const Vec4 c = world.vertices[0].color;
    CHECK(c.x == Approx(0.2195).epsilon(1e-3));
    CHECK(c.y == Approx(1.0087).epsilon(1e-3));
    CHECK(c.z == Approx(0.0478).epsilon(1e-3));

    // Camera at the origin looking down +x, 90 degrees, 64x64: a point (100, y, z) lands at pixel
    // x = 32 (1 - y / 100), y = 32 (1 - z / 100): corners (25.6, 38.4), (38.4, 38.4), (32, 25.6).
    const Geometry geometry = tessellate(world);
    Camera camera;
    camera.width = camera.height = 64;
    RenderOptions o;
    o.mode = RenderMode::Lightmap;
    o.unlit = UnlitSurfaces::Light;
    o.look = Look::Linear;
    o.background = {0, 0, 0};
    const Image image = renderFrame(world, geometry, camera, o);
    auto px = [&](int x, int y) { return Vec3{image.at(x, y)[0], image.at(x, y)[1], image.at(x, y)[2]}; };
    CHECK(px(32, 37).x == Approx(0.2195).epsilon(1e-3));  // centre (32.5, 37.5): inside
    CHECK(px(30, 30).y == Approx(1.0087).epsilon(1e-3));  // (30.5, 30.5): right of edge A-C at x 29.3
    CHECK(px(26, 30) == Vec3{0, 0, 0});                   // (26.5, 30.5): left of it
    CHECK(px(32, 24) == Vec3{0, 0, 0});                   // above the top corner
    CHECK(px(32, 39) == Vec3{0, 0, 0});                   // below the bottom edge (y 38.4)
}

TEST_CASE("props: skin families switch materials; missing and broken models are warnings naming them", "[props]") {
    const std::string dir = writeGameDir("props_skins", triangle(), false);
    test::writeFile(dir + "/models/test/broken.mdl", Bytes(300, 0x41));  // no IDST header
    GameFiles files;
    files.addDirectory(dir);
    World world;
    world.format = MapFormat::Source;
    world.staticProps = {at({0, 0, 0}, {}), at({50, 0, 0}, {}), at({0, 0, 0}, {}), at({0, 0, 0}, {}), at({0, 0, 0}, {})};
    world.staticProps[1].skin = 1;
    world.staticProps[2].model = world.staticProps[3].model = "models/test/gone.mdl";
    world.staticProps[4].model = "models/test/broken.mdl";
    const PropsPlaced placed = placeStaticProps(world, files);
    CHECK(placed.props == 2);
    CHECK(placed.vertexLit == 0);  // no .vhv: the ambient cube (none here: black)
    CHECK(placed.modelsNotFound == std::vector<std::string>{"models/test/gone.mdl"});
    CHECK(placed.propsNotFound == 2);
    REQUIRE(placed.warnings.size() == 1);
    CHECK(placed.warnings[0].find("models/test/broken.mdl (1 prop) not drawn") != std::string::npos);
    // One line for the models not found (the hint only when no game folder was searched), then the broken one.
    const std::vector<std::string> lines = propWarnings(placed, false);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0] == "1 static prop model not found, 2 props not drawn: models/test/gone.mdl (no game directory "
                      "searched: add --game-dir DIR)");
    CHECK(lines[1] == placed.warnings[0]);
    CHECK(propWarnings(placed, true)[0].find("--game-dir") == std::string::npos);
    REQUIRE(world.surfaces.size() == 2);
    CHECK(world.materials[size_t(world.surfaces[0].material)].name == "models/test/red");
    CHECK(world.materials[size_t(world.surfaces[1].material)].name == "models/test/blue");
    CHECK(world.vertices[0].color.x == 0.0f);
}

TEST_CASE("props: the shared content map's props, drawn and listed by their leaves", "[props][maps]") {
    LUXEL_REQUIRE_SOURCE_CONTENT();
    const std::string dir = *test::sharedSourceContent() + "/momentum_background_01";
    const World world = decodeMap(openMapPath(dir + "/maps/background_01.bsp"));
    REQUIRE(world.staticProps.size() == 3);
    CHECK(world.staticPropLeaves.size() == 7);
    CHECK(world.staticProps[0].model == "models/props_japan/sakura_tree01b.mdl");
    CHECK(world.staticProps[1].model == "models/props_foliage/cattails.mdl");
    CHECK(world.staticProps[2].model == "models/props_foliage/cattails.mdl");
    CHECK(near3(world.staticProps[0].origin, {-32, -200, 97}));
    CHECK(near3(world.staticProps[1].origin, {-80, -192, 97}));
    CHECK(near3(world.staticProps[2].origin, {-32, -152, 97}));
    CHECK(world.staticProps[1].angles.y == 285.0f);
    CHECK(world.staticProps[2].angles.y == 0.0f);

    World placed = world;
    const PropsPlaced p = placeStaticProps(placed, propFiles(placed, {dir}));
    CHECK(p.warnings.empty());
    CHECK(p.props == 3);
    CHECK(p.models == 2);
    // Every prop surface is listed by exactly the leaves its prop lists.
    for (size_t s = world.surfaces.size(); s < placed.surfaces.size(); ++s) {
        size_t listed = 0;
        for (uint32_t v : placed.leafSurfaces) listed += v == s;
        CHECK(listed >= 1);
    }
    // The world's own lists are kept, in order, ahead of the props'.
    for (size_t l = 0; l < world.leaves.size(); ++l)
        for (uint32_t k = 0; k < world.leaves[l].numLeafSurfaces; ++k)
            REQUIRE(placed.leafSurfaces[placed.leaves[l].firstLeafSurface + k] ==
                    world.leafSurfaces[world.leaves[l].firstLeafSurface + k]);

    // --no-props draws what luxel drew before props existed; with them, the tree shows.
    MaterialOptions materials{{dir}, "", 0};
    LoadedMap with = loadMap(openMapPath(dir + "/maps/background_01.bsp"), {}, materials);
    LoadedMap without = loadMap(openMapPath(dir + "/maps/background_01.bsp"), {}, materials, PropOptions{false});
    LoadedMap before;
    before.world = world;
    before.world.staticProps.clear();
    before.geometry = tessellate(before.world);
    before.materialOptions = materials;
    before.source = openMapPath(dir + "/maps/background_01.bsp");
    ViewRequest view;
    view.pos = Vec3{-60, 60, 170};
    view.angles = Vec3{12, -90, 0};
    view.width = 160, view.height = 90;
    view.mode = "lit";
    const Image a = viewFloats(renderView(with, view)), b = viewFloats(renderView(without, view)), c = viewFloats(renderView(before, view));
    CHECK(b.pixels == c.pixels);
    CHECK(a.pixels != b.pixels);
}
