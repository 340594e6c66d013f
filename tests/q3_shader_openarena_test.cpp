// Every Quake 3 shader script OpenArena ships (Debian package openarena-data) parses, and known shaders read
// as ioquake3 reads them (skipped without it).
#include <catch2/catch.hpp>

#include <zip.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "luxel/material/q3_shader.hpp"

using namespace luxel;

namespace {

const char* kOpenArenaDir = "/usr/share/games/openarena/baseoa";

struct ZipCloser {
    void operator()(zip_t* z) const { zip_discard(z); }
};

struct Script {
    std::string pk3, name, text;
    size_t pk3Index = 0, dirIndex = 0;
};

// scripts/*.shader of every pk3, with ordinary file precedence: a later pk3's file of the same name
// replaces the earlier one.
std::vector<Script> openArenaScripts() {
    std::vector<std::string> pk3s;
    for (const auto& e : std::filesystem::directory_iterator(kOpenArenaDir))
        if (e.path().extension() == ".pk3") pk3s.push_back(e.path().string());
    std::sort(pk3s.begin(), pk3s.end());
    std::map<std::string, Script> byName;
    for (size_t p = 0; p < pk3s.size(); ++p) {
        int err = 0;
        std::unique_ptr<zip_t, ZipCloser> z(zip_open(pk3s[p].c_str(), ZIP_RDONLY, &err));
        REQUIRE(z);
        zip_int64_t n = zip_get_num_entries(z.get(), 0);
        for (zip_int64_t i = 0; i < n; ++i) {
            std::string name = zip_get_name(z.get(), zip_uint64_t(i), 0);
            std::string lower = normalizeShaderName(name);
            if (lower.rfind("scripts/", 0) != 0 || lower.size() < 15 ||
                lower.compare(lower.size() - 7, 7, ".shader") != 0 || lower.find('/', 8) != std::string::npos)
                continue;
            zip_stat_t st;
            REQUIRE(zip_stat_index(z.get(), zip_uint64_t(i), 0, &st) == 0);
            std::string text(size_t(st.size), '\0');
            zip_file_t* f = zip_fopen_index(z.get(), zip_uint64_t(i), 0);
            REQUIRE(f);
            zip_int64_t got = text.empty() ? 0 : zip_fread(f, text.data(), st.size);
            zip_fclose(f);
            REQUIRE(got == zip_int64_t(st.size));
            byName[lower] = Script{pk3s[p], name, std::move(text), p, size_t(i)};
        }
    }
    std::vector<Script> scripts;
    for (auto& [name, s] : byName) scripts.push_back(std::move(s));
    // ioquake3's effective order (see addShaders): ascending pk3, reverse directory order inside one.
    std::sort(scripts.begin(), scripts.end(), [](const Script& a, const Script& b) {
        return a.pk3Index != b.pk3Index ? a.pk3Index < b.pk3Index : a.dirIndex > b.dirIndex;
    });
    return scripts;
}

}  // namespace

TEST_CASE("every OpenArena shader script parses", "[shader_parse][maps]") {
    std::error_code ec;
    if (!std::filesystem::is_directory(kOpenArenaDir, ec)) {
        WARN("SKIPPED: " << kOpenArenaDir << " not found (Debian package openarena-data)");
        return;
    }
    auto scripts = openArenaScripts();
    Q3ShaderTable table;
    size_t parsed = 0;
    std::vector<std::string> warnings;
    for (const Script& s : scripts) {
        std::vector<Q3Shader> shaders;
        REQUIRE_NOTHROW(shaders = parseShaderScript(s.text, s.pk3 + ":" + s.name, &warnings));
        parsed += shaders.size();
        addShaders(table, std::move(shaders));
    }
    INFO(scripts.size() << " scripts, " << parsed << " definitions, " << table.size() << " shaders, "
                        << warnings.size() << " warnings");
    WARN(scripts.size() << " scripts, " << parsed << " definitions, " << table.size() << " unique shaders, "
                        << warnings.size() << " warnings" << (warnings.empty() ? "" : "; first: " + warnings[0]));
    CHECK(scripts.size() > 100);
    CHECK(table.size() > 1000);

    // Expected values read from the scripts by hand (file and line in each comment).
    SECTION("pak0 oasky.shader:29 textures/skies/industrysky") {
        const Q3Shader& s = table.at("textures/skies/industrysky");
        CHECK(drawKind(s) == Q3DrawKind::Sky);
        CHECK((s.surfaceParms & (kQ3SurfSky | kQ3SurfNoImpact | kQ3SurfNoLightmap)) ==
              (kQ3SurfSky | kQ3SurfNoImpact | kQ3SurfNoLightmap));
        CHECK(s.surfaceLight == 400.0f);
        REQUIRE(s.sunColor);
        CHECK(s.sunColor->x == Approx(0.882353f));
        CHECK(s.sunColor->y == Approx(0.921569f));
        CHECK(s.sunColor->z == Approx(0.941177f));
        CHECK(s.sunIntensity == 150.0f);
        CHECK(s.sunDegrees == 45.0f);
        CHECK(s.sunElevation == 55.0f);
        REQUIRE(s.skyBoxBase);
        CHECK(*s.skyBoxBase == "full");
        CHECK(s.skyCloudHeight == 800.0f);
        REQUIRE(!s.stages.empty());
        CHECK(s.stages[0].isWhiteImage);
        CHECK(s.stages[0].rgbConst.x == Approx(0.137255f));
    }
    SECTION("pak6-patch088 clown.shader:403 textures/clown/grate_1") {
        const Q3Shader& s = table.at("textures/clown/grate_1");
        CHECK(drawKind(s) == Q3DrawKind::AlphaTest);
        CHECK(s.cull == Q3Cull::None);
        CHECK(s.surfaceParms == kQ3SurfNoMarks);
        REQUIRE(s.stages.size() == 2);
        CHECK(s.stages[0].alphaFunc == Q3AlphaFunc::GT0);
        CHECK(firstTextureStage(s) == &s.stages[0]);
        CHECK(s.stages[0].map == "textures/clown/grate_1.tga");
        CHECK(s.stages[1].isLightmap);
        CHECK(s.stages[1].blend == Q3BlendFunc{Q3BlendFactor::DstColor, Q3BlendFactor::One});
        CHECK(s.stages[1].depthFuncEqual);
    }
    SECTION("pak6-patch088 liquid_water.shader:1 textures/liquids/islewater") {
        const Q3Shader& s = table.at("textures/liquids/islewater");
        CHECK(drawKind(s) == Q3DrawKind::Blend);  // stage 0 blendfunc filter
        CHECK(s.cull == Q3Cull::None);
        CHECK(s.surfaceParms == (kQ3SurfNoMarks | kQ3SurfTrans | kQ3SurfWater));
        REQUIRE(s.fogColor);
        CHECK(s.fogColor->z == Approx(0.788235f));
        CHECK(s.fogDistance == 1024.0f);
        REQUIRE(s.stages.size() == 4);
        CHECK(s.stages[0].rgbGen == Q3RgbGen::Identity);  // default for a DST_COLOR source
        CHECK(s.stages[2].tcGenEnvironment);
        CHECK(s.stages[3].isLightmap);
        // pak0's liquid_water.shader (line 520) defines textures/liquids/hydrowater2; patch088's file
        // of the same name replaces it whole and lacks it, so the game has no such shader.
        CHECK(table.count("textures/liquids/hydrowater2") == 0);
        CHECK(table.count("textures/liquids/hydrowater") == 1);  // patch088 line 488
    }
    SECTION("pak0 mc-oa.shader:239 textures/amph-dm01/bigflame_1") {
        const Q3Shader& s = table.at("textures/amph-dm01/bigflame_1");
        CHECK(drawKind(s) == Q3DrawKind::Additive);
        CHECK(s.cull == Q3Cull::None);
        CHECK(s.hasDeformVertexes);
        CHECK(s.editorImage == "textures/particle_studio/editor.tga");
        CHECK((s.surfaceParms & kQ3SurfNoDlight) != 0);
        REQUIRE(s.stages.size() == 1);
        CHECK(s.stages[0].clamp);
        CHECK(s.stages[0].map == "textures/amph-dm01/flame.tga");
        CHECK(s.stages[0].rgbGen == Q3RgbGen::Wave);
    }
    SECTION("pak6-patch085 cf_models.shader:3 models/mapobjects/cosmoflash/teleporter3") {
        const Q3Shader& s = table.at("models/mapobjects/cosmoflash/teleporter3");
        REQUIRE(s.stages.size() == 5);
        CHECK(drawKind(s) == Q3DrawKind::Opaque);  // stage 0 has no blendFunc
        CHECK(s.stages[1].rgbGen == Q3RgbGen::Wave);
        CHECK(s.stages[2].tcModScale[0] == -1.0f);
        CHECK(s.stages[3].alphaFunc == Q3AlphaFunc::GT0);
        CHECK(s.stages[3].depthWrite);  // explicit depthWrite on a blended stage
        CHECK(s.stages[4].isLightmap);
    }
    SECTION("pak0 common.shader:29 textures/common/caulk") {
        CHECK(drawKind(table.at("textures/common/caulk")) == Q3DrawKind::NoDraw);
    }
}
