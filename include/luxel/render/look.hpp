#pragma once
// The output transform from linear light to display values (the "engine look").
#include <algorithm>
#include <cmath>

#include "luxel/bsp/world.hpp"

namespace luxel {

// Light whose brightest channel passes look.hueClampAt is scaled down as a whole (hue kept), as
// Quake 3's R_ColorShiftLightingBytes does; no other change. Linear light stays unbounded.
inline Vec3 clampLightHue(Vec3 light, const EngineLook& look) {
    if (look.hueClampAt > 0) {
        float m = std::max(light.x, std::max(light.y, light.z));
        if (m > look.hueClampAt) light = light * (look.hueClampAt / m);
    }
    return light;
}

// Final display value of a shaded colour: clamp to [0,1], then the display gamma.
inline Vec3 toDisplay(Vec3 color, const EngineLook& look) {
    auto one = [&](float v) {
        v = std::isfinite(v) ? std::clamp(v, 0.0f, 1.0f) : 0.0f;
        return look.gamma == 1.0f ? v : std::pow(v, 1.0f / look.gamma);
    };
    return {one(color.x), one(color.y), one(color.z)};
}

}  // namespace luxel
