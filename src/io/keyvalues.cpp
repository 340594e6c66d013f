#include "luxel/io/keyvalues.hpp"

#include <cctype>
#include <optional>
#include <utility>

#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"

namespace luxel {

namespace {

bool isSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

struct Token {
    std::string text;
    size_t offset = 0;
    int line = 0;
    bool quoted = false;
    bool conditional = false;  // [$X360]-style
    bool is(char c) const { return !quoted && text.size() == 1 && text[0] == c; }
};

// KeyValues::ReadToken: "quoted" (no escape sequences, as materials are loaded), single-character
// braces, otherwise a word up to whitespace, a quote or a brace; // comments at a token start.
class Lexer {
public:
    Lexer(std::string_view text, const std::string& file) : text_(text), file_(file) {
        if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // UTF-8 byte order mark
    }

    std::optional<Token> next() {
        skipSpaceAndComments();
        if (pos_ >= text_.size()) return std::nullopt;
        Token t;
        t.offset = pos_;
        t.line = line_;
        char c = text_[pos_];
        if (c == '"') {
            ++pos_;
            size_t begin = pos_;
            while (pos_ < text_.size() && text_[pos_] != '"') {
                if (text_[pos_] == '\n') ++line_;
                ++pos_;
            }
            if (pos_ >= text_.size()) fail(t, "unterminated quoted string");
            t.text.assign(text_.substr(begin, pos_ - begin));
            t.quoted = true;
            ++pos_;
            return t;
        }
        if (c == '{' || c == '}') {
            t.text.assign(1, c);
            ++pos_;
            return t;
        }
        size_t begin = pos_;
        bool bracket = false;
        while (pos_ < text_.size()) {
            char d = text_[pos_];
            if (d == '"' || d == '{' || d == '}' || isSpace(d)) break;
            if (d == '[') bracket = true;
            if (d == ']' && bracket) t.conditional = true;
            ++pos_;
        }
        t.text.assign(text_.substr(begin, pos_ - begin));
        return t;
    }

    [[noreturn]] void fail(const Token& at, const std::string& what) const { fail(at.offset, at.line, what); }
    [[noreturn]] void fail(size_t offset, int line, const std::string& what) const {
        throw DecodeError(file_, "", offset, "line " + std::to_string(line) + ": " + what);
    }
    struct Mark {
        size_t pos;
        int line;
    };
    Mark mark() const { return {pos_, line_}; }
    void reset(Mark m) { pos_ = m.pos; line_ = m.line; }

private:
    void skipSpaceAndComments() {
        while (pos_ < text_.size()) {
            char c = text_[pos_];
            if (c == '\n') {
                ++line_;
                ++pos_;
            } else if (isSpace(c) || c == '\0') {
                ++pos_;
            } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
                while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
            } else {
                break;
            }
        }
    }

    std::string_view text_;
    const std::string& file_;
    size_t pos_ = 0;
    int line_ = 1;
};

// "[$WIN32]", "[!$X360]", "[$WIN32 && !$X360 || $OSX]" evaluated for a Windows PC.
bool platformConditionHolds(std::string_view cond) {
    if (!cond.empty() && cond.front() == '[') cond.remove_prefix(1);
    if (!cond.empty() && cond.back() == ']') cond.remove_suffix(1);
    auto termHolds = [](std::string_view term) {
        while (!term.empty() && isSpace(term.front())) term.remove_prefix(1);
        while (!term.empty() && isSpace(term.back())) term.remove_suffix(1);
        bool negate = !term.empty() && term.front() == '!';
        if (negate) term.remove_prefix(1);
        bool value = equalsIgnoreCase(term, "$WIN32") || equalsIgnoreCase(term, "$WINDOWS");
        return value != negate;
    };
    auto allHold = [&](std::string_view conj) {
        while (true) {
            size_t amp = conj.find("&&");
            if (!termHolds(conj.substr(0, amp))) return false;
            if (amp == std::string_view::npos) return true;
            conj.remove_prefix(amp + 2);
        }
    };
    while (true) {
        size_t bar = cond.find("||");
        if (allHold(cond.substr(0, bar))) return true;
        if (bar == std::string_view::npos) return false;
        cond.remove_prefix(bar + 2);
    }
}

class Parser {
public:
    Parser(std::string_view text, const std::string& file, std::string_view rootLabel)
        : lx_(text, file), label_(rootLabel) {}

    KeyValue parseRoot() {
        auto name = lx_.next();
        if (!name) lx_.fail(0, 1, "empty file: no " + label_);
        if (name->is('{') || name->is('}')) lx_.fail(*name, "expected a " + label_ + ", found '" + name->text + "'");
        auto open = lx_.next();
        if (open && open->conditional) open = lx_.next();  // a root condition never removes the material
        if (!open || !open->is('{'))
            lx_.fail(open ? *open : *name, "expected '{' after the " + label_ + " " + name->text);
        KeyValue root;
        root.key = name->text;
        root.isBlock = true;
        parseBlock(root, *open);
        // What follows the first root block must still be balanced text.
        int depth = 0;
        std::optional<Token> lastOpen;
        while (auto t = lx_.next()) {
            if (t->is('{')) {
                ++depth;
                lastOpen = t;
            } else if (t->is('}')) {
                if (--depth < 0) lx_.fail(*t, "unbalanced '}' after the material's closing brace");
            }
        }
        if (depth > 0) lx_.fail(*lastOpen, "unbalanced '{' after the material's closing brace");
        return root;
    }

private:
    void parseBlock(KeyValue& block, const Token& open) {
        while (true) {
            auto key = lx_.next();
            if (!key)
                lx_.fail(open, "unbalanced braces: the block '" + block.key + "' opened here is never closed");
            if (key->is('}')) return;
            if (key->is('{')) lx_.fail(*key, "'{' where a key was expected in block '" + block.key + "'");
            auto value = lx_.next();
            bool accepted = true;
            if (value && value->conditional) {
                accepted = platformConditionHolds(value->text);
                value = lx_.next();
            }
            if (!value) lx_.fail(*key, "key '" + key->text + "' has no value before the end of the file");
            if (value->is('}')) lx_.fail(*value, "'}' where the value of '" + key->text + "' was expected");
            KeyValue node;
            node.key = key->text;
            if (value->is('{')) {
                node.isBlock = true;
                parseBlock(node, *value);
            } else {
                if (value->conditional) lx_.fail(*value, "condition between a key and its value");
                node.value = value->text;
                // A condition may follow the value.
                if (auto peek = peekConditional()) accepted = platformConditionHolds(*peek);
            }
            if (accepted) block.children.push_back(std::move(node));
        }
    }

    // Consumes the next token only when it is a [condition].
    std::optional<std::string> peekConditional() {
        Lexer::Mark saved = lx_.mark();
        auto t = lx_.next();
        if (t && t->conditional && !t->quoted) return t->text;
        lx_.reset(saved);
        return std::nullopt;
    }

    Lexer lx_;
    std::string label_;
};

}  // namespace

const KeyValue* KeyValue::find(std::string_view name) const {
    for (const KeyValue& child : children)
        if (equalsIgnoreCase(child.key, name)) return &child;
    return nullptr;
}

KeyValue parseKeyValues(std::string_view text, const std::string& fileName, std::string_view rootLabel) {
    return Parser(text, fileName, rootLabel).parseRoot();
}

}  // namespace luxel
