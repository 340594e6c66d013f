// The figures of a finished frame (see view_figures.hpp).
#include "luxel/render/view_figures.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace luxel {

namespace {

// How often the most common of these 24-bit colours occurs. Too many colours for one table of counts, and sorting
// them took as long as drawing the frame: they are grouped by their top 12 bits (a counting sort's one pass), then
// each group's colours counted in a table of their low 12 bits.
size_t mostCommonCount(const std::vector<uint32_t>& colours) {
    constexpr uint32_t kGroups = 1u << 12;
    std::vector<uint32_t> start(kGroups + 1, 0);
    for (uint32_t c : colours) ++start[(c >> 12) + 1];
    for (uint32_t g = 0; g < kGroups; ++g) start[g + 1] += start[g];
    std::vector<uint32_t> grouped(colours.size());
    std::vector<uint32_t> at(start.begin(), start.end() - 1);
    for (uint32_t c : colours) grouped[at[c >> 12]++] = c & (kGroups - 1);
    std::vector<uint32_t> count(kGroups, 0);
    size_t most = 0;
    for (uint32_t g = 0; g < kGroups; ++g) {
        for (uint32_t i = start[g]; i < start[g + 1]; ++i) most = std::max<size_t>(most, ++count[grouped[i]]);
        for (uint32_t i = start[g]; i < start[g + 1]; ++i) count[grouped[i]] = 0;
    }
    return most;
}

}  // namespace

ViewFigures viewFigures(const ByteImage& image, const FrameSamples& samples) {
    ViewFigures f;
    const size_t pixels = size_t(image.width) * size_t(image.height);
    if (pixels == 0 || image.channels < 3) return f;
    const bool withSamples = samples.depth.size() == pixels && samples.surface.size() == pixels && samples.sky.size() == pixels;
    // The colours of every pixel, or of evenly spaced ones in a large frame (the share is the same to well under
    // 1%).
    const size_t step = std::max<size_t>(1, pixels / (size_t(1) << 18));
    std::vector<uint32_t> colours;
    colours.reserve(pixels / step + 1);
    double luma = 0;
    size_t near = 0, covered = 0;
    for (size_t i = 0; i < pixels; ++i) {
        const uint8_t* p = image.bytes.data() + i * size_t(image.channels);
        luma += (0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]) / 255.0;
        if (i % step == 0) colours.push_back((uint32_t(p[0]) << 16) | (uint32_t(p[1]) << 8) | p[2]);
        if (!withSamples || samples.surface[i] < 0) continue;
        if (samples.depth[i] > 0 && samples.depth[i] < kNearDepth) ++near;
        if (!samples.sky[i]) ++covered;
    }
    const size_t longest = mostCommonCount(colours);
    const double n = double(pixels);
    f.brightness = luma / n;
    f.nearShare = double(near) / n;
    f.oneColour = double(longest) / double(colours.size());
    f.coverage = double(covered) / n;
    return f;
}

bool acceptableView(const ViewFigures& f) {
    return f.brightness >= kMinBrightness && f.nearShare <= kMaxNearShare && f.oneColour <= kMaxOneColour;
}

}  // namespace luxel
