// ericw-tools' _surface light templates (see surface_templates.hpp).
#include "surface_templates.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "../entity_values.hpp"
#include "luxel/bsp/brush_entities.hpp"

namespace luxel {

namespace {

using namespace entity_values;

constexpr float kSubdivide = 128;  // light's surflight_subdivide default

// GLQuake's SubdividePolygon: split at the multiple of `size` nearest the middle of the first axis whose
// extent runs more than 8 units past it on both sides; `piece` receives every final polygon.
template <typename Fn>
void subdividePolygon(std::vector<Vec3> verts, float size, int depth, const Fn& piece) {
    if (verts.size() < 3) return;
    Vec3 mins = verts[0], maxs = verts[0];
    for (const Vec3& v : verts) mins = vmin(mins, v), maxs = vmax(maxs, v);
    for (int axis = 0; axis < 3 && depth < 64; ++axis) {
        const float lo = axis == 0 ? mins.x : axis == 1 ? mins.y : mins.z, hi = axis == 0 ? maxs.x : axis == 1 ? maxs.y : maxs.z;
        const float m = size * std::floor((lo + hi) * 0.5f / size + 0.5f);
        if (hi - m < 8 || m - lo < 8) continue;
        auto at = [axis](Vec3 v) { return axis == 0 ? v.x : axis == 1 ? v.y : v.z; };
        std::vector<Vec3> front, back;
        const size_t n = verts.size();
        for (size_t j = 0; j < n; ++j) {
            const Vec3 v = verts[j], w = verts[(j + 1) % n];
            const float d = at(v) - m, dn = at(w) - m;
            if (d >= 0) front.push_back(v);
            if (d <= 0) back.push_back(v);
            if (d == 0 || dn == 0) continue;
            if ((d > 0) != (dn > 0)) {
                const Vec3 clip = v + (w - v) * (d / (d - dn));
                front.push_back(clip);
                back.push_back(clip);
            }
        }
        subdividePolygon(std::move(front), size, depth + 1, piece);
        subdividePolygon(std::move(back), size, depth + 1, piece);
        return;
    }
    piece(verts);
}

// mangle (yaw, pitch) of a unit direction, the inverse of fromMangle.
std::string mangleOf(Vec3 d) {
    constexpr float kDegrees = 180.0f / kPi;
    const float yaw = std::atan2(d.y, d.x) * kDegrees, pitch = std::asin(std::clamp(d.z, -1.0f, 1.0f)) * kDegrees;
    return fmt::format("{} {} 0", yaw, pitch);
}

}  // namespace

std::vector<Entity> surfaceTemplateLights(const World& world, std::vector<std::string>& notes) {
    std::vector<const Entity*> templates;
    for (const Entity& e : world.entities) {
        const std::string* cls = ericwValue(e, {"classname"});
        const std::string* surface = ericwValue(e, {"surface"});
        if (!cls || cls->rfind("light", 0) != 0 || !surface || surface->empty()) continue;
        if (const std::string* r = ericwValue(e, {"surface_radiosity"}); r && integer(r) != 0) continue;
        templates.push_back(&e);
    }
    std::vector<Entity> out;
    if (templates.empty()) return out;
    std::vector<size_t> made(templates.size(), 0);
    const std::vector<int32_t> modelOf = surfaceModels(world);
    for (size_t s = 0; s < world.surfaces.size(); ++s) {
        const Surface& surface = world.surfaces[s];
        if (surface.kind != SurfaceKind::Polygon || surface.material < 0 || size_t(surface.material) >= world.materials.size()) continue;
        const std::string& texture = world.materials[size_t(surface.material)].name;
        for (size_t t = 0; t < templates.size(); ++t) {
            const Entity& tpl = *templates[t];
            if (!iequals(*ericwValue(tpl, {"surface"}), texture)) continue;
            const std::string* offsetKey = ericwValue(tpl, {"surface_offset"});
            const float offset = offsetKey && number(offsetKey) != 0 ? number(offsetKey) : 2.0f;
            const bool spot = integer(ericwValue(tpl, {"surface_spotlight"})) != 0;
            const Vec3 shift = world.models[size_t(modelOf[s])].origin;
            std::vector<Vec3> verts;
            for (uint32_t k = 0; k < surface.numVertices; ++k) verts.push_back(world.vertices[surface.firstVertex + k].position);
            subdividePolygon(std::move(verts), kSubdivide, 0, [&](const std::vector<Vec3>& piece) {
                // qv::PolyCentroid: the fan triangles' centroids weighted by their areas.
                Vec3 c;
                float area = 0;
                for (size_t k = 2; k < piece.size(); ++k) {
                    const float a = 0.5f * length(cross(piece[k - 1] - piece[0], piece[k] - piece[0]));
                    c += (piece[0] + piece[k - 1] + piece[k]) * (a / 3.0f);
                    area += a;
                }
                c = c / area;
                if (!isFinite(c)) return;  // a degenerate piece (area 0), as light's NaN centroid
                const Vec3 origin = c + surface.normal * offset + shift;
                Entity e;
                for (const auto& [k, v] : tpl.keys) {
                    const std::string bare = !k.empty() && k[0] == '_' ? k.substr(1) : k;
                    if (iequals(bare, "surface") || iequals(bare, "origin") || (spot && iequals(bare, "mangle"))) continue;
                    e.keys.emplace_back(k, v);
                }
                e.keys.emplace_back("origin", fmt::format("{} {} {}", origin.x, origin.y, origin.z));
                if (spot) e.keys.emplace_back("mangle", mangleOf(surface.normal));
                out.push_back(std::move(e));
                ++made[t];
            });
        }
    }
    for (size_t t = 0; t < templates.size(); ++t)
        notes.push_back(made[t] ? fmt::format("_surface \"{}\": {} lights on its faces", *ericwValue(*templates[t], {"surface"}), made[t])
                                : fmt::format("_surface \"{}\": no face has that texture", *ericwValue(*templates[t], {"surface"})));
    return out;
}

}  // namespace luxel
