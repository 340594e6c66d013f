// Cameras named by the map's own entities (spawn points, intermission) or framed on its bounds (overview).
#include <charconv>
#include <cmath>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "luxel/bsp/entities.hpp"
#include "luxel/render/camera.hpp"
#include "luxel/util/error.hpp"

namespace luxel {

namespace {

// Quake 3's DEFAULT_VIEWHEIGHT: the eye sits this far above a spawn point's origin.
constexpr float kViewHeight = 26.0f;

constexpr std::string_view kValidSpecs = "spawn, spawn:N (N counted from 0), intermission, overview";

// "file.bsp: " for messages, or nothing for a World built in memory.
std::string where(const World& world) { return world.file.empty() ? std::string() : world.file + ": "; }

Vec3 entityOrigin(const Entity& e) {
    Vec3 origin;
    if (const std::string* v = e.get("origin")) parseVec3(*v, origin);
    return origin;
}

// Keys are applied in file order with a later one winning, as the game's spawn code does:
// "angle" is a yaw alone, "angles" is pitch yaw roll.
Vec3 entityAngles(const Entity& e) {
    Vec3 angles;
    for (const auto& [key, value] : e.keys) {
        if (key == "angle") {
            Vec3 a;
            if (parseVec3(value, a)) angles = {0, a.x, 0};
        } else if (key == "angles") {
            Vec3 a;
            if (parseVec3(value, a)) angles = a;
        }
    }
    return angles;
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

Camera baseCamera(int width, int height) {
    if (width <= 0 || height <= 0)
        throw UsageError(fmt::format("image size must be positive, got {}x{}", width, height));
    Camera c;
    c.width = width;
    c.height = height;
    return c;
}

// Spawn points in the order "spawn:N" counts them: every info_player_deathmatch in file order, then every
// info_player_start (single-player start, used by maps made for one player) in file order.
std::vector<const Entity*> spawnPoints(const World& world) {
    std::vector<const Entity*> points = findEntities(world, "info_player_deathmatch");
    for (const Entity* e : findEntities(world, "info_player_start")) points.push_back(e);
    return points;
}

Camera spawnCamera(const World& world, size_t index, const std::string& spec, int width, int height) {
    const auto points = spawnPoints(world);
    if (points.empty())
        throw UsageError(fmt::format("{}map has no spawn points (info_player_deathmatch or info_player_start)",
                                     where(world)));
    if (index >= points.size())
        throw UsageError(fmt::format("{}map has {} spawn point{} (spawn:0 to spawn:{}); {} asked", where(world),
                                     points.size(), points.size() == 1 ? "" : "s", points.size() - 1, spec));
    const Entity& e = *points[index];
    Camera c = baseCamera(width, height);
    c.position = entityOrigin(e) + Vec3{0, 0, kViewHeight};
    c.angles = entityAngles(e);
    return c;
}

Camera intermissionCamera(const World& world, int width, int height) {
    const auto points = findEntities(world, "info_player_intermission");
    if (points.empty()) throw UsageError(fmt::format("{}map has no info_player_intermission", where(world)));
    const Entity& e = *points[0];
    Camera c = baseCamera(width, height);
    // The game shows the intermission from the entity's origin itself, with no view height.
    c.position = entityOrigin(e);
    c.angles = entityAngles(e);
    // As the game does: aim at the first entity whose targetname matches, else keep the entity's angles.
    if (const std::string* target = e.get("target"); target && !target->empty()) {
        for (const Entity& t : world.entities) {
            const std::string* name = t.get("targetname");
            if (!name || *name != *target) continue;
            const Vec3 dir = entityOrigin(t) - c.position;
            if (dot(dir, dir) > 0) c.angles = anglesFromDirection(dir);
            break;
        }
    }
    return c;
}

Bounds worldBounds(const World& world) {
    Bounds b;
    if (!world.models.empty()) {
        const Model& m = world.models[0];
        if (isFinite(m.mins) && isFinite(m.maxs) && m.mins.x <= m.maxs.x && m.mins.y <= m.maxs.y &&
            m.mins.z <= m.maxs.z) {
            b.grow(m.mins);
            b.grow(m.maxs);
            return b;
        }
    }
    // No usable world model bounds (hostile or synthetic map): fall back to the vertices.
    for (const Vertex& v : world.vertices)
        if (isFinite(v.position)) b.grow(v.position);
    return b;
}

// Overview: the world box seen from above at an angle, the distance solved so all 8 corners project
// inside the frame (with a small margin) for this aspect and field of view.
Camera overviewCamera(const World& world, int width, int height) {
    const Bounds box = worldBounds(world);
    if (box.empty()) throw UsageError(fmt::format("{}map has no world bounds to frame an overview", where(world)));
    Camera c = baseCamera(width, height);
    constexpr float kPitch = 55.0f, kYaw = 45.0f;
    c.angles = {kPitch, kYaw, 0};

    Vec3 forward, right, up;
    angleVectors(c.angles, forward, right, up);

    const float margin = 0.95f;  // corners land within 95% of the half-frame
    const float tanX = std::tan(degToRad(c.fovX) * 0.5f) * margin;
    const float tanY = tanX * float(height) / float(width);
    const Vec3 center = box.center();
    // Eye = center - forward * distance. A corner q (relative to center) is at depth distance + dot(q, f)
    // and must satisfy |dot(q, right)| <= tanX * depth, |dot(q, up)| <= tanY * depth, depth >= 2 * near.
    float distance = 0;
    for (int i = 0; i < 8; ++i) {
        const Vec3 corner{(i & 1) ? box.maxs.x : box.mins.x, (i & 2) ? box.maxs.y : box.mins.y,
                          (i & 4) ? box.maxs.z : box.mins.z};
        const Vec3 q = corner - center;
        const float along = dot(q, forward);
        const float need = std::max({std::abs(dot(q, right)) / tanX, std::abs(dot(q, up)) / tanY,
                                     2.0f * c.nearPlane}) - along;
        distance = std::max(distance, need);
    }
    c.position = center - forward * distance;
    return c;
}

}  // namespace

Camera cameraFromSpec(const World& world, const std::string& spec, int width, int height) {
    if (spec == "spawn") return spawnCamera(world, 0, spec, width, height);
    if (spec.rfind("spawn:", 0) == 0) {
        const std::string_view digits = std::string_view(spec).substr(6);
        size_t index = 0;
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
        if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size())
            throw UsageError(fmt::format("camera '{}': the spawn index must be a number from 0, as in spawn:2", spec));
        return spawnCamera(world, index, spec, width, height);
    }
    if (spec == "intermission") return intermissionCamera(world, width, height);
    if (spec == "overview") return overviewCamera(world, width, height);
    throw UsageError(fmt::format("unknown camera '{}'; valid cameras: {}", spec, kValidSpecs));
}

}  // namespace luxel
