#pragma once
// Counter-based random numbers for the bakers: every sample's stream is seeded from (seed, its index), so a
// result never depends on which thread computed which sample.
#include <cstdint>

namespace luxel {

// splitmix64: advances `state` and returns the next 64 random bits.
inline uint64_t splitmix64(uint64_t& state) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// A float in [0, 1) from the stream (24 random bits).
inline float unitFloat(uint64_t& state) { return float(splitmix64(state) >> 40) * (1.0f / 16777216.0f); }

}  // namespace luxel
