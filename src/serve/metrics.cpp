#include "metrics.hpp"

#include <fmt/format.h>

namespace luxel::serve {

void Metrics::record(int status, double seconds) {
    std::lock_guard lock(mutex_);
    ++byStatus_[status];
    ++count_;
    sum_ += seconds;
    for (size_t i = 0; i < kBuckets.size(); ++i)
        if (seconds <= kBuckets[i]) {
            ++buckets_[i];
            break;
        }
}

void Metrics::countRefusal(const std::string& reason) {
    std::lock_guard lock(mutex_);
    ++refusals_[reason];
}

void Metrics::connectionOpened() {
    accepted_.fetch_add(1);
    const long now = open_.fetch_add(1) + 1;
    long peak = peakOpen_.load();
    while (now > peak && !peakOpen_.compare_exchange_weak(peak, now)) {
    }
}

std::string metricFamily(const std::string& name, const char* type, const std::string& help,
                         const std::map<std::string, double>& samples) {
    std::string out = fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
    for (const auto& [labels, value] : samples)
        out += fmt::format("{}{} {}\n", name, labels.empty() ? "" : "{" + labels + "}", value);
    return out;
}

std::string cacheFamilies(const std::vector<std::pair<std::string, CacheFigures>>& caches) {
    struct Family {
        const char *name, *type, *help;
        double (*value)(const CacheFigures&);
    };
    static constexpr Family families[] = {
        {"luxel_cache_bytes", "gauge", "Bytes each cache holds.", [](const CacheFigures& c) { return double(c.bytes); }},
        {"luxel_cache_capacity_bytes", "gauge", "Each cache's configured bound.",
         [](const CacheFigures& c) { return double(c.capacity); }},
        {"luxel_cache_entries", "gauge", "Entries each cache holds.", [](const CacheFigures& c) { return double(c.entries); }},
        {"luxel_cache_hits_total", "counter", "Lookups that found their entry.",
         [](const CacheFigures& c) { return double(c.hits); }},
        {"luxel_cache_misses_total", "counter", "Lookups that did not.", [](const CacheFigures& c) { return double(c.misses); }},
        {"luxel_cache_hit_ratio", "gauge", "Hits over lookups since the start.",
         [](const CacheFigures& c) { return c.hits + c.misses ? double(c.hits) / double(c.hits + c.misses) : 0.0; }},
    };
    std::string out;
    for (const Family& family : families) {
        std::map<std::string, double> samples;
        for (const auto& [cache, figures] : caches) samples[fmt::format("cache=\"{}\"", cache)] = family.value(figures);
        out += metricFamily(family.name, family.type, family.help, samples);
    }
    return out;
}

std::string Metrics::text() const {
    std::lock_guard lock(mutex_);
    std::map<std::string, double> codes;
    for (const auto& [status, n] : byStatus_) codes[fmt::format("code=\"{}\"", status)] = double(n);
    std::string out = metricFamily("luxel_http_requests_total", "counter", "HTTP requests answered, by status code.", codes);
    out += "# HELP luxel_http_request_duration_seconds Time from a request's arrival to its answer.\n"
           "# TYPE luxel_http_request_duration_seconds histogram\n";
    size_t cumulative = 0;
    for (size_t i = 0; i < kBuckets.size(); ++i) {
        cumulative += buckets_[i];
        out += fmt::format("luxel_http_request_duration_seconds_bucket{{le=\"{}\"}} {}\n", kBuckets[i], cumulative);
    }
    out += fmt::format("luxel_http_request_duration_seconds_bucket{{le=\"+Inf\"}} {}\n", count_);
    out += fmt::format("luxel_http_request_duration_seconds_sum {}\n", sum_);
    out += fmt::format("luxel_http_request_duration_seconds_count {}\n", count_);
    out += metricFamily("luxel_renders_total", "counter", "Views rendered (cache misses that were drawn).",
                        {{"", double(renders_.load())}});
    out += metricFamily("luxel_uploads_total", "counter", "Maps uploaded to POST /render.", {{"", double(uploads_.load())}});
    out += metricFamily("luxel_not_modified_total", "counter", "Requests answered 304 from If-None-Match.",
                        {{"", double(notModified_.load())}});
    // Every reason is listed from the start (at 0), so a dashboard's rate() has a series before the first refusal.
    std::map<std::string, double> refused;
    for (const char* reason : {"per_address_connections", "connections", "rate_limit", "header_timeout",
                               "body_too_slow", "write_timeout", "uri_too_long", "headers_too_large", "bad_request",
                               "body_too_large"})
        refused[fmt::format("reason=\"{}\"", reason)] = 0;
    for (const auto& [reason, n] : refusals_) refused[fmt::format("reason=\"{}\"", reason)] = double(n);
    out += metricFamily("luxel_http_refused_total", "counter",
                        "Connections and requests refused or cut off by a limit or deadline, by reason.", refused);
    out += metricFamily("luxel_http_connections_open", "gauge", "HTTP connections open now.", {{"", double(open_.load())}});
    out += metricFamily("luxel_http_connections_open_peak", "gauge", "Most HTTP connections open at once since the start.",
                        {{"", double(peakOpen_.load())}});
    out += metricFamily("luxel_http_connections_accepted_total", "counter", "HTTP connections accepted.",
                        {{"", double(accepted_.load())}});
    return out;
}

}  // namespace luxel::serve
