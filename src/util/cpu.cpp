#include "luxel/util/cpu.hpp"

#include <atomic>

namespace luxel {

namespace {
std::atomic<bool> gAvx2Allowed{true};
}  // namespace

bool useAvx2() {
#if defined(__x86_64__)
    static const bool has = __builtin_cpu_supports("avx2");
    return has && gAvx2Allowed.load(std::memory_order_relaxed);
#else
    return false;
#endif
}

void allowAvx2(bool allowed) { gAvx2Allowed.store(allowed, std::memory_order_relaxed); }

}  // namespace luxel
