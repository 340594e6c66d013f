// renderFrame on small scenes with known answers: coverage, perspective-correct interpolation, depth order,
// sky, culling, clipping, modes, looks, billboards, supersampling, hostile geometry, thread counts. Light
// styles: frame_styles_test.cpp; the vector and portable paths: frame_paths_test.cpp.
#include <catch2/catch.hpp>
#include <tbb/global_control.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "luxel/util/cpu.hpp"
#include "luxel/bsp/decode.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/render/raster.hpp"
#include "luxel/render/render.hpp"
#include "luxel/render/render_surfaces.hpp"
#include "luxel/util/error.hpp"
#include "support/render_fixtures.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

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

TEST_CASE("render: Half-Life's clamp takes each channel on its own", "[render]") {
    // Lightmap (1.6, 0.5, 1.2) on a wall whose material albedo is (0.5, 1, 0.25): GoldSrc saturates each lightmap
    // channel at 1 (texel 255), then modulates: (1, 0.5, 1) x albedo = (0.5, 0.5, 0.25). The hue-keeping clamp
    // would scale all three by 1/1.6 instead: (1, 0.3125, 0.75) x albedo = (0.5, 0.3125, 0.1875).
    RenderScene s;
    int32_t page = addLightmapPage(s, 2, 2, [](int, int) { return Vec3{1.6f, 0.5f, 1.2f}; });
    s.world.materials.push_back({"m", 0, 0, 0, {0.5f, 1.0f, 0.25f}});
    std::vector<FixtureVertex> v;
    for (Vec3 p : wall(100, 500)) v.push_back({p, {1, 1, 1, 1}, {0.5f, 0.5f}});
    addPolygon(s, v, {-1, 0, 0}, SurfaceShading::Lightmap, page, true, 0);
    const Camera cam = makeCamera({0, 0, 0}, {0, 0, 0}, 16, 16);
    RenderOptions o;
    o.mode = RenderMode::Lit;
    o.look = Look::Engine;
    s.world.look.hueClampAt = 1;
    s.world.look.clampPerChannel = true;
    for (bool vec : {true, false}) {
        allowAvx2(vec);
        const Vec3 c = pixelAt(renderScene(s, cam, o), 8, 8);
        CHECK(c.x == Approx(0.5f));
        CHECK(c.y == Approx(0.5f));
        CHECK(c.z == Approx(0.25f));
    }
    allowAvx2(true);
    s.world.look.clampPerChannel = false;
    const Vec3 hue = pixelAt(renderScene(s, cam, o), 8, 8);
    CHECK(hue.x == Approx(0.5f));
    CHECK(hue.y == Approx(0.3125f));
    CHECK(hue.z == Approx(0.1875f));
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

TEST_CASE("render: a shading floor fills exactly the covered pixels with one grey (flat) or shades nothing (skip)",
          "[render]") {
    // Two overlapping quads in different colours, so a full frame has more than one value where the floor has one.
    RenderScene s;
    addColoredPolygon(s, {{-64, -64, 0}, {64, -64, 0}, {64, 64, 0}, {-64, 64, 0}}, {0, 0, 1}, {1, 0, 0});
    addColoredPolygon(s, {{-16, -16, 8}, {16, -16, 8}, {16, 16, 8}, {-16, 16, 8}}, {0, 0, 1}, {0, 1, 0});
    const Camera cam = makeCamera({0, 0, 200}, {90, 0, 0}, 96, 64);
    RenderOptions options = linearOptions();
    FrameStats full, flat, skip;
    const Image normal = renderScene(s, cam, options, &full);
    options.shadingFloor = ShadingFloor::Flat;
    const Image floorImage = renderScene(s, cam, options, &flat);
    options.shadingFloor = ShadingFloor::Skip;
    renderScene(s, cam, options, &skip);  // its pixels are left as the allocation had them: not a picture
    REQUIRE(full.pixelsCovered > 0);
    REQUIRE(full.pixelsCovered < 96u * 64u);
    REQUIRE(flat.pixelsCovered == full.pixelsCovered);
    REQUIRE(skip.pixelsCovered == 0);
    size_t green = 0;
    for (int y = 0; y < 64; ++y)
        for (int x = 0; x < 96; ++x) {
            INFO("pixel " << x << "," << y);
            const Vec3 a = pixelAt(normal, x, y), f = pixelAt(floorImage, x, y);
            const bool covered = a.x > 0 || a.y > 0;
            green += a.y > 0.5f;
            REQUIRE(f.x == (covered ? 0.5f : 0.0f));
            REQUIRE(f.y == f.x);
            REQUIRE(f.z == f.x);
        }
    REQUIRE(green > 0);
}
