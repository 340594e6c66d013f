// A shader's stages (the { ... } blocks inside it), as ioquake3's ParseStage reads them.
#include <utility>

#include "q3_shader_parser.hpp"

namespace luxel::q3script {
namespace {

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

}  // namespace

BlockEnd ScriptParser::parseStage(Q3Stage& st) {
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

void ScriptParser::mapArg(Q3Stage& st, const Token& t) {
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

bool ScriptParser::stageKeyword(Q3Stage& st, StageState& state, const Token& t) {
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

void ScriptParser::parseBlendFunc(Q3Stage& st, StageState& state, int line) {
    auto a = valueArg(line, "blendFunc");
    if (!a) return;
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

void ScriptParser::parseRgbGen(Q3Stage& st, int line) {
    auto p = valueArg(line, "rgbGen");
    if (!p) return;
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

std::optional<Q3Wave> ScriptParser::waveArgs(int line, const char* what) {
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

void ScriptParser::parseAlphaGen(Q3Stage& st, int line) {
    auto p = valueArg(line, "alphaGen");
    if (!p) return;
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

void ScriptParser::finishStage(Q3Stage& st, const StageState& state) {
    if (!st.rgbGenExplicit) {
        Q3BlendFactor src = st.blend.src;
        bool lit = !state.blendGiven || src == Q3BlendFactor::One || src == Q3BlendFactor::SrcAlpha;
        st.rgbGen = lit ? Q3RgbGen::IdentityLighting : Q3RgbGen::Identity;
    }
    st.hasBlend = state.blendGiven && !(st.blend.src == Q3BlendFactor::One && st.blend.dst == Q3BlendFactor::Zero);
    st.depthWrite = state.depthWriteExplicit || !st.hasBlend;
}

}  // namespace luxel::q3script
