#include "allocation_probe.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {

std::atomic<bool> gWatching{false};
std::atomic<size_t> gLargest{0};

void* allocate(size_t bytes) {
    if (gWatching.load(std::memory_order_relaxed)) {
        size_t seen = gLargest.load(std::memory_order_relaxed);
        while (bytes > seen && !gLargest.compare_exchange_weak(seen, bytes, std::memory_order_relaxed)) {
        }
    }
    return std::malloc(bytes ? bytes : 1);
}

}  // namespace

// Replaced for the whole test binary (the standard allows one replacement per program): malloc and free, as
// libstdc++'s own do, with the size noted while a probe watches.
void* operator new(size_t bytes) {
    if (void* p = allocate(bytes)) return p;
    throw std::bad_alloc();
}
void* operator new[](size_t bytes) { return operator new(bytes); }
void* operator new(size_t bytes, const std::nothrow_t&) noexcept { return allocate(bytes); }
void* operator new[](size_t bytes, const std::nothrow_t&) noexcept { return allocate(bytes); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

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
