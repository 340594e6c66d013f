#pragma once
// Neutral viewpoints (World::viewpoints) from a map's entities: the one place that knows each game's
// spawn, intermission and pickup entity classes. Decoders call it once the entities are read.
#include <optional>
#include <vector>

#include "luxel/bsp/world.hpp"

namespace luxel {

// The viewpoints of world.entities for world.format, with world.eyeHeight applied to spawns and items:
// * Spawn, in "spawn:N" order, each class in file order:
//   Quake 3: info_player_deathmatch, info_player_start, team_CTF_redspawn, team_CTF_bluespawn,
//            team_CTF_redplayer, team_CTF_blueplayer, info_player_team1..4 (Nexuiz/Xonotic);
//   Quake 2: info_player_deathmatch, info_player_start, info_player_coop;
//   Source:  info_player_deathmatch, info_player_start, info_player_terrorist, info_player_counterterrorist,
//            info_player_teamspawn (TF2), info_player_combine, info_player_rebel (HL2:DM).
// * Intermission, in order of preference: Quake 2/3 info_player_intermission; Source info_intermission,
//   then point_viewcontrol. Aimed at the first entity whose targetname is its target, as the games do.
// * Item, in file order: Quake 3 weapon_*, item_*, ammo_*, holdable_*, team_CTF_redflag / blueflag;
//   Quake 2 weapon_*, item_*, ammo_*, key_*; Source weapon_*, item_*.
std::vector<Viewpoint> findViewpoints(const World& world);

// Source: the first sky_camera with a readable origin (the engine uses the first one it spawns), which draws the
// 3D skybox; its scale is read as an integer (FIELD_INTEGER).
std::optional<SkyCamera> findSkyCamera(const World& world);

}  // namespace luxel
