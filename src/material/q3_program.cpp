// Quake 3 shaders compiled into stage programs and cloud layers (see q3_program.hpp), following ioquake3's
// ParseStage / ComputeColors / ComputeTexCoords (tr_shader.c, tr_shade.c, tr_shade_calc.c).
#include "q3_program.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace luxel::materials {

// R_FindImageFile: the name as written when its type is known, then the other image types.
std::string findImage(const GameFiles& files, const std::string& name) {
    const std::string base = stripExtension(name);
    std::vector<std::string> candidates;
    const std::string ext = toLowerAscii(name.substr(base.size()));
    if (ext == ".tga" || ext == ".jpg" || ext == ".jpeg" || ext == ".png") candidates.push_back(name);
    for (const char* e : {".tga", ".jpg", ".jpeg", ".png"}) candidates.push_back(base + e);
    return firstExisting(files, candidates);
}

// The image of a stage at `time`: animMap's frame (floor(time * frequency) modulo the frames, as
// R_BindAnimatedImage; a negative index, time * frequency < 0, shows the first frame), else its map.
std::string stageImageAt(const Q3Stage& stage, float time) {
    if (stage.animFrames.empty()) return stage.map;
    const double frames = std::floor(double(time) * double(stage.animFrequency));
    if (!std::isfinite(frames) || frames < 0) return stage.animFrames.front();
    return stage.animFrames[size_t(std::fmod(frames, double(stage.animFrames.size())))];
}

namespace {

BlendFactor blendFactor(Q3BlendFactor f) {
    switch (f) {
        case Q3BlendFactor::One: return BlendFactor::One;
        case Q3BlendFactor::Zero: return BlendFactor::Zero;
        case Q3BlendFactor::SrcAlpha: return BlendFactor::SrcAlpha;
        case Q3BlendFactor::OneMinusSrcAlpha: return BlendFactor::OneMinusSrcAlpha;
        case Q3BlendFactor::DstColor: return BlendFactor::DstColor;
        case Q3BlendFactor::OneMinusDstColor: return BlendFactor::OneMinusDstColor;
        case Q3BlendFactor::SrcColor: return BlendFactor::SrcColor;
        case Q3BlendFactor::OneMinusSrcColor: return BlendFactor::OneMinusSrcColor;
        case Q3BlendFactor::DstAlpha: return BlendFactor::DstAlpha;
        case Q3BlendFactor::OneMinusDstAlpha: return BlendFactor::OneMinusDstAlpha;
        case Q3BlendFactor::SrcAlphaSaturate: return BlendFactor::One;  // min(As, 1 - Ad): 1 over an opaque sky
    }
    return BlendFactor::One;
}

}  // namespace

Wave waveOf(const Q3Wave& w) {
    Wave out;
    static const std::pair<const char*, Wave::Func> kFuncs[] = {
        {"sin", Wave::Func::Sin},           {"triangle", Wave::Func::Triangle},
        {"square", Wave::Func::Square},     {"sawtooth", Wave::Func::Sawtooth},
        {"inversesawtooth", Wave::Func::InverseSawtooth}, {"noise", Wave::Func::Noise}};
    for (const auto& [name, f] : kFuncs)
        if (w.func == name) out.func = f;
    out.base = w.base, out.amplitude = w.amplitude, out.phase = w.phase, out.frequency = w.frequency;
    return out;
}

namespace {

float clamp01(double v) { return float(std::clamp(v, 0.0, 1.0)); }

// The stage's tcMods at `time` (each mod is affine at a fixed time) as one affine map, and its first turb
// with the linear part of the mods after it (see MaterialStage::turb). Stretch scales about (0.5, 0.5) by
// 1 / its wave. A second turb is left out (no OpenArena shader has one; unevaluatedFeatures says so).
// A tcMod at `time` as a TexMod (stretch: a transform about (0.5, 0.5) by 1 / its wave); nullopt for turb.
std::optional<TexMod> texModOf(const Q3TcMod& m, float time) {
    TexMod t;
    std::copy(std::begin(m.p), std::end(m.p), std::begin(t.p));
    switch (m.kind) {
        case Q3TcModKind::Scale: t.kind = TexMod::Kind::Scale; break;
        case Q3TcModKind::Scroll: t.kind = TexMod::Kind::Scroll; break;
        case Q3TcModKind::Rotate: t.kind = TexMod::Kind::Rotate; break;
        case Q3TcModKind::Transform: t.kind = TexMod::Kind::Transform; break;
        case Q3TcModKind::Stretch: {  // RB_CalcStretchTexCoords
            Q3Wave w;
            w.func = m.waveFunc, w.base = m.p[0], w.amplitude = m.p[1], w.phase = m.p[2], w.frequency = m.p[3];
            const double v = evalWave(waveOf(w), time);
            const float p = v != 0 ? float(1.0 / v) : 1.0f;
            t.kind = TexMod::Kind::Transform;
            const float m6[6] = {p, 0, 0, p, 0.5f - 0.5f * p, 0.5f - 0.5f * p};
            std::copy(std::begin(m6), std::end(m6), std::begin(t.p));
            break;
        }
        case Q3TcModKind::Turb: return std::nullopt;
    }
    return t;
}

void stageCoordinates(const Q3Stage& s, float time, MaterialStage& out) {
    std::vector<TexMod> mods, afterTurb;
    for (const Q3TcMod& m : s.tcMods) {
        const std::optional<TexMod> t = texModOf(m, time);
        if (!t) {  // turb: base amplitude phase frequency; the base is not used (ParseTexMod)
            if (!out.turb) {
                out.turb = true;
                out.turbAmplitude = m.p[1];
                out.turbNow = double(m.p[2]) + double(time) * double(m.p[3]);
                afterTurb.clear();
            }
            continue;
        }
        mods.push_back(*t);
        afterTurb.push_back(*t);
    }
    affineOf(mods, time, out.affine);
    if (out.turb) {
        float a[6];
        affineOf(afterTurb, time, a);
        std::copy(a, a + 4, out.turbLinear);
    }
}

}  // namespace

// The shader's stages as a program at `time` (see MaterialStage), textures requested from `files`.
std::shared_ptr<const StageProgram> stageProgram(const Q3Shader& sh, const GameFiles& files, TextureRequests& requests,
                                                 float time, bool decode, float footprint2) {
    auto program = std::make_shared<StageProgram>();
    for (const Q3Stage& s : sh.stages) {
        if (program->stages.size() == kMaxProgramStages) break;
        MaterialStage m;
        if (s.isLightmap) {
            m.source = MaterialStage::Source::Lightmap;
        } else if (s.isWhiteImage || !s.videoMap.empty()) {
            m.source = MaterialStage::Source::White;
        }
        m.texGen = s.tcGenEnvironment ? MaterialStage::TexGen::Environment
                   : s.tcGenVector    ? MaterialStage::TexGen::Vector
                   : s.isLightmap     ? MaterialStage::TexGen::Lightmap
                                      : MaterialStage::TexGen::Base;
        if (s.tcGenVector) m.texVector[0] = (*s.tcGenVector)[0], m.texVector[1] = (*s.tcGenVector)[1];
        stageCoordinates(s, time, m);
        if (m.source == MaterialStage::Source::Texture) {
            const std::string path = findImage(files, stageImageAt(s, time));
            // The frame's level for a stage on the base (or lightmap) coordinates is their footprint times the
            // stage's affine scale (program.cpp); environment and vector coordinates have footprints of their own.
            const bool baseFootprint = m.texGen == MaterialStage::TexGen::Base || m.texGen == MaterialStage::TexGen::Lightmap;
            const float scale2 = std::max(m.affine[0] * m.affine[0] + m.affine[1] * m.affine[1],
                                          m.affine[2] * m.affine[2] + m.affine[3] * m.affine[3]);
            if (path.empty()) m.source = MaterialStage::Source::White;
            else if (decode) m.texture = requests.addQuake3Image(files, path, baseFootprint ? footprint2 * scale2 : 0.0f);
        }
        m.clamp = s.clamp;
        m.blends = s.hasBlend;
        if (s.hasBlend) m.src = blendFactor(s.blend.src), m.dst = blendFactor(s.blend.dst);
        switch (s.alphaFunc) {
            case Q3AlphaFunc::None: m.alphaTest = MaterialStage::AlphaTest::None; break;
            case Q3AlphaFunc::GT0: m.alphaTest = MaterialStage::AlphaTest::Gt0; break;
            case Q3AlphaFunc::LT128: m.alphaTest = MaterialStage::AlphaTest::Lt128; break;
            case Q3AlphaFunc::GE128: m.alphaTest = MaterialStage::AlphaTest::Ge128; break;
        }
        switch (s.rgbGen) {
            case Q3RgbGen::IdentityLighting: m.color = MaterialStage::Color::IdentityLighting; break;
            case Q3RgbGen::Vertex: m.color = MaterialStage::Color::Vertex; break;
            case Q3RgbGen::ExactVertex:
            case Q3RgbGen::LightingDiffuse: m.color = MaterialStage::Color::ExactVertex; break;
            case Q3RgbGen::OneMinusVertex: m.color = MaterialStage::Color::OneMinusVertex; break;
            case Q3RgbGen::Const: m.color = MaterialStage::Color::Constant, m.constant = s.rgbConst; break;
            case Q3RgbGen::Wave: {  // RB_CalcWaveColor: a grey, times identityLight unless noise, clamped
                const Wave w = waveOf(s.rgbWave);
                const float g = float(evalWave(w, time));
                m.color = w.func == Wave::Func::Noise ? MaterialStage::Color::Constant : MaterialStage::Color::LitConstant;
                m.constant = w.func == Wave::Func::Noise ? Vec3{clamp01(g), clamp01(g), clamp01(g)} : Vec3{g, g, g};
                break;
            }
            default: m.color = MaterialStage::Color::One; break;  // identity, entity (white), unknown
        }
        switch (s.alphaGen) {
            case Q3AlphaGen::Identity: m.alpha = MaterialStage::Alpha::Texture; break;
            case Q3AlphaGen::Vertex: m.alpha = MaterialStage::Alpha::Vertex; break;
            case Q3AlphaGen::OneMinusVertex: m.alpha = MaterialStage::Alpha::OneMinusVertex; break;
            case Q3AlphaGen::Const: m.alpha = MaterialStage::Alpha::Constant, m.alphaConstant = s.alphaConst; break;
            case Q3AlphaGen::Wave:
                m.alpha = MaterialStage::Alpha::Constant, m.alphaConstant = clamp01(evalWave(waveOf(s.alphaWave), time));
                break;
            case Q3AlphaGen::Other:  // lightingSpecular (or an unknown name)
                m.alpha = MaterialStage::Alpha::LightingSpecular;
                break;
            case Q3AlphaGen::Portal:
                m.alpha = MaterialStage::Alpha::Portal, m.alphaConstant = s.alphaConst > 0 ? s.alphaConst : 256.0f;
                break;
            default: m.alpha = MaterialStage::Alpha::Constant, m.alphaConstant = 1; break;  // entity: opaque
        }
        program->stages.push_back(m);
    }
    return program;
}

// The sky shader's stages as cloud layers on the dome (ioquake3 draws them when skyParms is given; its
// cloud height 0 means 512). Stages without an image (video maps) are left out; tcMod turb is not applied
// (no sky shader of the OpenArena maps uses it).
void addClouds(SkyBox& box, const Q3Shader& sky, const GameFiles& files, TextureRequests& requests, float time,
               std::vector<std::string>& warnings) {
    box.cloudHeight = sky.skyCloudHeight > 0 ? sky.skyCloudHeight : 512.0f;
    for (const Q3Stage& stage : sky.stages) {
        if (stage.isLightmap || stage.isWhiteImage) continue;
        const std::string name = stageImageAt(stage, time);
        if (name.empty()) continue;
        const std::string path = findImage(files, name);
        if (path.empty()) {
            warnings.push_back(sky.name + ": cloud image " + name + " not found");
            continue;
        }
        CloudLayer layer;
        layer.texture = requests.addQuake3Image(files, path);
        if (stage.hasBlend) layer.src = blendFactor(stage.blend.src), layer.dst = blendFactor(stage.blend.dst);
        for (const Q3TcMod& m : stage.tcMods)
            if (const std::optional<TexMod> t = texModOf(m, time)) layer.mods.push_back(*t);
        box.clouds.push_back(std::move(layer));
    }
}

}  // namespace luxel::materials
