// Light entities (q3map2 light.cpp CreateEntityLights), worldspawn's ambient and floors (LightWorld) and the
// light placement of SetupEnvelopes.
#include <algorithm>
#include <cmath>

#include "light_parts.hpp"
#include "luxel/util/text.hpp"

namespace luxel::q3light {

namespace {

// "light at 2 -283 326" (whole units, as q3map2 prints them; far or broken coordinates as they are).
std::string describe(const char* what, Vec3 o) {
    auto num = [](float v) { return std::fabs(v) < 1e9f ? std::to_string(long(v)) : std::to_string(v); };
    return std::string(what) + " at " + num(o.x) + " " + num(o.y) + " " + num(o.z);
}

// SetupEnvelopes for a point or spot light (its q3map2 flags always hold LIGHT_FAST): the distance where the
// light falls to the falloff tolerance: linear: (photons * linearScale - tolerance) / fade; inverse square:
// sqrt(photons / tolerance).
float pointEnvelope(const Light& l, float photons, float tolerance, float fade, const Quake3LightSettings& s) {
    float e = l.falloff == Light::Falloff::Linear ? (photons * s.linearScale - tolerance) / fade
                                                   : std::sqrt(photons / tolerance);
    return std::isfinite(e) ? e : 0.0f;
}

}  // namespace

void readWorldspawn(const Entity* w, Quake3LightSet& set) {
    set.maxLight = 255 * kValueToLuxel;
    if (!w) return;
    Vec3 color = vectorKey(*w, "_color");
    if (length(color) == 0 || !isFinite(color)) color = {1, 1, 1};
    const auto scaled = [&](float f) { return color * (f * kValueToLuxel); };
    // _ambient, else ambient (floatForKey takes the first key present).
    const std::string* a = keyValue(*w, "_ambient");
    if (!a) a = keyValue(*w, "ambient");
    set.ambient = scaled(a ? float(std::atof(a->c_str())) : 0.0f);
    const std::string* minVertex = keyValue(*w, "_minvertexlight");
    const std::string* minGrid = keyValue(*w, "_mingridlight");
    if (minVertex) set.minVertexLight = scaled(float(std::atof(minVertex->c_str())));
    if (minGrid) set.minGridLight = scaled(float(std::atof(minGrid->c_str())));
    if (const std::string* m = keyValue(*w, "_minlight")) {
        const float f = float(std::atof(m->c_str()));
        set.minLight = scaled(f);
        if (!minVertex) set.minVertexLight = scaled(f);
        if (!minGrid) set.minGridLight = scaled(f);
    }
    if (const std::string* m = keyValue(*w, "_maxlight")) {
        const float f = float(std::atof(m->c_str()));
        set.maxLight = std::clamp(std::isnan(f) ? 255.0f : f, 0.0f, 255.0f) * kValueToLuxel;
    }
}

void addEntityLights(const std::vector<const Entity*>& entities, const Quake3LightSettings& s, Jitter& jitter,
                     Quake3LightSet& set, Notes& notes) {
    for (const Entity* ep : entities) {
        const Entity& e = *ep;
        const std::string classname = classnameOf(e);
        // "ydnar: check for lightJunior": lights the grid only; any other class starting with "light" is a light.
        const bool junior = equalsIgnoreCase(classname, "lightJunior");
        if (!junior && !startsWithIgnoreCase(classname, "light")) continue;
        if (set.lights.size() >= s.maxLights) {
            notes.add("more than " + std::to_string(s.maxLights) + " lights: the rest left out");
            return;
        }

        Light light;
        const int spawnflags = intKey(e, "spawnflags");
        // Quake 3 light model (not wolf): inverse square with angle attenuation; 1 linear without angle; 2 no
        // angle; 16 no grid; 32 colour not normalised. 4 / 8 (wolf "dark") change nothing q3map2 computes.
        light.falloff = (spawnflags & 1) ? Light::Falloff::Linear : Light::Falloff::InverseSquare;
        light.angleAttenuation = !(spawnflags & 3);
        light.lightsGrid = !(spawnflags & 16) || junior;
        light.lightsSurfaces = !junior;
        float fade = 1;
        if (spawnflags & 1) {
            fade = floatKey(e, "fade");
            if (fade == 0 || !std::isfinite(fade)) fade = 1;
        }
        light.angleScale = floatKey(e, "_anglescale");
        if (!std::isfinite(light.angleScale)) light.angleScale = 0;
        if (light.angleScale != 0) light.angleAttenuation = true;
        light.origin = vectorKey(e, "origin");
        if (!isFinite(light.origin)) {
            notes.add("a light with an unusable origin is left out");
            continue;
        }
        int style = keyValue(e, "_style") ? intKey(e, "_style") : intKey(e, "style");
        if (style < 0 || style > 254) {  // q3map2 stops with "Invalid lightstyle"
            notes.add("light style " + std::to_string(style) + " is invalid: lit as style 0");
            style = 0;
        }
        light.style = uint8_t(style);

        // Intensity: _light, else light, 300 when 0 or missing; times `scale` when non-zero.
        const std::string* iv = keyValue(e, "_light");
        if (!iv) iv = keyValue(e, "light");
        float intensity = iv ? float(std::atof(iv->c_str())) : 300.0f;
        if (intensity == 0) intensity = 300;
        if (const float scale = floatKey(e, "scale"); scale != 0) intensity *= scale;
        if (!std::isfinite(intensity)) {
            notes.add("a light with an unusable intensity is left out");
            continue;
        }
        // _deviance (or _deviation, _jitter) and _samples: the light split into copies jittered in a cube.
        const std::string* dv = keyValue(e, "_deviance");
        if (!dv) dv = keyValue(e, "_deviation");
        if (!dv) dv = keyValue(e, "_jitter");
        float deviance = dv ? std::max(0.0f, float(std::atof(dv->c_str()))) : 0.0f;
        if (!std::isfinite(deviance)) deviance = 0;
        int samples = std::max(1, intKey(e, "_samples"));
        if (samples > s.maxSamples) {
            notes.add("_samples above " + std::to_string(s.maxSamples) + " lowered to it");
            samples = s.maxSamples;
        }
        intensity /= float(samples);
        if (keyValue(e, "_filterradius") || keyValue(e, "_filteradius") || keyValue(e, "_filter"))
            notes.add("_filterradius (soft shadows) is not modelled");

        if (keyValue(e, "_color")) {
            light.color = vectorKey(e, "_color");
            if (!(spawnflags & 32)) light.color = colorNormalize(light.color);
            if (!isFinite(light.color)) light.color = {1, 1, 1};
        }
        light.extraDistance = floatKey(e, "_extradist");
        if (!std::isfinite(light.extraDistance)) light.extraDistance = 0;
        light.minDistance = 16;
        const float tolerance = s.falloffTolerance / float(samples);

        float photons = intensity;
        light.kind = Light::Kind::Point;
        const std::string* target = keyValue(e, "target");
        if (target && !target->empty()) {
            const Entity* t = nullptr;  // FindTargetEntity: the first entity with that targetname
            for (const Entity* o : entities)
                if (const std::string* n = keyValue(*o, "targetname"); n && *n == *target) {
                    t = o;
                    break;
                }
            if (!t) {
                notes.add(describe("light", light.origin) + " has a missing target: a point light");
                photons *= s.pointScale;
            } else {
                Vec3 axis = vectorKey(*t, "origin") - light.origin;
                float dist = length(axis);
                axis = dist > 0 ? axis / dist : Vec3{};
                float radius = floatKey(e, "radius");
                if (radius == 0) radius = 64;
                if (dist == 0) dist = 64;
                if (boolKey(e, "_sun")) {  // a sun along the light -> target line
                    Q3Shader::Sun sun;
                    sun.color = light.color;
                    sun.intensity = intensity;  // CreateSunLight divides by the samples once more
                    sun.samples = samples;
                    sun.deviance = deviance;
                    const Vec3 toSun = -axis;
                    sun.elevation = float(std::atan2(double(toSun.z), std::hypot(double(toSun.x), double(toSun.y))) * 180.0 / 3.14159265358979323846);
                    sun.degrees = float(std::atan2(double(toSun.y), double(toSun.x)) * 180.0 / 3.14159265358979323846);
                    for (Light& l : quake3Suns(sun, light.style, s)) {
                        l.source = describe("_sun light", light.origin);
                        set.lights.push_back(std::move(l));
                        ++set.sunLights;
                    }
                    continue;
                }
                // A spot: always inverse square with angle attenuation (wolf mods).
                light.kind = Light::Kind::Spot;
                light.direction = axis;
                light.spotRadiusPerDistance = (radius + 16) / dist;
                light.spotEdge = 32;
                light.spotCosOuter = std::cos(std::atan(light.spotRadiusPerDistance));
                light.falloff = Light::Falloff::InverseSquare;
                light.angleAttenuation = true;
                fade = 1;
                photons *= s.spotScale;
            }
        } else {
            photons *= s.pointScale;
        }

        // SetupEnvelopes: a negative light is made positive and flagged (it subtracts).
        const float strength = std::fabs(photons);
        light.envelope = pointEnvelope(light, strength, tolerance, fade, s);
        light.cutoff = tolerance * kValueToLuxel;
        if (light.falloff == Light::Falloff::Linear) {
            light.intensity = photons * s.linearScale * kValueToLuxel;
            light.linear = fade * kValueToLuxel;
        } else {
            light.intensity = photons * kValueToLuxel;
        }
        light.source = describe(light.kind == Light::Kind::Spot ? "spotlight" : "light", light.origin);
        size_t& count = light.kind == Light::Kind::Spot ? set.spotLights : set.pointLights;
        // The copies of a jittered light: the first at the origin, the others moved by up to deviance per axis.
        const Vec3 origin = light.origin;
        for (int j = 0; j < samples; ++j) {
            Light copy = light;
            if (j > 0) {
                copy.origin.x = origin.x + (jitter.next() * 2 - 1) * deviance;
                copy.origin.y = origin.y + (jitter.next() * 2 - 1) * deviance;
                copy.origin.z = origin.z + (jitter.next() * 2 - 1) * deviance;
            }
            set.lights.push_back(std::move(copy));
            ++count;
        }
        if (samples > 1 && deviance > 0) notes.add("jittered light copies (_samples) use luxel's own random sequence");
    }
}

}  // namespace luxel::q3light

namespace luxel {

std::optional<Vec3> quake3LightPlacement(Vec3 origin, const std::function<int32_t(Vec3)>& clusterAt) {
    if (!isFinite(origin)) return std::nullopt;
    if (clusterAt(origin) >= 0) return origin;
    // "nudge the sample point around a bit": x, y, z over 0, 0, 1, -1 (two's complement walk) times 2 units,
    // each from the origin as moved so far (a free nudge moves it); the last nudge tried decides the cluster.
    static constexpr float kSteps[4] = {0, 0, 2, -2};
    Vec3 placed = origin;
    int32_t cluster = -1;
    for (float x : kSteps)
        for (float y : kSteps)
            for (float z : kSteps) {
                const Vec3 p = placed + Vec3{x, y, z};
                cluster = clusterAt(p);
                if (cluster >= 0) placed = p;
            }
    if (cluster < 0) return std::nullopt;
    return placed;
}

}  // namespace luxel
