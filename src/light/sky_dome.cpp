// Sky lights as geodesic domes of suns (see sky_dome.hpp).
#include "luxel/light/sky_dome.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace luxel {

namespace {

using D3 = DVec3;
double dist2(D3 a, D3 b) { return (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z); }

std::array<D3, 12> icosahedron() {
    const double g = (1 + std::sqrt(5.0)) / 2;
    std::array<D3, 12> v;
    size_t n = 0;
    for (double a : {-1.0, 1.0})
        for (double b : {-g, g}) {
            v[n++] = {0, a, b};
            v[n++] = {a, b, 0};
            v[n++] = {b, 0, a};
        }
    return v;
}

// The share each dome sun gets: 1 / sum of max(0, d . +Z) over the directions.
float domeShare(const std::vector<Vec3>& dirs) {
    double s = 0;
    for (Vec3 d : dirs) s += std::max(0.0f, d.z);
    return s > 0 ? float(1.0 / s) : 0.0f;
}

}  // namespace

std::vector<Vec3> geodesicDirections(int frequency) {
    if (frequency < 1) return {};
    const std::array<D3, 12> v = icosahedron();
    std::vector<D3> points;
    // The 20 faces are the vertex triples at the edge length (2) from each other.
    for (size_t a = 0; a < 12; ++a)
        for (size_t b = a + 1; b < 12; ++b)
            for (size_t c = b + 1; c < 12; ++c) {
                if (std::fabs(dist2(v[a], v[b]) - 4) > 1e-9 || std::fabs(dist2(v[b], v[c]) - 4) > 1e-9 ||
                    std::fabs(dist2(v[a], v[c]) - 4) > 1e-9)
                    continue;
                for (int i = 0; i <= frequency; ++i)
                    for (int j = 0; i + j <= frequency; ++j) {
                        const int k = frequency - i - j;
                        D3 p = (v[a] * i + v[b] * j + v[c] * k) * (1.0 / frequency);
                        p = p * (1.0 / std::sqrt(dist2(p, {})));
                        bool seen = false;
                        for (const D3& q : points) seen = seen || dist2(p, q) < 1e-12;
                        if (!seen) points.push_back(p);
                    }
            }
    std::vector<Vec3> out;
    out.reserve(points.size());
    for (const D3& p : points) out.push_back({float(p.x), float(p.y), float(p.z)});
    return out;
}

std::vector<Light> skyDomeSuns(const Light& sky, int frequency) {
    if (sky.kind != Light::Kind::Sky) return {};
    const std::vector<Vec3> dirs = geodesicDirections(frequency);
    const float share = domeShare(dirs);
    std::vector<Light> suns;
    suns.reserve(dirs.size());
    for (size_t i = 0; i < dirs.size(); ++i) {
        Light s = sky;
        s.kind = Light::Kind::Sun;
        s.direction = -dirs[i];
        s.intensity = sky.intensity * share;
        s.falloff = Light::Falloff::None;
        s.source = sky.source + ", dome sun " + std::to_string(i);
        suns.push_back(std::move(s));
    }
    return suns;
}

std::vector<Light> expandSkyLights(const std::vector<Light>& lights, int frequency) {
    std::vector<Light> out;
    out.reserve(lights.size());
    for (const Light& l : lights) {
        if (l.kind != Light::Kind::Sky) {
            out.push_back(l);
            continue;
        }
        for (Light& s : skyDomeSuns(l, frequency)) out.push_back(std::move(s));
    }
    return out;
}

}  // namespace luxel
