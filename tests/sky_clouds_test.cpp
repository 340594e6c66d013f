// Cloud skies: layers on ioquake3's dome (a sphere of radius R + h about (0, 0, -R), R = 4096, h the cloud
// height; s = acos(v.x), t = acos(v.y) of the unit vector from its centre to the hit), moved by their tcMods
// at the frame's time and blended over each other. Expected texels computed by hand from that geometry.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <numbers>

#include "luxel/bsp/decode.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/render/render.hpp"
#include "luxel/render/shade.hpp"
#include "support/decode_helpers.hpp"
#include "support/q3_writer.hpp"
#include "support/render_fixtures.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

constexpr double kPiD = std::numbers::pi;

// 256 x 256, red = x, green = y, blue 0: a linear ramp, which bilinear filtering and box-filtered mips keep
// (up to byte rounding of the mips), so the expected value at (s, t) is s * 256 - 0.5 wrapped into 0..255.
std::shared_ptr<const Texture> ramp() {
    RgbaImage img;
    img.width = img.height = 256;
    for (int y = 0; y < 256; ++y)
        for (int x = 0; x < 256; ++x)
            for (uint8_t v : {uint8_t(x), uint8_t(y), uint8_t(0), uint8_t(255)}) img.rgba.push_back(v);
    return std::make_shared<const Texture>(makeTexture("ramp", img));
}

std::shared_ptr<const Texture> flat(std::array<uint8_t, 4> c) {
    RgbaImage img;
    img.width = img.height = 1;
    img.rgba.assign(c.begin(), c.end());
    return std::make_shared<const Texture>(makeTexture("flat", img));
}

// A closed cube of sky around the origin.
RenderScene skyCube() {
    RenderScene s;
    addSkyCube(s, 100);
    return s;
}

// The centre pixel of a 17 x 17 view from the origin: exactly the view axis.
Vec3 centre(const MaterialSet& m, Vec3 angles) {
    RenderOptions o;
    o.mode = RenderMode::Lit;
    o.look = Look::Linear;
    o.usePvs = false;
    o.materials = &m;
    o.skyColor = {0.25f, 0.25f, 0.25f};
    const Image img = renderScene(skyCube(), makeCamera({0, 0, 0}, angles, 17, 17), o);
    return pixelAt(img, 8, 8);
}

// The ramp's red or green at texture coordinate c (repeat; 256 texels).
double rampAt(double c) {
    const double f = c * 256.0 - 0.5;
    return (f - 256.0 * std::floor(f / 256.0)) / 255.0;
}

MaterialSet cloudSky() {
    MaterialSet m;
    m.looks.resize(1);
    m.looks[0].skyBox = 0;
    m.skies.resize(1);
    m.textures.push_back(ramp());
    CloudLayer layer;
    layer.texture = 0;
    m.skies.at(0).clouds.push_back(layer);
    m.skies.at(0).cloudHeight = 512;
    return m;
}

}  // namespace

TEST_CASE("cloud layer: the dome coordinates at the zenith and at the horizon", "[sky]") {
    const MaterialSet m = cloudSky();
    // Straight up: v = (0, 0, 1), s = t = acos(0) = pi / 2.
    const Vec3 up = centre(m, {-90, 0, 0});
    CHECK(up.x == Approx(rampAt(kPiD / 2)).margin(1.0 / 255));
    CHECK(up.y == Approx(rampAt(kPiD / 2)).margin(1.0 / 255));
    CHECK(up.z == 0.0f);
    // Along +X: the ray meets the sphere at p = sqrt(2 R h + h^2) = sqrt(4456448); |v| = R + h = 4608, so
    // v.x = p / 4608, s = acos(v.x); v.y = 0, t = pi / 2.
    const double s = std::acos(std::sqrt(4456448.0) / 4608.0);
    const Vec3 east = centre(m, {0, 0, 0});
    CHECK(east.x == Approx(rampAt(s)).margin(1.0 / 255));
    CHECK(east.y == Approx(rampAt(kPiD / 2)).margin(1.0 / 255));
}

TEST_CASE("cloud layer: the engine's grid of dome coordinates, and no clouds on the box's bottom side", "[sky]") {
    // ioquake3 R_InitSkyTexCoords: grid point (s, t) of a side is side coordinate ((s - 4) / 4, (t - 4) / 4).
    SkyBox sky;
    sky.cloudHeight = 512;
    const render::CloudGrid grid = render::makeCloudGrid(sky);
    CHECK(grid.at[4][4][4].x == Approx(kPiD / 2));  // the top side's centre: straight up
    CHECK(grid.at[4][4][4].y == Approx(kPiD / 2));
    CHECK(grid.at[0][4][4].x == Approx(std::acos(std::sqrt(4456448.0) / 4608.0)));  // +X side's centre: the horizon east
    CHECK(grid.at[0][4][4].y == Approx(kPiD / 2));
    // The +X side's corner (s, t) = (1, 1) is direction (1, -1, 1): the dome is symmetric in y, so its t
    // equals pi minus that of the corner (s, t) = (-1, 1), direction (1, 1, 1).
    CHECK(grid.at[0][8][8].y == Approx(kPiD - grid.at[0][8][0].y));
    CHECK(grid.at[0][8][8].x == Approx(grid.at[0][8][0].x));
    // Straight down (the -Z side): FillCloudBox never draws clouds there, so the sky colour shows.
    const MaterialSet m = cloudSky();
    const Vec3 down = centre(m, {90, 0, 0});
    CHECK(down.x == 0.25f);
    CHECK(down.y == 0.25f);
    // Just above the horizon on a side, clouds are drawn (the ramp is never the flat 0.25 on both channels there).
    const Vec3 side = centre(m, {-10, 30, 0});
    CHECK((side.x != 0.25f || side.y != 0.25f));
}

TEST_CASE("cloud layer: tcMod scale and scroll at the frame's time", "[sky]") {
    MaterialSet m = cloudSky();
    TexMod scale, scroll;
    scale.kind = TexMod::Kind::Scale;
    scale.p[0] = 2, scale.p[1] = 1;
    scroll.kind = TexMod::Kind::Scroll;
    scroll.p[0] = 0.1f, scroll.p[1] = 0.35f;
    m.skies.at(0).clouds[0].mods = {scale, scroll};
    // Time 0: the scale alone (s doubled).
    Vec3 up = centre(m, {-90, 0, 0});
    CHECK(up.x == Approx(rampAt(kPiD)).margin(1.0 / 255));
    CHECK(up.y == Approx(rampAt(kPiD / 2)).margin(1.0 / 255));
    // Time 2: offsets 0.2 and 0.7 (their fractions: 0.7 stays).
    m.time = 2;
    up = centre(m, {-90, 0, 0});
    CHECK(up.x == Approx(rampAt(kPiD + 0.2)).margin(1.0 / 255));
    CHECK(up.y == Approx(rampAt(kPiD / 2 + 0.7)).margin(1.0 / 255));
}

TEST_CASE("cloud layers blend over each other with their blend factors", "[sky]") {
    MaterialSet m = cloudSky();
    m.textures.push_back(flat({40, 80, 120, 255}));
    CloudLayer add;
    add.texture = 1;
    add.src = BlendFactor::One;
    add.dst = BlendFactor::One;
    m.skies.at(0).clouds.push_back(add);
    const Vec3 up = centre(m, {-90, 0, 0});
    CHECK(up.x == Approx(rampAt(kPiD / 2) + 40.0 / 255).margin(1.0 / 255));
    CHECK(up.z == Approx(120.0 / 255).margin(1e-6));
    // A filter layer (DST_COLOR ZERO) multiplies what is below.
    m.skies.at(0).clouds[1].src = BlendFactor::DstColor;
    m.skies.at(0).clouds[1].dst = BlendFactor::Zero;
    const Vec3 filtered = centre(m, {-90, 0, 0});
    CHECK(filtered.x == Approx(rampAt(kPiD / 2) * 40.0 / 255).margin(1.0 / 255));
    CHECK(filtered.z == 0.0f);
    // --sky-color overrides the clouds.
    {
        RenderOptions o;
        o.mode = RenderMode::Lit;
        o.look = Look::Linear;
        o.usePvs = false;
        o.materials = &m;
        o.skyColor = {0.125f, 0.5f, 0.75f};
        o.skyColorOverride = true;
        const Vec3 c = pixelAt(renderScene(skyCube(), makeCamera({0, 0, 0}, {-90, 0, 0}, 17, 17), o), 8, 8);
        CHECK(c.x == 0.125f);
        CHECK(c.z == 0.75f);
    }
    // Without layers or box: the sky colour.
    MaterialSet none;
    none.looks.resize(1);
    CHECK(centre(none, {-90, 0, 0}).x == Approx(0.25f));
}

TEST_CASE("a Quake 3 sky shader's stages become cloud layers with their blend and tcMods", "[sky][materials]") {
    const std::string dir = tempDir("sky-clouds");
    writeFile(dir + "/textures/sky/far.tga", tga1x1(10, 20, 30));
    writeFile(dir + "/textures/sky/near.tga", tga1x1(40, 50, 60));
    const std::string script = R"(textures/luxel/wall
{
	surfaceparm sky
	skyparms - 0 -
	{
		map textures/sky/far.tga
		tcMod scale 2 3
		tcMod scroll 0.03 0.01
		tcMod turb 0 0.1 0 1
	}
	{
		map textures/sky/near
		blendFunc GL_DST_COLOR GL_ZERO
		tcMod rotate 10
	}
	{
		map $lightmap
	}
}
)";
    writeFile(dir + "/scripts/sky.shader", Bytes(script.begin(), script.end()));
    const MapSource src = memorySource(makeRoomMap().build(), "room.bsp");
    MaterialOptions options;
    options.gameDirs = {dir};
    options.time = 1.5f;
    const MaterialSet m = loadMaterials(decodeMap(src), src, options);
    CHECK(m.looks[0].sky);
    CHECK(m.looks[0].skyBox == 0);
    CHECK(m.time == 1.5f);
    CHECK_FALSE(m.skies.at(0).hasBox());
    CHECK(m.skies.at(0).cloudHeight == 512.0f);  // skyparms height 0: the engine's 512
    REQUIRE(m.skies.at(0).clouds.size() == 2);   // $lightmap is not a cloud layer
    const CloudLayer& far = m.skies.at(0).clouds[0];
    CHECK(far.src == BlendFactor::One);
    CHECK(far.dst == BlendFactor::Zero);
    REQUIRE(far.mods.size() == 2);  // turb is not applied to clouds
    CHECK(far.mods[0].kind == TexMod::Kind::Scale);
    CHECK(far.mods[1].kind == TexMod::Kind::Scroll);
    CHECK(far.mods[1].p[0] == 0.03f);
    const CloudLayer& near = m.skies.at(0).clouds[1];
    CHECK(near.src == BlendFactor::DstColor);
    CHECK(near.dst == BlendFactor::Zero);
    REQUIRE(near.mods.size() == 1);
    CHECK(near.mods[0].kind == TexMod::Kind::Rotate);
    REQUIRE(m.textures.at(size_t(near.texture)));
    CHECK(textureLevel(*m.textures[size_t(near.texture)], 0).rgba[0] == 40);
}

TEST_CASE("each sky shader has its own sky, decoded when a view draws one of its materials", "[sky][materials]") {
    // Two sky shaders, as ioquake3 draws them (a sky pass per shader over its own surfaces): the walls'
    // (material 0: box env/box, clouds cloud.tga at height 256) and the ceiling's (material 1: no box,
    // clouds other.tga at height 128).
    const std::string dir = tempDir("sky-wanted");
    writeFile(dir + "/textures/sky/cloud.tga", tga1x1(10, 20, 30));
    writeFile(dir + "/textures/sky/other.tga", tga1x1(90, 90, 90));
    for (const char* side : {"rt", "bk", "lf", "ft", "up", "dn"}) writeFile(dir + "/env/box_" + side + ".tga", tga1x1(1, 2, 3));
    const std::string script = R"(textures/luxel/wall
{
	surfaceparm sky
	skyparms env/box 256 -
	{
		map textures/sky/cloud.tga
	}
}
textures/luxel/skyb
{
	surfaceparm sky
	skyparms - 128 -
	{
		map textures/sky/other.tga
	}
}
)";
    writeFile(dir + "/scripts/sky.shader", Bytes(script.begin(), script.end()));
    Q3MapBuilder b = makeRoomMap();
    b.faces.at(1).texture = b.addTexture("textures/luxel/skyb");  // the ceiling
    const MapSource src = memorySource(b.build(), "room.bsp");
    const World world = decodeMap(src);
    REQUIRE(world.materials.size() == 2);
    MaterialOptions options;
    options.gameDirs = {dir};
    const MaterialSet all = loadMaterials(world, src, options);
    REQUIRE(all.skies.size() == 2);
    CHECK(all.looks[0].skyBox == 0);
    CHECK(all.looks[1].skyBox == 1);
    CHECK(all.skies[0].hasBox());
    CHECK(all.skies[0].cloudHeight == 256.0f);
    REQUIRE(all.skies[0].clouds.size() == 1);
    CHECK(textureLevel(*all.textures.at(size_t(all.skies[0].clouds[0].texture)), 0).rgba[0] == 10);
    CHECK_FALSE(all.skies[1].hasBox());
    CHECK(all.skies[1].cloudHeight == 128.0f);
    REQUIRE(all.skies[1].clouds.size() == 1);
    CHECK(textureLevel(*all.textures.at(size_t(all.skies[1].clouds[0].texture)), 0).rgba[0] == 90);
    // A view that draws only the ceiling decodes the ceiling's sky alone.
    const MaterialSet ceilingOnly = loadMaterials(world, src, options, {false, true});
    REQUIRE(ceilingOnly.skies.size() == 2);
    CHECK_FALSE(ceilingOnly.skies[0].present());
    REQUIRE(ceilingOnly.skies[1].clouds.size() == 1);
    CHECK(textureLevel(*ceilingOnly.textures.at(size_t(ceilingOnly.skies[1].clouds[0].texture)), 0).rgba[0] == 90);
    // No sky material drawn: neither clouds nor box faces are decoded.
    const MaterialSet noSky = loadMaterials(world, src, options, {false, false});
    for (const SkyBox& sky : noSky.skies) CHECK_FALSE(sky.present());
    CHECK(noSky.textures.empty());
}

TEST_CASE("two sky shaders on two windows: each window shows its own shader's box", "[sky][render]") {
    // The room's west wall is a window of sky shader A (a red box), its east wall one of shader B (a blue box).
    const std::string dir = tempDir("two-skies");
    for (const char* side : {"rt", "bk", "lf", "ft", "up", "dn"}) {
        writeFile(dir + "/env/red_" + side + ".tga", tga1x1(255, 0, 0));
        writeFile(dir + "/env/blue_" + side + ".tga", tga1x1(0, 0, 255));
    }
    const std::string script = R"(textures/luxel/skya
{
	surfaceparm sky
	skyparms env/red - -
}
textures/luxel/skyb
{
	surfaceparm sky
	skyparms env/blue - -
}
)";
    writeFile(dir + "/scripts/sky.shader", Bytes(script.begin(), script.end()));
    Q3MapBuilder b = makeRoomMap();
    b.faces.at(2).texture = b.addTexture("textures/luxel/skya", kQ3SurfSky);  // west wall
    b.faces.at(3).texture = b.addTexture("textures/luxel/skyb", kQ3SurfSky);  // east wall
    const MapSource src = memorySource(b.build(), "room.bsp");
    const World world = decodeMap(src);
    const Geometry geometry = tessellate(world);
    MaterialOptions materialOptions;
    materialOptions.gameDirs = {dir};
    const MaterialSet set = loadMaterials(world, src, materialOptions);
    REQUIRE(set.skies.size() == 2);
    RenderOptions options;
    options.mode = RenderMode::Lit;
    options.look = Look::Linear;
    options.materials = &set;
    for (const auto& [yaw, want] : {std::pair{180.0f, Vec3{1, 0, 0}}, std::pair{0.0f, Vec3{0, 0, 1}}}) {
        INFO("yaw " << yaw);
        const Image img = renderFrame(world, geometry, roomCamera({0, yaw, 0}), options);
        const Vec3 c = pixelAt(img, 160, 90);
        CHECK(c.x == Approx(want.x).margin(1e-6));
        CHECK(c.y == Approx(want.y).margin(1e-6));
        CHECK(c.z == Approx(want.z).margin(1e-6));
    }
}

TEST_CASE("tcMod rotate and transform move coordinates as the engine's matrices do", "[sky]") {
    TexMod rotate;
    rotate.kind = TexMod::Kind::Rotate;
    rotate.p[0] = 90;  // degrees per second: at t = 1 a quarter turn clockwise about (0.5, 0.5)
    // The engine turns by -90 degrees: s' = s cos + t sin + ..., (1, 0.5) -> (0.5, 0) ... about the centre.
    const Vec2 r = applyTexMods({rotate}, {1.0f, 0.5f}, 1.0f);
    CHECK(r.x == Approx(0.5f).margin(1e-6));
    CHECK(r.y == Approx(0.0f).margin(1e-6));
    CHECK(applyTexMods({rotate}, {0.5f, 0.5f}, 3.7f).x == Approx(0.5f).margin(1e-6));  // the centre stays
    TexMod transform;
    transform.kind = TexMod::Kind::Transform;
    const float m[6] = {2, 0.5f, 0.25f, 3, 0.1f, 0.2f};  // s' = 2s + 0.25t + 0.1, t' = 0.5s + 3t + 0.2
    std::copy(std::begin(m), std::end(m), std::begin(transform.p));
    const Vec2 t = applyTexMods({transform}, {1.0f, 2.0f}, 0.0f);
    CHECK(t.x == Approx(2.6f));
    CHECK(t.y == Approx(6.7f));
}

TEST_CASE("cloud skies: the vector and portable loops give the same bytes, box or not, on every side", "[sky][render]") {
    // Two layers (an opaque ramp scaled and scrolled, an alpha-blended one rotated) over a box of ramps and
    // over no box, seen in six directions that cross side edges, the bottom side and the horizon.
    for (bool box : {false, true}) {
        MaterialSet m = cloudSky();
        m.time = 1.25f;
        TexMod scale, scroll, rotate;
        scale.kind = TexMod::Kind::Scale, scale.p[0] = 3, scale.p[1] = 2;
        scroll.kind = TexMod::Kind::Scroll, scroll.p[0] = 0.05f, scroll.p[1] = -0.2f;
        rotate.kind = TexMod::Kind::Rotate, rotate.p[0] = 20;
        m.skies.at(0).clouds[0].mods = {scale, scroll};
        m.textures.push_back(flat({200, 100, 50, 128}));
        CloudLayer blend;
        blend.texture = 1;
        blend.src = BlendFactor::SrcAlpha, blend.dst = BlendFactor::OneMinusSrcAlpha;
        blend.mods = {rotate};
        m.skies.at(0).clouds.push_back(blend);
        if (box) m.skies.at(0).faces = {0, 0, 0, 0, 0, 0};
        RenderOptions o;
        o.mode = RenderMode::Lit;
        o.usePvs = false;
        o.materials = &m;
        o.skyColor = {0.25f, 0.25f, 0.25f};
        for (Vec3 angles : {Vec3{-90, 0, 0}, Vec3{0, 45, 0}, Vec3{30, 135, 0}, Vec3{80, -60, 0}, Vec3{-35, 10, 0}, Vec3{5, 200, 0}}) {
            INFO("box " << box << " angles " << angles.x << " " << angles.y);
            const Camera cam = makeCamera({0, 0, 0}, angles, 97, 61);
            const BothPaths both = renderBothPaths(skyCube(), cam, o);
            REQUIRE(both.vec.pixels.size() == both.portable.pixels.size());
            CHECK(std::memcmp(both.vec.pixels.data(), both.portable.pixels.data(), both.vec.pixels.size() * sizeof(float)) == 0);
        }
    }
}

TEST_CASE("cloud layer: Quake 1's flattened sphere (QuakeSpasm Sky_GetTexCoord)", "[sky]") {
    SkyBox sky;
    sky.dome = SkyBox::Dome::Quake1;
    const render::CloudGrid grid = render::makeCloudGrid(sky);
    // Straight up (the top side's centre): no horizontal offset, so (0, 0) before the scroll.
    CHECK(grid.at[4][4][4].x == Approx(0.0).margin(1e-6));
    CHECK(grid.at[4][4][4].y == Approx(0.0).margin(1e-6));
    // The +X side's centre looks along +X at the horizon: s = 6 * 63 / 128 texture widths, t = 0.
    CHECK(grid.at[0][4][4].x == Approx(6.0 * 63.0 / 128.0));
    CHECK(grid.at[0][4][4].y == Approx(0.0).margin(1e-6));
    // Its top corner, direction (1, -1, 1): z tripled, |(1, -1, 3)| = sqrt(11).
    CHECK(grid.at[0][8][8].x == Approx(6.0 * 63.0 / std::sqrt(11.0) / 128.0));
}
