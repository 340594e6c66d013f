// keepFrameMemory: frame after frame, the set-up buffers a frame frees are taken again by the next one instead of
// being handed back to the kernel and faulted in anew.
#include <catch2/catch.hpp>
#include <malloc.h>
#include <sys/resource.h>

#include <algorithm>

#include "luxel/render/render.hpp"
#include "luxel/util/frame_heap.hpp"
#include "luxel/util/sanitizers.hpp"
#include "support/render_fixtures.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

long minorFaults() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt;
}

}  // namespace

TEST_CASE("keepFrameMemory: a repeated frame faults in almost no new pages", "[render]") {
    if (LUXEL_ASAN) {
        WARN("SKIPPED: AddressSanitizer's allocator (quarantine, no mallopt) replaces glibc's here");
        return;
    }
    // A floor of 40,000 small quads (80,000 triangles): each frame's set-up allocates and frees megabytes.
    RenderScene s;
    for (int y = 0; y < 200; ++y)
        for (int x = 0; x < 200; ++x) {
            const float x0 = float(x - 100) * 8, y0 = float(y - 100) * 8;
            addColoredPolygon(s, {{x0, y0, 0}, {x0 + 8, y0, 0}, {x0 + 8, y0 + 8, 0}, {x0, y0 + 8, 0}}, {0, 0, 1},
                              {float(x % 7) / 7, float(y % 5) / 5, 0.5f});
        }
    const Camera cam = makeCamera({0, 0, 600}, {60, 0, 0}, 960, 540);
    Image image;
    FrameStats stats;
    // The fewest faults of three frames after three that settle the heap. The fewest: the counter is the whole
    // process's, and in a full test run a thread of the pool touching fresh stack or arena pages now and then
    // adds tens of faults to one frame (up to 140 seen), which are not the frame's own.
    auto repeatedFrameFaults = [&] {
        for (int i = 0; i < 3; ++i) renderSceneInto(s, cam, linearOptions(), image, &stats);
        long fewest = -1;
        for (int i = 0; i < 3; ++i) {
            const long before = minorFaults();
            renderSceneInto(s, cam, linearOptions(), image, &stats);
            const long faults = minorFaults() - before;
            fewest = fewest < 0 ? faults : std::min(fewest, faults);
        }
        return fewest;
    };
    // glibc's thresholds at their starting values, where a process's history has not raised them (as in luxel
    // bench on oasago2): a freed top past 128 KiB is trimmed, anything larger is mmapped.
    mallopt(M_MMAP_THRESHOLD, 128 << 10);
    mallopt(M_TRIM_THRESHOLD, 128 << 10);
    const long fresh = repeatedFrameFaults();
    REQUIRE(stats.trianglesDrawn > 20000);
    keepFrameMemory();
    const long kept = repeatedFrameFaults();
    INFO("minor page faults in a repeated frame: " << fresh << " with the starting thresholds, " << kept << " kept");
    // The frame's set-up is megabytes (thousands of 4 KiB pages); a few stray pages are allowed.
    CHECK(fresh > 1000);
    CHECK(kept < 100);
}
