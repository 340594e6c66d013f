// The engine's value noise (see noise.hpp), its tables made once from glibc's random_r.
#include "luxel/material/noise.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace luxel {

namespace {

constexpr int kNoiseSize = 256;

struct NoiseTables {
    std::array<float, kNoiseSize> value{};
    std::array<int, kNoiseSize> perm{};
    NoiseTables() {
        // random_r with a 128-byte state is the generator behind glibc's rand(); seed 1 is an unseeded process.
        random_data data{};
        char state[128] = {};
        initstate_r(1, state, sizeof state, &data);
        auto next = [&data] {
            int32_t r = 0;
            random_r(&data, &r);
            return r;
        };
        for (int i = 0; i < kNoiseSize; ++i) {  // R_NoiseInit, in its order of rand() calls
            value[size_t(i)] = float((float(next()) / float(RAND_MAX)) * 2.0 - 1.0);
            perm[size_t(i)] = int(static_cast<unsigned char>(float(next()) / float(RAND_MAX) * 255));
        }
    }
    int at(int a) const { return perm[size_t(a & (kNoiseSize - 1))]; }
    float get(int x, int y, int z, int t) const { return value[size_t(at(x + at(y + at(z + at(t)))))]; }
};

const NoiseTables& tables() {
    static const NoiseTables t;
    return t;
}

float lerp(float a, float b, float f) { return a + (b - a) * f; }

// The lattice cell of v, kept to the table's period (only its low 8 bits index the tables), and the fraction.
int cell(double v, float& fraction) {
    const double f = std::floor(v);
    fraction = float(v - f);
    return int(int64_t(std::fmod(f, double(kNoiseSize)) + kNoiseSize) & (kNoiseSize - 1));
}

}  // namespace

float engineNoise(float x, float y, float z, double t) {
    if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z) || !std::isfinite(t)) return 0;
    const NoiseTables& n = tables();
    float fx, fy, fz, ft;
    const int ix = cell(x, fx), iy = cell(y, fy), iz = cell(z, fz), it = cell(t, ft);
    float value[2];
    for (int i = 0; i < 2; ++i) {
        const float front = lerp(lerp(n.get(ix, iy, iz, it + i), n.get(ix + 1, iy, iz, it + i), fx),
                                 lerp(n.get(ix, iy + 1, iz, it + i), n.get(ix + 1, iy + 1, iz, it + i), fx), fy);
        const float back = lerp(lerp(n.get(ix, iy, iz + 1, it + i), n.get(ix + 1, iy, iz + 1, it + i), fx),
                                lerp(n.get(ix, iy + 1, iz + 1, it + i), n.get(ix + 1, iy + 1, iz + 1, it + i), fx), fy);
        value[i] = lerp(front, back, fz);
    }
    return lerp(value[0], value[1], ft);
}

}  // namespace luxel
