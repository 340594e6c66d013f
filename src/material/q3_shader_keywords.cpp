// A shader's global keywords (outside its stages), as ioquake3's ParseShader and q3map2 read them.
#include <algorithm>

#include "q3_shader_parser.hpp"

namespace luxel::q3script {
namespace {

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

}  // namespace

bool ScriptParser::globalKeyword(Q3Shader& s, const Token& t) {
    const std::string& k = t.text;
    if (t.quoted) return false;
    if (equalsIgnoreCase(k, "surfaceparm")) {
        if (auto p = arg()) {
            for (const auto& sp : kSurfaceParms)
                if (equalsIgnoreCase(p->text, sp.name)) s.surfaceParms |= sp.bit;
        }
    } else if (equalsIgnoreCase(k, "cull")) {
        if (auto p = valueArg(t.line, "cull")) {
            const std::string& v = p->text;
            if (equalsIgnoreCase(v, "none") || equalsIgnoreCase(v, "twosided") || equalsIgnoreCase(v, "disable"))
                s.cull = Q3Cull::None;
            else if (equalsIgnoreCase(v, "back") || equalsIgnoreCase(v, "backside") || equalsIgnoreCase(v, "backsided"))
                s.cull = Q3Cull::Back;
            else if (equalsIgnoreCase(v, "front") || equalsIgnoreCase(v, "frontside") || equalsIgnoreCase(v, "frontsided"))
                s.cull = Q3Cull::Front;
            else
                lx_.warn(t.line, "cull: unknown value '" + v + "'");
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

}  // namespace luxel::q3script
