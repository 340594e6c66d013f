// loadMaterials for Source: pakfile materials and their VTFs, patches, $detail and $selfillum as stages, sky
// faces and Water fog, on the shared maps (re-packed where a test needs materials of its own).
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
#include "luxel/geometry/geometry.hpp"
#include "luxel/render/camera.hpp"
#include "luxel/render/render.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"
#include "support/decode_helpers.hpp"
#include "support/material_fixtures.hpp"
#include "support/test_paths.hpp"
#include "support/vtf_writer.hpp"
#include "support/vbsp_writer.hpp"
#include "support/zip_writer.hpp"

#include <zip.h>

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;

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

namespace {

// A zip in memory (tests/support/zip_writer.hpp) from members' bytes.
Bytes makeZip(const std::vector<std::pair<std::string, Bytes>>& members) {
    std::vector<test::ZipMember> zm;
    for (const auto& [name, content] : members) zm.push_back({name, std::string(content.begin(), content.end())});
    return test::makeZip(zm);
}

}  // namespace

TEST_CASE("Source: pakfile materials (patches resolved) and their VTFs become looks", "[materials][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    // The real map with its pakfile replaced: CONCRETE/CONCRETEWALL002A gets a translucent material and a
    // 2x2 texture; METAL/METALWALL005B a patch of it adding $nocull and $alphatest.
    VbspFile file = readVbsp(readFile(*sharedMaps() + "/source/sdk2013ce_sdk_vehicles_v20.bsp"));
    file.lumps[40] = makeZip({
        {"materials/concrete/concretewall002a.vmt",
         bytesOf("\"LightmappedGeneric\"\n{\n \"$basetexture\" \"Concrete/Test\"\n \"$translucent\" 1\n}\n")},
        {"materials/concrete/test.vtf", makeVtf2x2(kPic)},
        {"materials/metal/metalwall005b.vmt",
         bytesOf("patch\n{\n include \"materials/concrete/concretewall002a.vmt\"\n insert\n {\n  $nocull 1\n"
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
            entries.push_back({name, bytesOf("\"LightmappedGeneric\"\n{\n \"$basetexture\" \"luxel/base\"\n" + extra + "}\n")});
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
                           bytesOf("\"Sky\"\n{\n \"$basetexture\" \"skybox/ldr" + s + "\"\n}\n")});
        entries.push_back({"materials/skybox/ldr" + s + ".vtf", makeVtf2x2({colour(k), colour(k), colour(k), colour(k)})});
    }
    for (int k = 0; k < 3; ++k)
        entries.push_back({"materials/skybox/sky_tf2_04_hdr" + std::string(kSuffix[k]) + ".vmt",
                           bytesOf("\"Sky\"\n{\n \"$hdrcompressedtexture\" \"skybox/packed\"\n \"$basetexture\" \"skybox/ldrrt\"\n}\n")});
    entries.push_back({"materials/skybox/packed.vtf", makeVtf2x2({compressed, compressed, compressed, compressed})});
    entries.push_back({"materials/skybox/sky_tf2_04_hdrft.vmt", bytesOf("\"Sky\"\n{\n \"$hdrbasetexture\" \"skybox/hdrft\"\n}\n")});
    entries.push_back({"materials/skybox/hdrft.vtf", makeVtf2x2({hdrBase, hdrBase, hdrBase, hdrBase})});
    entries.push_back({"materials/" + water + ".vmt",
                       bytesOf("\"Water\"\n{\n \"$fogenable\" 1\n \"$fogcolor\" \"{64 128 255}\"\n \"$fogstart\" 16\n \"$fogend\" 272\n}\n")});
    file.lumps[40] = makeZip(entries);
    const MapSource src = memorySource(writeVbsp(file), "lobby.bsp");
    auto faceTexel = [](const MaterialSet& set, int k) {
        REQUIRE(set.skies.at(0).faces[size_t(k)] >= 0);
        return level0(*set.textures[size_t(set.skies.at(0).faces[size_t(k)])])[0];
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
