#pragma once
#include <algorithm>
#include <cmath>

#include "luxel/bsp/world.hpp"

namespace luxel {

// Bilinear lookup of a lightmap page at normalised uv, texel centres at (i+0.5)/width, clamped to the
// page edge. The one lookup the renderer and the rebaker share.
inline Vec3 sampleLightmap(const LightmapPage& page, Vec2 uv) {
    float fx = uv.x * float(page.width) - 0.5f, fy = uv.y * float(page.height) - 0.5f;
    if (!(fx >= 0)) fx = 0;  // also catches NaN
    if (!(fy >= 0)) fy = 0;
    fx = std::min(fx, float(page.width - 1));
    fy = std::min(fy, float(page.height - 1));
    int x0 = int(fx), y0 = int(fy);
    int x1 = std::min(x0 + 1, page.width - 1), y1 = std::min(y0 + 1, page.height - 1);
    float ax = fx - float(x0), ay = fy - float(y0);
    const float* p = page.rgb.data();
    auto texel = [&](int x, int y) {
        const float* t = p + (size_t(y) * size_t(page.width) + size_t(x)) * 3;
        return Vec3{t[0], t[1], t[2]};
    };
    Vec3 top = lerp(texel(x0, y0), texel(x1, y0), ax);
    Vec3 bottom = lerp(texel(x0, y1), texel(x1, y1), ax);
    return lerp(top, bottom, ay);
}

}  // namespace luxel
