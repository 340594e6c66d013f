#pragma once
// Quake 3 shader scripts (scripts/*.shader): a lenient text parser plus the few decisions a renderer
// needs (which image is the albedo, how the surface is drawn). Pure functions over text; callers read
// the files. The rules follow ioquake3's renderer (code/renderergl1/tr_shader.c); where this parser is
// deliberately more forgiving than the engine, the comment says so.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "luxel/util/math.hpp"

namespace luxel {

// "cull front" is the default and, despite the name, culls BACK faces (the front side is drawn).
// "cull back" / "backside" / "backsided" draws only the back side; "none" / "twosided" / "disable" both.
enum class Q3Cull : uint8_t { Front, Back, None };

enum class Q3AlphaFunc : uint8_t { None, GT0, LT128, GE128 };

// IdentityLighting is ioquake3's default for an rgbGen-less stage whose source blend is none, ONE or
// SRC_ALPHA; other source blends default to Identity. Other = oneMinusEntity or an unknown name.
enum class Q3RgbGen : uint8_t {
    IdentityLighting, Identity, Vertex, ExactVertex, OneMinusVertex, Wave, Entity, LightingDiffuse, Const, Other
};

// OpenGL blend factors, named without the GL_ prefix.
enum class Q3BlendFactor : uint8_t {
    One, Zero, SrcAlpha, OneMinusSrcAlpha, DstColor, OneMinusDstColor, SrcColor, OneMinusSrcColor, DstAlpha,
    OneMinusDstAlpha, SrcAlphaSaturate
};

struct Q3BlendFunc {
    Q3BlendFactor src = Q3BlendFactor::One, dst = Q3BlendFactor::Zero;
};
inline bool operator==(Q3BlendFunc a, Q3BlendFunc b) { return a.src == b.src && a.dst == b.dst; }

// A periodic function of time (ioquake3 waveForm_t): func(phase + time * frequency) * amplitude + base.
struct Q3Wave {
    std::string func = "sin";  // sin, triangle, square, sawtooth, inversesawtooth, noise
    float base = 0, amplitude = 0, phase = 0, frequency = 0;
};

// alphaGen (ioquake3 ParseStage); Identity: the texture's alpha. Other: lightingSpecular, an unknown name.
enum class Q3AlphaGen : uint8_t { Identity, Const, Vertex, OneMinusVertex, Wave, Portal, Entity, Other };

// One tcMod line, in the order written. Scale (sScale tScale), Scroll (sSpeed tSpeed, per second), Rotate
// (degrees per second), Transform (m00 m01 m10 m11 t0 t1), Turb (base amplitude phase frequency: the wave is
// a sine), Stretch (func base amplitude phase frequency), as ioquake3's ParseTexMod reads them.
enum class Q3TcModKind : uint8_t { Scale, Scroll, Rotate, Transform, Turb, Stretch };
struct Q3TcMod {
    Q3TcModKind kind = Q3TcModKind::Scale;
    std::string waveFunc;  // Stretch: sin, triangle, square, sawtooth, inversesawtooth, noise
    float p[6] = {0, 0, 0, 0, 0, 0};
};

struct Q3Stage {
    std::string map;  // image path as written ('\' turned to '/'); animMap: the first frame; "" for videoMap
    bool isLightmap = false;    // map $lightmap
    bool isWhiteImage = false;  // map $whiteimage (or *white)
    bool clamp = false;         // clampMap
    std::vector<std::string> animFrames;  // animMap frames, at most 8 like the engine
    float animFrequency = 0;
    std::string videoMap;
    Q3BlendFunc blend;       // as written; GL_ONE GL_ZERO counts as no blending (ioquake3 does the same)
    bool hasBlend = false;   // a blendFunc other than ONE ZERO
    Q3AlphaFunc alphaFunc = Q3AlphaFunc::None;
    Q3RgbGen rgbGen = Q3RgbGen::IdentityLighting;  // resolved default when not written
    bool rgbGenExplicit = false;
    Vec3 rgbConst{1, 1, 1};  // rgbGen const ( r g b ), 0..1
    Q3Wave rgbWave;          // rgbGen wave
    Q3AlphaGen alphaGen = Q3AlphaGen::Identity;
    float alphaConst = 1;    // alphaGen const; alphaGen portal: the range
    Q3Wave alphaWave;        // alphaGen wave
    // Effective depth write: on by default, off after a blendFunc unless the stage says depthWrite,
    // back on for ONE ZERO (ioquake3 ParseStage).
    bool depthWrite = true;
    bool depthFuncEqual = false;
    float tcModScale[2] = {1, 1};  // product of every tcMod scale (the static part the lit path draws)
    std::vector<Q3TcMod> tcMods;   // every tcMod with its arguments, in order
    bool tcGenEnvironment = false;
    std::optional<std::array<Vec3, 2>> tcGenVector;  // tcGen vector: s = position . [0], t = position . [1]
    bool detail = false;
    int line = 0;  // line of the stage's '{'
    std::vector<std::string> unknown;  // stage keywords this parser skipped, lower case
};

// surfaceparm bits: luxel's own numbering, not the game's CONTENTS_/SURF_ values.
enum Q3SurfaceParm : uint32_t {
    kQ3SurfNoDraw = 1u << 0,
    kQ3SurfSky = 1u << 1,
    kQ3SurfTrans = 1u << 2,
    kQ3SurfNoLightmap = 1u << 3,
    kQ3SurfNonSolid = 1u << 4,
    kQ3SurfFog = 1u << 5,
    kQ3SurfWater = 1u << 6,
    kQ3SurfSlime = 1u << 7,
    kQ3SurfLava = 1u << 8,
    kQ3SurfPlayerClip = 1u << 9,
    kQ3SurfAreaPortal = 1u << 10,
    kQ3SurfNoMarks = 1u << 11,
    kQ3SurfNoImpact = 1u << 12,
    kQ3SurfAlphaShadow = 1u << 13,
    kQ3SurfLightFilter = 1u << 14,
    kQ3SurfStructural = 1u << 15,
    kQ3SurfDetail = 1u << 16,
    kQ3SurfHint = 1u << 17,
    kQ3SurfOrigin = 1u << 18,
    kQ3SurfMonsterClip = 1u << 19,
    kQ3SurfNoDrop = 1u << 20,
    kQ3SurfClusterPortal = 1u << 21,
    kQ3SurfDoNotEnter = 1u << 22,
    kQ3SurfSlick = 1u << 23,
    kQ3SurfLadder = 1u << 24,
    kQ3SurfNoDamage = 1u << 25,
    kQ3SurfMetalSteps = 1u << 26,
    kQ3SurfFlesh = 1u << 27,
    kQ3SurfNoSteps = 1u << 28,
    kQ3SurfPointLight = 1u << 29,
    kQ3SurfNoDlight = 1u << 30,
    kQ3SurfDust = 1u << 31,
};

struct Q3Shader {
    std::string name;  // lower case, '\' turned to '/'
    std::string file;  // as given to parseShaderScript
    int line = 0;      // line of the name
    std::vector<Q3Stage> stages;
    Q3Cull cull = Q3Cull::Front;
    uint32_t surfaceParms = 0;  // Q3SurfaceParm bits; unknown parms are ignored like the engine does
    bool polygonOffset = false;
    bool hasSkyParms = false;
    std::optional<std::string> skyBoxBase;  // "env/foo" from skyParms env/foo 512 -; "-" gives nullopt
    float skyCloudHeight = 0;               // 512 when skyParms gives 0, like the engine
    std::string editorImage;                // qer_editorimage
    bool noPicMip = false, noMipMaps = false;
    // Explicit sort only (0 = not given): portal 1, sky 2, opaque 3, decal 4, seeThrough 5, banner 6,
    // underwater 8, additive 10 (ioquake3's SS_BLEND1), nearest 16, or the number written. The
    // "portal" keyword also sets 1. A float because the engine's sort key is one.
    float sort = 0;
    std::optional<Vec3> sunColor;  // q3map_sun / q3map_sunExt r g b intensity degrees elevation, as written
    float sunIntensity = 0, sunDegrees = 0, sunElevation = 0;
    float surfaceLight = 0;  // q3map_surfacelight
    std::string lightImage;  // q3map_lightimage
    // What q3map2's light stage reads (shaders.cpp ParseShaderFile), kept as written:
    struct Sun {  // q3map_sun / q3map_sunExt / sun: r g b intensity degrees elevation [deviance samples]
        Vec3 color;
        float intensity = 0, degrees = 0, elevation = 0;
        float deviance = 0;  // q3map_sunExt: degrees
        int samples = 1;
    };
    std::vector<Sun> suns;
    struct SkyLight {  // q3map_skyLight value iterations [horizonMin horizonMax sampleColor]
        float value = 0;
        int iterations = 2;
        int horizonMin = 0, horizonMax = 90;
        bool sampleColor = true;
    };
    std::vector<SkyLight> skyLights;
    int lightSubdivide = 0;                  // q3map_lightSubdivide
    std::optional<Vec3> lightRGB;            // q3map_lightRGB r g b
    std::optional<float> backsplashPercent;  // q3map_backsplash percent distance
    float backsplashDistance = 0;
    int lightStyle = 0;                      // q3map_lightStyle
    bool noFast = false;                     // q3map_noFast
    // q3map2's lightImagePath after the whole shader: q3map_lightImage; else the first stage image (map,
    // clampMap, animMap's first frame) met while neither an editor image nor a light image was set yet; else
    // skyParms' box + "_up". Empty when none.
    std::string q3mapLightImage;
    std::optional<Vec3> fogColor;  // fogparms ( r g b ) distance
    float fogDistance = 0;
    bool hasDeformVertexes = false;
    std::vector<std::string> deforms;  // deformVertexes kinds as written (lower case): wave, autosprite, ...
    // deformVertexes with their arguments (ParseDeform): spread = 1 / div for wave; normal keeps its
    // amplitude and frequency in `wave`.
    struct Deform {
        std::string kind;
        Q3Wave wave;
        float spread = 0;
        Vec3 move;
        float bulgeWidth = 0, bulgeHeight = 0, bulgeSpeed = 0;
    };
    std::vector<Deform> deformArgs;  // the kinds luxel draws (drawnDeform), in order
    std::vector<std::string> unknown;  // keywords this parser skipped (shader and stage level), lower case
};

// Parses one script. Never throws on content: anything unknown is skipped to the end of its line,
// and structural damage (unbalanced braces, a name without '{', end of file inside a shader) is
// reported in `warnings` as "file:line: ..." while every shader that could be parsed is returned
// (a shader cut off by the end of the file is kept). A lone path-like word followed by '{' inside a
// shader is taken as the next shader after a missing '}'. Braces are split from neighbouring text
// ("name{" is a name and a brace) and a word ends at a comment; ioquake3 needs spaces there and
// drops the whole file otherwise. A file can define a name twice; both are returned in file order
// (see addShaders).
// deformVertexes kinds the renderer applies: wave, normal, bulge, move, autosprite, autosprite2 (not text,
// projectionShadow: entity effects a map surface never has).
bool drawnDeform(const std::string& kind);

std::vector<Q3Shader> parseShaderScript(std::string_view text, const std::string& fileName,
                                        std::vector<std::string>* warnings = nullptr);

// Lower case with '\' -> '/': the key shaders are stored and looked up by.
std::string normalizeShaderName(std::string_view name);

// The stage whose image is the surface's albedo: the first stage with an image map (not $lightmap,
// $whiteimage or a video), preferring one that is neither tcGen environment nor a detail stage
// (chrome shaders put the reflection first). nullptr when no stage has an image. (A name with no
// script at all gets ioquake3's implicit shader: the image of that name times the lightmap.)
const Q3Stage* firstTextureStage(const Q3Shader& shader);

// Whether the one-texture look (texture x light, plus up to two folded detail stages) shows the shader as the
// engine draws it: no stages, one plain texture stage, or a lightmap and a plain texture stage multiplied
// (either order); plain = only tcMod scale, base coordinates, no waves, alpha from the texture, colour
// identity / identityLighting / vertex. Opaque shaders that are not drawn as a stage program.
bool drawnAsOneTexture(const Q3Shader& shader);
// Whether the renderer draws the shader stage by stage (a StageProgram): opaque shaders not drawnAsOneTexture,
// and translucent / alpha-tested ones other than a single plain stage or a plain stage with a lightmap
// multiplied (alpha test allowed: the common grate).
bool drawnAsProgram(const Q3Shader& shader);
// Terrain blends: a texture (rgbGen identity), a second one blended over it by vertex alpha (alphaGen
// vertex, GL_SRC_ALPHA GL_ONE_MINUS_SRC_ALPHA, its own static scale), the lightmap multiplied (filter, or
// GL_DST_COLOR GL_SRC_COLOR: twice), then folded details.
// The look draws them as lerp(first, second x its colour, vertex alpha) x light. Returns the second stage.
const Q3Stage* vertexAlphaBlendStage(const Q3Shader& shader);
// A detail stage the one-texture look folds in: GL_DST_COLOR GL_SRC_COLOR (x 2 * detail), static scale.
bool foldableDetail(const Q3Stage& stage);

// What of a shader luxel's renderer does not draw, as short names ("deformVertexes autosprite",
// "fog volume", "tcMod turb", "translucent extra stages", "unknown keyword x"); empty when every stage is
// evaluated. Compile-time keywords (q3map_*, qer_*, surfaceparm) do not count.
std::vector<std::string> unevaluatedFeatures(const Q3Shader& shader);
bool hasLightmapStage(const Q3Shader& shader);

// ioquake3's CollapseMultitexture (tr_shader.c): whether the shader's first two stages are drawn as one
// two-texture stage. Both must have the same alphaFunc and depthFunc, blends the engine's table pairs
// (none or filter with filter, none or add with add; an add only with rgbGen identity), the same rgbGen and
// effective alphaGen, and equal waves where those are waves.
bool collapsesMultitexture(const Q3Shader& shader);
// What r_lightmap 1 draws of a shader with a lightmap stage (RB_IterateStagesGeneric): the stages in order,
// stopping after the first that holds a lightmap. When that stage was collapsed with its neighbour, its
// lightmap unit is drawn with GL_REPLACE: the lightmap alone (nullopt). Otherwise the count of leading stages
// drawn, the lightmap stage blended over the ones before it by its own blendFunc. nullopt too without a
// lightmap stage.
std::optional<size_t> rLightmapStageCount(const Q3Shader& shader);

enum class Q3DrawKind : uint8_t { Opaque, AlphaTest, Blend, Additive, Sky, NoDraw };

// How a surface with this shader is drawn, in this order:
//  1. surfaceparm nodraw -> NoDraw.
//  2. surfaceparm sky or any skyParms -> Sky.
//  3. No stages: surfaceparm fog -> NoDraw (a fog volume, drawn by the fog pass); otherwise Opaque.
//     ioquake3's ParseShader treats a stageless, sky-less, fog-less definition as an error and draws
//     its default (missing texture) shader; callers do better with the image named like the shader
//     times the lightmap, which is what q3map2 and the editors show.
//  4. Stage 0 decides, as in ioquake3's FinishShader: a shader is translucent exactly when stage 0
//     blends (a blendFunc other than ONE ZERO). ONE ONE -> Additive; a blended stage 0 with alphaFunc
//     -> AlphaTest (the test decides coverage); any other blended stage 0 -> Blend.
//     (ioquake3 sorts a blended stage 0 with depthWrite as SEE_THROUGH, before other blends; it is
//     still blended, so Blend here.)
//  5. Stage 0 opaque (e.g. $lightmap followed by a "filter" DST_COLOR ZERO texture, or a texture
//     followed by a $lightmap filter): alphaFunc on stage 0 -> AlphaTest, else Opaque. An alphaFunc on
//     a later stage does not cut holes: stage 0 has already written colour and depth everywhere.
// An explicit `sort` keyword is not consulted: it orders draws, it does not change blending.
Q3DrawKind drawKind(const Q3Shader& shader);

// The engine's sort value for the shader as ioquake3's FinishShader resolves it: the explicit `sort`; else
// polygonOffset -> 4 (decal); else a blended stage 0 -> 5 (seeThrough) when it writes depth, 9 (blend0)
// otherwise; a fog volume -> 7; sky -> 2; else 3 (opaque). Blended surfaces are drawn in ascending sort,
// then in the order their shaders were first used, then in the order the engine's tree walk adds them.
float engineSort(const Q3Shader& shader);

// Shaders by normalised name. addShaders keeps the first definition of a name and ignores later ones.
// ioquake3 (ScanAndLoadShaderFiles) concatenates the scripts in the reverse of FS_ListFiles order, which
// lists the highest-precedence pk3 first (and, inside one pk3, the archive's directory order), and the
// first definition in that text wins. So within one file the first definition wins, and across pk3s
// the definition from the lowest-precedence (alphabetically first) pk3 wins - the opposite of plain
// files. Callers match it by adding scripts in ascending pk3 order (inside one pk3, in the reverse of
// its directory order); a same-named script in a later pk3 replaces the earlier file as a whole
// (ordinary file precedence) before any of this applies.
using Q3ShaderTable = std::unordered_map<std::string, Q3Shader>;
void addShaders(Q3ShaderTable& table, std::vector<Q3Shader>&& shaders);

}  // namespace luxel
