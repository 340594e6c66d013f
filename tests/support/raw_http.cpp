#include "support/raw_http.hpp"

#include <arpa/inet.h>
#include <catch2/catch.hpp>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

namespace luxel::test {
namespace {

sockaddr_in loopback(const std::string& address, int port) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(uint16_t(port));
    REQUIRE(inet_pton(AF_INET, address.c_str(), &a.sin_addr) == 1);
    return a;
}

}  // namespace

RawConnection::RawConnection(const std::string& source, int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    REQUIRE(fd_ >= 0);
    const sockaddr_in from = loopback(source, 0), to = loopback("127.0.0.1", port);
    REQUIRE(::bind(fd_, reinterpret_cast<const sockaddr*>(&from), sizeof from) == 0);
    REQUIRE(::connect(fd_, reinterpret_cast<const sockaddr*>(&to), sizeof to) == 0);
}

RawConnection::~RawConnection() {
    if (fd_ >= 0) ::close(fd_);
}

RawConnection::RawConnection(RawConnection&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

RawConnection& RawConnection::operator=(RawConnection&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = other.fd_;
        other.fd_ = -1;
    }
    return *this;
}

bool RawConnection::send(const std::string& bytes) {
    size_t sent = 0;
    while (sent < bytes.size()) {
        const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        sent += size_t(n);
    }
    return true;
}

std::string RawConnection::readToEnd(std::chrono::milliseconds limit, bool& closed) {
    closed = false;
    std::string got;
    const auto end = std::chrono::steady_clock::now() + limit;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
        if (left.count() <= 0) return got;
        pollfd p{fd_, POLLIN, 0};
        const int ready = ::poll(&p, 1, int(left.count()));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) return got;
        char buffer[16384];
        const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return got;  // a reset
        if (n == 0) {
            closed = true;
            return got;
        }
        got.append(buffer, size_t(n));
    }
}

RawAnswer rawRequest(const std::string& source, int port, const std::string& request, std::chrono::milliseconds limit) {
    RawConnection c(source, port);
    RawAnswer answer;
    if (!c.send(request)) return answer;
    bool closed = false;
    const std::string got = c.readToEnd(limit, closed);
    const size_t headEnd = got.find("\r\n\r\n");
    if (!got.starts_with("HTTP/1.1 ") || headEnd == std::string::npos) return answer;
    answer.status = std::stoi(got.substr(9, 3));
    answer.head = got.substr(0, headEnd);
    answer.body = got.substr(headEnd + 4);
    return answer;
}

}  // namespace luxel::test
