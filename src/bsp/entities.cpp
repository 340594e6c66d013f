#include "luxel/bsp/entities.hpp"

#include <cctype>
#include <charconv>

#include "luxel/bsp/entity_lexer.hpp"
#include "luxel/util/error.hpp"

namespace luxel {

std::vector<Entity> parseEntities(std::string_view text, const std::string& file, uint64_t lumpOffset) {
    std::vector<Entity> out;
    EntityLexer lex(text, file, "entities", lumpOffset);
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

int entityInt(const Entity& e, const char* key) {
    const std::string* v = e.get(key);
    int out = 0;
    if (v) std::from_chars(v->data(), v->data() + v->size(), out);
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

Vec3 entityOrigin(const Entity& e) {
    Vec3 origin;
    if (const std::string* v = e.get("origin")) parseVec3(*v, origin);
    return isFinite(origin) ? origin : Vec3{};
}

// Keys are applied in file order with a later one winning, as the game's spawn code does:
// "angle" is a yaw alone, "angles" is pitch yaw roll.
Vec3 entityAngles(const Entity& e) {
    Vec3 angles;
    for (const auto& [key, value] : e.keys) {
        Vec3 a;
        if (key == "angle" && parseVec3(value, a)) angles = {0, a.x, 0};
        else if (key == "angles" && parseVec3(value, a)) angles = a;
    }
    return isFinite(angles) ? angles : Vec3{};
}

const Entity* targetOf(const World& world, const Entity& e) {
    const std::string* target = e.get("target");
    if (!target || target->empty()) return nullptr;
    for (const Entity& t : world.entities)
        if (const std::string* name = t.get("targetname"); name && *name == *target) return &t;
    return nullptr;
}

}  // namespace luxel
