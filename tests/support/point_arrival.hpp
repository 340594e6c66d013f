#pragma once
// The light arrival the baker tests use: I cos(incidence) / d^2, computed by hand, the receiver's cosine
// left out for a zero normal (grid points); nothing from behind the receiver.
#include <cmath>

#include "luxel/light/lights.hpp"

namespace luxel::test {

inline LightArrival pointArrival(const Light& l, Vec3 p, Vec3 n) {
    LightArrival a;
    const Vec3 d = l.origin - p;
    a.distance = std::sqrt(dot(d, d));
    a.toLight = d * (1.0f / a.distance);
    const float cosine = dot(n, n) > 0 ? dot(n, a.toLight) : 1.0f;
    if (cosine <= 0) return a;
    a.color = l.color * (l.intensity * cosine / (a.distance * a.distance));
    return a;
}

// pointArrival as the baker's batch (ArrivalFn).
inline void pointArrivals(const Light& l, const Vec3* points, const Vec3* normals, size_t count, LightArrival* out) {
    arrivalsOf<pointArrival>(l, points, normals, count, out);
}

inline Light pointLight(Vec3 at, float intensity) {
    Light l;
    l.kind = Light::Kind::Point;
    l.origin = at;
    l.intensity = intensity;
    return l;
}

}  // namespace luxel::test
