#include "request_limits.hpp"

#include <fmt/format.h>

namespace luxel::serve {

void Deadline::check(const char* stage) const {
    if (passed())
        throw ServeError(504, fmt::format("request took longer than its limit of {:g} s (abandoned {})", seconds, stage));
}

WorkGate::Ticket WorkGate::admit() {
    std::lock_guard lock(mutex_);
    if (closed_) throw ServeError(503, "the service is shutting down", 1);
    if (running_ + waiting_ >= workers_ + queue_)
        throw ServeError(503, fmt::format("busy: {} renders running and {} waiting (the queue's limit)", running_, waiting_), 1);
    ++waiting_;
    return Ticket(this);
}

WorkGate::Ticket WorkGate::enter(const Deadline& deadline) {
    Ticket ticket = admit();
    ticket.start(deadline);
    return ticket;
}

void WorkGate::Ticket::start(const Deadline& deadline) {
    std::unique_lock lock(gate_->mutex_);
    const bool admitted = !deadline.passed() &&
                          gate_->freed_.wait_until(lock, deadline.at, [&] { return gate_->running_ < gate_->workers_; });
    if (!admitted) {
        lock.unlock();
        deadline.check("while waiting for a worker");
        throw ServeError(504, "request took longer than its limit (abandoned while waiting for a worker)");
    }
    --gate_->waiting_;
    ++gate_->running_;
    running_ = true;
}

WorkGate::Ticket::~Ticket() {
    if (!gate_) return;
    {
        std::lock_guard lock(gate_->mutex_);
        --(running_ ? gate_->running_ : gate_->waiting_);
    }
    if (running_) gate_->freed_.notify_one();
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
