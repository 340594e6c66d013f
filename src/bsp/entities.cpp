#include "luxel/bsp/entities.hpp"

#include <cctype>
#include <charconv>

#include "luxel/util/error.hpp"

namespace luxel {

namespace {

class EntityLexer {
public:
    EntityLexer(std::string_view text, const std::string& file, uint64_t base) : t_(text), file_(file), base_(base) {}

    // Skips whitespace, NULs and // or /* */ comments; false at the end of the text.
    bool skipSpace() {
        while (i_ < t_.size()) {
            char c = t_[i_];
            if (c == '\0' || std::isspace(static_cast<unsigned char>(c))) {
                ++i_;
            } else if (c == '/' && i_ + 1 < t_.size() && t_[i_ + 1] == '/') {
                while (i_ < t_.size() && t_[i_] != '\n') ++i_;
            } else if (c == '/' && i_ + 1 < t_.size() && t_[i_ + 1] == '*') {
                size_t end = t_.find("*/", i_ + 2);
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

    // A quoted string (no escapes, may span lines) or a bare word up to whitespace, brace or quote.
    std::string token() {
        if (t_[i_] == '"') {
            size_t end = t_.find('"', i_ + 1);
            if (end == std::string_view::npos) fail(i_, "unterminated quoted string");
            std::string s(t_.substr(i_ + 1, end - i_ - 1));
            i_ = end + 1;
            return s;
        }
        size_t start = i_;
        while (i_ < t_.size()) {
            char c = t_[i_];
            if (c == '\0' || c == '{' || c == '}' || c == '"' || std::isspace(static_cast<unsigned char>(c))) break;
            ++i_;
        }
        return std::string(t_.substr(start, i_ - start));
    }

    [[noreturn]] void fail(size_t at, const std::string& what) const {
        throw DecodeError(file_, "entities", base_ + at, what);
    }

private:
    std::string_view t_;
    const std::string& file_;
    uint64_t base_;
    size_t i_ = 0;
};

}  // namespace

std::vector<Entity> parseEntities(std::string_view text, const std::string& file, uint64_t lumpOffset) {
    std::vector<Entity> out;
    EntityLexer lex(text, file, lumpOffset);
    while (lex.skipSpace()) {
        size_t open = lex.pos();
        if (lex.peek() != '{') lex.fail(open, std::string("expected '{' but found '") + lex.peek() + "'");
        lex.advance();
        Entity e;
        for (;;) {
            if (!lex.skipSpace()) lex.fail(open, "entity opened here is never closed with '}'");
            if (lex.peek() == '}') {
                lex.advance();
                break;
            }
            if (lex.peek() == '{') lex.fail(lex.pos(), "'{' inside an entity (missing '}' before it?)");
            size_t keyAt = lex.pos();
            std::string key = lex.token();
            if (!lex.skipSpace() || lex.peek() == '}' || lex.peek() == '{')
                lex.fail(keyAt, "key \"" + key + "\" has no value");
            std::string value = lex.token();
            e.keys.emplace_back(std::move(key), std::move(value));
        }
        out.push_back(std::move(e));
    }
    return out;
}

std::vector<const Entity*> findEntities(const World& world, std::string_view classname) {
    std::vector<const Entity*> out;
    for (const Entity& e : world.entities) {
        const std::string* c = e.get("classname");
        if (c && *c == classname) out.push_back(&e);
    }
    return out;
}

bool parseVec3(const std::string& text, Vec3& out) {
    float v[3] = {0, 0, 0};
    int n = 0;
    const char* p = text.data();
    const char* end = p + text.size();
    while (n < 3) {
        while (p < end && std::isspace(static_cast<unsigned char>(*p))) ++p;
        if (p < end && *p == '+') ++p;
        auto [next, ec] = std::from_chars(p, end, v[n]);
        if (ec != std::errc()) break;
        p = next;
        ++n;
    }
    if (n == 0) return false;
    out = {v[0], v[1], v[2]};
    return true;
}

}  // namespace luxel
