// parseShaderScript on hand-written scripts: every keyword, recovery from broken braces, glued tokens,
// scrambled text, and ioquake3's names for blend factors, culling and alpha functions.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "luxel/material/q3_shader.hpp"

using namespace luxel;

namespace {

// 1-based line of the first occurrence of `marker`: an independent way to know where a warning
// must point.
int lineOf(const std::string& text, const std::string& marker) {
    size_t at = text.find(marker);
    REQUIRE(at != std::string::npos);
    return 1 + int(std::count(text.begin(), text.begin() + long(at), '\n'));
}

const Q3Shader* find(const std::vector<Q3Shader>& shaders, const std::string& name) {
    for (const auto& s : shaders)
        if (s.name == name) return &s;
    return nullptr;
}

bool contains(const std::vector<std::string>& warnings, const std::string& needle) {
    return std::any_of(warnings.begin(), warnings.end(),
                       [&](const std::string& w) { return w.find(needle) != std::string::npos; });
}

// Every keyword the renderer relies on, in the layouts real scripts use. Expected values below come
// from the ioquake3 rules quoted in q3_shader.hpp, worked out by hand for each shader.
const std::string kScript = R"SHADER(// scripts/test.shader: hand-written coverage script
/* a block comment that spans lines and hides a shader:
textures/fake/commented
{
	{ map textures/fake/commented.tga }
}
*/
textures/test/base_wall
{
	qer_editorimage textures/test/base_wall_ed.tga
	q3map_lightimage textures/test/glow.tga
	q3map_surfacelight 300
	q3map_nonplanar
	q3map_shadeangle 120
	surfaceparm nolightmap   // trailing comment
	surfaceparm trans
	{
		map $lightmap
		rgbGen identity
	}
	{
		map textures/test/base_wall.tga
		blendFunc filter
		rgbGen identity
		tcMod scale 2 2
		tcMod scroll 0.5 0
		tcMod rotate 30
		tcMod turb 0 0.25 0 0.5
		tcMod scale 0.5 3
	}
}

TEXTURES\Test\Grate
{
	cull none
	surfaceparm alphashadow
	{
		map textures/test/grate.tga
		blendFunc GL_ONE GL_ZERO
		alphaFunc GE128
		depthWrite
		rgbGen vertex
	}
	{
		map $lightmap
		blendFunc GL_DST_COLOR GL_ZERO
		depthFunc equal
		rgbGen exactVertex
	}
}

textures/test/glass
{
	cull twosided
	qer_trans 0.5
	{
		map textures/test/glass_env.tga
		tcGen environment
		blendFunc GL_SRC_ALPHA GL_ONE_MINUS_SRC_ALPHA
	}
	{
		clampMap "textures/test/glass spot.tga"
		blendFunc blend
		alphaFunc LT128
	}
}

textures/test/glow
{
	cull back
	polygonOffset
	deformVertexes wave 100 sin 0 1 0 0.5
	{
		animMap 4 textures/test/glow1.tga textures/test/glow2.tga textures/test/glow3.tga
		blendFunc add
		rgbGen const ( 0.5 0.25 1 )
	}
}

textures/test/additive_gl
{
	cull backsided
	{
		map textures/test/flare.tga
		blendFunc gl_one gl_one
		alphaFunc GT0
		detail
	}
	{
		map $lightmap
		blendFunc filter
	}
}

textures/test/white
{
	cull disable
	sort additive
	{ map $whiteimage rgbGen const (1 0 0) }
}

textures/skies/testsky
{
	surfaceparm sky
	surfaceparm noimpact
	q3map_sun 1 0.9 0.8 150 45 60
	skyParms env/testsky 512 -
	{
		map textures/skies/clouds.tga
		tcMod scroll 0.01 0.02
	}
}

textures/skies/cloudsonly
{
	skyParms - 256 -
	{
		map textures/skies/layer.tga
	}
}

textures/common/nodraw
{
	surfaceparm nodraw
	surfaceparm nonsolid
}

textures/test/fogvol
{
	surfaceparm fog
	surfaceparm trans
	fogparms ( 0.5 0.25 0.125 ) 768
}

textures/test/stageless
{
	surfaceparm metalsteps
}

textures/test/unknowns
{
	dpoffsetmapping - 2 match8 65
	surfaceparm lava
	{
		map textures/test/unk.tga
		dpSomething 1 2 3
		rgbGen lightingDiffuse
	}
	sort 7.5
}

textures/test/base_wall
{
	surfaceparm nodraw
}

textures/test/unclosed
{
	cull none
	{
		map textures/test/unclosed.tga
	}
)SHADER";

}  // namespace

TEST_CASE("parseShaderScript reads every keyword of a realistic script", "[shader_parse]") {
    std::vector<std::string> warnings;
    auto shaders = parseShaderScript(kScript, "scripts/test.shader", &warnings);

    // 14 definitions; the commented-out one does not count.
    REQUIRE(shaders.size() == 14);
    CHECK(find(shaders, "textures/fake/commented") == nullptr);
    // Only the shader cut off at the end of the file is worth a warning, and it points at its name.
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].find("scripts/test.shader:" + std::to_string(lineOf(kScript, "textures/test/unclosed")) +
                           ":") == 0);
    CHECK(warnings[0].find("missing '}'") != std::string::npos);

    SECTION("lightmap then texture filter: opaque, tcMod scales multiply, q3map keywords") {
        const Q3Shader& s = shaders[0];
        CHECK(s.name == "textures/test/base_wall");
        CHECK(s.file == "scripts/test.shader");
        CHECK(s.line == lineOf(kScript, "textures/test/base_wall"));
        CHECK(s.editorImage == "textures/test/base_wall_ed.tga");
        CHECK(s.lightImage == "textures/test/glow.tga");
        CHECK(s.surfaceLight == 300.0f);
        CHECK(s.surfaceParms == (kQ3SurfNoLightmap | kQ3SurfTrans));
        CHECK(s.cull == Q3Cull::Front);
        REQUIRE(s.stages.size() == 2);
        CHECK(s.stages[0].isLightmap);
        CHECK(s.stages[0].map.empty());
        CHECK_FALSE(s.stages[0].hasBlend);
        CHECK(s.stages[0].depthWrite);
        CHECK(s.stages[0].rgbGen == Q3RgbGen::Identity);
        CHECK(s.stages[1].map == "textures/test/base_wall.tga");
        CHECK(s.stages[1].hasBlend);
        CHECK(s.stages[1].blend == Q3BlendFunc{Q3BlendFactor::DstColor, Q3BlendFactor::Zero});
        CHECK_FALSE(s.stages[1].depthWrite);  // blended without depthWrite
        CHECK(s.stages[1].tcModScale[0] == 2.0f * 0.5f);
        CHECK(s.stages[1].tcModScale[1] == 2.0f * 3.0f);
        CHECK(s.stages[1].line == lineOf(kScript, "\t{\n\t\tmap textures/test/base_wall.tga"));
        CHECK(drawKind(s) == Q3DrawKind::Opaque);
        CHECK(firstTextureStage(s) == &s.stages[1]);
        CHECK(hasLightmapStage(s));
    }
    SECTION("grate: GL_ONE GL_ZERO is opaque, alphaFunc on stage 0 makes it alpha-tested") {
        const Q3Shader* s = find(shaders, "textures/test/grate");  // upper case and '\' normalised
        REQUIRE(s);
        CHECK(s->cull == Q3Cull::None);
        CHECK(s->surfaceParms == kQ3SurfAlphaShadow);
        REQUIRE(s->stages.size() == 2);
        CHECK(s->stages[0].blend == Q3BlendFunc{Q3BlendFactor::One, Q3BlendFactor::Zero});
        CHECK_FALSE(s->stages[0].hasBlend);
        CHECK(s->stages[0].alphaFunc == Q3AlphaFunc::GE128);
        CHECK(s->stages[0].depthWrite);
        CHECK(s->stages[0].rgbGen == Q3RgbGen::Vertex);
        CHECK(s->stages[1].isLightmap);
        CHECK(s->stages[1].depthFuncEqual);
        CHECK(s->stages[1].rgbGen == Q3RgbGen::ExactVertex);
        CHECK(drawKind(*s) == Q3DrawKind::AlphaTest);
        CHECK(firstTextureStage(*s) == &s->stages[0]);
    }
    SECTION("glass: a blended stage 0 is Blend; the albedo skips the environment map") {
        const Q3Shader* s = find(shaders, "textures/test/glass");
        REQUIRE(s);
        CHECK(s->cull == Q3Cull::None);
        REQUIRE(s->stages.size() == 2);
        CHECK(s->stages[0].tcGenEnvironment);
        CHECK(s->stages[0].blend == Q3BlendFunc{Q3BlendFactor::SrcAlpha, Q3BlendFactor::OneMinusSrcAlpha});
        CHECK(s->stages[1].map == "textures/test/glass spot.tga");  // quoted token keeps its space
        CHECK(s->stages[1].clamp);
        CHECK(s->stages[1].blend == Q3BlendFunc{Q3BlendFactor::SrcAlpha, Q3BlendFactor::OneMinusSrcAlpha});
        CHECK(s->stages[1].alphaFunc == Q3AlphaFunc::LT128);
        CHECK(s->stages[1].rgbGen == Q3RgbGen::IdentityLighting);  // default for a SRC_ALPHA source
        CHECK(drawKind(*s) == Q3DrawKind::Blend);
        CHECK(firstTextureStage(*s) == &s->stages[1]);
        CHECK_FALSE(hasLightmapStage(*s));
    }
    SECTION("glow: animMap, blendFunc add, rgbGen const, polygonOffset, deformVertexes") {
        const Q3Shader* s = find(shaders, "textures/test/glow");
        REQUIRE(s);
        CHECK(s->cull == Q3Cull::Back);
        CHECK(s->polygonOffset);
        CHECK(s->hasDeformVertexes);
        REQUIRE(s->stages.size() == 1);
        const Q3Stage& st = s->stages[0];
        CHECK(st.animFrequency == 4.0f);
        const std::vector<std::string> frames{"textures/test/glow1.tga", "textures/test/glow2.tga",
                                              "textures/test/glow3.tga"};
        CHECK(st.animFrames == frames);
        CHECK(st.map == "textures/test/glow1.tga");
        CHECK(st.blend == Q3BlendFunc{Q3BlendFactor::One, Q3BlendFactor::One});
        CHECK(st.rgbGen == Q3RgbGen::Const);
        CHECK(st.rgbConst == Vec3{0.5f, 0.25f, 1.0f});
        CHECK(drawKind(*s) == Q3DrawKind::Additive);
    }
    SECTION("lower-case GL names, detail stage, default rgbGen of a filter stage") {
        const Q3Shader* s = find(shaders, "textures/test/additive_gl");
        REQUIRE(s);
        CHECK(s->cull == Q3Cull::Back);
        REQUIRE(s->stages.size() == 2);
        CHECK(s->stages[0].blend == Q3BlendFunc{Q3BlendFactor::One, Q3BlendFactor::One});
        CHECK(s->stages[0].alphaFunc == Q3AlphaFunc::GT0);
        CHECK(s->stages[0].detail);
        CHECK(s->stages[0].rgbGen == Q3RgbGen::IdentityLighting);  // source ONE
        CHECK(s->stages[1].rgbGen == Q3RgbGen::Identity);          // source DST_COLOR
        CHECK(drawKind(*s) == Q3DrawKind::Additive);               // ONE ONE wins over the alpha test
        CHECK(firstTextureStage(*s) == &s->stages[0]);  // only image stage, though a detail one
    }
    SECTION("one-line stage, $whiteimage, parentheses touching numbers, named sort") {
        const Q3Shader* s = find(shaders, "textures/test/white");
        REQUIRE(s);
        CHECK(s->cull == Q3Cull::None);
        CHECK(s->sort == 10.0f);  // SS_BLEND1
        REQUIRE(s->stages.size() == 1);
        CHECK(s->stages[0].isWhiteImage);
        CHECK(s->stages[0].rgbGen == Q3RgbGen::Const);
        CHECK(s->stages[0].rgbConst == Vec3{1, 0, 0});
        CHECK(firstTextureStage(*s) == nullptr);
        CHECK(drawKind(*s) == Q3DrawKind::Opaque);
    }
    SECTION("skies: surfaceparm sky or skyParms alone; q3map_sun") {
        const Q3Shader* s = find(shaders, "textures/skies/testsky");
        REQUIRE(s);
        CHECK(s->surfaceParms == (kQ3SurfSky | kQ3SurfNoImpact));
        CHECK(s->hasSkyParms);
        REQUIRE(s->skyBoxBase);
        CHECK(*s->skyBoxBase == "env/testsky");
        CHECK(s->skyCloudHeight == 512.0f);
        REQUIRE(s->sunColor);
        CHECK(*s->sunColor == Vec3{1.0f, 0.9f, 0.8f});
        CHECK(s->sunIntensity == 150.0f);
        CHECK(s->sunDegrees == 45.0f);
        CHECK(s->sunElevation == 60.0f);
        CHECK(s->stages[0].rgbGen == Q3RgbGen::IdentityLighting);
        CHECK(drawKind(*s) == Q3DrawKind::Sky);

        const Q3Shader* c = find(shaders, "textures/skies/cloudsonly");
        REQUIRE(c);
        CHECK(c->surfaceParms == 0);
        CHECK(c->hasSkyParms);
        CHECK_FALSE(c->skyBoxBase);
        CHECK(c->skyCloudHeight == 256.0f);
        CHECK(drawKind(*c) == Q3DrawKind::Sky);
    }
    SECTION("stageless shaders: nodraw, fog volume, implicit texture") {
        const Q3Shader* n = find(shaders, "textures/common/nodraw");
        REQUIRE(n);
        CHECK(n->surfaceParms == (kQ3SurfNoDraw | kQ3SurfNonSolid));
        CHECK(drawKind(*n) == Q3DrawKind::NoDraw);

        const Q3Shader* f = find(shaders, "textures/test/fogvol");
        REQUIRE(f);
        REQUIRE(f->fogColor);
        CHECK(*f->fogColor == Vec3{0.5f, 0.25f, 0.125f});
        CHECK(f->fogDistance == 768.0f);
        CHECK(drawKind(*f) == Q3DrawKind::NoDraw);

        const Q3Shader* i = find(shaders, "textures/test/stageless");
        REQUIRE(i);
        CHECK(i->surfaceParms == kQ3SurfMetalSteps);
        CHECK(drawKind(*i) == Q3DrawKind::Opaque);
        CHECK(firstTextureStage(*i) == nullptr);
    }
    SECTION("unknown keywords are skipped to the end of their line only") {
        const Q3Shader* s = find(shaders, "textures/test/unknowns");
        REQUIRE(s);
        CHECK(s->surfaceParms == kQ3SurfLava);
        REQUIRE(s->stages.size() == 1);
        CHECK(s->stages[0].map == "textures/test/unk.tga");
        CHECK(s->stages[0].rgbGen == Q3RgbGen::LightingDiffuse);
        CHECK(s->sort == 7.5f);
    }
    SECTION("a shader cut off by the end of the file is kept") {
        const Q3Shader& s = shaders.back();
        CHECK(s.name == "textures/test/unclosed");
        CHECK(s.cull == Q3Cull::None);
        REQUIRE(s.stages.size() == 1);
        CHECK(s.stages[0].map == "textures/test/unclosed.tga");
    }
    SECTION("duplicates: parse returns both, the table keeps the first") {
        CHECK(std::count_if(shaders.begin(), shaders.end(),
                            [](const Q3Shader& s) { return s.name == "textures/test/base_wall"; }) == 2);
        Q3ShaderTable table;
        addShaders(table, std::move(shaders));
        CHECK(table.size() == 13);
        const Q3Shader& kept = table.at("textures/test/base_wall");
        CHECK(kept.stages.size() == 2);
        CHECK((kept.surfaceParms & kQ3SurfNoDraw) == 0);

        // A later file cannot replace it either.
        addShaders(table, parseShaderScript("textures/test/base_wall\n{\n surfaceparm sky\n}\n", "z.shader"));
        CHECK(table.at("textures/test/base_wall").file == "scripts/test.shader");
        CHECK(table.size() == 13);
    }
}

TEST_CASE("parseShaderScript recovers from missing braces with line-numbered warnings", "[shader_parse]") {
    SECTION("shader missing its '}' before the next shader") {
        const std::string text =
            "textures/a/one\n{\n\t{\n\t\tmap textures/a/one.tga\n\t}\n"
            "textures/a/two\n{\n\t{\n\t\tmap textures/a/two.tga\n\t}\n}\n";
        std::vector<std::string> w;
        auto s = parseShaderScript(text, "r.shader", &w);
        REQUIRE(s.size() == 2);
        CHECK(s[0].name == "textures/a/one");
        REQUIRE(s[0].stages.size() == 1);
        CHECK(s[0].stages[0].map == "textures/a/one.tga");
        CHECK(s[1].name == "textures/a/two");
        REQUIRE(s[1].stages.size() == 1);
        CHECK(s[1].stages[0].map == "textures/a/two.tga");
        REQUIRE(w.size() == 1);
        CHECK(w[0].find("r.shader:1:") == 0);
        CHECK(w[0].find("line 6") != std::string::npos);
    }
    SECTION("stage and shader both unclosed before the next shader") {
        const std::string text =
            "textures/a/one\n{\n\t{\n\t\tmap textures/a/one.tga\n"
            "textures/a/two\n{\n\t{ map textures/a/two.tga }\n}\n";
        std::vector<std::string> w;
        auto s = parseShaderScript(text, "r.shader", &w);
        REQUIRE(s.size() == 2);
        CHECK(s[0].stages.size() == 1);
        CHECK(s[0].stages[0].map == "textures/a/one.tga");
        CHECK(s[1].stages.size() == 1);
        CHECK(s[1].stages[0].map == "textures/a/two.tga");
        CHECK(contains(w, "line 5"));
    }
    SECTION("a '{' inside a stage starts the next stage") {
        const std::string text = "x/y\n{\n{\nmap a.tga\n{\nmap b.tga\n}\n}\n";
        std::vector<std::string> w;
        auto s = parseShaderScript(text, "r.shader", &w);
        REQUIRE(s.size() == 1);
        REQUIRE(s[0].stages.size() == 2);
        CHECK(s[0].stages[0].map == "a.tga");
        CHECK(s[0].stages[1].map == "b.tga");
        REQUIRE(w.size() == 1);
        CHECK(w[0].find("r.shader:5:") == 0);
    }
    SECTION("stray braces, nameless blocks, names without '{', trailing names") {
        const std::string text = "}\n{ map lost.tga }\nname_only junk\nreal/one\n{\n}\ndangling\n";
        std::vector<std::string> w;
        auto s = parseShaderScript(text, "r.shader", &w);
        REQUIRE(s.size() == 1);
        CHECK(s[0].name == "real/one");
        CHECK(contains(w, "r.shader:1: unmatched '}'"));
        CHECK(contains(w, "r.shader:2: '{' without a shader name"));
        CHECK(contains(w, "r.shader:3: shader name_only"));
        CHECK(contains(w, "r.shader:7: shader dangling"));
    }
    SECTION("unterminated comment and quote") {
        std::vector<std::string> w;
        auto s = parseShaderScript("a/b\n{\n{\nmap \"unterminated\n}\n}\n/* never closed", "r.shader", &w);
        REQUIRE(s.size() == 1);
        CHECK(s[0].stages.at(0).map == "unterminated");
        CHECK(contains(w, "r.shader:4: unterminated quoted string"));
        CHECK(contains(w, "r.shader:7: unterminated /* comment"));
    }
}

TEST_CASE("parseShaderScript splits braces glued to names and keeps going after keywords", "[shader_parse]") {
    const std::string text =
        "textures/x/glued{\tqer_editorimage textures/x/ed.tga\tnopicmip\n"
        "{map a.tga\nblendFunc GL_ONE GL_ONE}}textures/x/next\r\n{\r\nnomipmaps\r\n}\r\n";
    std::vector<std::string> w;
    auto s = parseShaderScript(text, "g.shader", &w);
    CHECK(w.empty());
    REQUIRE(s.size() == 2);
    CHECK(s[0].name == "textures/x/glued");
    CHECK(s[0].editorImage == "textures/x/ed.tga");
    CHECK(s[0].noPicMip);  // the keyword after qer_editorimage's argument on the same line
    CHECK_FALSE(s[0].noMipMaps);
    REQUIRE(s[0].stages.size() == 1);
    CHECK(s[0].stages[0].map == "a.tga");
    CHECK(s[0].stages[0].blend == Q3BlendFunc{Q3BlendFactor::One, Q3BlendFactor::One});
    CHECK(s[1].name == "textures/x/next");
    CHECK(s[1].noMipMaps);
    CHECK(s[1].noPicMip);  // nomipmaps implies nopicmip
}

TEST_CASE("parseShaderScript never throws on truncated or scrambled text", "[shader_parse]") {
    size_t full = parseShaderScript(kScript, "t").size();
    // Every prefix: still no exception, never more shaders than the whole file has.
    for (size_t n = 0; n <= kScript.size(); n += 7) {
        std::vector<std::string> w;
        auto s = parseShaderScript(std::string_view(kScript).substr(0, n), "t", &w);
        CHECK(s.size() <= full);
    }
    // Deterministic junk built from the grammar's own characters, plus NULs and high bytes.
    std::string alphabet = "{}()\"/*\n\r\t $abcGL_01.\\";
    alphabet.push_back('\0');
    alphabet.push_back('\xff');
    uint32_t state = 12345;
    for (int round = 0; round < 200; ++round) {
        std::string junk;
        for (int i = 0; i < 300; ++i) {
            state = state * 1664525u + 1013904223u;
            junk += alphabet[(state >> 16) % alphabet.size()];
        }
        CHECK_NOTHROW(parseShaderScript(junk, "junk"));
    }
}

TEST_CASE("blend factor names, cull names and alpha functions follow ioquake3", "[shader_parse]") {
    auto one = [](const std::string& stageBody) {
        auto s = parseShaderScript("t/t\n{\n{\n" + stageBody + "\n}\n}\n", "b.shader");
        REQUIRE(s.size() == 1);
        REQUIRE(s[0].stages.size() == 1);
        return s[0].stages[0];
    };
    CHECK(one("blendFunc GL_ONE_MINUS_DST_COLOR GL_ONE_MINUS_SRC_COLOR").blend ==
          Q3BlendFunc{Q3BlendFactor::OneMinusDstColor, Q3BlendFactor::OneMinusSrcColor});
    CHECK(one("blendFunc GL_DST_ALPHA GL_ONE_MINUS_DST_ALPHA").blend ==
          Q3BlendFunc{Q3BlendFactor::DstAlpha, Q3BlendFactor::OneMinusDstAlpha});
    CHECK(one("blendFunc GL_SRC_ALPHA_SATURATE GL_SRC_COLOR").blend ==
          Q3BlendFunc{Q3BlendFactor::SrcAlphaSaturate, Q3BlendFactor::SrcColor});
    CHECK(one("blendFunc ZERO SRC_COLOR").blend == Q3BlendFunc{Q3BlendFactor::Zero, Q3BlendFactor::SrcColor});
    // Unknown names become GL_ONE on either side, like NameToSrcBlendMode / NameToDstBlendMode.
    CHECK(one("blendFunc GL_BOGUS GL_ZERO").blend == Q3BlendFunc{Q3BlendFactor::One, Q3BlendFactor::Zero});
    // depthWrite is order-independent with blendFunc.
    CHECK(one("depthWrite\nblendFunc blend").depthWrite);
    CHECK(one("blendFunc blend\ndepthWrite").depthWrite);
    CHECK_FALSE(one("blendFunc blend").depthWrite);
    CHECK(one("rgbGen oneMinusEntity").rgbGen == Q3RgbGen::Other);
    CHECK(one("rgbGen wave sin 0 1 0 1\nrgbGen oneMinusVertex").rgbGen == Q3RgbGen::OneMinusVertex);
    CHECK(one("rgbGen entity").rgbGen == Q3RgbGen::Entity);
    CHECK(one("map *white").isWhiteImage);
    CHECK(one("map TEXTURES\\A\\B.tga").map == "TEXTURES/A/B.tga");

    // A blended stage 0 that is alpha-tested draws what passes the test, with depth.
    auto s = parseShaderScript("t/t\n{\n{\nmap a.tga\nblendFunc blend\nalphaFunc GE128\ndepthWrite\n}\n}\n", "b");
    CHECK(drawKind(s.at(0)) == Q3DrawKind::AlphaTest);
    // An alphaFunc on a later stage does not cut holes into an opaque stage 0.
    s = parseShaderScript("t/t\n{\n{\nmap $lightmap\n}\n{\nmap a.tga\nblendFunc filter\nalphaFunc GE128\n}\n}\n", "b");
    CHECK(drawKind(s.at(0)) == Q3DrawKind::Opaque);

    const std::vector<std::pair<std::string, Q3Cull>> culls{
        {"none", Q3Cull::None},      {"twosided", Q3Cull::None},   {"disable", Q3Cull::None},
        {"back", Q3Cull::Back},      {"backside", Q3Cull::Back},   {"backsided", Q3Cull::Back},
        {"front", Q3Cull::Front},    {"BACK", Q3Cull::Back}};
    for (const auto& [word, cull] : culls) {
        auto c = parseShaderScript("t/t\n{\ncull " + word + "\n}\n", "c");
        CHECK(c.at(0).cull == cull);
    }
    for (const auto& [word, sort] : std::vector<std::pair<std::string, float>>{
             {"portal", 1}, {"sky", 2}, {"opaque", 3}, {"decal", 4}, {"seeThrough", 5}, {"banner", 6},
             {"underwater", 8}, {"nearest", 16}, {"12", 12}}) {
        auto c = parseShaderScript("t/t\n{\nsort " + word + "\n}\n", "c");
        CHECK(c.at(0).sort == sort);
    }
    CHECK(parseShaderScript("t/t\n{\nportal\n}\n", "c").at(0).sort == 1.0f);
}
