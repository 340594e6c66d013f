#include "luxel/material/vmt.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <utility>
#include <vector>

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

struct Node {
    std::string key;
    std::string value;
    bool isBlock = false;
    std::vector<Node> children;
};

class Parser {
public:
    Parser(std::string_view text, const std::string& file) : lx_(text, file) {}

    Node parseRoot() {
        auto name = lx_.next();
        if (!name) lx_.fail(0, 1, "empty material: no shader name");
        if (name->is('{') || name->is('}')) lx_.fail(*name, "expected a shader name, found '" + name->text + "'");
        auto open = lx_.next();
        if (open && open->conditional) open = lx_.next();  // a root condition never removes the material
        if (!open || !open->is('{'))
            lx_.fail(open ? *open : *name, "expected '{' after the shader name " + name->text);
        Node root;
        root.key = name->text;
        root.isBlock = true;
        parseBlock(root, *open);
        // The engine reads only the first root block; what follows must still be balanced text.
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
    void parseBlock(Node& block, const Token& open) {
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
            Node node;
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
};

// CMaterial::ShouldSkipVar for "cond?$key": which conditions hold on the assumed hardware.
bool varConditionHolds(std::string_view cond) {
    bool toggle = !cond.empty() && cond.front() == '!';
    if (toggle) cond.remove_prefix(1);
    bool skip = true;  // unknown conditions skip, as in the engine
    if (equalsIgnoreCase(cond, "hdr"))
        skip = false;
    else if (equalsIgnoreCase(cond, "ldr") || equalsIgnoreCase(cond, "srgb") || equalsIgnoreCase(cond, "lowfill") || equalsIgnoreCase(cond, "360") ||
             equalsIgnoreCase(cond.substr(0, std::min<size_t>(4, cond.size())), "gpu<"))
        skip = true;
    else if (cond.size() >= 5 && equalsIgnoreCase(cond.substr(0, 5), "gpu>="))
        skip = false;
    return skip == toggle;
}

// A key lower-cased with its "condition?" prefix resolved: nullopt when the condition fails;
// `conditional` tells whether it had one.
std::optional<std::string> effectiveKey(const std::string& raw, bool& conditional) {
    std::string key = toLowerAscii(raw);
    const size_t q = key.find('?');
    conditional = q != std::string::npos && q > 0;
    if (!conditional) return key;
    if (!varConditionHolds(std::string_view(key).substr(0, q))) return std::nullopt;
    return key.substr(q + 1);
}

// Sets params from the string children of a block. Unconditional keys only fill gaps (first wins);
// a condition that holds replaces.
void assignParams(std::map<std::string, std::string>& params, const Node& block) {
    for (const Node& child : block.children) {
        if (child.isBlock) continue;
        bool conditional = false;
        std::optional<std::string> key = effectiveKey(child.key, conditional);
        if (!key) continue;
        if (conditional)
            params[*key] = child.value;
        else
            params.try_emplace(std::move(*key), child.value);
    }
}

// A patch's insert / replace block: plain assignment in order (KeyValues::SetString), conditions resolved.
std::map<std::string, std::string> patchBlock(const Node& root, std::string_view name) {
    std::map<std::string, std::string> out;
    for (const Node& child : root.children) {
        if (!child.isBlock || !equalsIgnoreCase(child.key, name)) continue;
        for (const Node& kv : child.children) {
            if (kv.isBlock) continue;
            bool conditional = false;
            std::optional<std::string> key = effectiveKey(kv.key, conditional);
            if (key) out.try_emplace(std::move(*key), kv.value);  // FindKey finds the first duplicate
        }
        break;  // FindKey: the first block of that name
    }
    return out;
}

const Node* chooseFallbackBlock(const Node& root, const std::string& shader) {
    static constexpr const char* kSuffixes[] = {">=dx90_20b", ">=dx90", ">dx90", "hdr_dx9", "hdr", "dx9"};
    for (const char* suffix : kSuffixes) {
        std::string prefixed = shader + "_" + suffix;
        for (const Node& child : root.children)
            if (child.isBlock && (equalsIgnoreCase(child.key, suffix) || equalsIgnoreCase(child.key, prefixed))) return &child;
    }
    return nullptr;
}

std::string textureName(std::string value) {
    for (char& c : value) c = (c == '\\') ? '/' : toLowerAscii(c);
    return value;
}

}  // namespace

std::string Vmt::param(std::string_view key) const {
    auto it = params.find(toLowerAscii(std::string(key)));
    return it == params.end() ? std::string() : it->second;
}

bool Vmt::flag(std::string_view key) const { return leadingInt(param(key)) != 0; }

std::string Vmt::baseTexture() const { return textureName(param("$basetexture")); }
std::string Vmt::baseTexture2() const { return textureName(param("$basetexture2")); }

bool Vmt::noDraw() const {
    static constexpr const char* kFlags[] = {"$no_draw",          "%compilenodraw",  "%compileclip",
                                             "%compileplayerclip", "%compilenpcclip", "%compiletrigger",
                                             "%compileskip",      "%compilehint",    "%compileorigin",
                                             "%compileareaportal"};
    for (const char* f : kFlags)
        if (flag(f)) return true;
    return false;
}

bool Vmt::sky() const { return flag("%compilesky") || flag("%compile2dsky"); }

float Vmt::alphaTestReference() const {
    float ref = leadingFloat(param("$alphatestreference"));
    return ref > 0 ? ref : 0.7f;
}

std::optional<Vec3> Vmt::color() const { return vector("$color"); }

std::optional<Vec3> Vmt::vector(std::string_view key) const {
    auto it = params.find(toLowerAscii(std::string(key)));
    if (it == params.end()) return std::nullopt;
    std::string_view s = it->second;
    while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
    if (s.empty()) return std::nullopt;
    if (s.front() != '[' && s.front() != '{') {
        float v = 0;
        std::string_view num = s;
        if (!num.empty() && num[0] == '+') num.remove_prefix(1);
        auto [ptr, ec] = std::from_chars(num.data(), num.data() + num.size(), v);
        (void)ptr;
        if (ec != std::errc()) return std::nullopt;
        return Vec3{v, v, v};
    }
    bool divide = s.front() == '{';
    s.remove_prefix(1);
    Vec3 c;
    int n = 0;
    while (n < 3) {
        while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
        if (s.empty() || s.front() == ']' || s.front() == '}') break;
        if (s.front() == '+') s.remove_prefix(1);
        float v = 0;
        auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec != std::errc()) return std::nullopt;
        s.remove_prefix(size_t(ptr - s.data()));
        c[n++] = v;
    }
    if (n == 0) return std::nullopt;
    return divide ? c * (1.0f / 255.0f) : c;
}

Vmt parseVmt(std::string_view text, const std::string& fileName) {
    Node root = Parser(text, fileName).parseRoot();
    Vmt vmt;
    vmt.shader = toLowerAscii(root.key);
    if (vmt.shader == "patch") {
        for (const Node& child : root.children) {
            if (!child.isBlock && equalsIgnoreCase(child.key, "include")) {
                vmt.includePath = child.value;
                for (char& c : vmt.includePath)
                    if (c == '\\') c = '/';
                break;
            }
        }
        vmt.insertParams = patchBlock(root, "insert");
        vmt.replaceParams = patchBlock(root, "replace");
        return vmt;
    }
    if (const Node* block = chooseFallbackBlock(root, vmt.shader)) {
        vmt.fallbackBlock = block->key;
        assignParams(vmt.params, *block);
    }
    assignParams(vmt.params, root);
    return vmt;
}

Vmt applyVmtPatch(const Vmt& base, const Vmt& patch) {
    Vmt out = base;
    for (const auto& [key, value] : patch.insertParams) out.params[key] = value;
    for (const auto& [key, value] : patch.replaceParams) {
        auto it = out.params.find(key);
        if (it != out.params.end()) it->second = value;
    }
    return out;
}

}  // namespace luxel
