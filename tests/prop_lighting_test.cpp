// The engine's light for static props without baked vertex light (model/prop_lighting.hpp): radius fix-ups,
// the four local lights and the cube they fall into, the per-vertex sum, visibility, and the shared
// content map's tree.
#include <catch2/catch.hpp>

#include "luxel/bsp/decode.hpp"
#include "luxel/model/prop_lighting.hpp"
#include "luxel/model/props.hpp"
#include "support/studio_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;

namespace {

Light point(Vec3 origin, float intensity, Vec3 color = {1, 1, 1}) {
    Light l;
    l.kind = Light::Kind::Point;
    l.origin = origin;
    l.intensity = intensity;
    l.color = color;
    l.falloff = Light::Falloff::Quadratic;
    l.constant = 0, l.linear = 0, l.quadratic = 1;
    l.radius = 100000;
    return l;
}

// One triangle in the model's x-z plane facing -y, as props_test.cpp's model, in a game folder of its own.
GameFiles triangleGame(const std::string& name) {
    test::SynthStudio m;
    m.vertices = {{{-10, 0, -10}, {0, -1, 0}, {0, 1}}, {{10, 0, -10}, {0, -1, 0}, {1, 1}}, {{0, 0, 10}, {0, -1, 0}, {0.5f, 0}}};
    m.meshTriangles = {{0, 1, 2}};
    m.textures = {"red"};
    const std::string dir = test::tempDir(name);
    const test::SynthFiles f = test::writeStudio(m);
    test::writeFile(dir + "/models/test/tri.mdl", f.mdl);
    test::writeFile(dir + "/models/test/tri.vvd", f.vvd);
    test::writeFile(dir + "/models/test/tri.dx90.vtx", f.vtx);
    GameFiles files;
    files.addDirectory(dir);
    return files;
}

World propWorld(const Light& light) {
    World world;
    world.format = MapFormat::Source;
    StaticProp p;
    p.model = "models/test/tri.mdl";
    p.vertexLit = false;
    world.staticProps = {p};
    world.lights = {light};
    return world;
}

}  // namespace

TEST_CASE("prop lighting: radii and spot terms fixed up as the engine loads world lights", "[props]") {
    Light a = point({}, 300, {1, 0, 0});
    a.radius = 0;
    Light b = a;
    b.quadratic = 0, b.linear = 2;
    Light c = a;
    c.quadratic = 0;
    Light d = a;
    d.radius = 50;
    Light e = a;
    e.kind = Light::Kind::Spot;
    e.quadratic = 0;
    const std::vector<Light> ldr = engineWorldLights({a, b, c, d, e}, false);
    CHECK(ldr[0].radius == Approx(100));            // 300 / d^2 = 0.03
    CHECK(ldr[1].radius == Approx(5000));           // 300 / (2 d) = 0.03
    CHECK(ldr[2].radius == 2000.0f);                // no falloff: 2000
    CHECK(ldr[3].radius == 50.0f);                  // stored radius kept
    CHECK(ldr[4].quadratic == 1.0f);                // a spot without terms falls off with d^2
    CHECK(ldr[4].radius == Approx(100));
    CHECK(engineWorldLights({a}, true)[0].radius == Approx(141.421f));  // HDR: down to 0.015
}

TEST_CASE("prop lighting: a vertex sums the cube with its normal and each local light", "[props]") {
    PropLightState s;
    s.cube[2] = {0.5f, 0, 0};  // +Y
    s.cube[3] = {9, 9, 9};     // -Y: the normal does not face it
    s.cube[4] = {0, 0, 0.25f}; // +Z
    s.locals = {point({0, 0, 100}, 100, {1, 0.5f, 0.25f})};
    // Normal (0, 0.6, 0.8): cube 0.36 (+Y) + 0.64 (+Z); the light straight above, cos 0.8, 100 / 100^2.
    const Vec3 c = propVertexLight(s, {0, 0, 0}, {0, 0.6f, 0.8f});
    CHECK(c.x == Approx(0.36 * 0.5 + 0.008));
    CHECK(c.y == Approx(0.004));
    CHECK(c.z == Approx(0.64 * 0.25 + 0.002));
    // Past the light's range nothing comes from it.
    s.locals[0].radius = 99;
    CHECK(propVertexLight(s, {0, 0, 0}, {0, 0, 1}).z == Approx(0.25));
}

TEST_CASE("prop lighting: four local lights; the dimmest is folded into the cube", "[props]") {
    PropLightState s;
    // Five lights 10 units from the origin: above (1), below (2), +x (3), -x (4), +y (5) with intensities
    // 100..500: falloffs 1..5 (illum the same, white light).
    const Vec3 at[5] = {{0, 0, 10}, {0, 0, -10}, {10, 0, 0}, {-10, 0, 0}, {0, 10, 0}};
    for (int i = 0; i < 5; ++i) addPropLight(s, point(at[i], 100.0f * float(i + 1)), {0, 0, 0});
    REQUIRE(s.locals.size() == 4);
    CHECK(s.locals[0].intensity == 500.0f);  // replaced the dimmest, in its slot
    CHECK(s.locals[1].intensity == 200.0f);
    CHECK(s.locals[3].intensity == 400.0f);
    CHECK(s.cube[4] == Vec3{1, 1, 1});  // light 1 from straight above: +Z side, 100 / 10^2
    CHECK(s.cube[5] == Vec3{0, 0, 0});
    // A light dimmer than all four held ones goes to the cube directly: from -y, 50 / 10^2.
    addPropLight(s, point({0, -10, 0}, 50), {0, 0, 0});
    CHECK(s.cube[3] == Vec3{0.5f, 0.5f, 0.5f});
    // Under r_worldlightmin it never becomes a local light, even with free slots.
    PropLightState dim;
    addPropLight(dim, point({0, 0, 10}, 0.01f), {0, 0, 0});
    CHECK(dim.locals.empty());
    CHECK(dim.cube[4].x == Approx(0.0001));
}

TEST_CASE("prop lighting: a prop without .vhv is lit per vertex by a point light; a wall shadows it", "[props]") {
    // The triangle (prop at the origin, unrotated) faces -y; the light 100 units out along -y, 1000 / d^2.
    const GameFiles files = triangleGame("prop_light_point");
    World world = propWorld(point({0, -100, 0}, 1000));
    world.lights[0].radius = 0;  // the engine's: sqrt(1000 / 0.03) = 182.6, the vertices are within it
    PropsPlaced placed = placeStaticProps(world, files);
    CHECK(placed.props == 1);
    CHECK(placed.vertexLit == 0);
    REQUIRE(world.vertices.size() == 3);
    // Vertex (-10, 0, -10): d^2 = 10200, cos = 100 / sqrt(10200); no surfaces, so no ambient light.
    const float expected = 1000.0f * (100.0f / std::sqrt(10200.0f)) / 10200.0f;
    CHECK(world.vertices[0].color.x == Approx(expected).epsilon(1e-4));
    CHECK(world.vertices[0].color.z == Approx(expected).epsilon(1e-4));

    // A black wall at y = -50 between the light and the lighting origin: the light is not a local light.
    World walled = propWorld(point({0, -100, 0}, 1000));
    walled.materials = {Material{"wall", kMaterialNoLightmap, 0, 0, Vec3{1, 1, 1}}};
    for (Vec3 p : {Vec3{-200, -50, -200}, Vec3{200, -50, -200}, Vec3{200, -50, 200}, Vec3{-200, -50, 200}}) {
        Vertex v;
        v.position = p;
        v.color = {0, 0, 0, 1};
        walled.vertices.push_back(v);
    }
    walled.indices = {0, 1, 2, 0, 2, 3};
    Surface wall;
    wall.kind = SurfaceKind::Mesh;
    wall.material = 0;
    wall.numVertices = 4;
    wall.numIndices = 6;
    walled.surfaces = {wall};
    placed = placeStaticProps(walled, files);
    REQUIRE(walled.vertices.size() == 7);
    CHECK(walled.vertices[4].color.x == 0.0f);
}

TEST_CASE("prop lighting: the shared content map's tree takes its three blue lights and the sun", "[props][maps]") {
    LUXEL_REQUIRE_SOURCE_CONTENT();
    const std::string dir = *test::sharedSourceContent() + "/momentum_background_01";
    const World world = decodeMap(openMapPath(dir + "/maps/background_01.bsp"));
    REQUIRE(world.staticProps.size() == 3);
    const StudioModel tree = loadStudioModel(propFiles(world, {dir}), world.staticProps[0].model);
    const Vec3 origin = propPoint(world.staticProps[0], tree.mdl.illumPosition);
    const PropLightState s = PropLighter(world).state(origin);
    // The worldlights lump: three blue points (0, 3443, 8402) at z 168 within 160 units of the tree (-32 -200
    // 97), the sky ambient, the sun, then twelve dim green points 250+ units away. The blue ones and the sun
    // (the tree stands in the open) take the four slots; the greens are far dimmer and go to the cube.
    REQUIRE(s.locals.size() == 4);
    int blue = 0, sun = 0;
    for (const Light& l : s.locals) {
        blue += l.kind == Light::Kind::Point && l.color.z == 1.0f && l.color.x == 0.0f;
        sun += l.kind == Light::Kind::Sun;
    }
    CHECK(blue == 3);
    CHECK(sun == 1);
    // No longer dark: the vertices facing the lights get far more than the cube alone gives.
    World placed = world;
    placeStaticProps(placed, propFiles(placed, {dir}));
    float bluest = 0;
    for (size_t v = world.vertices.size(); v < placed.vertices.size(); ++v)
        bluest = std::max(bluest, placed.vertices[v].color.z);
    CHECK(bluest > 10 * std::max({s.cube[0].z, s.cube[1].z, s.cube[2].z, s.cube[3].z, s.cube[4].z, s.cube[5].z}));
}
