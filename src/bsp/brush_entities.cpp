// Which brush entities each game draws at the start of a map, and where (see brush_entities.hpp).
#include "luxel/bsp/brush_entities.hpp"

#include <charconv>
#include <cmath>
#include <span>
#include <string_view>

#include "luxel/bsp/entities.hpp"

namespace luxel {

namespace {

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool listed(std::string_view cls, std::span<const std::string_view> names) {
    for (std::string_view n : names)
        if (cls == n) return true;
    return false;
}

float keyFloat(const Entity& e, const char* key, float fallback) {
    const std::string* v = e.get(key);
    float out = fallback;
    if (v && !v->empty()) {
        const auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
        if (ec != std::errc() || !std::isfinite(out)) out = fallback;
    }
    return out;
}

// Quake 3's game spawns these brush classes (g_spawn.c); any other class is freed at load.
constexpr std::string_view kQ3Drawn[] = {"func_plat",     "func_button",  "func_door",     "func_static",
                                         "func_rotating", "func_bobbing", "func_pendulum", "func_train"};

// Quake 2's drawn brush classes (g_spawn.c; triggers, func_areaportal and func_killbox are not drawn).
constexpr std::string_view kQ2Drawn[] = {"func_plat",   "func_button",   "func_door",      "func_door_secret",
                                         "func_door_rotating", "func_rotating", "func_train", "func_water",
                                         "func_conveyor", "func_wall",   "func_object",    "func_explosive"};

// Quake 1's drawn brush classes (progs' spawn functions that set a model; triggers and func_illusionary's
// relatives draw nothing... func_illusionary itself is drawn, as a wall the player walks through). Half-Life's
// func_ classes are drawn unless their render mode hides them.
constexpr std::string_view kQ1Drawn[] = {"func_plat",  "func_button", "func_door", "func_door_secret",
                                         "func_train", "func_wall",   "func_illusionary", "func_episodegate",
                                         "func_bossgate"};

// Source brush classes that are volumes, not things to see (besides trigger_* and func_nav_*).
constexpr std::string_view kSourceHidden[] = {
    "func_areaportal",     "func_areaportalwindow", "func_occluder",      "func_clip_vphysics",
    "func_vehicleclip",    "func_buyzone",          "func_bomb_target",   "func_hostage_rescue",
    "func_ladder",         "func_ladderendpoint",   "func_precipitation", "func_dustmotes",
    "func_dustcloud",      "func_smokevolume",      "func_respawnroom",   "func_nobuild",
    "func_regenerate",     "func_capturezone",      "func_upgradestation", "func_flagdetectionzone",
    "func_no_build",       "func_suggested_build",  "func_powerupvolume", "func_tfbot_hint",
    "func_croc",           "func_combine_ball_spawner", "func_proprrespawnzone"};

bool drawnAtStart(MapFormat format, const Entity& e) {
    const std::string* clsp = e.get("classname");
    if (!clsp) return false;
    const std::string_view cls = *clsp;
    switch (format) {
        case MapFormat::Quake3: return listed(cls, kQ3Drawn);
        case MapFormat::Quake2: {
            if (!listed(cls, kQ2Drawn)) return false;
            const int flags = entityInt(e, "spawnflags");
            // TRIGGER_SPAWN (1): linked into the world when triggered; func_wall's START_ON (16) shows it at once.
            if (cls == "func_wall") return !(flags & 1) || (flags & 16);
            if (cls == "func_explosive") return !(flags & 1);
            return true;
        }
        case MapFormat::Quake1: return listed(cls, kQ1Drawn);
        case MapFormat::HalfLife: {
            if (startsWith(cls, "trigger_") || cls == "func_ladder" || cls == "func_buyzone" || cls == "func_bomb_target" ||
                cls == "func_hostage_rescue" || cls == "func_vip_safetyzone" || cls == "func_escapezone")
                return false;
            const int renderMode = entityInt(e, "rendermode");
            // kRenderTransColor / Texture / Glow / Alpha / Add with renderamt 0 are invisible.
            if (renderMode != 0 && e.get("renderamt") && entityInt(e, "renderamt") == 0) return false;
            return startsWith(cls, "func_") || startsWith(cls, "momentary_");
        }
        case MapFormat::Source: {
            if (startsWith(cls, "trigger_") || startsWith(cls, "func_nav_") || startsWith(cls, "env_") ||
                listed(cls, kSourceHidden))
                return false;
            const int renderMode = entityInt(e, "rendermode");
            if (renderMode == 10) return false;  // kRenderNone
            if (renderMode != 0 && e.get("renderamt") && entityInt(e, "renderamt") == 0) return false;
            if ((cls == "func_brush" || cls == "func_wall_toggle") && entityInt(e, "StartDisabled") != 0) return false;
            if (cls == "func_wall_toggle" && (entityInt(e, "spawnflags") & 1)) return false;  // starts invisible
            return true;
        }
    }
    return false;
}

}  // namespace

std::vector<int32_t> surfaceModels(const World& world) {
    std::vector<int32_t> out(world.surfaces.size(), 0);
    for (size_t m = 1; m < world.models.size(); ++m)
        for (uint32_t s = world.models[m].firstSurface; s < world.models[m].firstSurface + world.models[m].numSurfaces && s < out.size(); ++s)
            out[s] = int32_t(m);
    return out;
}

void placeBrushModels(World& world) {
    for (size_t m = 1; m < world.models.size(); ++m) {
        world.models[m].drawn = false;
        world.models[m].entity = -1;
    }
    for (size_t i = 0; i < world.entities.size(); ++i) {
        const Entity& e = world.entities[i];
        const std::string* model = e.get("model");
        if (!model || model->size() < 2 || (*model)[0] != '*') continue;
        size_t index = 0;
        const auto [end, ec] = std::from_chars(model->data() + 1, model->data() + model->size(), index);
        if (ec != std::errc() || end != model->data() + model->size() || index == 0 || index >= world.models.size())
            continue;
        Model& m = world.models[index];
        if (m.entity >= 0) continue;  // the first entity using a model places it
        m.entity = int32_t(i);
        m.drawn = drawnAtStart(world.format, e);
        m.origin = entityOrigin(e);
        const std::string* cls = e.get("classname");
        if (cls && *cls == "func_train" && world.format != MapFormat::Source) {
            if (const Entity* corner = targetOf(world, e)) {
                m.origin = entityOrigin(*corner);
                // Quake 1 and 2 trains put their model's mins at the first corner.
                if (world.format == MapFormat::Quake2 || world.format == MapFormat::Quake1) m.origin = m.origin - m.mins;
            }
        }
        if (cls && *cls == "func_plat" && world.format != MapFormat::Source &&
            (world.format == MapFormat::Quake3 || !e.get("targetname"))) {
            // Compiled raised (so they light correctly); the games start them lowered by their travel: Quake 3
            // always, Quake 2 unless something triggers them.
            float height = keyFloat(e, "height", 0.0f);
            if (height == 0.0f) height = (m.maxs.z - m.mins.z) - keyFloat(e, "lip", 8.0f);
            m.origin.z -= height;
        }
        if (world.format == MapFormat::Source) {
            Vec3 forward, right, up;
            angleVectors(entityAngles(e), forward, right, up);
            m.axis = {forward, -right, up};  // AngleMatrix's columns: forward, left, up
        }
    }
}

void placeBrushModelsAsCompiled(World& world) {
    for (size_t m = 1; m < world.models.size(); ++m) {
        Model& model = world.models[m];
        model.drawn = true;
        model.origin = model.entity >= 0 && size_t(model.entity) < world.entities.size() ? entityOrigin(world.entities[size_t(model.entity)])
                                                                                        : Vec3{};
        model.axis = {Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}};
    }
}

}  // namespace luxel
