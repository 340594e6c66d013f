// Quake 2 materials: replacement images (PNG / TGA / JPEG) or .wal textures through the game's palette,
// from loose game directories.
#include <cmath>
#include <cstdio>
#include <memory>

#include "luxel/bsp/q2_surface_flags.hpp"
#include "luxel/material/wal.hpp"
#include "luxel/util/error.hpp"
#include "material_loaders.hpp"

namespace luxel::materials {
namespace {

using namespace q2flags;
// Quake 2 cycles animated textures at 2 frames a second (R_TextureAnimation: r_newrefdef.time * 2).
constexpr double kFramesPerSecond = 2.0;
constexpr int kMaxAnimationFrames = 64;

// A texture is looked for under textures/ (a game dir) and at the top (a dir that is the textures folder).
std::string findReplacement(const GameFiles& files, const std::string& name) {
    std::vector<std::string> candidates;
    for (const std::string prefix : {"textures/", ""})
        for (const char* ext : {".png", ".tga", ".jpg"}) candidates.push_back(prefix + name + ext);
    return firstExisting(files, candidates);
}

std::string findWal(const GameFiles& files, const std::string& name) {
    return firstExisting(files, {"textures/" + name + ".wal", name + ".wal"});
}

std::optional<WalInfo> readWalHeader(const GameFiles& files, const std::string& path, MaterialSet& set) {
    try {
        if (auto bytes = files.read(path)) return readWalInfo(*bytes, files.describe(path).value_or(path));
    } catch (const std::exception& e) {
        set.warnings.push_back(e.what());
    }
    return std::nullopt;
}

std::string paletteKey(const Palette& p) {
    uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a: textures decoded through different palettes differ
    for (const auto& rgb : p)
        for (uint8_t b : rgb) h = (h ^ b) * 0x100000001b3ull;
    return "wal:" + std::to_string(h);
}

// Warped (water, slime, lava) and flowing surfaces as a stage program at `time` (ioquake2's gl_warp.c
// EmitWaterPolys and gl_rsurf.c DrawGLFlowingPoly). Warped: the texture alone, full bright, coordinates
// turbulent (MaterialStage::TexGen::Quake2Warp) and divided by 64 whatever the texture's size; flowing ones
// scroll by -64 x frac(time / 2) texels first. Flowing, not warped: the lightmap times the texture, its s moved
// by -64 x frac(time / 40) texture widths. trans33 / trans66 blend the texture at 0.33 / 0.66, unlit.
std::shared_ptr<const StageProgram> quake2Program(uint32_t flags, const SurfaceLook& look, Vec2 texelScale, float time) {
    auto program = std::make_shared<StageProgram>();
    MaterialStage texture;
    texture.texture = look.texture;
    const double t = double(time);
    const auto frac = [](double v) { return v - std::floor(v); };
    if (flags & kSurfWarp) {
        texture.texGen = MaterialStage::TexGen::Quake2Warp;
        texture.warpTime = t;
        const double scroll = (flags & kSurfFlowing) ? -64.0 * frac(t * 0.5) : 0.0;
        const float m[6] = {1.0f / 64, 0, 0, 1.0f / 64, float(frac(scroll / 64.0)), 0};
        std::copy(std::begin(m), std::end(m), std::begin(texture.affine));
    } else {
        if (look.opacity >= 1.0f) {  // R_DrawAlphaSurfaces draws trans33 / trans66 without their lightmap
            MaterialStage light;
            light.source = MaterialStage::Source::Lightmap;
            light.texGen = MaterialStage::TexGen::Lightmap;
            program->stages.push_back(light);
            texture.blends = true;
            texture.src = BlendFactor::DstColor, texture.dst = BlendFactor::Zero;
        }
        const float m[6] = {texelScale.x, 0, 0, texelScale.y, float(frac(-64.0 * frac(t / 40.0))), 0};
        std::copy(std::begin(m), std::end(m), std::begin(texture.affine));
    }
    if (look.opacity < 1.0f) {
        texture.blends = true;
        texture.src = BlendFactor::SrcAlpha, texture.dst = BlendFactor::OneMinusSrcAlpha;
        texture.alpha = MaterialStage::Alpha::Constant, texture.alphaConstant = look.opacity;
    }
    program->stages.push_back(texture);
    return program;
}

}  // namespace

void loadQuake2(const World& world, const MaterialOptions& options, MaterialSet& set) {
    set.textureGamma = 1.0f;
    GameFiles files;
    for (const std::string& dir : options.gameDirs) files.addQuakeGameDir(dir);  // its paks, then its loose files

    std::shared_ptr<const Palette> palette;
    if (!options.palette.empty()) {
        const Bytes bytes = readFile(options.palette);
        try {
            palette = std::make_shared<const Palette>(readPcxPalette(bytes, options.palette));
        } catch (const DecodeError& e) {
            throw UsageError(std::string("--palette: ") + e.what());
        }
    } else if (auto bytes = files.read("pics/colormap.pcx")) {  // the game's own, when a game dir has it
        try {
            palette = std::make_shared<const Palette>(readPcxPalette(*bytes, "pics/colormap.pcx"));
        } catch (const DecodeError& e) {
            set.warnings.push_back(e.what());
        }
    }
    const std::string walParams = palette ? paletteKey(*palette) : std::string();

    TextureRequests requests;
    std::vector<bool> scaleFromImage(world.materials.size(), false);
    bool warnedPalette = false;
    for (size_t i = 0; i < world.materials.size(); ++i) {
        const Material& mat = world.materials[i];
        SurfaceLook& look = set.looks[i];
        if (mat.flags & kMaterialSky) look.skyBox = 0;                // the map's one sky (worldspawn "sky")
        // The map's flags hide them / draw sky; a sky that emits light (SURF_LIGHT) still loads its texture,
        // whose mean colour ericw-tools gives its light.
        const bool skyLight = (mat.flags & kMaterialSky) && (mat.nativeSurfaceFlags & kSurfLight);
        if ((mat.flags & (kMaterialNoDraw | kMaterialSky)) && !skyLight) continue;
        const uint32_t f = mat.nativeSurfaceFlags;
        look.unlit = (f & kSurfWarp) != 0;
        // Light passes liquids and windows: their brushes are not CONTENTS_SOLID, which is all qrad3 traces,
        // and ericw-tools leaves warp and translucent faces out of its shadow casters; a window tints the
        // light by its texture (with no image found, it lets the light through untouched).
        if (f & kSurfWarp) look.shadow = ShadowCast::None;
        if (f & (kSurfTrans33 | kSurfTrans66)) look.shadow = ShadowCast::Tint;
        // ericw-tools' fences: light passes where the texel is not opaque; a fence whose image is not found
        // is whole (the ray scene's rule), as the stored light of ericw-tools' own fence test map shows.
        if (f & kSurfAlphaTest) look.shadow = ShadowCast::AlphaTexture;
        if (f & (kSurfTrans33 | kSurfTrans66)) {
            look.blend = BlendMode::Blend;
            look.opacity = (f & kSurfTrans33) ? 0.33f : 0.66f;
        }

        std::string name = toLowerAscii(mat.name);
        std::string walPath = findWal(files, name);
        std::optional<WalInfo> wal = walPath.empty() ? std::nullopt : readWalHeader(files, walPath, set);
        if (wal && !wal->nextName.empty()) {
            std::vector<std::pair<std::string, std::string>> chain{{name, walPath}};  // (name, .wal path)
            std::optional<WalInfo> at = wal;
            while (at && !at->nextName.empty() && chain.size() < size_t(kMaxAnimationFrames)) {
                const std::string next = toLowerAscii(at->nextName);
                if (next == name) break;
                const std::string nextPath = findWal(files, next);
                if (nextPath.empty()) break;
                chain.emplace_back(next, nextPath);
                at = readWalHeader(files, nextPath, set);
            }
            const double t = std::floor(double(options.time) * kFramesPerSecond);
            const auto n = double(chain.size());
            double k = std::isfinite(t) ? std::fmod(t, n) : 0.0;
            if (k < 0) k += n;
            const size_t frame = std::min(chain.size() - 1, size_t(k));
            if (frame > 0) {
                name = chain[frame].first;
                walPath = chain[frame].second;
                wal = readWalHeader(files, walPath, set);
            }
        }
        if (wal && wal->width > 0 && wal->height > 0)
            look.tcScale = {1.0f / float(wal->width), 1.0f / float(wal->height)};  // texUV are in .wal texels

        if (const std::string image = findReplacement(files, name); !image.empty()) {
            look.texture = requests.addImage(files, image);
            scaleFromImage[i] = !wal;
        } else if (wal && palette) {
            look.texture = requests.add(files, walPath, walParams, [palette](const GameFiles& g, const std::string& p) {
                const auto bytes = g.read(p);
                if (!bytes) throw UsageError(p + ": not found");
                return decodeWal(*bytes, g.describe(p).value_or(p), *palette);
            });
        } else {
            if (wal && !warnedPalette) {
                set.warnings.push_back(walPath + ": .wal textures need --palette (pics/colormap.pcx)");
                warnedPalette = true;
            }
            look.missing = true;
            addMissing(set, mat.name);
        }
    }

    const Entity* worldspawn = world.entities.empty() ? nullptr : &world.entities[0];
    set.skies.resize(1);
    SkyBox& skyBox = set.skies[0];
    if (const std::string* sky = worldspawn ? worldspawn->get("sky") : nullptr; sky && !sky->empty()) {
        static const char* const kSuffix[6] = {"rt", "bk", "lf", "ft", "up", "dn"};
        std::vector<std::string> missing;
        for (int k = 0; k < 6; ++k) {
            const std::string base = "env/" + toLowerAscii(*sky) + kSuffix[k];
            const std::string path =
                firstExisting(files, {base + ".tga", base + ".png", base + ".jpg", base + ".pcx"});
            if (path.empty())
                missing.push_back(base);
            else
                skyBox.faces[size_t(k)] = requests.addImage(files, path);
        }
        if (!missing.empty()) set.warnings.push_back(skyFacesMissing("sky " + *sky + ": sky box", missing));
    }

    if (const std::string* rotate = worldspawn ? worldspawn->get("skyrotate") : nullptr; rotate && skyBox.hasBox()) {
        Vec3 axis{0, 0, 1};
        if (const std::string* a = worldspawn->get("skyaxis")) {
            float v[3] = {0, 0, 0};
            if (std::sscanf(a->c_str(), "%f %f %f", &v[0], &v[1], &v[2]) == 3) axis = {v[0], v[1], v[2]};
        }
        const double degrees = double(options.time) * double(leadingFloat(*rotate));
        if (std::isfinite(degrees) && dot(axis, axis) > 0 && std::fmod(degrees, 360.0) != 0) {
            // The box turned by +degrees about the axis: look up R(-degrees) d (Rodrigues' rotation matrix).
            const Vec3 k = normalize(axis);
            const double a = -std::fmod(degrees, 360.0) * 3.14159265358979323846 / 180.0;
            const float c = float(std::cos(a)), si = float(std::sin(a)), t = 1 - c;
            const float m[9] = {t * k.x * k.x + c,        t * k.x * k.y - si * k.z, t * k.x * k.z + si * k.y,
                                t * k.x * k.y + si * k.z, t * k.y * k.y + c,        t * k.y * k.z - si * k.x,
                                t * k.x * k.z - si * k.y, t * k.y * k.z + si * k.x, t * k.z * k.z + c};
            std::copy(std::begin(m), std::end(m), std::begin(skyBox.toBox));
            skyBox.rotated = true;
        }
    }

    requests.resolve(set, world, true, options.textureBudget);
    for (size_t i = 0; i < set.looks.size(); ++i) {
        SurfaceLook& look = set.looks[i];
        if (scaleFromImage[i] && look.texture >= 0) {
            const Texture& t = *set.textures[size_t(look.texture)];
            look.tcScale = {1.0f / float(t.width()), 1.0f / float(t.height())};
        }
        const uint32_t flags = world.materials[i].nativeSurfaceFlags;
        if (look.shadow == ShadowCast::Tint && look.texture < 0) look.shadow = ShadowCast::None;  // no image: no tint
        if (look.texture >= 0 && (flags & (kSurfWarp | kSurfFlowing)) && !(world.materials[i].flags & (kMaterialNoDraw | kMaterialSky)))
            look.program = quake2Program(flags, look, look.tcScale, options.time);
    }
}

}  // namespace luxel::materials
