// Heatmaps of a lightmap change (diff/heatmap.hpp): the heat colours written into A's pages, the scale,
// the style shown, that the renderer's lightmap mode with the linear look draws the pages unchanged, and
// the files writeHeatmaps writes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <set>

#include "luxel/diff/heatmap.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/image/image.hpp"
#include "luxel/render/render.hpp"
#include "support/decode_helpers.hpp"
#include "support/q3_writer.hpp"
#include "support/render_fixtures.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

Vec3 grey3(float v) { return {v, v, v}; }

// One 8x4 page, every texel linear 0.4 (display 0.4 with the default look: no clamp, gamma 1). Three
// surfaces: 0 and 2 with style 0 only, 1 with styles 0 and 5 (slot 1). No geometry: heatWorld needs none.
World pageWorld() {
    World w;
    LightmapPage page;
    page.width = 8, page.height = 4;
    page.rgb.assign(8 * 4 * 3, 0.4f);
    w.lightmaps.push_back(page);
    LightmapPage slot1 = page;
    w.extraLightmapSlots[0].push_back(slot1);
    for (int s = 0; s < 3; ++s) {
        Surface surf;
        surf.lightmapPage = 0;
        if (s == 1) surf.styles = {0, 5, 255, 255};
        w.surfaces.push_back(surf);
    }
    return w;
}

LuxelMatch match(uint32_t surface, int x, int y, Vec3 a0, Vec3 b0, bool matched = true) {
    LuxelMatch m;
    m.surface = surface;
    m.page = 0, m.x = x, m.y = y;
    m.matched = matched;
    m.a[0] = a0;
    m.b[0] = matched ? b0 : Vec3{kNaN, kNaN, kNaN};
    return m;
}

Vec3 texel(const World& w, int page, int x, int y) {
    const LightmapPage& p = w.lightmaps[size_t(page)];
    const float* t = p.rgb.data() + (size_t(y) * size_t(p.width) + size_t(x)) * 3;
    return {t[0], t[1], t[2]};
}

void requireNear(Vec3 got, Vec3 want, float eps = 1e-5f) {
    INFO("got " << got.x << " " << got.y << " " << got.z << ", want " << want.x << " " << want.y << " " << want.z);
    REQUIRE(near(got, want, eps));
}

}  // namespace

TEST_CASE("heatmap: B brighter is warm, darker cool, equal grey, unmatched magenta; scale 0 is the largest change",
          "[heatmap]") {
    const World a = pageWorld();
    // Display luminance of grey v is v (the luminance weights sum to 1): changes +0.2, -0.1, 0.
    const std::vector<LuxelMatch> matches = {
        match(0, 0, 0, grey3(0.4f), grey3(0.6f)),  // brighter by 0.2: the largest change
        match(0, 1, 0, grey3(0.4f), grey3(0.3f)),  // darker by 0.1
        match(0, 2, 0, grey3(0.4f), grey3(0.4f)),  // the same
        match(2, 3, 0, grey3(0.4f), {}, false),    // geometry only in A
    };
    double scale = -1;
    const World h = heatWorld(a, matches, {}, &scale);
    REQUIRE(scale == Approx(0.2).epsilon(1e-6));

    // Backdrop grey: half of A's display luminance, 0.2. Brighter at full scale: the warm hue (1, 0.35, 0).
    const Vec3 brighter = texel(h, 0, 0, 0), darker = texel(h, 0, 1, 0), same = texel(h, 0, 2, 0);
    requireNear(brighter, {1.0f, 0.35f, 0.0f});
    REQUIRE(brighter.x > brighter.z);
    // Darker at half scale: halfway from grey 0.2 to the cool hue (0, 0.55, 1).
    requireNear(darker, {0.1f, 0.375f, 0.6f});
    REQUIRE(darker.z > darker.x);
    REQUIRE(same.x == same.y);
    REQUIRE(same.y == same.z);
    REQUIRE(same.x == Approx(0.2f).epsilon(1e-5));
    const Vec3 unmatched = texel(h, 0, 3, 0);
    REQUIRE(unmatched == Vec3{1, 0, 1});
    // A texel no match touches keeps A's greyscale.
    const Vec3 untouched = texel(h, 0, 5, 2);
    REQUIRE(untouched.x == untouched.y);
    REQUIRE(untouched.y == untouched.z);
    REQUIRE(untouched.x == Approx(0.2f).epsilon(1e-5));
    // A's own pages are unchanged.
    REQUIRE(texel(a, 0, 0, 0) == grey3(0.4f));

    SECTION("an explicit scale: the +0.2 change at scale 0.4 is halfway to warm") {
        HeatmapOptions o;
        o.scale = 0.4;
        const World h2 = heatWorld(a, matches, o, &scale);
        REQUIRE(scale == 0.4);
        requireNear(texel(h2, 0, 0, 0), {0.6f, 0.275f, 0.1f});
        requireNear(texel(h2, 0, 1, 0), {0.15f, 0.2875f, 0.4f});  // -0.1 at 0.4: a quarter of the way
    }
    SECTION("no change at all: the scale is 1/255 and every luxel grey") {
        const std::vector<LuxelMatch> none = {match(0, 0, 0, grey3(0.4f), grey3(0.4f))};
        const World h3 = heatWorld(a, none, {}, &scale);
        REQUIRE(scale == Approx(1.0 / 255.0));
        const Vec3 c = texel(h3, 0, 0, 0);
        REQUIRE((c.x == c.y && c.y == c.z));
    }
}

TEST_CASE("heatmap: the style shown is each surface's slot holding it; surfaces without it stay grey", "[heatmap]") {
    const World a = pageWorld();
    LuxelMatch only5 = match(1, 0, 1, grey3(0.4f), grey3(0.4f));  // surface 1: slot 0 same, slot 1 (style 5) brighter
    only5.a[1] = grey3(0.1f);
    only5.b[1] = grey3(0.3f);
    LuxelMatch only0 = match(0, 1, 1, grey3(0.4f), grey3(0.2f));  // surface 0 (no style 5): darker in style 0
    const std::vector<LuxelMatch> matches = {only5, only0};

    double scale = 0;
    HeatmapOptions o;
    o.style = 5;
    const World h5 = heatWorld(a, matches, o, &scale);
    REQUIRE(scale == Approx(0.2).epsilon(1e-6));  // only style 5's change counts
    requireNear(texel(h5, 0, 0, 1), {1.0f, 0.35f, 0.0f});
    const Vec3 g = texel(h5, 0, 1, 1);
    REQUIRE((g.x == g.y && g.y == g.z));

    o.style = 0;
    const World h0 = heatWorld(a, matches, o, &scale);
    REQUIRE(scale == Approx(0.2).epsilon(1e-6));
    const Vec3 g0 = texel(h0, 0, 0, 1);
    REQUIRE((g0.x == g0.y && g0.y == g0.z));  // surface 1's style 0 did not change
    requireNear(texel(h0, 0, 1, 1), {0.0f, 0.55f, 1.0f});

    // The heat world draws slot 0 alone with no look: other slots gone, styles reset, look neutral.
    for (const Surface& s : h5.surfaces) REQUIRE(s.styles == std::array<uint8_t, 4>{0, 255, 255, 255});
    REQUIRE(h5.extraLightmapSlots[0].empty());
    REQUIRE(h5.look.hueClampAt == 0.0f);
    REQUIRE(h5.look.gamma == 1.0f);
}

TEST_CASE("heatmap: the greyscale and the change are taken in A's display values (engine look)", "[heatmap]") {
    World a = pageWorld();
    a.look.gamma = 2.0f;  // display = sqrt(linear)
    // Linear 0.25 -> display 0.5 (grey backdrop 0.25); B linear 1.0 -> display 1.0: change +0.5.
    // Linear 0.4 elsewhere: backdrop 0.5 * sqrt(0.4).
    std::vector<LuxelMatch> matches = {match(0, 0, 0, grey3(0.25f), grey3(1.0f))};
    a.lightmaps[0].rgb[0] = a.lightmaps[0].rgb[1] = a.lightmaps[0].rgb[2] = 0.25f;
    double scale = 0;
    HeatmapOptions o;
    o.scale = 1.0;
    const World h = heatWorld(a, matches, o, &scale);
    // Halfway from grey 0.25 to warm: (0.625, 0.3, 0.125).
    requireNear(texel(h, 0, 0, 0), {0.625f, 0.3f, 0.125f});
    requireNear(texel(h, 0, 4, 0), grey3(0.5f * std::sqrt(0.4f)));
}

TEST_CASE("heatmap: lightmap mode with the linear look draws page values unchanged", "[heatmap]") {
    // A wall filling a 64x64 frame exactly (90 degrees, half-size = distance), its lightmap UVs spanning
    // the left half of an 8x4 page (texels 0..3 across, 0..3 down): 16 pixels a texel.
    auto sceneWith = [](const World& world) {
        RenderScene s;
        s.world = world;
        const float d = 32, hs = 32;
        std::vector<FixtureVertex> v = {{{d, hs, hs}, {1, 1, 1, 1}, {0.0f, 0.0f}},
                                        {{d, -hs, hs}, {1, 1, 1, 1}, {0.5f, 0.0f}},
                                        {{d, -hs, -hs}, {1, 1, 1, 1}, {0.5f, 1.0f}},
                                        {{d, hs, -hs}, {1, 1, 1, 1}, {0.0f, 1.0f}}};
        s.world.surfaces.clear();
        addPolygon(s, v, {-1, 0, 0}, SurfaceShading::Lightmap, 0);
        s.world.surfaces[0].styles = world.surfaces.empty() ? std::array<uint8_t, 4>{0, 255, 255, 255}
                                                            : world.surfaces[0].styles;
        return s;
    };
    const Camera cam = makeCamera({0, 0, 0}, {0, 0, 0}, 64, 64);
    RenderOptions o;
    o.mode = RenderMode::Lightmap;
    o.look = Look::Linear;
    o.drawFlares = false;

    SECTION("a page value (0.2, 0.4, 0.6) is the pixel value") {
        World w;
        LightmapPage page;
        page.width = 8, page.height = 4;
        for (int i = 0; i < 32; ++i) page.rgb.insert(page.rgb.end(), {0.2f, 0.4f, 0.6f});
        w.lightmaps.push_back(page);
        w.look.hueClampAt = 2.0f;  // ignored by the linear look
        w.look.gamma = 2.0f;
        const Image img = renderScene(sceneWith(w), cam, o);
        for (int y = 0; y < 64; ++y)
            for (int x = 0; x < 64; ++x) {
                INFO("pixel " << x << "," << y);
                requireNear(pixelAt(img, x, y), {0.2f, 0.4f, 0.6f}, 1e-6f);
            }
    }
    SECTION("the heat world drawn shows the heat colours written into its page") {
        const World a = pageWorld();
        std::vector<LuxelMatch> matches;
        for (int y = 0; y < 4; ++y)
            for (int x = 0; x < 4; ++x) matches.push_back(match(0, x, y, grey3(0.4f), grey3(0.5f)));
        matches[0].b[0] = grey3(0.6f);  // texel (0,0): the largest change, +0.2; the rest +0.1 = half scale
        const World h = heatWorld(a, matches, {});
        const Vec3 half = texel(h, 0, 2, 2);
        requireNear(half, {0.6f, 0.275f, 0.1f});
        requireNear(texel(h, 0, 0, 0), {1.0f, 0.35f, 0.0f});
        const Image img = renderScene(sceneWith(h), cam, o);
        // Pixels whose bilinear footprint lies inside texels 1..3 (sample coordinate >= 1 texel, <= 3):
        // x, y from 24 to 55 of 64 (texel coordinate (p + 0.5) / 16 - 0.5).
        for (int y = 24; y < 56; ++y)
            for (int x = 24; x < 56; ++x) {
                INFO("pixel " << x << "," << y);
                requireNear(pixelAt(img, x, y), half);
            }
        // At the centre of texel (0,0) (pixel 8,8 is the texel centre's pixel): its own warm colour.
        const Vec3 corner = pixelAt(img, 7, 7);
        REQUIRE(corner.x > half.x);
        REQUIRE(corner.z < half.z);
    }
}

TEST_CASE("heatmap: writeHeatmaps writes the views, the overview and every page of each style", "[heatmap]") {
    const World a = decodeBytes(makeRoomMap().build());
    const Geometry ga = tessellate(a);
    REQUIRE(a.lightmaps.size() == 6);
    // Floor (surface 0) darker in B, ceiling (surface 1) brighter; display values: floor 1.0039 -> 1 (clamped)
    // to 0.5, ceiling 0.502 to 0.753.
    std::vector<LuxelMatch> matches;
    for (uint32_t s : {0u, 1u}) {
        const int32_t page = a.surfaces[s].lightmapPage;
        REQUIRE(page >= 0);
        const LightmapPage& p = a.lightmaps[size_t(page)];
        for (int y = 0; y < p.height; ++y)
            for (int x = 0; x < p.width; ++x) {
                LuxelMatch m;
                m.surface = s;
                m.page = page, m.x = x, m.y = y;
                m.matched = true;
                const float* t = p.rgb.data() + (size_t(y) * size_t(p.width) + size_t(x)) * 3;
                m.a[0] = {t[0], t[1], t[2]};
                m.b[0] = m.a[0] * (s == 0 ? 0.5f : 1.5f);
                matches.push_back(m);
            }
    }
    LightmapDiff diff;
    StyleDiff style0;
    style0.style = 0;
    SurfaceDiff floor;
    floor.surface = 0;
    floor.mins = {-256, -256, 0}, floor.maxs = {256, 256, 0}, floor.centroid = {0, 0, 0};
    style0.changed.push_back(floor);
    diff.styles.push_back(style0);

    const std::vector<std::pair<std::string, Camera>> views = {{"down", roomCamera({90, 0, 0})},
                                                               {"up", roomCamera({-90, 0, 0})}};
    const std::string dir = tempDir("heatmaps") + "/out";
    const std::vector<std::string> files = writeHeatmaps(a, ga, matches, diff, views, dir);

    std::set<std::string> expected = {dir + "/view_down.png", dir + "/view_up.png", dir + "/overview.png"};
    for (int p = 0; p < 6; ++p) expected.insert(dir + "/style_000/page_000" + std::to_string(p) + ".png");
    REQUIRE(std::set<std::string>(files.begin(), files.end()) == expected);
    REQUIRE(files.size() == expected.size());
    for (const std::string& f : files) REQUIRE(fs::is_regular_file(f));

    const Image down = readImage(dir + "/view_down.png"), up = readImage(dir + "/view_up.png");
    REQUIRE((down.width == 320 && down.height == 180));
    REQUIRE((up.width == 320 && up.height == 180));
    const Vec3 floorPixel = pixelAt(down, 160, 90), ceilingPixel = pixelAt(up, 160, 90);
    REQUIRE(floorPixel.z > floorPixel.x + 0.3f);    // darker: cool
    REQUIRE(ceilingPixel.x > ceilingPixel.z + 0.3f);  // brighter: warm
    // The legend's bar (bottom left): its left end full cool, its right end full warm.
    bool warmLegend = false, coolLegend = false;
    for (int y = 120; y < 180; ++y)
        for (int x = 0; x < 300; ++x) {
            const Vec3 c = pixelAt(down, x, y);
            warmLegend |= c.x > 0.99f && c.y > 0.3f && c.y < 0.4f && c.z < 0.01f;
            coolLegend |= c.x < 0.01f && c.y > 0.5f && c.y < 0.6f && c.z > 0.99f;
        }
    REQUIRE(warmLegend);
    REQUIRE(coolLegend);

    const Image overview = readImage(dir + "/overview.png");
    REQUIRE((overview.width == 1280 && overview.height == 720));
    int outline = 0, cool = 0;
    for (int y = 0; y < overview.height; ++y)
        for (int x = 0; x < overview.width; ++x) {
            const Vec3 c = pixelAt(overview, x, y);
            outline += c.x > 0.99f && c.y > 0.99f && c.z < 0.01f ? 1 : 0;  // yellow box edges
            cool += c.z > c.x + 0.3f ? 1 : 0;
        }
    REQUIRE(outline > 1000);  // the floor's outline, 4 edges hundreds of pixels long, 2 pixels wide
    REQUIRE(cool > 10000);   // the floor seen from above

    for (int p = 0; p < 6; ++p) {
        const Image page = readImage(dir + "/style_000/page_000" + std::to_string(p) + ".png");
        REQUIRE((page.width == 256 && page.height == 256));
        const Vec3 c = pixelAt(page, 100, 100);
        INFO("page " << p);
        if (p == a.surfaces[0].lightmapPage)
            REQUIRE(c.z > c.x + 0.3f);
        else if (p == a.surfaces[1].lightmapPage)
            REQUIRE(c.x > c.z + 0.3f);
        else
            REQUIRE((c.x == c.y && c.y == c.z));  // untouched walls stay grey
    }
    fs::remove_all(fs::path(dir).parent_path());
}

TEST_CASE("heatmap: vertex-lit surfaces are drawn in the same greyscale as the pages", "[heatmap]") {
    RoomOptions ro;
    ro.vertexLit = true;  // the west wall's vertices are red (64, 0, 0): linear 1.0039 -> display 1, 0, 0
    const World a = decodeBytes(makeRoomMap(ro).build());
    const Geometry ga = tessellate(a);
    REQUIRE(a.lightmaps.empty());
    const std::string dir = tempDir("heatmaps-vertex");
    const std::vector<std::string> files =
        writeHeatmaps(a, ga, {}, LightmapDiff{}, {{"west", roomCamera({0, 180, 0})}}, dir);
    REQUIRE(files == std::vector<std::string>{dir + "/view_west.png", dir + "/overview.png"});
    const Vec3 c = pixelAt(readImage(dir + "/view_west.png"), 160, 90);
    // Half the red's display luminance, 0.5 * 0.2126 = 0.1063: byte 27 of 255.
    REQUIRE((c.x == c.y && c.y == c.z));
    REQUIRE(c.x == Approx(27.0f / 255.0f));
    fs::remove_all(dir);
}
