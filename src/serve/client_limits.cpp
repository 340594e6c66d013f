#include "client_limits.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace luxel::serve {

bool ConnectionCounts::open(const std::string& address) {
    std::lock_guard lock(mutex_);
    int& n = open_[address];
    if (n >= perAddress_) return false;
    ++n;
    return true;
}

void ConnectionCounts::close(const std::string& address) {
    std::lock_guard lock(mutex_);
    auto it = open_.find(address);
    if (it == open_.end()) return;
    if (--it->second <= 0) open_.erase(it);  // the table holds only addresses with connections open
}

int ConnectionCounts::openFrom(const std::string& address) const {
    std::lock_guard lock(mutex_);
    auto it = open_.find(address);
    return it == open_.end() ? 0 : it->second;
}

RenderRateLimit::RenderRateLimit(double perSecond, double burst) : perSecond_(perSecond), burst_(std::max(1.0, burst)) {}

bool RenderRateLimit::take(const std::string& address, Clock::time_point now, int& retryAfterSeconds) {
    if (!enabled()) return true;
    std::lock_guard lock(mutex_);
    // Buckets full again are the same as no bucket: drop them now and then, so the table holds only
    // addresses seen within the last refill time (an attacker cycling addresses cannot grow it without bound).
    const auto refill = std::chrono::duration<double>(burst_ / perSecond_);
    if (now - lastSweep_ > refill) {
        lastSweep_ = now;
        std::erase_if(buckets_, [&](const auto& item) { return now - item.second.at > refill; });
    }
    auto [it, fresh] = buckets_.try_emplace(address, Bucket{burst_, now});
    Bucket& b = it->second;
    if (!fresh) {
        const double elapsed = std::chrono::duration<double>(now - b.at).count();
        b.tokens = std::min(burst_, b.tokens + std::max(0.0, elapsed) * perSecond_);
        b.at = now;
    }
    if (b.tokens >= 1) {
        b.tokens -= 1;
        return true;
    }
    retryAfterSeconds = std::max(1, int(std::ceil((1 - b.tokens) / perSecond_)));
    return false;
}

size_t RenderRateLimit::addresses() const {
    std::lock_guard lock(mutex_);
    return buckets_.size();
}

}  // namespace luxel::serve
