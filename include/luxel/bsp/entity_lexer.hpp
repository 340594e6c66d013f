#pragma once
// The tokenizer of Quake-style entity text ({ "key" "value" ... }): the entity lump of a compiled map and
// the entities of a .map source share it. Errors are DecodeErrors naming the file, `lump` and the byte offset
// (base + position in the text).
#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>

#include "luxel/util/error.hpp"

namespace luxel {

class EntityLexer {
public:
    EntityLexer(std::string_view text, const std::string& file, std::string lump, uint64_t base = 0)
        : t_(text), file_(file), lump_(std::move(lump)), base_(base) {}

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
        throw DecodeError(file_, lump_, base_ + at, what);
    }

private:
    std::string_view t_;
    const std::string& file_;
    std::string lump_;
    uint64_t base_;
    size_t i_ = 0;
};

}  // namespace luxel
