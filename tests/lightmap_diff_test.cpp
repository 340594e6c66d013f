// Lightmaps compared in world space: a synthetic room (six walls, each on its own page with a texel
// gradient) changed in known ways, and the real q3map2 pairs of ../shared/maps/pairs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "luxel/bsp/decode.hpp"
#include "luxel/diff/diff.hpp"
#include "luxel/geometry/geometry.hpp"
#include "support/q3_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

// The room with a gradient on every wall's page, so a texel read at the wrong place shows.
World gradientRoom() {
    RoomOptions o;
    o.texel = [](int wall, int x, int y) {
        return std::array<uint8_t, 3>{uint8_t(x), uint8_t(y), uint8_t(40 * wall)};
    };
    MapSource src;
    src.displayName = "room.bsp";
    src.mapName = "room";
    src.bytes = makeRoomMap(o).build();
    src.openRelated = [](const std::string&) { return std::optional<Bytes>(); };
    return decodeMap(src);
}

struct Pair {
    World a, b;
    Geometry ga, gb;
    LightmapDiff run(LightmapDiffOptions o = {}, std::vector<LuxelMatch>* matches = nullptr) {
        ga = tessellate(a);
        gb = tessellate(b);
        return diffLightmaps(a, ga, b, gb, o, matches);
    }
};

// One build of the q3map2 pairs in ../shared/maps/pairs/oacmpdm8 (pairs/README.md says what differs).
World loadPair(const std::string& name) {
    MapSource src = openMapPath(*sharedMaps() + "/pairs/oacmpdm8/" + name + ".bsp");
    return decodeMap(src);
}

const StyleDiff& style0(const LightmapDiff& d) {
    REQUIRE_FALSE(d.styles.empty());
    REQUIRE(d.styles[0].style == 0);
    return d.styles[0];
}

}  // namespace

TEST_CASE("a build compared with itself: every luxel matched, every figure zero", "[diff][lightmapdiff]") {
    Pair p{gradientRoom(), gradientRoom(), {}, {}};
    const LightmapDiff d = p.run();
    // Six 512-unit walls on 128x128 pages spanning each wall: 128 * 128 luxel centres a wall.
    CHECK(d.luxelsA == 6u * 128u * 128u);
    CHECK(d.luxelsB == d.luxelsA);
    CHECK(d.matchedA == d.luxelsA);
    CHECK(d.matchedB == d.luxelsB);
    const StyleDiff& s = style0(d);
    CHECK(s.stats.count == d.luxelsA);
    CHECK(s.stats.maxAbsLinear == 0.0);
    CHECK(s.stats.rmsDisplay == 0.0);
    CHECK(s.verdict == Verdict::Same);
    CHECK(s.changed.empty());
    CHECK(d.onlyInA.empty());
    CHECK(d.onlyInB.empty());
}

TEST_CASE("one wall's luxels raised by a known amount: exactly that wall, with hand-computed figures", "[diff][lightmapdiff]") {
    Pair p{gradientRoom(), gradientRoom(), {}, {}};
    const int32_t page = p.b.surfaces[2].lightmapPage;
    for (float& v : p.b.lightmaps[size_t(page)].rgb) v += 0.125f;
    const LightmapDiff d = p.run();
    const StyleDiff& s = style0(d);
    REQUIRE(s.changed.size() == 1);
    CHECK(s.changed[0].surface == 2);
    CHECK(s.changed[0].luxels == 128u * 128u);
    CHECK(s.changed[0].stats.maxAbsLinear == Approx(0.125).margin(1e-5));
    CHECK(s.changed[0].stats.meanAbsLinear == Approx(0.125).margin(1e-5));
    // Over the whole room one wall in six changed, every channel by 0.125.
    CHECK(s.stats.meanAbsLinear == Approx(0.125 / 6).margin(1e-6));
    CHECK(s.stats.rmsLinear == Approx(std::sqrt(0.125 * 0.125 / 6)).margin(1e-6));
    // Display values saturate at 1: texels whose three channels already show full brightness (red byte x
    // and green byte y both at least 64, i.e. linear >= 1.004, and blue 80 -> 1.25) look the same raised.
    CHECK(s.stats.overFail == 128u * 128u - 64u * 64u);
    CHECK(s.verdict == Verdict::Fail);
}

TEST_CASE("the same light re-packed (mirrored page and lightmap coordinates, pages swapped, faces reordered) is no difference",
          "[diff][lightmapdiff]") {
    Pair p{gradientRoom(), gradientRoom(), {}, {}};
    World& b = p.b;
    // Wall 0: its page mirrored left-right and its vertices' u mirrored with it.
    LightmapPage& pg = b.lightmaps[size_t(b.surfaces[0].lightmapPage)];
    for (int y = 0; y < pg.height; ++y)
        for (int x = 0; x < pg.width / 2; ++x)
            for (int c = 0; c < 3; ++c)
                std::swap(pg.rgb[(size_t(y) * size_t(pg.width) + size_t(x)) * 3 + size_t(c)],
                          pg.rgb[(size_t(y) * size_t(pg.width) + size_t(pg.width - 1 - x)) * 3 + size_t(c)]);
    for (uint32_t v = 0; v < b.surfaces[0].numVertices; ++v) {
        Vec2& uv = b.vertices[b.surfaces[0].firstVertex + v].lightmapUV;
        uv.x = 1.0f - uv.x;
    }
    // Walls 1 and 3 trade pages.
    std::swap(b.lightmaps[size_t(b.surfaces[1].lightmapPage)], b.lightmaps[size_t(b.surfaces[3].lightmapPage)]);
    std::swap(b.surfaces[1].lightmapPage, b.surfaces[3].lightmapPage);
    // Face order reversed.
    std::reverse(b.surfaces.begin(), b.surfaces.end());
    const LightmapDiff d = p.run();
    CHECK(d.matchedA == d.luxelsA);
    const StyleDiff& s = style0(d);
    CHECK(s.stats.maxAbsLinear == Approx(0.0).margin(1e-6));
    CHECK(s.changed.empty());
}

TEST_CASE("a wall moved is geometry only in A and only in B, not a lighting change", "[diff][lightmapdiff]") {
    // The floor lifted 64 units leaves its plane: none of its luxels lies on the other build's floor.
    Pair q{gradientRoom(), gradientRoom(), {}, {}};
    const Surface& floor = q.b.surfaces[0];
    for (uint32_t v = 0; v < floor.numVertices; ++v) q.b.vertices[floor.firstVertex + v].position.z += 64.0f;
    const LightmapDiff d = q.run();
    REQUIRE(d.onlyInA.size() == 1);
    CHECK(d.onlyInA[0].surface == 0);
    REQUIRE(d.onlyInB.size() == 1);
    CHECK(d.onlyInB[0].surface == 0);
    CHECK(d.onlyInB[0].mins.z == Approx(64.0f).margin(1.0f));
    CHECK(d.matchedA == d.luxelsA - 128u * 128u);
    CHECK(style0(d).stats.maxAbsLinear == Approx(0.0).margin(1e-6));
}

TEST_CASE("a second light style changed: only that style is reported", "[diff][lightmapdiff]") {
    Pair p{gradientRoom(), gradientRoom(), {}, {}};
    for (World* w : {&p.a, &p.b}) {
        w->extraLightmapSlots[0].resize(w->lightmaps.size());
        w->surfaces[1].styles[1] = 5;
        w->extraLightmapSlots[0][size_t(w->surfaces[1].lightmapPage)] = w->lightmaps[size_t(w->surfaces[1].lightmapPage)];
    }
    for (float& v : p.b.extraLightmapSlots[0][size_t(p.b.surfaces[1].lightmapPage)].rgb) v *= 0.5f;
    const LightmapDiff d = p.run();
    REQUIRE(d.styles.size() == 2);
    CHECK(d.styles[0].style == 0);
    CHECK(d.styles[0].verdict == Verdict::Same);
    CHECK(d.styles[1].style == 5);
    CHECK(d.styles[1].verdict == Verdict::Fail);
    REQUIRE(d.styles[1].changed.size() == 1);
    CHECK(d.styles[1].changed[0].surface == 1);
}

TEST_CASE("real q3map2 pairs: a recompile is identical, a changed light changes the surfaces the compiler's own lumps say",
          "[diff][lightmapdiff][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    Pair same{loadPair("base"), loadPair("same"), {}, {}};
    LightmapDiffOptions strict;
    const LightmapDiff d = same.run(strict);
    CHECK(d.matchedA == d.luxelsA);
    CHECK(style0(d).stats.maxAbsLinear == 0.0);
    CHECK(style0(d).verdict == Verdict::Same);

    // pairs/README.md: in `light` 24 surfaces' stored texel bytes change by more than 2 (linear light is
    // 4 * byte / 255, so more than 8/255). Every surface whose largest linear change passes 10/255 must be
    // one of them (bilinear samples at the luxel centres of an unchanged atlas are the stored texels), and
    // the three largest named there must be among them.
    const std::set<uint32_t> known{54,  55,  62,  63,  133, 136, 149, 155, 192, 194, 274, 276,
                                   362, 364, 383, 424, 458, 568, 576, 580, 604, 606, 639, 640};
    Pair light{loadPair("base"), loadPair("light"), {}, {}};
    const LightmapDiff dl = light.run(strict);
    CHECK(dl.matchedA == dl.luxelsA);
    std::set<uint32_t> reported;
    for (const SurfaceDiff& s : style0(dl).changed)
        if (s.stats.maxAbsLinear > 10.0 / 255.0) reported.insert(s.surface);
    for (uint32_t s : reported) CHECK(known.count(s) == 1);
    for (uint32_t s : {580u, 364u, 424u}) CHECK(reported.count(s) == 1);
    CHECK(style0(dl).verdict == Verdict::Fail);
    CHECK(dl.onlyInA.empty());
    CHECK(dl.onlyInB.empty());
}

TEST_CASE("real pairs: more compiler threads change only grid points inside walls (the compiler's noise); a changed light changes open space",
          "[diff][lightmapdiff][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const World base = loadPair("base");
    // pairs/README.md: `mt` keeps every lightmap and changes 2,515 of 48,504 grid cells' bytes, the points
    // q3map2 moves out of solid with a random sequence. Most of the decoded points that differ lie in solid by
    // luxel's own BSP walk (points on a wall's plane may fall either side of it).
    Pair mt{base, loadPair("mt"), {}, {}};
    CHECK(style0(mt.run()).stats.maxAbsLinear == 0.0);
    const ProbeDiff pm = diffProbes(mt.a, mt.b, {});
    CHECK(pm.pointsA == 48504);
    CHECK(pm.changed > 2000);
    CHECK(pm.changed <= 2515);
    CHECK(pm.changedInSolid * 10 >= pm.changed * 8);
    // `light` changes grid cells in the open space around the light: few of those in solid.
    const World light = loadPair("light");
    const ProbeDiff pl = diffProbes(base, light, {});
    CHECK(pl.changed > 2000);
    CHECK(pl.changedInSolid * 2 < pl.changed);
}

TEST_CASE("a face split in two with the same luxels is no difference", "[diff][lightmapdiff]") {
    Pair p{gradientRoom(), gradientRoom(), {}, {}};
    World& b = p.b;
    // Wall 3 (two triangles) becomes two surfaces of one triangle each, on the same page and vertices.
    REQUIRE(b.surfaces[3].numIndices == 6);
    Surface second = b.surfaces[3];
    b.surfaces[3].numIndices = 3;
    second.firstIndex += 3;
    second.numIndices = 3;
    b.surfaces.push_back(second);
    const LightmapDiff d = p.run();
    CHECK(d.matchedA == d.luxelsA);
    CHECK(d.matchedB == d.luxelsB);
    CHECK(style0(d).stats.maxAbsLinear == 0.0);
    CHECK(d.onlyInA.empty());
    CHECK(d.onlyInB.empty());
}

TEST_CASE("real pairs: a moved light changes surfaces the compiler's lumps list, all near the light's path", "[diff][lightmapdiff][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    // pairs/README.md: the light moved from (2 -283 326) to (66 -283 326); 20 surfaces' texels change by more
    // than 2 stored bytes, all within 928 units of its path.
    const std::set<uint32_t> known{54, 55, 62, 63, 133, 136, 149, 192, 194, 362,
                                   364, 383, 424, 458, 568, 576, 580, 606, 639, 640};
    Pair moved{loadPair("base"), loadPair("moved"), {}, {}};
    const LightmapDiff d = moved.run();
    CHECK(d.matchedA == d.luxelsA);
    size_t reported = 0;
    for (const SurfaceDiff& s : style0(d).changed) {
        if (s.stats.maxAbsLinear <= 10.0 / 255.0) continue;
        ++reported;
        CHECK(known.count(s.surface) == 1);
        // The path runs 32 units either side of (34 -283 326): the box within 928 + 32 units of that point.
        const Vec3 mid{34, -283, 326};
        const Vec3 q = vmin(vmax(mid, s.mins), s.maxs);  // the box's point nearest the middle of the path
        CHECK(std::sqrt(dot(q - mid, q - mid)) <= 928.0f + 32.0f);
    }
    CHECK(reported >= 10);
}

TEST_CASE("real pairs: re-packed atlases (texel size doubled, a bounce) are compared luxel for luxel in world space",
          "[diff][lightmapdiff][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const World base = loadPair("base");
    for (const char* name : {"settings", "bounce"}) {
        INFO(name);
        Pair p{base, loadPair(name), {}, {}};
        const LightmapDiff d = p.run();
        // The same geometry: every luxel of either build lies on a lit surface of the other.
        CHECK(d.matchedA == d.luxelsA);
        CHECK(d.matchedB == d.luxelsB);
        CHECK(d.onlyInA.empty());
        CHECK(d.onlyInB.empty());
        CHECK_FALSE(d.sameGeometry);  // other lightmap coordinates: the general matching
        // -samplescale 2 halves the luxels per side; a bounce keeps the texel size.
        if (std::string(name) == "settings") CHECK(d.luxelsB * 2 < d.luxelsA);
        // Light changed (resampled at other texel positions, or bounced): reported, not zero.
        CHECK(style0(d).stats.rmsLinear > 0.0);
        CHECK(style0(d).verdict == Verdict::Fail);
    }
}

namespace {

void checkSameFigures(const DiffStats& x, const DiffStats& y) {
    CHECK(x.count == y.count);
    CHECK(x.meanAbsLinear == y.meanAbsLinear);
    CHECK(x.rmsLinear == y.rmsLinear);
    CHECK(x.maxAbsLinear == y.maxAbsLinear);
    CHECK(x.maxAbsDisplay == y.maxAbsDisplay);
    CHECK(x.overWarn == y.overWarn);
    CHECK(x.overFail == y.overFail);
}

// The one shared ray pass for builds of the same geometry against the two passes of the general matching.
void checkSharedPassAgrees(Pair& p) {
    LightmapDiffOptions general;
    general.reuseSameGeometry = false;
    const LightmapDiff shared = p.run(), full = p.run(general);
    CHECK(shared.sameGeometry);
    CHECK_FALSE(full.sameGeometry);
    CHECK(shared.luxelsA == full.luxelsA);
    CHECK(shared.luxelsB == full.luxelsB);
    CHECK(shared.unlocatedA == full.unlocatedA);
    CHECK(shared.unlocatedB == full.unlocatedB);
    CHECK(shared.matchedA == full.matchedA);
    CHECK(shared.matchedB == full.matchedB);
    REQUIRE(shared.styles.size() == full.styles.size());
    for (size_t k = 0; k < shared.styles.size(); ++k) {
        checkSameFigures(shared.styles[k].stats, full.styles[k].stats);
        REQUIRE(shared.styles[k].changed.size() == full.styles[k].changed.size());
        for (size_t i = 0; i < shared.styles[k].changed.size(); ++i)
            CHECK(shared.styles[k].changed[i].surface == full.styles[k].changed[i].surface);
    }
}

}  // namespace

TEST_CASE("builds of the same geometry share one ray pass, with the figures of the general matching",
          "[diff][lightmapdiff]") {
    Pair p{gradientRoom(), gradientRoom(), {}, {}};
    for (size_t i = 0; i < p.b.lightmaps[2].rgb.size(); ++i) p.b.lightmaps[2].rgb[i] += 0.125f;
    checkSharedPassAgrees(p);
    CHECK(style0(p.run()).changed.size() == 1);
}

TEST_CASE("real pairs: the shared ray pass of a changed light agrees with the general matching",
          "[diff][lightmapdiff][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    Pair p{loadPair("base"), loadPair("light"), {}, {}};
    checkSharedPassAgrees(p);
}
