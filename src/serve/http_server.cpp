// luxel serve's process: the listing of the roots (again on SIGHUP and every --rescan seconds), the network
// loop (Boost.Asio: a few threads running every connection's timers and reads), the threads that run the
// routes' blocking work (behind the render gate), admission of new connections, and the shutdown on SIGTERM.
#include <fmt/format.h>
#include <signal.h>
#include <sys/resource.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <chrono>
#include <condition_variable>
#include <iostream>
#include <thread>

#include "connection.hpp"
#include "live_catalogue.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/model/studio_cache.hpp"
#include "luxel/serve/serve.hpp"
#include "luxel/util/clock.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"
#include "metrics.hpp"
#include "render_service.hpp"
#include "routes.hpp"

namespace luxel {
namespace {

namespace net = boost::asio;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

std::pair<std::string, int> splitListen(const std::string& listen) {
    const size_t colon = listen.rfind(':');
    if (colon == std::string::npos) throw UsageError("--listen '" + listen + "': expected HOST:PORT");
    const std::string host = listen.substr(0, colon);
    int port = -1;
    try {
        size_t used = 0;
        port = std::stoi(listen.substr(colon + 1), &used);
        if (used != listen.size() - colon - 1) port = -1;
    } catch (const std::exception&) {
    }
    if (port < 0 || port > 65535 || host.empty()) throw UsageError("--listen '" + listen + "': expected HOST:PORT (port 0-65535)");
    return {host, port};
}

// File descriptors besides connections: the listening socket, maps and archives being read, pipes, logs.
constexpr int kSpareDescriptors = 128;

// Raises the soft open-files limit to what --max-connections needs (up to the hard limit); returns the
// connections the limit allows.
int fitOpenFilesLimit(int maxConnections) {
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return maxConnections;
    const rlim_t want = rlim_t(maxConnections) + kSpareDescriptors;
    if (limit.rlim_cur < want) {
        limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? want : std::min(want, limit.rlim_max);
        setrlimit(RLIMIT_NOFILE, &limit);
        getrlimit(RLIMIT_NOFILE, &limit);
    }
    if (limit.rlim_cur >= want) return maxConnections;
    const int allowed = std::max(1, int(limit.rlim_cur) - kSpareDescriptors);
    std::cerr << fmt::format("luxel: warning: the open files limit ({}) allows {} connections, not --max-connections {}: "
                             "raise it (LimitNOFILE=, ulimit -n) to {}\n",
                             limit.rlim_cur, allowed, maxConnections, want);
    return allowed;
}

// Lists the roots again on request (SIGHUP) and every `period` seconds when period > 0, dropping the cached
// maps and pictures of maps that changed or went away.
class Rescanner {
public:
    Rescanner(serve::LiveCatalogue& catalogue, serve::RenderService& renderer, double period)
        : catalogue_(catalogue), renderer_(renderer), period_(period), thread_([this] { run(); }) {}
    ~Rescanner() {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }
    void request() {
        {
            std::lock_guard lock(mutex_);
            requested_ = true;
        }
        wake_.notify_all();
    }

private:
    void run() {
        std::unique_lock lock(mutex_);
        for (;;) {
            const auto woken = [&] { return stop_ || requested_; };
            if (period_ > 0) wake_.wait_for(lock, std::chrono::duration<double>(period_), woken);
            else wake_.wait(lock, woken);
            if (stop_) return;
            const char* why = requested_ ? "SIGHUP" : "--rescan";
            requested_ = false;
            lock.unlock();
            rescanOnce(why);
            lock.lock();
        }
    }
    void rescanOnce(const char* why) {
        try {
            const serve::RescanResult r = catalogue_.rescan();
            size_t pictures = 0;
            for (const serve::CatalogueEntry& gone : r.gone) pictures += renderer_.forget(gone);
            for (const std::string& w : r.warnings) std::cerr << "luxel: warning: " << escapeForLog(w) << "\n";
            // A timed rescan that found nothing new says nothing (it would fill the journal every period).
            if (r.added + r.changed + r.removed == 0 && std::string_view(why) == "--rescan") return;
            std::cerr << fmt::format("luxel serve: {}: {} maps listed in {:.2f} s ({} new, {} changed, {} removed; {} cached "
                                     "pictures dropped)\n",
                                     why, r.maps, r.seconds, r.added, r.changed, r.removed, pictures);
        } catch (const std::exception& e) {
            std::cerr << "luxel: warning: " << why << ": listing the roots failed, the earlier listing stays: "
                      << escapeForLog(e.what()) << "\n";
        }
    }

    serve::LiveCatalogue& catalogue_;
    serve::RenderService& renderer_;
    const double period_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stop_ = false, requested_ = false;
    std::thread thread_;
};

// Accepts connections: past --max-connections a new one is closed at once, past the per-address limit it gets
// 429; the rest are served.
class Acceptor {
public:
    Acceptor(net::io_context& io, tcp::acceptor& acceptor, serve::ConnectionShared& shared, int maxConnections)
        : io_(io), acceptor_(acceptor), shared_(shared), maxConnections_(maxConnections), retry_(io) {}

    void next() {
        acceptor_.async_accept(net::make_strand(io_), [this](boost::system::error_code ec, tcp::socket socket) {
            if (ec == net::error::operation_aborted || !acceptor_.is_open()) return;
            if (ec) {
                // Out of descriptors (EMFILE/ENFILE) or memory: wait a moment instead of spinning on the error.
                retry_.expires_after(std::chrono::milliseconds(50));
                retry_.async_wait([this](boost::system::error_code e) {
                    if (!e) next();
                });
                return;
            }
            admit(std::move(socket));
            next();
        });
    }

private:
    void admit(tcp::socket socket) {
        boost::system::error_code ec;
        const auto endpoint = socket.remote_endpoint(ec);
        if (ec) return;
        serve::Metrics& metrics = shared_.context.metrics;
        if (metrics.connectionsOpen() >= maxConnections_) {
            metrics.countRefusal("connections");
            socket.close(ec);
            return;
        }
        // Answers go out as soon as they are written, without Nagle's wait for the ACK of earlier segments (as
        // cpp-httplib set it).
        socket.set_option(tcp::no_delay(true), ec);
        std::string address = endpoint.address().to_string();
        if (!shared_.perAddress.open(address)) {
            metrics.countRefusal("per_address_connections");
            serve::refuseConnection(std::move(socket), shared_, address,
                                    serve::errorResponse(429, fmt::format("{} holds {} connections open (the per-address limit)",
                                                                          address, shared_.context.options.maxConnectionsPerAddress),
                                                         1));
            return;
        }
        serve::serveConnection(std::move(socket), shared_, std::move(address));
    }

    net::io_context& io_;
    tcp::acceptor& acceptor_;
    serve::ConnectionShared& shared_;
    const int maxConnections_;
    net::steady_timer retry_;
};

}  // namespace

int runServer(const ServeOptions& given) {
    ServeOptions options = given;
    const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
    if (options.workers <= 0) options.workers = cores;
    if (options.ioThreads <= 0) options.ioThreads = std::min(cores, 4);
    const auto [host, port] = splitListen(options.listen);

    // SIGTERM / SIGINT / SIGHUP go to one waiting thread (blocked here, before any thread starts, so every
    // thread inherits the mask).
    // A handler of its own for each (it never runs: the signals are taken by sigwait), because a process that
    // is PID 1 of a container does not get signals left at SIG_DFL from inside it (`kill -HUP 1`).
    struct sigaction taken {};
    taken.sa_handler = [](int) {};
    for (int sig : {SIGTERM, SIGINT, SIGHUP}) sigaction(sig, &taken, nullptr);
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    const int maxConnections = fitOpenFilesLimit(options.maxConnections);

    const double t0 = nowMs();
    serve::LiveCatalogue catalogue(options.roots, options.gameDirs);
    for (const std::string& w : catalogue.warnings()) std::cerr << "luxel: warning: " << escapeForLog(w) << "\n";
    {
        const auto listing = catalogue.current();
        std::cerr << fmt::format("luxel serve: {} maps under {} roots ({} unreadable), listed in {:.2f} s\n",
                                 listing->catalogue.maps.size(), options.roots.size(),
                                 listing->catalogue.maps.size() - listing->readable, (nowMs() - t0) / 1000);
    }
    setTextureCacheBudget(options.textureCacheBytes);
    setStudioModelCacheBudget(options.textureCacheBytes / 4);  // Source props' models, beside their textures

    serve::Metrics metrics;
    serve::RenderService renderer(options, metrics);
    std::atomic<bool> draining{false};
    std::atomic<int> active{0}, bodies{0};
    serve::RenderRateLimit rateLimit(options.renderRate, options.renderBurst > 0 ? options.renderBurst : 2 * options.renderRate);
    const serve::ServeContext context{options, metrics, renderer, catalogue, rateLimit, draining};
    serve::ConnectionCounts perAddress(options.maxConnectionsPerAddress);
    // The render threads: as many as the gate's workers, so every admitted render starts as soon as one is free
    // (the queue waits here), and the same few threads draw every picture. Rotating over more threads would
    // spread the frames' large buffers over more malloc arenas: 2.5 ms more per new view (p50 17 ms against 14.5).
    net::thread_pool renderThreads(size_t(options.workers));

    serve::ConnectionLimits limits;
    limits.header = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options.headerSeconds));
    limits.idle = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options.idleSeconds));
    limits.minBodyBytesPerSecond = options.minBodyBytesPerSecond;
    serve::ConnectionShared shared{context, limits, perAddress, renderThreads, active, bodies, options.uploads, options.accessLog};

    net::io_context io(options.ioThreads);
    tcp::acceptor acceptor(io);
    try {
        tcp::resolver resolver(io);
        const tcp::endpoint endpoint = *resolver.resolve(host, std::to_string(port), tcp::resolver::passive).begin();
        acceptor.open(endpoint.protocol());
        acceptor.set_option(net::socket_base::reuse_address(true));
        acceptor.bind(endpoint);
        acceptor.listen(net::socket_base::max_listen_connections);
    } catch (const boost::system::system_error&) {
        throw UsageError("--listen " + options.listen + ": cannot bind (in use, or not an address of this machine)");
    }
    const int bound = acceptor.local_endpoint().port();
    if (!options.portFile.empty()) {
        const std::string text = std::to_string(bound) + "\n";
        writeFileAtomic(options.portFile, Bytes(text.begin(), text.end()));
    }
    std::cerr << fmt::format("luxel serve: listening on http://{}:{}/ ({} workers, queue {}, {} network threads, "
                             "at most {} connections, {} per address)\n",
                             host, bound, options.workers, options.queue, options.ioThreads, maxConnections,
                             options.maxConnectionsPerAddress);

    Acceptor accepting(io, acceptor, shared, maxConnections);
    accepting.next();
    std::vector<std::thread> network;
    for (int i = 0; i < options.ioThreads; ++i) network.emplace_back([&] { io.run(); });

    {
        Rescanner rescanner(catalogue, renderer, options.rescanSeconds);
        // SIGHUP: list the roots again. SIGTERM: stop taking requests (503 on open connections), let the ones in
        // flight finish, then stop.
        for (;;) {
            int sig = 0;
            sigwait(&signals, &sig);
            if (sig == SIGHUP) {
                rescanner.request();
                continue;
            }
            std::cerr << fmt::format("luxel serve: {} received: finishing {} requests in flight\n",
                                     sig == SIGTERM ? "SIGTERM" : "SIGINT", active.load());
            break;
        }
        draining = true;
        renderer.gate().close();
        const auto limit = Clock::now() + std::chrono::duration<double>(options.requestSeconds + 5);
        while (active.load() > 0 && Clock::now() < limit) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    io.stop();
    for (std::thread& t : network) t.join();
    renderThreads.join();  // work still running past the limit ends at its deadline; its answer goes nowhere
    std::cerr << "luxel serve: stopped\n";
    return 0;
}

}  // namespace luxel
