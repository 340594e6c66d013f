#pragma once
// The output transform from linear light to display values (the "engine look").
#include <algorithm>
#include <cmath>

#include "luxel/bsp/world.hpp"

namespace luxel {

// Light above `at`: scaled down as a whole (hue kept), as Quake 3's R_ColorShiftLightingBytes does, or with
// perChannel each channel clamped on its own (Half-Life). `at` 0: no clamp.
inline Vec3 clampLight(Vec3 light, float at, bool perChannel) {
    if (!(at > 0)) return light;
    if (perChannel) return {std::min(light.x, at), std::min(light.y, at), std::min(light.z, at)};
    const float m = std::max(light.x, std::max(light.y, light.z));
    return m > at ? light * (at / m) : light;
}

// The engine's clamp of light (EngineLook::hueClampAt, clampPerChannel); no other change. Linear light stays
// unbounded.
inline Vec3 clampEngineLight(Vec3 light, const EngineLook& look) { return clampLight(light, look.hueClampAt, look.clampPerChannel); }

// Final display value of a shaded colour: clamp to [0,1], then the display gamma.
inline Vec3 toDisplay(Vec3 color, const EngineLook& look) {
    auto one = [&](float v) {
        v = std::isfinite(v) ? std::clamp(v, 0.0f, 1.0f) : 0.0f;
        return look.gamma == 1.0f ? v : std::pow(v, 1.0f / look.gamma);
    };
    return {one(color.x), one(color.y), one(color.z)};
}

}  // namespace luxel
