// What changes with time in a material: texture coordinate changes as ioquake3's RB_CalcScrollTexCoords /
// RB_CalcRotateTexCoords / RB_CalcTransformTexCoords compute them (tr_shade_calc.c), and wave forms.
#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>

#include "luxel/material/material_set.hpp"
#include "luxel/material/noise.hpp"

namespace luxel {

namespace {

Vec2 transform(Vec2 st, float m00, float m01, float m10, float m11, float t0, float t1) {
    return {st.x * m00 + st.y * m10 + t0, st.x * m01 + st.y * m11 + t1};
}

}  // namespace

Vec2 applyTexMods(const std::vector<TexMod>& mods, Vec2 st, float time) {
    for (const TexMod& m : mods) {
        switch (m.kind) {
            case TexMod::Kind::Scale: st = {st.x * m.p[0], st.y * m.p[1]}; break;
            case TexMod::Kind::Scroll: {
                // The engine keeps only the fraction of the offset so coordinates stay small over long games.
                float s = m.p[0] * time, t = m.p[1] * time;
                s -= std::floor(s);
                t -= std::floor(t);
                st = {st.x + s, st.y + t};
                break;
            }
            case TexMod::Kind::Rotate: {
                const double rad = -double(m.p[0]) * double(time) * std::numbers::pi / 180.0;
                const float c = float(std::cos(rad)), s = float(std::sin(rad));
                st = transform(st, c, s, -s, c, 0.5f - 0.5f * c + 0.5f * s, 0.5f - 0.5f * s - 0.5f * c);
                break;
            }
            case TexMod::Kind::Transform: st = transform(st, m.p[0], m.p[1], m.p[2], m.p[3], m.p[4], m.p[5]); break;
        }
    }
    return st;
}

void affineOf(const std::vector<TexMod>& mods, float time, float* a) {
    const Vec2 o = applyTexMods(mods, {0, 0}, time), x = applyTexMods(mods, {1, 0}, time),
               y = applyTexMods(mods, {0, 1}, time);
    a[0] = x.x - o.x, a[1] = x.y - o.y, a[2] = y.x - o.x, a[3] = y.y - o.y, a[4] = o.x, a[5] = o.y;
}

namespace {

// sin(2 pi i / size) at i = (int64)(periods * size) & (size - 1), with the periods first kept to their
// fraction (same sign) so the cast cannot overflow.
// The table's entries, computed once (a warped surface reads two a pixel).
template <int Size>
const std::array<float, Size>& sineTable() {
    static const std::array<float, Size> table = [] {
        std::array<float, Size> t{};
        for (int i = 0; i < Size; ++i) t[size_t(i)] = float(std::sin(double(i) * (2.0 * std::numbers::pi / Size)));
        return t;
    }();
    return table;
}

// The entry of a table of Size steps a period that `periods` falls on (the fraction truncated, negative ones
// wrapped); -1 when it is not finite.
template <int Size>
int64_t tableIndex(double periods) {
    if (!std::isfinite(periods)) return -1;
    return (int64_t(std::trunc(std::fmod(periods, 1.0) * Size)) % Size + Size) % Size;
}

template <int Size>
float tableSine(double periods) {
    const int64_t index = tableIndex<Size>(periods);
    return index < 0 ? 0.0f : sineTable<Size>()[size_t(index)];
}

}  // namespace

float engineSine(double periods) { return tableSine<1024>(periods); }

// The vector loop reads the same table, so the two cannot drift apart.
float quake2Turbulence(double radians) {
    const int64_t index = tableIndex<256>(radians / (2.0 * std::numbers::pi));
    return index < 0 ? 0.0f : quake2TurbulenceTable()[index];
}

const float* quake2TurbulenceTable() {
    static const std::array<float, 256> table = [] {
        std::array<float, 256> t{};
        for (size_t i = 0; i < t.size(); ++i) t[i] = 8.0f * sineTable<256>()[i];
        return t;
    }();
    return table.data();
}

std::array<float, 9> quake1WarpVertices(double time) {
    std::array<float, 9> v{};
    const double shift = time * (128.0 / std::numbers::pi);
    if (!std::isfinite(shift)) return v;
    for (size_t j = 0; j < v.size(); ++j) {
        const double index = std::floor(double(32 * j) + shift);  // (int) of a value the engine keeps >= 0
        v[j] = quake2TurbulenceTable()[size_t((int64_t(std::fmod(index, 256.0)) + 256) % 256)];
    }
    return v;
}

// The vector loop (avx2_program.cpp) does these float operations lane by lane: every step is exact but the last.
float quake1WarpOffset(float y, const std::array<float, 9>& vertices) {
    if (!std::isfinite(y)) return 0.0f;
    const float cell = std::floor(y * 0.0625f);
    const float along = y * 0.0625f - cell;
    const int k = int(cell - 8.0f * std::floor(cell * 0.125f));  // the image repeats every 128 texels
    const float a = vertices[size_t(k)], b = vertices[size_t(k + 1)];
    return a + (b - a) * along;
}

double evalWave(const Wave& w, double time) {
    // RB_CalcWaveColor: noise is read at (time + phase) * frequency, not phase + time * frequency.
    if (w.func == Wave::Func::Noise)
        return double(w.base) + double(w.amplitude) * engineNoise(0, 0, 0, (time + double(w.phase)) * double(w.frequency));
    const double x = double(w.phase) + time * double(w.frequency);
    const double f = x - std::floor(x);  // the phase within the period
    double v = 0;
    switch (w.func) {
        case Wave::Func::Sin: v = std::sin(2.0 * std::numbers::pi * f); break;
        case Wave::Func::Triangle: v = f < 0.25 ? 4 * f : f < 0.75 ? 2 - 4 * f : 4 * f - 4; break;
        case Wave::Func::Square: v = f < 0.5 ? 1 : -1; break;
        case Wave::Func::Sawtooth: v = f; break;
        case Wave::Func::InverseSawtooth: v = 1 - f; break;
        case Wave::Func::Noise: break;
    }
    return double(w.base) + double(w.amplitude) * v;
}

}  // namespace luxel
