// KeyValues text as a tree: what gameinfo.txt needs beyond what the VMT tests cover (repeated keys kept in
// order, platform conditions on values, case-insensitive find).
#include <catch2/catch.hpp>

#include "luxel/io/keyvalues.hpp"
#include "luxel/util/error.hpp"

using namespace luxel;

TEST_CASE("KeyValues keeps repeated keys in order and drops entries whose platform condition fails", "[keyvalues]") {
    const KeyValue root = parseKeyValues(R"("GameInfo"
{
    FileSystem
    {
        SearchPaths
        {
            game        a      // comment
            "game+mod"  "b c"
            game        x360   [$X360]
            game        pc     [$WIN32]
            game        d
        }
    }
})",
                                         "gameinfo.txt");
    CHECK(root.key == "GameInfo");
    const KeyValue* fs = root.find("filesystem");
    REQUIRE(fs);
    const KeyValue* paths = fs->find("SEARCHPATHS");
    REQUIRE(paths);
    REQUIRE(paths->isBlock);
    std::vector<std::string> seen;
    for (const KeyValue& kv : paths->children) seen.push_back(kv.key + "=" + kv.value);
    CHECK(seen == std::vector<std::string>{"game=a", "game+mod=b c", "game=pc", "game=d"});
    CHECK(paths->find("game")->value == "a");
    CHECK_FALSE(root.find("missing"));
}

TEST_CASE("malformed KeyValues name the root as asked", "[keyvalues]") {
    try {
        parseKeyValues("", "gameinfo.txt");
        FAIL("no DecodeError");
    } catch (const DecodeError& e) {
        CHECK(e.file() == "gameinfo.txt");
        CHECK(e.detail() == "line 1: empty file: no name");
    }
}
