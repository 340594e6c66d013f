// Each game's spawn, intermission and pickup classes turned into neutral viewpoints.
#include "luxel/bsp/viewpoints.hpp"

#include <cmath>
#include <cstdlib>
#include <span>
#include <string_view>

#include "luxel/bsp/entities.hpp"

namespace luxel {

namespace {

struct GameClasses {
    std::span<const std::string_view> spawns;         // in spawn:N order
    std::span<const std::string_view> intermissions;  // in order of preference
    std::span<const std::string_view> itemPrefixes;
    std::span<const std::string_view> itemClasses;    // exact names besides the prefixes
};

// Quake 3 (and the games on its engine: OpenArena, Nexuiz/Xonotic with their team spawns).
constexpr std::string_view kQ3Spawns[] = {
    "info_player_deathmatch", "info_player_start",   "team_CTF_redspawn", "team_CTF_bluespawn",
    "team_CTF_redplayer",     "team_CTF_blueplayer", "info_player_team1", "info_player_team2",
    "info_player_team3",      "info_player_team4",
};
constexpr std::string_view kQuakeIntermissions[] = {"info_player_intermission"};
constexpr std::string_view kQ3ItemPrefixes[] = {"weapon_", "item_", "ammo_", "holdable_"};
constexpr std::string_view kQ3ItemClasses[] = {"team_CTF_redflag", "team_CTF_blueflag"};

constexpr std::string_view kQ2Spawns[] = {"info_player_deathmatch", "info_player_start", "info_player_coop"};
constexpr std::string_view kQ2ItemPrefixes[] = {"weapon_", "item_", "ammo_", "key_"};

// Quake 1 (progs' client.qc: single-player start first, then deathmatch and coop starts); its intermission
// camera aims by its own "mangle" key. Half-Life's starts and its intermission camera.
constexpr std::string_view kQ1Spawns[] = {"info_player_start", "info_player_deathmatch", "info_player_coop",
                                          "info_player_start2"};
constexpr std::string_view kQ1Intermissions[] = {"info_intermission"};
constexpr std::string_view kQ1ItemPrefixes[] = {"weapon_", "item_"};
constexpr std::string_view kHalfLifeSpawns[] = {"info_player_start", "info_player_deathmatch"};
constexpr std::string_view kHalfLifeItemPrefixes[] = {"weapon_", "item_", "ammo_"};

// Source: Half-Life 2 / HL2:DM, Counter-Strike, Team Fortress 2.
constexpr std::string_view kSourceSpawns[] = {
    "info_player_deathmatch",        "info_player_start",     "info_player_terrorist",
    "info_player_counterterrorist",  "info_player_teamspawn", "info_player_combine",
    "info_player_rebel",
};
constexpr std::string_view kSourceIntermissions[] = {"info_intermission", "point_viewcontrol"};
constexpr std::string_view kSourceItemPrefixes[] = {"weapon_", "item_"};

GameClasses classesFor(MapFormat format) {
    switch (format) {
        case MapFormat::Quake3: return {kQ3Spawns, kQuakeIntermissions, kQ3ItemPrefixes, kQ3ItemClasses};
        case MapFormat::Quake2: return {kQ2Spawns, kQuakeIntermissions, kQ2ItemPrefixes, {}};
        case MapFormat::Source: return {kSourceSpawns, kSourceIntermissions, kSourceItemPrefixes, {}};
        case MapFormat::Quake1: return {kQ1Spawns, kQ1Intermissions, kQ1ItemPrefixes, {}};
        case MapFormat::HalfLife: return {kHalfLifeSpawns, kQ1Intermissions, kHalfLifeItemPrefixes, {}};
    }
    return {};
}

// Quake's vectoangles: pitch positive looking down, yaw counter-clockwise from +X, roll 0.
Vec3 anglesFromDirection(Vec3 d) {
    const float horizontal = std::sqrt(d.x * d.x + d.y * d.y);
    if (horizontal == 0 && d.z == 0) return {};
    float yaw = (d.x == 0 && d.y == 0) ? 0.0f : std::atan2(d.y, d.x) * (180.0f / kPi);
    if (yaw < 0) yaw += 360.0f;
    const float pitch = -std::atan2(d.z, horizontal) * (180.0f / kPi);
    return {pitch, yaw, 0};
}

bool isItem(std::string_view cls, const GameClasses& game) {
    for (std::string_view prefix : game.itemPrefixes)
        if (cls.size() > prefix.size() && cls.substr(0, prefix.size()) == prefix) return true;
    for (std::string_view name : game.itemClasses)
        if (cls == name) return true;
    return false;
}

}  // namespace

std::vector<Viewpoint> findViewpoints(const World& world) {
    const GameClasses game = classesFor(world.format);
    std::vector<Viewpoint> out;
    const Vec3 eye{0, 0, world.eyeHeight};
    for (std::string_view cls : game.spawns)
        for (const Entity* e : findEntities(world, cls))
            out.push_back({Viewpoint::Kind::Spawn, entityOrigin(*e) + eye, entityAngles(*e), std::string(cls)});
    for (std::string_view cls : game.intermissions)
        for (const Entity* e : findEntities(world, cls)) {
            Viewpoint v{Viewpoint::Kind::Intermission, entityOrigin(*e), entityAngles(*e), std::string(cls)};
            Vec3 mangle;
            if (const std::string* m = e->get("mangle"); m && parseVec3(*m, mangle)) {
                v.angles = mangle;  // Quake 1: pitch yaw roll, the camera as placed
            } else if (const Entity* t = targetOf(world, *e)) {
                const Vec3 dir = entityOrigin(*t) - v.position;
                if (dot(dir, dir) > 0) v.angles = anglesFromDirection(dir);
            }
            out.push_back(std::move(v));
        }
    for (const Entity& e : world.entities) {
        const std::string* cls = e.get("classname");
        if (cls && isItem(*cls, game))
            out.push_back({Viewpoint::Kind::Item, entityOrigin(e) + eye, entityAngles(e), *cls});
    }
    return out;
}

std::optional<SkyCamera> findSkyCamera(const World& world) {
    for (const Entity* e : findEntities(world, "sky_camera")) {
        SkyCamera c;
        const std::string* origin = e->get("origin");
        if (!origin || !parseVec3(*origin, c.origin)) continue;
        if (const std::string* scale = e->get("scale")) c.scale = float(std::atoi(scale->c_str()));  // FIELD_INTEGER
        return c;
    }
    return std::nullopt;
}

}  // namespace luxel
