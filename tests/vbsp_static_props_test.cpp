// The sprp game lump of every known version and layout, written by hand into a real map's container.
#include <catch2/catch.hpp>

#include <cstring>

#include "luxel/bsp/decode.hpp"
#include "luxel/util/error.hpp"
#include "support/decode_helpers.hpp"
#include "support/test_paths.hpp"
#include "support/vbsp_writer.hpp"

using namespace luxel;

namespace {

struct Layout {
    int version;
    size_t size;
    int diffuseAt = -1, scaleAt = -1, scaleCount = 0;
};

void put(std::vector<uint8_t>& b, size_t at, const void* v, size_t n) { std::memcpy(b.data() + at, v, n); }
void putF(std::vector<uint8_t>& b, size_t at, std::initializer_list<float> fs) {
    for (float f : fs) put(b, at, &f, 4), at += 4;
}

// Two props: the first (model 1, leaves 1-2, flags USE_LIGHTING_ORIGIN | NO_PER_VERTEX_LIGHTING, skin 3,
// lighting origin (7, 8, 9), tint 10 20 30 40, scale 1.5 (2.5 3.5)), the second all zero but for model 0.
std::vector<uint8_t> sprp(const Layout& l, int32_t props = 2, uint16_t leaf = 6) {
    std::vector<uint8_t> b;
    auto i32 = [&](int32_t v) { for (int k = 0; k < 4; ++k) b.push_back(uint8_t(uint32_t(v) >> (8 * k))); };
    i32(2);
    for (const char* name : {"models/a.mdl", "models/b.mdl"}) {
        std::vector<uint8_t> n(128, 0);
        std::memcpy(n.data(), name, std::strlen(name));
        b.insert(b.end(), n.begin(), n.end());
    }
    i32(3);
    for (uint16_t v : {uint16_t(5), leaf, uint16_t(7)}) b.push_back(uint8_t(v)), b.push_back(uint8_t(v >> 8));
    i32(props);
    const size_t first = b.size();
    b.resize(first + l.size * 2, 0);
    putF(b, first, {1, 2, 3, 10, 20, 30});
    const uint16_t head[3] = {1, 1, 2};
    put(b, first + 24, head, 6);
    b[first + 30] = 6, b[first + 31] = 0x42;
    const int32_t skin = 3;
    put(b, first + 32, &skin, 4);
    putF(b, first + 36, {100, 200, 7, 8, 9});
    if (l.diffuseAt >= 0) b[first + size_t(l.diffuseAt)] = 10, b[first + size_t(l.diffuseAt) + 1] = 20,
                          b[first + size_t(l.diffuseAt) + 2] = 30, b[first + size_t(l.diffuseAt) + 3] = 40;
    if (l.scaleAt >= 0) {
        putF(b, first + size_t(l.scaleAt), {1.5f});
        putF(b, first + l.size + size_t(l.scaleAt), {1.0f});
        if (l.scaleCount == 3) putF(b, first + size_t(l.scaleAt) + 4, {2.5f, 3.5f}), putF(b, first + l.size + size_t(l.scaleAt) + 4, {1, 1});
    }
    b.resize(first + l.size * size_t(std::max(props, 0)));
    return b;
}

World decodeWith(const std::vector<uint8_t>& lump, int version) {
    const std::string path = *test::sharedSourceContent() + "/momentum_background_01/maps/background_01.bsp";
    test::VbspFile map = test::readVbsp(readFile(path));
    map.gameLumps = {{0x73707270u, 0, uint16_t(version), lump}};
    return decodeMap(test::memorySource(test::writeVbsp(map)));
}

}  // namespace

TEST_CASE("sprp: every version's record size and fields", "[vbsp][props][maps]") {
    LUXEL_REQUIRE_SOURCE_CONTENT();
    const Layout layouts[] = {
        {4, 56}, {5, 60}, {6, 64},
        {7, 68, 64},           // Left 4 Dead
        {7, 72},               // "v7*": Source 2013 / TF2's v10 record under version 7
        {8, 68, 64}, {9, 72, 64},
        {10, 76, 64},          // CS:GO
        {10, 72},              // Source 2013 / TF2 (the shared content map's)
        {11, 80, 64, 76, 1},   // CS:GO uniform scale
        {11, 80, 72},          // Black Mesa (FlagsEx 0 at 76, no scale)
        {11, 76, 72},          // Black Mesa, older
        {12, 80, 64, 76, 1}, {13, 88, 64, 76, 3},
    };
    for (const Layout& l : layouts) {
        CAPTURE(l.version, l.size);
        const World w = decodeWith(sprp(l), l.version);
        REQUIRE(w.staticProps.size() == 2);
        const StaticProp& p = w.staticProps[0];
        CHECK(p.model == "models/b.mdl");
        CHECK(p.origin == Vec3{1, 2, 3});
        CHECK(p.angles == Vec3{10, 20, 30});
        CHECK(p.skin == 3);
        REQUIRE(p.lightingOrigin.has_value());
        CHECK(*p.lightingOrigin == Vec3{7, 8, 9});
        CHECK_FALSE(p.vertexLit);
        CHECK(p.firstLeaf == 1);
        CHECK(p.numLeaves == 2);
        CHECK(w.staticPropLeaves == std::vector<uint32_t>{5, 6, 7});
        CHECK(p.tint == (l.diffuseAt >= 0 ? std::array<uint8_t, 4>{10, 20, 30, 40} : std::array<uint8_t, 4>{255, 255, 255, 255}));
        const Vec3 scale = l.scaleCount == 3 ? Vec3{1.5f, 2.5f, 3.5f} : l.scaleCount == 1 ? Vec3{1.5f, 1.5f, 1.5f} : Vec3{1, 1, 1};
        CHECK(p.scale == scale);
        const StaticProp& q = w.staticProps[1];
        CHECK(q.model == "models/a.mdl");
        CHECK_FALSE(q.lightingOrigin.has_value());
        CHECK(q.vertexLit);
        CHECK(q.scale == Vec3{1, 1, 1});
    }
}

TEST_CASE("sprp: bad lumps are decode errors, unknown versions a problem", "[vbsp][props][maps]") {
    LUXEL_REQUIRE_SOURCE_CONTENT();
    const Layout v10{10, 72};
    std::vector<uint8_t> short3 = sprp(v10);
    short3[4 + 256 + 4 + 6] = 3;  // three props, two records
    CHECK_THROWS_AS(decodeWith(short3, 10), DecodeError);
    CHECK_THROWS_AS(decodeWith(sprp(v10, 2, 9999), 10), DecodeError);  // leaf past the map's 152
    CHECK_THROWS_AS(decodeWith(sprp(v10, -1), 10), DecodeError);
    std::vector<uint8_t> hugeNames = sprp(v10);
    hugeNames[3] = 0x7f;
    CHECK_THROWS_AS(decodeWith(hugeNames, 10), DecodeError);
    const World w = decodeWith(sprp(v10), 14);
    CHECK(w.staticProps.empty());
    CHECK(std::any_of(w.problems.begin(), w.problems.end(),
                      [](const std::string& p) { return p.find("version 14") != std::string::npos; }));
}
