// The decisions a renderer needs from a parsed Quake 3 shader (q3_shader.hpp): how it is drawn (one texture,
// a stage program, terrain blends, folded details), what of it is left out, its draw kind and sort value.
#include "luxel/material/q3_shader.hpp"

#include <algorithm>

namespace luxel {

bool drawnDeform(const std::string& kind) {
    return kind == "wave" || kind == "normal" || kind == "bulge" || kind == "move" || kind == "autosprite" ||
           kind == "autosprite2";
}

namespace {

bool hasImage(const Q3Stage& st) { return !st.isLightmap && !st.isWhiteImage && !st.map.empty(); }

bool plainStage(const Q3Stage& s) {
    for (const Q3TcMod& m : s.tcMods)
        if (m.kind != Q3TcModKind::Scale) return false;
    const bool colour = s.rgbGen == Q3RgbGen::Identity || s.rgbGen == Q3RgbGen::IdentityLighting ||
                        s.rgbGen == Q3RgbGen::Vertex || s.rgbGen == Q3RgbGen::ExactVertex;
    return colour && !s.tcGenEnvironment && !s.tcGenVector && !s.detail && !s.clamp && s.alphaGen == Q3AlphaGen::Identity &&
           s.alphaFunc == Q3AlphaFunc::None && s.videoMap.empty() && !s.isWhiteImage;
}

bool filterBlend(const Q3Stage& s) {
    return s.hasBlend && (s.blend == Q3BlendFunc{Q3BlendFactor::DstColor, Q3BlendFactor::Zero} ||
                          s.blend == Q3BlendFunc{Q3BlendFactor::Zero, Q3BlendFactor::SrcColor});
}

}  // namespace

const Q3Stage* vertexAlphaBlendStage(const Q3Shader& sh) {
    std::vector<const Q3Stage*> st;
    for (const Q3Stage& s : sh.stages)
        if (!foldableDetail(s)) st.push_back(&s);
    if (st.size() != 3) return nullptr;
    const Q3Stage &a = *st[0], &b = *st[1], &l = *st[2];
    Q3Stage bPlain = b;
    bPlain.alphaGen = Q3AlphaGen::Identity;
    const bool ok = !a.isLightmap && plainStage(a) && a.rgbGen == Q3RgbGen::Identity && !a.hasBlend &&
                    !b.isLightmap && plainStage(bPlain) && b.alphaGen == Q3AlphaGen::Vertex &&
                    (b.rgbGen == Q3RgbGen::Identity || b.rgbGen == Q3RgbGen::IdentityLighting) &&
                    b.blend == Q3BlendFunc{Q3BlendFactor::SrcAlpha, Q3BlendFactor::OneMinusSrcAlpha} && l.isLightmap &&
                    plainStage(l) &&
                    (filterBlend(l) || l.blend == Q3BlendFunc{Q3BlendFactor::DstColor, Q3BlendFactor::SrcColor});
    return ok ? &b : nullptr;
}

bool foldableDetail(const Q3Stage& s) {
    Q3Stage plain = s;
    plain.detail = false;
    return s.detail && !s.isLightmap && plainStage(plain) && s.blend == Q3BlendFunc{Q3BlendFactor::DstColor, Q3BlendFactor::SrcColor};
}

// Up to two foldable detail stages after the base stages count as simple: x 2 * detail on the albedo is the
// engine's result unless an intermediate framebuffer value saturates (light x texture x 2 * detail > 1 before
// the display ramp).
bool drawnAsOneTexture(const Q3Shader& shader) {
    if (vertexAlphaBlendStage(shader)) return true;
    std::vector<Q3Stage> st;
    size_t details = 0;
    for (const Q3Stage& s : shader.stages) {
        if (foldableDetail(s)) {
            ++details;
            continue;
        }
        if (details > 0) return false;  // a stage after a detail stage
        st.push_back(s);
    }
    if (details > 2) return false;
    if (st.empty()) return true;
    if (st.size() == 1) return !st[0].isLightmap && plainStage(st[0]);
    if (st.size() != 2 || !plainStage(st[0]) || !plainStage(st[1]) || st[0].hasBlend) return false;
    return st[0].isLightmap != st[1].isLightmap && filterBlend(st[1]);
}


bool drawnAsProgram(const Q3Shader& sh) {
    const Q3DrawKind kind = drawKind(sh);
    if (kind == Q3DrawKind::Opaque) return !drawnAsOneTexture(sh);
    if (kind != Q3DrawKind::AlphaTest && kind != Q3DrawKind::Blend && kind != Q3DrawKind::Additive) return false;
    auto plain = [](const Q3Stage& s) {  // plainStage, alpha test allowed
        Q3Stage p = s;
        p.alphaFunc = Q3AlphaFunc::None;
        return plainStage(p);
    };
    const auto& st = sh.stages;
    if (st.size() == 1) return st[0].isLightmap || !plain(st[0]);
    if (st.size() == 2 && plain(st[0]) && plain(st[1]) && st[0].isLightmap != st[1].isLightmap)
        return !filterBlend(st[1]);
    return true;
}

std::vector<std::string> unevaluatedFeatures(const Q3Shader& sh) {
    std::vector<std::string> out;
    auto add = [&](std::string what) {
        if (std::find(out.begin(), out.end(), what) == out.end()) out.push_back(std::move(what));
    };
    for (const std::string& d : sh.deforms)
        if (!drawnDeform(d)) add("deformVertexes " + d);
    if ((sh.surfaceParms & kQ3SurfFog) && !sh.fogColor) add("fog volume without fogparms");
    for (const std::string& u : sh.unknown) add("unknown keyword " + u);
    for (const Q3Stage& st : sh.stages)
        for (const std::string& u : st.unknown) add("unknown stage keyword " + u);
    const Q3DrawKind kind = drawKind(sh);
    static const char* const kModNames[] = {"scale", "scroll", "rotate", "transform", "turb", "stretch"};
    if (kind == Q3DrawKind::NoDraw) return out;
    if (kind == Q3DrawKind::Sky) {
        for (const Q3Stage& st : sh.stages)
            for (const Q3TcMod& m : st.tcMods)
                if (m.kind == Q3TcModKind::Turb)
                    add(std::string("sky tcMod ") + kModNames[int(m.kind)]);
        return out;
    }
    if (drawnAsProgram(sh)) {
        if (sh.stages.size() > 8) add("stages past the eighth");  // the engine's MAX_SHADER_STAGES
        for (const Q3Stage& st : sh.stages) {  // drawn as a program: what the program leaves out
            if (std::count_if(st.tcMods.begin(), st.tcMods.end(), [](const Q3TcMod& m) { return m.kind == Q3TcModKind::Turb; }) > 1)
                add("tcMod turb after tcMod turb");
            if (st.rgbGen == Q3RgbGen::LightingDiffuse) add("rgbGen lightingDiffuse (drawn as exactVertex)");
            if (st.rgbGen == Q3RgbGen::Other) add("rgbGen unknown");
            if (st.alphaGen == Q3AlphaGen::Portal) add("portal view (alphaGen portal fades to it)");
            if (!st.videoMap.empty()) add("videoMap");
        }
        return out;
    }
    if (kind == Q3DrawKind::Opaque) return out;
    // Translucent and alpha-tested shaders drawn with one texture: the first texture stage times the light.
    const Q3Stage* first = firstTextureStage(sh);
    size_t extra = 0;
    for (const Q3Stage& st : sh.stages)
        if (&st != first && !st.isLightmap && !foldableDetail(st)) ++extra;
    if (extra > 0) add("translucent extra stages");
    if (first) {
        for (const Q3TcMod& m : first->tcMods)
            if (m.kind != Q3TcModKind::Scale) add(std::string("translucent tcMod ") + kModNames[int(m.kind)]);
        if (first->rgbGen == Q3RgbGen::Wave || first->rgbGen == Q3RgbGen::Const) add("translucent rgbGen wave / const");
        if (first->tcGenEnvironment) add("translucent tcGen environment");
        if (first->alphaGen != Q3AlphaGen::Identity) add("translucent alphaGen");
    }
    return out;
}

const Q3Stage* firstTextureStage(const Q3Shader& shader) {
    const Q3Stage* fallback = nullptr;
    for (const Q3Stage& st : shader.stages) {
        if (!hasImage(st)) continue;
        if (!st.tcGenEnvironment && !st.detail) return &st;
        if (!fallback) fallback = &st;
    }
    return fallback;
}

bool hasLightmapStage(const Q3Shader& shader) {
    for (const Q3Stage& st : shader.stages)
        if (st.isLightmap) return true;
    return false;
}

namespace {

bool sameWave(const Q3Wave& a, const Q3Wave& b) {
    return a.func == b.func && a.base == b.base && a.amplitude == b.amplitude && a.phase == b.phase &&
           a.frequency == b.frequency;
}

// ParseStage skips an identity alphaGen (AGEN_SKIP) when the colour is identity or lightingDiffuse.
bool skipsAlpha(const Q3Stage& s) {
    return s.alphaGen == Q3AlphaGen::Identity && (s.rgbGen == Q3RgbGen::Identity || s.rgbGen == Q3RgbGen::LightingDiffuse);
}

}  // namespace

bool collapsesMultitexture(const Q3Shader& shader) {
    if (shader.stages.size() < 2) return false;
    const Q3Stage &a = shader.stages[0], &b = shader.stages[1];
    // Identical state but for the blends and the depth mask.
    if (a.alphaFunc != b.alphaFunc || a.depthFuncEqual != b.depthFuncEqual) return false;
    using F = Q3BlendFactor;
    const std::optional<Q3BlendFunc> none;
    const std::optional<Q3BlendFunc> blendA = a.hasBlend ? std::optional(a.blend) : none;
    const std::optional<Q3BlendFunc> blendB = b.hasBlend ? std::optional(b.blend) : none;
    const Q3BlendFunc filterSrc{F::Zero, F::SrcColor}, filterDst{F::DstColor, F::Zero}, add{F::One, F::One};
    auto filter = [&](const std::optional<Q3BlendFunc>& f) { return f && (*f == filterSrc || *f == filterDst); };
    // The engine's table: (none, filter), (filter, filter) in any of the two spellings each; (none, add), (add, add).
    const bool modulate = (!blendA || filter(blendA)) && filter(blendB);
    const bool added = (!blendA || *blendA == add) && blendB && *blendB == add;
    if (!modulate && !added) return false;
    if (a.rgbGen != b.rgbGen || skipsAlpha(a) != skipsAlpha(b) || (!skipsAlpha(a) && a.alphaGen != b.alphaGen)) return false;
    if (added && a.rgbGen != Q3RgbGen::Identity) return false;  // an add collapse only with identity colours
    if (a.rgbGen == Q3RgbGen::Wave && !sameWave(a.rgbWave, b.rgbWave)) return false;
    if (!skipsAlpha(a) && a.alphaGen == Q3AlphaGen::Wave && !sameWave(a.alphaWave, b.alphaWave)) return false;
    return true;
}

std::optional<size_t> rLightmapStageCount(const Q3Shader& shader) {
    const auto& st = shader.stages;
    const auto first = std::find_if(st.begin(), st.end(), [](const Q3Stage& s) { return s.isLightmap; });
    if (first == st.end()) return std::nullopt;
    const size_t lightmap = size_t(first - st.begin());
    if (lightmap < 2 && collapsesMultitexture(shader)) return std::nullopt;
    return lightmap + 1;
}

Q3DrawKind drawKind(const Q3Shader& shader) {
    if (shader.surfaceParms & kQ3SurfNoDraw) return Q3DrawKind::NoDraw;
    if ((shader.surfaceParms & kQ3SurfSky) || shader.hasSkyParms) return Q3DrawKind::Sky;
    if (shader.stages.empty()) return (shader.surfaceParms & kQ3SurfFog) ? Q3DrawKind::NoDraw : Q3DrawKind::Opaque;
    const Q3Stage& first = shader.stages.front();
    if (first.hasBlend) {
        if (first.blend.src == Q3BlendFactor::One && first.blend.dst == Q3BlendFactor::One) return Q3DrawKind::Additive;
        return first.alphaFunc != Q3AlphaFunc::None ? Q3DrawKind::AlphaTest : Q3DrawKind::Blend;
    }
    return first.alphaFunc != Q3AlphaFunc::None ? Q3DrawKind::AlphaTest : Q3DrawKind::Opaque;
}

float engineSort(const Q3Shader& shader) {
    if (shader.sort > 0) return shader.sort;
    if (shader.polygonOffset) return 4;
    const Q3DrawKind kind = drawKind(shader);
    if (kind == Q3DrawKind::Sky) return 2;
    if (shader.stages.empty() && (shader.surfaceParms & kQ3SurfFog)) return 7;
    if (!shader.stages.empty() && shader.stages.front().hasBlend) return shader.stages.front().depthWrite ? 5 : 9;
    return 3;
}

void addShaders(Q3ShaderTable& table, std::vector<Q3Shader>&& shaders) {
    for (Q3Shader& s : shaders) {
        std::string key = s.name;
        table.try_emplace(std::move(key), std::move(s));
    }
}

}  // namespace luxel
