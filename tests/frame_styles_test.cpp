// Light styles in frames: a style's weight adds exactly weight x its slot's light on its faces only, on
// synthetic Quake 2 and Quake 3 maps and on quakeless-ii_test1's style-5 faces.
#include <catch2/catch.hpp>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "luxel/bsp/decode.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/light/lightmap_sample.hpp"
#include "luxel/light/styles.hpp"
#include "luxel/render/render.hpp"
#include "support/q2_writer.hpp"
#include "support/render_fixtures.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;
namespace {

// Two floor faces side by side at z = 0, seen from above: face 0 (x 0..64) has light styles 0 and 5,
// face 1 (x 64..128) style 0 only. Slot 1 of face 0 is one constant colour, so its bilinear samples are
// that colour exactly.
World styledQ2Floors() {
    Q2MapBuilder b;
    b.entities = "{\n\"classname\" \"worldspawn\"\n}\n";
    const int32_t floor = b.addPlane({0, 0, 1}, 0);
    const int32_t tex = b.addTexinfo({1, 0, 0, 0}, {0, 1, 0, 0});
    std::vector<std::array<uint8_t, 3>> ramp, flat, other;
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 5; ++i) {
            ramp.push_back({uint8_t(10 * i), uint8_t(10 * j), 7});
            flat.push_back({200, 100, 50});
            other.push_back({uint8_t(5 * i), 20, uint8_t(10 * j)});
        }
    const int32_t lightA = b.addLighting({ramp, flat});
    const int32_t lightB = b.addLighting({other});
    // Clockwise seen from above (+z).
    b.addFace({{0, 0, 0}, {0, 32, 0}, {64, 32, 0}, {64, 0, 0}}, floor, false, tex, {0, 5, 255, 255}, lightA);
    b.addFace({{64, 0, 0}, {64, 32, 0}, {128, 32, 0}, {128, 0, 0}}, floor, false, tex, {0, 255, 255, 255}, lightB);
    addQ2FloorWorld(b, floor, tex, 2, {128, 32, 0});
    MapSource src;
    src.displayName = "styled.bsp";
    src.mapName = "styled";
    src.bytes = b.build();
    return decodeMap(src);
}

StyleWeights weightsOf(std::initializer_list<std::pair<int, float>> list) {
    StyleWeights w{};
    for (auto [s, v] : list) w[size_t(s)] = v;
    return w;
}

}  // namespace

TEST_CASE("render: a light style's weight adds exactly weight * its slot's light on its faces only", "[render]") {
    const World world = styledQ2Floors();
    REQUIRE(world.surfaces.size() == 2);
    REQUIRE(world.surfaces[0].styles == std::array<uint8_t, 4>{0, 5, 255, 255});
    REQUIRE(world.extraLightmapSlots[0].size() == world.lightmaps.size());
    const Geometry geometry = tessellate(world);
    // Slot 1 of face 0 samples to one colour c everywhere on the face (checked at its corners and centre).
    const LightmapPage& slot1 = world.extraLightmapSlots[0][size_t(world.surfaces[0].lightmapPage)];
    const Vertex* fv = &world.vertices[world.surfaces[0].firstVertex];
    const Vec3 c = sampleLightmap(slot1, fv[0].lightmapUV);
    REQUIRE(c.x > 0.1f);
    for (uint32_t k = 0; k < world.surfaces[0].numVertices; ++k) REQUIRE(sampleLightmap(slot1, fv[k].lightmapUV) == c);
    REQUIRE(sampleLightmap(slot1, (fv[0].lightmapUV + fv[2].lightmapUV) * 0.5f) == c);

    // Looking straight down from 64 units above the floors' middle; screen up is +x, screen right -y.
    Camera cam = makeCamera({64, 16, 64}, {90, 0, 0}, 128, 256);
    RenderOptions o = linearOptions(RenderMode::Lightmap);
    o.usePvs = true;
    o.styleWeights = weightsOf({{0, 1.0f}, {5, 0.0f}});
    const Image off = renderFrame(world, geometry, cam, o);
    for (float w : {0.5f, 0.3f, 2.0f}) {
        o.styleWeights = weightsOf({{0, 1.0f}, {5, w}});
        const Image on = renderFrame(world, geometry, cam, o);
        int onA = 0, onB = 0;
        for (int y = 0; y < cam.height; ++y)
            for (int x = 0; x < cam.width; ++x) {
                // Which face the pixel centre sees, from the camera's own ray (one unit of margin at edges).
                const Vec3 d = pixelRay(cam, x, y);
                const double t = -64.0 / d.z, hx = 64 + t * d.x, hy = 16 + t * d.y;
                const bool insideA = hx > 1 && hx < 63 && hy > 1 && hy < 31;
                const bool nearA = hx > -1 && hx < 65 && hy > -1 && hy < 33;
                const Vec3 a = pixelAt(off, x, y), b = pixelAt(on, x, y);
                INFO("weight " << w << " pixel " << x << "," << y << " hit " << hx << "," << hy);
                if (insideA) {
                    REQUIRE(b.x == a.x + c.x * w);
                    REQUIRE(b.y == a.y + c.y * w);
                    REQUIRE(b.z == a.z + c.z * w);
                    ++onA;
                } else if (!nearA) {
                    REQUIRE(b == a);  // face 1 or background: style 5 does not reach it
                    onB += hx > 65 && hx < 127 && hy > 1 && hy < 31 && a.x > 0 ? 1 : 0;
                }
            }
        REQUIRE(onA > 1500);  // about 32 x 64 pixels
        REQUIRE(onB > 1500);
    }
    // Without explicit weights the frame uses "rest": style 5 ("jklm...") starts at 9/12.
    o.styleWeights.reset();
    const Image rest = renderFrame(world, geometry, cam, o);
    o.styleWeights = weightsOf({{0, 1.0f}, {5, 0.75f}});
    const Image explicitRest = renderFrame(world, geometry, cam, o);
    REQUIRE(std::memcmp(rest.pixels.data(), explicitRest.pixels.data(), rest.pixels.size() * sizeof(float)) == 0);
    o.styleWeights.reset();
    o.styleSpec = "0=1,5=0";
    const Image bySpec = renderFrame(world, geometry, cam, o);
    REQUIRE(std::memcmp(bySpec.pixels.data(), off.pixels.data(), off.pixels.size() * sizeof(float)) == 0);
}

TEST_CASE("render: style 0 at weight w scales a Quake 3 lightmap by exactly w; no style at all is black", "[render]") {
    RenderScene s;
    int32_t page = addLightmapPage(s, 4, 4, [](int x, int y) { return Vec3{0.25f * float(x), 0.5f, 0.125f * float(y)}; });
    std::vector<FixtureVertex> v;
    const std::vector<Vec3> corners = wall(100, 50);
    const Vec2 uvs[4] = {{0.1f, 0.2f}, {0.9f, 0.2f}, {0.9f, 0.8f}, {0.1f, 0.8f}};
    for (int k = 0; k < 4; ++k) v.push_back({corners[size_t(k)], {1, 1, 1, 1}, uvs[k]});
    addPolygon(s, v, {-1, 0, 0}, SurfaceShading::Lightmap, page);
    Camera cam = makeCamera({0, 0, 0}, {0, 0, 0}, 64, 64);
    RenderOptions o = linearOptions(RenderMode::Lightmap);
    const Image one = renderScene(s, cam, o);
    o.styleWeights = weightsOf({{0, 0.375f}});
    const Image scaled = renderScene(s, cam, o);
    size_t lit = 0;
    for (size_t i = 0; i < one.pixels.size(); ++i) {
        REQUIRE(scaled.pixels[i] == one.pixels[i] * 0.375f);
        lit += one.pixels[i] > 0 ? 1 : 0;
    }
    REQUIRE(lit > 1000);
    s.world.surfaces[0].styles = {255, 255, 255, 255};
    o.styleWeights.reset();
    const Image none = renderScene(s, cam, o);
    FrameStats st;
    renderScene(s, cam, o, &st);
    REQUIRE(st.pixelsCovered > 1000);
    for (float f : none.pixels) REQUIRE(f == 0.0f);
}

TEST_CASE("render: quakeless-ii_test1 style 5 changes exactly the pixels of its style-5 faces", "[render][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const World world = decodeMap(openMapPath(*sharedMaps() + "/q2/quakeless-ii_test1.bsp"));
    const Geometry geometry = tessellate(world);
    // The frame's own mask of style-5 faces: vertex colour 1 on their vertices, 0 elsewhere, vertex mode.
    Geometry mask = geometry;
    for (size_t s = 0; s < world.surfaces.size(); ++s) {
        const auto& st = world.surfaces[s].styles;
        const bool styled = std::find(st.begin(), st.end(), uint8_t(5)) != st.end();
        const DrawSurface& ds = mask.surfaces[s];
        for (uint32_t k = 0; k < ds.numVertices; ++k) mask.vertices[ds.firstVertex + k].color = styled ? Vec4{1, 1, 1, 1} : Vec4{0, 0, 0, 1};
    }
    RenderOptions o = linearOptions(RenderMode::Lightmap);
    o.skyColor = {0, 0, 0};
    RenderOptions maskOptions = linearOptions(RenderMode::Vertex);
    maskOptions.skyColor = {0, 0, 0};
    // A camera 48 units in front of a style-5 face, looking at it: the first one whose frame shows it.
    int tried = 0, checked = 0;
    for (size_t s = 0; s < world.surfaces.size() && checked == 0 && tried < 40; ++s) {
        const Surface& surf = world.surfaces[s];
        if (surf.styles[1] != 5 || surf.numVertices < 3 || geometry.surfaces[s].shading != SurfaceShading::Lightmap) continue;
        const std::optional<Camera> facing = cameraFacingSurface(world, s, 48.0f, 320, 200);
        if (!facing) continue;
        ++tried;
        const Camera& cam = *facing;
        o.styleSpec = "0=1,5=0";
        const Image off = renderFrame(world, geometry, cam, o);
        o.styleSpec = "0=1,5=1";
        const Image on = renderFrame(world, geometry, cam, o);
        const Image m = renderFrame(world, mask, cam, maskOptions);
        size_t differ = 0;
        for (int y = 0; y < cam.height; ++y)
            for (int x = 0; x < cam.width; ++x) {
                const bool styled = pixelAt(m, x, y).x > 0.5f;
                const Vec3 a = pixelAt(off, x, y), b = pixelAt(on, x, y);
                if (a == b) continue;
                ++differ;
                INFO("surface " << s << " pixel " << x << "," << y);
                REQUIRE(styled);
                REQUIRE(b.x >= a.x);  // style 5 only adds light
                REQUIRE(b.y >= a.y);
                REQUIRE(b.z >= a.z);
            }
        // (Style 5's light reaches only part of its faces, so not every masked pixel changes.)
        if (differ > 1000) ++checked;
    }
    REQUIRE(checked == 1);
}
