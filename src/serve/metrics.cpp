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

std::string metricFamily(const std::string& name, const char* type, const std::string& help,
                         const std::map<std::string, double>& samples) {
    std::string out = fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
    for (const auto& [labels, value] : samples)
        out += fmt::format("{}{} {}\n", name, labels.empty() ? "" : "{" + labels + "}", value);
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
    return out;
}

}  // namespace luxel::serve
