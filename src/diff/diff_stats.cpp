// Difference statistics and idiff's verdict rules, shared by every kind of comparison.
#include <algorithm>
#include <cmath>

#include "luxel/diff/diff.hpp"

#include <numbers>

#include "diff_math.hpp"

namespace luxel {

void DiffAccumulator::add(Vec3 aLinear, Vec3 bLinear, Vec3 aDisplay, Vec3 bDisplay) {
    const float dl[3] = {bLinear.x - aLinear.x, bLinear.y - aLinear.y, bLinear.z - aLinear.z};
    const float dd[3] = {bDisplay.x - aDisplay.x, bDisplay.y - aDisplay.y, bDisplay.z - aDisplay.z};
    double largest = 0;
    for (int c = 0; c < 3; ++c) {
        const double l = std::fabs(double(dl[c])), d = std::fabs(double(dd[c]));
        sumAbsLinear += l;
        sumSqLinear += l * l;
        sumAbsDisplay += d;
        sumSqDisplay += d * d;
        stats.maxAbsLinear = std::max(stats.maxAbsLinear, l);
        stats.maxAbsDisplay = std::max(stats.maxAbsDisplay, d);
        largest = std::max(largest, d);
    }
    ++stats.count;
    if (largest > thresholds.warn) ++stats.overWarn;
    if (largest > thresholds.fail) ++stats.overFail;
    if (largest > thresholds.hardFail) ++stats.overHardFail;
}

void DiffAccumulator::merge(const DiffAccumulator& o) {
    sumAbsLinear += o.sumAbsLinear;
    sumSqLinear += o.sumSqLinear;
    sumAbsDisplay += o.sumAbsDisplay;
    sumSqDisplay += o.sumSqDisplay;
    stats.count += o.stats.count;
    stats.maxAbsLinear = std::max(stats.maxAbsLinear, o.stats.maxAbsLinear);
    stats.maxAbsDisplay = std::max(stats.maxAbsDisplay, o.stats.maxAbsDisplay);
    stats.overWarn += o.stats.overWarn;
    stats.overFail += o.stats.overFail;
    stats.overHardFail += o.stats.overHardFail;
}

DiffStats DiffAccumulator::finish() const {
    DiffStats s = stats;
    if (s.count == 0) return s;
    const double n = 3.0 * double(s.count);  // channel values
    s.meanAbsLinear = sumAbsLinear / n;
    s.rmsLinear = std::sqrt(sumSqLinear / n);
    s.meanAbsDisplay = sumAbsDisplay / n;
    s.rmsDisplay = std::sqrt(sumSqDisplay / n);
    s.psnrDisplay = s.rmsDisplay > 0 ? 20.0 * std::log10(1.0 / s.rmsDisplay) : std::numeric_limits<double>::infinity();
    return s;
}

Verdict verdictOf(const DiffStats& s, const DiffThresholds& t) {
    if (s.overHardFail > 0 || (s.overFail > 0 && s.percentOverFail() > t.failPercent)) return Verdict::Fail;
    if (s.overWarn > 0) return Verdict::Warn;
    return Verdict::Same;
}

const char* verdictName(Verdict v) {
    switch (v) {
        case Verdict::Same: return "same";
        case Verdict::Warn: return "warn";
        case Verdict::Fail: return "fail";
    }
    return "?";
}

namespace diffmath {

double angleDeg(Vec3 a, Vec3 b, double minLength2) {
    const double ax = a.x, ay = a.y, az = a.z, bx = b.x, by = b.y, bz = b.z;
    if (!(ax * ax + ay * ay + az * az > minLength2) || !(bx * bx + by * by + bz * bz > minLength2)) return -1.0;
    const double cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
    const double c = std::sqrt(cx * cx + cy * cy + cz * cz), d = ax * bx + ay * by + az * bz;
    return std::atan2(c, d) * 180.0 / std::numbers::pi;
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    const size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(mid), v.end());
    if (v.size() % 2) return v[mid];
    const double upper = v[mid];
    const double lower = *std::max_element(v.begin(), v.begin() + std::ptrdiff_t(mid));
    return 0.5 * (lower + upper);
}

}  // namespace diffmath

}  // namespace luxel
