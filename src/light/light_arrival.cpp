// q3map2's light contribution rules (light.cpp LightContributionToSample, LightContributionToPoint,
// PointToPolygonFormFactor) over the neutral Light. Formulas are restated in light_arrival.hpp; the comments
// here say where each step comes from.
#include "luxel/light/light_arrival.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace luxel {

namespace {

constexpr double kInvTwoPi = 1.0 / (2.0 * 3.14159265358979323846);
constexpr size_t kMaxPolygonPoints = 64;  // q3map2 MAX_POINTS_ON_WINDING

struct Ray {
    Vec3 dir;
    float dist = 0;
};

// SetupTrace: displacement end - origin, its unit direction and length.
Ray rayTo(Vec3 from, Vec3 to) {
    const Vec3 d = to - from;
    const float len = length(d);
    return {len > 0 ? d / len : Vec3{}, len};
}

// The distance the falloff sees: q3map2 clamps it to 16 ("prevent super hot spots") after adding _extradist.
float falloffDistance(const Light& l, float d) {
    return std::max(l.minDistance, std::sqrt(d * d + l.extraDistance * l.extraDistance));
}

// Lambert term with q3map2's two-sided flip and _anglescale.
float angleTerm(const Light& l, Vec3 normal, Vec3 toLight, bool twoSided) {
    float angle = 1;
    if (l.angleAttenuation) {
        angle = dot(normal, toLight);
        if (twoSided && angle < 0) angle = -angle;
    }
    if (l.angleScale != 0) angle = std::min(angle / l.angleScale, 1.0f);
    return angle;
}

// Distance falloff of a point or spot light times `angle` (q3map2: angle only multiplies the light term).
float pointFalloff(const Light& l, float strength, float d, float angle) {
    switch (l.falloff) {
        case Light::Falloff::Linear: return std::max(0.0f, angle * strength - d * l.linear);
        case Light::Falloff::None: return std::max(0.0f, strength * angle);
        case Light::Falloff::Quadratic: {
            const float denom = l.constant + l.linear * d + l.quadratic * d * d;
            return denom > 0 ? std::max(0.0f, strength * angle / denom) : 0.0f;
        }
        case Light::Falloff::Inverse: return std::max(0.0f, strength / d * angle);  // not a q3map2 kind
        case Light::Falloff::InverseSquare: break;
    }
    return std::max(0.0f, strength / (d * d) * angle);
}

// The spot cone: q3map2's radius cone (distByNormal, radiusAtDist, 32-unit edge), or Source's cosines.
// Returns the factor (0 outside).
float spotFactor(const Light& l, Vec3 point, Vec3 toLight) {
    if (l.spotRadiusPerDistance > 0) {
        const float along = dot(point - l.origin, l.direction);
        if (!(along >= 0)) return 0;
        const float radius = l.spotRadiusPerDistance * along;
        const float off = length(point - (l.origin + l.direction * along));
        if (!(off < radius)) return 0;
        if (l.spotEdge > 0 && off > radius - l.spotEdge) return std::max(0.0f, (radius - off) / l.spotEdge);
        return 1;
    }
    const float c = -dot(toLight, l.direction);
    if (!(c > l.spotCosOuter)) return 0;
    float f = l.spotExponent > 0 ? std::pow(std::max(c, 0.0f), l.spotExponent) : 1.0f;
    if (c < l.spotCosInner && l.spotCosInner > l.spotCosOuter)
        f *= (c - l.spotCosOuter) / (l.spotCosInner - l.spotCosOuter);
    return f;
}

LightArrival finish(const Light& l, float add, const Ray& ray) {
    LightArrival a;
    a.toLight = ray.dir;
    a.distance = ray.dist;
    // "ydnar: changed to a variable number": nothing at or below zero or the -fast falloff tolerance.
    if (!(add > 0) || add <= l.cutoff || !std::isfinite(add)) return a;
    a.color = l.color * (l.intensity < 0 ? -add : add);  // LIGHT_NEGATIVE lights subtract
    return a;
}

}  // namespace

float polygonFormFactor(Vec3 point, Vec3 normal, std::span<const Vec3> polygon) {
    if (polygon.size() < 3 || polygon.size() > kMaxPolygonPoints || !isFinite(point) || !isFinite(normal)) return 0;
    for (const Vec3& p : polygon)
        if (!isFinite(p)) return 0;
    Vec3 dirs[kMaxPolygonPoints + 1];
    for (size_t i = 0; i < polygon.size(); ++i) dirs[i] = normalize(polygon[i] - point);
    dirs[polygon.size()] = dirs[0];
    double total = 0;
    for (size_t i = 0; i < polygon.size(); ++i) {
        const Vec3 c = cross(dirs[i], dirs[i + 1]);
        const float len = length(c);
        if (!(len >= 0.0001f)) continue;
        const double angle = std::acos(std::clamp(double(dot(dirs[i], dirs[i + 1])), -1.0, 1.0));
        total += double(dot(normal, c / len)) * angle;
        if (total > 6.3 || total < -6.3) return 0;  // q3map2 ignores such (degenerate) windings
    }
    return float(total * kInvTwoPi);
}

LightArrival lightArrival(const Light& l, Vec3 point, Vec3 normal, bool twoSidedReceiver) {
    const LightArrival none{};
    if (!l.lightsSurfaces || !(l.envelope > 0)) return none;
    const float strength = std::fabs(l.intensity);

    if (l.kind == Light::Kind::Sun) {
        const Ray ray{-l.direction, std::numeric_limits<float>::infinity()};
        const float add = strength * angleTerm(l, normal, ray.dir, twoSidedReceiver);
        LightArrival a;
        a.toLight = ray.dir;
        a.distance = ray.dist;
        if (add > 0 && std::isfinite(add)) a.color = l.color * (l.intensity < 0 ? -add : add);
        return a;
    }

    // "MrE: if the light is behind the surface"
    if (!twoSidedReceiver && dot(l.origin, normal) - dot(point, normal) < 0) return none;

    if (l.kind == Light::Kind::Area) {
        const float s = dot(point, l.normal) - dot(l.origin, l.normal);
        if (s < 3) {
            if (!l.twoSided && s < -1) return none;                  // behind the emitter
            if (s > -3 && dot(normal, l.normal) > 0.9f) return none;  // coplanar with it
        }
        // "nudge the point so that it is clearly forward of the light"
        const Vec3 pushed = (s > -8 && s < 8) ? point + l.normal * (8 - s) : point;
        Ray ray = rayTo(point, l.origin);
        if (!(ray.dist < l.envelope)) return none;
        float factor = polygonFormFactor(pushed, normal, l.polygon);
        if (factor == 0) return none;
        if (factor < 0) {
            if (!(twoSidedReceiver || l.twoSided)) return none;
            factor = -factor;
            ray = rayTo(point, l.origin - l.normal * 2);  // "push light origin to other side of the plane"
            if (!(ray.dist < l.envelope)) return none;
        }
        return finish(l, factor * strength, ray);
    }

    const Ray ray = rayTo(point, l.origin);
    if (!(ray.dist < l.envelope)) return none;
    const float d = falloffDistance(l, ray.dist);
    float add = pointFalloff(l, strength, d, angleTerm(l, normal, ray.dir, twoSidedReceiver));
    if (l.kind == Light::Kind::Spot) add *= spotFactor(l, point, ray.dir);
    return finish(l, add, ray);
}

LightArrival lightArrivalAtPoint(const Light& l, Vec3 point) {
    const LightArrival none{};
    if (!l.lightsGrid || !(l.envelope > 0)) return none;
    const float strength = std::fabs(l.intensity);

    if (l.kind == Light::Kind::Sun) {
        LightArrival a;
        a.toLight = -l.direction;
        a.distance = std::numeric_limits<float>::infinity();
        if (strength > 0 && std::isfinite(strength)) a.color = l.color * l.intensity;
        return a;
    }

    Ray ray = rayTo(point, l.origin);
    if (ray.dist > l.envelope || std::isnan(ray.dist)) return none;  // grid: "dist > envelope"

    if (l.kind == Light::Kind::Area) {
        const float s = dot(point, l.normal) - dot(l.origin, l.normal);
        if (!l.twoSided && s < -1) return none;
        const Vec3 pushed = (s > -8 && s < 8) ? point + l.normal * (8 - s) : point;
        // "ydnar 2002-10-21: [bug 642] bad normal calc": the direction to the light stands in for a normal.
        float factor = polygonFormFactor(pushed, ray.dir, l.polygon);
        if (factor == 0) return none;
        if (factor < 0) {
            if (!l.twoSided) return none;
            factor = -factor;
        }
        return finish(l, factor * strength, ray);
    }

    const float d = falloffDistance(l, ray.dist);
    float add = pointFalloff(l, strength, d, 1.0f);
    if (l.kind == Light::Kind::Spot) add *= spotFactor(l, point, ray.dir);
    return finish(l, add, ray);
}

}  // namespace luxel
