#include "luxel/batch/index_page.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string_view>
#include <system_error>
#include <unistd.h>
#include <vector>

#include "luxel/util/error.hpp"

namespace luxel {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// ---- reading a manifest that may miss anything ----

const json* field(const json& j, const char* key) {
    if (!j.is_object()) return nullptr;
    auto it = j.find(key);
    return it == j.end() ? nullptr : &*it;
}

std::string text(const json& j, const char* key) {
    const json* f = field(j, key);
    return f && f->is_string() ? f->get<std::string>() : std::string();
}

std::optional<double> number(const json& j, const char* key) {
    const json* f = field(j, key);
    if (!f || !f->is_number()) return std::nullopt;
    double v = f->get<double>();
    return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

const json& list(const json& j, const char* key) {
    static const json kEmpty = json::array();
    const json* f = field(j, key);
    return f && f->is_array() ? *f : kEmpty;
}

// ---- escaping ----

}  // namespace

std::string escapeHtml(std::string_view in) {
    static const std::string kReplacement = "\xEF\xBF\xBD";
    std::string out;
    out.reserve(in.size());
    size_t i = 0;
    while (i < in.size()) {
        auto c = static_cast<unsigned char>(in[i]);
        if (c < 0x80) {
            switch (c) {
                case '&': out += "&amp;"; break;
                case '<': out += "&lt;"; break;
                case '>': out += "&gt;"; break;
                case '"': out += "&quot;"; break;
                case '\'': out += "&#39;"; break;
                default:
                    if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
                        out += kReplacement;
                    else
                        out += char(c);
            }
            ++i;
            continue;
        }
        size_t length = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
        bool valid = length > 0 && i + length <= in.size();
        uint32_t cp = length == 2 ? (c & 0x1fu) : length == 3 ? (c & 0x0fu) : (c & 0x07u);
        for (size_t k = 1; valid && k < length; ++k) {
            auto d = static_cast<unsigned char>(in[i + k]);
            valid = (d & 0xc0) == 0x80;
            cp = (cp << 6) | (d & 0x3fu);
        }
        static constexpr uint32_t kMinimum[5] = {0, 0, 0x80, 0x800, 0x10000};
        valid = valid && cp >= kMinimum[length] && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) &&
                !(cp >= 0x80 && cp < 0xa0);  // C1 controls
        if (valid) {
            out.append(in.substr(i, length));
            i += length;
        } else {
            out += kReplacement;
            ++i;
        }
    }
    return out;
}

namespace {

bool isUnreserved(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
           c == '_' || c == '~';
}

// An output path as a link relative to the page, or nothing when it is not a plain relative path inside the
// page's folder: absolute paths (unless inside baseDir), "..", backslashes, control bytes and scheme-like
// starts ("javascript:") get no link. Every byte but unreserved ones and the '/' between segments is
// percent-encoded, so the result needs no further escaping in an attribute.
std::optional<std::string> relativeHref(const std::string& path, const std::string& baseDir) {
    std::string p = path;
    if (!p.empty() && p.front() == '/') {
        if (baseDir.empty()) return std::nullopt;
        std::error_code ec;
        fs::path base = fs::absolute(fs::path(baseDir), ec).lexically_normal();
        if (ec) return std::nullopt;
        fs::path rel = fs::path(p).lexically_normal().lexically_relative(base);
        p = rel.generic_string();
        if (p.empty() || p == "." || p.front() == '/') return std::nullopt;
    }
    if (p.empty()) return std::nullopt;
    for (char ch : p) {
        auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c == 0x7f || c == '\\') return std::nullopt;
    }
    std::vector<std::string> segments;
    for (size_t i = 0; i <= p.size();) {
        size_t end = p.find('/', i);
        if (end == std::string::npos) end = p.size();
        std::string segment = p.substr(i, end - i);
        if (segment == "..") return std::nullopt;
        if (!segment.empty() && segment != ".") segments.push_back(segment);
        i = end + 1;
    }
    if (segments.empty()) return std::nullopt;
    // A first segment like "javascript:..." or "c:" would read as a scheme if a browser ever saw the colon.
    const std::string& first = segments.front();
    size_t colon = first.find(':');
    if (colon != std::string::npos) return std::nullopt;

    std::string out;
    for (size_t s = 0; s < segments.size(); ++s) {
        if (s) out += '/';
        for (char ch : segments[s]) {
            auto c = static_cast<unsigned char>(ch);
            if (isUnreserved(c))
                out += char(c);
            else
                out += fmt::format("%{:02X}", unsigned(c));
        }
    }
    return out;
}

// ---- formatting ----

std::string duration(double ms) {
    if (ms < 10.0) return fmt::format("{:.1f} ms", ms);
    if (ms < 1000.0) return fmt::format("{:.0f} ms", ms);
    return fmt::format("{:.1f} s", ms / 1000.0);
}

std::string count(double v) { return fmt::format("{:.0f}", v); }

struct View {
    std::string name, mode, href, camera;
    int width = 0, height = 0;
};

View readView(const json& v, const std::string& baseDir) {
    View view;
    view.name = text(v, "name");
    view.mode = text(v, "mode");
    view.href = relativeHref(text(v, "output"), baseDir).value_or("");
    auto w = number(v, "width"), h = number(v, "height");
    if (w && h && *w >= 1 && *h >= 1 && *w <= 1e6 && *h <= 1e6) view.width = int(*w), view.height = int(*h);
    if (const json* cam = field(v, "camera")) view.camera = text(*cam, "used");
    return view;
}

std::string viewTitle(const View& v) {
    std::vector<std::string> parts;
    if (!v.mode.empty()) parts.push_back(v.mode);
    if (v.width) parts.push_back(fmt::format("{}\xC3\x97{}", v.width, v.height));
    if (!v.camera.empty()) parts.push_back("camera " + v.camera);
    std::string out;
    for (const std::string& p : parts) out += (out.empty() ? "" : " \xC2\xB7 ") + p;
    return out;
}

bool isFailed(const json& map) {
    std::string status = text(map, "status");
    return status == "failed" || (status.empty() && !text(map, "error").empty());
}

constexpr const char* kStyle = R"(:root{color-scheme:dark}
*{box-sizing:border-box}
body{margin:0;font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#16181b;color:#e4e6ea}
header{padding:16px 24px 12px;border-bottom:1px solid #2c3036}
h1{margin:0 0 4px;font-size:20px;font-weight:600}
header p{margin:2px 0;color:#aab0b8}
a{color:#8ab4f8;text-decoration:none}
a:hover{text-decoration:underline}
.bad{color:#ff6b6b}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:16px;padding:16px 24px 32px}
.card{background:#22252a;border:1px solid #2c3036;border-radius:6px;overflow:hidden;min-width:0}
.card.failed{border-color:#6e2a2a}
.thumb{display:block;aspect-ratio:16/9;background:#000}
.thumb img{display:block;width:100%;height:100%;object-fit:contain}
.placeholder{display:flex;align-items:center;justify-content:center;font-weight:600;letter-spacing:.12em;color:#6b7178}
.failed .placeholder{background:#4a0c0e;color:#ffb4b0}
.info{padding:8px 10px 10px}
h2{margin:0;font-size:15px;font-weight:600;overflow-wrap:anywhere}
.meta,.source,.views{margin:2px 0 0;font-size:12px;color:#9aa1aa}
.source{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.error{margin:6px 0 0;font-size:13px;color:#ff6b6b;overflow-wrap:anywhere}
details{margin-top:4px;font-size:12px;color:#d9b45a}
details ul{margin:4px 0 0;padding-left:18px;overflow-wrap:anywhere}
)";

void appendCard(std::string& out, const json& map, size_t index, const std::string& baseDir) {
    bool failed = isFailed(map);
    std::string name = text(map, "name");
    if (name.empty()) name = fmt::format("map {}", index + 1);
    std::vector<View> views;
    for (const json& v : list(map, "views")) views.push_back(readView(v, baseDir));

    out += fmt::format("<article class=\"card{}\" id=\"map-{}\">\n", failed ? " failed" : "", index);
    if (!failed && !views.empty() && !views.front().href.empty()) {
        const View& first = views.front();
        out += "<a class=\"thumb\" href=\"" + first.href + "\"><img loading=\"lazy\" src=\"" + first.href +
               "\" alt=\"" + escapeHtml(name) + "\"";
        if (first.width) out += fmt::format(" width=\"{}\" height=\"{}\"", first.width, first.height);
        out += "></a>\n";
    } else {
        out += std::string("<div class=\"thumb placeholder\">") + (failed ? "FAILED" : "no image") + "</div>\n";
    }

    out += "<div class=\"info\">\n<h2>" + escapeHtml(name) + "</h2>\n";
    std::string source = text(map, "source");
    if (!source.empty())
        out += "<p class=\"source\" title=\"" + escapeHtml(source) + "\">" + escapeHtml(source) + "</p>\n";

    std::vector<std::string> meta;
    if (std::string format = text(map, "format"); !format.empty()) meta.push_back(escapeHtml(format));
    if (!views.empty() && views.front().width)
        meta.push_back(fmt::format("{}\xC3\x97{}", views.front().width, views.front().height));
    std::optional<double> ms;
    if (const json* t = field(map, "ms")) ms = t->is_number() ? number(map, "ms") : number(*t, "total");
    if (!ms) {
        for (const json& v : list(map, "views"))
            if (auto vm = number(v, "ms")) ms = ms.value_or(0.0) + *vm;
    }
    if (ms) meta.push_back(duration(*ms));
    if (!meta.empty()) {
        out += "<p class=\"meta\">";
        for (size_t i = 0; i < meta.size(); ++i) out += (i ? " \xC2\xB7 " : "") + meta[i];
        out += "</p>\n";
    }

    if (!views.empty()) {
        out += "<p class=\"views\">";
        for (size_t i = 0; i < views.size(); ++i) {
            const View& v = views[i];
            std::string label = escapeHtml(v.name.empty() ? fmt::format("view {}", i + 1) : v.name);
            if (i) out += " \xC2\xB7 ";
            if (v.href.empty())
                out += label;
            else
                out += "<a href=\"" + v.href + "\" title=\"" + escapeHtml(viewTitle(v)) + "\">" + label + "</a>";
        }
        out += "</p>\n";
    }

    if (failed) {
        std::string error = text(map, "error");
        out += "<p class=\"error\">" + escapeHtml(error.empty() ? "failed (no error recorded)" : error) + "</p>\n";
    }
    const json& warnings = list(map, "warnings");
    std::vector<std::string> lines;
    for (const json& w : warnings)
        if (w.is_string()) lines.push_back(w.get<std::string>());
    if (!lines.empty()) {
        out += fmt::format("<details><summary>{} warning{}</summary><ul>", lines.size(), lines.size() == 1 ? "" : "s");
        for (const std::string& w : lines) out += "<li>" + escapeHtml(w) + "</li>";
        out += "</ul></details>\n";
    }
    out += "</div>\n</article>\n";
}

}  // namespace

std::string renderIndexPage(const json& manifest, const std::string& baseDir) {
    const json& maps = list(manifest, "maps");
    size_t failedCount = 0;
    for (const json& m : maps) failedCount += isFailed(m) ? 1 : 0;
    static const json kNoSummary = json::object();
    const json* summaryField = field(manifest, "summary");
    const json& summary = summaryField ? *summaryField : kNoSummary;
    double mapCount = number(summary, "maps").value_or(double(maps.size()));
    double failed = number(summary, "failed").value_or(double(failedCount));
    double ok = number(summary, "ok").value_or(double(maps.size() - failedCount));

    std::string out;
    out.reserve(4096 + maps.size() * 1024);
    out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    out += "<title>luxel batch: " + count(mapCount) + " maps</title>\n";
    out += std::string("<style>\n") + kStyle + "</style>\n</head>\n<body>\n";

    out += "<header>\n<h1>luxel batch</h1>\n<p>" + count(mapCount) + " maps \xC2\xB7 " + count(ok) + " ok \xC2\xB7 ";
    if (failedCount > 0)
        out += "<a class=\"bad\" href=\"#failed\">" + count(failed) + " failed</a>";
    else
        out += (failed > 0 ? "<span class=\"bad\">" : "<span>") + count(failed) + " failed</span>";
    if (auto views = number(summary, "views")) out += " \xC2\xB7 " + count(*views) + " views";
    if (auto seconds = number(summary, "seconds")) out += fmt::format(" \xC2\xB7 {:.1f} s", *seconds);
    if (std::string version = text(manifest, "luxel"); !version.empty()) out += " \xC2\xB7 luxel " + escapeHtml(version);
    out += "</p>\n";

    std::vector<std::string> sheetLinks;
    for (const json& s : list(manifest, "sheets")) {
        if (!s.is_string()) continue;
        std::string sheet = s.get<std::string>();
        if (auto href = relativeHref(sheet, baseDir))
            sheetLinks.push_back("<a href=\"" + *href + "\">" + escapeHtml(fs::path(sheet).filename().string()) + "</a>");
    }
    if (!sheetLinks.empty()) {
        out += "<p>Contact sheet" + std::string(sheetLinks.size() > 1 ? "s" : "") + ": ";
        for (size_t i = 0; i < sheetLinks.size(); ++i) out += (i ? ", " : "") + sheetLinks[i];
        out += "</p>\n";
    }
    if (failedCount > 0) {
        out += "<p id=\"failed\">Failed: ";
        size_t shown = 0;
        for (size_t i = 0; i < maps.size(); ++i) {
            if (!isFailed(maps[i])) continue;
            std::string name = text(maps[i], "name");
            if (name.empty()) name = fmt::format("map {}", i + 1);
            out += fmt::format("{}<a class=\"bad\" href=\"#map-{}\">{}</a>", shown++ ? ", " : "", i, escapeHtml(name));
        }
        out += "</p>\n";
    }
    out += "</header>\n<main class=\"grid\">\n";
    for (size_t i = 0; i < maps.size(); ++i) appendCard(out, maps[i], i, baseDir);
    out += "</main>\n</body>\n</html>\n";
    return out;
}

void writeIndexPage(const json& manifest, const std::string& dir, const std::string& fileName) {
    fs::path target = fs::path(dir) / fileName;
    std::string page = renderIndexPage(manifest, dir);
    fs::path temp = fs::path(dir) / ("." + fileName + ".tmp" + std::to_string(::getpid()));
    std::error_code ec;
    {
        std::ofstream f(temp, std::ios::binary | std::ios::trunc);
        if (!f) throw UsageError(target.string() + ": cannot write the index page");
        f.write(page.data(), std::streamsize(page.size()));
        f.close();
        if (!f) {
            fs::remove(temp, ec);
            throw UsageError(target.string() + ": cannot write the index page");
        }
    }
    fs::rename(temp, target, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(temp, ignored);
        throw UsageError(target.string() + ": cannot move the finished index page into place: " + ec.message());
    }
}

}  // namespace luxel
