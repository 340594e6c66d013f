// The light grid cell q3map2 writes (light.cpp TraceGrid, light_ydnar.cpp ColorToBytes, NormalToLatLong).
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "light_parts.hpp"

namespace luxel {

namespace {

// ColorToBytes at lightmap gamma 1, no exposure, compensate 1 (-game quake3): negative channels 0, the
// brightest channel scaled down to maxLight with the others, truncated to bytes. In q3map2 values (0..255).
std::array<float, 3> colorToBytes(Vec3 c, float scale, float maxLight, bool quantize) {
    if (scale <= 0) scale = 1;
    std::array<float, 3> s{};
    for (int i = 0; i < 3; ++i) {
        const float v = c[i] * scale;
        s[size_t(i)] = v > 0 ? float(double(v / 255.0f) * 255.0f) : 0.0f;  // pow(v / 255, 1 / gamma) * 255
        if (std::isnan(s[size_t(i)])) s[size_t(i)] = 0;
    }
    const float top = std::max({s[0], s[1], s[2]});
    if (top > maxLight) for (float& v : s) v *= maxLight / top;
    // Truncated as q3map2's float -> byte cast; the small allowance undoes the rounding of luxel's unit
    // conversion (4 / 255 and back), which can leave an exact q3map2 value a few float steps short.
    if (quantize) for (float& v : s) v = std::trunc(std::min(v + 2e-4f, 255.0f));
    return s;
}

}  // namespace

GridSample quake3GridCell(std::span<const GridArrival> arrivals, const Quake3GridSettings& g) {
    using q3light::kValueToLuxel;
    constexpr float kToValue = 1.0f / kValueToLuxel;
    // The main direction: arrivals' directions weighted by the length of their colours.
    Vec3 sum;
    for (const GridArrival& a : arrivals) sum += a.toLight * length(a.color * kToValue);
    const Vec3 main = isFinite(sum) ? normalize(sum) : Vec3{};

    // Styles take slots in order of appearance (at most 4; style 0 holds slot 0); only slot 0 is stored in a
    // Quake 3 grid cell.
    std::array<int, 4> styles{0, -1, -1, -1};
    int numStyles = 1;
    Vec3 ambient = g.ambient * kToValue, directed;
    for (const GridArrival& a : arrivals) {
        float d = dot(a.toLight, main);
        d = std::max(0.0f, g.ambientDirectionality + d * (g.directionality - g.ambientDirectionality));
        int slot = 0;
        while (slot < numStyles && styles[size_t(slot)] != a.style) ++slot;
        if (slot == numStyles) {
            if (numStyles < 4) styles[size_t(numStyles++)] = a.style;
            else slot = 0;
        }
        if (slot != 0) continue;
        const Vec3 c = a.color * kToValue;
        directed += c * d;
        ambient += c * (0.25f * (1.0f - d));  // "ambient == 0.25 * sum((1 - d_i) contribution_i)"
    }
    const Vec3 floor = g.minGridLight * kToValue;
    for (int i = 0; i < 3; ++i) ambient[i] = std::max(ambient[i], floor[i]);
    const float maxLight = g.maxLight * kToValue;
    auto amb = colorToBytes(ambient, g.gridScale * g.gridAmbientScale, maxLight, g.quantize);
    const auto dir = colorToBytes(directed, g.gridScale, maxLight, g.quantize);
    // "q3 skips grid cells with zero ambient": some directed light forces ambient 1 1 1.
    if (g.quantize && amb[0] + amb[1] + amb[2] == 0 && dir[0] + dir[1] + dir[2] != 0) amb = {1, 1, 1};

    GridSample out;
    out.ambient = Vec3{amb[0], amb[1], amb[2]} * kValueToLuxel;
    out.directed = Vec3{dir[0], dir[1], dir[2]} * kValueToLuxel;
    if (!g.quantize) {
        out.direction = main;
        return out;
    }
    // NormalToLatLong: straight up / down (and zero, stored as down) at azimuth 0; else degrees * 255 / 360
    // truncated; decoded as luxel's grid decoder does (byte * 2 pi / 256).
    int polar = 0, azimuth = 0;
    if (main.x == 0 && main.y == 0) {
        polar = main.z > 0 ? 0 : 128;
    } else {
        azimuth = int(std::atan2(double(main.y), double(main.x)) * (180.0 / std::numbers::pi) * (255.0 / 360.0)) & 0xff;
        polar = int(std::acos(std::clamp(double(main.z), -1.0, 1.0)) * (180.0 / std::numbers::pi) * (255.0 / 360.0)) & 0xff;
    }
    const float step = 2.0f * std::numbers::pi_v<float> / 256.0f;
    const float p = float(polar) * step, a = float(azimuth) * step;
    out.direction = {std::cos(a) * std::sin(p), std::sin(a) * std::sin(p), std::cos(p)};
    return out;
}

}  // namespace luxel
