#include "allocation_probe.hpp"

#include <atomic>
#include <cstdint>
#include <cstdlib>

#include "luxel/util/sanitizers.hpp"

#if LUXEL_ASAN
#include <sanitizer/allocator_interface.h>
#endif

namespace {

std::atomic<bool> gWatching{false};
std::atomic<size_t> gLargest{0};

void note(size_t bytes) {
    if (!gWatching.load(std::memory_order_relaxed)) return;
    size_t seen = gLargest.load(std::memory_order_relaxed);
    while (bytes > seen && !gLargest.compare_exchange_weak(seen, bytes, std::memory_order_relaxed)) {
    }
}

}  // namespace

// Every malloc of the process is seen, C libraries' (libpng's chunk buffers) as well as operator new's, which
// libstdc++ makes through malloc.
#if LUXEL_ASAN
// AddressSanitizer's allocator is the process's malloc: its hook is called for each allocation.
namespace {
void onMalloc(const volatile void*, size_t bytes) { note(bytes); }
void onFree(const volatile void*) {}
const int gHooked = __sanitizer_install_malloc_and_free_hooks(onMalloc, onFree);
}  // namespace
#else
// The executable's definitions take the place of glibc's for every library loaded; glibc's own allocator is
// still the one that allocates (its exported __libc_ entry points), so free and the rest stay glibc's.
extern "C" {
void* __libc_malloc(size_t bytes);
void* __libc_calloc(size_t count, size_t bytes);
void* __libc_realloc(void* p, size_t bytes);

void* malloc(size_t bytes) {
    note(bytes);
    return __libc_malloc(bytes);
}
void* calloc(size_t count, size_t bytes) {
    size_t total;
    note(__builtin_mul_overflow(count, bytes, &total) ? SIZE_MAX : total);
    return __libc_calloc(count, bytes);
}
void* realloc(void* p, size_t bytes) {
    note(bytes);
    return __libc_realloc(p, bytes);
}
}
#endif

namespace luxel::test {

size_t largestAllocationDuring(const std::function<void()>& fn) {
    gLargest.store(0);
    gWatching.store(true);
    try {
        fn();
    } catch (...) {
        gWatching.store(false);
        throw;
    }
    gWatching.store(false);
    return gLargest.load();
}

}  // namespace luxel::test
