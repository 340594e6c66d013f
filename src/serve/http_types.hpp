#pragma once
// A request as the routes see it and the answer they give: plain data between the network side
// (connection.cpp, on Boost.Beast) and the routes (routes.cpp), so the routes know no HTTP library.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "render_service.hpp"

namespace luxel::serve {

struct HttpRequest {
    std::string method;                          // "GET", "HEAD", "POST", ...
    std::string path;                            // percent-decoded ('+' kept), as routes match it
    std::multimap<std::string, std::string> params;  // the query, percent-decoded ('+' is a space)
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
    std::string remoteAddress;
    // The first header of that name (case-insensitive), or null.
    const std::string* findHeader(const std::string& name) const;
    std::string header(const std::string& name) const {
        const std::string* v = findHeader(name);
        return v ? *v : std::string();
    }
    bool hasHeader(const std::string& name) const { return findHeader(name) != nullptr; }
};

struct HttpResponse {
    int status = 200;
    std::string contentType;
    std::vector<std::pair<std::string, std::string>> headers;  // besides Content-Type and Content-Length
    std::string text;                           // the body, unless `image` is set
    std::shared_ptr<const EncodedImage> image;  // the body: its bytes, shared with the image cache
    std::string errorLine;                      // for the access log: what a 4xx/5xx says

    size_t bodySize() const { return image ? image->bytes.size() : text.size(); }
};

// "luxel: error: LINE" as the CLI prints it, in a JSON body; retryAfter > 0 adds Retry-After.
HttpResponse errorResponse(int status, const std::string& line, int retryAfter = 0);

// What a route answers: a response at once (cheap: listings, cached images, 304s, errors), or work that
// blocks (decoding, drawing, encoding), admitted by the render gate and run on the render threads.
struct Answer {
    HttpResponse now;
    std::function<HttpResponse()> later;
};

}  // namespace luxel::serve
