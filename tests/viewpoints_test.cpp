// Viewpoints come out of the decoders: each game's spawn, intermission and pickup classes, in spawn:N order,
// eye height applied, intermission aimed at its target; the renderer sees only World::viewpoints.
#include <catch2/catch.hpp>

#include <string>

#include "luxel/bsp/decode.hpp"
#include "luxel/bsp/entities.hpp"
#include "luxel/bsp/viewpoints.hpp"
#include "support/decode_helpers.hpp"
#include "support/q2_writer.hpp"
#include "support/q3_writer.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

using Kind = Viewpoint::Kind;

std::string ent(const std::string& cls, const std::string& origin, const std::string& extra = "") {
    return "{\n\"classname\" \"" + cls + "\"\n\"origin\" \"" + origin + "\"\n" + extra + "}\n";
}

}  // namespace

TEST_CASE("Quake 3 decoder lists spawns in spawn:N order, then intermission, then items", "[camera][viewpoints]") {
    Q3MapBuilder b = makeRoomMap();
    b.entities = "{\n\"classname\" \"worldspawn\"\n}\n" + ent("weapon_rocketlauncher", "10 0 0") +
                 ent("info_player_team1", "7 7 7") + ent("team_CTF_bluespawn", "8 8 8") +
                 ent("info_player_start", "1 2 3", "\"angle\" \"90\"\n") +
                 ent("info_player_deathmatch", "100 200 64", "\"angle\" \"45\"\n") +
                 ent("info_player_intermission", "0 0 100", "\"target\" \"look\"\n") +
                 ent("target_position", "100 0 0", "\"targetname\" \"look\"\n") + ent("item_armor_body", "0 20 0") +
                 ent("info_player_deathmatch", "-10 -20 -30", "\"angles\" \"10 180 0\"\n") +
                 ent("info_player_terrorist", "5 5 5") + ent("light", "0 0 0");
    const World w = decodeBytes(b.build());
    REQUIRE(w.viewpoints.size() == 8);
    // Deathmatch points first (file order), then the single-player start, then CTF, then Xonotic team spawns;
    // a Source class in a Quake 3 map is nothing.
    const char* classes[] = {"info_player_deathmatch", "info_player_deathmatch", "info_player_start",
                             "team_CTF_bluespawn",     "info_player_team1",      "info_player_intermission",
                             "weapon_rocketlauncher",  "item_armor_body"};
    const Kind kinds[] = {Kind::Spawn, Kind::Spawn,        Kind::Spawn, Kind::Spawn,
                          Kind::Spawn, Kind::Intermission, Kind::Item,  Kind::Item};
    for (size_t i = 0; i < 8; ++i) {
        INFO(i);
        CHECK(w.viewpoints[i].className == classes[i]);
        CHECK(w.viewpoints[i].kind == kinds[i]);
    }
    // Eye 26 units above spawn and item origins (Quake 3 DEFAULT_VIEWHEIGHT); "angle" is a yaw, "angles" all three.
    CHECK(w.viewpoints[0].position == Vec3{100, 200, 90});
    CHECK(w.viewpoints[0].angles == Vec3{0, 45, 0});
    CHECK(w.viewpoints[1].position == Vec3{-10, -20, -4});
    CHECK(w.viewpoints[1].angles == Vec3{10, 180, 0});
    CHECK(w.viewpoints[6].position == Vec3{10, 0, 26});
    // The intermission camera sits at its origin and looks at its target: +X, 100 down over 100 ahead.
    CHECK(w.viewpoints[5].position == Vec3{0, 0, 100});
    CHECK(w.viewpoints[5].angles.x == Approx(45).margin(1e-4));
    CHECK(w.viewpoints[5].angles.y == Approx(0).margin(1e-4));
}

TEST_CASE("Quake 2 decoder: its own classes and its 22-unit view height", "[camera][viewpoints]") {
    Q2MapBuilder b = makeQ2FloorMap();
    b.entities = "{\n\"classname\" \"worldspawn\"\n}\n" + ent("info_player_coop", "0 0 0") + ent("key_blue_key", "1 1 1") +
                 ent("info_player_start", "5 6 7", "\"angle\" \"270\"\n") + ent("ammo_shells", "2 2 2") +
                 ent("team_CTF_redspawn", "9 9 9") + ent("info_player_intermission", "0 0 50", "\"angles\" \"20 30 0\"\n");
    const World w = decodeBytes(b.build(), "q2.bsp");
    REQUIRE(w.format == MapFormat::Quake2);
    REQUIRE(w.viewpoints.size() == 5);
    CHECK(w.viewpoints[0].className == "info_player_start");
    CHECK(w.viewpoints[0].position == Vec3{5, 6, 29});
    CHECK(w.viewpoints[0].angles == Vec3{0, 270, 0});
    CHECK(w.viewpoints[1].className == "info_player_coop");
    CHECK(w.viewpoints[2].kind == Kind::Intermission);
    CHECK(w.viewpoints[2].angles == Vec3{20, 30, 0});  // no target: its own angles
    CHECK(w.viewpoints[3].className == "key_blue_key");
    CHECK(w.viewpoints[4].className == "ammo_shells");
    CHECK(w.viewpoints[4].kind == Kind::Item);
}

TEST_CASE("Source decoder: team spawns of CS / TF2 / HL2:DM, info_intermission before point_viewcontrol", "[camera][viewpoints]") {
    // The Source decoder calls findViewpoints as the Quake ones do (tested above); here the classes.
    World w;
    w.format = MapFormat::Source;
    w.eyeHeight = 64;
    const std::string text = "{\n\"classname\" \"worldspawn\"\n}\n" + ent("point_viewcontrol", "0 0 0") +
                             ent("info_player_counterterrorist", "1 0 0") + ent("weapon_ak47", "3 0 0") +
                             ent("info_intermission", "0 0 500") + ent("info_player_terrorist", "2 0 0", "\"angles\" \"0 90 0\"\n") +
                             ent("info_player_teamspawn", "4 0 0") + ent("info_player_deathmatch", "5 0 0");
    w.entities = parseEntities(text, "source.bsp", 0);
    w.viewpoints = findViewpoints(w);
    REQUIRE(w.format == MapFormat::Source);
    REQUIRE(w.viewpoints.size() == 7);
    const char* classes[] = {"info_player_deathmatch", "info_player_terrorist", "info_player_counterterrorist",
                             "info_player_teamspawn",  "info_intermission",     "point_viewcontrol",
                             "weapon_ak47"};
    for (size_t i = 0; i < 7; ++i) CHECK(w.viewpoints[i].className == classes[i]);
    CHECK(w.viewpoints[1].position == Vec3{2, 0, 64});  // Source eye height 64
    CHECK(w.viewpoints[1].angles == Vec3{0, 90, 0});
    CHECK(w.viewpoints[4].position == Vec3{0, 0, 500});  // intermission: no eye height
    CHECK(w.viewpoints[6].kind == Kind::Item);
}
