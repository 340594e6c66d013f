#pragma once
// The service's counters in Prometheus' text exposition format: requests by status code, a latency
// histogram, and the gauges the caller adds when /metrics is asked for (queue, caches, maps).
#include <array>
#include <atomic>
#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "lru_cache.hpp"

namespace luxel::serve {

class Metrics {
public:
    void record(int status, double seconds);
    void countRender() { renders_.fetch_add(1); }
    void countUpload() { uploads_.fetch_add(1); }
    void countNotModified() { notModified_.fetch_add(1); }
    // A connection or request refused or cut off by a limit, by reason ("per_address_connections",
    // "connections", "rate_limit", "header_timeout", "body_too_slow", "uri_too_long", "headers_too_large", ...).
    void countRefusal(const std::string& reason);
    void connectionOpened();
    void connectionClosed() { open_.fetch_sub(1); }
    long connectionsOpen() const { return open_.load(); }
    // The counters and the histogram as exposition text (each family with HELP and TYPE lines).
    std::string text() const;

    static constexpr std::array<double, 12> kBuckets{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10};

private:
    mutable std::mutex mutex_;
    std::map<int, size_t> byStatus_;
    std::array<size_t, kBuckets.size()> buckets_{};  // cumulative on output, per bucket here
    size_t count_ = 0;
    double sum_ = 0;
    std::atomic<size_t> renders_{0}, uploads_{0}, notModified_{0};
    std::map<std::string, size_t> refusals_;  // under mutex_
    std::atomic<long> open_{0}, peakOpen_{0};
    std::atomic<size_t> accepted_{0};
};

// One gauge (or counter) family: "# HELP", "# TYPE" and its samples, `labels` given as {"cache=\"maps\"", value}.
std::string metricFamily(const std::string& name, const char* type, const std::string& help,
                         const std::map<std::string, double>& samples);

// The cache families (bytes, capacity, entries, hits, misses, hit ratio), one sample per named cache.
std::string cacheFamilies(const std::vector<std::pair<std::string, CacheFigures>>& caches);

}  // namespace luxel::serve
