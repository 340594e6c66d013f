#pragma once
// The tokenizer of Quake 3 shader scripts (internal to the shader parser, q3_shader_parse.cpp): words, quoted
// strings and braces with their line numbers, comments skipped, and line-numbered warnings collected once each.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace luxel::q3script {

struct Token {
    std::string text;
    int line = 0;
    bool quoted = false;
    bool is(char brace) const { return !quoted && text.size() == 1 && text[0] == brace; }
    bool isBrace() const { return is('{') || is('}'); }
};

// COM_ParseExt-like tokenizer: whitespace-separated words, "quoted strings", // and /* */ comments,
// and an "allow line breaks" switch so keyword arguments stay on the keyword's line. Unlike the
// engine it also ends a word at a brace or a comment start.
class Lexer {
public:
    Lexer(std::string_view text, const std::string& file, std::vector<std::string>* warnings)
        : text_(text), file_(file), warnings_(warnings) {}

    struct Mark {
        size_t pos;
        int line;
    };
    Mark mark() const { return {pos_, line_}; }
    void reset(Mark m) { pos_ = m.pos; line_ = m.line; }

    // The next token; with crossLines false, nullopt (nothing consumed) when it is on a later line.
    std::optional<Token> next(bool crossLines) {
        Mark start = mark();
        bool newline = skipSpaceAndComments();
        if (pos_ >= text_.size() || (newline && !crossLines)) {
            if (!crossLines) reset(start);
            return std::nullopt;
        }
        Token t;
        t.line = line_;
        char c = text_[pos_];
        if (c == '{' || c == '}') {
            t.text.assign(1, c);
            ++pos_;
            return t;
        }
        if (c == '"') {
            size_t open = pos_++;
            size_t begin = pos_;
            while (pos_ < text_.size() && text_[pos_] != '"' && text_[pos_] != '\n') ++pos_;
            t.text.assign(text_.substr(begin, pos_ - begin));
            t.quoted = true;
            if (pos_ < text_.size() && text_[pos_] == '"')
                ++pos_;
            else
                warnOnce(open, t.line, "unterminated quoted string");
            return t;
        }
        size_t begin = pos_;
        while (pos_ < text_.size() && !isSpace(text_[pos_]) && text_[pos_] != '{' && text_[pos_] != '}' &&
               !commentStartsAt(pos_))
            ++pos_;
        t.text.assign(text_.substr(begin, pos_ - begin));
        return t;
    }

    void warn(int line, const std::string& what) {
        if (warnings_) warnings_->push_back(file_ + ":" + std::to_string(line) + ": " + what);
    }

private:
    static bool isSpace(char c) { return static_cast<unsigned char>(c) <= ' '; }

    bool closesComment(size_t p) const { return text_[p] == '*' && p + 1 < text_.size() && text_[p + 1] == '/'; }

    bool commentStartsAt(size_t p) const {
        return text_[p] == '/' && p + 1 < text_.size() && (text_[p + 1] == '/' || text_[p + 1] == '*');
    }

    // Returns whether a line break was crossed (inside a block comment too).
    bool skipSpaceAndComments() {
        bool newline = false;
        while (pos_ < text_.size()) {
            char c = text_[pos_];
            if (c == '\n') {
                newline = true;
                ++line_;
                ++pos_;
            } else if (isSpace(c)) {
                ++pos_;
            } else if (commentStartsAt(pos_) && text_[pos_ + 1] == '/') {
                while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
            } else if (commentStartsAt(pos_)) {
                size_t open = pos_;
                int openLine = line_;
                pos_ += 2;
                while (pos_ < text_.size() && !closesComment(pos_)) {
                    if (text_[pos_] == '\n') {
                        newline = true;
                        ++line_;
                    }
                    ++pos_;
                }
                if (pos_ < text_.size())
                    pos_ += 2;
                else
                    warnOnce(open, openLine, "unterminated /* comment");
            } else {
                break;
            }
        }
        return newline;
    }

    // Look-ahead re-reads text; a defect is reported the first time it is read.
    void warnOnce(size_t at, int line, const std::string& what) {
        if (at < warnedUpTo_) return;
        warnedUpTo_ = at + 1;
        warn(line, what);
    }

    std::string_view text_;
    const std::string& file_;
    std::vector<std::string>* warnings_;
    size_t pos_ = 0;
    int line_ = 1;
    size_t warnedUpTo_ = 0;
};

}  // namespace luxel::q3script
