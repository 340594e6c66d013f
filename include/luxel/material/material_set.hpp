#pragma once
// What every surface looks like beyond its light: an albedo texture (mip-mapped), how it is drawn
// (opaque, alpha-tested, blended, additive), whether light applies, the sky. Built per map by the
// per-format loaders from the map's archives and game directories; textures are shared through a
// process-wide cache so a texture many maps use is decoded once.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/material/rgba_image.hpp"

namespace luxel {

// A texture ready for sampling: level 0 is the image as decoded, each next level half the size (at least
// 1), down to 1x1, made with a 2x2 box filter (alpha-weighted colour so cut-out edges do not go dark).
struct Texture {
    struct LevelSize {
        int32_t width = 0, height = 0;
    };
    std::string name;            // where it came from, for messages
    std::vector<LevelSize> mips;  // each level's size; its texels are paddedLevels'
    // Each level's texels (RGBA8, a uint32_t each in memory order) with its wrap written out: height + 1 rows
    // of width + 1 texels, the last column and row being column 0 and row 0 again. A bilinear footprint
    // (x, y) .. (x + 1, y + 1) is then two 8-byte loads (the vector shading loop's) with no wrapping left to
    // do, and rows are read once for both of the pixel rows that sample them. The texels are kept only
    // here: a second unpadded copy doubled a texture's memory, and the batch's texture cache evicted and
    // decoded again a quarter of what it decoded.
    std::vector<std::vector<uint32_t>> paddedLevels;
    // When hasAlpha: each level's alpha bytes alone, row-major, then 3 bytes of padding (a 4-byte read at the
    // last texel stays inside). Cut-out tests read these: a quarter of the padded levels' memory.
    std::vector<std::vector<uint8_t>> alphaLevels;
    // When hasAlpha: per level and texel (x, y), the smallest and largest alpha byte of the bilinear footprint
    // (x, y) .. (x + 1, y + 1), wrapped, as min | max << 8; then one entry of padding. A cut-out test whose
    // reference lies outside a footprint's range knows its answer without filtering.
    std::vector<std::vector<uint16_t>> alphaCellRanges;
    bool hasAlpha = false;       // some texel of level 0 (firstLevel when reduced) has alpha < 255
    // Levels below it were not decoded (a view that samples nothing finer, materialsShown): their sizes are in
    // `mips`, their texel vectors empty, and sampling takes this level where it would take a finer one.
    int32_t firstLevel = 0;
    int32_t width() const { return mips.empty() ? 0 : mips[0].width; }
    int32_t height() const { return mips.empty() ? 0 : mips[0].height; }
};

// Builds the mip chain of an image (texels are taken as they are: colour bytes in the file's encoding).
Texture makeTexture(std::string name, RgbaImage image);
// The same from level `firstLevel` of a fullWidth x fullHeight image down (`image` is that level: each side
// halved firstLevel times, at least 1); the finer levels are sized, not made (Texture::firstLevel).
Texture makeTexture(std::string name, RgbaImage image, int32_t firstLevel, int32_t fullWidth, int32_t fullHeight);

// Level `level` of a texture as an image (its padded texels without the wrap): for checks and tools, not
// for sampling loops.
RgbaImage textureLevel(const Texture& t, size_t level);

enum class BlendMode : uint8_t {
    Opaque,
    AlphaTest,  // texels with alpha below alphaRef are holes
    Blend,      // src * alpha + dst * (1 - alpha): drawn after opaque surfaces, back to front
    Additive,   // src + dst
    Multiply,   // src * dst (Quake 3 "filter" stages used alone)
};


// OpenGL blend factors (a stage's result = source * srcFactor + what is behind * dstFactor).
enum class BlendFactor : uint8_t {
    One, Zero, SrcAlpha, OneMinusSrcAlpha, DstColor, OneMinusDstColor, SrcColor, OneMinusSrcColor, DstAlpha,
    OneMinusDstAlpha
};

// A texture coordinate change at a time t, applied in order (Quake 3 tcMod): Scale (s, t factors), Scroll
// (s, t per second; the offset kept to its fraction as the engine does), Rotate (degrees per second about
// (0.5, 0.5)), Transform (s' = s m00 + t m10 + t0, t' = s m01 + t m11 + t1).
struct TexMod {
    enum class Kind : uint8_t { Scale, Scroll, Rotate, Transform } kind = Kind::Scale;
    float p[6] = {0, 0, 0, 0, 0, 0};
};
Vec2 applyTexMods(const std::vector<TexMod>& mods, Vec2 st, float time);
// The same mods at `time` (each is affine there) as one map: a[0..3] the images of the unit vectors minus
// that of the origin, a[4..5] the origin's image; (s, t) -> (s a0 + t a2 + a4, s a1 + t a3 + a5).
void affineOf(const std::vector<TexMod>& mods, float time, float* a);

// A periodic function of time (Quake 3 waveForm): base + amplitude * func(phase + time * frequency), func
// of period 1: sin(2 pi x); triangle 0 -> 1 -> 0 -> -1 -> 0; square +1 then -1; sawtooth frac(x); inverse
// sawtooth 1 - frac(x); noise: engineNoise (noise.hpp) at (time + phase) * frequency, as RB_CalcWaveColor.
struct Wave {
    enum class Func : uint8_t { Sin, Triangle, Square, Sawtooth, InverseSawtooth, Noise } func = Func::Sin;
    float base = 0, amplitude = 0, phase = 0, frequency = 0;
};
double evalWave(const Wave& wave, double time);
// The engine's sine table (tr.sinTable, 1024 entries over one period) read as its callers index it:
// sin(2 pi i / 1024) at i = (int64)(periods * 1024) & 1023 (tcMod turb, deformVertexes bulge).
float engineSine(double periods);
// Quake 2's r_turbsin (256 entries of 8 sin) read as EmitWaterPolys does: at (int)(radians * 256 / (2 pi)) & 255.
float quake2Turbulence(double radians);
// quake2Turbulence's 256 values, 8 sin(2 pi i / 256): entry i is its value where the period's fraction times 256,
// truncated, is i mod 256 (for the vector loops, which compute that index themselves).
const float* quake2TurbulenceTable();
// QuakeSpasm's water warp (R_UpdateWarpTextures at r_waterquality 8, r_oldwater 0) along one coordinate: the
// warp image holds 128 texels a side drawn in strips whose vertices, every 16 texels, read turbsin (the same
// table) at (int)(y * 2 + time * 128 / pi) & 255; between them the offset is linear. quake1WarpVertices: the
// offsets at the 9 vertices 0, 16, ..., 128 at `time`; quake1WarpOffset: the offset at y texels (0 where y is
// not finite), a + (b - a) * f in float of the vertices around y mod 128.
std::array<float, 9> quake1WarpVertices(double time);
float quake1WarpOffset(float y, const std::array<float, 9>& vertices);

// One stage of a material drawn as a program (StageProgram), its time-dependent parts already evaluated at
// the set's time: the texture frame, the texture coordinate change as one affine map, wave colours.
struct MaterialStage {
    enum class Source : uint8_t { Texture, Lightmap, White } source = Source::Texture;
    int32_t texture = -1;  // Source::Texture: into MaterialSet::textures (-1: not found, drawn white)
    // Vector: s = position . texVector[0], t = position . texVector[1] (tcGen vector). Quake2Warp: the base
    // coordinates (texels) moved as Quake 2's EmitWaterPolys does at warpTime: s + 8 sin(t / 8 + time),
    // t + 8 sin(s / 8 + time) from its 256-entry table, per pixel (the engine subdivides warped faces into
    // 64-unit pieces; evaluating every pixel is what that approaches); the division by 64 is in `affine`.
    // Quake1Warp: s + quake1WarpOffset(t), t + quake1WarpOffset(s) at warpTime (QuakeSpasm's warp image read at
    // the face's coordinates), the division by 64 in `affine` too.
    enum class TexGen : uint8_t { Base, Lightmap, Environment, Vector, Quake2Warp, Quake1Warp } texGen = TexGen::Base;
    Vec3 texVector[2];
    double warpTime = 0;
    std::array<float, 9> warpVertices{};  // Quake1Warp: quake1WarpVertices(warpTime)
    // s' = s a[0] + t a[2] + a[4], t' = s a[1] + t a[3] + a[5] (the stage's tcMods at the set's time).
    float affine[6] = {1, 0, 0, 1, 0, 0};
    // tcMod turb (RB_CalcTurbulentTexCoords): each vertex's coordinates move by turbAmplitude times the
    // engine's sine table at ((x + z) / 1024 + turbNow) in s and (y / 1024 + turbNow) in t, turbNow = phase +
    // time * frequency; the mods after the turb move that offset by their linear part turbLinear (s' = s l[0] +
    // t l[2], t' = s l[1] + t l[3]). The moved coordinates are interpolated across the triangle as the
    // engine's per-vertex ones are.
    bool turb = false;
    float turbAmplitude = 0;
    double turbNow = 0;
    float turbLinear[4] = {1, 0, 0, 1};
    bool clamp = false;                 // clampMap: coordinates clamped to [0, 1]
    bool rawTexels = false;             // texels as bytes / 255, not through the set's textureGamma (Source $detail)
    bool blends = false;                // false: the stage replaces what is there
    BlendFactor src = BlendFactor::One, dst = BlendFactor::Zero;
    enum class AlphaTest : uint8_t { None, Gt0, Lt128, Ge128 } alphaTest = AlphaTest::None;
    // Colour multiplier: 1; the engine's identityLight (1 / the look's overbright ramp); the vertex colour as
    // the framebuffer holds light, times identityLight (Vertex) or not (ExactVertex), or 1 minus it; a constant.
    // LitConstant: `constant` times identityLight, each channel then clamped to [0, 1] (rgbGen wave as
    // RB_CalcWaveColor computes it - a noise wave is not multiplied and is a Constant; Source $selfillumtint).
    enum class Color : uint8_t { One, IdentityLighting, Vertex, ExactVertex, OneMinusVertex, Constant, LitConstant } color = Color::One;
    Vec3 constant{1, 1, 1};
    // LightingSpecular: ioquake3's RB_CalcSpecularAlpha, a highlight of a light fixed at (-960, 1980, 96):
    // (reflected light direction . view direction)^4, clamped to [0, 1].
    // Portal: each vertex's distance from the eye / alphaConstant (the range), clamped to [0, 1], interpolated.
    enum class Alpha : uint8_t { Texture, Vertex, OneMinusVertex, Constant, LightingSpecular, Portal } alpha = Alpha::Texture;
    float alphaConstant = 1;
};

// A material whose stages the one-texture look cannot show (a glow, an environment map, animated or
// scrolling stages, waves): evaluated per pixel, stage by stage, blended like the engine's framebuffer.
// A change of a surface's vertices at draw time (Quake 3 deformVertexes, ioquake3 tr_shade_calc.c): Wave
// moves each vertex along its normal by the wave, its phase shifted by (x + y + z) * spread (no shift when
// the frequency is 0); Normal adds the engine's noise at the vertex times wave.amplitude to each normal
// component (RB_CalcDeformNormals); Bulge moves along the normal by bulgeHeight * sin(s * bulgeWidth + time *
// bulgeSpeed) (RB_CalcBulgeVertexes); Move moves every vertex by `move` times the wave; Autosprite turns each
// quad of four vertices into a square of the same size facing the camera; Autosprite2 pivots each long quad
// about its long axis to face the camera (Autosprite2Deform).
struct Deform {
    enum class Kind : uint8_t { Wave, Normal, Bulge, Move, Autosprite, Autosprite2 } kind = Kind::Wave;
    Wave wave;
    float spread = 0;
    Vec3 move;
    float bulgeWidth = 0, bulgeHeight = 0, bulgeSpeed = 0;
};

constexpr size_t kMaxProgramStages = 8;  // as the engine (MAX_SHADER_STAGES); later stages are left out

struct StageProgram {
    std::vector<MaterialStage> stages;
};

// How a surface casts shadows in its compiler's light phase (the ray scene's shadow rays follow it).
enum class ShadowCast : uint8_t {
    Opaque,
    None,          // light passes (Quake 3: a C_TRANSLUCENT shader without alphashadow / lightfilter)
    AlphaTexture,  // light passes where the texture's alpha is below one half (Quake 3 surfaceparm alphashadow)
    // Light passes tinted by the texel it crosses (Quake 2 windows, as ericw-tools): times (1 - a) + a texel / 255,
    // a the texel's alpha / 255 where below 255, else SurfaceLook::opacity; only a crossing out through the
    // surface's front counts, and of several the one nearest the receiver.
    Tint,
};

struct SurfaceLook {
    int32_t texture = -1;        // into MaterialSet::textures; -1: untextured (flat reflectivity)
    bool missing = false;        // a texture was wanted but not found: drawn neutral grey
    BlendMode blend = BlendMode::Opaque;
    float alphaRef = 0.5f;       // AlphaTest: alpha >= alphaRef is kept
    float opacity = 1.0f;        // multiplies texture alpha (Quake 2 trans33/trans66, Source $alpha)
    bool unlit = false;          // drawn at full brightness (Quake 2 warp, Source unlit / $selfillum, Quake 3 no light stage)
    // Quake 3: a shader with stages but no $lightmap stage. r_lightmap 1 draws it as in a lit frame, and
    // with vertexLight its light is the vertex colours (rgbGen vertex, exactVertex or lightingDiffuse), even
    // on a surface q3map2 gave a lightmap.
    bool noLightmapStage = false;
    bool vertexLight = false;
    bool vertexColor = false;    // Quake 3 rgbGen vertex on an unlit stage: the vertex colour multiplies
    Vec2 tcScale{1, 1};          // static tcMod scale
    // Quake 3 detail stages (blendFunc GL_DST_COLOR GL_SRC_COLOR over texture x light: x 2 * detail), each a
    // texture at its own static scale of the base coordinates; -1 unused.
    std::array<int32_t, 2> detail{-1, -1};
    std::array<Vec2, 2> detailScale{Vec2{1, 1}, Vec2{1, 1}};
    int32_t texture2 = -1;       // Source displacement blend ($basetexture2), mixed by vertex alpha
    // Quake 3 terrain blends: texture2's stage has rgbGen identityLighting (times the look's identityLight).
    bool texture2IdentityLighting = false;
    Vec2 texture2TcScale{0, 0};  // texture2's own static scale; 0: the same as tcScale
    // The texture's albedo times this: Quake 3's lightmap stage GL_DST_COLOR GL_SRC_COLOR doubles texture x
    // light; Source's colour modulation ($color, or a model's $color2 x its render colour) in linear light.
    Vec3 albedoScale{1, 1, 1};
    // What the material script says beyond the map's own surface flags (the renderer ORs these in):
    bool hidden = false;         // never drawn (Quake 3 surfaceparm nodraw, Source tool materials)
    bool sky = false;            // drawn as sky
    // The sky its surfaces show (index into MaterialSet::skies), -1 for none: Quake 3 draws each sky shader's
    // own box and clouds over its own surfaces; Quake 2 and Source maps have one sky for all.
    int32_t skyBox = -1;
    bool twoSided = false;       // Quake 3 cull none / twosided, Source $nocull
    bool polygonOffset = false;  // a decal: wins the depth test against the surface it lies on
    bool fogVolume = false;      // a Quake 3 fog volume's own surface: drawn as its fog pass alone
    ShadowCast shadow = ShadowCast::Opaque;
    // Source Water materials: drawn as the water fog of the engine's refraction over what lies behind
    // (render::waterOverPixel), with $fogcolor (linear) and $fogend - $fogstart.
    struct Water {
        Vec3 fogColor;
        float fogRange = 0;
    };
    std::optional<Water> water;
    // Draw order of blended surfaces: Quake 3's sort value (engineSort; 0: not given, drawn back to front as
    // Quake 2 and Source do), and whether a blended surface writes depth (a stage 0 with depthWrite).
    float sort = 0;
    bool depthWrite = false;
    // Opaque materials with more than the look above shows: every stage, drawn instead of texture x light.
    std::shared_ptr<const StageProgram> program;
    // Quake 3, lightmap mode under r_lightmap's rules: the stages the engine draws up to and including its first
    // lightmap stage, when that stage is not collapsed into multitexture (rLightmapStageCount); null: the
    // lightmap alone.
    std::shared_ptr<const StageProgram> lightmapModeProgram;
    std::vector<Deform> deforms;  // applied in order when the surface is drawn (lit and albedo modes)
    // What of the material the renderer leaves out (Quake 3: unevaluatedFeatures of its shader); empty when
    // every stage is drawn.
    std::vector<std::string> notDrawn;
};

// One cloud layer of a sky: its texture on the dome (Quake 3 skyParms cloud height), moved by its mods at
// the frame's time and blended over the layers before it.
struct CloudLayer {
    int32_t texture = -1;  // into MaterialSet::textures
    BlendFactor src = BlendFactor::One, dst = BlendFactor::Zero;
    std::vector<TexMod> mods;
};

// Sky: a box of six textures (Quake 3 skyParms / Quake 2 and Source sky names) and cloud layers drawn on
// a dome over it, or a flat colour.
struct SkyBox {
    // Faces by suffix: rt, bk, lf, ft, up, dn (seen towards +X, +Y, -X, -Y, +Z, -Z: shade_sky.cpp); -1 missing.
    std::array<int32_t, 6> faces{-1, -1, -1, -1, -1, -1};
    std::vector<CloudLayer> clouds;
    float cloudHeight = 512;  // the dome's height above the eye (ioquake3 R_InitSkyTexCoords)
    // Where the cloud layers lie: Quake 3's dome at cloudHeight, or Quake 1's flattened sphere (QuakeSpasm's
    // Sky_GetTexCoord: the direction with z x 3, scaled to 6 x 63 units, over 128 texels).
    enum class Dome : uint8_t { Quake3, Quake1 } dome = Dome::Quake3;
    // The box turned at the frame's time (Quake 2 skyaxis / skyrotate: R_DrawSkyBox rotates it by time x
    // skyrotate degrees about skyaxis): a view direction d looks up the box at toBox * d (row-major).
    bool rotated = false;
    float toBox[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    bool hasBox() const { return faces[0] >= 0; }
    bool present() const { return hasBox() || !clouds.empty(); }
};

struct MaterialSet {
    std::vector<std::shared_ptr<const Texture>> textures;
    std::vector<SurfaceLook> looks;      // one per World::materials entry
    std::vector<std::string> missing;    // names of materials whose texture was not found, sorted, once each
    std::vector<std::string> warnings;   // shader / material parse problems (file:line: what)
    // Textures refused for a claimed size past the decoders' limit or for MaterialOptions::textureBudget, one
    // line each (also in warnings): drawn as missing by the CLI, refused by a service with a memory limit.
    std::vector<std::string> overLimit;
    std::vector<std::string> fogShaders; // Quake 3 fog volume shaders the map uses (not drawn), sorted
    // Source: per World::materials entry, where its .vmt was found: "pakfile NAME", "vpk PATH", "loose DIR"
    // (as GameFiles mounted them), or "missing". Empty for the other formats.
    std::vector<std::string> origins;
    std::vector<SkyBox> skies;  // SurfaceLook::skyBox indexes these
    // Per World::fogs entry: its shader's fogparms (colour 0..1, distance to opaque), when the shader has them.
    struct Fog {
        bool present = false;
        Vec3 color;
        float distance = 0;
    };
    std::vector<Fog> fogs;
    // QuakeSpasm's world fog (the worldspawn's "fog": density, colour): GL_EXP2 fog of each lit world pixel but the
    // sky's (which r_skyfog covers), f = exp(-(density / 64 x view depth)^2), the pixel f x itself + (1 - f) x colour.
    struct DistanceFog {
        float density = 0;  // the key's, before the / 64
        Vec3 color;
    };
    std::optional<DistanceFog> distanceFog;
    float time = 0;  // the time (seconds) animated layers are drawn at (MaterialOptions::time)
    // Texture bytes -> albedo: (byte / 255)^textureGamma. Quake 2 and 3 multiply display-encoded texels by
    // the light (1); Source lights linear texels (2.2).
    float textureGamma = 1.0f;
};

struct MaterialOptions {
    std::vector<std::string> gameDirs;  // searched after the map's own archive / pakfile
    std::string palette;                // Quake 2: colormap.pcx for .wal textures
    float time = 0;                     // animated textures: the frame shown at this time (seconds)
    // Source: damaged game content (a VPK CRC mismatch, a VPK entry or archive that cannot be read) is an
    // error (an exception naming it) instead of a warning.
    bool strict = false;
    // Bytes of decoded textures one load may hold (0: no bound). Past it the remaining textures are refused
    // (MaterialSet::overLimit): a service's per-request memory limit.
    size_t textureBudget = 0;
};

// Loads the materials of a decoded map. Never fails for a missing texture (it is listed in `missing`);
// throws UsageError for unusable options (a palette file that cannot be read) and DecodeError only for
// the map's own embedded data being corrupt. Search order, highest precedence first: Quake 3: the map's
// own pk3, each game dir (loose files, then its pk3s), the directory above the map's maps/ folder;
// Quake 2: game dirs, their paks then loose files (textures/NAME or NAME as .png/.tga/.jpg, then .wal); Quake 1 and
// Half-Life: the textures embedded in the map, then the WADs the worldspawn's "wad" key names (the map's folder,
// its parent, the game dirs), through the palette (--palette, a game dir's gfx/palette.lmp, or the built-in one;
// WAD3 and Half-Life textures: their own), and the worldspawn's sky box from gfx/env/ (the game dirs, then GAME of
// a map at GAME/maps/); Source: the map's
// pakfile, then each game dir's search path (mountSourceGame: gameinfo.txt, VPKs).
//
// `decodeOnly` (non-empty): textures are decoded only for the materials it marks (a view decodes what it can
// see); the others keep their draw flags (sky, blending, hidden) and no texture, and are still listed in
// `missing` when their texture does not exist. Quake 3 honours it; Quake 2 and Source maps decode everything.
//
// `footprints` (non-empty, per material; Quake 3): the smallest squared footprint a view samples of the
// material's texture coordinates (the larger of |d(s, t)/dx|^2 and |d(s, t)/dy|^2 at a pixel, s and t counting
// repeats of the texture, as the frame's mip levels are chosen), 0 where anything may be sampled. A texture
// whose every use needs no level below L may be decoded from a level down to L (Texture::firstLevel): a JPEG
// of power-of-two sides at 1/2 or 1/4 size by libjpeg's scaled IDCT (reducedStart); the frame samples the same
// levels. Other images are decoded whole.
MaterialSet loadMaterials(const World& world, const MapSource& source, const MaterialOptions& options,
                          const std::vector<bool>& decodeOnly = {}, const std::vector<float>& footprints = {});
// What loadMaterials will need that depends on the source alone, done ahead (beside the map's decode) and kept
// in the process cache: a Quake 3 map's game mount (its archives' directories and shader scripts). Other
// formats: nothing. Errors are left for loadMaterials to report.
void prefetchMaterialSources(const MapSource& source, const MaterialOptions& options);
// Drops what the process cache holds for the archive at `archivePath` (the Quake 3 game mounts that include
// it): a service calls it when an uploaded archive's temporary file is removed, so uploads do not pile up.
void forgetMaterialSources(const std::string& archivePath);

// The process-wide texture cache: lookups and hits since the process started, what it holds now.
struct TextureCacheStats {
    size_t lookups = 0, hits = 0, decodes = 0;
    size_t entries = 0, bytes = 0;
    size_t sharedReads = 0;  // textures another process had decoded, read from the shared folder
};
TextureCacheStats textureCacheStats();
// Caps what the cache keeps (decoded bytes, mip levels included); past it the least recently used textures
// are dropped (maps still holding them keep them alive). 0: no cap (the default).
void setTextureCacheBudget(size_t bytes);
// Decoded textures shared with other processes through files in `dir` (the workers of batch --isolate, which
// are separate processes by design): a texture this process's cache lacks is read from there when another
// process wrote it; one decoded here is written there, at most `byteLimit` bytes in all. Empty: none (default).
void shareTexturesThrough(const std::string& dir, size_t byteLimit);

// How many times Quake 3 game directories were mounted and their shader scripts parsed since the process
// started: maps with the same archive and game directories share one (a batch reports it; tests check it).
size_t quake3GameMounts();

// "N materials without texture: a, b, c, ..." (the first few names), or "" when none.
std::string missingSummary(const MaterialSet& set);

// The mean colour of material `material`'s texture as its bytes say (0..255 per channel, alpha-weighted: its
// 1x1 mip level), or nullopt when the material has no texture loaded.
std::optional<Vec3> meanTextureColour(const MaterialSet& set, int32_t material);

}  // namespace luxel
