// Quake 3 .map source text: the entity key/value pairs, brush and patch blocks skipped (q3map2's
// ParseMapEntity reads the same text), and the key lookups q3map2's entity_t offers.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "light_parts.hpp"
#include "luxel/bsp/entities.hpp"
#include "luxel/bsp/entity_lexer.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"

namespace luxel {

namespace {

// A brush or patch block after its '{': everything to the matching '}', quoted strings whole.
void skipBlock(EntityLexer& lex, size_t open) {
    int depth = 1;
    while (lex.skipSpace()) {
        const char c = lex.peek();
        if (c == '{') {
            ++depth;
            lex.advance();
        } else if (c == '}') {
            lex.advance();
            if (--depth == 0) return;
        } else {
            (void)lex.token();
        }
    }
    lex.fail(open, "brush or patch opened here is never closed with '}'");
}

}  // namespace

std::vector<Entity> parseQuake3MapEntities(std::string_view text, const std::string& file) {
    std::vector<Entity> out;
    EntityLexer lex(text, file, "map");
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
                skipBlock(lex, at);
                continue;
            }
            // A key and its value, quoted or bare words as q3map2's tokenizer takes them.
            const size_t at = lex.pos();
            std::string key = lex.token();
            if (!lex.skipSpace() || lex.peek() == '{' || lex.peek() == '}')
                lex.fail(at, "key \"" + key + "\" has no value");
            std::string value = lex.token();
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
