#pragma once
// What each URL answers: GET /healthz, /metrics, /maps, /maps/NAME.(png|jpg|webp), /, POST /render (HEAD as
// GET without the body). Cheap answers are made at once on the network thread; drawing passes the per-address
// rate limit and the render gate here and is handed back as work for the render threads. Knows no HTTP
// library: requests and responses are http_types.hpp's plain data.
#include <atomic>

#include "client_limits.hpp"
#include "http_types.hpp"
#include "live_catalogue.hpp"
#include "luxel/serve/serve.hpp"
#include "metrics.hpp"
#include "render_service.hpp"

namespace luxel::serve {

struct ServeContext {
    const ServeOptions& options;
    Metrics& metrics;
    RenderService& renderer;
    LiveCatalogue& catalogue;
    RenderRateLimit& rateLimit;
    const std::atomic<bool>& draining;
};

// The answer to `request` (its body is moved into the work of an upload).
Answer route(const ServeContext& context, HttpRequest&& request);

// Whether the request may carry a body as large as the upload limit (POST /render); other bodies are small.
bool takesUpload(const std::string& method, const std::string& path);
// 413 for a body past the limit, in the words of each route.
HttpResponse bodyTooLarge(const ServeOptions& options, bool upload);

}  // namespace luxel::serve
