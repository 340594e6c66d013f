#include "luxel/material/vmt.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <utility>

#include "luxel/io/keyvalues.hpp"
#include "luxel/util/text.hpp"

namespace luxel {

namespace {

bool isSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

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
void assignParams(std::map<std::string, std::string>& params, const KeyValue& block) {
    for (const KeyValue& child : block.children) {
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
std::map<std::string, std::string> patchBlock(const KeyValue& root, std::string_view name) {
    std::map<std::string, std::string> out;
    for (const KeyValue& child : root.children) {
        if (!child.isBlock || !equalsIgnoreCase(child.key, name)) continue;
        for (const KeyValue& kv : child.children) {
            if (kv.isBlock) continue;
            bool conditional = false;
            std::optional<std::string> key = effectiveKey(kv.key, conditional);
            if (key) out.try_emplace(std::move(*key), kv.value);  // FindKey finds the first duplicate
        }
        break;  // FindKey: the first block of that name
    }
    return out;
}

const KeyValue* chooseFallbackBlock(const KeyValue& root, const std::string& shader) {
    static constexpr const char* kSuffixes[] = {">=dx90_20b", ">=dx90", ">dx90", "hdr_dx9", "hdr", "dx9"};
    for (const char* suffix : kSuffixes) {
        std::string prefixed = shader + "_" + suffix;
        for (const KeyValue& child : root.children)
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

std::string Vmt::baseTexture() const { return textureParam("$basetexture"); }
std::string Vmt::baseTexture2() const { return textureParam("$basetexture2"); }
std::string Vmt::textureParam(std::string_view key) const { return textureName(param(key)); }

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
    const KeyValue root = parseKeyValues(text, fileName, "shader name");
    Vmt vmt;
    vmt.shader = toLowerAscii(root.key);
    if (vmt.shader == "patch") {
        for (const KeyValue& child : root.children) {
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
    if (const KeyValue* block = chooseFallbackBlock(root, vmt.shader)) {
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
