#include <catch2/catch.hpp>

#include <random>

#include "luxel/light/atlas.hpp"
#include "luxel/light/lightmap_sample.hpp"

using namespace luxel;

namespace {

// Outer rectangle (with border) of a placed block.
struct Outer {
    int32_t page, x0, y0, x1, y1;  // [x0, x1) x [y0, y1)
};
Outer outer(const AtlasLayout& l, const AtlasBlock& b, const AtlasPlacement& p) {
    return {p.page, p.x - l.border, p.y - l.border, p.x + b.width + l.border, p.y + b.height + l.border};
}

void checkNoOverlapInside(const std::vector<AtlasBlock>& blocks, const AtlasLayout& l) {
    REQUIRE(l.placements.size() == blocks.size());
    std::vector<Outer> rects;
    for (size_t i = 0; i < blocks.size(); ++i) {
        if (blocks[i].width == 0 || blocks[i].height == 0) {
            CHECK(l.placements[i].page == -1);
            continue;
        }
        Outer o = outer(l, blocks[i], l.placements[i]);
        REQUIRE(o.page >= 0);
        REQUIRE(size_t(o.page) < l.pageSizes.size());
        CHECK(o.x0 >= 0);
        CHECK(o.y0 >= 0);
        CHECK(o.x1 <= l.pageSizes[size_t(o.page)][0]);
        CHECK(o.y1 <= l.pageSizes[size_t(o.page)][1]);
        rects.push_back(o);
    }
    size_t overlaps = 0;
    for (size_t a = 0; a < rects.size(); ++a)
        for (size_t b = a + 1; b < rects.size(); ++b) {
            const Outer &p = rects[a], &q = rects[b];
            if (p.page == q.page && p.x0 < q.x1 && q.x0 < p.x1 && p.y0 < q.y1 && q.y0 < p.y1) ++overlaps;
        }
    CHECK(overlaps == 0);
}

}  // namespace

TEST_CASE("atlas: shelves sorted by height, ties by index, border around each block", "[atlas]") {
    // Heights 2, 5, 5, 3: order 1, 2, 3, 0 on one shelf of a wide page; each takes width + 2 borders.
    std::vector<AtlasBlock> blocks{{4, 2}, {3, 5}, {2, 5}, {6, 3}};
    AtlasOptions o;
    o.pageWidth = 64;
    o.pageHeight = 64;
    AtlasLayout l = packAtlas(blocks, o);
    REQUIRE(l.pageSizes.size() == 1);
    CHECK(l.placements[1].x == 1);
    CHECK(l.placements[2].x == 1 + 3 + 2);
    CHECK(l.placements[3].x == 6 + 2 + 2);
    CHECK(l.placements[0].x == 10 + 6 + 2);
    for (const auto& p : l.placements) CHECK(p.y == 1);
    // Cropped to the used area: widths (3+2)+(2+2)+(6+2)+(4+2) = 23, tallest 5+2 = 7.
    CHECK(l.pageSizes[0] == std::array<int32_t, 2>{23, 7});
    checkNoOverlapInside(blocks, l);

    o.cropPages = false;
    CHECK(packAtlas(blocks, o).pageSizes[0] == std::array<int32_t, 2>{64, 64});
}

TEST_CASE("atlas: new shelf and new page when full; oversize and empty blocks", "[atlas]") {
    AtlasOptions o;
    o.pageWidth = 10;
    o.pageHeight = 10;
    o.cropPages = false;
    // Each 2x2 block takes 4x4 with its border: 2 a shelf, 2 shelves a page -> 4 a page.
    std::vector<AtlasBlock> blocks(6, AtlasBlock{2, 2});
    blocks.push_back({20, 1});  // wider than a page: its own page, exactly its size
    blocks.push_back({0, 5});   // empty: not placed
    AtlasLayout l = packAtlas(blocks, o);
    CHECK(l.placements[0].page == 0);
    CHECK(l.placements[1].x == 5);
    CHECK(l.placements[2].y == 5);
    CHECK(l.placements[3].page == 0);
    CHECK(l.placements[4].page == 1);
    CHECK(l.placements[5].page == 1);
    CHECK(l.placements[6].page == 2);  // height 1 sorts last; too wide for a page, so a page of its own
    CHECK(l.pageSizes[size_t(l.placements[6].page)] == std::array<int32_t, 2>{22, 3});
    CHECK(l.placements[7].page == -1);
    checkNoOverlapInside(blocks, l);
}

TEST_CASE("atlas: many random blocks never overlap and the layout is deterministic", "[atlas]") {
    std::mt19937 rng(12345);
    std::uniform_int_distribution<int> side(0, 17);
    std::vector<AtlasBlock> blocks(3000);
    for (auto& b : blocks) b = {side(rng), side(rng)};
    AtlasOptions o;
    o.pageWidth = 256;
    o.pageHeight = 256;
    AtlasLayout a = packAtlas(blocks, o), b = packAtlas(blocks, o);
    CHECK(a.pageSizes.size() > 1);
    checkNoOverlapInside(blocks, a);
    REQUIRE(a.pageSizes == b.pageSizes);
    for (size_t i = 0; i < blocks.size(); ++i) {
        CHECK(a.placements[i].page == b.placements[i].page);
        CHECK(a.placements[i].x == b.placements[i].x);
        CHECK(a.placements[i].y == b.placements[i].y);
    }
}

TEST_CASE("atlas: blocks are copied, borders replicate edges, uv hits texel centres", "[atlas]") {
    std::vector<AtlasBlock> blocks{{3, 2}, {2, 2}};
    AtlasLayout l = packAtlas(blocks);
    auto pages = makeAtlasPages(l);
    REQUIRE(pages.size() == 1);
    // Block 0: luxel (i, j) = (i, j, 100); block 1: all (9, 9, 9).
    std::vector<float> a, b(2 * 2 * 3, 9.0f);
    for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 3; ++i) a.insert(a.end(), {float(i), float(j), 100.0f});
    writeAtlasBlock(pages[0], l.placements[0], 3, 2, l.border, a.data());
    writeAtlasBlock(pages[0], l.placements[1], 2, 2, l.border, b.data());
    const LightmapPage& page = pages[0];
    auto texel = [&](int x, int y) {
        const float* t = page.rgb.data() + (size_t(y) * size_t(page.width) + size_t(x)) * 3;
        return Vec3{t[0], t[1], t[2]};
    };
    const AtlasPlacement p = l.placements[0];
    for (int j = -1; j <= 2; ++j)
        for (int i = -1; i <= 3; ++i) {
            Vec3 expected{float(std::clamp(i, 0, 2)), float(std::clamp(j, 0, 1)), 100.0f};
            CHECK(texel(p.x + i, p.y + j) == expected);
        }
    // Luxel centres: uv of (i, j) = (x + i + 0.5) / W; bilinear sampling there returns the luxel exactly,
    // and halfway between two luxels their mean.
    for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 3; ++i) {
            Vec2 uv = atlasUV(l, p, i, j);
            CHECK(uv.x == Approx((p.x + i + 0.5) / page.width));
            CHECK(uv.y == Approx((p.y + j + 0.5) / page.height));
            Vec3 s = sampleLightmap(page, uv);
            CHECK(s.x == Approx(i).margin(1e-5));
            CHECK(s.y == Approx(j).margin(1e-5));
        }
    Vec3 mid = sampleLightmap(page, atlasUV(l, p, 0.5, 0.25));
    CHECK(mid.x == Approx(0.5).margin(1e-5));
    CHECK(mid.y == Approx(0.25).margin(1e-5));
    // Sampling at the block's outer edge (half a luxel outside) stays within the block's own values.
    Vec3 edge = sampleLightmap(page, atlasUV(l, p, -0.5, -0.5));
    CHECK(edge == Vec3{0, 0, 100});
}

TEST_CASE("atlas: bad options are refused", "[atlas]") {
    std::vector<AtlasBlock> blocks{{1, 1}};
    AtlasOptions o;
    o.pageWidth = 2;
    CHECK_THROWS_AS(packAtlas(blocks, o), std::invalid_argument);
    std::vector<AtlasBlock> negative{{-1, 3}};
    CHECK_THROWS_AS(packAtlas(negative), std::invalid_argument);
}
