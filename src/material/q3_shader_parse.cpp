// Quake 3 shader scripts parsed leniently (q3_shader.hpp): over the script's tokens (q3_script_lexer.hpp), a
// parser that reads every shader, stage and keyword the way ioquake3's ParseShader / ParseStage do, with
// line-numbered warnings.
#include "luxel/material/q3_shader.hpp"

#include <algorithm>
#include <utility>

#include "luxel/util/text.hpp"
#include "q3_script_lexer.hpp"

namespace luxel {

namespace {
// A number written where q3map2 reads an integer (atoi): truncated, kept in [lo, hi]; NaN gives lo.
int boundedInt(float v, int lo, int hi) {
    if (!(v >= float(lo))) return lo;
    if (v >= float(hi)) return hi;
    return int(v);
}
}  // namespace

namespace {

using q3script::Lexer;
using q3script::Token;

std::string forwardSlashes(std::string_view path) {
    std::string s(path);
    for (char& c : s)
        if (c == '\\') c = '/';
    return s;
}


struct NamedBit {
    const char* name;
    uint32_t bit;
};

constexpr NamedBit kSurfaceParms[] = {
    {"nodraw", kQ3SurfNoDraw},         {"sky", kQ3SurfSky},
    {"trans", kQ3SurfTrans},           {"nolightmap", kQ3SurfNoLightmap},
    {"nonsolid", kQ3SurfNonSolid},     {"fog", kQ3SurfFog},
    {"water", kQ3SurfWater},           {"slime", kQ3SurfSlime},
    {"lava", kQ3SurfLava},             {"playerclip", kQ3SurfPlayerClip},
    {"areaportal", kQ3SurfAreaPortal}, {"nomarks", kQ3SurfNoMarks},
    {"noimpact", kQ3SurfNoImpact},     {"alphashadow", kQ3SurfAlphaShadow},
    {"lightfilter", kQ3SurfLightFilter}, {"structural", kQ3SurfStructural},
    {"detail", kQ3SurfDetail},         {"hint", kQ3SurfHint},
    {"origin", kQ3SurfOrigin},         {"monsterclip", kQ3SurfMonsterClip},
    {"nodrop", kQ3SurfNoDrop},         {"clusterportal", kQ3SurfClusterPortal},
    {"donotenter", kQ3SurfDoNotEnter}, {"slick", kQ3SurfSlick},
    {"ladder", kQ3SurfLadder},         {"nodamage", kQ3SurfNoDamage},
    {"metalsteps", kQ3SurfMetalSteps}, {"flesh", kQ3SurfFlesh},
    {"nosteps", kQ3SurfNoSteps},       {"pointlight", kQ3SurfPointLight},
    {"nodlight", kQ3SurfNoDlight},     {"dust", kQ3SurfDust},
};

struct NamedFactor {
    const char* name;  // without GL_
    Q3BlendFactor factor;
};

constexpr NamedFactor kBlendFactors[] = {
    {"ONE", Q3BlendFactor::One},
    {"ZERO", Q3BlendFactor::Zero},
    {"SRC_ALPHA", Q3BlendFactor::SrcAlpha},
    {"ONE_MINUS_SRC_ALPHA", Q3BlendFactor::OneMinusSrcAlpha},
    {"DST_COLOR", Q3BlendFactor::DstColor},
    {"ONE_MINUS_DST_COLOR", Q3BlendFactor::OneMinusDstColor},
    {"SRC_COLOR", Q3BlendFactor::SrcColor},
    {"ONE_MINUS_SRC_COLOR", Q3BlendFactor::OneMinusSrcColor},
    {"DST_ALPHA", Q3BlendFactor::DstAlpha},
    {"ONE_MINUS_DST_ALPHA", Q3BlendFactor::OneMinusDstAlpha},
    {"SRC_ALPHA_SATURATE", Q3BlendFactor::SrcAlphaSaturate},
};

std::optional<Q3BlendFactor> blendFactor(std::string_view name) {
    if (startsWithIgnoreCase(name, "GL_")) name.remove_prefix(3);
    for (const auto& f : kBlendFactors)
        if (equalsIgnoreCase(name, f.name)) return f.factor;
    return std::nullopt;
}

// Per-stage facts needed after the closing brace, when ioquake3 resolves defaults.
struct StageState {
    bool blendGiven = false;
    bool depthWriteExplicit = false;
};

enum class BlockEnd { Closed, EndOfFile, NextShader };

class ScriptParser {
public:
    ScriptParser(std::string_view text, const std::string& file, std::vector<std::string>* warnings)
        : lx_(text, file, warnings), file_(file) {}

    std::vector<Q3Shader> run() {
        std::vector<Q3Shader> shaders;
        while (auto t = lx_.next(true)) {
            if (t->is('{')) {
                lx_.warn(t->line, "'{' without a shader name; block skipped");
                skipBlock(t->line);
                continue;
            }
            if (t->is('}')) {
                lx_.warn(t->line, "unmatched '}' ignored");
                continue;
            }
            Lexer::Mark afterName = lx_.mark();
            auto open = lx_.next(true);
            if (!open) {
                lx_.warn(t->line, "shader " + t->text + ": end of file before its '{'");
                break;
            }
            if (!open->is('{')) {
                lx_.warn(t->line, "shader " + t->text + ": no '{' after the name (found '" + open->text +
                                      "' on line " + std::to_string(open->line) + "); skipped");
                lx_.reset(afterName);
                continue;
            }
            Q3Shader shader;
            shader.name = normalizeShaderName(t->text);
            shader.file = file_;
            shader.line = t->line;
            parseBody(shader);
            shaders.push_back(std::move(shader));
        }
        return shaders;
    }

private:
    // The next token on the current line, never a brace (a brace ends a keyword's arguments).
    std::optional<Token> arg() {
        Lexer::Mark m = lx_.mark();
        auto t = lx_.next(false);
        if (t && t->isBrace()) {
            lx_.reset(m);
            return std::nullopt;
        }
        return t;
    }

    void skipLine() {
        while (arg()) {
        }
    }

    std::optional<float> floatArg() {
        auto t = arg();
        if (!t) return std::nullopt;
        return leadingFloat(t->text);
    }

    // "( r g b )", "(r g b)" or "r g b": parentheses are optional and may touch the numbers.
    std::optional<Vec3> vectorArg(int line, const std::string& keyword) {
        Vec3 v;
        int n = 0;
        while (n < 3) {
            auto t = arg();
            if (!t) break;
            std::string digits;
            for (char c : t->text)
                if (c != '(' && c != ')') digits += c;
            if (digits.empty()) continue;
            v[n++] = leadingFloat(digits);
        }
        if (n < 3) {
            lx_.warn(line, keyword + ": expected three numbers");
            return std::nullopt;
        }
        Lexer::Mark m = lx_.mark();
        auto close = arg();
        if (!close || close->text != ")") lx_.reset(m);
        return v;
    }

    void skipBlock(int openLine) {
        int depth = 1;
        while (auto t = lx_.next(true)) {
            if (t->is('{')) ++depth;
            if (t->is('}') && --depth == 0) return;
        }
        lx_.warn(openLine, "end of file inside a block");
    }

    // A lone path-like word followed by '{' on a later line: the next shader, after a missing '}'.
    bool looksLikeNextShader(const Token& t) {
        if (t.quoted || t.text.find('/') == std::string::npos) return false;
        Lexer::Mark m = lx_.mark();
        bool lone = !lx_.next(false);
        auto after = lx_.next(true);
        lx_.reset(m);
        return lone && after && after->is('{');
    }

    void parseBody(Q3Shader& shader) {
        while (true) {
            Lexer::Mark before = lx_.mark();
            auto t = lx_.next(true);
            if (!t) {
                lx_.warn(shader.line, "shader " + shader.name + ": missing '}' at end of file; kept");
                return;
            }
            if (t->is('}')) return;
            if (t->is('{')) {
                Q3Stage stage;
                stage.line = t->line;
                BlockEnd end = parseStage(stage);
                // q3map2 takes a stage's image as the light image while no editor or light image is known.
                if (shader.editorImage.empty() && shader.q3mapLightImage.empty() && !stage.map.empty() &&
                    stage.map[0] != '$' && stage.map[0] != '*')
                    shader.q3mapLightImage = stage.map;
                shader.stages.push_back(std::move(stage));
                if (end == BlockEnd::NextShader) {
                    Lexer::Mark m = lx_.mark();
                    auto name = lx_.next(true);
                    lx_.reset(m);
                    if (name)
                        lx_.warn(shader.line, "shader " + shader.name + ": missing '}' before " + name->text +
                                                  " on line " + std::to_string(name->line) + "; closed there");
                    return;
                }
                continue;
            }
            if (globalKeyword(shader, *t)) continue;
            if (!looksLikeNextShader(*t)) shader.unknown.push_back(toLowerAscii(t->text));
            if (looksLikeNextShader(*t)) {
                lx_.warn(shader.line, "shader " + shader.name + ": missing '}' before " + t->text + " on line " +
                                          std::to_string(t->line) + "; closed there");
                lx_.reset(before);
                return;
            }
            skipLine();
        }
    }

    bool globalKeyword(Q3Shader& s, const Token& t) {
        const std::string& k = t.text;
        if (t.quoted) return false;
        if (equalsIgnoreCase(k, "surfaceparm")) {
            if (auto p = arg()) {
                for (const auto& sp : kSurfaceParms)
                    if (equalsIgnoreCase(p->text, sp.name)) s.surfaceParms |= sp.bit;
            }
        } else if (equalsIgnoreCase(k, "cull")) {
            auto p = arg();
            if (!p) {
                lx_.warn(t.line, "cull: missing value");
            } else if (equalsIgnoreCase(p->text, "none") || equalsIgnoreCase(p->text, "twosided") || equalsIgnoreCase(p->text, "disable")) {
                s.cull = Q3Cull::None;
            } else if (equalsIgnoreCase(p->text, "back") || equalsIgnoreCase(p->text, "backside") || equalsIgnoreCase(p->text, "backsided")) {
                s.cull = Q3Cull::Back;
            } else if (equalsIgnoreCase(p->text, "front") || equalsIgnoreCase(p->text, "frontside") || equalsIgnoreCase(p->text, "frontsided")) {
                s.cull = Q3Cull::Front;
            } else {
                lx_.warn(t.line, "cull: unknown value '" + p->text + "'");
            }
        } else if (equalsIgnoreCase(k, "skyparms")) {
            s.hasSkyParms = true;
            if (auto outer = arg(); outer && outer->text != "-") {
                s.skyBoxBase = forwardSlashes(outer->text);
                // q3map2: the box's top image lights the sky unless a light image was named before.
                if (s.q3mapLightImage.empty() && !equalsIgnoreCase(outer->text, "full"))
                    s.q3mapLightImage = *s.skyBoxBase + "_up";
            }
            float height = floatArg().value_or(0.0f);
            s.skyCloudHeight = height != 0 ? height : 512.0f;
            skipLine();  // the inner box
        } else if (equalsIgnoreCase(k, "fogparms")) {
            s.fogColor = vectorArg(t.line, "fogparms");
            s.fogDistance = floatArg().value_or(0.0f);
            skipLine();  // old gradient directions
        } else if (equalsIgnoreCase(k, "sort")) {
            parseSort(s, t.line);
        } else if (equalsIgnoreCase(k, "portal")) {
            s.sort = 1;
        } else if (equalsIgnoreCase(k, "nopicmip")) {
            s.noPicMip = true;
        } else if (equalsIgnoreCase(k, "nomipmaps")) {
            s.noMipMaps = s.noPicMip = true;
        } else if (equalsIgnoreCase(k, "polygonoffset")) {
            s.polygonOffset = true;
        } else if (equalsIgnoreCase(k, "deformvertexes")) {
            s.hasDeformVertexes = true;
            if (auto p = arg()) {
                Q3Shader::Deform d;
                d.kind = toLowerAscii(p->text);
                s.deforms.push_back(d.kind);
                bool ok = true;
                if (d.kind == "wave") {
                    const auto div = floatArg();
                    ok = div && *div != 0;
                    if (ok) d.spread = 1.0f / *div;
                    if (ok) {
                        auto w = waveArgs(t.line, "deformVertexes wave");
                        ok = w.has_value();
                        if (ok) d.wave = *w;
                    }
                } else if (d.kind == "bulge") {  // width height speed (ParseDeform)
                    std::optional<float> v[3];
                    for (auto& x : v) x = floatArg();
                    ok = v[2].has_value();
                    if (ok) d.bulgeWidth = *v[0], d.bulgeHeight = *v[1], d.bulgeSpeed = *v[2];
                } else if (d.kind == "normal") {  // amplitude frequency
                    const auto amplitude = floatArg();
                    const auto frequency = amplitude ? floatArg() : std::nullopt;
                    ok = frequency.has_value();
                    if (ok) d.wave.amplitude = *amplitude, d.wave.frequency = *frequency;
                } else if (d.kind == "move") {
                    std::optional<float> v[3];
                    for (auto& x : v) x = floatArg();
                    ok = v[2].has_value();
                    if (ok) {
                        d.move = {*v[0], *v[1], *v[2]};
                        auto w = waveArgs(t.line, "deformVertexes move");
                        ok = w.has_value();
                        if (ok) d.wave = *w;
                    }
                }
                if (!ok) lx_.warn(t.line, "deformVertexes " + d.kind + ": bad arguments");
                else if (drawnDeform(d.kind)) s.deformArgs.push_back(d);
            }
            skipLine();
        } else if (equalsIgnoreCase(k, "qer_editorimage")) {
            if (auto p = arg()) s.editorImage = forwardSlashes(p->text);
        } else if (startsWithIgnoreCase(k, "qer")) {
            skipLine();
        } else if (equalsIgnoreCase(k, "q3map_sun") || equalsIgnoreCase(k, "q3map_sunext") || equalsIgnoreCase(k, "sun")) {
            // q3map2 reads six numbers (q3map_sunExt: two more, deviance and samples, when present).
            float v[8] = {};
            int n = 0;
            const int most = equalsIgnoreCase(k, "q3map_sunext") ? 8 : 6;
            while (n < most) {
                auto f = floatArg();
                if (!f) break;
                v[n++] = *f;
            }
            if (n < 6) {
                lx_.warn(t.line, k + ": expected r g b intensity degrees elevation");
            } else {
                s.sunColor = Vec3{v[0], v[1], v[2]};
                s.sunIntensity = v[3];
                s.sunDegrees = v[4];
                s.sunElevation = v[5];
                Q3Shader::Sun sun{*s.sunColor, v[3], v[4], v[5]};
                if (n >= 8) sun.deviance = v[6], sun.samples = boundedInt(v[7], -1000000, 1000000);
                s.suns.push_back(sun);
            }
            skipLine();
        } else if (equalsIgnoreCase(k, "q3map_skylight")) {
            // q3map2: value clamped to >= 0, iterations to >= 2; optional horizon_min horizon_max (clamped to
            // -90..90) and sample_color.
            Q3Shader::SkyLight sky;
            const auto value = floatArg();
            const auto iterations = value ? floatArg() : std::nullopt;
            if (!iterations) {
                lx_.warn(t.line, k + ": expected value iterations");
            } else {
                sky.value = std::max(0.0f, *value);
                sky.iterations = boundedInt(*iterations, 2, 1000000);
                if (auto lo = floatArg()) {
                    sky.horizonMin = boundedInt(*lo, -90, 90);
                    if (auto hi = floatArg()) {
                        sky.horizonMax = boundedInt(*hi, -90, 90);
                        if (auto sample = floatArg()) sky.sampleColor = boundedInt(*sample, -1, 1) != 0;
                    }
                }
                s.skyLights.push_back(sky);
            }
            skipLine();
        } else if (equalsIgnoreCase(k, "q3map_surfacelight")) {
            s.surfaceLight = floatArg().value_or(0.0f);
        } else if (equalsIgnoreCase(k, "q3map_lightsubdivide")) {
            s.lightSubdivide = boundedInt(floatArg().value_or(0.0f), -1000000, 1000000);
        } else if (equalsIgnoreCase(k, "q3map_lightrgb")) {
            float v[3] = {};
            int n = 0;
            while (n < 3) {
                auto f = floatArg();
                if (!f) break;
                v[n++] = *f;
            }
            s.lightRGB = Vec3{v[0], v[1], v[2]};  // q3map2 reads missing numbers as 0
        } else if (equalsIgnoreCase(k, "q3map_backsplash")) {
            s.backsplashPercent = floatArg().value_or(0.0f);
            s.backsplashDistance = floatArg().value_or(0.0f);
        } else if (equalsIgnoreCase(k, "q3map_lightstyle")) {
            s.lightStyle = boundedInt(floatArg().value_or(0.0f), 0, 255);
        } else if (equalsIgnoreCase(k, "q3map_nofast")) {
            s.noFast = true;
        } else if (equalsIgnoreCase(k, "q3map_lightimage")) {
            if (auto p = arg()) s.lightImage = s.q3mapLightImage = forwardSlashes(p->text);
        } else if (startsWithIgnoreCase(k, "q3map") || equalsIgnoreCase(k, "light") || equalsIgnoreCase(k, "tesssize") ||
                   equalsIgnoreCase(k, "clamptime") || equalsIgnoreCase(k, "entitymergable") || equalsIgnoreCase(k, "fogonly")) {
            skipLine();
        } else {
            return false;
        }
        return true;
    }

    void parseSort(Q3Shader& s, int line) {
        auto p = arg();
        if (!p) {
            lx_.warn(line, "sort: missing value");
            return;
        }
        static constexpr std::pair<const char*, float> kNames[] = {
            {"portal", 1},    {"sky", 2},         {"opaque", 3},   {"decal", 4},  {"seethrough", 5},
            {"banner", 6},    {"underwater", 8},  {"additive", 10}, {"nearest", 16},
        };
        for (const auto& [name, value] : kNames) {
            if (equalsIgnoreCase(p->text, name)) {
                s.sort = value;
                return;
            }
        }
        s.sort = leadingFloat(p->text);
    }

    BlockEnd parseStage(Q3Stage& st) {
        StageState state;
        BlockEnd end = BlockEnd::Closed;
        while (true) {
            Lexer::Mark before = lx_.mark();
            auto t = lx_.next(true);
            if (!t) {
                lx_.warn(st.line, "stage: missing '}' at end of file");
                end = BlockEnd::EndOfFile;
                break;
            }
            if (t->is('}')) break;
            if (t->is('{')) {
                lx_.warn(t->line, "'{' inside a stage: the stage opened on line " + std::to_string(st.line) +
                                      " is closed here");
                lx_.reset(before);
                break;
            }
            if (stageKeyword(st, state, *t)) continue;
            if (!looksLikeNextShader(*t)) st.unknown.push_back(toLowerAscii(t->text));
            if (looksLikeNextShader(*t)) {
                lx_.reset(before);
                end = BlockEnd::NextShader;
                break;
            }
            skipLine();
        }
        finishStage(st, state);
        return end;
    }

    void mapArg(Q3Stage& st, const Token& t) {
        auto p = arg();
        if (!p) {
            lx_.warn(t.line, t.text + ": missing image name");
            return;
        }
        if (equalsIgnoreCase(p->text, "$lightmap")) {
            st.isLightmap = true;
        } else if (equalsIgnoreCase(p->text, "$whiteimage") || equalsIgnoreCase(p->text, "*white")) {
            st.isWhiteImage = true;
        } else {
            st.map = forwardSlashes(p->text);
        }
    }

    bool stageKeyword(Q3Stage& st, StageState& state, const Token& t) {
        const std::string& k = t.text;
        if (t.quoted) return false;
        if (equalsIgnoreCase(k, "map")) {
            mapArg(st, t);
        } else if (equalsIgnoreCase(k, "clampmap")) {
            st.clamp = true;
            mapArg(st, t);
        } else if (equalsIgnoreCase(k, "animmap")) {
            st.animFrequency = floatArg().value_or(0.0f);
            while (auto frame = arg()) {
                if (st.animFrames.size() < 8) st.animFrames.push_back(forwardSlashes(frame->text));
            }
            if (st.animFrames.empty())
                lx_.warn(t.line, "animMap: no frames");
            else
                st.map = st.animFrames.front();
        } else if (equalsIgnoreCase(k, "videomap")) {
            if (auto p = arg()) st.videoMap = forwardSlashes(p->text);
        } else if (equalsIgnoreCase(k, "alphafunc")) {
            auto p = arg();
            if (p && equalsIgnoreCase(p->text, "GT0"))
                st.alphaFunc = Q3AlphaFunc::GT0;
            else if (p && equalsIgnoreCase(p->text, "LT128"))
                st.alphaFunc = Q3AlphaFunc::LT128;
            else if (p && equalsIgnoreCase(p->text, "GE128"))
                st.alphaFunc = Q3AlphaFunc::GE128;
            else
                lx_.warn(t.line, "alphaFunc: unknown value '" + (p ? p->text : std::string()) + "'");
        } else if (equalsIgnoreCase(k, "depthfunc")) {
            auto p = arg();
            if (p && equalsIgnoreCase(p->text, "equal"))
                st.depthFuncEqual = true;
            else if (p && equalsIgnoreCase(p->text, "lequal"))
                st.depthFuncEqual = false;
            else
                lx_.warn(t.line, "depthFunc: unknown value '" + (p ? p->text : std::string()) + "'");
        } else if (equalsIgnoreCase(k, "detail")) {
            st.detail = true;
        } else if (equalsIgnoreCase(k, "depthwrite")) {
            state.depthWriteExplicit = true;
        } else if (equalsIgnoreCase(k, "blendfunc")) {
            parseBlendFunc(st, state, t.line);
        } else if (equalsIgnoreCase(k, "rgbgen")) {
            parseRgbGen(st, t.line);
        } else if (equalsIgnoreCase(k, "tcgen") || equalsIgnoreCase(k, "texgen")) {
            auto p = arg();
            if (p && equalsIgnoreCase(p->text, "environment")) st.tcGenEnvironment = true;
            if (p && equalsIgnoreCase(p->text, "vector")) {  // tcGen vector ( sx sy sz ) ( tx ty tz )
                auto s = vectorArg(t.line, "tcGen vector");
                auto v = s ? vectorArg(t.line, "tcGen vector") : std::nullopt;
                if (v) st.tcGenVector = {*s, *v};
            }
            skipLine();
        } else if (equalsIgnoreCase(k, "tcmod")) {
            auto kind = arg();
            // Arguments per kind (ParseTexMod); a line with too few numbers is warned about and dropped.
            static const struct { const char* name; Q3TcModKind kind; int numbers; bool wave; } kKinds[] = {
                {"scale", Q3TcModKind::Scale, 2, false},         {"scroll", Q3TcModKind::Scroll, 2, false},
                {"rotate", Q3TcModKind::Rotate, 1, false},       {"transform", Q3TcModKind::Transform, 6, false},
                {"turb", Q3TcModKind::Turb, 4, false},           {"stretch", Q3TcModKind::Stretch, 4, true}};
            for (const auto& k : kKinds) {
                if (!kind || !equalsIgnoreCase(kind->text, k.name)) continue;
                Q3TcMod mod;
                mod.kind = k.kind;
                bool ok = true;
                if (k.wave) {
                    auto func = arg();
                    ok = func.has_value();
                    if (ok) mod.waveFunc = toLowerAscii(func->text);
                }
                for (int i = 0; ok && i < k.numbers; ++i) {
                    auto f = floatArg();
                    ok = f.has_value();
                    if (ok) mod.p[i] = *f;
                }
                if (!ok) {
                    lx_.warn(t.line, std::string("tcMod ") + k.name + ": expected " + std::to_string(k.numbers) +
                                         " numbers" + (k.wave ? " after the wave function" : ""));
                    break;
                }
                if (mod.kind == Q3TcModKind::Scale) {
                    st.tcModScale[0] *= mod.p[0];
                    st.tcModScale[1] *= mod.p[1];
                }
                st.tcMods.push_back(mod);
                // ioquake3 reads a tcMod's own arguments only: what follows on the line is the next keyword
                // (real scripts write "tcMod scale 7 7  alphaGen vertex").
                return true;
            }
            skipLine();
        } else if (equalsIgnoreCase(k, "alphagen")) {
            parseAlphaGen(st, t.line);
        } else {
            return false;
        }
        return true;
    }

    void parseBlendFunc(Q3Stage& st, StageState& state, int line) {
        auto a = arg();
        if (!a) {
            lx_.warn(line, "blendFunc: missing value");
            return;
        }
        Q3BlendFunc f;
        if (equalsIgnoreCase(a->text, "add")) {
            f = {Q3BlendFactor::One, Q3BlendFactor::One};
        } else if (equalsIgnoreCase(a->text, "filter")) {
            f = {Q3BlendFactor::DstColor, Q3BlendFactor::Zero};
        } else if (equalsIgnoreCase(a->text, "blend")) {
            f = {Q3BlendFactor::SrcAlpha, Q3BlendFactor::OneMinusSrcAlpha};
        } else {
            auto b = arg();
            if (!b) {
                lx_.warn(line, "blendFunc: missing destination factor");
                return;
            }
            // ioquake3 substitutes GL_ONE for a name it does not know, on either side.
            auto src = blendFactor(a->text), dst = blendFactor(b->text);
            if (!src) lx_.warn(line, "blendFunc: unknown factor '" + a->text + "', using ONE");
            if (!dst) lx_.warn(line, "blendFunc: unknown factor '" + b->text + "', using ONE");
            f = {src.value_or(Q3BlendFactor::One), dst.value_or(Q3BlendFactor::One)};
        }
        st.blend = f;
        state.blendGiven = true;
    }

    void parseRgbGen(Q3Stage& st, int line) {
        auto p = arg();
        if (!p) {
            lx_.warn(line, "rgbGen: missing value");
            return;
        }
        static constexpr std::pair<const char*, Q3RgbGen> kNames[] = {
            {"identityLighting", Q3RgbGen::IdentityLighting},
            {"identity", Q3RgbGen::Identity},
            {"vertex", Q3RgbGen::Vertex},
            {"exactVertex", Q3RgbGen::ExactVertex},
            {"oneMinusVertex", Q3RgbGen::OneMinusVertex},
            {"wave", Q3RgbGen::Wave},
            {"entity", Q3RgbGen::Entity},
            {"lightingDiffuse", Q3RgbGen::LightingDiffuse},
            {"const", Q3RgbGen::Const},
        };
        st.rgbGenExplicit = true;
        st.rgbGen = Q3RgbGen::Other;
        for (const auto& [name, gen] : kNames)
            if (equalsIgnoreCase(p->text, name)) st.rgbGen = gen;
        if (st.rgbGen == Q3RgbGen::Const) {
            if (auto v = vectorArg(line, "rgbGen const")) st.rgbConst = *v;
        } else if (st.rgbGen == Q3RgbGen::Wave) {
            if (auto w = waveArgs(line, "rgbGen wave")) st.rgbWave = *w;
        }
    }

    // func base amplitude phase frequency (ParseWaveForm).
    std::optional<Q3Wave> waveArgs(int line, const char* what) {
        auto func = arg();
        Q3Wave w;
        std::optional<float> v[4];
        if (func)
            for (auto& x : v) x = floatArg();
        if (!func || !v[3]) {
            lx_.warn(line, std::string(what) + ": expected a function and four numbers");
            return std::nullopt;
        }
        w.func = toLowerAscii(func->text);
        w.base = *v[0], w.amplitude = *v[1], w.phase = *v[2], w.frequency = *v[3];
        return w;
    }

    void parseAlphaGen(Q3Stage& st, int line) {
        auto p = arg();
        if (!p) {
            lx_.warn(line, "alphaGen: missing value");
            return;
        }
        static constexpr std::pair<const char*, Q3AlphaGen> kNames[] = {
            {"identity", Q3AlphaGen::Identity}, {"const", Q3AlphaGen::Const},   {"vertex", Q3AlphaGen::Vertex},
            {"oneMinusVertex", Q3AlphaGen::OneMinusVertex}, {"wave", Q3AlphaGen::Wave},
            {"portal", Q3AlphaGen::Portal},     {"entity", Q3AlphaGen::Entity},
        };
        st.alphaGen = Q3AlphaGen::Other;
        for (const auto& [name, gen] : kNames)
            if (equalsIgnoreCase(p->text, name)) st.alphaGen = gen;
        if (st.alphaGen == Q3AlphaGen::Const) {
            if (auto v = floatArg()) st.alphaConst = *v;
            else lx_.warn(line, "alphaGen const: expected a number");
        } else if (st.alphaGen == Q3AlphaGen::Wave) {
            if (auto w = waveArgs(line, "alphaGen wave")) st.alphaWave = *w;
        } else if (st.alphaGen == Q3AlphaGen::Portal) {  // the range is the shader's portalRange
            if (auto v = floatArg()) st.alphaConst = *v;
            else lx_.warn(line, "alphaGen portal: expected a range");
        }
        skipLine();
    }

    // ioquake3 ParseStage's epilogue: default rgbGen, ONE ZERO means opaque, depth mask.
    static void finishStage(Q3Stage& st, const StageState& state) {
        if (!st.rgbGenExplicit) {
            Q3BlendFactor src = st.blend.src;
            bool lit = !state.blendGiven || src == Q3BlendFactor::One || src == Q3BlendFactor::SrcAlpha;
            st.rgbGen = lit ? Q3RgbGen::IdentityLighting : Q3RgbGen::Identity;
        }
        st.hasBlend = state.blendGiven && !(st.blend.src == Q3BlendFactor::One && st.blend.dst == Q3BlendFactor::Zero);
        st.depthWrite = state.depthWriteExplicit || !st.hasBlend;
    }

    Lexer lx_;
    const std::string& file_;
};

}  // namespace

std::string normalizeShaderName(std::string_view name) {
    std::string s = forwardSlashes(name);
    for (char& c : s) c = toLowerAscii(c);
    return s;
}

std::vector<Q3Shader> parseShaderScript(std::string_view text, const std::string& fileName,
                                        std::vector<std::string>* warnings) {
    return ScriptParser(text, fileName, warnings).run();
}

}  // namespace luxel
