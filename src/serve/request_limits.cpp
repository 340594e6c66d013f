#include "request_limits.hpp"

#include <fmt/format.h>

namespace luxel::serve {

void Deadline::check(const char* stage) const {
    if (passed())
        throw ServeError(504, fmt::format("request took longer than its limit of {:g} s (abandoned {})", seconds, stage));
}

WorkGate::Slot WorkGate::enter(const Deadline& deadline) {
    std::unique_lock lock(mutex_);
    if (closed_) throw ServeError(503, "the service is shutting down", 1);
    if (running_ < workers_) {
        ++running_;
        return Slot(this);
    }
    if (waiting_ >= queue_)
        throw ServeError(503, fmt::format("busy: {} renders running and {} waiting (the queue's limit)", running_, waiting_), 1);
    ++waiting_;
    // Requests already waiting when the service starts to shut down are in flight: they still run.
    const bool admitted = freed_.wait_until(lock, deadline.at, [&] { return running_ < workers_; });
    --waiting_;
    if (!admitted) {
        lock.unlock();
        deadline.check("while waiting for a worker");
        throw ServeError(504, "request took longer than its limit (abandoned while waiting for a worker)");
    }
    ++running_;
    return Slot(this);
}

void WorkGate::release() {
    {
        std::lock_guard lock(mutex_);
        --running_;
    }
    freed_.notify_one();
}

void WorkGate::close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
}

int WorkGate::running() const {
    std::lock_guard lock(mutex_);
    return running_;
}

int WorkGate::waiting() const {
    std::lock_guard lock(mutex_);
    return waiting_;
}

}  // namespace luxel::serve
