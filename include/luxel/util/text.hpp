#pragma once
// Text helpers the parsers and file systems share. Game files compare names case-insensitively in ASCII
// only (the engines do), so none of this depends on the C locale.
#include <charconv>
#include <string>
#include <string_view>

namespace luxel {

inline char toLowerAscii(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

inline std::string toLowerAscii(std::string s) {
    for (char& c : s) c = toLowerAscii(c);
    return s;
}

inline bool equalsIgnoreCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (toLowerAscii(a[i]) != toLowerAscii(b[i])) return false;
    return true;
}

inline bool startsWithIgnoreCase(std::string_view s, std::string_view prefix) {
    return s.size() >= prefix.size() && equalsIgnoreCase(s.substr(0, prefix.size()), prefix);
}

inline bool endsWithIgnoreCase(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && equalsIgnoreCase(s.substr(s.size() - suffix.size()), suffix);
}

// atof / atoi as the engines read numbers: leading blanks and one '+' skipped, the longest numeric
// prefix taken, 0 when there is none.
namespace detail {
inline std::string_view numberStart(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || (s.front() >= '\t' && s.front() <= '\r'))) s.remove_prefix(1);
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    return s;
}
}  // namespace detail

inline float leadingFloat(std::string_view s) {
    s = detail::numberStart(s);
    float v = 0;
    return std::from_chars(s.data(), s.data() + s.size(), v).ec == std::errc() ? v : 0.0f;
}

inline int leadingInt(std::string_view s) {
    s = detail::numberStart(s);
    int v = 0;
    return std::from_chars(s.data(), s.data() + s.size(), v).ec == std::errc() ? v : 0;
}

// Text from a request or a file made safe for a log line: printable ASCII kept, '\' and '"' escaped, every other
// byte (control characters, newlines, bytes past 127) as \xNN, so no input can forge or split a line.
inline std::string escapeForLog(std::string_view s) {
    static const char* kHex = "0123456789abcdef";
    std::string out;
    out.reserve(s.size());
    for (unsigned char c : s) {
        if (c == '\\' || c == '"') {
            out += '\\';
            out += char(c);
        } else if (c >= 32 && c < 127) {
            out += char(c);
        } else {
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 15];
        }
    }
    return out;
}

}  // namespace luxel
