// R_LevelShot's 4 x 3 point-sample reduction and the levelshots preset.
#include "luxel/batch/levelshots.hpp"

#include "luxel/util/error.hpp"

namespace luxel {

ByteImage levelshotReduce(const ByteImage& frame, int size) {
    if (size < 1) throw UsageError("levelshot size must be at least 1");
    if (frame.width < 1 || frame.height < 1 || frame.channels < 3)
        throw UsageError("levelshot: the frame must be an RGB image");
    ByteImage out;
    out.width = out.height = size;
    out.channels = 3;
    out.bytes.resize(size_t(size) * size_t(size) * 3);
    // Float scales and float products, as the engine computes them: at sizes whose scale is not exact in
    // binary, a double product could land on the other side of an integer and pick another sample.
    const float xScale = float(frame.width) / (float(size) * 4.0f);
    const float yScale = float(frame.height) / (float(size) * 3.0f);
    const size_t stride = size_t(frame.width) * size_t(frame.channels);
    for (int y = 0; y < size; ++y) {      // counted from the bottom, as glReadPixels returns rows
        for (int x = 0; x < size; ++x) {
            int sum[3] = {0, 0, 0};
            for (int yy = 0; yy < 3; ++yy) {
                const int fromBottom = int(float(y * 3 + yy) * yScale);
                const size_t row = size_t(frame.height - 1 - fromBottom);
                for (int xx = 0; xx < 4; ++xx) {
                    const size_t column = size_t(int(float(x * 4 + xx) * xScale));
                    const uint8_t* src = frame.bytes.data() + row * stride + column * size_t(frame.channels);
                    for (int c = 0; c < 3; ++c) sum[c] += src[c];
                }
            }
            // The TGA's rows are bottom-up too: output row y from the bottom is row size-1-y from the top.
            uint8_t* dst = out.bytes.data() + (size_t(size - 1 - y) * size_t(size) + size_t(x)) * 3;
            for (int c = 0; c < 3; ++c) dst[c] = uint8_t(sum[c] / 12);
        }
    }
    return out;
}

SceneView levelshotView(int size) {
    SceneView v;
    v.name = "levelshot";
    v.camera = "intermission";
    v.fov = 90;  // the game's intermission view is 90 degrees across whatever cg_fov says
    v.width = 640;
    v.height = 480;
    v.mode = "lit";
    v.look = "engine";
    v.levelshot = size;
    return v;
}

SceneOutput levelshotOutput() {
    SceneOutput o;
    o.pattern = "levelshots/{map}.{ext}";
    o.format = "jpg";
    o.archive = "levelshots.pk3";
    return o;
}

}  // namespace luxel
