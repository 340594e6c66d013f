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
// refused at once (503 with Retry-After), and one that waits past its deadline gets 504. Admission (admit) and
// the start of the work (Ticket::start) are apart, so a request can be admitted on a network thread and run
// when one of the `workers` render threads takes it: the same few threads draw every picture and keep their
// memory warm. close() refuses everything new (a service shutting down); what was admitted still runs.
class WorkGate {
public:
    WorkGate(int workers, int queue) : workers_(workers), queue_(queue) {}

    // A place in the gate: waiting from admit() until start(), then running; given back when destroyed.
    class Ticket {
    public:
        Ticket() = default;
        explicit Ticket(WorkGate* gate) : gate_(gate) {}
        Ticket(Ticket&& other) noexcept : gate_(other.gate_), running_(other.running_) { other.gate_ = nullptr; }
        Ticket(const Ticket&) = delete;
        Ticket& operator=(const Ticket&) = delete;
        ~Ticket();
        // Takes a running place, waiting for one until the deadline (no wait when the render threads number the
        // workers). Throws ServeError 504 when the deadline passed while the ticket waited.
        void start(const Deadline& deadline);

    private:
        WorkGate* gate_ = nullptr;
        bool running_ = false;
    };

    // A waiting place, or ServeError 503 (every worker busy and the queue full, or the service shutting down).
    Ticket admit();
    // admit() and start() on the caller's own thread.
    Ticket enter(const Deadline& deadline);
    void close();
    int running() const;
    int waiting() const;

private:
    mutable std::mutex mutex_;
    std::condition_variable freed_;
    int workers_, queue_;
    int running_ = 0, waiting_ = 0;
    bool closed_ = false;
};

}  // namespace luxel::serve
