// Error figures between two sets of probe values.
#include "luxel/bake/compare.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "luxel/light/luxels.hpp"
#include "luxel/util/error.hpp"

namespace luxel {

namespace {

// Nearest-rank percentile of an unsorted list (sorted here); 0 for an empty list.
bool brighter(double reference, double value, double darkBelow) {
    return value > reference * (1 + kBrighterRelative) + darkBelow;
}

double percentile(std::vector<double>& v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t rank = size_t(std::ceil(q * double(v.size())));
    return v[std::min(v.size() - 1, rank > 0 ? rank - 1 : 0)];
}

void addSquares(std::array<double, 3>& sum, Vec3 a, Vec3 b) {
    const Vec3 d = b - a;
    sum[0] += double(d.x) * d.x;
    sum[1] += double(d.y) * d.y;
    sum[2] += double(d.z) * d.z;
}

std::array<double, 3> rootMean(const std::array<double, 3>& sum, size_t count) {
    if (count == 0) return {};
    return {std::sqrt(sum[0] / double(count)), std::sqrt(sum[1] / double(count)), std::sqrt(sum[2] / double(count))};
}

}  // namespace

ProbeComparison compareProbes(const ProbeValues& reference, const ProbeValues& values, const std::vector<bool>& use,
                              double darkBelow) {
    if (reference.kind != values.kind || reference.size() != values.size())
        throw UsageError("probe sets differ in kind or count (" + std::to_string(reference.size()) + " vs " +
                         std::to_string(values.size()) + " points)");
    if (!use.empty() && use.size() != reference.size()) throw UsageError("probe mask has the wrong size");
    ProbeComparison c;
    c.kind = reference.kind;
    const size_t n = reference.size();
    auto used = [&](size_t i) { return use.empty() || use[i]; };

    // The luminances compared: Grid one per point, Cubes six per point.
    std::vector<double> refLum, valLum;
    for (size_t i = 0; i < n; ++i) {
        if (!used(i)) continue;
        if (c.kind == ProbeKind::Grid) {
            const GridSample &a = reference.grid[i], &b = values.grid[i];
            refLum.push_back(luminance(a.ambient + a.directed * 0.25f));
            valLum.push_back(luminance(b.ambient + b.directed * 0.25f));
        } else {
            for (size_t s = 0; s < 6; ++s) {
                refLum.push_back(luminance(reference.cubes[i][s]));
                valLum.push_back(luminance(values.cubes[i][s]));
            }
        }
    }
    c.points = 0;
    for (size_t i = 0; i < n; ++i) c.points += used(i);
    c.skipped = n - c.points;
    double sumRef = 0, sumVal = 0;
    for (size_t k = 0; k < refLum.size(); ++k) {
        sumRef += refLum[k];
        sumVal += valLum[k];
    }
    c.meanReference = refLum.empty() ? 0 : sumRef / double(refLum.size());
    c.meanCompared = valLum.empty() ? 0 : sumVal / double(valLum.size());
    c.darkBelow = darkBelow > 0 ? darkBelow : 0.01 * c.meanReference;

    c.values = refLum.size();
    std::vector<double> relative;
    for (size_t k = 0; k < refLum.size(); ++k) {
        c.brighter += brighter(refLum[k], valLum[k], c.darkBelow);
        if (refLum[k] < c.darkBelow || refLum[k] <= 0) {
            ++c.dark;
            continue;
        }
        relative.push_back(std::abs(valLum[k] - refLum[k]) / refLum[k]);
    }
    c.relativeCount = relative.size();
    c.medianRelative = percentile(relative, 0.5);
    c.p90Relative = percentile(relative, 0.9);

    std::array<double, 3> sqA{}, sqD{};
    size_t colours = 0;
    std::vector<double> angles;
    for (size_t i = 0; i < n; ++i) {
        if (!used(i)) continue;
        if (c.kind == ProbeKind::Grid) {
            const GridSample &a = reference.grid[i], &b = values.grid[i];
            addSquares(sqA, a.ambient, b.ambient);
            addSquares(sqD, a.directed, b.directed);
            ++colours;
            if (luminance(a.directed) >= c.darkBelow && luminance(b.directed) >= c.darkBelow &&
                luminance(a.directed) > 0 && luminance(b.directed) > 0) {
                const double cosAngle = std::clamp(double(dot(normalize(a.direction), normalize(b.direction))), -1.0, 1.0);
                angles.push_back(std::acos(cosAngle) * 180.0 / 3.14159265358979323846);
            }
        } else {
            for (size_t s = 0; s < 6; ++s) {
                addSquares(sqA, reference.cubes[i][s], values.cubes[i][s]);
                ++colours;
            }
        }
    }
    c.rmseAmbient = rootMean(sqA, colours);
    if (c.kind == ProbeKind::Grid) c.rmseDirected = rootMean(sqD, colours);
    c.directionCount = angles.size();
    c.medianDirectionDeg = percentile(angles, 0.5);
    c.p90DirectionDeg = percentile(angles, 0.9);
    return c;
}

nlohmann::json toJson(const ProbeComparison& c) {
    nlohmann::json j;
    j["kind"] = c.kind == ProbeKind::Grid ? "grid" : c.kind == ProbeKind::Cubes ? "cubes" : "none";
    j["points"] = c.points;
    j["skipped"] = c.skipped;
    if (c.kind == ProbeKind::Grid) {
        j["rmse_ambient"] = c.rmseAmbient;
        j["rmse_directed"] = c.rmseDirected;
        j["direction_error_deg"] = {{"median", c.medianDirectionDeg}, {"p90", c.p90DirectionDeg},
                                    {"count", c.directionCount}};
    } else {
        j["rmse"] = c.rmseAmbient;
    }
    j["relative_luminance_error"] = {{"median", c.medianRelative}, {"p90", c.p90Relative},
                                     {"count", c.relativeCount}, {"dark", c.dark}, {"dark_below", c.darkBelow}};
    j["mean_luminance"] = {{"reference", c.meanReference}, {"compared", c.meanCompared}};
    j["brighter"] = {{"values", c.values}, {"count", c.brighter}, {"relative", kBrighterRelative}};
    return j;
}

LightmapComparison compareLightmapPages(const World& world, const Geometry& geometry, const std::vector<LightmapPage>& stored,
                                        const std::vector<LightmapPage>& baked, size_t slot, double darkBelow) {
    if (stored.size() != baked.size()) throw UsageError("lightmap page counts differ");
    for (size_t i = 0; i < stored.size(); ++i)
        if (stored[i].width != baked[i].width || stored[i].height != baked[i].height || stored[i].rgb.size() != baked[i].rgb.size())
            throw UsageError("lightmap page " + std::to_string(i) + " differs in size");
    LightmapComparison c;
    std::vector<std::pair<Vec3, Vec3>> values;  // (stored, baked) per luxel
    for (const Luxel& x : luxelCentres(world, geometry)) {
        if (x.page < 0 || size_t(x.page) >= stored.size() || slot >= 4 || world.surfaces[x.surface].styles[slot] == 255) continue;
        const LightmapPage& a = stored[size_t(x.page)];
        if (x.x < 0 || x.y < 0 || x.x >= a.width || x.y >= a.height) continue;
        const size_t t = (size_t(x.y) * size_t(a.width) + size_t(x.x)) * 3;
        const float* b = baked[size_t(x.page)].rgb.data() + t;
        values.push_back({{a.rgb[t], a.rgb[t + 1], a.rgb[t + 2]}, {b[0], b[1], b[2]}});
    }
    c.luxels = values.size();
    if (values.empty()) return c;
    std::array<double, 3> squares{};
    for (const auto& [a, b] : values) {
        addSquares(squares, a, b);
        c.meanReference += luminance(a);
        c.meanCompared += luminance(b);
    }
    c.rmse = rootMean(squares, values.size());
    c.meanReference /= double(values.size());
    c.meanCompared /= double(values.size());
    c.darkBelow = darkBelow > 0 ? darkBelow : 0.01 * c.meanReference;
    std::vector<double> relative;
    for (const auto& [a, b] : values) {
        const double la = luminance(a);
        c.brighter += brighter(la, luminance(b), c.darkBelow);
        if (la < c.darkBelow || la <= 0) {
            ++c.dark;
            continue;
        }
        relative.push_back(std::abs(double(luminance(b)) - la) / la);
    }
    c.compared = relative.size();
    c.medianRelative = percentile(relative, 0.5);
    c.p90Relative = percentile(relative, 0.9);
    return c;
}

nlohmann::json toJson(const LightmapComparison& c) {
    return {{"luxels", c.luxels},
            {"compared", c.compared},
            {"dark", c.dark},
            {"dark_below", c.darkBelow},
            {"rmse", c.rmse},
            {"relative_luminance_error", {{"median", c.medianRelative}, {"p90", c.p90Relative}}},
            {"mean_luminance", {{"stored", c.meanReference}, {"baked", c.meanCompared}}},
            {"brighter", {{"count", c.brighter}, {"relative", kBrighterRelative}}}};
}

}  // namespace luxel
