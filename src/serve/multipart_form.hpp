#pragma once
// multipart/form-data bodies (RFC 7578), as a browser's upload form and `curl -F` send them: the parts' names,
// file names and contents. Header parameters are read with Boost.Beast's param_list; the framing (boundary
// lines, part headers) is RFC 2046's and is all this file does. Debian's cpp-httplib keeps its own multipart
// parser out of its public header, and Poco's would bring database client packages along.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace luxel::serve {

struct FormPart {
    std::string name, fileName;  // from Content-Disposition: form-data; name="..."; filename="..."
    std::string_view content;    // into the body given
};

// The boundary of a "multipart/form-data; boundary=..." Content-Type, or nullopt when it is not one.
std::optional<std::string> formBoundary(std::string_view contentType);

// The parts of `body`; nullopt when the framing is broken (no first boundary, a part without its header's end,
// no closing boundary).
std::optional<std::vector<FormPart>> parseForm(std::string_view body, const std::string& boundary);

}  // namespace luxel::serve
