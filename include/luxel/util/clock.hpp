#pragma once
// Wall-clock milliseconds for timings that are reported, never for results.
#include <chrono>

namespace luxel {

// Milliseconds since an arbitrary start (a steady clock): subtract two readings.
inline double nowMs() {
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace luxel
