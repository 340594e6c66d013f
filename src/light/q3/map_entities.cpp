// Quake 3 .map source text: the entity key/value pairs, brush and patch blocks skipped (q3map2's
// ParseMapEntity reads the same text), and the key lookups q3map2's entity_t offers.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "light_parts.hpp"
#include "luxel/bsp/entities.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"

namespace luxel {

namespace {

class MapLexer {
public:
    MapLexer(std::string_view text, const std::string& file) : t_(text), file_(file) {}

    // Skips whitespace and // and /* */ comments (q3map2's GetToken); false at the end.
    bool skipSpace() {
        while (i_ < t_.size()) {
            const char c = t_[i_];
            if (c == '\0' || std::isspace(static_cast<unsigned char>(c))) {
                ++i_;
            } else if (c == '/' && i_ + 1 < t_.size() && t_[i_ + 1] == '/') {
                while (i_ < t_.size() && t_[i_] != '\n') ++i_;
            } else if (c == '/' && i_ + 1 < t_.size() && t_[i_ + 1] == '*') {
                const size_t end = t_.find("*/", i_ + 2);
                i_ = end == std::string_view::npos ? t_.size() : end + 2;
            } else {
                return true;
            }
        }
        return false;
    }
    char peek() const { return t_[i_]; }
    size_t pos() const { return i_; }
    void advance() { ++i_; }

    // A quoted string (no escapes) or a bare word up to whitespace, a brace or a quote.
    std::string token(bool& quoted) {
        quoted = t_[i_] == '"';
        if (quoted) {
            const size_t end = t_.find('"', i_ + 1);
            if (end == std::string_view::npos) fail(i_, "unterminated quoted string");
            std::string s(t_.substr(i_ + 1, end - i_ - 1));
            i_ = end + 1;
            return s;
        }
        const size_t start = i_;
        while (i_ < t_.size()) {
            const char c = t_[i_];
            if (c == '\0' || c == '{' || c == '}' || c == '"' || std::isspace(static_cast<unsigned char>(c))) break;
            ++i_;
        }
        return std::string(t_.substr(start, i_ - start));
    }

    // A brush or patch block after its '{': everything to the matching '}', quoted strings whole.
    void skipBlock(size_t open) {
        int depth = 1;
        while (skipSpace()) {
            const char c = peek();
            if (c == '{') {
                ++depth;
                advance();
            } else if (c == '}') {
                advance();
                if (--depth == 0) return;
            } else {
                bool quoted = false;
                (void)token(quoted);
            }
        }
        fail(open, "brush or patch opened here is never closed with '}'");
    }

    [[noreturn]] void fail(size_t at, const std::string& what) const { throw DecodeError(file_, "map", at, what); }

private:
    std::string_view t_;
    const std::string& file_;
    size_t i_ = 0;
};

}  // namespace

std::vector<Entity> parseQuake3MapEntities(std::string_view text, const std::string& file) {
    std::vector<Entity> out;
    MapLexer lex(text, file);
    while (lex.skipSpace()) {
        const size_t open = lex.pos();
        if (lex.peek() != '{') lex.fail(open, std::string("expected '{' but found '") + lex.peek() + "'");
        lex.advance();
        Entity e;
        for (;;) {
            if (!lex.skipSpace()) lex.fail(open, "entity opened here is never closed with '}'");
            const char c = lex.peek();
            if (c == '}') {
                lex.advance();
                break;
            }
            if (c == '{') {  // a brush ( ... ) lines, brushDef or patchDef2 block
                const size_t at = lex.pos();
                lex.advance();
                lex.skipBlock(at);
                continue;
            }
            // A key and its value, quoted or bare words as q3map2's tokenizer takes them.
            const size_t at = lex.pos();
            bool quoted = false;
            std::string key = lex.token(quoted);
            if (!lex.skipSpace() || lex.peek() == '{' || lex.peek() == '}')
                lex.fail(at, "key \"" + key + "\" has no value");
            std::string value = lex.token(quoted);
            e.keys.emplace_back(std::move(key), std::move(value));
        }
        out.push_back(std::move(e));
    }
    return out;
}

namespace q3light {

const std::string* keyValue(const Entity& e, std::string_view key) {
    for (const auto& [k, v] : e.keys)
        if (equalsIgnoreCase(k, key)) return &v;
    return nullptr;
}

float floatKey(const Entity& e, std::string_view key, float fallback) {
    const std::string* v = keyValue(e, key);
    return v ? float(std::atof(v->c_str())) : fallback;
}

int intKey(const Entity& e, std::string_view key, int fallback) {
    const std::string* v = keyValue(e, key);
    if (!v) return fallback;
    const long long n = std::strtoll(v->c_str(), nullptr, 10);  // atoi, saturating instead of undefined
    return int(std::clamp<long long>(n, -(1ll << 30), 1ll << 30));
}

bool boolKey(const Entity& e, std::string_view key) {
    const std::string* v = keyValue(e, key);
    if (!v) return false;
    return equalsIgnoreCase(*v, "true") || equalsIgnoreCase(*v, "yes") || std::atof(v->c_str()) != 0;
}

Vec3 vectorKey(const Entity& e, std::string_view key) {
    Vec3 out;
    if (const std::string* v = keyValue(e, key)) parseVec3(*v, out);
    return out;
}

std::string classnameOf(const Entity& e) {
    const std::string* v = keyValue(e, "classname");
    return v ? *v : std::string();
}

Vec3 colorNormalize(Vec3 c) {
    const float top = std::max({c.x, c.y, c.z});
    if (!(top > 0) || !std::isfinite(top)) return {1, 1, 1};
    return c / top;
}

Vec3 spherical(double angle, double elevation) {
    return {float(std::cos(angle) * std::cos(elevation)), float(std::sin(angle) * std::cos(elevation)),
            float(std::sin(elevation))};
}

}  // namespace q3light
}  // namespace luxel
