#pragma once
// Per-client limits of the service, by remote address: how many connections one address may hold open, and
// a token bucket of renders (requests that draw: cache misses and uploads; cached pictures, 304s, listings and
// probes are not counted). Thread-safe; time is passed in, so tests step it.
#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

namespace luxel::serve {

class ConnectionCounts {
public:
    explicit ConnectionCounts(int perAddress) : perAddress_(perAddress) {}
    // Counts a new connection from `address`; false (nothing counted) when the address holds its limit.
    bool open(const std::string& address);
    void close(const std::string& address);
    int openFrom(const std::string& address) const;

private:
    const int perAddress_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, int> open_;
};

class RenderRateLimit {
public:
    using Clock = std::chrono::steady_clock;
    // `perSecond` renders a second per address, bursts of `burst`; perSecond <= 0: no limit.
    RenderRateLimit(double perSecond, double burst);
    bool enabled() const { return perSecond_ > 0; }
    // Takes a token for `address`; when none is left, false and the whole seconds until one is.
    bool take(const std::string& address, Clock::time_point now, int& retryAfterSeconds);
    size_t addresses() const;

private:
    struct Bucket {
        double tokens = 0;
        Clock::time_point at;
    };
    const double perSecond_, burst_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, Bucket> buckets_;
    Clock::time_point lastSweep_{};
};

}  // namespace luxel::serve
