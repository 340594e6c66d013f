#include "luxel/util/huge_page_heap.hpp"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

namespace luxel {

void growHeapOnHugePages(size_t bytes) {
    // glibc caps the mmap threshold at 32 MiB on 64-bit systems (DEFAULT_MMAP_THRESHOLD_MAX).
    constexpr size_t kMaxThreshold = size_t(32) << 20;
    const size_t threshold = bytes < kMaxThreshold ? bytes : kMaxThreshold;
    if (mallopt(M_MMAP_THRESHOLD, int(threshold)) == 0 || mallopt(M_TOP_PAD, int(bytes)) == 0 ||
        mallopt(M_TRIM_THRESHOLD, int(2 * bytes)) == 0 || mallopt(M_ARENA_MAX, 1) == 0)
        return;
    const uintptr_t before = reinterpret_cast<uintptr_t>(sbrk(0));
    // More than the heap has free, under the threshold: the heap grows by it and the top pad, and keeps it after
    // the free (under the trim threshold).
    void* volatile grow = std::malloc(threshold / 2);  // volatile: the compiler may drop an unused malloc and free
    const uintptr_t after = reinterpret_cast<uintptr_t>(sbrk(0));
    std::free(grow);
    const uintptr_t page = uintptr_t(sysconf(_SC_PAGESIZE));
    const uintptr_t start = (before + page - 1) & ~(page - 1);
    if (after > start) madvise(reinterpret_cast<void*>(start), after - start, MADV_HUGEPAGE);  // advice: failure is harmless
}

}  // namespace luxel
