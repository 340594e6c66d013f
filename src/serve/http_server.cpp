// luxel serve's HTTP side on cpp-httplib (Debian's libcpp-httplib-dev): routes, headers, status codes,
// shutdown. cpp-httplib parses requests (paths percent-decoded, query parameters, multipart forms) and runs
// each connection on a thread of its pool; the render work itself is RenderService's.
#include <httplib.h>
#include <nlohmann/json.hpp>
#include <fmt/format.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <iostream>
#include <thread>

#include "catalogue.hpp"
#include "luxel/batch/batch.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/model/studio_cache.hpp"
#include "luxel/util/clock.hpp"
#include "luxel/serve/serve.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"
#include "metrics.hpp"
#include "page.hpp"
#include "render_service.hpp"
#include "view_query.hpp"

namespace luxel {
namespace {

using serve::ServeError;
using Clock = std::chrono::steady_clock;

// Per connection thread: when the request being answered arrived, and whether it counts as in flight.
thread_local Clock::time_point tRequestStart;
thread_local bool tCounted = false;

// "luxel: error: ..." as the CLI prints it, in a JSON body.
void sendError(httplib::Response& res, int status, const std::string& line, int retryAfter = 0) {
    res.status = status;
    if (retryAfter > 0) res.set_header("Retry-After", std::to_string(retryAfter));
    const nlohmann::json body = {{"error", "luxel: error: " + line}, {"status", status}};
    res.set_content(body.dump() + "\n", "application/json");
}

// Runs a handler, turning every exception into its status and one-line JSON error.
template <class F>
void answer(httplib::Response& res, F&& f) {
    try {
        f();
    } catch (const ServeError& e) {
        sendError(res, e.status, e.what(), e.retryAfter);
    } catch (const DecodeError& e) {  // LimitError too
        sendError(res, 422, e.what());
    } catch (const UsageError& e) {
        sendError(res, 422, e.what());
    } catch (const std::bad_alloc&) {
        sendError(res, 500, "out of memory");
    } catch (const std::exception& e) {
        sendError(res, 500, std::string("internal error: ") + e.what());
    }
}

void sendImage(httplib::Response& res, const serve::EncodedImage& image, const char* cacheControl) {
    res.status = 200;
    res.set_header("ETag", image.etag);
    res.set_header("Cache-Control", cacheControl);
    if (!image.timing.empty()) res.set_header("Server-Timing", image.timing);
    res.set_content(reinterpret_cast<const char*>(image.bytes.data()), image.bytes.size(), image.contentType.c_str());
}

std::string residentBytes() {
    std::ifstream statm("/proc/self/statm");
    size_t pages = 0, resident = 0;
    statm >> pages >> resident;
    return std::to_string(resident * size_t(sysconf(_SC_PAGESIZE)));
}

// What besides a map's bytes decides its pictures: the content folders it is drawn with (a restart with other
// game folders must not answer 304 for a picture that changed).
std::string contentSetup(const std::vector<std::string>& gameDirs, const std::string& palette) {
    std::string s = "\npalette " + palette;
    for (const std::string& d : gameDirs) s += "\ngame " + d;
    return s;
}

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

}  // namespace

int runServer(const ServeOptions& given) {
    ServeOptions options = given;
    if (options.workers <= 0) options.workers = int(std::max(1u, std::thread::hardware_concurrency()));
    const auto [host, port] = splitListen(options.listen);

    // SIGTERM / SIGINT go to one waiting thread (blocked here, before any thread starts, so every
    // thread inherits the mask).
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);

    const double t0 = nowMs();
    const serve::Catalogue catalogue = serve::buildCatalogue(options.roots, options.gameDirs);
    for (const std::string& w : catalogue.warnings) std::cerr << "luxel: warning: " << escapeForLog(w) << "\n";
    size_t readable = 0;
    for (const auto& e : catalogue.maps) readable += e.error.empty();
    std::cerr << fmt::format("luxel serve: {} maps under {} roots ({} unreadable), listed in {:.2f} s\n", catalogue.maps.size(),
                             options.roots.size(), catalogue.maps.size() - readable, (nowMs() - t0) / 1000);
    setTextureCacheBudget(options.textureCacheBytes);
    setStudioModelCacheBudget(options.textureCacheBytes / 4);  // Source props' models, beside their textures

    serve::Metrics metrics;
    serve::RenderService renderer(options, metrics);
    std::atomic<int> active{0};
    std::atomic<bool> draining{false};

    httplib::Server server;
    server.new_task_queue = [n = size_t(std::max(options.connections, 2))] { return new httplib::ThreadPool(n); };
    server.set_keep_alive_max_count(100000);
    server.set_keep_alive_timeout(5);
    server.set_read_timeout(10);
    server.set_write_timeout(10);
    server.set_payload_max_length(options.uploadBytes);
    server.set_tcp_nodelay(true);

    server.set_pre_routing_handler([&](const httplib::Request& req, httplib::Response& res) {
        tRequestStart = Clock::now();
        tCounted = true;
        active.fetch_add(1);
        if (draining.load() && req.path != "/healthz") {  // /healthz answers 503 "draining" itself
            sendError(res, 503, "the service is shutting down", 1);
            return httplib::Server::HandlerResponse::Handled;
        }
        return httplib::Server::HandlerResponse::Unhandled;
    });
    // Answers cpp-httplib makes itself (no route: 404, a body past the limit: 413, a bad request: 400) get the
    // same JSON body as ours.
    server.set_error_handler(httplib::Server::HandlerWithResponse([](const httplib::Request& req, httplib::Response& res) {
        if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
        std::string line = fmt::format("HTTP status {}", res.status);
        if (res.status == 404) line = "no such page: " + escapeForLog(req.path);
        if (res.status == 413) line = "the request body is over the upload limit";
        sendError(res, res.status, line);
        return httplib::Server::HandlerResponse::Handled;
    }));
    server.set_logger([&](const httplib::Request& req, const httplib::Response& res) {
        const double seconds = tCounted ? std::chrono::duration<double>(Clock::now() - tRequestStart).count() : 0.0;
        metrics.record(res.status, seconds);
        if (tCounted) active.fetch_sub(1);
        tCounted = false;
        if (!options.accessLog) return;
        std::string target = req.path;
        if (!req.params.empty()) {
            target += '?';
            for (const auto& [k, v] : req.params) target += k + "=" + v + "&";
            target.pop_back();
        }
        std::string line = fmt::format("{} \"{} {}\" {} {} {:.1f} ms", req.remote_addr, escapeForLog(req.method),
                                       escapeForLog(target), res.status, res.body.size(), seconds * 1000);
        if (res.status >= 400 && res.get_header_value("Content-Type") == "application/json") {
            const auto body = nlohmann::json::parse(res.body, nullptr, false);
            if (body.is_object() && body.contains("error")) line += " " + escapeForLog(body["error"].get<std::string>());
        }
        std::cerr << line + "\n";
    });

    server.Get("/healthz", [&](const httplib::Request&, httplib::Response& res) {
        const nlohmann::json body = {{"status", draining ? "draining" : "ok"}, {"maps", readable}};
        res.status = draining ? 503 : 200;
        res.set_content(body.dump() + "\n", "application/json");
    });
    server.Get("/maps", [&](const httplib::Request&, httplib::Response& res) {
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const auto& e : catalogue.maps) {
            nlohmann::ordered_json m = {{"name", e.name}, {"format", e.format}, {"hash", e.hash}, {"bytes", e.bytes}};
            if (e.error.empty()) m["image"] = "/maps/" + e.name + ".png";
            else m["error"] = e.error;
            list.push_back(std::move(m));
        }
        res.set_content(nlohmann::ordered_json{{"maps", list}}.dump(1) + "\n", "application/json");
    });
    server.Get(R"(/maps/([^/]+)\.(png|jpg|webp))", [&](const httplib::Request& req, httplib::Response& res) {
        answer(res, [&] {
            const std::string name = req.matches[1];
            if (name.find('\0') != std::string::npos) throw ServeError(400, "map name holds a NUL byte");
            const serve::CatalogueEntry* entry = catalogue.find(name);
            if (!entry) throw ServeError(404, "no map '" + escapeForLog(name) + "' under the roots (GET /maps lists them)");
            if (!entry->error.empty()) throw ServeError(422, entry->error);
            serve::ViewQuery query;
            try {
                query = serve::parseViewQuery(req.params, req.matches[2], options.maxWidth, options.maxHeight);
            } catch (const UsageError& e) {
                throw ServeError(400, e.what());
            }
            const std::string etag = serve::makeEtag(entry->hash + contentSetup(entry->gameDirs, options.palette), query.key);
            if (req.has_header("If-None-Match") && serve::matchesEtag(req.get_header_value("If-None-Match"), etag)) {
                metrics.countNotModified();
                res.status = 304;
                res.set_header("ETag", etag);
                res.set_header("Cache-Control", "public, max-age=3600");
                return;
            }
            auto image = renderer.cachedImage(etag);
            if (!image) image = renderer.renderListed(*entry, query, etag, serve::Deadline::after(options.requestSeconds));
            sendImage(res, *image, "public, max-age=3600");
        });
    });
    // The body is read here, not by cpp-httplib's own form handling: a map sent as
    // application/x-www-form-urlencoded (curl --data-binary's default) would otherwise be parsed as parameters.
    server.Post("/render", [&](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader) {
        answer(res, [&] {
            const serve::Deadline deadline = serve::Deadline::after(options.requestSeconds);
            std::string format = req.has_param("format") ? req.get_param_value("format") : "png";
            serve::ViewQuery query;
            try {
                query = serve::parseViewQuery(req.params, format, options.maxWidth, options.maxHeight);
            } catch (const UsageError& e) {
                throw ServeError(400, e.what());
            }
            const auto tooLargeError = [&] {
                return ServeError(413, fmt::format("upload: over the upload limit of {} MiB", options.uploadBytes >> 20));
            };
            std::string content, fileName;
            bool tooLarge = false;
            auto append = [&](const char* data, size_t n) {
                if (content.size() + n > options.uploadBytes) return !(tooLarge = true);
                content.append(data, n);
                return true;
            };
            bool read = false;
            if (req.is_multipart_form_data()) {
                bool inMap = false, sawMap = false;
                read = reader(
                    [&](const httplib::MultipartFormData& field) {
                        inMap = field.name == "map" && !sawMap;
                        if (inMap) sawMap = true, fileName = field.filename;
                        return true;
                    },
                    [&](const char* data, size_t n) { return inMap ? append(data, n) : true; });
                if (read && !sawMap) throw ServeError(400, "upload: the form has no file field 'map'");
            } else {
                read = reader(append);
            }
            // cpp-httplib refuses a body past set_payload_max_length itself (and closes the connection, whose
            // unread bytes would otherwise be taken for the next request): its reader then fails.
            if (tooLarge || (!read && req.has_header("Content-Length") &&
                             req.get_header_value<uint64_t>("Content-Length") > uint64_t(options.uploadBytes)))
                throw tooLargeError();
            if (!read) throw ServeError(400, "upload: the request body could not be read");
            Bytes body(content.begin(), content.end());
            content.clear();
            content.shrink_to_fit();
            const std::string member = req.has_param("map") ? req.get_param_value("map") : "";
            const std::string etag = serve::makeEtag(
                batch::contentHash(body) + "\n" + member + contentSetup(options.gameDirs, options.palette), query.key);
            auto image = renderer.cachedImage(etag);
            if (!image) image = renderer.renderUpload(std::move(body), fileName, member, query, etag, deadline);
            sendImage(res, *image, "private, max-age=3600");
        });
    });
    server.Get("/metrics", [&](const httplib::Request&, httplib::Response& res) {
        std::string text = metrics.text();
        const serve::CacheFigures mapsCache = renderer.mapFigures(), images = renderer.imageFigures();
        const TextureCacheStats textures = textureCacheStats();
        serve::CacheFigures textureFigures;
        textureFigures.bytes = textures.bytes, textureFigures.capacity = options.textureCacheBytes;
        textureFigures.entries = textures.entries;
        textureFigures.hits = textures.hits, textureFigures.misses = textures.lookups - textures.hits;
        text += serve::metricFamily("luxel_render_queue_depth", "gauge", "Renders waiting for a worker.",
                                    {{"", double(renderer.gate().waiting())}});
        text += serve::metricFamily("luxel_renders_running", "gauge", "Renders running now.",
                                    {{"", double(renderer.gate().running())}});
        text += serve::cacheFamilies({{"maps", mapsCache}, {"textures", textureFigures}, {"images", images}});
        text += serve::metricFamily("luxel_maps_loaded", "gauge", "Decoded maps held by the map cache.",
                                    {{"", double(mapsCache.entries)}});
        text += serve::metricFamily("luxel_maps_listed", "gauge", "Maps under the roots (readable ones).",
                                    {{"", double(readable)}});
        text += "# HELP process_resident_memory_bytes Resident memory size in bytes.\n"
                "# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes " + residentBytes() + "\n";
        res.set_content(text, "text/plain; version=0.0.4");
    });
    const std::string page = serve::galleryPage(catalogue);
    server.Get("/", [&](const httplib::Request&, httplib::Response& res) { res.set_content(page, "text/html; charset=utf-8"); });

    int bound = port;
    if (port == 0) bound = server.bind_to_any_port(host);
    else if (!server.bind_to_port(host, port)) bound = -1;
    if (bound <= 0) throw UsageError("--listen " + options.listen + ": cannot bind (in use, or not an address of this machine)");
    if (!options.portFile.empty()) {
        const std::string text = std::to_string(bound) + "\n";
        writeFileAtomic(options.portFile, Bytes(text.begin(), text.end()));
    }
    std::cerr << fmt::format("luxel serve: listening on http://{}:{}/ ({} workers, queue {}, {} connections)\n", host, bound,
                             options.workers, options.queue, options.connections);

    // SIGTERM: stop taking requests (503 on open connections), let the ones in flight finish, then stop.
    std::thread stopper([&] {
        int sig = 0;
        sigwait(&signals, &sig);
        std::cerr << fmt::format("luxel serve: {} received: finishing {} requests in flight\n", sig == SIGTERM ? "SIGTERM" : "SIGINT",
                                 active.load());
        draining = true;
        renderer.gate().close();
        const auto limit = Clock::now() + std::chrono::duration<double>(options.requestSeconds + 5);
        while (active.load() > 0 && Clock::now() < limit) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        server.stop();
    });
    const bool listened = server.listen_after_bind();
    if (!listened && !draining) {
        pthread_kill(stopper.native_handle(), SIGTERM);
    }
    stopper.join();
    std::cerr << "luxel serve: stopped\n";
    return 0;
}

}  // namespace luxel
