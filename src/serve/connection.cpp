#include "connection.hpp"

#include <fmt/format.h>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/http/span_body.hpp>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>

#include "luxel/util/text.hpp"
#include "request_target.hpp"

namespace luxel::serve {
namespace {

namespace net = boost::asio;
namespace http = boost::beast::http;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;
using boost::system::error_code;

// How long a closing connection's late bytes are read and dropped (a refused body still on its way, as nginx's
// lingering close does): the client's send completes and it reads the answer.
constexpr auto kLinger = std::chrono::seconds(2);
constexpr auto kWriteBase = std::chrono::seconds(10);

// The request line's length as it was sent: method, target, two spaces, "HTTP/1.1" and CRLF.
size_t requestLineBytes(const http::request<http::string_body>& head) {
    return head.method_string().size() + head.target().size() + 12;
}

Clock::duration seconds(double s) { return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s)); }

class Connection : public std::enable_shared_from_this<Connection> {
public:
    Connection(tcp::socket socket, ConnectionShared& shared, std::string address, bool admitted)
        : socket_(std::move(socket)), timer_(socket_.get_executor()), shared_(shared), address_(std::move(address)),
          admitted_(admitted) {
        shared_.context.metrics.connectionOpened();
    }
    ~Connection() {
        if (admitted_) shared_.perAddress.close(address_);
        if (readingBody_) shared_.bodies.fetch_sub(1);
        if (inFlight_) shared_.active.fetch_sub(1);
        shared_.context.metrics.connectionClosed();
    }

    void start() {
        arm(Clock::now() + shared_.limits.header, "header_timeout");
        readHead();
    }

    void refuse(HttpResponse refusal) {
        closeAfter_ = true;
        respond(std::move(refusal));
    }

private:
    // The deadline of the phase begun now; when it passes, the pending operation is cancelled and `timedOut_`
    // says which deadline it was. A later arm() makes earlier timers' firings stale.
    void arm(Clock::time_point at, const char* reason) {
        timedOut_ = nullptr;
        const unsigned generation = ++generation_;
        timer_.expires_at(at);
        timer_.async_wait([self = shared_from_this(), generation, reason](error_code ec) {
            if (ec || generation != self->generation_) return;
            self->timedOut_ = reason;
            error_code ignored;
            self->socket_.cancel(ignored);
        });
    }
    void disarm() {
        ++generation_;
        timer_.cancel();
    }
    bool timedOut(const error_code& ec) const { return ec == net::error::operation_aborted && timedOut_; }

    // A keep-alive connection: the next request's first byte within the idle timeout, then its head within the
    // head timeout.
    void waitForRequest() {
        if (buffer_.size() > 0) return start();  // a pipelined request is here already
        arm(Clock::now() + shared_.limits.idle, "idle_timeout");
        socket_.async_wait(tcp::socket::wait_read, [self = shared_from_this()](error_code ec) {
            // Idle past the timeout: a FIN, not a reset, in case a request is crossing it on the wire.
            if (self->timedOut(ec)) return self->closeGracefully();
            if (ec) return self->close();
            self->start();
        });
    }

    void readHead() {
        parser_.emplace();
        parser_->header_limit(uint32_t(shared_.limits.requestLineBytes + shared_.limits.headerBytes));
        // The parser checks a Content-Length against its body limit as the head ends, before the route is known:
        // the route's limit is set once the head is read (onHead), which answers a length past it with 413. (Not
        // boost::none: Boost 1.74 compares a length with an empty limit as greater.)
        parser_->body_limit(std::numeric_limits<std::uint64_t>::max());
        http::async_read_header(socket_, buffer_, *parser_,
                                [self = shared_from_this()](error_code ec, size_t n) { self->onHead(ec, n); });
    }

    void onHead(error_code ec, size_t headBytes) {
        if (timedOut(ec)) {
            shared_.context.metrics.countRefusal("header_timeout");
            // A client that sent nothing is closed without an answer; one that began a request gets 408.
            if (!parser_->got_some()) return closeGracefully();
            return refuse(errorResponse(408, fmt::format("the request head did not arrive within {:g} s",
                                                         std::chrono::duration<double>(shared_.limits.header).count())));
        }
        if (ec == http::error::header_limit) return refuse(oversizedHead());
        if (ec) return readFailed(ec, "bad request: ");
        const auto& head = parser_->get();
        const size_t lineBytes = requestLineBytes(head);
        if (lineBytes > shared_.limits.requestLineBytes) return refuse(uriTooLong());
        if (headBytes > lineBytes + shared_.limits.headerBytes) return refuse(headersTooLarge());

        request_ = HttpRequest();
        request_.method = std::string(head.method_string());
        const std::string target(head.target());
        RequestTarget parsed = parseRequestTarget(target);
        request_.path = std::move(parsed.path);
        request_.params = std::move(parsed.params);
        for (const auto& field : head) request_.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
        request_.remoteAddress = address_;
        keepAlive_ = head.keep_alive();

        if (parser_->is_done()) return dispatch();
        const bool upload = takesUpload(request_.method, request_.path);
        const size_t limit = upload ? shared_.context.options.uploadBytes : shared_.limits.smallBodyBytes;
        if (const auto length = parser_->content_length(); length && *length > limit) {
            shared_.context.metrics.countRefusal("body_too_large");
            return refuse(bodyTooLarge(shared_.context.options, upload));
        }
        // Bodies are held in memory while they arrive: at most --uploads of them at once.
        if (shared_.bodies.fetch_add(1) >= shared_.maxBodies) {
            shared_.bodies.fetch_sub(1);
            return refuse(errorResponse(503, fmt::format("busy: {} request bodies are being received (the --uploads limit)",
                                                         shared_.maxBodies), 1));
        }
        readingBody_ = true;
        parser_->body_limit(limit);
        bodyStart_ = Clock::now();
        if (boost::beast::iequals(head[http::field::expect], "100-continue")) {
            static const std::string kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
            arm(Clock::now() + kWriteBase, "write_timeout");
            return net::async_write(socket_, net::buffer(kContinue), [self = shared_from_this()](error_code ec, size_t) {
                if (ec) return self->close();
                self->bodyStart_ = Clock::now();
                self->readBody();
            });
        }
        readBody();
    }

    // By any moment past the body's first second, at least the minimum rate times the seconds since it began
    // must have arrived: the next bytes are due when what has arrived stops covering that.
    void readBody() {
        const double rate = shared_.limits.minBodyBytesPerSecond;
        const size_t received = parser_->get().body().size();
        arm(rate > 0 ? bodyStart_ + std::chrono::seconds(1) + seconds(double(received) / rate)
                     : bodyStart_ + seconds(shared_.context.options.requestSeconds),
            "body_too_slow");
        http::async_read_some(socket_, buffer_, *parser_, [self = shared_from_this()](error_code ec, size_t) { self->onBody(ec); });
    }

    void onBody(error_code ec) {
        if (timedOut(ec)) {
            shared_.context.metrics.countRefusal("body_too_slow");
            return refuse(errorResponse(408, fmt::format("the request body arrived slower than {:g} KiB/s (the minimum "
                                                         "body rate); {} bytes in {:.1f} s",
                                                         shared_.limits.minBodyBytesPerSecond / 1024, parser_->get().body().size(),
                                                         std::chrono::duration<double>(Clock::now() - bodyStart_).count())));
        }
        if (ec == http::error::body_limit) {
            shared_.context.metrics.countRefusal("body_too_large");
            return refuse(bodyTooLarge(shared_.context.options, takesUpload(request_.method, request_.path)));
        }
        if (ec) return readFailed(ec, "bad request body: ");
        if (!parser_->is_done()) return readBody();
        readingBody_ = false;
        shared_.bodies.fetch_sub(1);
        dispatch();
    }

    // A read that failed otherwise than by a deadline or a limit: the client went away (closed, reset, or the
    // stream ended mid-message), or sent what HTTP cannot parse (400).
    void readFailed(const error_code& ec, const char* what) {
        if (ec == http::error::end_of_stream || ec == http::error::partial_message || ec == net::error::eof ||
            ec == net::error::connection_reset || ec == net::error::operation_aborted)
            return close();
        shared_.context.metrics.countRefusal("bad_request");
        refuse(errorResponse(400, what + ec.message()));
    }

    void dispatch() {
        disarm();
        request_.body = std::move(parser_->get().body());
        parser_.reset();
        inFlight_ = true;
        shared_.active.fetch_add(1);
        requestStart_ = Clock::now();
        logTarget_ = request_.path;
        if (!request_.params.empty()) {
            logTarget_ += '?';
            for (const auto& [k, v] : request_.params) logTarget_ += k + "=" + v + "&";
            logTarget_.pop_back();
        }
        headOnly_ = request_.method == "HEAD";
        const std::string method = request_.method;
        Answer answer;
        try {
            answer = route(shared_.context, std::move(request_));
        } catch (const std::exception& e) {  // an exception must not leave a network thread
            answer.now = errorResponse(500, std::string("internal error: ") + e.what());
        }
        request_.method = method;
        if (!answer.later) return respond(std::move(answer.now));
        net::post(shared_.renderThreads, [self = shared_from_this(), work = std::move(answer.later)] {
            HttpResponse response;
            try {
                response = work();
            } catch (const std::exception& e) {
                response = errorResponse(500, std::string("internal error: ") + e.what());
            }
            // Written from this thread rather than posted back to the strand: a network thread need not be woken
            // (while TBB's workers still hold the cores) before the first bytes leave - ~1.3 ms of the p50 of a new
            // view at two at a time. Safe: while the work ran nothing of this connection was pending but the
            // disarmed timer's cancelled wait, whose handler reads only the atomic generation; the write's
            // completion runs on the strand as usual.
            self->respond(std::move(response));
        });
    }

    void respond(HttpResponse response) {
        response_ = std::move(response);
        out_.emplace();
        out_->version(11);
        out_->result(unsigned(response_.status));
        if (!response_.contentType.empty()) out_->set(http::field::content_type, response_.contentType);
        for (const auto& [name, value] : response_.headers) out_->set(name, value);
        const size_t size = response_.bodySize();
        if (response_.status != 304 && !headOnly_)
            out_->body() = response_.image ? http::span_body<const char>::value_type(
                                                 reinterpret_cast<const char*>(response_.image->bytes.data()), size)
                                           : http::span_body<const char>::value_type(response_.text.data(), size);
        if (response_.status != 304) out_->content_length(size);
        if (shared_.context.draining.load() || !keepAlive_) closeAfter_ = true;
        out_->keep_alive(!closeAfter_);
        arm(Clock::now() + kWriteBase + seconds(double(size) / std::max(1.0, shared_.limits.minBodyBytesPerSecond)),
            "write_timeout");
        http::async_write(socket_, *out_, [self = shared_from_this()](error_code ec, size_t) { self->onWritten(ec); });
    }

    void onWritten(error_code ec) {
        if (timedOut(ec)) shared_.context.metrics.countRefusal("write_timeout");
        const double seconds = inFlight_ ? std::chrono::duration<double>(Clock::now() - requestStart_).count() : 0.0;
        shared_.context.metrics.record(response_.status, seconds);
        if (shared_.accessLog) logLine(seconds);
        if (inFlight_) shared_.active.fetch_sub(1);
        inFlight_ = false;
        out_.reset();
        response_ = HttpResponse();
        headOnly_ = false;
        if (ec) return close();
        if (closeAfter_) return closeGracefully();
        logTarget_.clear();
        request_ = HttpRequest();
        waitForRequest();
    }

    void logLine(double seconds) const {
        std::string line = fmt::format("{} \"{} {}\" {} {} {:.1f} ms", address_, request_.method.empty() ? "-" : escapeForLog(request_.method),
                                       logTarget_.empty() ? "-" : escapeForLog(logTarget_), response_.status,
                                       response_.bodySize(), seconds * 1000);
        if (!response_.errorLine.empty()) line += " " + escapeForLog(response_.errorLine);
        std::cerr << line + "\n";
    }

    // 414 or 431 for a head past the parser's limit: which part is too long decides. The parser takes the
    // request line out of the buffer once it is whole, so a method read means the line ended in time.
    HttpResponse oversizedHead() {
        const auto& head = parser_->get();
        if (head.method_string().empty() || requestLineBytes(head) > shared_.limits.requestLineBytes) return uriTooLong();
        return headersTooLarge();
    }
    HttpResponse uriTooLong() {
        shared_.context.metrics.countRefusal("uri_too_long");
        return errorResponse(414, fmt::format("the request line is over {} bytes", shared_.limits.requestLineBytes));
    }
    HttpResponse headersTooLarge() {
        shared_.context.metrics.countRefusal("headers_too_large");
        return errorResponse(431, fmt::format("the request's header fields are over {} bytes", shared_.limits.headerBytes));
    }

    // Half-closes (the client reads the answer, then the end of the stream), reads and drops what the client
    // still sends for a moment, then closes: closing with unread bytes would make the kernel send a reset,
    // which can destroy the answer in the client's receive buffer.
    void closeGracefully() {
        error_code ignored;
        socket_.shutdown(tcp::socket::shutdown_send, ignored);
        arm(Clock::now() + kLinger, "linger");
        scratch_ = std::make_unique<std::array<char, 4096>>();  // only while lingering: an idle connection holds none
        drain();
    }
    void drain() {
        socket_.async_read_some(net::buffer(*scratch_), [self = shared_from_this()](error_code ec, size_t) {
            if (ec) return self->close();
            self->drain();
        });
    }
    void close() {
        disarm();
        error_code ignored;
        socket_.close(ignored);
    }

    tcp::socket socket_;
    net::steady_timer timer_;
    ConnectionShared& shared_;
    const std::string address_;
    const bool admitted_;
    boost::beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    HttpRequest request_;
    HttpResponse response_;
    std::optional<http::response<http::span_body<const char>>> out_;
    std::string logTarget_;
    Clock::time_point bodyStart_, requestStart_;
    std::atomic<unsigned> generation_{0};
    const char* timedOut_ = nullptr;
    bool keepAlive_ = false, closeAfter_ = false, headOnly_ = false, readingBody_ = false, inFlight_ = false;
    std::unique_ptr<std::array<char, 4096>> scratch_;  // where lingering reads drop the client's late bytes
};

}  // namespace

void serveConnection(tcp::socket socket, ConnectionShared& shared, std::string address) {
    std::make_shared<Connection>(std::move(socket), shared, std::move(address), true)->start();
}

void refuseConnection(tcp::socket socket, ConnectionShared& shared, std::string address, HttpResponse refusal) {
    std::make_shared<Connection>(std::move(socket), shared, std::move(address), false)->refuse(std::move(refusal));
}

}  // namespace luxel::serve
