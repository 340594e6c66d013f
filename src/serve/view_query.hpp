#pragma once
// A request's view options, in the CLI's words (camera=best|spawn:N|intermission|overview, size=512x288, mode,
// look, time, ...), checked with the batch's own checks and written out in one canonical order: two URLs that
// ask for the same picture get the same key, so the same ETag and the same cached bytes.
#include <map>
#include <string>

#include "luxel/render/map_view.hpp"
#include "luxel/scene/scene.hpp"

namespace luxel::serve {

struct ViewQuery {
    SceneView view;
    std::string format = "png";  // png | jpg | webp
    std::string key;             // canonical "camera=best&format=png&size=512x288&..." (every option, defaults too)
    ViewRequest request() const;
};

// Parses query parameters (already percent-decoded by the HTTP library). `format` comes from the URL's
// extension (GET) or the format= parameter (POST). Throws UsageError "query: KEY: what" for an unknown key, a
// bad value or a size past maxWidth x maxHeight.
ViewQuery parseViewQuery(const std::multimap<std::string, std::string>& params, const std::string& format,
                         int maxWidth, int maxHeight);

// The query keys parseViewQuery takes besides format (for the page and the error text).
const char* viewQueryKeys();

}  // namespace luxel::serve
