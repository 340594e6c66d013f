#include "multipart_form.hpp"

#include <boost/beast/core/string.hpp>
#include <boost/beast/http/rfc7230.hpp>

namespace luxel::serve {
namespace {

namespace http = boost::beast::http;

// A parameter value as param_list gives it: a token, or a quoted-string with its quotes and escapes.
std::string unquote(std::string_view v) {
    if (v.size() < 2 || v.front() != '"') return std::string(v);
    std::string out;
    for (size_t i = 1; i + 1 < v.size(); ++i) {
        if (v[i] == '\\' && i + 2 < v.size()) ++i;
        out += v[i];
    }
    return out;
}

// The parameters after a field value's first ';' ("form-data; name=...").
template <class F>
void eachParam(std::string_view value, F&& f) {
    const size_t semicolon = value.find(';');
    if (semicolon == std::string_view::npos) return;
    const std::string_view rest = value.substr(semicolon);
    for (const auto& [name, v] : http::param_list(boost::beast::string_view(rest.data(), rest.size())))
        f(std::string_view(name.data(), name.size()), unquote(std::string_view(v.data(), v.size())));
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

}  // namespace

std::optional<std::string> formBoundary(std::string_view contentType) {
    const std::string_view type = trim(contentType.substr(0, contentType.find(';')));
    if (!boost::beast::iequals(boost::beast::string_view(type.data(), type.size()), "multipart/form-data")) return std::nullopt;
    std::optional<std::string> boundary;
    eachParam(contentType, [&](std::string_view name, std::string value) {
        if (boost::beast::iequals(boost::beast::string_view(name.data(), name.size()), "boundary") && !value.empty() &&
            value.size() <= 70)  // RFC 2046's limit
            boundary = std::move(value);
    });
    return boundary;
}

std::optional<std::vector<FormPart>> parseForm(std::string_view body, const std::string& boundary) {
    const std::string delimiter = "--" + boundary;
    // The first boundary line opens the body or follows a preamble's CRLF.
    size_t at = body.starts_with(delimiter) ? 0 : body.find("\r\n" + delimiter);
    if (at == std::string_view::npos) return std::nullopt;
    at += body.starts_with(delimiter) ? delimiter.size() : delimiter.size() + 2;
    const std::string next = "\r\n" + delimiter;
    std::vector<FormPart> parts;
    for (;;) {
        if (body.substr(at, 2) == "--") return parts;  // the closing boundary
        at = body.find("\r\n", at);                      // transport padding up to the line's end
        if (at == std::string_view::npos) return std::nullopt;
        at += 2;
        const size_t headEnd = body.find("\r\n\r\n", at);
        const size_t contentEnd = body.find(next, at);
        if (contentEnd == std::string_view::npos) return std::nullopt;
        FormPart part;
        size_t contentStart = at;
        if (!body.substr(at).starts_with("\r\n")) {  // a part with header lines
            if (headEnd == std::string_view::npos || headEnd > contentEnd) return std::nullopt;
            for (size_t line = at; line < headEnd + 2;) {
                const size_t end = body.find("\r\n", line);
                const std::string_view field = body.substr(line, end - line);
                line = end + 2;
                const size_t colon = field.find(':');
                if (colon == std::string_view::npos) continue;
                const std::string_view name = trim(field.substr(0, colon));
                if (!boost::beast::iequals(boost::beast::string_view(name.data(), name.size()), "Content-Disposition")) continue;
                eachParam(field.substr(colon + 1), [&](std::string_view key, std::string value) {
                    if (boost::beast::iequals(boost::beast::string_view(key.data(), key.size()), "name")) part.name = value;
                    if (boost::beast::iequals(boost::beast::string_view(key.data(), key.size()), "filename")) part.fileName = value;
                });
            }
            contentStart = headEnd + 4;
        } else {
            contentStart = at + 2;
        }
        if (contentStart > contentEnd) return std::nullopt;  // the header's blank line runs into the boundary
        part.content = body.substr(contentStart, contentEnd - contentStart);
        parts.push_back(std::move(part));
        at = contentEnd + next.size();
    }
}

}  // namespace luxel::serve
