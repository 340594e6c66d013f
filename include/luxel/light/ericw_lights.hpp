#pragma once
// ericw-tools' light entities and worldspawn settings, for each game it lights: Quake 1 and Half-Life
// (-hlbsp) share its Quake defaults, Quake 2 has its own ("from game target"). The keys and formulas are
// described at quake2Lights (q2_lights.hpp); the games differ in:
//  * rangescale (_range): 0.5 for Quake 1 and Half-Life, 1 for Quake 2;
//  * _minlight: in 0..255 units for Quake 1 / Half-Life, a 0..1 fraction times 128 for Quake 2;
//  * a spotlight without _cone or angle: 40 degrees wide in Quake 1 / Half-Life (spotangle), 20 in Quake 2;
//  * the units luxel decodes their lightmap bytes in: Quake 2 byte / 255; Quake 1 and Half-Life byte x
//    264 / 256 / 255 (q1/lighting.cpp), so their lights carry that factor too (EricwWorld::range).
#include <optional>
#include <string>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/light/lights.hpp"

namespace luxel {

enum class EricwGame : uint8_t { Quake1, Quake2, HalfLife };

// ericw-tools' worldspawn settings beyond the lights themselves, with its Quake 2 defaults ("from game target"),
// keys with or without their leading underscore. Light values in its 0..255 units.
struct EricwWorld {
    // _dirt: ambient occlusion; on also when a light asks for it (_dirt on any light) or minlight_dirt /
    // sunlight_dirt / sunlight2_dirt are given. _dirt 1 turns the three on unless they are set.
    bool dirt = false, occlusionInUse = false;
    float dirtDepth = 128, dirtScale = 1, dirtGain = 1, dirtAngle = 88;  // _dirtdepth, _dirtscale, _dirtgain, _dirtangle
    bool minlightDirt = false;                                           // _minlight_dirt
    // _minlight times 128 (ericw-tools' Quake 2 scale of the 0..1 value), _minlight_color (0..255).
    float minlight = 0;
    Vec3 minlightColor{255, 255, 255};
    std::optional<int> bounce;         // _bounce (unset: the game's default, 1)
    float bounceScale = 0.85f;          // _bouncescale
    // _bouncecolorscale is read only from the command line by ericw-tools 2.0.0-alpha9 (its texture colours
    // are cached before the worldspawn is read; fixed in alpha11): 0.5 for Quake 2 whatever the map says.
    float bounceColorScale = 0.5f;
    float surflightScale = 0.65f, surflightSkyScale = 0.65f;  // _surflightscale, _surflightskyscale
    float surflightAtten = 1;                                 // _surflight_atten
    float surflightSubdivision = 16;  // _surflightsubdivision / _choplight (dicing under -emissivequality high)
    EricwGame game = EricwGame::Quake2;
    // _range (rangescale: 1 for Quake 2, 0.5 for Quake 1 and Half-Life) times the game's decoding factor
    // (1 for Quake 2, 264 / 256 for Quake 1 and Half-Life): the light's value to luxel units x 255.
    float range = 1;
    float anglescale = 0.5f;                                  // _anglescale / _anglesense: (1 - s) + s cos
    float dist = 1;                                           // _dist (scaledist)
};

EricwWorld ericwWorld(const std::vector<Entity>& entities, EricwGame game = EricwGame::Quake2);

// The entities with ericw-tools' switchable styles written in (entities.cc LightStyleForTargetname): every
// light entity with a targetname gets "style" 32 + the order in which its targetname first appears among
// the light entities (lights sharing a targetname share the style), as light writes into the map.
std::vector<Entity> withSwitchableStyles(const std::vector<Entity>& entities);

// The lights of a map's entities as ericw-tools reads them for `game` (quake2Lights' Ericw reading), in
// entity order, the worldspawn's suns and domes last; what was left out or approximated is appended to
// `problems` when given, one line each.
std::vector<Light> ericwLights(const std::vector<Entity>& entities, EricwGame game,
                               std::vector<std::string>* problems = nullptr);

}  // namespace luxel
