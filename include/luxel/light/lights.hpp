#pragma once
// A map's lights in one neutral model. Decoders emit these (Quake 3: light entities of the map or its .map
// source, sky shaders' suns and sky light, shaders' surface lights; Source: the worldlights lumps; Quake 2:
// light entities); the baker evaluates them without knowing the format (light/light_arrival.hpp). Light
// values are in the format's light units as luxel decodes stored light: linear, 1 = what a stored lightmap
// texel of full white means (Quake 3: 4 * byte / 255 after the overbright shift, so q3map2's 0..255 light of
// value v is 4 v / 255).
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
    // subdivided as q3map2 subdivides them).
    enum class Kind : uint8_t { Point, Spot, Sun, Area };
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
    float area = 0;                // Area: square units
    std::vector<Vec3> polygon;     // Area: the emitting polygon, clockwise seen from the lit side (Quake's order)
    bool twoSided = false;         // Area: emits from both sides (q3map2: fog or cull none shaders)
    // How light falls off with distance d (q3map2: inverse square by default, linear with spawnflags 1;
    // Source: 1 / (constant + linear d + quadratic d^2)).
    //  InverseSquare: intensity / d^2; Linear: max(0, intensity * angle - linear * d) (q3map2: photons /
    //  8000 - fade * d); None: intensity; Quadratic: intensity / (constant + linear d + quadratic d^2).
    enum class Falloff : uint8_t { InverseSquare, Linear, None, Quadratic } falloff = Falloff::InverseSquare;
    float constant = 0, linear = 0, quadratic = 1;  // Falloff terms (Linear uses `linear`)
    // The distance the falloff sees: max(minDistance, sqrt(d^2 + extraDistance^2)) (q3map2: 16 against hot
    // spots, `_extradist`).
    float minDistance = 0, extraDistance = 0;
    bool angleAttenuation = true;  // times the receiver's cos(incidence) (q3map2: off with spawnflags 2)
    float angleScale = 0;          // > 0: cos(incidence) / angleScale, at most 1 (q3map2 `_anglescale`)
    float spotCosOuter = -1, spotCosInner = -1, spotExponent = 0;  // Spot: cone (cosines of the half angles)
    // Spot, q3map2's cone instead of the cosines when > 0: at distance t along the axis the cone's radius is
    // t * spotRadiusPerDistance; light fades linearly to 0 over the last spotEdge units of that radius.
    float spotRadiusPerDistance = 0, spotEdge = 0;
    // A contribution at or below this (before colour) is dropped (q3map2 -fast: falloffTolerance).
    float cutoff = 0;
    float envelope = std::numeric_limits<float>::infinity();  // beyond this distance the light adds nothing
    bool lightsSurfaces = true, lightsGrid = true;             // q3map2: lightJunior and spawnflags 16
    uint8_t style = 0;                                         // the lightmap style it lights (0: the main one)
    std::string source;                                        // where it came from, for messages ("light at 2 -283 326")
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

}  // namespace luxel
