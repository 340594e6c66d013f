#pragma once
// Plain TCP connections for the server tests that a well-behaved HTTP client cannot make: from a chosen loopback
// source address (the per-address limits), sending a byte at a time or nothing (slow and silent clients), and
// reading exactly what the server sends until it closes.
#include <chrono>
#include <string>

namespace luxel::test {

class RawConnection {
public:
    // Connects to 127.0.0.1:port from `source` (any 127.x.y.z address); REQUIREs that it connects.
    RawConnection(const std::string& source, int port);
    ~RawConnection();
    RawConnection(RawConnection&& other) noexcept;
    RawConnection(const RawConnection&) = delete;
    RawConnection& operator=(const RawConnection&) = delete;
    RawConnection& operator=(RawConnection&& other) noexcept;

    int fd() const { return fd_; }
    // Sends all of `bytes`; false when the server has closed the connection.
    bool send(const std::string& bytes);
    // Reads until the server closes the connection or `limit` passes: what arrived. `closed` says which:
    // true for an orderly end of the stream (read returned 0), false for a reset or the limit.
    std::string readToEnd(std::chrono::milliseconds limit, bool& closed);

private:
    int fd_ = -1;
};

// A whole request on a new connection from `source` with "Connection: close": the status code and the body
// (-1 when no answer came within `limit`).
struct RawAnswer {
    int status = -1;
    std::string head, body;
};
RawAnswer rawRequest(const std::string& source, int port, const std::string& request,
                     std::chrono::milliseconds limit = std::chrono::seconds(30));

}  // namespace luxel::test
