#pragma once
// How much light one Light (light/lights.hpp) brings to a point, occlusion left out: the baker traces the
// shadow ray LightArrival names and adds the colour when it is unblocked. The rules are q3map2's (the Quake 3
// map compiler, 2.5.17n as run with -light -fast): LightContributionToSample for a lit surface point,
// LightContributionToPoint for a light grid point; the fields of Light that only some formats use (polygon,
// spot radius, cutoff, ...) are neutral, so Source or Quake 2 lights go through the same functions.
//
// What the caller still does, as q3map2 does around these functions: skip the light when the receiver's PVS
// cluster cannot see the light's cluster (ClusterVisible), trace the shadow ray (a sun's ray must end on a
// sky surface), and add the colours of every light that reaches (LightingAtSample / TraceGrid).
#include <span>

#include "luxel/light/lights.hpp"

namespace luxel {

// q3map2's PointToPolygonFormFactor: the share of the hemisphere over `point` (unit `normal`) that
// `polygon` covers, projected (cosine weighted) and divided by pi, signed: positive when the polygon's
// vertices run clockwise as seen from the point. Sum over edges (a, b) of
//   acos(da . db) * (normal . normalize(da x db)) / (2 pi),  da, db = unit vectors from point to a, b,
// edges whose cross product is shorter than 1e-4 skipped; a running total past +-6.3 gives 0 (q3map2's guard
// against degenerate input). Polygons of more than 64 vertices give 0.
float polygonFormFactor(Vec3 point, Vec3 normal, std::span<const Vec3> polygon);

// Light arriving at a surface point with unit normal `normal` (q3map2 LightContributionToSample).
// `twoSidedReceiver`: the surface is lit from both sides (q3map2: its shader has cull none / twosided).
//  * Every light but suns: nothing when the light's origin is behind the receiver's plane (one-sided
//    receivers); nothing at or beyond `envelope`.
//  * Point / Spot: d' = max(minDistance, sqrt(d^2 + extraDistance^2)); angle = normal . toLight (its absolute
//    value for two-sided receivers; 1 without angleAttenuation), / angleScale capped at 1 when angleScale > 0;
//    InverseSquare: intensity * angle / d'^2; Linear: max(0, intensity * angle - linear * d'); None: intensity *
//    angle; Quadratic: intensity * angle / (constant + linear d' + quadratic d'^2).
//    Spot (spotRadiusPerDistance > 0, q3map2's cone): t = (point - origin) . direction; nothing when t < 0 or
//    the point's distance r from the axis is >= R = t * spotRadiusPerDistance; times (R - r) / spotEdge when
//    r > R - spotEdge. Spot with cosines (Source): c = -toLight . direction; nothing when c <= spotCosOuter;
//    times c^spotExponent (when > 0), and (c - outer) / (inner - outer) between the two cones.
//  * Area: with s = (point - origin) . normal (origin sits 1 unit in front of the polygon): nothing when s < -1
//    (one-sided lights), or when -3 < s < 3 and the receiver faces the same way (normal . light normal > 0.9);
//    the point is pushed to 8 units in front (point + normal * (8 - s)) when -8 < s < 8, then intensity *
//    polygonFormFactor(pushed point, receiver normal, polygon); a negative form factor counts (negated, the
//    shadow ray aimed 2 units behind the origin) only for two-sided lights or receivers.
//  * Sun: intensity * angle (angle as above), nothing when <= 0; toLight = -direction, distance infinity.
//  * Nothing when the value (before colour) is <= 0 or <= cutoff (suns: no cutoff); colour = color * value,
//    negated for a negative intensity.
LightArrival lightArrival(const Light& light, Vec3 point, Vec3 normal, bool twoSidedReceiver = false);

// Light arriving at a point from every direction, as a light grid point gathers it (q3map2
// LightContributionToPoint): no receiver plane and no angle term; area lights use the form factor with the
// direction to the light's origin as the normal; nothing beyond (not at) `envelope`; Linear falloff is
// max(0, intensity - linear * d'); spot cones and the cutoff as above; suns give intensity * color.
LightArrival lightArrivalAtPoint(const Light& light, Vec3 point);

}  // namespace luxel
