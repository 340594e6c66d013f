// The figures of a finished frame (see view_figures.hpp).
#include "luxel/render/view_figures.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace luxel {

ViewFigures viewFigures(const Image& image, const FrameSamples& samples) {
    ViewFigures f;
    const size_t pixels = size_t(image.width) * size_t(image.height);
    if (pixels == 0 || image.channels < 3) return f;
    const bool withSamples = samples.depth.size() == pixels && samples.surface.size() == pixels && samples.sky.size() == pixels;
    // The colours of every pixel, or of evenly spaced ones in a large frame (the share is the same to well under
    // 1%): counted by sorting, as a frame's colours are too many for a table.
    const size_t step = std::max<size_t>(1, pixels / (size_t(1) << 18));
    std::vector<uint32_t> colours;
    colours.reserve(pixels / step + 1);
    double luma = 0;
    size_t near = 0, covered = 0;
    for (size_t i = 0; i < pixels; ++i) {
        const float* p = image.pixels.data() + i * size_t(image.channels);
        const double r = std::clamp(double(p[0]), 0.0, 1.0), g = std::clamp(double(p[1]), 0.0, 1.0),
                     b = std::clamp(double(p[2]), 0.0, 1.0);
        luma += 0.2126 * r + 0.7152 * g + 0.0722 * b;
        if (i % step == 0) {
            auto byte = [](double v) { return uint32_t(std::lround(v * 255.0)); };  // as the PNG holds it
            colours.push_back((byte(r) << 16) | (byte(g) << 8) | byte(b));
        }
        if (!withSamples || samples.surface[i] < 0) continue;
        if (samples.depth[i] > 0 && samples.depth[i] < kNearDepth) ++near;
        if (!samples.sky[i]) ++covered;
    }
    std::sort(colours.begin(), colours.end());
    size_t run = 0, longest = 0;
    for (size_t i = 0; i < colours.size(); ++i) {
        run = i > 0 && colours[i] == colours[i - 1] ? run + 1 : 1;
        longest = std::max(longest, run);
    }
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
