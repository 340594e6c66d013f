#include <catch2/catch.hpp>

#include "luxel/bsp/entities.hpp"
#include "luxel/util/error.hpp"

using namespace luxel;

TEST_CASE("parseEntities reads blocks of quoted key/value pairs", "[entities]") {
    const std::string text =
        "{\n\"classname\" \"worldspawn\"\n\"message\" \"Two words { not a brace }\"\n}\n"
        "// a comment between entities { \"x\" \n"
        "{\r\n\"classname\" \"light\"\r\n\"origin\" \"1 2 3\"\r\n\"_color\" \"\"\r\n}";
    auto ents = parseEntities(text, "f.bsp", 100);
    REQUIRE(ents.size() == 2);
    REQUIRE(ents[0].keys.size() == 2);
    CHECK(ents[0].keys[0] == std::pair<std::string, std::string>{"classname", "worldspawn"});
    CHECK(*ents[0].get("message") == "Two words { not a brace }");
    CHECK(*ents[1].get("origin") == "1 2 3");
    CHECK(*ents[1].get("_color") == "");
    CHECK(ents[1].get("missing") == nullptr);
}

TEST_CASE("parseEntities tolerates comments, bare words, NULs and duplicate keys", "[entities]") {
    std::string text = "/* block\ncomment */{ classname info_null \"target\" \"t1\" // trailing\n \"target\" \"t2\" }";
    text.push_back('\0');
    text.push_back('\0');
    auto ents = parseEntities(text, "f.bsp", 0);
    REQUIRE(ents.size() == 1);
    CHECK(*ents[0].get("classname") == "info_null");
    CHECK(*ents[0].get("target") == "t1");  // first pair wins
    CHECK(ents[0].keys.size() == 3);
    CHECK(parseEntities("", "f.bsp", 0).empty());
    CHECK(parseEntities("  \n // only a comment", "f.bsp", 0).empty());
    CHECK(parseEntities("{}", "f.bsp", 0).size() == 1);
}

TEST_CASE("parseEntities errors carry the lump name and absolute offset", "[entities]") {
    struct Case {
        std::string text;
        uint64_t at;  // relative to the lump
    };
    for (const Case& c : {Case{"{ \"a\" \"b\" ", 0}, Case{"{ \"a\" \"b\" }\n{ \"a\" \"b", 18}, Case{"{ \"a\" }", 2},
                          Case{"\"a\" \"b\"", 0}, Case{"{ \"a\" \"b\" { }", 10}, Case{"}", 0}, Case{"{ \"key\" ", 2}}) {
        INFO(c.text);
        try {
            parseEntities(c.text, "f.bsp", 1000);
            FAIL("no error");
        } catch (const DecodeError& e) {
            CHECK(e.file() == "f.bsp");
            CHECK(e.lump() == "entities");
            CHECK(e.offset() == 1000 + c.at);
        }
    }
}

TEST_CASE("findEntities returns matches in file order", "[entities]") {
    World w;
    w.entities = parseEntities(
        "{\"classname\" \"worldspawn\"}{\"classname\" \"light\" \"n\" \"1\"}{\"origin\" \"0 0 0\"}"
        "{\"classname\" \"light\" \"n\" \"2\"}",
        "f", 0);
    auto lights = findEntities(w, "light");
    REQUIRE(lights.size() == 2);
    CHECK(*lights[0]->get("n") == "1");
    CHECK(*lights[1]->get("n") == "2");
    CHECK(findEntities(w, "worldspawn").size() == 1);
    CHECK(findEntities(w, "info_null").empty());
}

TEST_CASE("parseVec3 reads up to three numbers", "[entities]") {
    Vec3 v{9, 9, 9};
    CHECK(parseVec3("1 -2.5 3e2", v));
    CHECK(v == Vec3{1, -2.5f, 300});
    CHECK(parseVec3("  64\t64 128 ", v));
    CHECK(v == Vec3{64, 64, 128});
    CHECK(parseVec3("7", v));
    CHECK(v == Vec3{7, 0, 0});
    CHECK(parseVec3("+4 5", v));
    CHECK(v == Vec3{4, 5, 0});
    CHECK(parseVec3("1 2 x", v));
    CHECK(v == Vec3{1, 2, 0});
    v = {9, 9, 9};
    CHECK_FALSE(parseVec3("", v));
    CHECK_FALSE(parseVec3("abc", v));
    CHECK(v == Vec3{9, 9, 9});  // untouched on failure
}
