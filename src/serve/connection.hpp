#pragma once
// One HTTP/1.1 connection of `luxel serve` on Boost.Beast / Asio: event-driven, so an open connection costs
// a timer and a small buffer, not a thread. Every phase has a deadline that trickled bytes cannot extend:
// the whole head within the head timeout (counted from the connection's start, or from the first byte of a
// keep-alive request), a body no slower than the minimum rate after its first second, an idle keep-alive
// connection within the idle timeout, an answer written within a time set by its size. Oversized request lines
// get 414, oversized headers 431, a stalled body 408 before it reaches any route. A connection that is cut off
// is closed gracefully: the answer, a FIN, and what the client still sends read and dropped for a moment, so
// the client reads the answer and then the end of the stream rather than a reset.
#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/thread_pool.hpp>
#include <chrono>
#include <string>

#include "client_limits.hpp"
#include "http_types.hpp"
#include "routes.hpp"

namespace luxel::serve {

struct ConnectionLimits {
    std::chrono::steady_clock::duration header{std::chrono::seconds(10)}, idle{std::chrono::seconds(5)};
    double minBodyBytesPerSecond = 16384;
    size_t requestLineBytes = 8192, headerBytes = 32768;
    size_t smallBodyBytes = 65536;  // largest body of a request that is not an upload
};

// What every connection shares with the server.
struct ConnectionShared {
    const ServeContext& context;
    ConnectionLimits limits;
    ConnectionCounts& perAddress;
    boost::asio::thread_pool& renderThreads;  // where routes' blocking work runs (as many as the gate's workers)
    std::atomic<int>& active;                 // requests read and not yet answered (SIGTERM waits for them)
    std::atomic<int>& bodies;                 // request bodies being received
    int maxBodies = 32;
    bool accessLog = true;
};

// Serves the requests of an accepted socket (bound to a strand) until the client or a deadline ends it.
// Its address has been admitted by shared.perAddress (released when the connection ends).
void serveConnection(boost::asio::ip::tcp::socket socket, ConnectionShared& shared, std::string address);
// Answers an accepted socket with `refusal` without reading a request, and closes it.
void refuseConnection(boost::asio::ip::tcp::socket socket, ConnectionShared& shared, std::string address,
                      HttpResponse refusal);

}  // namespace luxel::serve
