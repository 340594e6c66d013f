#pragma once
// Source engine material files (.vmt, Valve KeyValues text): parsed and resolved the way the engine's
// material system reads them, for a DirectX 9-class PC (DX level 95 with ps2.0b, HDR on), so that the
// renderer only sees the parameters that would take effect. Pure functions over text; callers read
// the files and resolve `patch` includes.
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "luxel/util/math.hpp"

namespace luxel {

struct Vmt {
    std::string shader;  // lower case: "lightmappedgeneric", "unlitgeneric", "patch", ...
    // Effective parameters, keys lower case ("$basetexture"), values as written. Resolution follows
    // CMaterial::InitializeShader / ParseMaterialVars:
    //  * One conditional fallback block may apply. The first of ">=dx90_20b", ">=dx90", ">dx90",
    //    "hdr_dx9", "hdr", "dx9" present as a block named either exactly that or "<shader>_<that>"
    //    ("LightmappedGeneric_DX9", "LightmappedGeneric_HDR_DX9") is chosen; "<dx90", "<dx95",
    //    "<=dx90", "ldr", "*_dx8" and every other nested block (Proxies, ...) are ignored.
    //  * The chosen block's keys win over the top-level ones; otherwise the FIRST definition of a key
    //    wins (the engine reports "multiply defined" and keeps the first).
    //  * "cond?$key" keys apply only when cond holds (hdr, !ldr, !360, !lowfill, !srgb, gpu>=N hold)
    //    and then replace any earlier value.
    //  * A "[$X360]"-style condition after a value or block drops it unless it holds on Windows PC
    //    ($WIN32, $WINDOWS; ! negates; && and || combine).
    std::map<std::string, std::string> params;
    // `patch` materials: `include "materials/x.vmt"` ('\' turned to '/'), and the keys of the
    // insert / replace blocks (lower-case keys, conditions resolved). params stays empty: apply the
    // patch to the included material with applyVmtPatch.
    std::string includePath;
    std::map<std::string, std::string> insertParams, replaceParams;
    std::string fallbackBlock;  // name of the applied conditional block as written, "" for none

    // The value of a parameter (key in any case), "" when absent.
    std::string param(std::string_view key) const;
    // A material flag ($translucent 1): the value read as an integer like KeyValues::GetInt (atoi).
    bool flag(std::string_view key) const;

    // $basetexture / $basetexture2 as a texture name: lower case, '/' separators (the file is
    // materials/<name>.vtf).
    std::string baseTexture() const;
    std::string baseTexture2() const;
    std::string textureParam(std::string_view key) const;  // any texture parameter, named the same way
    bool translucent() const { return flag("$translucent"); }
    bool alphaTest() const { return flag("$alphatest"); }
    bool selfIllum() const { return flag("$selfillum"); }
    bool additive() const { return flag("$additive"); }
    // Never drawn: the $no_draw flag, or a compile flag whose faces vbsp removes or hides
    // (%compilenodraw, %compileclip, %compileplayerclip, %compilenpcclip, %compiletrigger,
    // %compileskip, %compilehint, %compileorigin, %compileareaportal).
    bool noDraw() const;
    bool sky() const;  // %compilesky or %compile2dsky
    // The alpha-test threshold the engine uses: $alphatestreference when above 0, else 0.7, the
    // reference CShaderShadowDX8::SetDefaultState leaves in place (the helpers override it only for
    // values > 0).
    float alphaTestReference() const;
    // $color: "[r g b]" as is, "{r g b}" divided by 255 (CreateVectorMaterialVarFromKeyValue),
    // a single number for all three; missing bracket components are 0; nullopt when absent or bad.
    std::optional<Vec3> color() const;
    // Any colour / vector parameter read the same way ($selfillumtint, $detailscale "[4 4]" or "4").
    std::optional<Vec3> vector(std::string_view key) const;
};

// Parses one .vmt. Unknown keys and blocks are fine; malformed text (no root block, unbalanced
// braces, a key without a value, '}' where a value belongs) throws DecodeError naming the file,
// the byte offset and the line.
Vmt parseVmt(std::string_view text, const std::string& fileName);

// The material a patch produces (ApplyPatchKeyValues): `base` with every insert key set and every
// replace key set only if base already has it. For a chain of patches apply the outermost first.
Vmt applyVmtPatch(const Vmt& base, const Vmt& patch);

}  // namespace luxel
