// `luxel serve` against slow, silent, greedy and oversized clients, and re-listing its roots while it runs: a real
// server process, raw TCP connections from chosen loopback addresses (support/raw_http). What is checked comes from
// outside the server: the limits it was started with, HTTP's status codes, hashes and pictures made here.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <signal.h>
#include <xxhash.h>

#include <atomic>
#include <filesystem>
#include <fmt/format.h>
#include <functional>
#include <future>
#include <thread>

#include "luxel/image/image.hpp"
#include "support/batch_fixtures.hpp"
#include "support/raw_http.hpp"
#include "support/serve_process.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

std::string hashOf(const std::string& bytes) {
    const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
    return fmt::format("{:016x}{:016x}", h.high64, h.low64);
}

std::string get(const std::string& path) { return "GET " + path + " HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"; }

// The value of one sample line of /metrics ("name{labels} value"), -1 when absent.
double metric(const std::string& text, const std::string& sample) {
    const size_t at = text.find("\n" + sample + " ");
    if (at == std::string::npos) return -1;
    return std::stod(text.substr(at + sample.size() + 2));
}

// Attackers on their own thread: `slow` connections that send a request line and then a byte a second, and
// `silent` ones that send nothing, spread over 127.0.1.x (under the per-address limit). A connection the server
// closes is recorded (what it sent, how long it was open, an orderly end or a reset) and replaced by a new one.
class Attackers {
public:
    struct Closed {
        bool slow = false, orderly = false;
        std::string got;
        double seconds = 0;
    };

    Attackers(int port, int slow, int silent) : port_(port) {
        for (int i = 0; i < slow + silent; ++i) open(i < slow, i);
        thread_ = std::thread([this] { run(); });
    }
    ~Attackers() { stop(); }
    void stop() {
        if (thread_.joinable()) {
            stop_ = true;
            thread_.join();
        }
    }
    // The connections the server closed (read only after stop()).
    std::vector<Closed> closed;

private:
    struct Open {
        RawConnection c;
        bool slow;
        Clock::time_point at;
        std::string got;
    };
    void open(bool slow, int index) {
        Open o{RawConnection(fmt::format("127.0.1.{}", 1 + index % 20), port_), slow, Clock::now(), {}};
        if (slow) o.c.send("GET /maps HTTP/1.1\r\n");
        open_.push_back(std::move(o));
    }
    void run() {
        auto lastByte = Clock::now();
        int next = 0;
        while (!stop_) {
            if (Clock::now() - lastByte >= std::chrono::seconds(1)) {
                lastByte = Clock::now();
                for (Open& o : open_)
                    if (o.slow) o.c.send("X");
            }
            std::vector<pollfd> fds;
            for (const Open& o : open_) fds.push_back({o.c.fd(), POLLIN, 0});
            if (::poll(fds.data(), fds.size(), 50) <= 0) continue;
            std::vector<size_t> ended;
            for (size_t i = 0; i < fds.size(); ++i) {
                if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
                char buffer[4096];
                const ssize_t n = ::recv(fds[i].fd, buffer, sizeof buffer, 0);
                if (n > 0) {
                    open_[i].got.append(buffer, size_t(n));
                    continue;
                }
                closed.push_back({open_[i].slow, n == 0, open_[i].got,
                                  std::chrono::duration<double>(Clock::now() - open_[i].at).count()});
                ended.push_back(i);
            }
            for (auto it = ended.rbegin(); it != ended.rend(); ++it) {
                const bool slow = open_[*it].slow;
                open_.erase(open_.begin() + long(*it));
                open(slow, next++);
            }
        }
    }
    const int port_;
    std::vector<Open> open_;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

}  // namespace

TEST_CASE("serve: slow and silent connections cost no worker and end at the head deadline", "[serve]") {
    const std::string root = tempDir("serve-slow-root");
    writeTextFile(root + "/room.bsp", roomMap(1));
    ServeProcess server({root, "--header-timeout", "1", "--workers", "1"});
    const std::string thumbnail = "/maps/room.png?size=64x36";
    const RawAnswer first = rawRequest("127.0.0.2", server.port(), get(thumbnail));
    REQUIRE(first.status == 200);

    // 200 slow and 50 silent connections, replaced as the server closes them, for the whole of the probing.
    Attackers attackers(server.port(), 200, 50);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    for (int i = 0; i < 20; ++i) {
        INFO("probe " << i);
        const auto t0 = Clock::now();
        const RawAnswer health = rawRequest("127.0.0.2", server.port(), get("/healthz"), std::chrono::seconds(2));
        CHECK(health.status == 200);
        CHECK(json::parse(health.body, nullptr, false).value("status", "") == "ok");
        const RawAnswer image = rawRequest("127.0.0.2", server.port(), get(thumbnail), std::chrono::seconds(2));
        CHECK(image.status == 200);
        CHECK(image.body == first.body);
        CHECK(Clock::now() - t0 < std::chrono::seconds(2));  // generous: an unharmed server answers in milliseconds
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
    }
    attackers.stop();

    // Every connection the server closed: slow ones with a 408 and then the end of the stream, silent ones with
    // the end of the stream alone; none before the 1 s head deadline, none long after it.
    REQUIRE(attackers.closed.size() >= 250);
    size_t slow = 0, silent = 0;
    for (const Attackers::Closed& c : attackers.closed) {
        INFO((c.slow ? "slow" : "silent") << " connection closed after " << c.seconds << " s: " << c.got.substr(0, 80));
        CHECK(c.orderly);
        CHECK(c.seconds >= 0.95);
        CHECK(c.seconds < 4);
        if (c.slow) {
            ++slow;
            CHECK(c.got.starts_with("HTTP/1.1 408 "));
        } else {
            ++silent;
            CHECK(c.got.empty());
        }
    }
    CHECK(slow >= 200);
    CHECK(silent >= 50);
    const std::string metrics = rawRequest("127.0.0.2", server.port(), get("/metrics")).body;
    CHECK(metric(metrics, "luxel_http_refused_total{reason=\"header_timeout\"}") >= double(attackers.closed.size()));
    CHECK(metric(metrics, "luxel_http_connections_open_peak") >= 250);
    CHECK(server.terminate() == 0);
}

TEST_CASE("serve: the per-address connection limit and the render rate limit", "[serve]") {
    const std::string root = tempDir("serve-caps-root");
    writeTextFile(root + "/room.bsp", roomMap(1));
    ServeProcess server({root, "--rate-limit", "0.2", "--rate-burst", "2"});
    const int port = server.port();

    // 32 connections from 127.0.0.1 (the default limit) held open; the 33rd is answered 429 and closed.
    std::vector<RawConnection> held;
    for (int i = 0; i < 32; ++i) held.emplace_back("127.0.0.1", port);
    {
        RawConnection extra("127.0.0.1", port);
        bool closed = false;
        const std::string got = extra.readToEnd(std::chrono::seconds(5), closed);
        CHECK(got.starts_with("HTTP/1.1 429 "));
        CHECK(got.find("per-address limit") != std::string::npos);
        CHECK(closed);
    }
    // Another address is served meanwhile.
    CHECK(rawRequest("127.0.0.2", port, get("/healthz")).status == 200);
    // One of the 32 closed: 127.0.0.1 may open one again (once the server has seen the close).
    held.pop_back();
    int status = -1, refusedAgain = 0;
    for (int i = 0; i < 50 && status != 200; ++i) {
        status = rawRequest("127.0.0.1", port, get("/healthz")).status;
        refusedAgain += status == 429;
        if (status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CHECK(status == 200);
    held.clear();

    // Renders: a burst of 2 from one address, then 429 with Retry-After (5 s at 0.2 a second); a cached picture
    // is not counted, and another address has a bucket of its own.
    CHECK(rawRequest("127.0.0.3", port, get("/maps/room.png?size=32x18")).status == 200);
    CHECK(rawRequest("127.0.0.3", port, get("/maps/room.png?size=33x18")).status == 200);
    const RawAnswer limited = rawRequest("127.0.0.3", port, get("/maps/room.png?size=34x18"));
    CHECK(limited.status == 429);
    CHECK(limited.head.find("Retry-After: 5") != std::string::npos);
    CHECK(limited.body.find("rate limit") != std::string::npos);
    CHECK(rawRequest("127.0.0.3", port, get("/maps/room.png?size=32x18")).status == 200);  // cached
    CHECK(rawRequest("127.0.0.4", port, get("/maps/room.png?size=34x18")).status == 200);

    const std::string metrics = rawRequest("127.0.0.2", port, get("/metrics")).body;
    CHECK(metric(metrics, "luxel_http_refused_total{reason=\"per_address_connections\"}") == 1 + refusedAgain);
    CHECK(metric(metrics, "luxel_http_refused_total{reason=\"rate_limit\"}") == 1);
    CHECK(metric(metrics, "luxel_renders_total") == 3);
    CHECK(server.terminate() == 0);
}

TEST_CASE("serve: 414, 431, and a stalled body cut off before the upload code", "[serve]") {
    const std::string root = tempDir("serve-oversize-root");
    writeTextFile(root + "/room.bsp", roomMap(1));
    ServeProcess server({root, "--min-body-rate", "16", "--idle-timeout", "0.5"});
    const int port = server.port();

    // A keep-alive connection: its answer, then (no next request) an orderly close after the idle timeout.
    {
        RawConnection idle("127.0.0.1", port);
        REQUIRE(idle.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n"));
        bool closed = false;
        const auto t0 = Clock::now();
        const std::string got = idle.readToEnd(std::chrono::seconds(5), closed);
        CHECK(got.starts_with("HTTP/1.1 200 "));
        CHECK(got.find("\"status\":\"ok\"") != std::string::npos);
        CHECK(closed);
        CHECK(Clock::now() - t0 >= std::chrono::milliseconds(450));
    }

    struct Case {
        const char* what;
        std::string request;
        int status;
    };
    const std::string longPath = "/maps?" + std::string(9000, 'a');
    auto fillers = [](int n) {  // n header lines of about 1 KB each
        std::string h;
        for (int i = 0; i < n; ++i) h += fmt::format("X-Filler-{}: {}\r\n", i, std::string(1000, 'b'));
        return h;
    };
    const std::vector<Case> cases = {
        {"a 9000-byte request line", "GET " + longPath + " HTTP/1.1\r\nHost: t\r\n\r\n", 414},
        {"a 100 KiB request line", "GET /maps?" + std::string(100 << 10, 'a') + " HTTP/1.1\r\nHost: t\r\n\r\n", 414},
        {"34 KB of headers", "GET /healthz HTTP/1.1\r\nHost: t\r\n" + fillers(34) + "\r\n", 431},
        {"100 KB of headers", "GET /healthz HTTP/1.1\r\nHost: t\r\n" + fillers(100) + "\r\n", 431},
        {"a request line just under 8 KiB", "GET /healthz?" + std::string(8000, 'a') + " HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", 200},
        {"30 KB of headers", "GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n" + fillers(30) + "\r\n", 200},
    };
    for (const Case& c : cases) {
        INFO(c.what);
        const RawAnswer a = rawRequest("127.0.0.1", port, c.request);
        CHECK(a.status == c.status);
        if (c.status != 200) CHECK(a.body.find("\"luxel: error: ") != std::string::npos);
    }

    // A body that stops after 1,000 of its 100,000 bytes: 408 after about a second, then the end of the stream.
    RawConnection stalled("127.0.0.1", port);
    REQUIRE(stalled.send("POST /render?size=64x36 HTTP/1.1\r\nHost: t\r\nContent-Type: application/octet-stream\r\n"
                         "Content-Length: 100000\r\n\r\n" +
                         roomMap(1).substr(0, 1000)));
    bool closed = false;
    const auto t0 = Clock::now();
    const std::string got = stalled.readToEnd(std::chrono::seconds(10), closed);
    CHECK(got.starts_with("HTTP/1.1 408 "));
    CHECK(got.find("slower than 16 KiB/s") != std::string::npos);
    CHECK(closed);
    CHECK(Clock::now() - t0 < std::chrono::seconds(5));
    // A body that keeps up is read and rendered.
    const std::string room = roomMap(1);
    const RawAnswer good = rawRequest("127.0.0.1", port,
                                      fmt::format("POST /render?size=64x36 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
                                                  "Content-Length: {}\r\n\r\n",
                                                  room.size()) +
                                          room);
    CHECK(good.status == 200);

    const std::string metrics = rawRequest("127.0.0.1", port, get("/metrics")).body;
    CHECK(metric(metrics, "luxel_http_refused_total{reason=\"uri_too_long\"}") == 2);
    CHECK(metric(metrics, "luxel_http_refused_total{reason=\"headers_too_large\"}") == 2);
    CHECK(metric(metrics, "luxel_http_refused_total{reason=\"body_too_slow\"}") == 1);
    CHECK(metric(metrics, "luxel_uploads_total") == 1);  // the good one only: the stalled body reached no route
    CHECK(server.terminate() == 0);
}

TEST_CASE("serve: SIGHUP and --rescan follow maps added, changed and removed", "[serve]") {
    const std::string base = tempDir("serve-rescan");
    const std::string root = base + "/root";
    writeTextFile(root + "/room-a.bsp", roomMap(1));
    writeTextFile(root + "/room-b.bsp", roomMap(2));
    writeTextFile(base + "/old-a.bsp", roomMap(1));  // for `luxel render`: the pictures before and after
    writeTextFile(base + "/new-a.bsp", roomMap(3));
    auto pixelsOf = [&](const std::string& png) { return decodeImage(bytesOf(png), "served.png").pixels; };
    auto rendered = [&](const std::string& map) {
        const auto r = runLuxel("render " + q(base + "/" + map) + " -o " + q(base + "/view.png") + " --size 96x54");
        REQUIRE(r.exitCode == 0);
        return decodeImage(bytesOf(readFileText(base + "/view.png")), "view.png").pixels;
    };
    // GET /maps as name -> hash.
    auto listing = [](int port) {
        const std::string body = rawRequest("127.0.0.1", port, get("/maps")).body;
        std::map<std::string, std::string> hashes;
        const json list = json::parse(body, nullptr, false);
        INFO(body);
        REQUIRE((list.is_object() && list.contains("maps")));
        for (const json& m : list["maps"]) hashes[m["name"]] = m["hash"];
        return hashes;
    };
    // The listing once `ready` holds of it, or the last one after 10 s (a rescan runs on its own thread).
    auto listingOnce = [&](int port, const std::function<bool(std::map<std::string, std::string>&)>& ready) {
        auto now = listing(port);
        for (int i = 0; i < 200 && !ready(now); ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            now = listing(port);
        }
        return now;
    };

    SECTION("SIGHUP") {
        ServeProcess server({root, "--test-delay-ms", "300"});
        const int port = server.port();
        const RawAnswer a1 = rawRequest("127.0.0.1", port, get("/maps/room-a.png?size=96x54"));
        REQUIRE(a1.status == 200);
        CHECK(pixelsOf(a1.body) == rendered("old-a.bsp"));
        const size_t etagAt = a1.head.find("ETag: ");
        REQUIRE(etagAt != std::string::npos);
        const std::string etag1 = a1.head.substr(etagAt + 6, a1.head.find("\r\n", etagAt) - etagAt - 6);
        REQUIRE(rawRequest("127.0.0.1", port, get("/maps/room-b.png?size=96x54")).status == 200);

        writeTextFile(root + "/room-a.bsp", roomMap(3));
        fs::remove(root + "/room-b.bsp");
        writeTextFile(root + "/room-c.bsp", roomMap(4));
        // Nothing changes before the signal.
        CHECK(listing(port).count("room-b") == 1);
        ::kill(server.pid(), SIGHUP);
        auto now = listingOnce(port, [](auto& l) { return l.count("room-c") > 0; });
        REQUIRE(now.count("room-c"));
        CHECK(now.count("room-b") == 0);
        CHECK(now["room-a"] == hashOf(roomMap(3)));
        CHECK(now["room-c"] == hashOf(roomMap(4)));
        CHECK_THAT(server.log(), Catch::Contains("1 new, 1 changed, 1 removed; 2 cached pictures dropped"));

        // The changed map: a new ETag, the new picture, no 304 for the old tag; the removed one is gone.
        const RawAnswer a2 = rawRequest("127.0.0.1", port,
                                        "GET /maps/room-a.png?size=96x54 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
                                        "If-None-Match: " + etag1 + "\r\n\r\n");
        CHECK(a2.status == 200);
        CHECK(a2.head.find("ETag: " + etag1) == std::string::npos);
        CHECK(pixelsOf(a2.body) == rendered("new-a.bsp"));
        CHECK(rawRequest("127.0.0.1", port, get("/maps/room-b.png?size=96x54")).status == 404);
        CHECK(rawRequest("127.0.0.1", port, get("/maps/room-c.png?size=96x54")).status == 200);
        CHECK(rawRequest("127.0.0.1", port, get("/")).body.find("/maps/room-c.jpg") != std::string::npos);

        // A request in flight while the roots are listed again keeps the map it started with.
        auto inFlight = std::async(std::launch::async, [&] { return rawRequest("127.0.0.2", port, get("/maps/room-a.png?size=96x54&fov=80")); });
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        writeTextFile(root + "/room-a.bsp", roomMap(1));
        ::kill(server.pid(), SIGHUP);
        const RawAnswer during = inFlight.get();
        CHECK(during.status == 200);
        CHECK(listingOnce(port, [](auto& l) { return l["room-a"] == hashOf(roomMap(1)); })["room-a"] == hashOf(roomMap(1)));
        CHECK(server.terminate() == 0);
    }
    SECTION("--rescan") {
        ServeProcess server({root, "--rescan", "0.5"});
        writeTextFile(root + "/room-d.bsp", roomMap(5));
        auto now = listingOnce(server.port(), [](auto& l) { return l.count("room-d") > 0; });
        CHECK(now["room-d"] == hashOf(roomMap(5)));
        CHECK_THAT(server.log(), Catch::Contains("--rescan: 3 maps listed") && Catch::Contains("(1 new, 0 changed, 0 removed;"));
        CHECK(server.terminate() == 0);
    }
}
