// A face's single emitter point and area, as ericw-tools places them (see face_emitter.hpp).
#include "luxel/light/face_emitter.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace luxel {

FaceEmitter faceEmitter(const World& world, const Surface& surface) {
    FaceEmitter e;
    e.normal = surface.normal;
    if (surface.kind != SurfaceKind::Polygon || surface.numVertices < 3 ||
        size_t(surface.firstVertex) + surface.numVertices > world.vertices.size())
        return e;
    std::vector<Vec3> p;
    for (uint32_t i = 0; i < surface.numVertices; ++i) p.push_back(world.vertices[surface.firstVertex + i].position);
    // A vertex whose two edges run on in one straight line adds nothing to the shape (winding_t::remove_colinear).
    std::vector<Vec3> kept;
    const size_t n = p.size();
    for (size_t i = 0; i < n; ++i) {
        const Vec3 a = p[(i + n - 1) % n], b = p[i], c = p[(i + 1) % n];
        const Vec3 u = b - a, v = c - b;
        const float lu = length(u), lv = length(v);
        if (lu > 0 && lv > 0 && dot(u / lu, v / lv) > 0.999f) continue;  // ON_EPSILON-sized bend: colinear
        kept.push_back(b);
    }
    if (kept.size() < 3) kept = p;
    Vec3 sum;
    for (const Vec3& q : kept) sum += q;
    e.point = sum / float(kept.size()) + e.normal;
    double area = 0;
    for (size_t i = 1; i + 1 < kept.size(); ++i) area += 0.5 * double(length(cross(kept[i] - kept[0], kept[i + 1] - kept[0])));
    e.area = float(area);
    return e;
}

Light emitterLight(Vec3 point, Vec3 normal, Vec3 c, float area, const EmitterRules& rules) {
    Light l;
    l.kind = Light::Kind::Area;
    l.origin = point;
    l.normal = normal;
    const float top = std::max({c.x, c.y, c.z});
    if (!(top > 0)) return l;
    const Vec3 colour = top > 1 ? c / top : c;
    const float brightest = std::max({colour.x, colour.y, colour.z});
    l.color = colour / brightest;
    l.intensity = brightest * top * area * rules.scale / 255.0f;
    l.minDistance = rules.minDistance;
    l.twoSided = rules.omnidirectional;
    l.emitterAngleMix = rules.omnidirectional ? 0.0f : (rules.rescale ? 0.5f : 1.0f);
    l.angleMix = rules.rescale ? 0.5f : 1.0f;
    l.cosineCulled = !rules.omnidirectional;
    l.cutoff = 0.01f / 255;
    // Past this distance even a receiver facing it square gets at most the cutoff.
    l.envelope = std::sqrt(l.intensity / l.cutoff);
    l.occlusionScale = rules.occlusionScale, l.occlusionGain = rules.occlusionGain;
    return l;
}

}  // namespace luxel
