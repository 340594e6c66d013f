#pragma once
// Quake 2's lights: the map's light entities read the way a light compiler reads them, and their arrival at a
// point the way that compiler computes direct light. Two compilers, whose readings of the same keys differ:
//
//  * Qrad3 (id's qrad3, lightmap.c CreateDirectLights / GatherSampleLight; q2tools' 4rad descends from it):
//    every entity whose classname starts with "light"; "light", else "_light", else 300; "_color" scaled so
//    its largest component is 1 (ColorNormalize); "_style", else "style" (outside 0..255: 0); a spotlight
//    when the classname is light_spot or it has a "target": towards the target's origin, else along "angle"
//    (yaw; -1 up, -2 down), with a hard cone of half angle "_cone" (10 degrees when 0). Value (light - d) x
//    cos, nothing when that is <= 0.
//  * Ericw (ericw-tools light, Quake 2 mode: entities.cc, ltface.cc GetLightValue / GetLightValueWithAngle,
//    LightFace_Sky): keys with or without their leading underscore, the last one given wins; "light" 300 when
//    absent; "_color" in 0..255 (all components <= 1: times 255); "delay" picks the falloff (0 linear
//    light - wait d, or light (1 - d / _falloff); 1 light 128 / (wait d); 2 light 128^2 / (wait d)^2; 3 none;
//    5 light 128^2 / (wait d + 128)^2; 4, local minlight, raises light to a floor instead of adding: left
//    out); d scaled by worldspawn "_dist"; the receiver's cosine counted by "_anglescale" (light, else
//    worldspawn, else 0.5): (1 - s) + s cos; a spotlight when it has "mangle" or a "target" found, cone
//    diameter 2 "_cone", else "angle", else 20 degrees, soft inner cone "_softangle"; "_sun" 1 lights turn
//    into suns (towards the target, else along mangle, else towards 0 0 0); worldspawn "_sunlight" (with
//    "_sunlight_color", "_sunlight_mangle" / "_sun_mangle", default straight down), "_sun2", and the domes
//    "_sunlight2" / "_sunlight3" (ericw-tools' 65 suns for its default -sunsamples 64), and per-light
//    "_sunlight2" / "_sunlight3" domes. Output times worldspawn "_range" (1 for Quake 2).
//
// Units: both compilers store their 0..255 value as the lightmap byte (qrad3 and ericw-tools' Quake 2 mode
// both scale by 1), which luxel decodes as byte / 255 (q2/lighting.cpp), so a Light's intensity is the
// compiler's value / 255 (per falloff below) and its colour is scaled so its largest component is 1.
//
// Approximated or left out, with a problems line where it happens: negative lights (antilights), ericw-tools'
// local minlight (delay 4), sun penumbra (one sun); _deviance makes _samples copies (ericw_lights.cpp). Not
// lights of entities, so not here: textures' surface lights, bounce, minlight, dirt, projected textures. The
// compilers' clamps of the summed light (qrad3: maxlight 196, hue kept) belong to whoever sums the arrivals.
#include <optional>
#include <string>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/light/ericw_lights.hpp"
#include "luxel/light/lights.hpp"

namespace luxel {

enum class Q2LightCompiler : uint8_t { Qrad3, Ericw };

// The lights of a Quake 2 map's entities as `compiler` reads them, in entity order (suns and domes of
// worldspawn keys last). Lights the compiler would not add (value <= 0, local minlight, _nostaticlight) are
// left out; what was left out or approximated is appended to `problems` when given, one line each.
//  Qrad3: Point / Spot, Falloff::Linear, intensity light / 255, range light, spot cones both cos(_cone),
//  angleMix 1.
//  Ericw: linear: intensity light / 255 and range light / (dist x wait), or range _falloff; inverse:
//  intensity light 128 / (dist wait 255); inverse square: light 128^2 / ((dist wait)^2 255), delay 5 with
//  squareOffset 128 / (dist wait); none: light / 255; all times _range and the colour's largest component
//  / 255; spot cones cos(diameter / 2) outside and cos(soft diameter / 2) inside; angleMix as read.
std::vector<Light> quake2Lights(const std::vector<Entity>& entities, Q2LightCompiler compiler,
                                std::vector<std::string>* problems = nullptr);

// Which compiler a map's light entities were written for, as far as the entities tell: a compiled Quake 2
// map carries no mark of the light tool that lit it (neither qrad3 nor ericw-tools writes a worldspawn key,
// and ericw-tools adds BSPX lumps after the header's lumps only for options such as -lmscale), so this looks
// for keys only ericw-tools reads: on worldspawn (_dirt, _sunlight*, _sun_mangle, _anglescale, _dist,
// _range, _minlight, _bounce, ...) or on light entities (delay, _falloff, mangle, _sun, _softangle,
// _deviance, _dirt, ...). Ericw when one is found (`why` names it), else Qrad3.
Q2LightCompiler quake2CompilerOf(const std::vector<Entity>& entities, std::string* why = nullptr);

// Direct light from one light read by quake2Lights at `point` on a surface with unit `normal` (zero: no
// receiver angle), occlusion left out. With d the distance (at least 0.1, as ericw-tools' GetLightContrib),
// L = toLight, c = n . L (nothing when c < 0; qrad3's cut is c <= 0.001) and the angle factor
// a = (1 - angleMix) + angleMix c:
//  * Point / Spot: intensity x colour x a x falloff(d): Linear 1 - d / range (nothing past range), Inverse
//    1 / d, InverseSquare 1 / (d + squareOffset)^2, None 1; a Spot also times its cone: nothing where the
//    cone cosine k = -L . direction is below spotCosOuter, 1 from spotCosInner on, linear between
//    (GetLightValueWithAngle's spotscale; qrad3's cones are hard, inner = outer).
//  * Sun (LightFace_Sky): intensity x colour x ((1 - angleScale) + angleScale max(0, -n . direction)), also
//    where the receiver faces away: ericw-tools culls by the face's plane, not the sample's normal, so the
//    baker does (DirectBakeRules::sunFaceCull).
LightArrival quake2LightArrival(const Light& light, Vec3 point, Vec3 normal);
// The same over a batch of points (ArrivalFn).
void quake2LightArrivals(const Light& light, const Vec3* points, const Vec3* normals, size_t count, LightArrival* out);

}  // namespace luxel
