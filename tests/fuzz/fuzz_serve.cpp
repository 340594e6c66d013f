// libFuzzer entry point for what `luxel serve` does with a request itself (built with -DLUXEL_FUZZ=ON, run by
// tools/fuzz.sh). The HTTP parsing is Boost.Beast's; an input is split at its first newline into a request
// target and a body, and goes through what the routes do with them: the URL's path against the image route, its
// query through the service's target parser (uriparser) into parseViewQuery, an If-None-Match value against an ETag, the
// first line as a form's Content-Type and the body as its parts (multipart_form), and the body as an upload
// (openUpload: magic bytes, an archive's central directory and member claims, the map member).
// ServeError, DecodeError and UsageError are the expected answers; anything else is a finding.
#include <tbb/global_control.h>

#include <cstddef>
#include <cstdint>
#include <regex>
#include <string>

#include "../../src/serve/multipart_form.hpp"
#include "../../src/serve/render_service.hpp"
#include "../../src/serve/request_target.hpp"
#include "../../src/serve/uploads.hpp"
#include "../../src/serve/view_query.hpp"
#include "luxel/util/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const tbb::global_control oneThread(tbb::global_control::max_allowed_parallelism, 1);
    static const std::regex imageRoute(R"(/maps/([^/]+)\.(png|jpg|webp))");
    const std::string input(reinterpret_cast<const char*>(data), size);
    const size_t newline = input.find('\n');
    const std::string target = input.substr(0, newline);
    const std::string body = newline == std::string::npos ? std::string() : input.substr(newline + 1);
    const luxel::serve::RequestTarget parsed = luxel::serve::parseRequestTarget(target);
    std::smatch match;
    const bool image = std::regex_match(parsed.path, match, imageRoute);
    try {
        const luxel::serve::ViewQuery q = luxel::serve::parseViewQuery(parsed.params, image ? match[2].str() : "png", 3840, 2160);
        const std::string etag = luxel::serve::makeEtag(std::to_string(size), q.key);
        (void)luxel::serve::matchesEtag(body.substr(0, 200), etag);
        (void)q.request();
    } catch (const luxel::UsageError&) {
    }
    // The first line as a Content-Type, else a fixed boundary: the body's form framing either way.
    const std::string boundary = luxel::serve::formBoundary(target).value_or("b");
    if (const auto parts = luxel::serve::parseForm(body, boundary))
        for (const luxel::serve::FormPart& part : *parts)
            if (part.content.data() < body.data() || part.content.data() + part.content.size() > body.data() + body.size())
                __builtin_trap();  // a part must lie inside the body
    try {
        const luxel::serve::UploadedMap up = luxel::serve::openUpload(luxel::Bytes(body.begin(), body.end()), target,
                                                                      image ? match[1].str() : "", {size_t(16) << 20, size_t(64) << 20});
        (void)up.clean(up.source.displayName);
    } catch (const luxel::serve::ServeError&) {
    } catch (const luxel::DecodeError&) {
    } catch (const luxel::UsageError&) {
    }
    return 0;
}
