#include <catch2/catch.hpp>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <random>

#include "luxel/bsp/decode.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/light/lightmap_sample.hpp"
#include "luxel/light/styles.hpp"
#include "luxel/render/render.hpp"
#include "luxel/render/raster.hpp"
#include "luxel/render/render_surfaces.hpp"
#include "luxel/util/error.hpp"
#include "support/q2_writer.hpp"
#include "support/render_fixtures.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

RenderOptions linearOptions(RenderMode mode = RenderMode::Vertex) {
    RenderOptions o;
    o.mode = mode;
    o.look = Look::Linear;
    o.background = {0, 0, 0};
    return o;
}

// A wall facing the camera at the origin looking +X: square of half-size h at distance d.
std::vector<Vec3> wall(float d, float h) { return {{d, -h, -h}, {d, h, -h}, {d, h, h}, {d, -h, h}}; }

}  // namespace

// Renders the scene in TBB arenas of 1, 2 and 8 threads and requires bit-identical images. The caller lifts
// TBB's default cap (the core count) with a global_control so the 8-thread arena really gets 8 threads.
static void requireSameBytesAtThreadCounts(const RenderScene& s, const Camera& cam, const RenderOptions& o) {
    Image ref;
    for (int threads : {1, 2, 8}) {
        tbb::task_arena arena(threads);
        Image img;
        arena.execute([&] { img = renderScene(s, cam, o); });
        if (threads == 1) {
            ref = img;
            continue;
        }
        REQUIRE(img.pixels.size() == ref.pixels.size());
        REQUIRE(std::memcmp(img.pixels.data(), ref.pixels.data(), img.pixels.size() * sizeof(float)) == 0);
    }
}

TEST_CASE("render: an endless floor under the camera covers exactly the rows below the horizon", "[render]") {
    RenderScene s;
    const float R = 1e5f;
    addColoredPolygon(s, {{-R, -R, 0}, {R, -R, 0}, {R, R, 0}, {-R, R, 0}}, {0, 0, 1}, {1, 1, 1});
    Camera cam = makeCamera({0, 0, 64}, {0, 30, 0}, 320, 240);
    FrameStats st;
    Image img = renderScene(s, cam, linearOptions(), &st);
    // Pitch 0: the horizon is the image's middle line; pixel centres below it see the floor. The farthest
    // hit (row 120) is 64 / (0.75/240) = 20480 units away, inside the floor.
    for (int y = 0; y < 240; ++y)
        for (int x = 0; x < 320; ++x) {
            INFO("pixel " << x << "," << y);
            REQUIRE((pixelAt(img, x, y).x > 0.5f) == (y >= 120));
        }
    REQUIRE(st.pixelsCovered == 320u * 120u);
    REQUIRE(st.trianglesIn == 2);
    REQUIRE(st.trianglesDrawn == 2);
}

TEST_CASE("render: lightmap on a floor is interpolated perspective-correctly", "[render]") {
    RenderScene s;
    // 256x1 page with texel i = (i + 0.5)/256: the bilinear lookup returns u itself on [0.5/256, 255.5/256].
    int32_t page = addLightmapPage(s, 256, 1, [](int x, int) {
        float v = (float(x) + 0.5f) / 256.0f;
        return Vec3{v, v, v};
    });
    const float x0 = 0, x1 = 2048, y0 = -1024, y1 = 1024;
    auto fv = [&](float x, float y) { return FixtureVertex{{x, y, 0}, {1, 1, 1, 1}, {(x - x0) / (x1 - x0), 0.5f}}; };
    addPolygon(s, {fv(x0, y0), fv(x1, y0), fv(x1, y1), fv(x0, y1)}, {0, 0, 1}, SurfaceShading::Lightmap, page);
    Camera cam = makeCamera({-32, 10, 48}, {25, 10, 0}, 200, 150, 100);
    Image img = renderScene(s, cam, linearOptions(RenderMode::Lightmap));
    int checked = 0;
    double worst = 0;
    int wx = -1, wy = -1;
    // u seen through pixel (x, y), or NaN when the ray misses the floor's interior.
    auto analyticU = [&](double x, double y) {
        Vec3 d = pixelRay(cam, x, y);
        if (d.z >= 0) return std::nan("");
        double t = -double(cam.position.z) / d.z;
        double hx = cam.position.x + t * d.x, hy = cam.position.y + t * d.y;
        if (hx < x0 + 8 || hx > x1 - 8 || hy < y0 + 8 || hy > y1 - 8) return std::nan("");
        return (hx - x0) / (x1 - x0);
    };
    for (int y = 0; y < cam.height; ++y)
        for (int x = 0; x < cam.width; ++x) {
            double u = analyticU(x, y);
            if (!(u >= 0.5 / 256 && u <= 255.5 / 256)) continue;
            // Vertices snap to 1/16 pixel, so allow a tenth of the value's change over one pixel.
            double ux = analyticU(x + 1, y), uy = analyticU(x, y + 1);
            if (std::isnan(ux) || std::isnan(uy)) continue;
            double tol = 1e-3 + 0.1 * std::max(std::fabs(ux - u), std::fabs(uy - u));
            double got = pixelAt(img, x, y).x;
            if (std::fabs(got - u) / tol > worst) worst = std::fabs(got - u) / tol, wx = x, wy = y;
            ++checked;
        }
    INFO("worst error " << worst << " at " << wx << "," << wy << " over " << checked << " pixels");
    REQUIRE(checked > 5000);
    REQUIRE(worst < 1.0);  // error / tolerance
}

TEST_CASE("render: the nearer surface wins regardless of submission order", "[render]") {
    for (int order = 0; order < 2; ++order) {
        RenderScene s;
        if (order == 0) {
            addColoredPolygon(s, wall(100, 20), {-1, 0, 0}, {1, 0, 0});
            addColoredPolygon(s, wall(200, 80), {-1, 0, 0}, {0, 1, 0});
        } else {
            addColoredPolygon(s, wall(200, 80), {-1, 0, 0}, {0, 1, 0});
            addColoredPolygon(s, wall(100, 20), {-1, 0, 0}, {1, 0, 0});
        }
        Image img = renderScene(s, makeCamera({0, 0, 0}, {0, 0, 0}, 64, 64), linearOptions());
        REQUIRE(pixelAt(img, 32, 32).x == Approx(1.0f));
        REQUIRE(pixelAt(img, 32, 32).y == 0.0f);
        REQUIRE(pixelAt(img, 32, 22).y == Approx(1.0f));  // above the small red wall, inside the green one
        REQUIRE(pixelAt(img, 32, 22).x == 0.0f);
    }
}

TEST_CASE("render: sky is behind everything: a surface beyond a sky surface stays in view", "[render]") {
    // Both engines draw sky at the far plane (Quake 3 glDepthRange(1, 1); Source draws no sky faces, the skybox
    // shows where nothing else is), so a prop or model reaching past the sky brushes is seen, not cut off.
    for (int order = 0; order < 2; ++order) {
        RenderScene s;
        const int near = order == 0 ? 0 : 1;
        if (order == 0) {
            addColoredPolygon(s, wall(100, 200), {-1, 0, 0}, {0, 1, 0});  // sky, near, over the whole view
            addColoredPolygon(s, wall(200, 20), {-1, 0, 0}, {1, 0, 0});  // red, behind it
        } else {
            addColoredPolygon(s, wall(200, 20), {-1, 0, 0}, {1, 0, 0});
            addColoredPolygon(s, wall(100, 200), {-1, 0, 0}, {0, 1, 0});
        }
        s.geometry.surfaces[size_t(near == 0 ? 0 : 1)].shading = SurfaceShading::Sky;
        RenderOptions o = linearOptions();
        o.skyColor = {0, 0, 1};
        Image img = renderScene(s, makeCamera({0, 0, 0}, {0, 0, 0}, 64, 64), o);
        CHECK(pixelAt(img, 32, 32) == Vec3{1, 0, 0});  // the red wall through the nearer sky
        CHECK(pixelAt(img, 32, 12) == Vec3{0, 0, 1});  // above it (the red wall spans rows 28..35): the sky colour
        CHECK(pixelAt(img, 0, 0) == Vec3{0, 0, 1});
        FrameStats stats;  // every pixel is the sky's or the red wall's
        renderScene(s, makeCamera({0, 0, 0}, {0, 0, 0}, 64, 64), o, &stats);
        CHECK(stats.pixelsCovered == 64u * 64u);
    }
}

TEST_CASE("render: back faces are culled unless the surface is two-sided", "[render]") {
    RenderScene s;
    addColoredPolygon(s, wall(100, 50), {1, 0, 0}, {1, 1, 1});  // faces away from the camera
    Camera cam = makeCamera({0, 0, 0}, {0, 0, 0}, 32, 32);
    FrameStats st;
    Image img = renderScene(s, cam, linearOptions(), &st);
    REQUIRE(st.pixelsCovered == 0);
    REQUIRE(st.trianglesIn == 2);
    REQUIRE(st.trianglesDrawn == 0);
    RenderScene s2;
    addColoredPolygon(s2, wall(100, 200), {1, 0, 0}, {1, 1, 1}, true);
    img = renderScene(s2, cam, linearOptions(), &st);
    REQUIRE(st.pixelsCovered == 32u * 32u);
    // And the front side of a one-sided wall is drawn.
    RenderScene s3;
    addColoredPolygon(s3, wall(100, 200), {-1, 0, 0}, {1, 1, 1});
    renderScene(s3, cam, linearOptions(), &st);
    REQUIRE(st.pixelsCovered == 32u * 32u);
}

TEST_CASE("render: a surface crossing the camera plane renders finite values within its colours", "[render]") {
    RenderScene s;
    std::vector<FixtureVertex> v = {{{-50, -40, -10}, {1, 0, 0, 1}, {}}, {{300, 0, -10}, {0, 1, 0, 1}, {}},
                                    {{-50, 40, -10}, {0, 0, 1, 1}, {}}};
    addPolygon(s, v, {0, 0, 1});
    FrameStats st;
    Image img = renderScene(s, makeCamera({0, 0, 0}, {10, 0, 0}, 160, 120), linearOptions(), &st);
    REQUIRE(st.pixelsCovered > 1000);
    for (int y = 0; y < 120; ++y)
        for (int x = 0; x < 160; ++x) {
            Vec3 c = pixelAt(img, x, y);
            REQUIRE(isFinite(c));
            REQUIRE(c.x >= -1e-4f);
            REQUIRE(c.y >= -1e-4f);
            REQUIRE(c.z >= -1e-4f);
            REQUIRE(c.x + c.y + c.z <= 1.0f + 1e-3f);  // barycentric mix of pure red, green, blue
        }
}

TEST_CASE("render: same bytes for 1, 2 and 8 threads", "[render]") {
    RenderScene s;
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> pos(-300, 300), col(0, 1);
    for (int i = 0; i < 400; ++i) {
        Vec3 c{pos(rng) + 400, pos(rng), pos(rng)};
        std::vector<Vec3> tri = {c, c + Vec3{pos(rng) * 0.3f, pos(rng) * 0.3f, pos(rng) * 0.3f},
                                 c + Vec3{pos(rng) * 0.3f, pos(rng) * 0.3f, pos(rng) * 0.3f}};
        addColoredPolygon(s, tri, {-1, 0, 0}, {col(rng), col(rng), col(rng)}, i % 2 == 0);
        if (i % 10 == 0) addColoredPolygon(s, tri, {-1, 0, 0}, {1, 0, 1}, true);  // exact depth ties
    }
    Camera cam = makeCamera({0, 0, 0}, {0, 0, 0}, 301, 203);
    // Lift TBB's default cap (the core count) so the 8-thread arena really gets 8 threads.
    tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 8);
    for (int spp : {1, 4}) {
        RenderOptions o = linearOptions(RenderMode::Vertex);
        o.spp = spp;
        requireSameBytesAtThreadCounts(s, cam, o);
    }
}

TEST_CASE("render: modes", "[render]") {
    RenderScene s;
    int32_t page = addLightmapPage(s, 4, 4, [](int, int) { return Vec3{0.25f, 0.5f, 0.75f}; });
    std::vector<FixtureVertex> v;
    for (Vec3 p : wall(100, 50)) v.push_back({p, {0.1f, 0.2f, 0.3f, 1}, {0.5f, 0.5f}});
    s.world.materials.push_back({"m", 0, 0, 0, {0.5f, 1.0f, 2.0f}});
    addPolygon(s, v, {-1, 0, 0}, SurfaceShading::Lightmap, page, false, 0);
    Camera cam = makeCamera({0, 0, 0}, {0, 0, 0}, 64, 64, 120);  // wall covers the middle only
    Vec3 centre;

    centre = pixelAt(renderScene(s, cam, linearOptions(RenderMode::Lightmap)), 32, 32);
    REQUIRE(centre == Vec3{0.25f, 0.5f, 0.75f});
    centre = pixelAt(renderScene(s, cam, linearOptions(RenderMode::Vertex)), 32, 32);
    REQUIRE(centre.x == Approx(0.1f));
    REQUIRE(centre.z == Approx(0.3f));
    centre = pixelAt(renderScene(s, cam, linearOptions(RenderMode::Lit)), 32, 32);
    REQUIRE(centre.x == Approx(0.125f));
    REQUIRE(centre.y == Approx(0.5f));
    REQUIRE(centre.z == Approx(1.5f));
    centre = pixelAt(renderScene(s, cam, linearOptions(RenderMode::Normals)), 32, 32);
    REQUIRE(centre.x == Approx(0.0f).margin(1e-6));  // normal (-1,0,0)
    REQUIRE(centre.y == Approx(0.5f));
    REQUIRE(centre.z == Approx(0.5f));
    // No BSP tree in this world: every pixel is in cluster -1, drawn grey.
    centre = pixelAt(renderScene(s, cam, linearOptions(RenderMode::Clusters)), 32, 32);
    REQUIRE(centre == Vec3{0.5f, 0.5f, 0.5f});

    RenderOptions bg = linearOptions(RenderMode::Lightmap);
    bg.background = {0.2f, 0.3f, 0.4f};
    REQUIRE(pixelAt(renderScene(s, cam, bg), 0, 0) == Vec3{0.2f, 0.3f, 0.4f});

    // A lightmapped surface whose page is missing falls back to its vertex colour.
    RenderScene s2 = s;
    s2.geometry.surfaces[0].lightmapPage = 5;
    centre = pixelAt(renderScene(s2, cam, linearOptions(RenderMode::Lightmap)), 32, 32);
    REQUIRE(centre.y == Approx(0.2f));

    RenderScene sky = s;
    sky.geometry.surfaces[0].shading = SurfaceShading::Sky;
    RenderOptions so = linearOptions(RenderMode::Lightmap);
    so.skyColor = {0.9f, 0.8f, 0.7f};
    REQUIRE(pixelAt(renderScene(sky, cam, so), 32, 32) == Vec3{0.9f, 0.8f, 0.7f});
}

TEST_CASE("render: depth mode ramps from 1 at the nearest pixel to 0.1 at the farthest", "[render]") {
    RenderScene s;
    addColoredPolygon(s, wall(100, 10), {-1, 0, 0}, {1, 1, 1});
    addColoredPolygon(s, wall(400, 1000), {-1, 0, 0}, {1, 1, 1});
    Image img = renderScene(s, makeCamera({0, 0, 0}, {0, 0, 0}, 64, 64), linearOptions(RenderMode::Depth));
    // Both walls are perpendicular to forward: depth is exactly 100 and 400.
    REQUIRE(pixelAt(img, 32, 32).x == Approx(1.0f));
    REQUIRE(pixelAt(img, 2, 2).x == Approx(0.1f));
}

TEST_CASE("render: engine look clamps keeping hue, then applies gamma; linear keeps raw values", "[render]") {
    RenderScene s;
    int32_t page = addLightmapPage(s, 2, 2, [](int, int) { return Vec3{3.0f, 1.5f, 0.75f}; });
    std::vector<FixtureVertex> v;
    for (Vec3 p : wall(100, 500)) v.push_back({p, {1, 1, 1, 1}, {0.5f, 0.5f}});
    addPolygon(s, v, {-1, 0, 0}, SurfaceShading::Lightmap, page);
    Camera cam = makeCamera({0, 0, 0}, {0, 0, 0}, 16, 16);
    RenderOptions o;
    o.mode = RenderMode::Lightmap;
    s.world.look.hueClampAt = 2;
    s.world.look.gamma = 1;
    o.look = Look::Engine;
    Vec3 c = pixelAt(renderScene(s, cam, o), 8, 8);
    // (3, 1.5, 0.75) * 2/3 = (2, 1, 0.5), then clamped to [0,1].
    REQUIRE(c.x == Approx(1.0f));
    REQUIRE(c.y == Approx(1.0f));
    REQUIRE(c.z == Approx(0.5f));
    s.world.look.gamma = 2;
    c = pixelAt(renderScene(s, cam, o), 8, 8);
    REQUIRE(c.z == Approx(std::sqrt(0.5f)));
    o.look = Look::Linear;
    c = pixelAt(renderScene(s, cam, o), 8, 8);
    REQUIRE(c == Vec3{3.0f, 1.5f, 0.75f});
}

TEST_CASE("render: billboards face the camera in their colour unless flares are off", "[render]") {
    RenderScene s;
    addBillboard(s, {100, 0, 0}, {0.3f, 0.6f, 0.9f}, 10);
    Camera cam = makeCamera({0, 0, 0}, {0, 0, 0}, 64, 64);
    RenderOptions o = linearOptions(RenderMode::Lightmap);
    FrameStats st;
    Image img = renderScene(s, cam, o, &st);
    REQUIRE(pixelAt(img, 32, 32) == Vec3{0.3f, 0.6f, 0.9f});
    // Half-size 10 at distance 100 with fov 90 on 64 px: the quad spans 10/100*32 = 3.2 px each side
    // of the centre, so pixel centres 29.5..34.5 are inside: 6x6 pixels.
    REQUIRE(st.pixelsCovered == 36);
    o.drawFlares = false;
    img = renderScene(s, cam, o, &st);
    REQUIRE(st.pixelsCovered == 0);
    REQUIRE(pixelAt(img, 32, 32) == Vec3{0, 0, 0});
}

TEST_CASE("render: spp samples inside the pixel and averages them", "[render]") {
    REQUIRE(sampleOffset(0).x == 0.0f);
    REQUIRE(sampleOffset(0).y == 0.0f);
    for (int i = 0; i < 64; ++i) {
        REQUIRE(sampleOffset(i).x >= -0.5f);
        REQUIRE(sampleOffset(i).x < 0.5f);
        REQUIRE(sampleOffset(i).y >= -0.5f);
        REQUIRE(sampleOffset(i).y < 0.5f);
    }
    RenderScene s;
    // A wall edge at ndc x = 0.2 + a bit: at 100 units, right edge at y = -25.78125 (-> pixel x 40.25 of 64).
    const float e = 100.0f * (40.25f / 32.0f - 1.0f);
    addColoredPolygon(s, {{100, 100, -100}, {100, -e, -100}, {100, -e, 100}, {100, 100, 100}}, {-1, 0, 0}, {1, 1, 1});
    Camera cam = makeCamera({0, 0, 0}, {0, 0, 0}, 64, 64);
    RenderOptions o = linearOptions();
    o.spp = 1;
    Image one = renderScene(s, cam, o);
    REQUIRE(pixelAt(one, 39, 10).x == 1.0f);
    REQUIRE(pixelAt(one, 40, 10).x == 0.0f);  // centre 40.5 is right of the edge
    o.spp = 16;
    Image many = renderScene(s, cam, o);
    REQUIRE(pixelAt(many, 39, 10).x == 1.0f);
    REQUIRE(pixelAt(many, 41, 10).x == 0.0f);
    // Pixel 40 is a quarter covered.
    REQUIRE(pixelAt(many, 40, 10).x == Approx(0.25f).margin(0.1f));
}

TEST_CASE("render: mode names round-trip and bad input is a usage error", "[render]") {
    for (RenderMode m : {RenderMode::Lightmap, RenderMode::Vertex, RenderMode::Normals, RenderMode::Depth,
                         RenderMode::Clusters, RenderMode::Lit})
        REQUIRE(parseRenderMode(renderModeName(m)) == m);
    REQUIRE(std::string(renderModeName(RenderMode::Lightmap)) == "lightmap");
    REQUIRE_THROWS_AS(parseRenderMode("shiny"), UsageError);
    RenderScene s;
    RenderOptions o;
    REQUIRE_THROWS_AS(renderScene(s, makeCamera({}, {}, 0, 10), o), UsageError);
    REQUIRE_THROWS_AS(renderScene(s, makeCamera({}, {}, 100000, 10), o), UsageError);
    o.spp = 0;
    REQUIRE_THROWS_AS(renderScene(s, makeCamera({}, {}, 10, 10), o), UsageError);
}

TEST_CASE("render: hostile geometry (bad indices, NaN vertices) is skipped", "[render]") {
    RenderScene s;
    addColoredPolygon(s, wall(100, 50), {-1, 0, 0}, {1, 1, 1});
    s.geometry.indices.push_back(99999);
    s.geometry.indices.push_back(0);
    s.geometry.indices.push_back(1);
    s.geometry.surfaces[0].numIndices += 3;
    DrawSurface bad;
    bad.firstIndex = 1000000;
    bad.numIndices = 3;
    bad.shading = SurfaceShading::Vertex;
    s.geometry.surfaces.push_back(bad);
    s.geometry.vertices[1].position.x = std::nanf("");  // used by the first triangle only
    FrameStats st;
    Image img = renderScene(s, makeCamera({0, 0, 0}, {0, 0, 0}, 32, 32), linearOptions(), &st);
    for (float f : img.pixels) REQUIRE(std::isfinite(f));
    REQUIRE(st.pixelsCovered > 0);  // the triangle without the NaN vertex still draws
}

TEST_CASE("render: real Quake 3 geometry is wound clockwise seen from the front, as back-face culling assumes",
          "[render][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    for (const char* name : {"q3/oa088_aggressor.bsp", "q3/oa088_am_thornish.bsp"}) {
        World world = decodeMap(openMapPath(*sharedMaps() + "/" + name));
        Geometry g = tessellate(world);
        size_t along = 0, against = 0;
        for (size_t i = 0; i + 2 < g.indices.size(); i += 3) {
            const DrawVertex &a = g.vertices[g.indices[i]], &b = g.vertices[g.indices[i + 1]], &c = g.vertices[g.indices[i + 2]];
            float d = dot(cross(b.position - a.position, c.position - a.position), a.normal + b.normal + c.normal);
            (d < 0 ? against : along) += d != 0 ? 1 : 0;
        }
        INFO(name << ": right-handed normal along the vertex normal " << along << ", against " << against);
        REQUIRE(against > 0);
        REQUIRE(double(along) < 0.02 * double(against));
    }
}

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
        Vec3 centre{};
        for (uint32_t k = 0; k < surf.numVertices; ++k) centre += world.vertices[surf.firstVertex + k].position;
        centre = centre * (1.0f / float(surf.numVertices));
        const Vec3 n = normalize(surf.normal);
        const Vec3 eye = centre + n * 48.0f;
        if (findCluster(world, eye) < 0) continue;
        ++tried;
        const Vec3 d = n * -1.0f;
        const float pitch = float(std::asin(std::clamp(-d.z, -1.0f, 1.0f)) * 180.0 / std::numbers::pi);
        const float yaw = float(std::atan2(d.y, d.x) * 180.0 / std::numbers::pi);
        Camera cam = makeCamera(eye, {pitch, yaw, 0}, 320, 200);
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

TEST_CASE("render: AVX2 and portable shading give the same bytes in every mode, look and style mix", "[render]") {
    // Random walls with lightmap pages of several shapes (1 texel wide included), uv beyond the page (edge
    // clamping, the last column), light above the hue clamp, a few NaN and infinite texels, style slots 1..3,
    // vertex-lit surfaces, a sky surface and a flare.
    RenderScene s;
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> texel(0.0f, 3.0f), unit(0.0f, 1.0f), pos(-300, 300);
    const std::pair<int, int> shapes[] = {{16, 16}, {1, 9}, {7, 1}, {128, 128}, {2, 2}};
    for (auto [w, h] : shapes) {
        auto fill = [&](int x, int y) {
            if ((x * 7 + y * 3) % 97 == 5) return Vec3{std::nanf(""), 1.0f, std::numeric_limits<float>::infinity()};
            return Vec3{texel(rng), texel(rng), texel(rng)};
        };
        addLightmapPage(s, w, h, fill);
        for (auto& slot : s.world.extraLightmapSlots) {
            LightmapPage p;
            p.width = w;
            p.height = h;
            for (int i = 0; i < w * h * 3; ++i) p.rgb.push_back(texel(rng));
            slot.push_back(p);
        }
    }
    s.world.materials.push_back({"m", 0, 0, 0, {0.5f, 0.8f, 1.0f}});
    for (int i = 0; i < 150; ++i) {
        const Vec3 c{pos(rng) * 0.5f + 400, pos(rng), pos(rng) * 0.6f};
        std::vector<FixtureVertex> v;
        for (int k = 0; k < 3; ++k)
            v.push_back({c + Vec3{pos(rng) * 0.1f, pos(rng) * 0.4f, pos(rng) * 0.4f},
                         {unit(rng) * 2, unit(rng) * 2, unit(rng) * 2, 1},
                         {unit(rng) * 1.6f - 0.3f, unit(rng) * 1.6f - 0.3f}});
        const bool lit = i % 4 != 3;
        const uint32_t surf = addPolygon(s, v, {-1, 0, 0}, lit ? SurfaceShading::Lightmap : SurfaceShading::Vertex,
                                         lit ? int32_t(i % std::size(shapes)) : -1, true, i % 3 == 0 ? 0 : -1);
        if (i % 5 == 1) s.world.surfaces[surf].styles = {0, 3, 255, 255};
        if (i % 5 == 2) s.world.surfaces[surf].styles = {7, 3, 9, 255};
        if (i % 7 == 0) s.world.surfaces[surf].styles = {0, 3, 7, 9};
    }
    const uint32_t sky = addColoredPolygon(s, {{900, -2000, 400}, {900, 2000, 400}, {900, 2000, 900}, {900, -2000, 900}},
                                           {-1, 0, 0}, {1, 1, 1}, true);
    s.geometry.surfaces[sky].shading = SurfaceShading::Sky;
    addBillboard(s, {300, 20, 10}, {0.9f, 3.0f, 0.2f}, 40);
    const Camera cam = makeCamera({0, 0, 0}, {0, 0, 0}, 203, 117, 100);
    StyleWeights weights{};
    weights[0] = 1.0f, weights[3] = 0.5f, weights[7] = 1.25f, weights[9] = 0.0f;

    struct LookCase {
        Look look;
        float hueClampAt, gamma;
    };
    const LookCase looks[] = {{Look::Engine, 2, 1}, {Look::Engine, 0, 2.2f}, {Look::Engine, 2, 1.2f}, {Look::Linear, 0, 1}};
    const bool hadAvx2 = raster::useAvx2();
    INFO("AVX2 available: " << hadAvx2);
    size_t compared = 0;
    for (RenderMode mode : {RenderMode::Lightmap, RenderMode::Lit, RenderMode::Vertex})
        for (const LookCase& lc : looks)
            for (int spp : {1, 2}) {
                s.world.look.hueClampAt = lc.hueClampAt;
                s.world.look.gamma = lc.gamma;
                RenderOptions o;
                o.mode = mode;
                o.look = lc.look;
                o.spp = spp;
                o.styleWeights = weights;
                raster::allowAvx2(false);
                const Image portable = renderScene(s, cam, o);
                raster::allowAvx2(true);
                FrameStats st;
                const Image fast = renderScene(s, cam, o, &st);
                INFO("mode " << renderModeName(mode) << " look " << int(lc.look) << " gamma " << lc.gamma << " spp " << spp);
                REQUIRE(st.pixelsCovered > size_t(cam.width) * cam.height / 2);
                size_t finite = 0;
                for (float f : fast.pixels) finite += std::isfinite(f);
                REQUIRE(finite > fast.pixels.size() / 2);
                for (size_t i = 0; i < fast.pixels.size(); ++i) {
                    const float a = portable.pixels[i], b = fast.pixels[i];
                    if (std::isnan(a) && std::isnan(b)) continue;  // NaN light in the linear look
                    if (std::memcmp(&a, &b, sizeof(float)) != 0) {
                        INFO("float " << i << " (pixel " << (i / 3) % size_t(cam.width) << "," << (i / 3) / size_t(cam.width)
                                      << "): " << a << " vs " << b);
                        REQUIRE(false);
                    }
                }
                ++compared;
            }
    REQUIRE(compared == 24);
}

TEST_CASE("render: lightmap frames are the same bytes for 1, 2 and 8 threads", "[render]") {
    RenderScene s;
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> texel(0.0f, 3.0f), unit(0.0f, 1.0f), pos(-300, 300);
    for (int p = 0; p < 3; ++p) addLightmapPage(s, 32, 32, [&](int, int) { return Vec3{texel(rng), texel(rng), texel(rng)}; });
    for (int i = 0; i < 300; ++i) {
        const Vec3 c{pos(rng) + 400, pos(rng), pos(rng)};
        std::vector<FixtureVertex> v;
        for (int k = 0; k < 3; ++k)
            v.push_back({c + Vec3{pos(rng) * 0.3f, pos(rng) * 0.3f, pos(rng) * 0.3f}, {1, 1, 1, 1}, {unit(rng), unit(rng)}});
        addPolygon(s, v, {-1, 0, 0}, SurfaceShading::Lightmap, i % 3, true);
    }
    s.world.look.hueClampAt = 2;
    const Camera cam = makeCamera({0, 0, 0}, {0, 0, 0}, 333, 190);
    tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 8);
    RenderOptions o;
    o.mode = RenderMode::Lightmap;
    requireSameBytesAtThreadCounts(s, cam, o);
}
