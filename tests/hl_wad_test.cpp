// Half-Life maps whose textures live in WAD3 files (the worldspawn's "wad" key), Quake's WAD2, hostile WADs, and
// the worldspawn's sky box (Half-Life "skyname", QuakeSpasm "sky") as gfx/env/NAME{rt,bk,lf,ft,up,dn}.tga.
// Expected texels are computed here from the hand-made indices and palettes, never read back from luxel.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>

#include "luxel/bsp/decode.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/material/quake_palette.hpp"
#include "luxel/material/wad3.hpp"
#include "luxel/util/error.hpp"
#include "support/decode_helpers.hpp"
#include "support/material_fixtures.hpp"
#include "support/q1_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;

namespace {

// One lump of a test WAD: a miptex record (name, size, 4 levels, then for WAD3 its palette) unless `raw` is set.
struct WadLumpSpec {
    std::string name;
    uint32_t width = 0, height = 0;
    std::vector<uint8_t> pixels;  // level 0; level k takes every 2^k-th texel of it
    Palette palette{};
    uint8_t type = 0x43, compression = 0;
    std::optional<Bytes> raw;  // the lump's bytes verbatim
};

Bytes miptexRecord(const WadLumpSpec& s, bool withPalette) {
    LeWriter b;
    b.fixedString(s.name, 16);
    b.u32(s.width);
    b.u32(s.height);
    uint32_t at = 40;
    for (uint32_t k = 0; k < 4; ++k) {
        b.u32(at);
        at += (s.width >> k) * (s.height >> k);
    }
    for (uint32_t k = 0; k < 4; ++k)
        for (uint32_t y = 0; y < (s.height >> k); ++y)
            for (uint32_t x = 0; x < (s.width >> k); ++x) b.u8(s.pixels[size_t((y << k) * s.width + (x << k))]);
    if (withPalette) {
        b.u16(256);
        for (const auto& c : s.palette)
            for (uint8_t v : c) b.u8(v);
        b.u16(0);  // pad to 4 bytes, as wad tools write
    }
    return b.bytes;
}

// "WAD3" (or "WAD2"), count, directory offset; the lumps from byte 12; the directory after them.
Bytes makeWad(const std::vector<WadLumpSpec>& lumps, const std::string& magic = "WAD3") {
    Bytes out(12, 0);
    std::vector<std::pair<uint32_t, uint32_t>> where;
    for (const WadLumpSpec& s : lumps) {
        const Bytes rec = s.raw ? *s.raw : miptexRecord(s, magic == "WAD3");
        where.emplace_back(uint32_t(out.size()), uint32_t(rec.size()));
        out.insert(out.end(), rec.begin(), rec.end());
    }
    const uint32_t dir = uint32_t(out.size());
    std::copy(magic.begin(), magic.end(), out.begin());
    put32(out, 4, uint32_t(lumps.size()));
    put32(out, 8, dir);
    LeWriter d;
    for (size_t i = 0; i < lumps.size(); ++i) {
        d.u32(where[i].first);
        d.u32(where[i].second);
        d.u32(where[i].second);
        d.u8(lumps[i].type);
        d.u8(lumps[i].compression);
        d.u16(0);
        d.fixedString(lumps[i].name, 16);
    }
    out.insert(out.end(), d.bytes.begin(), d.bytes.end());
    return out;
}

// Two palettes unlike q1TestPalette, so a texel read through the wrong one shows.
Palette paletteA() {
    Palette p{};
    for (size_t i = 0; i < 256; ++i) p[i] = {uint8_t(255 - i), uint8_t((3 * i) & 255), uint8_t((i * i) & 255)};
    return p;
}
Palette paletteB() {
    Palette p{};
    for (size_t i = 0; i < 256; ++i) p[i] = {uint8_t((5 * i + 1) & 255), uint8_t(i ^ 0x5a), 200};
    return p;
}

// "WALLA" 16x16, index (x, y) = (x * 7 + y * 3) mod 256; "{GRATE" 8x8, 255 where x == y (a hole), else 10 x + y.
WadLumpSpec wallA() {
    WadLumpSpec s;
    s.name = "WALLA", s.width = s.height = 16, s.palette = paletteA();
    for (uint32_t y = 0; y < 16; ++y)
        for (uint32_t x = 0; x < 16; ++x) s.pixels.push_back(uint8_t((x * 7 + y * 3) & 255));
    return s;
}
WadLumpSpec grate() {
    WadLumpSpec s;
    s.name = "{GRATE", s.width = s.height = 8, s.palette = paletteB();
    for (uint32_t y = 0; y < 8; ++y)
        for (uint32_t x = 0; x < 8; ++x) s.pixels.push_back(x == y ? 255 : uint8_t(10 * x + y));
    return s;
}

// GoldSrc's texgammatable at its default cvars, written out from BuildGammaTable: (int)(pow(b / 255, 2.0 / 2.5) x 255).
uint8_t texGamma(uint8_t b) { return uint8_t(int(std::pow(double(b) / 255.0, 0.8) * 255.0)); }

// The texels a texture of `s` must show: each index through the palette (in a Half-Life map, then through
// texGamma), opaque; a fence's 255 fully clear.
Texels expectedTexels(const WadLumpSpec& s, const Palette& palette, bool fence, bool halfLife = true) {
    Texels out;
    auto curve = [&](uint8_t c) { return halfLife ? texGamma(c) : c; };
    for (uint8_t k : s.pixels) {
        if (fence && k == 255)
            out.push_back({0, 0, 0, 0});
        else
            out.push_back({curve(palette[k][0]), curve(palette[k][1]), curve(palette[k][2]), 255});
    }
    return out;
}

// The Half-Life floor map (miptex 0 "walla" 16x16, miptex 1 "{grate" 8x8) with both left to WADs and the
// worldspawn's keys.
Q1MapBuilder hlWadMap(const std::string& worldspawnKeys, Q1Variant variant = Q1Variant::HalfLife) {
    Q1MapBuilder b = makeQ1FloorMap(variant);
    b.miptex[0]->name = "walla";
    b.miptex[0]->embedded = false;
    b.miptex[1]->embedded = false;
    b.entities = "{\n\"classname\" \"worldspawn\"\n" + worldspawnKeys + "}\n";
    return b;
}

// A loose map at GAME/maps/NAME.bsp, loaded with `options`.
struct Loaded {
    World world;
    MaterialSet set;
};
Loaded loadAt(const fs::path& mapPath, const Q1MapBuilder& b, const MaterialOptions& options = {}) {
    writeFile(mapPath, b.build());
    const MapSource src = openMapPath(mapPath.string());
    Loaded l{decodeMap(src), {}};
    l.set = loadMaterials(l.world, src, options);
    return l;
}

bool anyWarningHas(const MaterialSet& set, const std::string& text) {
    for (const std::string& w : set.warnings)
        if (w.find(text) != std::string::npos) return true;
    return false;
}

bool listedMissing(const MaterialSet& set, const std::string& name) {
    return std::find(set.missing.begin(), set.missing.end(), name) != set.missing.end();
}

}  // namespace

TEST_CASE("hl: GoldSrc's texture gamma at its default cvars, by hand", "[hl]") {
    // pow(b / 255, 0.8) x 255, truncated: 64 -> 0.25098^0.8 = 0.33090 -> 84.38; 128 -> 0.57618 -> 146.9.
    const std::array<uint8_t, 256>& t = halfLifeTextureGamma();
    CHECK(t[0] == 0);
    CHECK(t[1] == 3);
    CHECK(t[64] == 84);
    CHECK(t[128] == 146);
    CHECK(t[255] == 255);
    for (size_t b = 1; b < 256; ++b) CHECK(t[b] >= t[b - 1]);
}

TEST_CASE("hl: textures not embedded are read from the WADs the worldspawn names", "[hl]") {
    const fs::path game = tempDir("hl-wad-basic");
    // The WAD beside the game folder's maps/ (the map's parent folder), named in another case than the key's.
    writeFile(game / "Test.WAD", makeWad({wallA(), grate()}));
    const Loaded l = loadAt(game / "maps" / "wadmap.bsp",
                            hlWadMap("\"wad\" \"\\\\half-life\\\\valve\\\\test.wad;\\\\sierra\\\\nosuch.wad\"\n"));
    REQUIRE(l.set.looks.size() == 2);
    CHECK(l.set.missing.empty());
    CHECK(level0(textureOf(l.set, 0)) == expectedTexels(wallA(), paletteA(), false));
    CHECK(level0(textureOf(l.set, 1)) == expectedTexels(grate(), paletteB(), true));
    CHECK(l.set.looks[1].blend == BlendMode::AlphaTest);
    // The WAD that is nowhere: one warning naming it, and nothing else wrong.
    REQUIRE(l.set.warnings.size() == 1);
    CHECK_THAT(l.set.warnings[0], Catch::Contains("nosuch.wad") && Catch::Contains("not found"));
}

TEST_CASE("hl: WAD search order, the map's own copy first, and a texture in no WAD", "[hl]") {
    const fs::path root = tempDir("hl-wad-order");
    SECTION("the map's folder, then a game folder given with --game") {
        const fs::path gameDir = root / "valve";
        WadLumpSpec other = wallA();
        for (uint8_t& k : other.pixels) k = uint8_t(k + 1);
        writeFile(gameDir / "halflife.wad", makeWad({other}));  // walla (other pixels) only, in the game folder
        writeFile(root / "mapdir" / "first.wad", makeWad({grate()}));  // {grate beside the map
        const Loaded l = loadAt(root / "mapdir" / "order.bsp", hlWadMap("\"wad\" \"first.wad;c:\\\\x\\\\HALFLIFE.wad\"\n"),
                                MaterialOptions{{gameDir.string()}, "", 0});
        CHECK(l.set.warnings.empty());
        CHECK(level0(textureOf(l.set, 0)) == expectedTexels(other, paletteA(), false));
        CHECK(level0(textureOf(l.set, 1)) == expectedTexels(grate(), paletteB(), true));
    }
    SECTION("the first WAD of the key that has a texture wins") {
        WadLumpSpec second = wallA();
        second.palette = paletteB();
        writeFile(root / "one.wad", makeWad({wallA()}));
        writeFile(root / "two.wad", makeWad({second, grate()}));
        const Loaded l = loadAt(root / "maps" / "first.bsp", hlWadMap("\"wad\" \"one.wad;two.wad\"\n"));
        CHECK(level0(textureOf(l.set, 0)) == expectedTexels(wallA(), paletteA(), false));
        const Loaded swapped = loadAt(root / "maps" / "second.bsp", hlWadMap("\"wad\" \"two.wad;one.wad\"\n"));
        CHECK(level0(textureOf(swapped.set, 0)) == expectedTexels(wallA(), paletteB(), false));
    }
    SECTION("a texture embedded in the map is not looked up in the WADs") {
        writeFile(root / "all.wad", makeWad({wallA(), grate()}));
        Q1MapBuilder b = hlWadMap("\"wad\" \"all.wad\"\n");
        b.miptex[1]->embedded = true;  // {grate's own pixels: 255 where x + y is odd, else 32 + x + 8 y (q1TestPalette)
        const Loaded l = loadAt(root / "maps" / "embedded.bsp", b);
        const Palette p = q1TestPalette();
        Texels want;
        for (int y = 0; y < 8; ++y)
            for (int x = 0; x < 8; ++x) {
                const int k = (x + y) % 2 ? 255 : 32 + x + 8 * y;
                want.push_back(k == 255 ? std::array<uint8_t, 4>{0, 0, 0, 0}
                                        : std::array<uint8_t, 4>{texGamma(p[size_t(k)][0]), texGamma(p[size_t(k)][1]),
                                                                 texGamma(p[size_t(k)][2]), 255});
            }
        CHECK(level0(textureOf(l.set, 1)) == want);
        CHECK(level0(textureOf(l.set, 0)) == expectedTexels(wallA(), paletteA(), false));
    }
    SECTION("a texture in none of the WADs is grey (missing), listed once") {
        writeFile(root / "only.wad", makeWad({grate()}));
        const Loaded l = loadAt(root / "maps" / "partial.bsp", hlWadMap("\"wad\" \"only.wad\"\n"));
        CHECK(l.set.looks[0].missing);
        CHECK(l.set.looks[0].texture < 0);
        CHECK(listedMissing(l.set, "walla"));
        CHECK(level0(textureOf(l.set, 1)) == expectedTexels(grate(), paletteB(), true));
        CHECK(l.set.warnings.empty());
    }
    SECTION("no wad key: missing as before") {
        const Loaded l = loadAt(root / "maps" / "nokey.bsp", hlWadMap(""));
        CHECK(l.set.looks[0].missing);
        CHECK(l.set.looks[1].missing);
        CHECK(listedMissing(l.set, "walla"));
        CHECK(listedMissing(l.set, "{grate"));
    }
}

TEST_CASE("hl: Quake's WAD2 textures are read through the Quake palette", "[hl]") {
    const fs::path root = tempDir("hl-wad2");
    WadLumpSpec s = wallA();
    s.type = 0x44;
    for (uint8_t& k : s.pixels) k = uint8_t(k % 200);  // below Quake's fullbright indices (224-255)
    writeFile(root / "quake.wad", makeWad({s}, "WAD2"));
    const Bytes wadBytes = makeWad({s}, "WAD2");
    const Wad wad = readWad(wadBytes, "quake.wad");
    CHECK_FALSE(wad.halfLife);
    REQUIRE(findWadTexture(wad, "walla") != nullptr);
    CHECK(findWadTexture(wad, "WallA")->size == 40 + 256 + 64 + 16 + 4);  // no palette after the levels

    Q1MapBuilder b = hlWadMap("\"wad\" \"quake.wad\"\n", Q1Variant::Bsp29);
    const Loaded l = loadAt(root / "maps" / "q1wad.bsp", b);
    CHECK(level0(textureOf(l.set, 0)) == expectedTexels(s, defaultQuakePalette(), false, false));
    CHECK(listedMissing(l.set, "{grate"));
}

TEST_CASE("hl: hostile WADs give one clear line and no crash", "[hl]") {
    const fs::path root = tempDir("hl-wad-hostile");
    auto loadWith = [&](const std::string& name, const Bytes& wad) {
        writeFile(root / (name + ".wad"), wad);
        return loadAt(root / "maps" / (name + ".bsp"), hlWadMap("\"wad\" \"" + name + ".wad\"\n"));
    };
    auto checkBothMissing = [](const Loaded& l) {
        CHECK(l.set.looks[0].missing);
        CHECK(l.set.looks[1].missing);
        CHECK(listedMissing(l.set, "walla"));
    };
    SECTION("a directory past the end of the file") {
        Bytes wad = makeWad({wallA(), grate()});
        put32(wad, 4, 100);  // 100 entries of 32 bytes cannot follow the directory offset
        CHECK_THROWS_AS(readWad(wad, "dir.wad"), DecodeError);
        const Loaded l = loadWith("dir", wad);
        REQUIRE(l.set.warnings.size() == 1);
        CHECK_THAT(l.set.warnings[0], Catch::Contains("dir.wad") && Catch::Contains("directory of 100 entries") &&
                                          Catch::Contains("does not fit"));
        checkBothMissing(l);
    }
    SECTION("a truncated file: the directory cut short") {
        Bytes wad = makeWad({wallA(), grate()});
        wad.resize(wad.size() - 20);
        const Loaded l = loadWith("cut", wad);
        REQUIRE(l.set.warnings.size() == 1);
        CHECK_THAT(l.set.warnings[0], Catch::Contains("cut.wad") && Catch::Contains("directory"));
        checkBothMissing(l);
    }
    SECTION("not a WAD at all") {
        const Loaded l = loadWith("text", bytesOf("this is not a wad file at all"));
        REQUIRE(l.set.warnings.size() == 1);
        CHECK_THAT(l.set.warnings[0], Catch::Contains("text.wad") && Catch::Contains("not a WAD2 or WAD3 file"));
        checkBothMissing(l);
    }
    SECTION("a lump past the end of the file") {
        Bytes wad = makeWad({wallA(), grate()});
        const size_t dir = le32(wad, 8);
        put32(wad, dir + 4, 1u << 30);  // walla's disksize: a gigabyte
        const Loaded l = loadWith("lump", wad);
        REQUIRE(l.set.warnings.size() == 1);
        CHECK_THAT(l.set.warnings[0], Catch::Contains("lump.wad") && Catch::Contains("WALLA") && Catch::Contains("past the end"));
        CHECK(l.set.looks[0].missing);
        CHECK(level0(textureOf(l.set, 1)) == expectedTexels(grate(), paletteB(), true));  // the good lump still reads
    }
    SECTION("a texture 1,000,000 texels wide") {
        Bytes wad = makeWad({wallA(), grate()});
        put32(wad, 12 + 16, 1000000);  // walla's header width (its lump starts at byte 12)
        const Loaded l = loadWith("wide", wad);
        REQUIRE(l.set.warnings.size() == 1);
        CHECK_THAT(l.set.warnings[0], Catch::Contains("wide.wad") && Catch::Contains("lump WALLA") &&
                                          Catch::Contains("at byte 28") && Catch::Contains("1000000x16"));
        CHECK(l.set.looks[0].missing);
        CHECK(level0(textureOf(l.set, 1)) == expectedTexels(grate(), paletteB(), true));
    }
    SECTION("pixels cut short by the lump's size") {
        WadLumpSpec s = wallA();
        s.raw = miptexRecord(s, true);
        s.raw->resize(100);  // the header and 60 of 256 texels
        const Loaded l = loadWith("short", makeWad({s, grate()}));
        CHECK(l.set.looks[0].missing);
        CHECK(anyWarningHas(l.set, "short.wad"));
        CHECK(anyWarningHas(l.set, "outside the lump"));
    }
    SECTION("a compressed lump is skipped with a warning") {
        WadLumpSpec s = wallA();
        s.compression = 1;
        const Loaded l = loadWith("packed", makeWad({s, grate()}));
        REQUIRE(l.set.warnings.size() == 1);
        CHECK_THAT(l.set.warnings[0], Catch::Contains("packed.wad") && Catch::Contains("compressed"));
        CHECK(l.set.looks[0].missing);
    }
}

TEST_CASE("hl: the worldspawn's skyname is the sky box gfx/env/NAME{rt,bk,lf,ft,up,dn}", "[hl]") {
    static const char* const kSuffix[6] = {"rt", "bk", "lf", "ft", "up", "dn"};
    const fs::path game = tempDir("hl-skybox");
    for (uint8_t k = 0; k < 6; ++k)
        writeFile(game / "gfx" / "env" / ("tsky" + std::string(kSuffix[k]) + ".tga"), tga1x1(uint8_t(10 + k), uint8_t(100 + k), uint8_t(200 + k)));
    auto checkBox = [&](const MaterialSet& set) {
        REQUIRE(set.skies.size() == 1);
        const SkyBox& sky = set.skies[0];
        REQUIRE(sky.hasBox());
        CHECK(sky.clouds.empty());
        for (uint8_t k = 0; k < 6; ++k) {
            INFO(kSuffix[k]);
            REQUIRE(sky.faces[k] >= 0);
            CHECK(level0(*set.textures[size_t(sky.faces[k])]) == Texels{{uint8_t(10 + k), uint8_t(100 + k), uint8_t(200 + k), 255}});
        }
        CHECK(set.looks[1].skyBox == 0);
        CHECK_FALSE(set.looks[1].missing);
        CHECK(set.warnings.empty());
    };
    SECTION("Half-Life: a map in GAME/maps/ finds GAME's gfx/env") {
        Q1MapBuilder b = hlWadMap("\"skyname\" \"TSky\"\n");
        b.miptex[1]->name = "sky";  // left to a WAD that is not there: the box replaces it
        const Loaded l = loadAt(game / "maps" / "skymap.bsp", b);
        checkBox(l.set);
        CHECK_FALSE(listedMissing(l.set, "sky"));
    }
    SECTION("Half-Life: a game folder given (--game), the map elsewhere") {
        Q1MapBuilder b = hlWadMap("\"skyname\" \"tsky\"\n");
        b.miptex[1]->name = "sky";
        const fs::path other = tempDir("hl-skybox-map");
        checkBox(loadAt(fs::path(other) / "skymap.bsp", b, MaterialOptions{{game.string()}, "", 0}).set);
    }
    SECTION("Quake 1: QuakeSpasm's worldspawn \"sky\" key") {
        Q1MapBuilder b = makeQ1FloorMap(Q1Variant::Bsp29);
        b.miptex[1]->name = "sky4";
        b.entities = "{\n\"classname\" \"worldspawn\"\n\"sky\" \"tsky\"\n}\n";
        checkBox(loadAt(game / "maps" / "q1sky.bsp", b).set);
    }
    SECTION("a sky box that is not there: today's sky, no warning") {
        Q1MapBuilder q1 = makeQ1FloorMap(Q1Variant::Bsp29);
        q1.miptex[1]->name = "sky4";
        q1.entities = "{\n\"classname\" \"worldspawn\"\n\"sky\" \"nosuchsky\"\n}\n";
        const Loaded l = loadAt(game / "maps" / "q1nobox.bsp", q1);
        CHECK_FALSE(l.set.skies.at(0).hasBox());
        CHECK(l.set.skies.at(0).clouds.size() == 2);  // Quake's two scrolling layers
        CHECK(l.set.warnings.empty());
        // Half-Life without a skyname: the engine's "desert", absent here; the sky texture drawn as before.
        Q1MapBuilder hl = makeQ1FloorMap(Q1Variant::HalfLife);
        hl.miptex[1]->name = "sky";
        const Loaded h = loadAt(game / "maps" / "hlnobox.bsp", hl);
        CHECK_FALSE(h.set.skies.at(0).hasBox());
        CHECK(h.set.skies.at(0).clouds.size() == 2);
        CHECK(h.set.warnings.empty());
    }
    SECTION("a box with a face missing is one warning and not drawn") {
        fs::remove(game / "gfx" / "env" / "tskyup.tga");
        Q1MapBuilder b = hlWadMap("\"skyname\" \"tsky\"\n");
        b.miptex[1]->name = "sky";
        const Loaded l = loadAt(game / "maps" / "partial.bsp", b);
        CHECK_FALSE(l.set.skies.at(0).hasBox());
        REQUIRE(l.set.warnings.size() == 1);
        CHECK_THAT(l.set.warnings[0], Catch::Contains("skyname tsky") && Catch::Contains("gfx/env/tskyup"));
    }
}

TEST_CASE("hl: --palette that is neither a palette.lmp nor a PCX says so", "[hl]") {
    const fs::path root = tempDir("hl-palette");
    writeFile(root / "bad.pal", Bytes(100, 7));
    const MapSource src = memorySource(makeQ1FloorMap(Q1Variant::Bsp29).build());
    const World w = decodeMap(src);
    try {
        loadMaterials(w, src, MaterialOptions{{}, (root / "bad.pal").string(), 0});
        FAIL("no error");
    } catch (const UsageError& e) {
        CHECK_THAT(e.what(), Catch::Contains("neither a 768-byte palette.lmp nor a PCX file") && Catch::Contains("bad.pal"));
    }
}

namespace {

// The Half-Life floor map with face 1 (the "{grate" texinfo) moved into brush model *1, a func_wall with these keys.
Q1MapBuilder renderModeMap(const std::string& keys) {
    Q1MapBuilder b = makeQ1FloorMap(Q1Variant::HalfLife);
    b.models[0].numFaces = 1;
    Q1Model wall = b.models[0];
    wall.firstFace = 1, wall.numFaces = 1, wall.visLeaves = 0;
    b.models.push_back(wall);
    b.entities += "{\n\"classname\" \"func_wall\"\n\"model\" \"*1\"\n" + keys + "}\n";
    return b;
}

}  // namespace

TEST_CASE("hl: brush entities' render modes as GoldSrc draws them", "[hl]") {
    const fs::path root = tempDir("hl-render-modes");
    struct Case {
        std::string keys;
        int mode;
        BlendMode blend;
        bool unlit;
        float opacity, alphaRef;
    };
    const Case cases[] = {
        {"\"rendermode\" \"2\"\n\"renderamt\" \"100\"\n", 2, BlendMode::Blend, true, 100 / 255.0f, 0.5f},   // texture
        {"\"rendermode\" \"3\"\n\"renderamt\" \"51\"\n", 3, BlendMode::Blend, true, 51 / 255.0f, 0.5f},     // glow
        {"\"rendermode\" \"5\"\n\"renderamt\" \"255\"\n", 5, BlendMode::Additive, true, 1.0f, 0.5f},        // additive
        {"\"rendermode\" \"4\"\n\"renderamt\" \"255\"\n", 4, BlendMode::AlphaTest, false, 1.0f, 0.25f},     // solid
    };
    for (const Case& c : cases) {
        INFO(c.keys);
        const Loaded l = loadAt(root / "maps" / ("mode" + std::to_string(c.mode) + ".bsp"), renderModeMap(c.keys));
        const int32_t own = l.world.surfaces[1].material;
        // The world's face keeps texinfo 0; the entity's face has a material of its own after the two texinfos.
        CHECK(l.world.surfaces[0].material == 0);
        REQUIRE(own == 2);
        REQUIRE(l.world.materials.size() == 3);
        CHECK(l.world.materials[2].name == "{grate");
        CHECK(l.world.materials[2].entityRenderMode == c.mode);
        const SurfaceLook& look = l.set.looks[size_t(own)];
        CHECK(look.blend == c.blend);
        CHECK(look.unlit == c.unlit);
        CHECK(look.opacity == Approx(c.opacity));
        CHECK(look.alphaRef == Approx(c.alphaRef));
        CHECK(look.texture == l.set.looks[1].texture);  // the same texture as the texinfo's own look
    }
    SECTION("colour: rendercolor instead of the texture") {
        const Loaded l = loadAt(root / "maps" / "colour.bsp",
                                renderModeMap("\"rendermode\" \"1\"\n\"renderamt\" \"200\"\n\"rendercolor\" \"255 128 0\"\n"));
        const SurfaceLook& look = l.set.looks[size_t(l.world.surfaces[1].material)];
        CHECK(look.texture == -1);
        CHECK(look.unlit);
        CHECK(look.blend == BlendMode::Blend);
        CHECK(look.opacity == Approx(200 / 255.0f));
        CHECK(l.world.materials[2].reflectivity == Vec3{1.0f, 128 / 255.0f, 0.0f});
    }
    SECTION("rendermode 0 keeps the texinfo's material") {
        const Loaded normal = loadAt(root / "maps" / "normal.bsp", renderModeMap("\"rendermode\" \"0\"\n"));
        CHECK(normal.world.materials.size() == 2);
        CHECK(normal.world.surfaces[1].material == 1);
    }
}
