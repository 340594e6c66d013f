// Light entities read as ericw-tools' light reads them, for every game it lights (see ericw_lights.hpp and
// q2_lights.hpp for every key).
#include "luxel/light/ericw_lights.hpp"

#include "entity_values.hpp"
#include "luxel/util/random.hpp"

namespace luxel {

using namespace entity_values;

namespace {

// ---- ericw-tools ---------------------------------------------------------------------------------------

// A sun of `value` (0..255 units) travelling along `direction`, as AddSun and LightFace_Sky use it.
Light ericwSun(Vec3 direction, float value, Vec3 color255, float anglescale, uint8_t style, const EricwWorld& g,
               const std::string& source) {
    Light s;
    s.kind = Light::Kind::Sun;
    s.falloff = Light::Falloff::None;
    s.direction = normalize(direction);
    const float top = maxComponent(color255);
    s.color = top > 0 ? color255 / top : Vec3{};
    s.intensity = value * (top / 255.0f) * g.range / 255.0f;
    s.angleMix = anglescale;
    s.style = style;
    s.source = source;
    return s;
}

// SetupSkyDome for the default -sunsamples 64: 5 iterations, 4 rings of 16 suns 18 degrees apart from 9
// degrees up, each ring turned a quarter step further, and one sun straight down (up for the lower dome).
void ericwDome(float value, Vec3 color255, float anglescale, uint8_t style, bool upper, const EricwWorld& g,
               const std::string& source, std::vector<Light>& out) {
    constexpr int kSunSamples = 64;
    const int iterations = std::max(2, int(std::lrint(std::sqrt(double((kSunSamples - 1) / 4)))) + 1);
    const int elevationSteps = iterations - 1, angleSteps = elevationSteps * 4;
    const double elevationStep = (90.0 / (elevationSteps + 1)) * 3.14159265358979323846 / 180.0;
    const double angleStep = (360.0 / angleSteps) * 3.14159265358979323846 / 180.0;
    const float each = value / float(angleSteps * elevationSteps + 1);
    const float zSign = upper ? -1.0f : 1.0f;
    double angle = 0, elevation = elevationStep * 0.5;
    for (int i = 0; i < elevationSteps; ++i) {
        for (int j = 0; j < angleSteps; ++j) {
            const Vec3 d{float(std::cos(angle) * std::cos(elevation)), float(std::sin(angle) * std::cos(elevation)),
                         float(zSign * std::sin(elevation))};
            out.push_back(ericwSun(d, each, color255, anglescale, style, g, source + ", dome sun"));
            angle += angleStep;
        }
        elevation += elevationStep;
        angle += angleStep / elevationSteps;
    }
    out.push_back(ericwSun({0, 0, zSign}, each, color255, anglescale, style, g, source + ", dome sun"));
}

const Entity* ericwTarget(const std::vector<Entity>& ents, const std::string& target) {
    for (const Entity& e : ents) {  // MatchTargets: the first entity of that targetname, any case
        const std::string* n = ericwValue(e, {"targetname"});
        if (n && iequals(*n, target)) return &e;
    }
    return nullptr;
}

// One light entity as ericw-tools' light_t (CheckEntityFields, SetupSpotlights, SetupSuns, SetupSkyDomes).
void readEricwLight(const std::vector<Entity>& ents, size_t index, const std::string& cls, const EricwWorld& g,
                    std::vector<Light>& out, Problems problems) {
    const Entity& e = ents[index];
    const Vec3 origin = originOf(ericwValue(e, {"origin"}));
    const std::string where = describe(index, cls, origin);
    if (number(ericwValue(e, {"nostaticlight"})) != 0) return;
    // A _surface light is a template: it lights nothing itself (MakeSurfaceLights sets its value to 0); the
    // lights made from it on the faces of its texture are separate entities (light/q1/surface_templates.cpp).
    if (const std::string* surface = ericwValue(e, {"surface"}); surface && !surface->empty()) return;
    const std::string* lightKey = ericwValue(e, {"light"});
    float value = lightKey ? number(lightKey) : 300.0f;
    float wait = number(ericwValue(e, {"wait"}));
    if (!ericwValue(e, {"wait"})) wait = 1;
    if (wait <= 0) wait = 1;
    int delay = integer(ericwValue(e, {"delay"}));
    if (delay < 0 || delay > 5) {
        note(problems, where + ": delay " + std::to_string(delay) + " is not 0..5; read as 0 (linear)");
        delay = 0;
    }
    // _deviance / _samples (CheckEntityFields, JitterEntity): `samples` copies, the first at the origin, the others
    // moved up to deviance units on each axis; inverse, inverse-square and unattenuated lights share their value
    // among them (linear ones do not: light leaves their value whole). light draws the offsets from rand();
    // luxel from a hash of the entity's index, so the same map gives the same bytes everywhere.
    float deviance = number(ericwValue(e, {"deviance"}));
    int samples = integer(ericwValue(e, {"samples"}));
    if (deviance > 0 && samples == 0) samples = 16;
    if (!(deviance > 0) || samples <= 1) deviance = 0, samples = 1;
    samples = std::min(samples, 256);
    if (delay == 1 || delay == 2 || delay == 3 || delay == 5) value /= float(samples);
    float falloffDistance = std::max(0.0f, number(ericwValue(e, {"falloff"})));
    if (delay != 0) falloffDistance = 0;  // only linear lights take _falloff
    const Vec3 color = ericwColor(ericwValue(e, {"color"}));
    const uint8_t style = uint8_t(std::clamp(integer(ericwValue(e, {"style"})), 0, 254));
    const std::string* angleKey = ericwValue(e, {"anglesense", "anglescale"});
    float anglescale = angleKey ? number(angleKey) : -1.0f;
    if (anglescale < 0 || anglescale > 1) anglescale = g.anglescale;
    const std::string* mangleKey = ericwValue(e, {"mangle"});
    Vec3 mangle;
    const bool hasMangle = mangleKey && parseVec3(*mangleKey, mangle) && isFinite(mangle);
    Vec3 spot;
    bool spotlight = false;
    if (hasMangle) spot = fromMangle(mangle), spotlight = true;
    const std::string* target = ericwValue(e, {"target"});
    const Entity* t = target && !target->empty() ? ericwTarget(ents, *target) : nullptr;
    const Vec3 toTarget = t ? originOf(ericwValue(*t, {"origin"})) - origin : Vec3{};
    if (t) spot = normalize(toTarget), spotlight = true;

    if (number(ericwValue(e, {"sun"})) != 0 && value > 0) {
        const Vec3 dir = t ? toTarget : (hasMangle && dot(mangle, mangle) > 0 ? fromMangle(mangle) : -origin);
        out.push_back(ericwSun(dir, value, color, anglescale, style, g, where + ", _sun"));
        return;
    }
    const bool dome2 = number(ericwValue(e, {"sunlight2"})) != 0, dome3 = number(ericwValue(e, {"sunlight3"})) != 0;
    if ((dome2 || dome3) && value > 0) {
        ericwDome(value, color, anglescale, style, dome2, g, where, out);
        return;
    }
    if (value == 0) return;
    if (value < 0) {
        note(problems, where + ": negative light (antilight) left out: arrivals only add light");
        return;
    }
    if (delay == 4) {
        note(problems, where + ": local minlight (delay 4) left out: it raises light to a floor, it adds none");
        return;
    }
    const float top = maxComponent(color);
    if (!(top > 0)) return;
    Light l;
    l.origin = origin;
    l.source = where;
    l.nudgeOutOfSolid = number(ericwValue(e, {"nonudge"})) == 0;
    l.style = style;
    l.angleMix = anglescale;
    l.color = color / top;
    const float s = g.dist * wait;  // GetLightValue: scaledist x atten x d
    float scale = value;
    constexpr float kScale = 128;  // LF_SCALE
    switch (delay) {
        case 0:
            l.falloff = Light::Falloff::Linear;
            l.range = falloffDistance > 0 ? falloffDistance : (s > 0 ? value / s : 0);
            if (!(l.range > 0)) l.falloff = Light::Falloff::None;  // _dist 0: light - 0 everywhere
            else l.envelope = l.range;
            break;
        case 1:
            l.falloff = Light::Falloff::Inverse;
            scale = s > 0 ? value * kScale / s : 0;
            break;
        case 2:
        case 5:
            l.falloff = Light::Falloff::InverseSquare;
            scale = s * s > 0 ? value * kScale * kScale / (s * s) : 0;
            if (delay == 5 && s > 0) l.squareOffset = kScale / s;
            break;
        default: l.falloff = Light::Falloff::None; break;
    }
    if (!(scale > 0) || !std::isfinite(scale)) return;
    l.intensity = scale * (top / 255.0f) * g.range / 255.0f;
    if (spotlight) {
        l.kind = Light::Kind::Spot;
        l.direction = spot;
        const std::string* coneKey = ericwValue(e, {"cone"});
        const std::string* angle = ericwValue(e, {"angle"});
        float base = coneKey ? number(coneKey) * 2 : (angle ? number(angle) : 0.0f);
        // The game's default: Quake 2's _cone 10 (a radius), Quake 1's angle 40 (a diameter).
        if (!base) base = g.game == EricwGame::Quake2 ? 20.0f : 40.0f;
        float soft = number(ericwValue(e, {"softangle"}));
        if (soft <= 0 || soft > base) soft = base;
        l.spotCosOuter = std::cos(degToRad(base / 2));
        l.spotCosInner = std::cos(degToRad(soft / 2));
    }
    const Light first = l;
    out.push_back(std::move(l));
    uint64_t state = 0x243f6a8885a308d3ull ^ (uint64_t(index) * 0x9e3779b97f4a7c15ull);
    for (int k = 1; k < samples; ++k) {
        Light copy = first;
        const float dx = unitFloat(state) * 2 - 1, dy = unitFloat(state) * 2 - 1, dz = unitFloat(state) * 2 - 1;
        copy.origin = first.origin + Vec3{dx, dy, dz} * deviance;
        copy.source = where + ", _deviance copy " + std::to_string(k);
        out.push_back(std::move(copy));
    }
}

// The worldspawn entity (nullptr: none).
const Entity* ericwWorldspawn(const std::vector<Entity>& ents) {
    for (const Entity& e : ents)
        if (const std::string* c = ericwValue(e, {"classname"}); c && *c == "worldspawn") return &e;
    return nullptr;
}

void readEricw(const std::vector<Entity>& mapEntities, EricwGame game, std::vector<Light>& out, Problems problems) {
    const std::vector<Entity> ents = withSwitchableStyles(mapEntities);
    const Entity* world = ericwWorldspawn(ents);
    const EricwWorld g = ericwWorld(ents, game);
    // Dirt_GetScaleFactor's choice per light: its _dirt 1 on, -1 off, else the worldspawn's _dirt; its own
    // _dirtscale / _dirtgain when non-zero.
    auto dirty = [&](std::vector<Light>::iterator first, int flag, const Entity* e) {
        const bool on = g.occlusionInUse && (flag == 1 || (flag == 0 && g.dirt));
        const float scale = e && number(ericwValue(*e, {"dirtscale"})) != 0 ? number(ericwValue(*e, {"dirtscale"})) : g.dirtScale;
        const float gain = e && number(ericwValue(*e, {"dirtgain"})) != 0 ? number(ericwValue(*e, {"dirtgain"})) : g.dirtGain;
        for (auto it = first; it != out.end(); ++it)
            if (on) it->occlusionScale = scale, it->occlusionGain = gain;
    };
    for (size_t i = 0; i < ents.size(); ++i) {
        const std::string* cls = ericwValue(ents[i], {"classname"});
        if (!cls || cls->rfind("light", 0) != 0) continue;
        const size_t before = out.size();
        readEricwLight(ents, i, *cls, g, out, problems);
        dirty(out.begin() + std::ptrdiff_t(before), integer(ericwValue(ents[i], {"dirt"})), &ents[i]);
    }
    if (!world) return;
    const Entity& w = *world;
    auto mangleOf = [&](std::initializer_list<std::string_view> names) {
        Vec3 m{0, -90, 0};  // straight down
        const std::string* v = ericwValue(w, names);
        if (v) parseVec3(*v, m);
        return isFinite(m) ? fromMangle(m) : Vec3{0, 0, -1};
    };
    // sunlight_dirt / sunlight2_dirt: 1 on, -1 off, 0 (unset) the worldspawn's _dirt.
    const int sunDirt = integer(ericwValue(w, {"sunlight_dirt"})), domeDirt = integer(ericwValue(w, {"sunlight2_dirt"}));
    auto sun = [&](float value, Vec3 color, Vec3 dir, const char* what) {
        const size_t before = out.size();
        if (value > 0) out.push_back(ericwSun(dir, value, color, g.anglescale, 0, g, std::string("worldspawn ") + what));
        else if (value < 0) note(problems, std::string("worldspawn ") + what + ": negative sunlight left out");
        dirty(out.begin() + std::ptrdiff_t(before), sunDirt, nullptr);
    };
    sun(number(ericwValue(w, {"sunlight", "sun_light"})), ericwColor(ericwValue(w, {"sunlight_color", "sun_color"})),
        mangleOf({"sunlight_mangle", "sun_mangle", "sun_angle"}), "_sunlight");
    if (number(ericwValue(w, {"sunlight_penumbra"})) > 0)
        note(problems, "worldspawn _sunlight_penumbra approximated by one sun along the main direction");
    sun(number(ericwValue(w, {"sun2"})), ericwColor(ericwValue(w, {"sun2_color"})), mangleOf({"sun2_mangle"}), "_sun2");
    const float upper = number(ericwValue(w, {"sunlight2"})), lower = number(ericwValue(w, {"sunlight3"}));
    const size_t beforeDomes = out.size();
    if (upper > 0)
        ericwDome(upper, ericwColor(ericwValue(w, {"sunlight2_color", "sunlight_color2"})), g.anglescale, 0, true, g,
                  "worldspawn _sunlight2", out);
    if (lower > 0)
        ericwDome(lower, ericwColor(ericwValue(w, {"sunlight3_color", "sunlight_color3"})), g.anglescale, 0, false, g,
                  "worldspawn _sunlight3", out);
    dirty(out.begin() + std::ptrdiff_t(beforeDomes), domeDirt, nullptr);
}

}  // namespace

EricwWorld ericwWorld(const std::vector<Entity>& ents, EricwGame game) {
    EricwWorld s;
    s.game = game;
    const bool q2 = game == EricwGame::Quake2;
    // Quake 1 and Half-Life lightmap bytes decode as byte x 264 / 256 / 255 (q1/lighting.cpp).
    const float unit = q2 ? 1.0f : 264.0f / 256.0f;
    if (!q2) s.range = 0.5f * unit, s.bounceScale = 1, s.bounceColorScale = 0, s.surflightScale = s.surflightSkyScale = 1;
    const Entity* w = ericwWorldspawn(ents);
    bool lightAsks = false;
    for (const Entity& e : ents)
        if (const std::string* c = ericwValue(e, {"classname"}); c && c->rfind("light", 0) == 0 && integer(ericwValue(e, {"dirt"})) != 0)
            lightAsks = true;
    if (!w) {
        s.occlusionInUse = lightAsks;
        return s;
    }
    auto value = [&](std::initializer_list<std::string_view> names, float fallback, float lo, float hi) {
        const std::string* v = ericwValue(*w, names);
        return v ? std::clamp(number(v), lo, hi) : fallback;
    };
    s.dirt = value({"dirt", "dirty"}, 0, -1, 1) == 1;
    s.dirtDepth = value({"dirtdepth"}, 128, 1, 1e6f);
    s.dirtScale = value({"dirtscale"}, 1, 0, 100);
    s.dirtGain = value({"dirtgain"}, 1, 0, 100);
    s.dirtAngle = value({"dirtangle"}, 88, 1, 90);
    const std::string* minDirt = ericwValue(*w, {"minlight_dirt"});
    s.minlightDirt = minDirt ? number(minDirt) == 1 : s.dirt;
    const float sunDirt = value({"sunlight_dirt"}, s.dirt ? 1 : 0, -1, 1), domeDirt = value({"sunlight2_dirt"}, s.dirt ? 1 : 0, -1, 1);
    s.occlusionInUse = s.dirt || s.minlightDirt || sunDirt != 0 || domeDirt != 0 || lightAsks;
    s.minlight = value({"minlight", "light"}, 0, -1e6f, 1e6f) * (q2 ? 128.0f : 1.0f);
    if (const std::string* c = ericwValue(*w, {"minlight_color", "mincolor"})) s.minlightColor = ericwColor(c);
    if (const std::string* b = ericwValue(*w, {"bounce"})) s.bounce = std::clamp(integer(b), 0, 100);
    s.bounceScale = value({"bouncescale"}, s.bounceScale, 0, 100);
    s.surflightScale = value({"surflightscale"}, s.surflightScale, 0, 1e6f);
    s.surflightSkyScale = value({"surflightskyscale"}, s.surflightSkyScale, 0, 1e6f);
    s.surflightAtten = value({"surflight_atten"}, 1, 0, 1e6f);
    s.surflightSubdivision = value({"surflightsubdivision", "choplight"}, 16, 1, 8192);
    s.range = value({"range"}, q2 ? 1.0f : 0.5f, 0, 100) * unit;
    s.anglescale = value({"anglescale", "anglesense"}, 0.5f, 0, 1);
    s.dist = value({"dist"}, 1, 0, 100);
    return s;
}

std::vector<Entity> withSwitchableStyles(const std::vector<Entity>& entities) {
    std::vector<Entity> out = entities;
    std::vector<std::string> names;  // LightStyleForTargetname: style 32 + the targetname's order of appearance
    for (Entity& e : out) {
        const std::string* cls = e.get("classname");
        const std::string* name = e.get("targetname");
        if (!cls || cls->rfind("light", 0) != 0 || !name || name->empty()) continue;
        size_t k = size_t(std::find(names.begin(), names.end(), *name) - names.begin());
        if (k == names.size()) names.push_back(*name);
        const std::string style = std::to_string(32 + std::min<size_t>(k, 31));
        bool set = false;
        for (auto& [key, value] : e.keys)
            if (key == "style") value = style, set = true;
        if (!set) e.keys.emplace_back("style", style);
    }
    return out;
}

std::vector<Light> ericwLights(const std::vector<Entity>& entities, EricwGame game, std::vector<std::string>* problems) {
    std::vector<Light> out;
    readEricw(entities, game, out, problems);
    return out;
}

}  // namespace luxel
