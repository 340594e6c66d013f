// Quake 2 and Quake 3 load every image at power-of-two sides (GL_Upload32 / Upload32 with gl_round_down /
// r_roundImagesDown 1): each side goes down to the power of two below it, resampled by ResampleTexture.
#include "luxel/material/engine_resample.hpp"

#include <cstddef>
#include <vector>

namespace luxel {

namespace {

int32_t powerOfTwoBelow(int32_t side) {
    int32_t scaled = 1;
    while (scaled < side) scaled <<= 1;
    return scaled > side ? scaled >> 1 : scaled;
}

}  // namespace

RgbaImage resampleToPowerOfTwo(RgbaImage in) {
    const int32_t outWidth = powerOfTwoBelow(in.width), outHeight = powerOfTwoBelow(in.height);
    if (in.empty() || (outWidth == in.width && outHeight == in.height)) return in;  // moved, not copied
    // ResampleTexture: each output texel averages 4 input texels, at a quarter and three quarters of its
    // span across (16.16 fixed point) and down (double, truncated), as the engines do.
    const int64_t fracStep = int64_t(in.width) * 0x10000 / outWidth;
    std::vector<int32_t> column1(static_cast<size_t>(outWidth)), column2(static_cast<size_t>(outWidth));
    int64_t frac = fracStep >> 2;
    for (int32_t i = 0; i < outWidth; ++i, frac += fracStep) column1[size_t(i)] = int32_t(frac >> 16);
    frac = 3 * (fracStep >> 2);
    for (int32_t i = 0; i < outWidth; ++i, frac += fracStep) column2[size_t(i)] = int32_t(frac >> 16);
    RgbaImage out;
    out.width = outWidth, out.height = outHeight;
    out.rgba.resize(size_t(outWidth) * size_t(outHeight) * 4);
    uint8_t* o = out.rgba.data();
    for (int32_t i = 0; i < outHeight; ++i) {
        const auto row = [&](double at) { return int32_t(at * in.height / outHeight); };
        const uint8_t* row1 = in.rgba.data() + size_t(row(i + 0.25)) * size_t(in.width) * 4;
        const uint8_t* row2 = in.rgba.data() + size_t(row(i + 0.75)) * size_t(in.width) * 4;
        for (int32_t j = 0; j < outWidth; ++j) {
            const uint8_t* p1 = row1 + size_t(column1[size_t(j)]) * 4;
            const uint8_t* p2 = row1 + size_t(column2[size_t(j)]) * 4;
            const uint8_t* p3 = row2 + size_t(column1[size_t(j)]) * 4;
            const uint8_t* p4 = row2 + size_t(column2[size_t(j)]) * 4;
            for (int c = 0; c < 4; ++c) *o++ = uint8_t((p1[c] + p2[c] + p3[c] + p4[c]) >> 2);
        }
    }
    return out;
}

}  // namespace luxel
