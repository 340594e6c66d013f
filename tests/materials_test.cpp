// loadMaterials on synthetic maps with game directories written here (images with known texels, shader
// scripts, .wal + PCX palettes), and with [maps] on real maps and game data.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

#include "luxel/bsp/decode.hpp"
#include "luxel/image/image.hpp"
#include "luxel/io/game_files.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/material/vtf.hpp"
#include "luxel/material/wal.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/render/camera.hpp"
#include "luxel/render/render.hpp"
#include "support/render_fixtures.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"
#include "../src/material/texture_cache.hpp"
#include "support/decode_helpers.hpp"
#include "support/q2_writer.hpp"
#include "support/q3_writer.hpp"
#include "support/test_paths.hpp"
#include "support/vbsp_writer.hpp"
#include "support/zip_writer.hpp"

#include <zip.h>

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;

namespace {

void writeText(const fs::path& path, const std::string& text) { writeFile(path, Bytes(text.begin(), text.end())); }

// An uncompressed 32-bit TGA (type 2) with the standard bottom-left origin: the first stored row is the
// BOTTOM row of the picture. `topDown` is the picture as RGBA rows from the top.
Bytes makeTga(int w, int h, const std::vector<std::array<uint8_t, 4>>& topDown) {
    Bytes b(18, 0);
    b[2] = 2;
    b[12] = uint8_t(w), b[13] = uint8_t(w >> 8), b[14] = uint8_t(h), b[15] = uint8_t(h >> 8);
    b[16] = 32;
    b[17] = 8;  // 8 alpha bits, origin bottom-left
    for (int y = h - 1; y >= 0; --y)
        for (int x = 0; x < w; ++x) {
            const auto& p = topDown[size_t(y * w + x)];
            for (uint8_t v : {p[2], p[1], p[0], p[3]}) b.push_back(v);  // BGRA
        }
    return b;
}

// A PNG of RGBA bytes, through writeImage (8-bit, round to nearest of byte / 255: exact).
void writePng(const fs::path& path, int w, int h, const std::vector<std::array<uint8_t, 4>>& rgba) {
    fs::create_directories(path.parent_path());
    Image img(w, h, 4);
    for (size_t i = 0; i < rgba.size(); ++i)
        for (size_t c = 0; c < 4; ++c) img.pixels[i * 4 + c] = float(rgba[i][c]) / 255.0f;
    writeImage(path.string(), img);
}

std::vector<std::array<uint8_t, 4>> level0(const Texture& t) {
    std::vector<std::array<uint8_t, 4>> out;
    const RgbaImage& m = t.mips.at(0);
    for (size_t i = 0; i + 3 < m.rgba.size(); i += 4) out.push_back({m.rgba[i], m.rgba[i + 1], m.rgba[i + 2], m.rgba[i + 3]});
    return out;
}

const Texture& textureOf(const MaterialSet& set, size_t material) {
    const int32_t t = set.looks.at(material).texture;
    REQUIRE(t >= 0);
    REQUIRE(size_t(t) < set.textures.size());
    return *set.textures[size_t(t)];
}

const std::vector<std::array<uint8_t, 4>> kWall = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {10, 20, 30, 255}};
const std::vector<std::array<uint8_t, 4>> kPhoto = {{1, 2, 3, 255}, {250, 251, 252, 255}, {0, 0, 0, 255}, {128, 127, 126, 255}};
const std::vector<std::array<uint8_t, 4>> kPic = {{200, 100, 50, 0}, {1, 2, 3, 128}, {4, 5, 6, 127}, {7, 8, 9, 255}};

const char* const kShaders = R"(
textures/luxel/glass
{
    cull none
    { map textures/luxel/pic.png
      blendFunc blend }
}
textures/luxel/fence
{
    { map textures/luxel/pic.png
      alphaFunc GE128
      depthWrite }
    { map $lightmap
      blendFunc filter }
}
textures/luxel/flame
{
    { map textures/luxel/pic.tga
      blendFunc add }
}
textures/luxel/caulk
{
    surfaceparm nodraw
}
textures/luxel/space
{
    surfaceparm sky
    skyParms env/space 512 -
}
textures/luxel/decal
{
    polygonOffset
    { map $lightmap }
    { map textures/luxel/photo.jpg
      blendFunc filter
      tcMod scale 2 3
      rgbGen vertex }
}
textures/luxel/anim
{
    { animMap 2 textures/luxel/a.tga textures/luxel/b.tga }
    { map $lightmap
      blendFunc filter }
}
textures/luxel/fogvol
{
    surfaceparm fog
    surfaceparm trans
    fogparms ( 1 0 0 ) 512
}
textures/luxel/lt
{
    { map textures/luxel/pic.png
      alphaFunc LT128 }
}
)";

// Material index -> name in the synthetic Quake 3 map.
const std::vector<std::string> kQ3Names = {"textures/luxel/wall",  "textures/luxel/glass", "textures/luxel/fence",
                                           "textures/luxel/flame", "textures/luxel/caulk", "textures/luxel/space",
                                           "textures/luxel/decal", "textures/luxel/anim",  "textures/luxel/fogvol",
                                           "textures/luxel/lt",    "textures/luxel/nothere"};

// A one-room map (texture 0 = textures/luxel/wall on every wall) listing every material of kQ3Names.
Bytes q3Map() {
    Q3MapBuilder b = makeRoomMap();
    REQUIRE(b.textures.size() == 1);
    REQUIRE(b.textures[0].name == kQ3Names[0]);
    for (size_t i = 1; i < kQ3Names.size(); ++i) b.addTexture(kQ3Names[i]);
    return b.build();
}

// A Quake 3 game dir: wall.tga (kWall), pic.tga (kPic, with alpha), photo.png (kPhoto), anim frames a/b (1x1), a sky box.
fs::path q3GameDir(const std::string& name) {
    const fs::path dir = tempDir(name);
    writeFile(dir / "textures/luxel/wall.tga", makeTga(2, 2, kWall));
    writeFile(dir / "textures/luxel/pic.tga", makeTga(2, 2, kPic));  // alpha: exact in a hand-made TGA
    writePng(dir / "textures/luxel/photo.png", 2, 2, kPhoto);
    writeFile(dir / "textures/luxel/a.tga", makeTga(1, 1, {{1, 1, 1, 255}}));
    writeFile(dir / "textures/luxel/b.tga", makeTga(1, 1, {{2, 2, 2, 255}}));
    const char* faces[6] = {"rt", "bk", "lf", "ft", "up", "dn"};
    for (int k = 0; k < 6; ++k)
        writeFile(dir / ("env/space_" + std::string(faces[k]) + ".tga"), makeTga(1, 1, {{uint8_t(10 * k), 0, 0, 255}}));
    writeText(dir / "scripts/luxel.shader", kShaders);
    return dir;
}

MaterialSet loadQ3(const Bytes& map, const MaterialOptions& options, const std::string& name = "room.bsp") {
    const MapSource src = memorySource(map, name);
    return loadMaterials(decodeMap(src), src, options);
}

}  // namespace

TEST_CASE("Quake 3: textures decode to the file's texels and shader keywords become looks", "[materials]") {
    const fs::path dir = q3GameDir("materials-q3");
    MaterialOptions options;
    options.gameDirs = {dir.string()};
    options.time = 0.75f;  // animMap 2 Hz: floor(1.5) % 2 = frame 1 (b.tga)
    const MaterialSet set = loadQ3(q3Map(), options);
    REQUIRE(set.looks.size() == kQ3Names.size());
    CHECK(set.textureGamma == 1.0f);

    // wall: implicit shader (no script names it) = the image times the lightmap; TGA rows were stored bottom-up.
    const SurfaceLook& wall = set.looks[0];
    CHECK(level0(textureOf(set, 0)) == kWall);
    CHECK(textureOf(set, 0).width() == 2);
    CHECK(textureOf(set, 0).mips.size() == 2);  // 2x2, 1x1
    CHECK(wall.blend == BlendMode::Opaque);
    CHECK_FALSE(wall.unlit);
    CHECK_FALSE(wall.missing);

    const SurfaceLook& glass = set.looks[1];
    CHECK(level0(textureOf(set, 1)) == kPic);
    CHECK(textureOf(set, 1).hasAlpha);
    CHECK(glass.blend == BlendMode::Blend);
    CHECK(glass.twoSided);
    CHECK(glass.unlit);  // no $lightmap stage, no rgbGen vertex

    const SurfaceLook& fence = set.looks[2];
    CHECK(fence.blend == BlendMode::AlphaTest);
    CHECK(fence.alphaRef == 0.5f);
    CHECK_FALSE(fence.unlit);
    CHECK(fence.texture == glass.texture);  // one file ("pic.png" found as pic.tga), one texture

    const SurfaceLook& flame = set.looks[3];
    CHECK(flame.blend == BlendMode::Additive);
    CHECK(flame.unlit);
    CHECK(flame.texture == glass.texture);

    CHECK(set.looks[4].hidden);
    CHECK(set.looks[4].texture == -1);
    CHECK(set.looks[5].sky);
    REQUIRE(set.sky.present());
    for (int k = 0; k < 6; ++k) {
        REQUIRE(set.sky.faces[size_t(k)] >= 0);
        CHECK(level0(*set.textures[size_t(set.sky.faces[size_t(k)])]) ==
              std::vector<std::array<uint8_t, 4>>{{uint8_t(10 * k), 0, 0, 255}});
    }

    const SurfaceLook& decal = set.looks[6];
    CHECK(decal.polygonOffset);
    CHECK(decal.vertexColor);
    CHECK(decal.tcScale.x == 2.0f);
    CHECK(decal.tcScale.y == 3.0f);
    CHECK(level0(textureOf(set, 6)) == kPhoto);  // "photo.jpg" found as photo.png
    CHECK(decal.blend == BlendMode::Opaque);  // stage 0 is the opaque lightmap

    CHECK(level0(textureOf(set, 7)) == std::vector<std::array<uint8_t, 4>>{{2, 2, 2, 255}});

    // A fog volume's shader: not hidden, drawn as its fog pass (blended, sort SS_FOG).
    CHECK_FALSE(set.looks[8].hidden);
    CHECK(set.looks[8].fogVolume);
    CHECK(set.looks[8].blend == BlendMode::Blend);
    CHECK(set.looks[8].sort == 7);
    CHECK(set.fogShaders == std::vector<std::string>{"textures/luxel/fogvol"});

    CHECK(set.looks[9].blend == BlendMode::AlphaTest);
    CHECK(set.looks[9].alphaRef == 0.5f);
    CHECK(std::count_if(set.warnings.begin(), set.warnings.end(),
                        [](const std::string& w) { return w.find("LT128") != std::string::npos; }) == 1);

    const SurfaceLook& none = set.looks[10];
    CHECK(none.missing);
    CHECK(none.texture == -1);
    CHECK(set.missing == std::vector<std::string>{"textures/luxel/nothere"});
}

TEST_CASE("Quake 3: alphaFunc GT0 keeps every texel above zero alpha; time 0 shows the first anim frame",
          "[materials]") {
    const fs::path dir = q3GameDir("materials-q3-gt0");
    writeText(dir / "scripts/luxel.shader",
              "textures/luxel/glass\n{\n { map textures/luxel/pic.tga\n alphaFunc GT0 }\n}\n" + std::string(kShaders));
    const MaterialSet set = loadQ3(q3Map(), {{dir.string()}, "", 0.0f});
    CHECK(set.looks[1].blend == BlendMode::AlphaTest);  // first definition in a file wins
    CHECK(set.looks[1].alphaRef == 1.0f / 255.0f);
    CHECK(level0(textureOf(set, 7)) == std::vector<std::array<uint8_t, 4>>{{1, 1, 1, 255}});
}

TEST_CASE("Quake 3: shadows as q3map2 casts them: alphashadow through alpha, translucent none, alphaFunc whole",
          "[materials]") {
    const fs::path dir = q3GameDir("materials-q3-shadow");
    // Earlier definitions win: glass becomes an alphashadow grate, flame a trans one, decal water, anim a
    // trans lightfilter; fence keeps kShaders' alphaFunc GE128 without alphashadow.
    writeText(dir / "scripts/luxel.shader",
              "textures/luxel/glass\n{\n surfaceparm alphashadow\n { map textures/luxel/pic.tga\n alphaFunc GE128 }\n}\n"
              "textures/luxel/flame\n{\n surfaceparm trans\n { map textures/luxel/pic.tga\n blendFunc add }\n}\n"
              "textures/luxel/decal\n{\n surfaceparm water\n { map textures/luxel/pic.tga }\n}\n"
              "textures/luxel/anim\n{\n surfaceparm trans\n surfaceparm lightfilter\n { map textures/luxel/pic.tga }\n}\n" +
                  std::string(kShaders));
    const MaterialSet set = loadQ3(q3Map(), {{dir.string()}, "", 0.0f});
    CHECK(set.looks[0].shadow == ShadowCast::Opaque);  // wall: no script
    CHECK(set.looks[1].shadow == ShadowCast::AlphaTexture);
    CHECK(level0(textureOf(set, 1)) == kPic);  // the texture whose alpha the shadow rays read
    CHECK(set.looks[2].shadow == ShadowCast::Opaque);
    CHECK(set.looks[3].shadow == ShadowCast::None);
    CHECK(set.looks[6].shadow == ShadowCast::None);
    CHECK(set.looks[7].shadow == ShadowCast::Opaque);
}

TEST_CASE("Quake 3: a map in <dir>/maps/ finds its game dir's files; --game-dir dirs come first", "[materials]") {
    const fs::path dir = q3GameDir("materials-q3-mapsdir");
    writeFile(dir / "maps/room.bsp", q3Map());
    const MapSource src = openMapPath((dir / "maps/room.bsp").string());
    const World world = decodeMap(src);
    const MaterialSet own = loadMaterials(world, src, {});
    CHECK(level0(textureOf(own, 0)) == kWall);
    CHECK(own.missing == std::vector<std::string>{"textures/luxel/nothere"});

    const fs::path other = tempDir("materials-q3-other");
    const std::vector<std::array<uint8_t, 4>> otherWall = {{9, 9, 9, 255}};
    writeFile(other / "textures/luxel/wall.tga", makeTga(1, 1, otherWall));
    const MaterialSet withDir = loadMaterials(world, src, {{other.string()}, "", 0});
    CHECK(level0(textureOf(withDir, 0)) == otherWall);
    CHECK(withDir.looks[1].blend == BlendMode::Blend);  // shaders still come from the map's own game dir
}

TEST_CASE("Quake 3: no game data -> every texture missing, drawn grey, no exception", "[materials]") {
    const MaterialSet set = loadQ3(q3Map(), {});
    CHECK(set.textures.empty());
    CHECK(set.looks[0].missing);
    CHECK(set.missing.size() == kQ3Names.size());  // no scripts: every name is an implicit image shader
    CHECK(std::is_sorted(set.missing.begin(), set.missing.end()));
}

TEST_CASE("texture cache: loading a map again decodes nothing", "[materials]") {
    const fs::path dir = q3GameDir("materials-cache");
    const Bytes map = q3Map();
    const size_t before = textureDecodeCount();
    const MaterialSet first = loadQ3(map, {{dir.string()}, "", 0});
    const size_t afterFirst = textureDecodeCount();
    // wall.tga, pic.tga, photo.png, a.tga and the 6 sky faces: files of this fresh dir, none cached yet.
    CHECK(afterFirst - before == 10);
    const MaterialSet second = loadQ3(map, {{dir.string()}, "", 0});
    CHECK(textureDecodeCount() == afterFirst);
    REQUIRE(second.textures.size() == first.textures.size());
    for (size_t i = 0; i < first.textures.size(); ++i) CHECK(second.textures[i] == first.textures[i]);
}

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

TEST_CASE("Source: the pakfile is kept; materials outside it are listed, not grey", "[materials][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const MapSource src = openMapPath(*sharedMaps() + "/source/sdk2013ce_sdk_vehicles_v20.bsp");
    const World world = decodeMap(src);
    // The header's lump 40 entry (offset, length at 8 + 16 * 40), read independently of the decoder.
    const uint32_t offset = le32(src.bytes, 8 + 16 * 40), length = le32(src.bytes, 8 + 16 * 40 + 4);
    REQUIRE(length > 0);
    CHECK(world.embeddedArchive == Bytes(src.bytes.begin() + offset, src.bytes.begin() + offset + length));

    // Its pakfile holds only a displacement patch material and cubemaps; the base materials live in the
    // game's VPKs, which are not here.
    const MaterialSet set = loadMaterials(world, src, {});
    CHECK(set.textureGamma == 2.2f);
    CHECK(set.textures.empty());
    for (size_t i = 0; i < world.materials.size(); ++i) CHECK_FALSE(set.looks[i].missing);
    CHECK(std::find(set.missing.begin(), set.missing.end(), "CONCRETE/CONCRETEWALL002A") != set.missing.end());
    for (size_t i = 0; i < world.materials.size(); ++i)
        if (world.materials[i].flags & kMaterialNoDraw && world.materials[i].name.rfind("TOOLS/", 0) == 0)
            CHECK(set.looks[i].hidden);
}

TEST_CASE("OpenArena: ctf_compromise finds nearly every texture in baseoa", "[materials][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const std::string baseoa = "/usr/share/games/openarena/baseoa";
    if (!fs::is_directory(baseoa)) {
        WARN("SKIPPED: " << baseoa << " not installed (apt-get install openarena-data)");
        return;
    }
    const MapSource src = openMapPath(*sharedMaps() + "/q3/oa085_ctf_compromise.bsp");
    const World world = decodeMap(src);
    const MaterialSet set = loadMaterials(world, src, {{baseoa}, "", 0});
    size_t surfaces = 0, missing = 0;
    for (const Surface& s : world.surfaces) {
        if (s.material < 0) continue;
        ++surfaces;
        missing += set.looks[size_t(s.material)].missing;
    }
    INFO(missing << " of " << surfaces << " surfaces; missing: " << set.missing.size());
    REQUIRE(surfaces > 1000);
    CHECK(double(missing) < 0.02 * double(surfaces));
    CHECK(set.textures.size() > 20);
    for (const auto& t : set.textures) CHECK(t->width() > 0);
}

namespace {

// A zip in memory (tests/support/zip_writer.hpp) from members' bytes.
Bytes makeZip(const std::vector<std::pair<std::string, Bytes>>& members) {
    std::vector<test::ZipMember> zm;
    for (const auto& [name, content] : members) zm.push_back({name, std::string(content.begin(), content.end())});
    return test::makeZip(zm);
}

Bytes textBytes(const std::string& s) { return Bytes(s.begin(), s.end()); }


}  // namespace

TEST_CASE("Source: pakfile materials (patches resolved) and their VTFs become looks", "[materials][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    // The real map with its pakfile replaced: CONCRETE/CONCRETEWALL002A gets a translucent material and a
    // 2x2 texture; METAL/METALWALL005B a patch of it adding $nocull and $alphatest.
    VbspFile file = readVbsp(readFile(*sharedMaps() + "/source/sdk2013ce_sdk_vehicles_v20.bsp"));
    file.lumps[40] = makeZip({
        {"materials/concrete/concretewall002a.vmt",
         textBytes("\"LightmappedGeneric\"\n{\n \"$basetexture\" \"Concrete/Test\"\n \"$translucent\" 1\n}\n")},
        {"materials/concrete/test.vtf", makeVtf2x2(kPic)},
        {"materials/metal/metalwall005b.vmt",
         textBytes("patch\n{\n include \"materials/concrete/concretewall002a.vmt\"\n insert\n {\n  $nocull 1\n"
                   "  $alphatest 1\n  $alphatestreference 0.25\n }\n}\n")},
    });
    const MapSource src = memorySource(writeVbsp(file), "vehicles.bsp");
    const World world = decodeMap(src);
    const MaterialSet set = loadMaterials(world, src, {});
    size_t concrete = 0, metal = 0;
    for (size_t i = 0; i < world.materials.size(); ++i) {
        const std::string& name = world.materials[i].name;
        const SurfaceLook& look = set.looks[i];
        if (name == "CONCRETE/CONCRETEWALL002A") {
            ++concrete;
            CHECK(level0(textureOf(set, i)) == kPic);
            CHECK(look.blend == BlendMode::Blend);
            CHECK_FALSE(look.twoSided);
        } else if (name == "METAL/METALWALL005B") {
            ++metal;
            CHECK(look.texture == set.looks[i].texture);
            CHECK(level0(textureOf(set, i)) == kPic);
            CHECK(look.twoSided);
            // translucent wins over alphatest, as in the engine
            CHECK(look.blend == BlendMode::Blend);
        } else if (name.rfind("TOOLS/", 0) == 0 && (world.materials[i].flags & kMaterialNoDraw)) {
            CHECK(look.hidden);
        } else if (!(world.materials[i].flags & kMaterialSky)) {
            CHECK(look.texture == -1);
            CHECK_FALSE(look.missing);  // the texdata reflectivity stays: no grey
        }
    }
    CHECK(concrete > 0);
    CHECK(metal > 0);
    CHECK(set.textures.size() == 1);
    CHECK(std::find(set.missing.begin(), set.missing.end(), "CONCRETE/CONCRETEWALL002A") == set.missing.end());
    CHECK(std::find(set.missing.begin(), set.missing.end(), "METAL/METALFLOOR002A") != set.missing.end());
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
    REQUIRE(set.sky.present());
    for (int k = 0; k < 6; ++k) {
        INFO(kSuffix[k]);
        REQUIRE(set.sky.faces[size_t(k)] >= 0);
        CHECK(level0(*set.textures[size_t(set.sky.faces[size_t(k)])])[0] == paletteTexel(10 + k));
    }
    CHECK_FALSE(set.sky.rotated);
    // skyrotate 45 (degrees a second) about skyaxis 0 0 2 at t = 2: the box turned by 90 degrees about +Z, so a
    // direction d looks up the box at R(-90) d: +X -> -Y, +Y -> +X, +Z stays.
    builder.entities = "{\n\"classname\" \"worldspawn\"\n\"sky\" \"unit1_\"\n\"skyrotate\" \"45\"\n\"skyaxis\" \"0 0 2\"\n}\n";
    const MapSource rotatedSrc = memorySource(builder.build(), "q2sky2.bsp");
    const World rotatedWorld = decodeMap(rotatedSrc);
    const MaterialSet rotated = loadMaterials(rotatedWorld, rotatedSrc, {{dir.string()}, "", 2});
    REQUIRE(rotated.sky.rotated);
    const float want[9] = {0, 1, 0, -1, 0, 0, 0, 0, 1};
    for (int i = 0; i < 9; ++i) CHECK(rotated.sky.toBox[i] == Approx(want[i]).margin(1e-6));
}

TEST_CASE("Source: $detail (mod2x) and $selfillum as stages, cross-checked against the one-texture look", "[materials][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    // Every texdata of the real map gets one material: a 2x2 base of alpha `alpha`, plus the VMT lines `extra`.
    const VbspFile original = readVbsp(readFile(*sharedMaps() + "/source/sdk2013ce_sdk_vehicles_v20.bsp"));
    const World plainWorld = decodeMap(memorySource(writeVbsp(original), "vehicles.bsp"));
    auto frame = [&](uint8_t alpha, const std::string& extra, bool program) {
        VbspFile file = original;
        std::vector<std::pair<std::string, Bytes>> entries;
        const std::vector<std::array<uint8_t, 4>> base = {{200, 100, 50, alpha}, {60, 160, 90, alpha}, {120, 30, 220, alpha},
                                                           {90, 90, 90, alpha}};
        entries.push_back({"materials/luxel/base.vtf", makeVtf2x2(base)});
        entries.push_back({"materials/luxel/grey.vtf", makeVtf2x2({{128, 128, 128, 255}, {128, 128, 128, 255},
                                                                    {128, 128, 128, 255}, {128, 128, 128, 255}})});
        std::set<std::string> names;
        for (const Material& m : plainWorld.materials) names.insert("materials/" + toLowerAscii(m.name) + ".vmt");
        for (const std::string& name : names)
            entries.push_back({name, textBytes("\"LightmappedGeneric\"\n{\n \"$basetexture\" \"luxel/base\"\n" + extra + "}\n")});
        file.lumps[40] = makeZip(entries);
        const MapSource src = memorySource(writeVbsp(file), "vehicles.bsp");
        const World world = decodeMap(src);
        const Geometry g = tessellate(world);
        const MaterialSet set = loadMaterials(world, src, {});
        size_t programs = 0;
        REQUIRE(set.textures.size() == (extra.find("$detail") != std::string::npos ? 2u : 1u));
        for (const SurfaceLook& l : set.looks) programs += l.program ? 1 : 0;
        CHECK((programs > 0) == program);
        RenderOptions o;
        o.mode = RenderMode::Lit;
        o.materials = &set;
        o.usePvs = false;
        return renderFrame(world, g, resolveCamera(world, g, "spawn", 160, 90).camera, o);
    };
    const Image plain = frame(255, "", false);
    size_t lit = 0;
    for (float v : plain.pixels) lit += v > 0.02f ? 1 : 0;
    REQUIRE(lit > plain.pixels.size() / 4);
    auto compare = [&](const Image& img, float factor, float margin) {
        float worst = 0;
        for (size_t i = 0; i < img.pixels.size(); ++i)
            worst = std::max(worst, std::abs(img.pixels[i] - std::min(1.0f, plain.pixels[i] * factor)));
        INFO("largest difference " << worst);
        return worst <= margin;
    };
    // A detail of bytes 128 (read as bytes: 128 / 255) doubles to 1.0039: the picture scaled by that (before the
    // look's gamma, 2.2 on Source: 1.0039^(1 / 2.2) = 1.0018 after it), give or take the framebuffer's rounding.
    CHECK(compare(frame(255, " \"$detail\" \"luxel/grey\"\n \"$detailscale\" \"3\"\n", true), std::pow(256.0f / 255.0f, 1 / 2.2f), 2e-3f));
    // Self-illumination fades to base x tint by the base's alpha: alpha 0 changes nothing (up to the rounding of
    // the two paths' different float operations).
    CHECK(compare(frame(0, " \"$selfillum\" \"1\"\n \"$selfillumtint\" \"[0 0 0]\"\n", true), 1.0f, 5e-5f));
    // Alpha 1 with a black tint: black wherever the material is; the sky (not this material) stays as it was.
    const Image black = frame(255, " \"$selfillum\" \"1\"\n \"$selfillumtint\" \"[0 0 0]\"\n", true);
    size_t blackened = 0, other = 0;
    for (size_t i = 0; i + 2 < black.pixels.size(); i += 3) {
        const bool zero = black.pixels[i] == 0 && black.pixels[i + 1] == 0 && black.pixels[i + 2] == 0;
        const bool same = black.pixels[i] == plain.pixels[i] && black.pixels[i + 1] == plain.pixels[i + 1] &&
                          black.pixels[i + 2] == plain.pixels[i + 2];
        blackened += zero && !same ? 1 : 0;
        other += !zero && !same ? 1 : 0;
    }
    CHECK(blackened > black.pixels.size() / 3 / 4);
    CHECK(other == 0);
}

TEST_CASE("Source: skyname faces, the _hdr variant per face in HDR, and Water fog parameters", "[materials][maps][sky]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    // The TF2 lobby map (HDR and LDR lighting, skyname sky_tf2_04) with a pakfile of sky faces: every face has an
    // LDR material (colour 40 k, 10, 200 for face k); rt bk lf also an _hdr one with $hdrcompressedtexture
    // (texels r 128 g 64 b 0 a 128: linear r * a * 16 / 262144 = 1 and 0.5, stored as 255 * linear^(1/2.2) =
    // 255 and 186), ft an _hdr one with $hdrbasetexture; up and dn none (they fall back to LDR in HDR).
    VbspFile file = readVbsp(readFile(*sharedMaps() + "/source/bsptool_tf2_mp_lobby.bsp"));
    const World plain = decodeMap(memorySource(writeVbsp(file), "lobby.bsp"));
    REQUIRE(plain.hdrLighting);
    size_t wi = 0;  // the first drawn world material becomes water
    while (wi < plain.materials.size() && (plain.materials[wi].flags & (kMaterialNoDraw | kMaterialSky))) ++wi;
    REQUIRE(wi < plain.materials.size());
    const std::string water = toLowerAscii(plain.materials[wi].name);
    static const char* const kSuffix[6] = {"rt", "bk", "lf", "ft", "up", "dn"};
    std::vector<std::pair<std::string, Bytes>> entries;
    auto colour = [](int k) { return std::array<uint8_t, 4>{uint8_t(40 * k), 10, 200, 255}; };
    const std::array<uint8_t, 4> compressed{128, 64, 0, 128}, hdrBase{7, 77, 177, 255};
    for (int k = 0; k < 6; ++k) {
        const std::string s = kSuffix[k];
        entries.push_back({"materials/skybox/sky_tf2_04" + s + ".vmt",
                           textBytes("\"Sky\"\n{\n \"$basetexture\" \"skybox/ldr" + s + "\"\n}\n")});
        entries.push_back({"materials/skybox/ldr" + s + ".vtf", makeVtf2x2({colour(k), colour(k), colour(k), colour(k)})});
    }
    for (int k = 0; k < 3; ++k)
        entries.push_back({"materials/skybox/sky_tf2_04_hdr" + std::string(kSuffix[k]) + ".vmt",
                           textBytes("\"Sky\"\n{\n \"$hdrcompressedtexture\" \"skybox/packed\"\n \"$basetexture\" \"skybox/ldrrt\"\n}\n")});
    entries.push_back({"materials/skybox/packed.vtf", makeVtf2x2({compressed, compressed, compressed, compressed})});
    entries.push_back({"materials/skybox/sky_tf2_04_hdrft.vmt", textBytes("\"Sky\"\n{\n \"$hdrbasetexture\" \"skybox/hdrft\"\n}\n")});
    entries.push_back({"materials/skybox/hdrft.vtf", makeVtf2x2({hdrBase, hdrBase, hdrBase, hdrBase})});
    entries.push_back({"materials/" + water + ".vmt",
                       textBytes("\"Water\"\n{\n \"$fogenable\" 1\n \"$fogcolor\" \"{64 128 255}\"\n \"$fogstart\" 16\n \"$fogend\" 272\n}\n")});
    file.lumps[40] = makeZip(entries);
    const MapSource src = memorySource(writeVbsp(file), "lobby.bsp");
    auto faceTexel = [](const MaterialSet& set, int k) {
        REQUIRE(set.sky.faces[size_t(k)] >= 0);
        return level0(*set.textures[size_t(set.sky.faces[size_t(k)])])[0];
    };
    const World hdrWorld = decodeMap(src);
    const MaterialSet hdr = loadMaterials(hdrWorld, src, {});
    for (int k = 0; k < 3; ++k) CHECK(faceTexel(hdr, k) == std::array<uint8_t, 4>{255, 186, 0, 255});
    CHECK(faceTexel(hdr, 3) == hdrBase);
    CHECK(faceTexel(hdr, 4) == colour(4));
    CHECK(faceTexel(hdr, 5) == colour(5));
    const World ldrWorld = decodeMap(src, DecodeOptions{true});
    REQUIRE_FALSE(ldrWorld.hdrLighting);
    const MaterialSet ldr = loadMaterials(ldrWorld, src, {});
    for (int k = 0; k < 6; ++k) CHECK(faceTexel(ldr, k) == colour(k));

    // The Water material: $fogcolor {64 128 255} as bytes / 255 to linear with 2.2, range 272 - 16.
    REQUIRE(hdr.looks[wi].water);
    CHECK(hdr.looks[wi].blend == BlendMode::Blend);
    CHECK(hdr.looks[wi].water->fogColor.x == Approx(std::pow(64.0 / 255.0, 2.2)).epsilon(1e-5));
    CHECK(hdr.looks[wi].water->fogColor.y == Approx(std::pow(128.0 / 255.0, 2.2)).epsilon(1e-5));
    CHECK(hdr.looks[wi].water->fogColor.z == Approx(1.0));
    CHECK(hdr.looks[wi].water->fogRange == Approx(256));
}
