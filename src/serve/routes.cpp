#include "routes.hpp"

#include <boost/beast/core/string.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <fstream>
#include <regex>

#include "luxel/batch/batch.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"
#include "multipart_form.hpp"
#include "view_query.hpp"

namespace luxel::serve {
namespace {

HttpResponse json(const std::string& text, int status = 200) {
    HttpResponse res;
    res.status = status;
    res.contentType = "application/json";
    res.text = text;
    return res;
}

// Runs a handler, turning every exception into its status and one-line JSON error.
template <class F>
HttpResponse guarded(F&& f) {
    try {
        return f();
    } catch (const ServeError& e) {
        return errorResponse(e.status, e.what(), e.retryAfter);
    } catch (const DecodeError& e) {  // LimitError too
        return errorResponse(422, e.what());
    } catch (const UsageError& e) {
        return errorResponse(422, e.what());
    } catch (const std::bad_alloc&) {
        return errorResponse(500, "out of memory");
    } catch (const std::exception& e) {
        return errorResponse(500, std::string("internal error: ") + e.what());
    }
}

HttpResponse imageResponse(std::shared_ptr<const EncodedImage> image, const char* cacheControl) {
    HttpResponse res;
    res.contentType = image->contentType;
    res.headers = {{"ETag", image->etag}, {"Cache-Control", cacheControl}};
    if (!image->timing.empty()) res.headers.emplace_back("Server-Timing", image->timing);
    res.image = std::move(image);
    return res;
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

ViewQuery viewQuery(const HttpRequest& req, const std::string& format, const ServeOptions& options) {
    try {
        return parseViewQuery(req.params, format, options.maxWidth, options.maxHeight);
    } catch (const UsageError& e) {
        throw ServeError(400, e.what());
    }
}

std::string param(const HttpRequest& req, const std::string& key, const std::string& otherwise) {
    auto it = req.params.find(key);
    return it == req.params.end() ? otherwise : it->second;
}

// A request that draws: within its address's render rate (429 past it) and admitted by the gate (503 when
// the queue is full); the ticket starts on a render thread.
std::shared_ptr<WorkGate::Ticket> admitRender(const ServeContext& c, const HttpRequest& req) {
    int retryAfter = 0;
    if (!c.rateLimit.take(req.remoteAddress, std::chrono::steady_clock::now(), retryAfter)) {
        c.metrics.countRefusal("rate_limit");
        throw ServeError(429,
                         fmt::format("rate limit: renders from {} are limited to {:g} a second (cached pictures are not counted)",
                                     req.remoteAddress, c.options.renderRate),
                         retryAfter);
    }
    return std::make_shared<WorkGate::Ticket>(c.renderer.gate().admit());
}

HttpResponse healthz(const ServeContext& c) {
    const bool draining = c.draining.load();
    const nlohmann::json body = {{"status", draining ? "draining" : "ok"}, {"maps", c.catalogue.current()->readable}};
    return json(body.dump() + "\n", draining ? 503 : 200);
}

HttpResponse mapList(const ServeContext& c) {
    const std::shared_ptr<const Listing> listing = c.catalogue.current();
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& e : listing->catalogue.maps) {
        nlohmann::ordered_json m = {{"name", e.name}, {"format", e.format}, {"hash", e.hash}, {"bytes", e.bytes}};
        if (e.error.empty()) m["image"] = "/maps/" + e.name + ".png";
        else m["error"] = e.error;
        list.push_back(std::move(m));
    }
    return json(nlohmann::ordered_json{{"maps", list}}.dump(1) + "\n");
}

HttpResponse metricsText(const ServeContext& c) {
    std::string text = c.metrics.text();
    const serve::CacheFigures mapsCache = c.renderer.mapFigures(), images = c.renderer.imageFigures();
    const TextureCacheStats textures = textureCacheStats();
    CacheFigures textureFigures;
    textureFigures.bytes = textures.bytes, textureFigures.capacity = c.options.textureCacheBytes;
    textureFigures.entries = textures.entries;
    textureFigures.hits = textures.hits, textureFigures.misses = textures.lookups - textures.hits;
    text += metricFamily("luxel_render_queue_depth", "gauge", "Renders waiting for a worker.",
                         {{"", double(c.renderer.gate().waiting())}});
    text += metricFamily("luxel_renders_running", "gauge", "Renders running now.", {{"", double(c.renderer.gate().running())}});
    text += cacheFamilies({{"maps", mapsCache}, {"textures", textureFigures}, {"images", images}});
    text += metricFamily("luxel_maps_loaded", "gauge", "Decoded maps held by the map cache.", {{"", double(mapsCache.entries)}});
    text += metricFamily("luxel_maps_listed", "gauge", "Maps under the roots (readable ones).",
                         {{"", double(c.catalogue.current()->readable)}});
    text += "# HELP process_resident_memory_bytes Resident memory size in bytes.\n"
            "# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes " + residentBytes() + "\n";
    HttpResponse res;
    res.contentType = "text/plain; version=0.0.4";
    res.text = std::move(text);
    return res;
}

Answer mapImage(const ServeContext& c, const HttpRequest& req, const std::string& name, const std::string& format) {
    Answer a;
    a.now = guarded([&]() -> HttpResponse {
        if (name.find('\0') != std::string::npos) throw ServeError(400, "map name holds a NUL byte");
        std::shared_ptr<const Listing> listing = c.catalogue.current();
        const CatalogueEntry* entry = listing->catalogue.find(name);
        if (!entry) throw ServeError(404, "no map '" + escapeForLog(name) + "' under the roots (GET /maps lists them)");
        if (!entry->error.empty()) throw ServeError(422, entry->error);
        const ViewQuery query = viewQuery(req, format, c.options);
        const std::string etag = makeEtag(entry->hash + contentSetup(entry->gameDirs, c.options.palette), query.key);
        if (req.hasHeader("If-None-Match") && matchesEtag(req.header("If-None-Match"), etag)) {
            c.metrics.countNotModified();
            HttpResponse res;
            res.status = 304;
            res.headers = {{"ETag", etag}, {"Cache-Control", "public, max-age=3600"}};
            return res;
        }
        if (auto image = c.renderer.cachedImage(etag)) return imageResponse(std::move(image), "public, max-age=3600");
        // A miss: drawn off the network threads, with the listing of the moment it arrived (a rescan meanwhile
        // leaves it alone), against the deadline counted from now.
        const Deadline deadline = Deadline::after(c.options.requestSeconds);
        a.later = [&c, listing, entry, query, etag, deadline, ticket = admitRender(c, req)] {
            return guarded([&] {
                return imageResponse(c.renderer.renderListed(*entry, query, etag, deadline, *ticket), "public, max-age=3600");
            });
        };
        return {};
    });
    return a;
}

// The map of an upload: the body itself, or the first file field "map" of a form.
Answer upload(const ServeContext& c, HttpRequest&& req) {
    Answer a;
    a.now = guarded([&]() -> HttpResponse {
        const Deadline deadline = Deadline::after(c.options.requestSeconds);
        const ViewQuery query = viewQuery(req, param(req, "format", "png"), c.options);
        std::string fileName;
        std::string_view content = req.body;
        if (const auto boundary = formBoundary(req.header("Content-Type"))) {
            const auto parts = parseForm(req.body, *boundary);
            if (!parts) throw ServeError(400, "upload: the request body could not be read");
            auto field = std::find_if(parts->begin(), parts->end(), [](const FormPart& p) { return p.name == "map"; });
            if (field == parts->end()) throw ServeError(400, "upload: the form has no file field 'map'");
            fileName = field->fileName;
            content = field->content;
        }
        const std::string member = param(req, "map", "");
        auto ticket = admitRender(c, req);  // every upload counts: its hash is not known before the work
        Bytes bytes(content.begin(), content.end());  // the one copy of the map; the request's body is let go now
        std::string().swap(req.body);
        a.later = [&c, bytes = std::move(bytes), fileName, member, query, deadline, ticket]() mutable {
            return guarded([&] {
                const std::string etag = makeEtag(batch::contentHash(bytes) + "\n" + member + contentSetup(c.options.gameDirs, c.options.palette),
                                                  query.key);
                auto image = c.renderer.cachedImage(etag);
                if (!image) image = c.renderer.renderUpload(std::move(bytes), fileName, member, query, etag, deadline, *ticket);
                return imageResponse(std::move(image), "private, max-age=3600");
            });
        };
        return {};
    });
    return a;
}

Answer now(HttpResponse res) {
    Answer a;
    a.now = std::move(res);
    return a;
}

}  // namespace

const std::string* HttpRequest::findHeader(const std::string& name) const {
    for (const auto& [k, v] : headers)
        if (boost::beast::iequals(k, name)) return &v;
    return nullptr;
}

HttpResponse errorResponse(int status, const std::string& line, int retryAfter) {
    const nlohmann::json body = {{"error", "luxel: error: " + line}, {"status", status}};
    HttpResponse res = json(body.dump() + "\n", status);
    if (retryAfter > 0) res.headers.emplace_back("Retry-After", std::to_string(retryAfter));
    res.errorLine = "luxel: error: " + line;
    return res;
}

bool takesUpload(const std::string& method, const std::string& path) { return method == "POST" && path == "/render"; }

HttpResponse bodyTooLarge(const ServeOptions& options, bool upload) {
    if (upload) return errorResponse(413, fmt::format("upload: over the upload limit of {} MiB", options.uploadBytes >> 20));
    return errorResponse(413, "the request body is over the upload limit");
}

Answer route(const ServeContext& c, HttpRequest&& req) {
    // /healthz answers 503 "draining" itself.
    if (c.draining.load() && req.path != "/healthz") return now(errorResponse(503, "the service is shutting down", 1));
    static const std::regex imageRoute(R"(/maps/([^/]+)\.(png|jpg|webp))");
    const bool get = req.method == "GET" || req.method == "HEAD";
    std::smatch match;
    const bool image = std::regex_match(req.path, match, imageRoute);
    const bool known = image || req.path == "/healthz" || req.path == "/maps" || req.path == "/metrics" || req.path == "/" ||
                       req.path == "/render";
    if (!known) return now(errorResponse(404, "no such page: " + escapeForLog(req.path)));
    if (req.path == "/render") {
        if (req.method == "POST") return upload(c, std::move(req));
    } else if (get) {
        if (image) return mapImage(c, req, match[1], match[2]);
        if (req.path == "/healthz") return now(healthz(c));
        if (req.path == "/maps") return now(mapList(c));
        if (req.path == "/metrics") return now(metricsText(c));
        HttpResponse page;
        page.contentType = "text/html; charset=utf-8";
        page.text = c.catalogue.current()->page;
        return now(std::move(page));
    }
    HttpResponse res = errorResponse(405, "method " + escapeForLog(req.method) + " is not allowed on " + escapeForLog(req.path));
    res.headers.emplace_back("Allow", req.path == "/render" ? "POST" : "GET, HEAD");
    return now(std::move(res));
}

}  // namespace luxel::serve
