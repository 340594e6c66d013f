// Quake 1 and Half-Life materials: the textures embedded in the map (the miptex lump), else found in the WAD
// files the worldspawn's "wad" key names, through Quake's palette (Half-Life: each texture's own), drawn as
// QuakeSpasm draws them: texture x 2 x lightmap (gl_overbright 1),
// fullbright colours (indices 224-255) added unlit, liquids and teleporters (`*`) warped and unlit (or lit:
// litWarpProgram) and blended at the map's liquid alphas, fences (`{`)
// cut out at index 255, animated textures (`+0`..`+9`) at the set's time, and the sky's two scrolling layers
// (the texture's left half over its right), or the sky box gfx/env/NAME{rt,bk,lf,ft,up,dn} the worldspawn
// names (Half-Life: "skyname", "desert" when unset; QuakeSpasm: "sky").
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "luxel/io/reader.hpp"
#include "luxel/material/miptex.hpp"
#include "luxel/material/quake_palette.hpp"
#include "luxel/material/wad3.hpp"
#include "luxel/util/error.hpp"
#include "material_loaders.hpp"
#include "q1_game.hpp"

namespace luxel::materials {
namespace {

// QuakeSpasm's R_TextureAnimation: frame (int)(time * 10) % (frames * 2) / 2, i.e. five frames a second.
constexpr double kFramesPerSecond = 5.0;
// QuakeSpasm's sky: the back layer scrolls 8 texels a second, the front one 16, both along s and t.
constexpr float kBackScroll = 8.0f / 128.0f, kFrontScroll = 16.0f / 128.0f;
// QuakeSpasm's r_skyfog: with the worldspawn's "fog" on, the sky is drawn under a layer of the fog colour at
// this opacity.
constexpr float kSkyFog = 0.5f;

uint64_t fnv(std::span<const uint8_t> bytes, uint64_t h = 0xcbf29ce484222325ull) {
    for (uint8_t b : bytes) h = (h ^ b) * 0x100000001b3ull;
    return h;
}

std::string hex(uint64_t v) {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
    return text;
}

// Where a texture's miptex record lies: the map's miptex lump or a WAD lump, held for the decode jobs (which
// may outlive the map's World).
struct MiptexSource {
    std::shared_ptr<const Bytes> bytes;
    uint64_t start = 0, size = 0;  // the lump within `bytes`
    std::string file, part;        // what errors call them
    MiptexEntry entry;             // its offset counts from `start`
    std::shared_ptr<const Palette> palette;  // null: the texture's own (Half-Life's)
    std::span<const uint8_t> lump() const { return std::span<const uint8_t>(*bytes).subspan(size_t(start), size_t(size)); }
    MiptexImage decode(MiptexDecode how) const {
        how.palette = palette.get();
        return decodeMiptex(lump(), entry, how, file, part, start);
    }
    // The record's bytes, hashed, with the palette they are read through: equal keys decode equally. A texture
    // with its own palette is hashed through that palette (after the four levels), so Half-Life textures of
    // equal indices and different colours differ.
    std::string contentKey(const std::string& paletteKey) const {
        const std::span<const uint8_t> all = lump();
        const uint64_t w = uint64_t(entry.width), h = uint64_t(entry.height);
        uint64_t record = 40 + w * h;
        if (!palette) record += (w / 2) * (h / 2) + (w / 4) * (h / 4) + (w / 8) * (h / 8) + 2 + 768;
        const uint64_t n = entry.offset <= all.size() ? std::min<uint64_t>(record, all.size() - entry.offset) : 0;
        const uint64_t hash = n > 0 ? fnv(all.subspan(size_t(entry.offset), size_t(n))) : entry.offset;
        return hex(hash) + "|" + (palette ? paletteKey : "own");
    }
};

// The palette: --palette (a palette.lmp, or a PCX with one at its end), a game folder's gfx/palette.lmp, or
// the built-in one.
std::shared_ptr<const Palette> quakePalette(const MaterialOptions& options, const GameFiles& files, MaterialSet& set) {
    if (!options.palette.empty()) {
        const Bytes bytes = readFile(options.palette);
        // Not 768 bytes: a PCX (its first byte 0x0A) with the palette at its end, or neither.
        if (bytes.size() != 768 && (bytes.empty() || bytes[0] != 0x0a))
            throw UsageError("--palette: " + options.palette + ": neither a 768-byte palette.lmp nor a PCX file (" +
                             std::to_string(bytes.size()) + " bytes, first byte not 0x0A)");
        try {
            return std::make_shared<const Palette>(bytes.size() == 768 ? readLmpPalette(bytes, options.palette)
                                                                       : readPcxPalette(bytes, options.palette));
        } catch (const DecodeError& e) {
            throw UsageError(std::string("--palette: ") + e.what());
        }
    }
    if (auto bytes = files.read("gfx/palette.lmp")) {
        try {
            return std::make_shared<const Palette>(readLmpPalette(*bytes, "gfx/palette.lmp"));
        } catch (const DecodeError& e) {
            set.warnings.push_back(e.what());
        }
    }
    return std::make_shared<const Palette>(defaultQuakePalette());
}

// The frame of an animated texture (+0name .. +9name) shown at `time`; the entry itself when it is not one or
// its sequence is broken (as the engine, which then refuses the map, luxel shows the first frame).
size_t animationFrame(const std::vector<MiptexEntry>& dir, size_t entry, float time) {
    const std::string& name = dir[entry].name;
    if (name.size() < 3 || name[0] != '+' || !(name[1] >= '0' && name[1] <= '9')) return entry;
    const std::string rest = toLowerAscii(name.substr(2));
    std::array<int64_t, 10> frames;
    frames.fill(-1);
    for (size_t i = 0; i < dir.size(); ++i) {
        const std::string& n = dir[i].name;
        if (n.size() == name.size() && n[0] == '+' && n[1] >= '0' && n[1] <= '9' && toLowerAscii(n.substr(2)) == rest)
            frames[size_t(n[1] - '0')] = int64_t(i);
    }
    size_t count = 0;
    while (count < 10 && frames[count] >= 0) ++count;
    if (count == 0) return entry;
    const double step = std::floor(double(time) * kFramesPerSecond);
    const double k = std::isfinite(step) && step >= 0 ? std::fmod(step, double(count)) : 0.0;
    return size_t(frames[size_t(k)]);
}

// GoldSrc's render modes of brush entities (Material::entityRenderMode), as its renderer sets them up
// (R_SetRenderMode, R_HasLightmap in Xash3D's ref_gl, which rebuilds it): colour, texture, glow and additive are
// drawn without the lightmap, blended by renderamt over what is behind (additive: added, scaled by it) and
// without writing depth; colour draws rendercolor (the material's reflectivity) instead of the texture; solid
// keeps the lightmap and cuts the texture out where its alpha is under 0.25.
enum EntityRenderMode : int32_t { kRenderTransColor = 1, kRenderTransTexture, kRenderGlow, kRenderTransAlpha, kRenderTransAdd };

void applyEntityRenderMode(const Material& mat, SurfaceLook& look) {
    if (mat.entityAlpha < 1) {  // Quake 1's alpha: lit as ever, blended over what is behind
        look.blend = BlendMode::Blend;
        look.opacity = mat.entityAlpha;
        look.shadow = ShadowCast::None;
        return;
    }
    const int32_t mode = mat.entityRenderMode;
    if (mode == kRenderTransAlpha) {
        look.blend = BlendMode::AlphaTest;
        look.alphaRef = 0.25f;
        return;
    }
    if (mode < kRenderTransColor || mode > kRenderTransAdd) return;  // kRenderNormal
    if (mode == kRenderTransColor) look.texture = -1, look.missing = false;
    look.unlit = true;
    look.blend = mode == kRenderTransAdd ? BlendMode::Additive : BlendMode::Blend;
    look.opacity = mat.modelColor ? mat.modelColor->w : 1.0f;
    look.shadow = ShadowCast::None;
}

// A liquid's texture as QuakeSpasm's warp image moves it at `time`; Half-Life's as its EmitWaterPolys does (the
// turbulence Quake 2 kept).
MaterialStage warpStage(int32_t texture, float time, bool halfLife) {
    MaterialStage s;
    s.texture = texture;
    s.texGen = halfLife ? MaterialStage::TexGen::Quake2Warp : MaterialStage::TexGen::Quake1Warp;
    s.warpTime = double(time);
    s.warpVertices = quake1WarpVertices(s.warpTime);
    const float m[6] = {1.0f / 64, 0, 0, 1.0f / 64, 0, 0};
    std::copy(std::begin(m), std::end(m), std::begin(s.affine));
    return s;
}

// QuakeSpasm's liquid opacities (R_ParseWorldspawn): r_wateralpha (1) unless the worldspawn's "wateralpha" sets
// it, and "lavaalpha", "slimealpha", "telealpha" (r_lavaalpha... 0: the water's). The engine drops one leading
// '_' and trailing spaces from each key (ericw-tools' maps write "_wateralpha"); a later key wins.
struct LiquidAlphas {
    float water = 1, lava = 0, slime = 0, tele = 0;
};

LiquidAlphas worldspawnLiquidAlphas(const World& world) {
    LiquidAlphas alphas;
    if (world.entities.empty()) return alphas;
    for (const auto& [rawKey, value] : world.entities[0].keys) {
        std::string key = !rawKey.empty() && rawKey[0] == '_' ? rawKey.substr(1) : rawKey;
        while (!key.empty() && key.back() == ' ') key.pop_back();
        float* slot = key == "wateralpha" ? &alphas.water
                      : key == "lavaalpha" ? &alphas.lava
                      : key == "slimealpha" ? &alphas.slime
                      : key == "telealpha" ? &alphas.tele
                                           : nullptr;
        if (!slot) continue;
        const double v = std::atof(value.c_str());  // as the engine reads it: garbage is 0
        *slot = std::isfinite(v) ? float(std::clamp(v, 0.0, 1.0)) : 0.0f;  // GL clamps a colour's alpha
    }
    return alphas;
}

// GL_WaterAlphaForSurface: the kind from the texture's name (gl_model.c's "*lava", "*slime", "*tele" prefixes).
float liquidAlpha(const LiquidAlphas& alphas, const std::string& name) {
    const std::string n = toLowerAscii(name);
    auto own = [&](float kind) { return kind > 0 ? kind : alphas.water; };
    if (n.starts_with("*lava")) return own(alphas.lava);
    if (n.starts_with("*slime")) return own(alphas.slime);
    if (n.starts_with("*tele")) return own(alphas.tele);
    return alphas.water;
}

// Unlit liquids: the texture warped (warpStage) and drawn alone, blended at `opacity` below 1 (the entity's
// alpha, else the map's liquid alpha); a Half-Life brush entity's blended over what is behind by its render mode.
std::shared_ptr<const StageProgram> warpProgram(int32_t texture, float time, const Material& mat, float opacity, bool halfLife) {
    auto program = std::make_shared<StageProgram>();
    MaterialStage s = warpStage(texture, time, halfLife);
    const float amount = mat.modelColor ? mat.modelColor->w : 1.0f;
    if (mat.entityRenderMode == kRenderTransTexture || mat.entityRenderMode == kRenderGlow || opacity < 1) {
        s.blends = true;
        s.src = BlendFactor::SrcAlpha, s.dst = BlendFactor::OneMinusSrcAlpha;
        s.alpha = MaterialStage::Alpha::Constant;
        s.alphaConstant = opacity < 1 ? opacity : amount;
    } else if (mat.entityRenderMode == kRenderTransAdd) {
        s.blends = true;
        s.src = BlendFactor::One, s.dst = BlendFactor::One;
        s.color = MaterialStage::Color::Constant;
        s.constant = {amount, amount, amount};
    }
    program->stages.push_back(s);
    return program;
}

// QuakeSpasm's lit water (r_litwater 1): the warped texture x 2 x the lightmap, by its world shader.
std::shared_ptr<const StageProgram> litWarpProgram(int32_t texture, float time) {
    auto program = std::make_shared<StageProgram>();
    MaterialStage light;
    light.source = MaterialStage::Source::Lightmap;
    light.texGen = MaterialStage::TexGen::Lightmap;
    program->stages.push_back(light);
    MaterialStage water = warpStage(texture, time, false);
    water.blends = true;
    water.src = BlendFactor::DstColor, water.dst = BlendFactor::SrcColor;  // texture x lightmap x 2
    program->stages.push_back(water);
    return program;
}

// A lightmapped texture with fullbright texels: the lightmap, the texture without them at x 2 (GL_DST_COLOR
// GL_SRC_COLOR doubles, as gl_overbright's GL_RGB_SCALE 2 does), then the fullbright texels added.
std::shared_ptr<const StageProgram> fullbrightProgram(int32_t base, int32_t fullbright, Vec2 tcScale) {
    auto program = std::make_shared<StageProgram>();
    MaterialStage light;
    light.source = MaterialStage::Source::Lightmap;
    light.texGen = MaterialStage::TexGen::Lightmap;
    program->stages.push_back(light);
    MaterialStage texture;
    texture.texture = base;
    texture.blends = true;
    texture.src = BlendFactor::DstColor, texture.dst = BlendFactor::SrcColor;
    texture.affine[0] = tcScale.x, texture.affine[3] = tcScale.y;
    program->stages.push_back(texture);
    MaterialStage glow = texture;
    glow.texture = fullbright;
    glow.src = BlendFactor::One, glow.dst = BlendFactor::One;
    program->stages.push_back(glow);
    return program;
}

// The worldspawn's "fog" (QuakeSpasm: "density" or "density r g b", grey 0.3 when only the density is given);
// nullopt when absent, unreadable or not positive.
std::optional<MaterialSet::DistanceFog> worldspawnFog(const World& world) {
    const std::string* fog = world.entities.empty() ? nullptr : world.entities[0].get("fog");
    if (!fog) return std::nullopt;
    float v[4] = {0, 0.3f, 0.3f, 0.3f};
    const int n = std::sscanf(fog->c_str(), "%f %f %f %f", &v[0], &v[1], &v[2], &v[3]);
    if (n < 1 || !(v[0] > 0) || !std::isfinite(v[0]) || (n != 1 && n != 4)) return std::nullopt;
    return MaterialSet::DistanceFog{v[0], {std::clamp(v[1], 0.0f, 1.0f), std::clamp(v[2], 0.0f, 1.0f), std::clamp(v[3], 0.0f, 1.0f)}};
}

// The worldspawn's fog over the sky at r_skyfog, as a last cloud layer of one texel.
void addSkyFog(const World& world, TextureRequests& requests, SkyBox& sky) {
    const std::optional<MaterialSet::DistanceFog> fog = worldspawnFog(world);
    if (!fog) return;
    const float v[4] = {fog->density, fog->color.x, fog->color.y, fog->color.z};
    std::array<uint8_t, 4> texel;
    for (size_t c = 0; c < 3; ++c) texel[c] = uint8_t(std::lround(v[c + 1] * 255.0f));
    texel[3] = uint8_t(std::lround(kSkyFog * 255.0f));
    CloudLayer layer;
    layer.texture = requests.addEmbedded("sky fog " + std::to_string(texel[0]) + " " + std::to_string(texel[1]) + " " +
                                             std::to_string(texel[2]) + " " + std::to_string(texel[3]),
                                         "worldspawn fog", [texel] {
                                             RgbaImage one;
                                             one.width = one.height = 1;
                                             one.rgba.assign(texel.begin(), texel.end());
                                             return one;
                                         });
    layer.src = BlendFactor::SrcAlpha, layer.dst = BlendFactor::OneMinusSrcAlpha;
    sky.clouds.push_back(layer);
}

// The sky box the worldspawn names (Half-Life: "skyname", the engine's "desert" when unset; QuakeSpasm: "sky"),
// gfx/env/NAME + rt bk lf ft up dn as Quake 2's R_SetSky orders them (GoldSrc's and QuakeSpasm's sky code keep
// that order): TGA, then Half-Life mods' BMP, PNG and JPEG. Whether all six faces were found; a box only partly
// there is one warning and not drawn, and a name whose faces are all absent (no game data) is silent, as the
// engines fall back to their usual sky.
bool addSkyBox(const World& world, const GameFiles& files, TextureRequests& requests, MaterialSet& set, SkyBox& sky) {
    const bool halfLife = world.format == MapFormat::HalfLife;
    const Entity* worldspawn = world.entities.empty() ? nullptr : &world.entities[0];
    const std::string* key = worldspawn ? worldspawn->get(halfLife ? "skyname" : "sky") : nullptr;
    const std::string name = key && !key->empty() ? *key : halfLife ? "desert" : "";
    if (name.empty()) return false;
    static const char* const kSuffix[6] = {"rt", "bk", "lf", "ft", "up", "dn"};
    std::array<std::string, 6> paths;
    std::vector<std::string> missing;
    for (size_t k = 0; k < 6; ++k) {
        const std::string base = "gfx/env/" + toLowerAscii(name) + kSuffix[k];
        paths[k] = firstExisting(files, {base + ".tga", base + ".bmp", base + ".png", base + ".jpg"});
        if (paths[k].empty()) missing.push_back(base);
    }
    if (missing.size() == 6) return false;
    if (!missing.empty()) {
        set.warnings.push_back(skyFacesMissing(std::string(halfLife ? "skyname " : "sky ") + name + ": sky box", missing));
        return false;
    }
    for (size_t k = 0; k < 6; ++k) sky.faces[k] = requests.addImage(files, paths[k]);
    return true;
}

}  // namespace

void loadQuake1(const World& world, const MapSource& source, const MaterialOptions& options, MaterialSet& set) {
    const bool halfLife = world.format == MapFormat::HalfLife;
    set.textureGamma = 1.0f;
    set.time = options.time;  // the sky layers scroll with it
    if (!halfLife) set.distanceFog = worldspawnFog(world);  // a QuakeSpasm key (GoldSrc's fog is an entity's)
    const GameFiles files = quake1GameFiles(source, options, set.warnings);
    const std::span<const uint8_t> lump = world.embeddedTextures;
    std::vector<MiptexEntry> dir;
    try {
        dir = readMiptexDirectory(lump, source.displayName);
    } catch (const DecodeError& e) {
        set.warnings.push_back(e.what());
    }
    const std::shared_ptr<const Palette> palette = halfLife ? nullptr : quakePalette(options, files, set);
    // Quake's WAD2 textures have no palette of their own: a Half-Life map reads them through Quake's too.
    std::shared_ptr<const Palette> wad2Palette = palette;
    const std::string paletteKey = palette ? hex(fnv({&(*palette)[0][0], 768})) : "own";
    auto owned = std::make_shared<const Bytes>(lump.begin(), lump.end());  // the decode jobs may outlive `world`

    // The WADs are read only when a texture is not embedded (the engine's order: the map's own copy wins).
    bool anyInWad = false;
    for (const MiptexEntry& e : dir) anyInWad = anyInWad || (!e.name.empty() && !e.embedded);
    const std::string* wadKey = world.entities.empty() ? nullptr : world.entities[0].get("wad");
    std::vector<Wad> wads;
    if (anyInWad && wadKey) wads = loadMapWads(*wadKey, source, files, set.warnings);

    // Where each directory entry's pixels are: the map, the first WAD that has it, or nowhere (nullopt).
    // Each entry is looked up once (several materials may share it; a damaged WAD copy is one warning).
    std::vector<std::optional<MiptexSource>> sources(dir.size());
    std::vector<bool> searched(dir.size(), false);
    auto sourceOf = [&](size_t entry) -> const std::optional<MiptexSource>& {
        std::optional<MiptexSource>& out = sources[entry];
        const MiptexEntry& e = dir[entry];
        if (searched[entry] || e.name.empty()) return out;
        searched[entry] = true;
        if (e.embedded) {
            out = MiptexSource{owned, 0, owned->size(), source.displayName, "textures", e, palette};
            return out;
        }
        for (const Wad& wad : wads) {
            const WadTexture* t = findWadTexture(wad, e.name);
            if (!t) continue;
            try {
                MiptexEntry we = readWadMiptex(wad, *t);
                if (!wad.halfLife && !wad2Palette)
                    wad2Palette = std::make_shared<const Palette>(*quakePalette(options, files, set));
                out = MiptexSource{wad.bytes, t->offset, t->size, wad.file, wadLumpPart(*t), we,
                                   wad.halfLife ? nullptr : wad2Palette};
                return out;
            } catch (const DecodeError& err) {  // a damaged copy: the engine would stop; luxel tries the next WAD
                set.warnings.push_back(err.what());
            }
        }
        return out;
    };

    // One request per (texture, what of it): its content hash keys the cache across maps.
    TextureRequests requests;
    auto add = [&](const MiptexSource& src, const std::string& what, MiptexDecode how, bool fullbrightPart) {
        const std::string curve = how.colourCurve ? "|texgamma" : "";
        return requests.addEmbedded(src.contentKey(paletteKey) + "|" + what + curve, src.file + ":" + src.entry.name,
                                    [src, how, fullbrightPart] {
                                        MiptexImage image = src.decode(how);
                                        if (fullbrightPart && image.fullbright.empty())  // cannot be: hasFullbrights said so
                                            throw DecodeError(src.file, src.part, src.start + src.entry.offset,
                                                              src.entry.name + " has no fullbright texel");
                                        return fullbrightPart ? std::move(image.fullbright) : std::move(image.base);
                                    });
    };

    std::vector<int32_t> fullbrightRequest(world.materials.size(), -1);
    enum class Warp : uint8_t { None, Unlit, Lit };  // liquids: drawn by warpProgram or litWarpProgram
    std::vector<Warp> warped(world.materials.size(), Warp::None);
    std::vector<float> liquidOpacity(world.materials.size(), 1.0f);
    const LiquidAlphas liquidAlphas = halfLife ? LiquidAlphas{} : worldspawnLiquidAlphas(world);
    bool anySky = false;
    set.skies.resize(1);
    set.skies[0].dome = SkyBox::Dome::Quake1;
    bool wantSky = false;
    for (const Material& mat : world.materials) wantSky = wantSky || ((mat.flags & kMaterialSky) && !(mat.flags & kMaterialNoDraw));
    const bool skyBox = wantSky && addSkyBox(world, files, requests, set, set.skies[0]);
    if (skyBox) addSkyFog(world, requests, set.skies[0]);
    for (size_t i = 0; i < world.materials.size(); ++i) {
        const Material& mat = world.materials[i];
        SurfaceLook& look = set.looks[i];
        const int32_t miptex = mat.nativeValue;
        if (mat.flags & kMaterialNoDraw) continue;
        if (skyBox && (mat.flags & kMaterialSky)) {  // the box replaces the sky texture, which is not read
            look.skyBox = 0;
            continue;
        }
        if (miptex < 0 || size_t(miptex) >= dir.size() || dir[size_t(miptex)].name.empty()) {
            look.missing = true;
            addMissing(set, mat.name.empty() ? "(texture not in the map)" : mat.name);
            continue;
        }
        const size_t entry = animationFrame(dir, size_t(miptex), options.time);
        const std::optional<MiptexSource>& found = sourceOf(entry);
        if (!found) {  // left to a WAD (Half-Life) and in none of those found
            look.tcScale = {1.0f / float(dir[entry].width), 1.0f / float(dir[entry].height)};
            look.missing = true;
            addMissing(set, dir[entry].name);
            applyEntityRenderMode(mat, look);
            continue;
        }
        const MiptexSource& src = *found;
        const MiptexEntry& e = src.entry;
        // Texture coordinates count texels of the map's own header (the size the compiler mapped them with).
        look.tcScale = {1.0f / float(dir[entry].width), 1.0f / float(dir[entry].height)};
        if (mat.flags & kMaterialSky) {
            look.skyBox = 0;
            if (anySky) continue;
            anySky = true;
            SkyBox& sky = set.skies[0];
            // The back layer (the right half) and the front one (the left half, index 0 transparent).
            const std::string key = src.contentKey(paletteKey);
            for (int layer = 0; layer < 2; ++layer) {
                const bool front = layer == 1;
                CloudLayer cloud;
                cloud.texture = requests.addEmbedded(
                    key + (front ? "|sky front" : "|sky back"), src.file + ":" + e.name,
                    [src, front] {
                        const MiptexImage full = src.decode({});
                        RgbaImage half;
                        half.width = std::max(1, full.base.width / 2);  // a 1-texel sky: both layers that column
                        half.height = full.base.height;
                        half.rgba.resize(size_t(half.width) * size_t(half.height) * 4);
                        const std::span<const uint8_t> all = src.lump();
                        const uint64_t at = src.entry.offset;
                        ByteReader header(all.subspan(size_t(at), 40), src.file, src.part, src.start + at);
                        header.skip(24);
                        const uint8_t* index = all.data() + at + header.u32();
                        for (int y = 0; y < half.height; ++y)
                            for (int x = 0; x < half.width; ++x) {
                                const int sx = x + (front ? 0 : full.base.width - half.width);
                                const size_t from = size_t(y) * size_t(full.base.width) + size_t(sx);
                                uint8_t* o = half.rgba.data() + (size_t(y) * size_t(half.width) + size_t(x)) * 4;
                                std::copy_n(full.base.rgba.data() + from * 4, 4, o);
                                if (front && index[from] == 0) o[3] = 0;
                            }
                        return half;
                    });
                cloud.mods.push_back({TexMod::Kind::Scroll, {front ? kFrontScroll : kBackScroll, front ? kFrontScroll : kBackScroll}});
                if (front) cloud.src = BlendFactor::SrcAlpha, cloud.dst = BlendFactor::OneMinusSrcAlpha;
                sky.clouds.push_back(cloud);
            }
            addSkyFog(world, requests, sky);
            continue;
        }
        const std::string& name = dir[entry].name;  // the map's name decides the kind (a WAD's copy may differ)
        const bool liquid = !name.empty() && (name[0] == '*' || (halfLife && name[0] == '!'));
        const bool fence = !name.empty() && name[0] == '{';
        MiptexDecode how;
        how.fence = fence;
        // The glow is a stage program (fullbrightProgram); a see-through brush entity's program result is blended
        // at its alpha. A fence's fullbright texels stay in its texture, lit: the program has no alpha to cut
        // it out with.
        how.splitFullbrights = !halfLife && !liquid && !fence && src.palette && hasFullbrights(src.lump(), e, fence);
        if (halfLife) how.colourCurve = &halfLifeTextureGamma();
        look.texture = add(src, how.splitFullbrights ? "base" : "whole", how, false);
        if (how.splitFullbrights) fullbrightRequest[i] = add(src, "fullbright", how, true);
        // QuakeSpasm's alpha test (glAlphaFunc GL_GREATER 0.666; its world shader discards below 0.666).
        if (fence) look.blend = BlendMode::AlphaTest, look.alphaRef = halfLife ? 0.5f : 0.666f, look.shadow = ShadowCast::AlphaTexture;
        // Lit water: the decoder left the lightmap on a liquid (litWaterLightmaps).
        const bool litLiquid = liquid && !halfLife && !(mat.flags & kMaterialNoLightmap);
        if (liquid) {
            look.unlit = !litLiquid;
            look.shadow = ShadowCast::None;
            warped[i] = litLiquid ? Warp::Lit : Warp::Unlit;
        }
        if (!halfLife && (!liquid || litLiquid)) look.albedoScale = {2, 2, 2};  // gl_overbright 1
        // GL_WaterAlphaForEntitySurface: an entity's own alpha, else the map's for this liquid.
        if (liquid) liquidOpacity[i] = mat.entityAlpha < 1 ? mat.entityAlpha : liquidAlpha(liquidAlphas, name);
        if (litLiquid) {  // the world shader's result blended at the liquid's alpha, as a see-through entity's
            look.opacity = liquidOpacity[i];
            if (look.opacity < 1) look.blend = BlendMode::Blend;
        } else if (!liquid || mat.entityRenderMode == kRenderTransColor) {
            applyEntityRenderMode(mat, look);
            if (mat.entityRenderMode == kRenderTransColor) warped[i] = Warp::None;
        } else if (mat.entityRenderMode != 0 || liquidOpacity[i] < 1) {  // the warp program blends; the look has it drawn after the opaque
            look.blend = liquidOpacity[i] < 1                        ? BlendMode::Blend
                         : mat.entityRenderMode == kRenderTransAdd   ? BlendMode::Additive
                         : mat.entityRenderMode == kRenderTransAlpha ? BlendMode::Opaque
                                                                     : BlendMode::Blend;
        }
    }

    requests.resolve(set, world, true, options.textureBudget);
    for (size_t i = 0; i < set.looks.size(); ++i) {
        SurfaceLook& look = set.looks[i];
        const Material& mat = world.materials[i];
        if (look.texture < 0 || (mat.flags & (kMaterialNoDraw | kMaterialSky))) continue;
        if (warped[i] == Warp::Lit) {
            look.program = litWarpProgram(look.texture, options.time);
            continue;
        }
        if (warped[i] == Warp::Unlit) {
            look.program = warpProgram(look.texture, options.time, mat, liquidOpacity[i], halfLife);
            continue;
        }
        const int32_t fullbright = requests.textureIndex(fullbrightRequest[i]);
        const bool seeThrough = look.blend == BlendMode::Blend && mat.entityAlpha < 1;  // blended at look.opacity
        if (fullbright >= 0 && (look.blend == BlendMode::Opaque || seeThrough))
            look.program = fullbrightProgram(look.texture, fullbright, look.tcScale);
    }
}

}  // namespace luxel::materials
