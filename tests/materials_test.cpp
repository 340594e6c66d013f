// loadMaterials for Quake 3 on synthetic maps with game directories written here (images with known texels,
// shader scripts), the texture cache, and with [maps] OpenArena's ctf_compromise in baseoa. Quake 2:
// materials_q2_test.cpp; Source: materials_source_test.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "luxel/bsp/decode.hpp"
#include "luxel/image/image.hpp"
#include "luxel/io/game_files.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"
#include "../src/material/texture_cache.hpp"
#include "support/decode_helpers.hpp"
#include "support/material_fixtures.hpp"
#include "support/q3_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;

namespace {


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
    writeTextFile(dir / "scripts/luxel.shader", kShaders);
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
    REQUIRE(set.skies.at(0).present());
    for (int k = 0; k < 6; ++k) {
        REQUIRE(set.skies.at(0).faces[size_t(k)] >= 0);
        CHECK(level0(*set.textures[size_t(set.skies.at(0).faces[size_t(k)])]) ==
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
    writeTextFile(dir / "scripts/luxel.shader",
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
    writeTextFile(dir / "scripts/luxel.shader",
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
