#pragma once
// The static index page of a batch: one self-contained HTML file (inline CSS, no scripts, no network) that
// shows every map of a manifest as a card, and works opened from file://.
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace luxel {

// The HTML text for a batch manifest ({"luxel", "maps": [{"name", "source", "format", "status", "error",
// "warnings", "views": [{"name", "output", "width", "height", "mode", "camera", "ms"}], "ms": {"total"}}],
// "summary": {"maps", "ok", "failed", "views", "seconds"}, "sheets": [...]}). Every field is optional and a
// field of the wrong type counts as missing. All text is HTML-escaped; links are relative paths only
// (percent-encoded; absolute, "..", scheme-like or empty paths get no link). An absolute output path inside
// `baseDir` (when given) is made relative to it. The same manifest gives the same text.
// Text or an attribute value for HTML: the five specials become references; invalid UTF-8 and control characters
// (other than tab and line feed) become U+FFFD, so a page stays valid UTF-8 whatever the text holds.
std::string escapeHtml(std::string_view text);

std::string renderIndexPage(const nlohmann::json& manifest, const std::string& baseDir = "");

// Writes DIR/fileName (atomically: temporary name in DIR + rename) for the manifest; paths in the page are
// relative to dir. Throws UsageError when it cannot write.
void writeIndexPage(const nlohmann::json& manifest, const std::string& dir, const std::string& fileName = "index.html");

}  // namespace luxel
