// Cameras named by the map's own entities (spawn points, intermission) or framed on its bounds (overview).
#include <algorithm>
#include <array>
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

struct Frame {
    int width, height;
    float fovX;
};

Camera baseCamera(const Frame& frame) {
    if (frame.width <= 0 || frame.height <= 0)
        throw UsageError(fmt::format("image size must be positive, got {}x{}", frame.width, frame.height));
    if (!(frame.fovX >= 1.0f && frame.fovX <= 179.0f))
        throw UsageError(fmt::format("field of view must be 1 to 179 degrees, got {}", frame.fovX));
    Camera c;
    c.width = frame.width;
    c.height = frame.height;
    c.fovX = frame.fovX;
    return c;
}

// Spawn points in the order "spawn:N" counts them: every info_player_deathmatch in file order, then every
// info_player_start (single-player start) in file order, then team spawns so that team-only maps
// (Quake 3 CTF, Nexuiz/Xonotic) have a camera too, class by class in the order listed, each in file order.
constexpr std::string_view kSpawnClasses[] = {
    "info_player_deathmatch", "info_player_start",  "team_CTF_redspawn", "team_CTF_bluespawn",
    "team_CTF_redplayer",     "team_CTF_blueplayer", "info_player_team1", "info_player_team2",
    "info_player_team3",      "info_player_team4",
    // Source: Counter-Strike, Team Fortress 2, Half-Life 2: Deathmatch.
    "info_player_terrorist", "info_player_counterterrorist", "info_player_teamspawn", "info_player_combine",
    "info_player_rebel",
};

std::vector<const Entity*> spawnPoints(const World& world) {
    std::vector<const Entity*> points;
    for (std::string_view cls : kSpawnClasses)
        for (const Entity* e : findEntities(world, cls)) points.push_back(e);
    return points;
}

Camera spawnCamera(const World& world, size_t index, const std::string& spec, const Frame& frame) {
    const auto points = spawnPoints(world);
    if (points.empty())
        throw UsageError(fmt::format("{}map has no spawn points (info_player_deathmatch, info_player_start or a team spawn)",
                                     where(world)));
    if (index >= points.size())
        throw UsageError(fmt::format("{}map has {} spawn point{} (spawn:0 to spawn:{}); {} asked", where(world),
                                     points.size(), points.size() == 1 ? "" : "s", points.size() - 1, spec));
    const Entity& e = *points[index];
    Camera c = baseCamera(frame);
    c.position = entityOrigin(e) + Vec3{0, 0, world.eyeHeight};
    c.angles = entityAngles(e);
    return c;
}

// Quake's info_player_intermission, else Source's info_intermission or a point_viewcontrol camera.
Camera intermissionCamera(const World& world, const Frame& frame) {
    std::vector<const Entity*> points;
    for (std::string_view cls : {"info_player_intermission", "info_intermission", "point_viewcontrol"})
        if (points.empty()) points = findEntities(world, cls);
    if (points.empty())
        throw UsageError(fmt::format("{}map has no info_player_intermission (nor info_intermission or point_viewcontrol)",
                                     where(world)));
    const Entity& e = *points[0];
    Camera c = baseCamera(frame);
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

bool validBox(Vec3 mins, Vec3 maxs) {
    return isFinite(mins) && isFinite(maxs) && mins.x <= maxs.x && mins.y <= maxs.y && mins.z <= maxs.z;
}

// What the overview frames: the world model's drawable geometry (vertices of its surfaces that are not
// nodraw or sky, billboard origins), clamped into models[0]'s bounds. The model bounds alone also hold clip and
// caulk brushes that can reach far past anything drawn (am_thornish: 3392 units wide for 2048 of
// geometry), and even the drawn geometry's box is much larger on screen than the geometry seen at an
// angle, so the frame is fitted to the points themselves. The 8 corners of models[0] are the fallback
// when there is no drawable vertex.
std::vector<Vec3> framingPoints(const World& world) {
    Bounds model;
    if (!world.models.empty() && validBox(world.models[0].mins, world.models[0].maxs)) {
        model.grow(world.models[0].mins);
        model.grow(world.models[0].maxs);
    }
    const size_t count = world.surfaces.size();
    size_t first = 0, last = count;
    if (!world.models.empty()) {
        first = std::min<size_t>(world.models[0].firstSurface, count);
        last = size_t(std::min<uint64_t>(uint64_t(world.models[0].firstSurface) + world.models[0].numSurfaces, count));
    }
    std::vector<Vec3> points;
    auto add = [&](Vec3 p) {
        if (!isFinite(p)) return;
        if (!model.empty()) p = vmin(vmax(p, model.mins), model.maxs);
        points.push_back(p);
    };
    for (size_t s = first; s < last; ++s) {
        const Surface& surface = world.surfaces[s];
        if (surface.material >= 0 && size_t(surface.material) < world.materials.size() &&
            (world.materials[size_t(surface.material)].flags & (kMaterialNoDraw | kMaterialSky)))
            continue;  // sky boxes enclose the level far out; the level is what a thumbnail shows
        if (surface.kind == SurfaceKind::Billboard) add(surface.origin);
        const size_t v0 = std::min<size_t>(surface.firstVertex, world.vertices.size());
        const size_t v1 =
            size_t(std::min<uint64_t>(uint64_t(surface.firstVertex) + surface.numVertices, world.vertices.size()));
        for (size_t v = v0; v < v1; ++v) add(world.vertices[v].position);
    }
    if (points.empty() && !model.empty())
        for (int i = 0; i < 8; ++i)
            points.push_back({(i & 1) ? model.maxs.x : model.mins.x, (i & 2) ? model.maxs.y : model.mins.y,
                              (i & 4) ? model.maxs.z : model.mins.z});
    if (points.empty())  // last resort for maps without models or surfaces: every vertex
        for (const Vertex& v : world.vertices)
            if (isFinite(v.position)) points.push_back(v.position);
    return points;
}

// Overview: the world's drawable points (framingPoints) seen from above at an angle. For the fixed view
// direction, the eye is placed so all points project inside the frame (with a small margin) from as close as possible: the box touches
// both edges of the frame in its tighter dimension and is centred in both.
//
// With eye = center - forward*D + right*a + up*b, a corner q (relative to center) lies at depth
// dot(q,f) + D, horizontal offset dot(q,r) - a and vertical offset dot(q,u) - b. "Inside" means
// |dot(q,r) - a| <= tanX * (dot(q,f) + D): linear in (a, D), and likewise for (b, D) vertically, so the
// smallest D and the centring a, b have closed forms.
Camera overviewAtYaw(const std::vector<Vec3>& points, const Bounds& box, const Frame& frame, float yaw,
                     double& distanceOut) {
    Camera c = baseCamera(frame);
    constexpr float kPitch = 55.0f;
    c.angles = {kPitch, yaw, 0};

    Vec3 forward, right, up;
    angleVectors(c.angles, forward, right, up);

    const double margin = 0.95;  // corners land within 95% of the half-frame
    const double tanX = std::tan(double(degToRad(c.fovX)) * 0.5) * margin;
    const double tanY = tanX * double(frame.height) / double(frame.width);
    const Vec3 center = box.center();

    struct Along {
        double f, r, u;
    };
    std::vector<Along> corners;
    corners.reserve(points.size());
    for (Vec3 p : points) {
        const Vec3 q = p - center;
        corners.push_back({dot(q, forward), dot(q, right), dot(q, up)});
    }
    // For one screen axis (s = offset along it, t = tan of its half-angle): the smallest D for which some
    // shift fits all corners, and that shift (the centre of the feasible interval).
    auto minDistance = [&](double Along::*s, double t) {
        double hi = -1e30, lo = 1e30;
        for (const Along& k : corners) {
            hi = std::max(hi, k.*s - t * k.f);
            lo = std::min(lo, k.*s + t * k.f);
        }
        return (hi - lo) / (2 * t);
    };
    // Among the shifts that fit, the one that centres the corners on screen: the sum of the largest and
    // smallest screen offsets falls as the shift grows, so bisect it to zero.
    auto shift = [&](double Along::*s, double t, double d) {
        double first = -1e30, last = 1e30;  // the shifts that keep every corner inside
        for (const Along& k : corners) {
            first = std::max(first, k.*s - t * (k.f + d));
            last = std::min(last, k.*s + t * (k.f + d));
        }
        auto balance = [&](double shift) {
            double hi = -1e30, lo = 1e30;
            for (const Along& k : corners) {
                const double offset = (k.*s - shift) / (k.f + d);
                hi = std::max(hi, offset);
                lo = std::min(lo, offset);
            }
            return hi + lo;
        };
        for (int i = 0; i < 64 && first < last; ++i) {
            const double mid = (first + last) / 2;
            (balance(mid) > 0 ? first : last) = mid;
        }
        return (first + last) / 2;
    };
    double distance = std::max(minDistance(&Along::r, tanX), minDistance(&Along::u, tanY));
    for (const Along& k : corners) distance = std::max(distance, 2.0 * c.nearPlane - k.f);  // all past near
    const double a = shift(&Along::r, tanX, distance), b = shift(&Along::u, tanY, distance);
    c.position = center - forward * float(distance) + right * float(a) + up * float(b);
    distanceOut = distance;
    return c;
}

// Of the four diagonal views, the one from which the map appears largest (the eye closest): a long map
// lies across the frame instead of along its height. Ties keep the first (yaw 45).
Camera overviewCamera(const World& world, const Frame& frame) {
    const std::vector<Vec3> points = framingPoints(world);
    Bounds box;
    for (Vec3 p : points) box.grow(p);
    if (box.empty()) throw UsageError(fmt::format("{}map has no world bounds to frame an overview", where(world)));
    Camera best;
    double bestDistance = 0;
    for (float yaw : {45.0f, 135.0f, 225.0f, 315.0f}) {
        double distance = 0;
        Camera c = overviewAtYaw(points, box, frame, yaw, distance);
        if (yaw == 45.0f || distance < bestDistance * (1 - 1e-6)) {
            best = c;
            bestDistance = distance;
        }
    }
    return best;
}

}  // namespace

float horizontalFov(const World& world, float fov, int width, int height) {
    if (world.fovReferenceAspect <= 0 || width <= 0 || height <= 0) return fov;
    // The game's FOV spans the width of a frame of the reference aspect; a wider frame sees more to the sides
    // with the same vertical extent (Source's "Hor+" scaling).
    const double aspect = double(width) / double(height);
    const double half = std::atan(std::tan(double(degToRad(fov)) * 0.5) * aspect / double(world.fovReferenceAspect));
    return float(2.0 * half * 180.0 / double(kPi));
}

Camera cameraFromSpec(const World& world, const std::string& spec, int width, int height, float fovX) {
    const Frame frame{width, height, horizontalFov(world, fovX, width, height)};
    if (spec == "spawn") return spawnCamera(world, 0, spec, frame);
    if (spec.rfind("spawn:", 0) == 0) {
        const std::string_view digits = std::string_view(spec).substr(6);
        size_t index = 0;
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
        if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size())
            throw UsageError(fmt::format("camera '{}': the spawn index must be a number from 0, as in spawn:2", spec));
        return spawnCamera(world, index, spec, frame);
    }
    if (spec == "intermission") return intermissionCamera(world, frame);
    if (spec == "overview") return overviewCamera(world, frame);
    throw UsageError(fmt::format("unknown camera '{}'; valid cameras: {}", spec, kValidSpecs));
}

}  // namespace luxel
