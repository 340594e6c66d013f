// What the renderer makes of a parsed shader: tcMods kept in order, the features it leaves out, the sort
// value FinishShader resolves.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "luxel/material/q3_shader.hpp"

using namespace luxel;

TEST_CASE("parseShaderScript keeps every tcMod with its arguments in order", "[shader_parse]") {
    const char* kScript = R"(textures/test/water
{
	{
		map textures/test/water.tga
		tcMod scale 2 0.5
		tcMod scroll 0.1 -0.25
		tcMod rotate 30
		tcMod turb 0 0.1 0.5 2
		tcMod stretch sin 1 0.2 0 0.5
		tcMod transform 1 0 0 1 0.5 0.25
		tcMod scroll 1
		tcMod scale 3 3
	}
}
)";
    std::vector<std::string> warnings;
    const auto shaders = parseShaderScript(kScript, "t.shader", &warnings);
    REQUIRE(shaders.size() == 1);
    const Q3Stage& st = shaders[0].stages.at(0);
    REQUIRE(st.tcMods.size() == 7);  // "scroll 1" lacks a number: warned and dropped
    CHECK(st.tcMods[0].kind == Q3TcModKind::Scale);
    CHECK(st.tcMods[1].kind == Q3TcModKind::Scroll);
    CHECK(st.tcMods[1].p[0] == 0.1f);
    CHECK(st.tcMods[1].p[1] == -0.25f);
    CHECK(st.tcMods[2].kind == Q3TcModKind::Rotate);
    CHECK(st.tcMods[2].p[0] == 30.0f);
    CHECK(st.tcMods[3].kind == Q3TcModKind::Turb);
    CHECK(st.tcMods[3].p[3] == 2.0f);
    CHECK(st.tcMods[4].kind == Q3TcModKind::Stretch);
    CHECK(st.tcMods[4].waveFunc == "sin");
    CHECK(st.tcMods[4].p[3] == 0.5f);
    CHECK(st.tcMods[5].kind == Q3TcModKind::Transform);
    CHECK(st.tcMods[5].p[4] == 0.5f);
    CHECK(st.tcMods[5].p[5] == 0.25f);
    CHECK(st.tcMods[6].kind == Q3TcModKind::Scale);
    CHECK(st.tcModScale[0] == 6.0f);
    CHECK(st.tcModScale[1] == 1.5f);
    REQUIRE(warnings.size() == 1);
    CHECK_THAT(warnings[0], Catch::Contains("tcMod scroll"));
}

TEST_CASE("unevaluatedFeatures names what the renderer leaves out", "[shader_parse]") {
    const char* kScript = R"(textures/test/flame
{
	deformVertexes autosprite2
	deformVertexes autosprite
	deformVertexes text0
	surfaceparm trans
	weirdKeyword 1 2
	{
		map textures/test/flame.tga
		blendFunc GL_ONE GL_ONE
		tcMod turb 0 0.1 0 1
		tcMod turb 0 0.2 0 1
		strangeStageThing
	}
}
textures/test/plain
{
	{
		map $lightmap
		rgbGen identity
	}
	{
		map textures/test/wall.tga
		blendFunc filter
	}
	{
		map textures/test/grain.tga
		blendFunc GL_DST_COLOR GL_SRC_COLOR
		tcMod scale 4 4
		detail
	}
}
textures/test/fog
{
	fogparms ( 0.5 0.5 0.5 ) 512
	surfaceparm fog
}
)";
    const auto shaders = parseShaderScript(kScript, "t.shader");
    REQUIRE(shaders.size() == 3);
    CHECK(drawnAsProgram(shaders[0]));  // additive with a turbulent stage
    REQUIRE(shaders[0].deformArgs.size() == 2);
    CHECK(shaders[0].deformArgs[0].kind == "autosprite2");
    CHECK(shaders[0].deformArgs[1].kind == "autosprite");
    const auto flame = unevaluatedFeatures(shaders[0]);
    // autosprite and autosprite2 are drawn; text (an entity effect) is not, nor a second turb.
    CHECK(flame == std::vector<std::string>{"deformVertexes text0", "unknown keyword weirdkeyword",
                                            "unknown stage keyword strangestagething", "tcMod turb after tcMod turb"});
    CHECK(drawnAsOneTexture(shaders[1]));  // lightmap x texture, the detail folded in
    CHECK_FALSE(drawnAsProgram(shaders[1]));
    CHECK(unevaluatedFeatures(shaders[1]).empty());
    CHECK(unevaluatedFeatures(shaders[2]).empty());  // fog is drawn over the surfaces inside the volume
}

TEST_CASE("engineSort resolves the sort value as FinishShader does", "[shader_parse]") {
    const char* kScript = R"(a/opaque
{
	{
		map $lightmap
	}
}
a/glass
{
	{
		map a/glass.tga
		blendFunc blend
	}
}
a/grate
{
	{
		map a/grate.tga
		blendFunc blend
		depthWrite
	}
}
a/decal
{
	polygonOffset
	{
		map a/decal.tga
		blendFunc blend
	}
}
a/explicit
{
	sort additive
	polygonOffset
	{
		map a/x.tga
		blendFunc add
	}
}
a/fog
{
	fogparms ( 1 0 0 ) 100
	surfaceparm fog
}
a/sky
{
	skyParms - 512 -
}
)";
    const auto s = parseShaderScript(kScript, "t.shader");
    REQUIRE(s.size() == 7);
    CHECK(engineSort(s[0]) == 3);   // SS_OPAQUE
    CHECK(engineSort(s[1]) == 9);   // SS_BLEND0: stage 0 blends without depthWrite
    CHECK(engineSort(s[2]) == 5);   // SS_SEE_THROUGH: stage 0 blends and writes depth
    CHECK(engineSort(s[3]) == 4);   // SS_DECAL: polygonOffset before the blend decides
    CHECK(engineSort(s[4]) == 10);  // explicit "additive" = SS_BLEND1 wins over polygonOffset
    CHECK(engineSort(s[5]) == 7);   // SS_FOG
    CHECK(engineSort(s[6]) == 2);   // SS_ENVIRONMENT
}

TEST_CASE("r_lightmap: which stages the engine draws, after CollapseMultitexture", "[shader_parse]") {
    // Expected values from ioquake3's tr_shader.c rules: ParseStage's default rgbGen (identityLighting for a
    // stage without a source blend, identity for a filter), the collapse table and its equal-state checks.
    const char* kScript = R"(t/pitted_rust3
{
	{ map t/rust.tga rgbGen identity }
	{ map $lightmap blendfunc filter rgbGen identity tcGen lightmap }
	{ map t/detail.tga blendfunc gl_dst_color gl_src_color tcMod scale 8 8 detail }
}
t/zinc_shiny
{
	{ map t/zinc.tga rgbgen identity }
	{ map t/tinfx.tga tcgen environment rgbgen identity }
	{ map t/zinc.tga blendfunc blend rgbgen identity }
	{ map $lightmap blendfunc filter rgbgen identity }
}
t/default_colours
{
	{ map t/wall.tga }
	{ map $lightmap blendfunc filter }
}
t/lightmap_first
{
	{ map $lightmap rgbGen identity }
	{ map t/wall.tga blendFunc GL_DST_COLOR GL_ZERO rgbGen identity }
	{ map t/glow.tga blendFunc add }
}
t/alpha_test_differs
{
	{ map t/grate.tga alphaFunc GE128 rgbGen identity }
	{ map $lightmap blendFunc GL_ZERO GL_SRC_COLOR rgbGen identity }
}
t/add_collapse
{
	{ map $lightmap rgbGen identity }
	{ map t/glow.tga blendFunc add rgbGen identity }
}
t/add_not_identity
{
	{ map $lightmap rgbGen identityLighting }
	{ map t/glow.tga blendFunc add rgbGen identityLighting }
}
t/two_textures_then_lightmap
{
	{ map t/a.tga rgbGen identity }
	{ map t/b.tga blendFunc filter rgbGen identity }
	{ map $lightmap blendFunc filter rgbGen identity }
	{ map t/glow.tga blendFunc add }
}
t/no_lightmap
{
	{ map t/a.tga }
}
)";
    const auto shaders = parseShaderScript(kScript, "t.shader");
    REQUIRE(shaders.size() == 9);
    // Texture then lightmap filter, both identity: collapsed (GL_MODULATE): the lightmap alone.
    CHECK(collapsesMultitexture(shaders[0]));
    CHECK_FALSE(rLightmapStageCount(shaders[0]));
    // Two unblended stages first: no table entry, nothing collapses; all four stages drawn.
    CHECK_FALSE(collapsesMultitexture(shaders[1]));
    CHECK(rLightmapStageCount(shaders[1]) == std::optional<size_t>(4));
    // Default colours: identityLighting (no blend) against identity (filter): not collapsed; texture x light.
    CHECK_FALSE(collapsesMultitexture(shaders[2]));
    CHECK(rLightmapStageCount(shaders[2]) == std::optional<size_t>(2));
    // The lightmap first and collapsed with the texture: the lightmap alone, the glow after it skipped.
    CHECK(collapsesMultitexture(shaders[3]));
    CHECK_FALSE(rLightmapStageCount(shaders[3]));
    // An alpha test on one stage only: state differs, not collapsed.
    CHECK_FALSE(collapsesMultitexture(shaders[4]));
    CHECK(rLightmapStageCount(shaders[4]) == std::optional<size_t>(2));
    // none + add with identity colours collapses (GL_ADD); with identityLighting it may not.
    CHECK(collapsesMultitexture(shaders[5]));
    CHECK_FALSE(rLightmapStageCount(shaders[5]));
    CHECK_FALSE(collapsesMultitexture(shaders[6]));
    CHECK(rLightmapStageCount(shaders[6]) == std::optional<size_t>(1));
    // Stages 0 and 1 collapse without the lightmap: it is stage 2, drawn over them; the glow skipped.
    CHECK(collapsesMultitexture(shaders[7]));
    CHECK(rLightmapStageCount(shaders[7]) == std::optional<size_t>(3));
    CHECK_FALSE(rLightmapStageCount(shaders[8]));
}
