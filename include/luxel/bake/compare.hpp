#pragma once
// How far one set of probe values is from another (rebaked vs stored, or N rays vs a reference), in the
// figures a compiler developer reads: per-channel RMSE in linear light, the median and 90th percentile of
// the relative luminance error, and for Quake 3 the error of the light direction in degrees.
#include <array>
#include <cstddef>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "luxel/geometry/geometry.hpp"
#include "luxel/light/light_grid.hpp"

namespace luxel {

struct ProbeComparison {
    ProbeKind kind = ProbeKind::None;
    size_t points = 0;    // points compared
    size_t skipped = 0;   // points left out (masked: in solid, not rebaked)
    // Per-channel RMSE over every compared colour: Grid: ambient and directed separately; Cubes: all six
    // sides in `ambient` (directed stays zero).
    std::array<double, 3> rmseAmbient{}, rmseDirected{};
    // Relative luminance error |b - a| / a of each compared value whose reference luminance a is at least
    // `darkBelow` (darker ones would make the ratio meaningless; counted in `dark`). Grid: the mean light
    // over all normals, ambient + directed / 4; Cubes: each side.
    double medianRelative = 0, p90Relative = 0;
    size_t relativeCount = 0, dark = 0;
    double darkBelow = 0;
    // Grid only: angle between the directions where both directed luminances are at least darkBelow.
    double medianDirectionDeg = 0, p90DirectionDeg = 0;
    size_t directionCount = 0;
    // Mean luminance of the reference and of the compared values (a scale check).
    double meanReference = 0, meanCompared = 0;
    // Values (Grid: points; Cubes: sides) whose luminance passes the reference's by more than
    // kBrighterRelative of it plus darkBelow: a baked direct part checked against stored light that also
    // holds bounce may fall short of it, never pass it.
    size_t values = 0, brighter = 0;
};
inline constexpr double kBrighterRelative = 0.10;

// Compares `values` against `reference` (same kind and count, else UsageError) over the points where
// `use` is true (empty: all). darkBelow <= 0 picks 1% of the reference's mean luminance.
ProbeComparison compareProbes(const ProbeValues& reference, const ProbeValues& values, const std::vector<bool>& use,
                              double darkBelow = 0);

nlohmann::json toJson(const ProbeComparison& c);

// How far baked lightmap pages are from stored ones of the same layout, over the luxels of lit surfaces
// (light/luxels.hpp): per-channel RMSE in linear light, the median and 90th percentile of the relative
// luminance error |b - a| / a over luxels whose stored luminance is at least `darkBelow`, mean luminances.
struct LightmapComparison {
    size_t luxels = 0, compared = 0, dark = 0;
    double darkBelow = 0;
    std::array<double, 3> rmse{};
    double medianRelative = 0, p90Relative = 0;
    double meanReference = 0, meanCompared = 0;
    size_t brighter = 0;  // luxels brighter than stored by more than kBrighterRelative of it plus darkBelow
};
// `stored` and `baked` hold style slot `slot` (World::lightmaps for 0): only luxels of surfaces that use the
// slot count. darkBelow <= 0 picks 1% of the stored mean luminance. Pages must match in size (else UsageError).
LightmapComparison compareLightmapPages(const World& world, const Geometry& geometry, const std::vector<LightmapPage>& stored,
                                        const std::vector<LightmapPage>& baked, size_t slot = 0, double darkBelow = 0);
nlohmann::json toJson(const LightmapComparison& c);

}  // namespace luxel
