#pragma once
// Shared by the Quake 3 light tests (lights_test.cpp, lights_sources_test.cpp): q3map2's light unit, the
// lights of a .map text, a one-polygon world and a surface-light shader.
#include <string>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/light/q3_lights.hpp"
#include "luxel/material/q3_light_shaders.hpp"

namespace luxel::test {

constexpr float kQ3LightUnit = 4.0f / 255.0f;  // q3map2 value -> luxel light units
inline const Vec3 kUp{0, 0, 1};

// The lights of a .map source's entities (no world, no shaders).
Quake3LightSet lightsOfMap(const std::string& mapText);
// A world of one surface: the polygon `corners` (a fan) facing `normal`, of material 0 "textures/test/glow".
World polygonWorld(const std::vector<Vec3>& corners, Vec3 normal);
// A shader with q3map_surfacelight `value` (and q3map_lightSubdivide `subdivide` when not 0).
Q3LightShader glowShader(float value, int subdivide = 0);

}  // namespace luxel::test
