// Source materials: .vmt files (patches resolved) and their .vtf textures, from the map's pakfile and
// the game folders' search paths (loose files and VPKs).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "luxel/io/source_game.hpp"
#include "luxel/material/vmt.hpp"
#include "luxel/material/vtf.hpp"
#include "luxel/util/error.hpp"
#include "material_loaders.hpp"

namespace luxel::materials {
namespace {

// Textures wider than this are decoded from a smaller mip: a frame never shows more, and the largest
// Source textures (4096) would cost 16x the time and memory.
constexpr int32_t kMaxSourceTextureSide = 1024;
constexpr int kMaxPatchDepth = 8;

RgbaImage decodeVtfFile(const GameFiles& files, const std::string& path) {
    const auto bytes = files.read(path);
    if (!bytes) throw UsageError(path + ": not found");
    const std::string name = files.describe(path).value_or(path);
    const VtfInfo info = readVtfInfo(*bytes, name);
    int mip = 0;
    while (mip + 1 < info.mips && std::max(info.width >> mip, info.height >> mip) > kMaxSourceTextureSide) ++mip;
    return decodeVtf(*bytes, name, mip);
}

struct SourceFiles {
    GameFiles files;
    MaterialSet& set;
    bool strict = false;

    std::optional<Vmt> parse(const std::string& path) {
        try {
            const auto bytes = files.read(path);
            if (!bytes) return std::nullopt;
            const std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
            return parseVmt(text, files.describe(path).value_or(path));
        } catch (const std::exception& e) {
            if (strict) throw;
            set.warnings.push_back(e.what());
            return std::nullopt;
        }
    }

    // "vpk /games/hl2/hl2_misc_dir.vpk" for info --materials.
    std::string origin(const std::string& name) const {
        const std::optional<FileOrigin> o = files.origin("materials/" + toLowerAscii(name) + ".vmt");
        return o ? std::string(fileOriginKindName(o->kind)) + " " + o->mount : "missing";
    }

    // materials/NAME.vmt with `patch` includes resolved; nullopt when it (or what a patch includes) is missing.
    std::optional<Vmt> material(const std::string& name) {
        const std::string path = "materials/" + toLowerAscii(name) + ".vmt";
        std::optional<Vmt> vmt = parse(path);
        std::vector<Vmt> patches;  // outermost first
        while (vmt && vmt->shader == "patch") {
            if (patches.size() == size_t(kMaxPatchDepth)) {
                set.warnings.push_back(path + ": more than " + std::to_string(kMaxPatchDepth) + " nested patches");
                return std::nullopt;
            }
            std::string include = toLowerAscii(vmt->includePath);
            if (!include.starts_with("materials/") && !files.exists(include)) include = "materials/" + include;
            patches.push_back(std::move(*vmt));
            vmt = parse(include);
        }
        if (!vmt) return std::nullopt;
        for (const Vmt& patch : patches) vmt = applyVmtPatch(*vmt, patch);
        return vmt;
    }

    // materials/X.vtf of a texture name; "" when missing.
    std::string texturePath(const std::string& texture) const {
        if (texture.empty()) return {};
        const std::string path = "materials/" + texture + ".vtf";
        return files.exists(path) ? path : std::string();
    }
};

// What of a VMT becomes stages beyond the one-texture look (LightmappedGeneric's pixel shader): a detail
// texture multiplied in as mod2x ($detailblendmode 0: base x 2 x detail, the detail read as bytes, 0.5 =
// neutral) at $detailscale of the base coordinates, and self-illumination ($selfillum: the result faded to
// base x $selfillumtint by the base's alpha).
struct SourceExtras {
    int32_t detail = -1;  // request index, then texture index
    Vec2 detailScale{4, 4};
    bool selfIllum = false;
    Vec3 selfIllumTint{1, 1, 1};
};

// The material as a program: lightmap, x base [x modulation colour], [x 2 x detail], [faded to base x tint by the base's alpha].
std::shared_ptr<const StageProgram> sourceProgram(const SurfaceLook& look, const SourceExtras& x) {
    auto program = std::make_shared<StageProgram>();
    MaterialStage light;
    light.source = MaterialStage::Source::Lightmap;
    light.texGen = MaterialStage::TexGen::Lightmap;
    program->stages.push_back(light);
    MaterialStage base;
    base.texture = look.texture;
    base.blends = true;
    base.src = BlendFactor::DstColor, base.dst = BlendFactor::Zero;
    if (!(look.albedoScale == Vec3{1, 1, 1})) base.color = MaterialStage::Color::Constant, base.constant = look.albedoScale;
    program->stages.push_back(base);
    if (x.detail >= 0) {
        MaterialStage detail;
        detail.texture = x.detail;
        detail.rawTexels = true;
        detail.affine[0] = x.detailScale.x, detail.affine[3] = x.detailScale.y;
        detail.blends = true;
        detail.src = BlendFactor::DstColor, detail.dst = BlendFactor::SrcColor;  // 2 x detail x what is there
        program->stages.push_back(detail);
    }
    if (x.selfIllum) {
        MaterialStage glow;
        glow.texture = look.texture;
        glow.color = MaterialStage::Color::LitConstant, glow.constant = x.selfIllumTint;
        glow.blends = true;
        glow.src = BlendFactor::SrcAlpha, glow.dst = BlendFactor::OneMinusSrcAlpha;
        program->stages.push_back(glow);
    }
    return program;
}

// A Water material's fog: $fogcolor (gamma-space bytes / 255, as the engine converts it to linear with 2.2) and
// $fogend - $fogstart (CalcWaterFogAlpha divides the depth seen through the water by that range). Without
// $fogenable the refraction shows the bottom unfogged: a fog that never thickens.
SurfaceLook::Water waterFog(const Vmt& vmt) {
    SurfaceLook::Water w;
    const Vec3 c = vmt.vector("$fogcolor").value_or(Vec3{0, 0, 0});
    w.fogColor = {std::pow(std::max(c.x, 0.0f), 2.2f), std::pow(std::max(c.y, 0.0f), 2.2f), std::pow(std::max(c.z, 0.0f), 2.2f)};
    const float range = leadingFloat(vmt.param("$fogend")) - leadingFloat(vmt.param("$fogstart"));
    w.fogRange = vmt.flag("$fogenable") ? range : std::numeric_limits<float>::infinity();
    return w;
}

// The shaders' colour modulation in linear light (CBaseShader::ComputeModulationColor, then
// SetModulationPixelShaderDynamicState_LinearColorSpace): $color x $color2 in gamma space, each channel to
// linear with 2.2 unless above 1. A model's render colour (Material::modelColor) stands in $color's place, as the
// studio renderer's ColorModulate writes it; $color2 tints models only ("{r g b}" bytes or "[r g b]").
Vec3 modulationColor(const Vmt& vmt, const Material& mat) {
    Vec3 c = mat.modelColor ? Vec3{mat.modelColor->x, mat.modelColor->y, mat.modelColor->z} : vmt.color().value_or(Vec3{1, 1, 1});
    if (mat.modelColor) c = c * vmt.vector("$color2").value_or(Vec3{1, 1, 1});
    auto linear = [](float v) { return v > 1.0f ? v : std::pow(std::max(v, 0.0f), 2.2f); };
    return {linear(c.x), linear(c.y), linear(c.z)};
}

// $hdrcompressedtexture texels: BGRA8888 holding linear rgb * alpha * 16 / 262144 (the engine's
// compressed HDR sky encoding), stored like every RgbaImage: (linear clamped to 1)^(1/2.2) as bytes.
RgbaImage decodeCompressedHdrVtf(const GameFiles& files, const std::string& path) {
    RgbaImage img = decodeVtfFile(files, path);
    for (size_t i = 0; i + 3 < img.rgba.size(); i += 4) {
        const float a = float(img.rgba[i + 3]) * 16.0f / 262144.0f;
        for (size_t c = 0; c < 3; ++c) {
            const float linear = std::min(1.0f, float(img.rgba[i + c]) * a);
            img.rgba[i + c] = uint8_t(std::lround(255.0f * std::pow(linear, 1.0f / 2.2f)));
        }
        img.rgba[i + 3] = 255;
    }
    return img;
}

// The 2D sky box of worldspawn `skyname`, as R_LoadNamedSkys finds it: materials/skybox/NAME{rt,bk,lf,ft,up,dn},
// in HDR NAME_hdr{...} when that face exists. Its texture: in HDR (or without a $basetexture) the Sky shader's
// $hdrcompressedtexture or $hdrbasetexture when given, else $basetexture; HDR texels above 1 are clamped
// (luxel's textures are 8-bit).
void loadSkyFaces(SourceFiles& s, const std::string& skyName, bool hdr, TextureRequests& requests, MaterialSet& set) {
    SkyBox& sky = set.skies.at(0);
    const std::string params = "vtf<=" + std::to_string(kMaxSourceTextureSide);
    static const char* const kSuffix[6] = {"rt", "bk", "lf", "ft", "up", "dn"};
    std::vector<std::string> missing;
    for (int k = 0; k < 6; ++k) {
        const std::string ldrName = "skybox/" + skyName + kSuffix[k], hdrName = "skybox/" + skyName + "_hdr" + kSuffix[k];
        std::optional<Vmt> vmt = hdr ? s.material(hdrName) : std::nullopt;
        if (!vmt) vmt = s.material(ldrName);
        std::string path;
        // The Sky shader's HDR textures in HDR, or when the material has no $basetexture at all.
        if (vmt && (hdr || vmt->baseTexture().empty())) {
            if (std::string p = s.texturePath(vmt->textureParam("$hdrcompressedtexture")); !p.empty())
                sky.faces[size_t(k)] = requests.add(s.files, p, params + " hdr-compressed", decodeCompressedHdrVtf);
            else
                path = s.texturePath(vmt->textureParam("$hdrbasetexture"));
        }
        if (sky.faces[size_t(k)] >= 0) continue;
        if (path.empty() && vmt) path = s.texturePath(vmt->baseTexture());
        if (path.empty())
            missing.push_back(ldrName);  // its .vmt, or the texture it names
        else
            sky.faces[size_t(k)] = requests.add(s.files, path, params, decodeVtfFile);
    }
    if (!missing.empty()) set.warnings.push_back(skyFacesMissing("sky " + skyName + ": sky box", missing));
}

}  // namespace

void loadSource(const World& world, const MaterialOptions& options, MaterialSet& set) {
    set.textureGamma = 2.2f;
    SourceFiles s{mountSourceGame(world.file + ":pakfile", world.embeddedArchive, options.gameDirs, options.strict, set.warnings),
                  set, options.strict};

    TextureRequests requests;
    set.skies.resize(1);
    std::vector<SourceExtras> extras(world.materials.size());
    auto request = [&](const std::string& path) {
        return requests.add(s.files, path, "vtf<=" + std::to_string(kMaxSourceTextureSide), decodeVtfFile);
    };
    for (size_t i = 0; i < world.materials.size(); ++i) {
        const Material& mat = world.materials[i];
        SurfaceLook& look = set.looks[i];
        set.origins.push_back(s.origin(mat.name));
        if (mat.flags & kMaterialNoDraw) {  // tool textures (the decoder knows them by name) and nodraw faces
            look.hidden = toLowerAscii(mat.name).starts_with("tools/");
            continue;
        }
        if (mat.flags & kMaterialSky) {  // the map's one sky (worldspawn "skyname")
            look.skyBox = 0;
            continue;
        }
        const std::optional<Vmt> vmt = s.material(mat.name);
        if (!vmt) {
            addMissing(set, mat.name);  // the texdata reflectivity stays
            continue;
        }
        if (vmt->noDraw()) {
            look.hidden = true;
            continue;
        }
        if (vmt->sky()) {
            look.sky = true;
            look.skyBox = 0;
            continue;
        }
        if (vmt->shader == "water") {  // seen from above: its fog over what lies below (SurfaceLook::water)
            look.water = waterFog(*vmt);
            look.blend = BlendMode::Blend;
            continue;
        }
        look.unlit = vmt->shader == "unlitgeneric";
        look.twoSided = vmt->flag("$nocull");
        if (vmt->alphaTest()) {
            look.blend = BlendMode::AlphaTest;
            look.alphaRef = vmt->alphaTestReference();
        }
        if (vmt->translucent()) look.blend = BlendMode::Blend;
        if (vmt->additive()) look.blend = BlendMode::Additive;
        // A model's render alpha takes $alpha's place (the studio renderer's AlphaModulate writes it).
        if (const std::string alpha = vmt->param("$alpha"); !alpha.empty() || mat.modelColor) {
            const float a = mat.modelColor ? mat.modelColor->w : float(std::atof(alpha.c_str()));
            look.opacity = std::clamp(a, 0.0f, 1.0f);
            if (look.opacity < 1.0f && look.blend == BlendMode::Opaque) look.blend = BlendMode::Blend;
        }
        // $blendtintbybasealpha fades the tint in by the base alpha per texel: left out, drawn untinted.
        if (vmt->flag("$blendtintbybasealpha")) look.notDrawn.push_back("$blendtintbybasealpha (drawn untinted)");
        else look.albedoScale = modulationColor(*vmt, mat);
        const std::string base = vmt->baseTexture();
        if (base.empty()) continue;  // water, refract, ...: drawn with the texdata reflectivity
        if (const std::string path = s.texturePath(base); !path.empty())
            look.texture = request(path);
        else
            addMissing(set, mat.name);
        if (const std::string path = s.texturePath(vmt->baseTexture2()); !path.empty()) look.texture2 = request(path);
        // Stages past the one-texture look, for opaque materials without a second base texture.
        SourceExtras& x = extras[i];
        const std::string detail = toLowerAscii(vmt->param("$detail"));
        const int mode = int(leadingFloat(vmt->param("$detailblendmode")));
        const std::string factor = vmt->param("$detailblendfactor");
        if (!detail.empty()) {
            const std::string path = s.texturePath(detail);
            if (mode != 0) look.notDrawn.push_back("$detailblendmode " + std::to_string(mode));
            else if (!factor.empty() && leadingFloat(factor) != 1.0f) look.notDrawn.push_back("$detailblendfactor " + factor);
            else if (path.empty()) look.notDrawn.push_back("$detail " + detail + " (not found)");
            else x.detail = request(path);
            if (const auto scale = vmt->vector("$detailscale")) x.detailScale = {scale->x, scale->y};
        }
        if (vmt->selfIllum()) {
            x.selfIllum = true;
            if (const auto tint = vmt->vector("$selfillumtint")) x.selfIllumTint = *tint;
            if (!vmt->param("$selfillummask").empty()) look.notDrawn.push_back("$selfillummask (the base alpha is used)");
        }
        if (!vmt->param("$envmap").empty()) look.notDrawn.push_back("$envmap");
        if (!vmt->param("$bumpmap").empty()) look.notDrawn.push_back("$bumpmap");
    }

    const Entity* worldspawn = world.entities.empty() ? nullptr : &world.entities[0];
    if (const std::string* sky = worldspawn ? worldspawn->get("skyname") : nullptr; sky && !sky->empty())
        loadSkyFaces(s, toLowerAscii(*sky), world.hdrLighting, requests, set);
    requests.resolve(set, world, false, options.textureBudget);
    // What the archives found wrong, reads of the textures above included.
    const std::vector<std::string> archiveWarnings = s.files.warnings();
    if (options.strict && !archiveWarnings.empty()) throw UsageError(archiveWarnings.front() + " (--strict)");
    set.warnings.insert(set.warnings.end(), archiveWarnings.begin(), archiveWarnings.end());
    for (size_t i = 0; i < set.looks.size(); ++i) {
        SurfaceLook& look = set.looks[i];
        SourceExtras x = extras[i];
        if (x.detail >= 0) x.detail = requests.textureIndex(x.detail);
        if ((x.detail >= 0 || x.selfIllum) && look.texture >= 0 && look.texture2 < 0 && look.blend == BlendMode::Opaque &&
            !look.unlit)
            look.program = sourceProgram(look, x);
        else if (x.detail >= 0 || x.selfIllum)
            look.notDrawn.push_back("$detail / $selfillum on a blended, unlit or two-texture material");
    }
}

}  // namespace luxel::materials
