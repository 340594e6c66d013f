#include <catch2/catch.hpp>

#include <string>

#include "luxel/material/vmt.hpp"
#include "luxel/util/error.hpp"

using namespace luxel;

TEST_CASE("parseVmt reads quoted and bare tokens, comments and flags", "[shader_parse]") {
    const std::string text =
        "// leading comment\n"
        "\"LightmappedGeneric\"\n"
        "{\n"
        "\t\"$basetexture\" \"Concrete\\Concrete_Floor01\"   // trailing comment\n"
        "\t$surfaceprop concrete\n"
        "\t\"$alphatest\" 1\n"
        "\t$alphatestreference \"0.35\"\n"
        "\t\"$selfillum\" \"1\"\n"
        "\t$translucent 0\n"
        "\t\"$color\" \"[0.5 0.25 1]\"\n"
        "\t\"%keywords\" \"cs two words\"\n"
        "\t\"$BaseTexture2\" \"nature/grass\"\n"
        "\t\"$unknown_param_xyz\" \"whatever\"\n"
        "}\n";
    Vmt v = parseVmt(text, "materials/concrete/floor.vmt");
    CHECK(v.shader == "lightmappedgeneric");
    CHECK(v.baseTexture() == "concrete/concrete_floor01");
    CHECK(v.baseTexture2() == "nature/grass");
    CHECK(v.param("$surfaceprop") == "concrete");
    CHECK(v.param("%KEYWORDS") == "cs two words");
    CHECK(v.param("$unknown_param_xyz") == "whatever");
    CHECK(v.param("$missing").empty());
    CHECK(v.alphaTest());
    CHECK(v.alphaTestReference() == 0.35f);
    CHECK(v.selfIllum());
    CHECK_FALSE(v.translucent());
    CHECK_FALSE(v.additive());
    CHECK_FALSE(v.noDraw());
    REQUIRE(v.color());
    CHECK(*v.color() == Vec3{0.5f, 0.25f, 1.0f});
    CHECK(v.includePath.empty());
    CHECK(v.fallbackBlock.empty());
    CHECK(v.params.size() == 10);
}

TEST_CASE("Vmt accessors: defaults, colour syntaxes, tool flags", "[shader_parse]") {
    auto one = [](const std::string& body) { return parseVmt("\"UnlitGeneric\" {\n" + body + "\n}", "t.vmt"); };
    // Valve's default alpha-test reference (CShaderShadowDX8::SetDefaultState: GEQUAL 0.7) applies
    // when $alphatestreference is absent or not above 0.
    CHECK(one("$alphatest 1").alphaTestReference() == 0.7f);
    CHECK(one("$alphatest 1 $alphatestreference 0").alphaTestReference() == 0.7f);
    CHECK(one("$alphatestreference .5").alphaTestReference() == 0.5f);

    CHECK_FALSE(one("$basetexture a").color());
    auto braces = one("$color \"{255 128 0}\"").color();  // {} means 0..255
    REQUIRE(braces);
    CHECK(braces->x == Approx(1.0f));
    CHECK(braces->y == Approx(128.0f / 255.0f));
    CHECK(braces->z == 0.0f);
    CHECK(*one("$color \" [ 2 3 4 ] \"").color() == Vec3{2, 3, 4});
    CHECK(*one("$color 0.5").color() == Vec3{0.5f, 0.5f, 0.5f});  // a float var reads as a splat vector
    CHECK(*one("$color \"[1]\"").color() == Vec3{1, 0, 0});     // missing components are 0
    CHECK_FALSE(one("$color \"[]\"").color());
    CHECK_FALSE(one("$color red").color());

    // Flags read like KeyValues::GetInt (atoi).
    CHECK(one("$translucent 1").translucent());
    CHECK(one("$translucent 1.0").translucent());
    CHECK_FALSE(one("$translucent 0.5").translucent());
    CHECK_FALSE(one("$translucent true").translucent());
    CHECK(one("$additive 1").additive());

    CHECK(one("$no_draw 1").noDraw());
    CHECK(one("%compilenodraw 1").noDraw());
    CHECK(one("%compileclip 1").noDraw());
    CHECK(one("%compiletrigger 1").noDraw());
    CHECK_FALSE(one("%compilenodraw 0").noDraw());
    CHECK_FALSE(one("%compilesky 1").noDraw());
    CHECK(one("%compilesky 1").sky());
    CHECK(one("%compile2dsky 1").sky());
}

TEST_CASE("parseVmt ignores proxies and other nested blocks", "[shader_parse]") {
    const std::string text = R"VMT("UnlitGeneric"
{
	"$basetexture" "effects/water"
	"Proxies"
	{
		"AnimatedTexture"
		{
			"animatedTextureVar" "$basetexture"
			"$basetexture" "ignored/inside/proxy"
		}
		"TextureScroll" { "texturescrollvar" "$basetexturetransform" }
	}
	"$additive" "1"
}
)VMT";
    Vmt v = parseVmt(text, "t.vmt");
    CHECK(v.baseTexture() == "effects/water");
    CHECK(v.additive());
    CHECK(v.params.size() == 2);
    CHECK(v.param("animatedtexturevar").empty());
}

TEST_CASE("parseVmt applies one DX9 fallback block, which wins over top-level keys", "[shader_parse]") {
    SECTION(">=dx90 taken, <dx90, <=dx80 and _DX8 ignored") {
        const std::string text = R"VMT("LightmappedGeneric"
{
	"$basetexture" "top/level"
	"$envmap" "env_cubemap"
	"<dx90"
	{
		"$basetexture" "old/dx8"
	}
	">=dx90"
	{
		"$envmap" "dx9/cube"
		"$detail" "dx9/detail"
	}
	"LightmappedGeneric_DX8" { "$basetexture" "dx8/fallback" }
	"<=dx80" { "$bogus" "1" }
}
)VMT";
        Vmt v = parseVmt(text, "t.vmt");
        CHECK(v.fallbackBlock == ">=dx90");
        CHECK(v.param("$basetexture") == "top/level");
        CHECK(v.param("$envmap") == "dx9/cube");
        CHECK(v.param("$detail") == "dx9/detail");
        CHECK(v.param("$bogus").empty());
    }
    SECTION("shader-named fallback blocks: _HDR_DX9 before _DX9") {
        Vmt dx9 = parseVmt("LightmappedGeneric { $basetexture a LightmappedGeneric_DX9 { $basetexture b } }", "t");
        CHECK(dx9.fallbackBlock == "LightmappedGeneric_DX9");
        CHECK(dx9.param("$basetexture") == "b");
        Vmt hdr = parseVmt(
            "LightmappedGeneric { $basetexture a LightmappedGeneric_DX9 { $basetexture b } "
            "lightmappedgeneric_hdr_dx9 { $basetexture c } }",
            "t");
        CHECK(hdr.fallbackBlock == "lightmappedgeneric_hdr_dx9");
        CHECK(hdr.param("$basetexture") == "c");
        // A block for another shader's name is not a fallback of this one.
        Vmt other = parseVmt("LightmappedGeneric { $basetexture a VertexLitGeneric_DX9 { $basetexture b } }", "t");
        CHECK(other.fallbackBlock.empty());
        CHECK(other.param("$basetexture") == "a");
    }
    SECTION(">=dx90_20b beats >=dx90 regardless of file order") {
        Vmt v = parseVmt("Water { \">=dx90\" { $x 1 } \">=DX90_20b\" { $x 2 } }", "t");
        CHECK(v.fallbackBlock == ">=DX90_20b");
        CHECK(v.param("$x") == "2");
    }
}

TEST_CASE("parseVmt evaluates [$PLATFORM] and cond? key conditions for a Windows PC", "[shader_parse]") {
    SECTION("platform conditions after values") {
        const std::string text = R"VMT("VertexLitGeneric"
{
	"$basetexture" "models/x360" [$X360]
	"$basetexture" "models/pc" [!$X360]
	"$envmap" "env_cubemap" [$WIN32]
	"$phong" "1" [$X360 || $WIN32]
	"$rimlight" "1" [$X360 && $WIN32]
	"Proxies" [$X360] { "Foo" { } }
}
)VMT";
        Vmt v = parseVmt(text, "t.vmt");
        CHECK(v.param("$basetexture") == "models/pc");
        CHECK(v.param("$envmap") == "env_cubemap");
        CHECK(v.param("$phong") == "1");
        CHECK(v.param("$rimlight").empty());
    }
    SECTION("cond?$key: first unconditional definition wins, a holding condition replaces") {
        const std::string text = R"VMT("LightmappedGeneric"
{
	"$basetexture" "a"
	"$envmaptint" "[1 1 1]"
	"hdr?$envmaptint" "[.5 .5 .5]"
	"ldr?$basetexture" "ldr/only"
	"!360?$detail" "pc/detail"
	"GPU>=2?$bumpmap" "hi/bump"
	"GPU<2?$bumpmap" "lo/bump"
	"$basetexture" "second/ignored"
}
)VMT";
        Vmt v = parseVmt(text, "t.vmt");
        CHECK(v.param("$basetexture") == "a");
        CHECK(v.param("$envmaptint") == "[.5 .5 .5]");
        CHECK(v.param("$detail") == "pc/detail");
        CHECK(v.param("$bumpmap") == "hi/bump");
        CHECK(v.param("hdr?$envmaptint").empty());
    }
}

TEST_CASE("parseVmt returns a patch's include and keys; applyVmtPatch resolves it", "[shader_parse]") {
    const std::string patchText = R"VMT(patch
{
	include "materials\concrete\base.vmt"
	replace
	{
		"$basetexture" "concrete/replaced"
		"$notinbase" "x"
	}
	insert
	{
		"$envmap" "maps/test/c0_0_0"
		"$envmapcontrast" 1
	}
}
)VMT";
    Vmt patch = parseVmt(patchText, "materials/maps/test/concrete/base_0_0_0.vmt");
    CHECK(patch.shader == "patch");
    CHECK(patch.includePath == "materials/concrete/base.vmt");
    CHECK(patch.params.empty());
    CHECK(patch.replaceParams == std::map<std::string, std::string>{{"$basetexture", "concrete/replaced"},
                                                                     {"$notinbase", "x"}});
    CHECK(patch.insertParams == std::map<std::string, std::string>{{"$envmap", "maps/test/c0_0_0"},
                                                                    {"$envmapcontrast", "1"}});

    Vmt base = parseVmt("\"LightmappedGeneric\" { \"$basetexture\" \"concrete/base\" \"$surfaceprop\" \"concrete\" }",
                        "materials/concrete/base.vmt");
    Vmt resolved = applyVmtPatch(base, patch);
    CHECK(resolved.shader == "lightmappedgeneric");
    CHECK(resolved.baseTexture() == "concrete/replaced");        // replace: key existed
    CHECK(resolved.param("$notinbase").empty());                 // replace: key did not exist
    CHECK(resolved.param("$envmap") == "maps/test/c0_0_0");      // insert adds
    CHECK(resolved.param("$surfaceprop") == "concrete");         // untouched
    CHECK(resolved.includePath.empty());
}

TEST_CASE("parseVmt tolerates a UTF-8 byte order mark and CRLF", "[shader_parse]") {
    Vmt v = parseVmt("\xEF\xBB\xBF\"UnlitGeneric\"\r\n{\r\n\t\"$basetexture\" \"a/b\"\r\n}\r\n", "bom.vmt");
    CHECK(v.shader == "unlitgeneric");
    CHECK(v.baseTexture() == "a/b");
}

TEST_CASE("parseVmt rejects malformed text with file, byte offset and line", "[shader_parse]") {
    struct Case {
        std::string text;
        int line;
        std::string what;
    };
    const std::string unclosed = "LightmappedGeneric\n{\n\t$basetexture x\n";
    const Case cases[] = {
        {"", 1, "no shader name"},
        {"   // only a comment\n", 1, "no shader name"},
        {"\"LightmappedGeneric\"", 1, "expected '{'"},
        {"hello world", 1, "expected '{'"},
        {"{ \"$a\" \"b\" }", 1, "expected a shader name"},
        {unclosed, 2, "never closed"},
        {"X\n{\n\t\"$basetexture\"\n}\n", 4, "'}' where the value"},
        {"X { \"$a\" \"b\" }\n}", 2, "unbalanced '}'"},
        {"X { \"$a\" \"b\" }\nY {", 2, "unbalanced '{'"},
        {"X { { } }", 1, "'{' where a key"},
        {"X {\n $a", 2, "no value"},
        {"X { \"$a\" \"unterminated }", 1, "unterminated quoted string"},
        {std::string("\x01\x02}", 3), 1, "expected '{'"},
    };
    for (const Case& c : cases) {
        INFO("text: " << c.text);
        try {
            parseVmt(c.text, "materials/bad.vmt");
            FAIL("no DecodeError");
        } catch (const DecodeError& e) {
            CHECK(e.file() == "materials/bad.vmt");
            CHECK(e.detail().find("line " + std::to_string(c.line) + ":") == 0);
            CHECK(e.detail().find(c.what) != std::string::npos);
        }
    }
    // The unclosed block is reported at its '{'.
    try {
        parseVmt(unclosed, "materials/bad.vmt");
    } catch (const DecodeError& e) {
        CHECK(e.offset() == unclosed.find('{'));
    }
}

TEST_CASE("parseVmt throws nothing but DecodeError on scrambled text", "[shader_parse]") {
    std::string alphabet = "{}[]\"/\n $!?|&abcXWIN32<>=_0.";
    alphabet.push_back('\0');
    alphabet.push_back('\xff');
    uint32_t state = 99;
    int parsed = 0, rejected = 0;
    for (int round = 0; round < 2000; ++round) {
        std::string junk;
        for (int i = 0; i < round % 120; ++i) {
            state = state * 1664525u + 1013904223u;
            junk += alphabet[(state >> 16) % alphabet.size()];
        }
        try {
            Vmt v = parseVmt(junk, "junk.vmt");
            (void)v.color();
            ++parsed;
        } catch (const DecodeError&) {
            ++rejected;
        }
    }
    CHECK(parsed + rejected == 2000);
    CHECK(rejected > 0);
}
