#pragma once
// A map's lights in one neutral model. Decoders emit these (Quake 3: light entities of the map or its .map
// source, sky shaders' suns and sky light, shaders' surface lights; Source: the worldlights lumps; Quake 2:
// light entities); the baker evaluates them without knowing the format, through each format's arrival function
// (light/light_arrival.hpp for Quake 3, light/source_lights.hpp, light/q2_lights.hpp). Light values are in the
// format's light units as luxel decodes stored light: linear, 1 = what a stored lightmap texel of full white
// means (Quake 3: 4 * byte / 255 after the overbright shift, so q3map2's 0..255 light of value v is 4 v / 255;
// Source: the worldlight intensity exactly as vrad stores it; Quake 2: the compiler's 0..255 value / 255).
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "luxel/util/math.hpp"

namespace luxel {

struct Light {
    // Point: from `origin` in every direction. Spot: a point light limited to a cone about `direction`.
    // Sun: parallel light travelling along `direction` from infinitely far (sky shaders' suns, q3map2's sky
    // light as many suns); a shadow ray towards a sun must end on a sky surface to count (q3map2 does so).
    // Area: an emitting polygon `polygon` facing `normal`, of `area` square units, `origin` its centre (the
    // point shadow rays aim at; q3map2 puts it 1 unit in front of the polygon) (Quake 3 surface lights,
    // subdivided as q3map2 subdivides them; Source's emit_surface patches, without a polygon).
    // Sky: light from the whole sky: every direction whose ray reaches the sky brings light, weighted by the
    // receiver's cosine and normalised so an open hemisphere over a surface gives intensity x colour
    // (Source's emit_skyambient). It has no single direction: bake it as the suns of light/sky_dome.hpp.
    enum class Kind : uint8_t { Point, Spot, Sun, Area, Sky };
    Kind kind = Kind::Point;
    Vec3 origin;
    Vec3 direction{0, 0, -1};  // Spot: the cone's axis, away from the light; Sun: the way the light travels
    Vec3 normal{0, 0, 1};      // Area: the side that emits
    Vec3 color{1, 1, 1};       // colour (q3map2: _color normalised so its largest component is 1)
    // The strength after the format's scales. Point, Spot (inverse square): light at distance 1 facing it
    // (q3map2: photons, so I / d^2); Linear falloff: the value at distance 0; Sun: light on a surface facing
    // it; Area: light on a point whose hemisphere the polygon fills entirely (form factor 1; q3map2's `add`).
    // Negative: the light takes away light (q3map2 negative `light` values).
    float intensity = 0;
    float area = 0;                // Area: square units (0: intensity already covers the patch, as Source's)
    std::vector<Vec3> polygon;     // Area: the emitting polygon, clockwise seen from the lit side (Quake's order)
    bool twoSided = false;         // Area: emits from both sides (q3map2: fog or cull none shaders)
    // How light falls off with distance d (q3map2: inverse square by default, linear with spawnflags 1;
    // Source: 1 / (constant + linear d + quadratic d^2); Quake 2: linear; ericw-tools' "delay" picks one of
    // Linear, Inverse, InverseSquare, None). Each format's arrival function says exactly how it evaluates
    // them; Quake 3's (light_arrival.hpp): InverseSquare: intensity / d^2; Linear: max(0, intensity * angle -
    // linear * d) (q3map2: photons / 8000 - fade * d); None: intensity; Quadratic: intensity / (constant +
    // linear d + quadratic d^2).
    enum class Falloff : uint8_t { InverseSquare, Linear, None, Quadratic, Inverse } falloff = Falloff::InverseSquare;
    float constant = 0, linear = 0, quadratic = 1;  // Falloff terms (Quake 3's Linear uses `linear`)
    // Quake 2 and Source quake lights, Falloff::Linear: intensity x (1 - d / range), nothing past `range`.
    float range = 0;
    // Falloff::InverseSquare (Quake 2 / ericw): intensity / (d + squareOffset)^2 (delay 5 moves the pole back
    // by 128 units; 0 elsewhere).
    float squareOffset = 0;
    // Falloff::Quadratic is evaluated at min(d, falloffCap) (vrad: where a falloff fitted to
    // _fifty_percent_distance would start rising again).
    float falloffCap = std::numeric_limits<float>::infinity();
    // A smooth fade to 0 from fadeStart to fadeEnd (vrad's quintic fade of _hardfalloff lights and of the
    // capped falloffs above); none unless fadeEnd > fadeStart.
    float fadeStart = 0, fadeEnd = 0;
    // The distance the falloff sees (Quake 3): max(minDistance, sqrt(d^2 + extraDistance^2)) (q3map2: 16
    // against hot spots, `_extradist`).
    float minDistance = 0, extraDistance = 0;
    bool angleAttenuation = true;  // times the receiver's cos(incidence) (q3map2: off with spawnflags 2)
    // ericw-tools' FixLightsOnFaces (light entities without _nonudge): an origin in the world's solid (a light
    // placed on a face) moves 2 units along the first of -x, +x, -y, +y, -z, +z that leaves it.
    bool nudgeOutOfSolid = false;
    float angleScale = 0;          // Quake 3, > 0: cos(incidence) / angleScale, at most 1 (q3map2 `_anglescale`)
    // Quake 2 (ericw-tools' _anglescale, 0.5 by default; 1 elsewhere): the light is multiplied by
    // (1 - angleMix) + angleMix cos(incidence) where angleAttenuation holds.
    float angleMix = 1;
    // Quake 2 Area lights (ericw-tools' surface lights and bounce lights: a point `origin` standing for a face
    // facing `normal`): the emitter's cosine e counted as (1 - emitterAngleMix) + emitterAngleMix e, nothing
    // when e or the receiver's cosine is below -0.01; `twoSided` (a sky face): no emitter term at all. The
    // distance is at least minDistance (ericw-tools' hot-spot clamp: 16 for surface lights, 128 for bounce).
    float emitterAngleMix = 1;
    // Such a light is one-sided both ways (set with the above; not for twoSided): the baker may skip receivers
    // whose whole box lies where the emitter's or the receiver plane's cosine is below -0.01.
    bool cosineCulled = false;
    // Ambient occlusion (ericw-tools' dirt): with occlusion o at the luxel (0 open .. 1 enclosed) the light is
    // multiplied by 1 - min(1, min(1, o^occlusionGain) x occlusionScale); occlusionScale 0: never dimmed.
    float occlusionScale = 0, occlusionGain = 1;
    float spotCosOuter = -1, spotCosInner = -1, spotExponent = 0;  // Spot: cone (cosines of the half angles)
    // Spot, q3map2's cone instead of the cosines when > 0: at distance t along the axis the cone's radius is
    // t * spotRadiusPerDistance; light fades linearly to 0 over the last spotEdge units of that radius.
    float spotRadiusPerDistance = 0, spotEdge = 0;
    // A contribution at or below this (before colour) is dropped (q3map2 -fast: falloffTolerance).
    float cutoff = 0;
    float envelope = std::numeric_limits<float>::infinity();  // beyond this distance the light adds nothing
    // Receivers outside this box get nothing (ericw-tools' "estimated visible bounds" of a bounce light: where
    // probe rays from it end). Unbounded by default.
    Vec3 reachMins{-std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                   -std::numeric_limits<float>::infinity()};
    Vec3 reachMaxs{std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity(),
                   std::numeric_limits<float>::infinity()};
    bool lightsSurfaces = true, lightsGrid = true;             // q3map2: lightJunior and spawnflags 16
    // The cut-off distance the format stores for the game's run-time lighting (Source's dworldlight_t radius,
    // used by the engine's light cache; vrad's lightmaps ignore it, its ambient cubes cut surface lights
    // there). 0: none.
    float radius = 0;
    // The compiler put this light's direct light into the map's probes itself (Source: the dim surface lights
    // flagged DWL_FLAGS_INAMBIENTCUBE and the sky ambient light, which vrad adds to the leaf ambient cubes;
    // its other lights reach the cubes only as light bounced off lit surfaces).
    bool inProbes = false;
    uint32_t nativeFlags = 0;  // the format's own flag bits, as stored (Source: dworldlight_t flags)
    uint8_t style = 0;         // the lightmap style it lights (0: the main one)
    std::string source;        // where it came from, for messages ("light at 2 -283 326")
};

// Light from one light at a point with unit normal `normal`, occlusion left out: the colour it adds (0 when
// it adds nothing; negative for a negative light), the unit direction towards the light and how far the
// light is along it (infinity for suns): where a shadow ray must reach unblocked for the light to count.
struct LightArrival {
    Vec3 color;
    Vec3 toLight;
    float distance = 0;
    bool reaches() const { return color.x != 0 || color.y != 0 || color.z != 0; }
};

// How a format's lights arrive at points with unit normals (a zero normal: a grid point, no receiver angle):
// out[i] for points[i] and normals[i], i < count. A batch, so that the baker's inner loop makes one call per
// light and group of luxels and the format's formula is inlined into its own loop (arrivalsOf).
using ArrivalFn = void (*)(const Light& light, const Vec3* points, const Vec3* normals, size_t count, LightArrival* out);

// The batch of a format's one-point formula `One`. Instantiate it in the file that defines `One`, so it inlines.
template <LightArrival (*One)(const Light&, Vec3, Vec3)>
[[gnu::flatten]] void arrivalsOf(const Light& light, const Vec3* points, const Vec3* normals, size_t count, LightArrival* out) {
    for (size_t i = 0; i < count; ++i) out[i] = One(light, points[i], normals[i]);
}

// One point's arrival through a batch.
inline LightArrival arrivalAt(ArrivalFn arrivals, const Light& light, Vec3 point, Vec3 normal) {
    LightArrival a;
    arrivals(light, &point, &normal, 1, &a);
    return a;
}

}  // namespace luxel
