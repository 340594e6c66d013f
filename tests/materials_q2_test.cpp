// loadMaterials for Quake 2 on synthetic maps with game directories written here (.wal + PCX palettes, PNG
// replacements, sky faces), and with [maps] quakeless-ii_test1's PNGs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "luxel/bsp/decode.hpp"
#include "luxel/image/image.hpp"
#include "luxel/io/game_files.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/material/wal.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/render/camera.hpp"
#include "luxel/render/render.hpp"
#include "support/render_fixtures.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"
#include "support/decode_helpers.hpp"
#include "support/material_fixtures.hpp"
#include "support/q2_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;

namespace {

Palette testPalette() {
    Palette p{};
    for (int i = 0; i < 256; ++i) p[size_t(i)] = {uint8_t(i), uint8_t(255 - i), uint8_t((7 * i) & 255)};
    return p;
}

// An 8-bit PCX with a palette at its end (0x0C then 768 bytes of RGB); the image part is not read.
Bytes makePcx(const Palette& palette) {
    Bytes b(128, 0);
    b[0] = 0x0a, b[1] = 5, b[2] = 1, b[3] = 8;
    b[65] = 1;
    for (int i = 0; i < 8; ++i) b.push_back(0xc1);
    b.push_back(0x0c);
    for (const auto& c : palette) b.insert(b.end(), c.begin(), c.end());
    return b;
}

// A .wal of w x h (w, h multiples of 8) whose mip 0 texel i has palette index `first + i`; `next` is the
// next animation frame.
Bytes makeWal(const std::string& name, uint32_t w, uint32_t h, uint8_t first, const std::string& next = "") {
    LeWriter b;
    b.fixedString(name, 32);
    b.u32(w);
    b.u32(h);
    uint32_t offset = 100;
    for (int m = 0; m < 4; ++m) {
        b.u32(offset);
        offset += (w >> m) * (h >> m);
    }
    b.fixedString(next, 32);
    b.u32(0);
    b.u32(1);
    b.u32(0);
    for (int m = 0; m < 4; ++m)
        for (uint32_t i = 0; i < (w >> m) * (h >> m); ++i) b.u8(uint8_t(first + i));
    return b.bytes;
}

std::array<uint8_t, 4> paletteTexel(int index) {
    return {uint8_t(index), uint8_t(255 - index), uint8_t((7 * index) & 255), 255};
}

// Texinfo index -> name and flags of the synthetic Quake 2 map.
struct Q2Tex {
    std::string name;
    int32_t flags;
};
const std::vector<Q2Tex> kQ2Textures = {
    {"e1u1/floor1_1", 0},                // makeQ2FloorMap's texinfo 0: .wal only
    {"e1u1/both", 0},                    // .wal 8x8 and a 2x2 PNG: the PNG wins, the .wal's scale stays
    {"e1u1/pngonly", kQ2SurfWarp},       // PNG 4x2, warp
    {"e1u1/glass", kQ2SurfTrans33},      // .wal only
    {"e1u1/water", kQ2SurfTrans66},      // .wal only
    {"e1u1/anim1", 0},                   // .wal chain anim1 -> anim2 -> anim1
    {"e1u1/nothere", 0},
    {"e1u1/both", kQ2SurfFlowing},       // 7: the same image, flowing
    {"e1u1/both", kQ2SurfFlowing | kQ2SurfWarp | kQ2SurfTrans33},  // 8: flowing warped water
};

Bytes q2Map() {
    Q2MapBuilder b = makeQ2FloorMap();
    REQUIRE(b.texinfos.size() == 1);
    for (size_t i = 1; i < kQ2Textures.size(); ++i)
        b.addTexinfo({1, 0, 0, 0}, {0, 1, 0, 0}, kQ2Textures[i].flags, kQ2Textures[i].name);
    return b.build();
}

fs::path q2GameDir(const std::string& name) {
    const fs::path dir = tempDir(name);
    writeFile(dir / "textures/e1u1/floor1_1.wal", makeWal("e1u1/floor1_1", 8, 8, 0));
    writeFile(dir / "textures/e1u1/both.wal", makeWal("e1u1/both", 8, 8, 100));
    writePng(dir / "textures/e1u1/both.png", 2, 2, kWall);
    writePng(dir / "textures/e1u1/pngonly.png", 4, 2, {kWall[0], kWall[1], kWall[2], kWall[3], kWall[0], kWall[1], kWall[2], kWall[3]});
    writeFile(dir / "textures/e1u1/glass.wal", makeWal("e1u1/glass", 8, 8, 50));
    writeFile(dir / "textures/e1u1/water.wal", makeWal("e1u1/water", 8, 8, 60));
    writeFile(dir / "textures/e1u1/anim1.wal", makeWal("e1u1/anim1", 8, 8, 10, "e1u1/anim2"));
    writeFile(dir / "textures/e1u1/anim2.wal", makeWal("e1u1/anim2", 16, 8, 20, "e1u1/anim1"));
    writeFile(dir / "colormap.pcx", makePcx(testPalette()));
    return dir;
}

}  // namespace

TEST_CASE("Quake 2: .wal through the palette, PNG replacements win, flags become looks", "[materials]") {
    const fs::path dir = q2GameDir("materials-q2");
    const MapSource src = memorySource(q2Map(), "q2.bsp");
    const World world = decodeMap(src);
    REQUIRE(world.materials.size() == kQ2Textures.size());
    const MaterialSet set = loadMaterials(world, src, {{dir.string()}, (dir / "colormap.pcx").string(), 0.5f});
    CHECK(set.textureGamma == 1.0f);

    const Texture& floor = textureOf(set, 0);
    REQUIRE(floor.width() == 8);
    const auto texels = level0(floor);
    for (int i : {0, 9, 63}) CHECK(texels[size_t(i)] == paletteTexel(i));
    CHECK(set.looks[0].tcScale.x == 1.0f / 8);

    CHECK(level0(textureOf(set, 1)) == kWall);
    CHECK(set.looks[1].tcScale.x == 1.0f / 8);  // texUV are .wal texels: the replacement keeps that scale
    CHECK(set.looks[1].tcScale.y == 1.0f / 8);

    CHECK(textureOf(set, 2).width() == 4);
    CHECK(set.looks[2].tcScale.x == 1.0f / 4);
    CHECK(set.looks[2].tcScale.y == 1.0f / 2);
    CHECK(set.looks[2].unlit);

    CHECK(set.looks[3].blend == BlendMode::Blend);
    CHECK(set.looks[3].opacity == 0.33f);
    CHECK(level0(textureOf(set, 3))[0] == paletteTexel(50));
    CHECK(set.looks[4].opacity == 0.66f);

    // time 0.5 s at 2 frames/s: frame 1 of the 2-frame chain = anim2 (16 wide, first index 20).
    CHECK(textureOf(set, 5).width() == 16);
    CHECK(level0(textureOf(set, 5))[0] == paletteTexel(20));
    CHECK(set.looks[5].tcScale.x == 1.0f / 16);

    CHECK(set.looks[6].missing);
    CHECK(set.missing == std::vector<std::string>{"e1u1/nothere"});

    // Warped: one full-bright stage, coordinates turbulent and / 64 (EmitWaterPolys), no lightmap.
    REQUIRE(set.looks[2].program);
    REQUIRE(set.looks[2].program->stages.size() == 1);
    const MaterialStage& warp = set.looks[2].program->stages[0];
    CHECK(warp.texGen == MaterialStage::TexGen::Quake2Warp);
    CHECK(warp.warpTime == 0.5);
    CHECK(warp.affine[0] == 1.0f / 64);
    CHECK(warp.affine[4] == 0.0f);
    CHECK_FALSE(warp.blends);
    // Flowing: lightmap x texture (its .wal scale), s moved by -64 frac(t / 40) widths: t = 0.5 -> -0.8 -> 0.2.
    REQUIRE(set.looks[7].program);
    const auto& flow = set.looks[7].program->stages;
    REQUIRE(flow.size() == 2);
    CHECK(flow[0].source == MaterialStage::Source::Lightmap);
    CHECK(flow[1].src == BlendFactor::DstColor);
    CHECK(flow[1].affine[0] == 1.0f / 8);
    CHECK(flow[1].affine[4] == Approx(0.2f).margin(1e-6));
    // Flowing warped trans33: scroll -64 frac(t / 2) texels -> / 64: -0.25 -> 0.75; blended at 0.33, unlit.
    REQUIRE(set.looks[8].program);
    const auto& water = set.looks[8].program->stages;
    REQUIRE(water.size() == 1);
    CHECK(water[0].affine[4] == Approx(0.75f).margin(1e-6));
    CHECK(water[0].src == BlendFactor::SrcAlpha);
    CHECK(water[0].alphaConstant == 0.33f);
}

TEST_CASE("Quake 2: a flowing floor at time 0 (a program) draws what the plain floor (one texture) draws", "[materials]") {
    // At t = 0 DrawGLFlowingPoly's scroll is -64 widths: no visible shift, so the lightmap x texture program
    // and the one-texture look must agree pixel for pixel; at t = 10 s the s shift is frac(-64 x 0.25) = 0
    // again, and at t = 1 s it is 0.4 of the texture: a different picture.
    const fs::path dir = q2GameDir("materials-q2-flow");
    auto frame = [&](int32_t flags, float time) {
        Q2MapBuilder b = makeQ2FloorMap();
        b.texinfos.at(0).flags = flags;
        const MapSource src = memorySource(b.build(), "q2.bsp");
        const World world = decodeMap(src);
        const Geometry g = tessellate(world);
        const MaterialSet set = loadMaterials(world, src, {{dir.string()}, (dir / "colormap.pcx").string(), time});
        REQUIRE(bool(set.looks[0].program) == (flags != 0));
        RenderOptions o;
        o.mode = RenderMode::Lit;
        o.materials = &set;
        o.usePvs = false;
        return renderFrame(world, g, makeCamera({32, 16, 40}, {90, 0, 0}, 48, 48), o);
    };
    const Image plain = frame(0, 0);
    size_t covered = 0;
    auto maxDiff = [&](const Image& a) {
        float m = 0;
        for (size_t i = 0; i < a.pixels.size(); ++i) m = std::max(m, std::abs(a.pixels[i] - plain.pixels[i]));
        return m;
    };
    for (float v : plain.pixels) covered += v > 0 ? 1 : 0;
    CHECK(covered > plain.pixels.size() / 4);
    CHECK(maxDiff(frame(kQ2SurfFlowing, 0)) < 1e-5f);
    CHECK(maxDiff(frame(kQ2SurfFlowing, 10)) < 1e-5f);
    CHECK(maxDiff(frame(kQ2SurfFlowing, 1)) > 0.01f);
}

TEST_CASE("Quake 2: without a palette .wal-only textures are missing with one warning", "[materials]") {
    const fs::path dir = q2GameDir("materials-q2-nopal");
    const MapSource src = memorySource(q2Map(), "q2.bsp");
    const World world = decodeMap(src);
    const MaterialSet set = loadMaterials(world, src, {{dir.string()}, "", 0});
    CHECK(set.looks[0].missing);
    CHECK(level0(textureOf(set, 1)) == kWall);  // PNGs need no palette
    CHECK(set.missing ==
          std::vector<std::string>{"e1u1/anim1", "e1u1/floor1_1", "e1u1/glass", "e1u1/nothere", "e1u1/water"});
    CHECK(std::count_if(set.warnings.begin(), set.warnings.end(), [](const std::string& w) {
              return w.find("--palette") != std::string::npos;
          }) == 1);
    CHECK_THROWS_AS(loadMaterials(world, src, {{dir.string()}, (dir / "none.pcx").string(), 0}), UsageError);
}

TEST_CASE("Quake 2: quakeless-ii_test1 finds its PNGs", "[materials][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const std::string textures = *sharedMaps() + "/q2/quakeless-ii_textures";
    const MapSource src = openMapPath(*sharedMaps() + "/q2/quakeless-ii_test1.bsp");
    const World world = decodeMap(src);
    const MaterialSet set = loadMaterials(world, src, {{textures}, "", 0});
    size_t expected = 0, found = 0;
    for (size_t i = 0; i < world.materials.size(); ++i) {
        const Material& m = world.materials[i];
        if (m.flags & (kMaterialNoDraw | kMaterialSky)) continue;
        const bool exists = fs::exists(textures + "/" + m.name + ".png");
        expected += exists;
        found += set.looks[i].texture >= 0;
        INFO(m.name);
        CHECK((set.looks[i].texture >= 0) == exists);
        if (exists) {
            const Image png = readImage(textures + "/" + m.name + ".png");
            CHECK(textureOf(set, i).width() == png.width);
            CHECK(set.looks[i].tcScale.x == 1.0f / float(png.width));
        }
    }
    CHECK(expected > 0);
    CHECK(found == expected);
}

TEST_CASE("Quake 2: the worldspawn sky key loads env/NAME{rt,bk,lf,ft,up,dn}.pcx faces", "[materials]") {
    const fs::path dir = q2GameDir("materials-q2-sky");
    // Each face a 1x1 8-bit PCX whose one pixel is palette index 10 + face (RLE: a run of one).
    static const char* const kSuffix[6] = {"rt", "bk", "lf", "ft", "up", "dn"};
    for (int k = 0; k < 6; ++k) {
        Bytes b(128, 0);
        b[0] = 0x0a, b[1] = 5, b[2] = 1, b[3] = 8, b[65] = 1, b[66] = 1;  // window 0,0..0,0; 1 byte per line
        b.push_back(0xc1);
        b.push_back(uint8_t(10 + k));
        b.push_back(0x0c);
        for (const auto& c : testPalette()) b.insert(b.end(), c.begin(), c.end());
        writeFile(dir / ("env/unit1_" + std::string(kSuffix[k]) + ".pcx"), b);
    }
    Q2MapBuilder builder = makeQ2FloorMap();
    builder.entities = "{\n\"classname\" \"worldspawn\"\n\"sky\" \"unit1_\"\n}\n";
    const MapSource src = memorySource(builder.build(), "q2sky.bsp");
    const World world = decodeMap(src);
    const MaterialSet set = loadMaterials(world, src, {{dir.string()}, "", 0});
    REQUIRE(set.skies.at(0).present());
    for (int k = 0; k < 6; ++k) {
        INFO(kSuffix[k]);
        REQUIRE(set.skies.at(0).faces[size_t(k)] >= 0);
        CHECK(level0(*set.textures[size_t(set.skies.at(0).faces[size_t(k)])])[0] == paletteTexel(10 + k));
    }
    CHECK_FALSE(set.skies.at(0).rotated);
    // skyrotate 45 (degrees a second) about skyaxis 0 0 2 at t = 2: the box turned by 90 degrees about +Z, so a
    // direction d looks up the box at R(-90) d: +X -> -Y, +Y -> +X, +Z stays.
    builder.entities = "{\n\"classname\" \"worldspawn\"\n\"sky\" \"unit1_\"\n\"skyrotate\" \"45\"\n\"skyaxis\" \"0 0 2\"\n}\n";
    const MapSource rotatedSrc = memorySource(builder.build(), "q2sky2.bsp");
    const World rotatedWorld = decodeMap(rotatedSrc);
    const MaterialSet rotated = loadMaterials(rotatedWorld, rotatedSrc, {{dir.string()}, "", 2});
    REQUIRE(rotated.skies.at(0).rotated);
    const float want[9] = {0, 1, 0, -1, 0, 0, 0, 0, 1};
    for (int i = 0; i < 9; ++i) CHECK(rotated.skies.at(0).toBox[i] == Approx(want[i]).margin(1e-6));
}
