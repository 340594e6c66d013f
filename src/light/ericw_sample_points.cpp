// ericw-tools' sample points, step for step (see ericw_sample_points.hpp). Points are worked out where light
// works them out, in the face's model's own space, and placed where the brush entity is drawn at the end.
#include "ericw_sample_points.hpp"

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <unordered_map>

#include "luxel/bsp/brush_entities.hpp"
#include "luxel/light/ericw_luxel_frame.hpp"

namespace luxel {

namespace {

constexpr float kPointEqual = 0.05f;  // POINT_EQUAL_EPSILON
constexpr float kLift = 1.0f;         // sampleOffPlaneDist

using PointKey = std::array<uint32_t, 3>;
PointKey pointKey(Vec3 p) {
    PointKey k;
    std::memcpy(k.data(), &p, sizeof(k));
    return k;
}
struct EdgeKeyHash {
    size_t operator()(const std::pair<PointKey, PointKey>& k) const {
        uint64_t h = 0xcbf29ce484222325ull;
        for (uint32_t v : k.first) h = (h ^ v) * 0x100000001b3ull;
        for (uint32_t v : k.second) h = (h ^ v) * 0x100000001b3ull;
        return size_t(h);
    }
};

struct EdgePlane {
    Vec3 normal;
    float dist = 0;
};

// MakeInwardFacingEdgePlane: none for an edge shorter than POINT_EQUAL_EPSILON.
std::optional<EdgePlane> inwardEdgePlane(Vec3 v0, Vec3 v1, Vec3 faceNormal) {
    const float len = length(v1 - v0);
    if (len < kPointEqual) return std::nullopt;
    const Vec3 n = cross((v1 - v0) / len, faceNormal);
    return EdgePlane{n, dot(n, v0)};
}

// FaceNormal: the normal of the fan's largest triangle; zero under 0.0001 square units.
Vec3 faceNormal(const Vertex* p, uint32_t n) {
    float largest = -std::numeric_limits<float>::max();
    int best = -1;
    for (uint32_t i = 2; i < n; ++i) {
        const float area = 0.5f * length(cross(p[i].position - p[0].position, p[i - 1].position - p[0].position));
        if (area > largest) largest = area, best = int(i);
    }
    if (best < 0 || largest < 0.0001f) return {};
    return normalize(cross(p[best].position - p[0].position, p[best - 1].position - p[0].position));
}

float insideDistance(const std::vector<EdgePlane>& planes, Vec3 p) {
    float least = std::numeric_limits<float>::max();
    for (const EdgePlane& e : planes) least = std::min(least, dot(e.normal, p) - e.dist);
    return least;
}

Vec3 projectOntoPlane(const Plane& plane, Vec3 p) { return p + plane.normal * -(dot(plane.normal, p) - plane.dist); }

// ClosestPointOnLineSegment, as light: the end points past the ends, else the projection onto the line.
Vec3 closestOnSegment(Vec3 v, Vec3 w, Vec3 p) {
    const Vec3 vw = w - v;
    const float l2 = dot(vw, vw);
    const float t = l2 == 0 ? 0.0f : dot(p - v, vw) / l2;
    if (t >= 1) return w;
    if (t <= 0) return v;
    const Vec3 dir = normalize(vw);
    if (dir == Vec3{}) return p;
    return v + dir * dot(p - v, dir);
}

}  // namespace

struct EricwFaces {
    struct Face {
        std::vector<EdgePlane> edgePlanes;  // inward, about the polygon's own normal (light's face cache)
    };
    std::vector<Face> faces;
    std::unordered_map<std::pair<PointKey, PointKey>, std::vector<uint32_t>, EdgeKeyHash> edges;  // directed, model space
    const std::vector<std::vector<uint32_t>>* smoothed = nullptr;
    std::vector<int32_t> model;  // per surface
};

std::shared_ptr<const EricwFaces> ericwFaces(const World& w, const std::vector<std::vector<uint32_t>>* smoothed) {
    auto out = std::make_shared<EricwFaces>();
    out->smoothed = smoothed;
    out->model = surfaceModels(w);
    out->faces.resize(w.surfaces.size());
    for (uint32_t s = 0; s < w.surfaces.size(); ++s) {
        const Surface& su = w.surfaces[s];
        if (su.kind != SurfaceKind::Polygon || su.numVertices < 3 || size_t(su.firstVertex) + su.numVertices > w.vertices.size()) continue;
        const Vertex* p = w.vertices.data() + su.firstVertex;
        for (uint32_t k = 0; k < su.numVertices; ++k) {
            const Vec3 a = p[k].position, b = p[(k + 1) % su.numVertices].position;
            if (a == b) continue;
            std::vector<uint32_t>& faces = out->edges[{pointKey(a), pointKey(b)}];
            if (std::find(faces.begin(), faces.end(), s) == faces.end()) faces.push_back(s);
        }
        const Vec3 n = faceNormal(p, su.numVertices);
        if (n == Vec3{}) continue;
        for (uint32_t k = 0; k < su.numVertices; ++k)
            if (auto e = inwardEdgePlane(p[k].position, p[(k + 1) % su.numVertices].position, n)) out->faces[s].edgePlanes.push_back(*e);
    }
    return out;
}

namespace {

struct Sampled {
    uint32_t face = 0;
    Vec3 point;  // lifted off the face's plane, model space
};

struct Walk {
    const World& w;
    const EricwFaces& faces;
    const EricwLuxelFrame& first;  // the texel's own face's frame: light measures the snap in its luxels

    bool smoothedWith(uint32_t f, uint32_t other) const {
        if (!faces.smoothed || f >= faces.smoothed->size()) return false;
        const std::vector<uint32_t>& v = (*faces.smoothed)[f];
        return std::find(v.begin(), v.end(), other) != v.end();
    }

    // Face_EdgeIndexSmoothed: the first face across edge k (its reverse) on the same plane or smoothed with f.
    std::optional<uint32_t> across(uint32_t f, uint32_t k) const {
        const Surface& su = w.surfaces[f];
        const Vec3 a = w.vertices[su.firstVertex + k].position, b = w.vertices[su.firstVertex + (k + 1) % su.numVertices].position;
        const auto it = faces.edges.find({pointKey(b), pointKey(a)});
        if (it == faces.edges.end()) return std::nullopt;
        const Plane& plane = w.texinfoLuxels[f].plane;
        for (uint32_t other : it->second) {
            if (other == f || other >= w.texinfoLuxels.size()) continue;
            const Plane& o = w.texinfoLuxels[other].plane;
            const bool samePlane = o.normal == plane.normal && o.dist == plane.dist;
            if (samePlane || smoothedWith(f, other)) return other;
        }
        return std::nullopt;
    }

    // PositionSamplePointOnFace, but for its solid test (the baker's).
    std::optional<Sampled> onFace(uint32_t f, Vec3 point) const {
        if (insideDistance(faces.faces[f].edgePlanes, point) < -kPointEqual) return std::nullopt;  // "non-convex"
        return Sampled{f, point};
    }

    // CalcPointNormal.
    std::optional<Sampled> calc(uint32_t f, Vec3 origin, int depth) const {
        const Surface& su = w.surfaces[f];
        const std::vector<EdgePlane>& edgePlanes = faces.faces[f].edgePlanes;
        if (su.numVertices < 3 || edgePlanes.empty()) return std::nullopt;
        const Plane& plane = w.texinfoLuxels[f].plane;
        const Vec3 point = projectOntoPlane(plane, origin) + plane.normal * kLift;
        if (insideDistance(edgePlanes, point) >= -kPointEqual) return onFace(f, point);
        const Vertex* p = w.vertices.data() + su.firstVertex;
        int best = -1;
        float bestDist = std::numeric_limits<float>::max();
        for (uint32_t i = 0; i < su.numVertices; ++i) {
            const Vec3 v0 = p[i].position, v1 = p[(i + 1) % su.numVertices].position;
            const std::optional<EdgePlane> e = inwardEdgePlane(v0, v1, plane.normal);
            if (!e || !(dot(e->normal, point) - e->dist < kPointEqual)) continue;
            const Vec3 vw = v1 - v0;
            const float l2 = dot(vw, vw), len = length(vw);
            const float t = l2 == 0 ? 0.0f : dot(point - v0, vw) / l2;
            const float past = t < 0 ? std::fabs(t) * len : t > 1 ? t * len : 0.0f;
            if (past < bestDist) bestDist = past, best = int(i);
        }
        if (best >= 0 && depth < 3)
            if (const std::optional<uint32_t> next = across(f, uint32_t(best))) return calc(*next, point, depth + 1);
        // Snap to the boundary when within a luxel of the first face's block.
        Vec3 closest = p[0].position;
        float closestDist = std::numeric_limits<float>::max();
        for (uint32_t i = 0; i < su.numVertices; ++i) {
            const Vec3 c = closestOnSegment(p[i].position, p[(i + 1) % su.numVertices].position, point);
            const float d = length(c - point);
            if (d < closestDist) closestDist = d, closest = c;
        }
        const Vec2 a = ericwWorldToLuxel(first, point), b = ericwWorldToLuxel(first, closest);
        if (std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)) <= 1) return onFace(f, closest + plane.normal * kLift);
        return std::nullopt;
    }
};

}  // namespace

bool ericwSurfaceLuxels(const World& w, const EricwFaces& faces, uint32_t s, std::vector<Luxel>& out) {
    if (s >= w.texinfoLuxels.size() || s >= faces.faces.size() || s >= w.surfaces.size()) return false;
    const std::optional<EricwLuxelFrame> frame = ericwLuxelFrame(w.texinfoLuxels[s]);
    if (!frame) return false;
    const Surface& su = w.surfaces[s];
    const auto& rect = su.lightmapRect;
    if (su.lightmapPage < 0 || size_t(su.lightmapPage) >= w.lightmaps.size() || rect[2] <= 0 || rect[3] <= 0) return false;
    const LightmapPage& page = w.lightmaps[size_t(su.lightmapPage)];
    if (page.width <= 0 || page.height <= 0) return false;
    // Where the brush entity is drawn (Model::origin, axis); the world as stored.
    const int32_t m = s < faces.model.size() ? faces.model[s] : 0;
    const Model* model = m > 0 && size_t(m) < w.models.size() && w.models[size_t(m)].placed() ? &w.models[size_t(m)] : nullptr;
    auto place = [&](Vec3 p) { return model ? model->origin + model->axis[0] * p.x + model->axis[1] * p.y + model->axis[2] * p.z : p; };
    auto turn = [&](Vec3 n) { return model ? model->axis[0] * n.x + model->axis[1] * n.y + model->axis[2] * n.z : n; };
    const Walk walk{w, faces, *frame};
    for (int32_t t = 0; t < rect[3]; ++t)
        for (int32_t i = 0; i < rect[2]; ++i) {
            // CalcPoints: LMCoordToWorld(s, t) plus the plane's normal; CalcPointNormal projects it back.
            const Vec3 start = ericwLuxelOnPlane(*frame, float(i), float(t)) + frame->plane.normal;
            const std::optional<Sampled> sampled = walk.calc(s, start, 0);
            if (!sampled) continue;
            const Vec3 n = w.texinfoLuxels[sampled->face].plane.normal;
            Luxel l;
            l.surface = s;
            l.sampleSurface = sampled->face;
            l.page = su.lightmapPage;
            l.x = rect[0] + i, l.y = rect[1] + t;
            l.uv = {(float(l.x) + 0.5f) / float(page.width), (float(l.y) + 0.5f) / float(page.height)};
            l.position = l.inset = place(sampled->point - n * kLift);
            l.normal = turn(n);
            out.push_back(l);
        }
    return true;
}

}  // namespace luxel
