#include "luxel/util/frame_heap.hpp"

#include <malloc.h>

namespace luxel {

void keepFrameMemory() {
    // Both are needed: setting either one turns off glibc's own adjustment of the other.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

}  // namespace luxel
