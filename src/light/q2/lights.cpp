// Quake 2 light entities read as qrad3 and as ericw-tools read them (see q2_lights.hpp for every key).
#include "luxel/light/q2_lights.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include "../entity_values.hpp"
#include "luxel/light/ericw_lights.hpp"

namespace luxel {


using namespace entity_values;

namespace {

// ---- qrad3 ----------------------------------------------------------------------------------------------

const Entity* qrad3Target(const std::vector<Entity>& ents, const std::string& target) {
    for (const Entity& e : ents) {  // FindTargetEntity: the first entity of that targetname
        const std::string* n = qrad3Value(e, "targetname");
        if (n && *n == target) return &e;
    }
    return nullptr;
}

void readQrad3(const std::vector<Entity>& ents, std::vector<Light>& out, Problems problems) {
    for (size_t i = 0; i < ents.size(); ++i) {
        const Entity& e = ents[i];
        const std::string* cls = qrad3Value(e, "classname");
        if (!cls || cls->rfind("light", 0) != 0) continue;
        Light l;
        l.origin = originOf(qrad3Value(e, "origin"));
        l.source = describe(i, *cls, l.origin);
        int style = integer(qrad3Value(e, "_style"));
        if (!style) style = integer(qrad3Value(e, "style"));
        if (style < 0 || style >= 256) style = 0;
        l.style = uint8_t(style);
        float value = number(qrad3Value(e, "light"));
        if (!value) value = number(qrad3Value(e, "_light"));
        if (!value) value = 300;
        const std::string* color = qrad3Value(e, "_color");
        if (color && color->size() > 1) {
            Vec3 c;
            parseVec3(*color, c);
            const float top = maxComponent(c);
            if (!(top > 0) || !isFinite(c)) {
                note(problems, l.source + ": _color \"" + *color + "\" lights nothing (qrad3 ColorNormalize); left out");
                continue;
            }
            l.color = c / top;
        }
        if (value <= 0) {
            note(problems, l.source + ": light " + num(value) + " lights nothing in qrad3 ((light - d) <= 0); left out");
            continue;
        }
        l.falloff = Light::Falloff::Linear;
        l.intensity = value / 255.0f;
        l.range = value;
        l.envelope = value;
        const std::string* target = qrad3Value(e, "target");
        const bool hasTarget = target && !target->empty();
        if (*cls == "light_spot" || hasTarget) {
            l.kind = Light::Kind::Spot;
            float cone = number(qrad3Value(e, "_cone"));
            if (!cone) cone = 10;
            l.spotCosOuter = l.spotCosInner = std::cos(degToRad(cone));
            if (hasTarget) {
                const Entity* t = qrad3Target(ents, *target);
                if (t) {
                    l.direction = normalize(originOf(qrad3Value(*t, "origin")) - l.origin);
                } else {
                    // qrad3 keeps the spotlight with no direction: its cone test then fails everywhere.
                    l.direction = {};
                    note(problems, l.source + ": target \"" + *target + "\" not found; it lights nothing (qrad3)");
                }
            } else {
                const float angle = number(qrad3Value(e, "angle"));
                if (angle == -1) l.direction = {0, 0, 1};
                else if (angle == -2) l.direction = {0, 0, -1};
                else l.direction = {std::cos(degToRad(angle)), std::sin(degToRad(angle)), 0};
            }
        }
        out.push_back(std::move(l));
    }
}

}  // namespace

Q2LightCompiler quake2CompilerOf(const std::vector<Entity>& entities, std::string* why) {
    // Without their leading underscore, as ericw-tools matches keys.
    static const char* const kWorldKeys[] = {"dirt", "dirtmode", "dirtdepth", "dirtscale", "dirtgain", "sunlight",
                                             "sunlight2", "sunlight3", "sun_mangle", "sunlight_mangle", "sun2",
                                             "anglescale", "anglesense", "dist", "range", "minlight", "bounce",
                                             "bouncescale", "gamma", "lightmap_scale"};
    static const char* const kLightKeys[] = {"delay", "falloff", "mangle", "sun", "softangle", "deviance", "samples",
                                             "dirt", "anglescale", "anglesense", "nostaticlight", "sunlight2",
                                             "sunlight3", "bleed", "surface"};
    auto has = [](const Entity& e, const auto& keys) -> const char* {
        for (const auto& [k, v] : e.keys) {
            const std::string bare = !k.empty() && k[0] == '_' ? k.substr(1) : k;
            for (const char* key : keys)
                if (bare == key) return key;
        }
        return nullptr;
    };
    for (size_t i = 0; i < entities.size(); ++i) {
        const std::string* cls = entities[i].get("classname");
        const bool world = cls && *cls == "worldspawn", light = cls && cls->rfind("light", 0) == 0;
        if (!world && !light) continue;
        if (const char* key = world ? has(entities[i], kWorldKeys) : has(entities[i], kLightKeys)) {
            if (why) *why = std::string(world ? "worldspawn" : "a light entity") + " has the key " + key +
                            ", which only ericw-tools reads";
            return Q2LightCompiler::Ericw;
        }
    }
    if (why) *why = "no entity has a key only ericw-tools reads";
    return Q2LightCompiler::Qrad3;
}

std::vector<Light> quake2Lights(const std::vector<Entity>& entities, Q2LightCompiler compiler,
                                std::vector<std::string>* problems) {
    std::vector<Light> out;
    if (compiler == Q2LightCompiler::Qrad3) readQrad3(entities, out, problems);
    else out = ericwLights(entities, EricwGame::Quake2, problems);
    return out;
}

}  // namespace luxel
