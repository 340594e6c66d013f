#pragma once
// What bounds one request: an HTTP status to answer with (ServeError), its deadline (checked at each stage
// boundary: the work is abandoned there) and the gate that admits renders (workers + a bounded queue).
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <string>

namespace luxel::serve {

// A request that ends with this status and one line (the JSON error body); retryAfter > 0 adds Retry-After.
class ServeError : public std::runtime_error {
public:
    ServeError(int status, const std::string& line, int retryAfter = 0)
        : std::runtime_error(line), status(status), retryAfter(retryAfter) {}
    int status;
    int retryAfter;
};

struct Deadline {
    std::chrono::steady_clock::time_point at;
    double seconds = 0;  // the limit, for the message
    static Deadline after(double seconds) {
        return {std::chrono::steady_clock::now() +
                    std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds)),
                seconds};
    }
    bool passed() const { return std::chrono::steady_clock::now() >= at; }
    // Throws ServeError 504 naming the stage the request got to, when the deadline has passed.
    void check(const char* stage) const;
};

// Admits at most `workers` renders at once and keeps at most `queue` more waiting; past that a request is
// refused at once (503 with Retry-After), and one that waits past its deadline gets 504. close() refuses
// everything new (a service shutting down).
class WorkGate {
public:
    WorkGate(int workers, int queue) : workers_(workers), queue_(queue) {}

    class Slot {
    public:
        explicit Slot(WorkGate* gate) : gate_(gate) {}
        Slot(Slot&& other) noexcept : gate_(other.gate_) { other.gate_ = nullptr; }
        Slot(const Slot&) = delete;
        Slot& operator=(const Slot&) = delete;
        ~Slot() {
            if (gate_) gate_->release();
        }

    private:
        WorkGate* gate_;
    };

    Slot enter(const Deadline& deadline);
    void close();
    int running() const;
    int waiting() const;

private:
    void release();
    mutable std::mutex mutex_;
    std::condition_variable freed_;
    int workers_, queue_;
    int running_ = 0, waiting_ = 0;
    bool closed_ = false;
};

}  // namespace luxel::serve
