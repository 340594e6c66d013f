// Surface lights (q3map2 light.cpp CreateSurfaceLights, light_bounce.cpp RadLightForTriangles,
// RadLightForPatch, RadSubdivideDiffuseLight, RadClipWindingEpsilon) and their -fast envelopes
// (light_ydnar.cpp SetupEnvelopes).
#include <algorithm>
#include <cmath>

#include "light_parts.hpp"
#include "luxel/light/light_arrival.hpp"

namespace luxel::q3light {

namespace {

constexpr float kClipEpsilon = 0.125f;  // RADIOSITY_CLIP_EPSILON
constexpr size_t kMaxWindingPoints = 64;

struct Winding {
    std::vector<Vec3> points, normals;
};

// RadClipWindingEpsilon by the axial plane x_axis = dist: points within epsilon go to both sides; split points
// interpolate position and normal (normal renormalised).
void clipWinding(const Winding& in, int axis, float dist, Winding& front, Winding& back) {
    const size_t n = in.points.size();
    std::vector<float> dists(n + 1);
    std::vector<int> sides(n + 1);  // 0 front, 1 back, 2 on
    int counts[3] = {0, 0, 0};
    for (size_t i = 0; i < n; ++i) {
        dists[i] = in.points[i][axis] - dist;
        sides[i] = dists[i] > kClipEpsilon ? 0 : dists[i] < -kClipEpsilon ? 1 : 2;
        ++counts[sides[i]];
    }
    dists[n] = dists[0];
    sides[n] = sides[0];
    front = {};
    back = {};
    if (counts[0] == 0) {
        back = in;
        return;
    }
    if (counts[1] == 0) {
        front = in;
        return;
    }
    for (size_t i = 0; i < n; ++i) {
        const Vec3 p = in.points[i], pn = in.normals[i];
        if (sides[i] == 2) {
            front.points.push_back(p), front.normals.push_back(pn);
            back.points.push_back(p), back.normals.push_back(pn);
            continue;
        }
        (sides[i] == 0 ? front : back).points.push_back(p);
        (sides[i] == 0 ? front : back).normals.push_back(pn);
        if (sides[i + 1] == 2 || sides[i + 1] == sides[i]) continue;
        const size_t j = (i + 1) % n;
        const float t = dists[i] / (dists[i] - dists[i + 1]);
        const Vec3 mid = p + (in.points[j] - p) * t;
        Vec3 midNormal = normalize(pn + (in.normals[j] - pn) * t);
        front.points.push_back(mid), front.normals.push_back(midNormal);
        back.points.push_back(mid), back.normals.push_back(midNormal);
    }
}

struct Emitter {
    const Q3LightShader& shader;
    const Quake3LightSettings& settings;
    float subdivide;
    Quake3LightSet& set;
    Notes& notes;
    size_t budget;     // windings left to look at (hostile subdivision bound)
    std::string name;  // the material, for Light::source
};

// SetupEnvelopes for an area light with -fast: from 100 units in front, in steps of 10, the first distance
// along the normal where |form factor| * add falls to the tolerance; 8 * MAX_WORLD_COORD when none does.
float areaEnvelope(const Light& l, float add, float tolerance) {
    for (float radius = 100; radius < kFarEnvelope; radius += 10) {
        const float factor = std::fabs(polygonFormFactor(l.origin + l.normal * radius, -l.normal, l.polygon));
        if (factor * add <= tolerance) return radius;
    }
    return kFarEnvelope;
}

void finishArea(Light& l, float add, const Emitter& e) {
    const bool fast = e.settings.fast && !e.shader.noFast;
    l.intensity = add * kValueToLuxel;
    l.envelope = fast ? areaEnvelope(l, add, e.settings.falloffTolerance) : kFarEnvelope;
    l.cutoff = fast ? e.settings.falloffTolerance * kValueToLuxel : 0.0f;
    l.style = uint8_t(std::clamp(e.shader.lightStyle, 0, 254));
}

// RadSubdivideDiffuseLight for the first pass (surface lights).
void subdivide(const Winding& w, Emitter& e) {
    if (w.points.size() < 3) return;
    if (e.budget == 0) {
        e.notes.add("surface light subdivision past its bound: the rest of those surfaces left out");
        return;
    }
    --e.budget;
    Bounds b;
    for (const Vec3& p : w.points) b.grow(p);
    for (int i = 0; i < 3; ++i) {
        if (b.maxs[i] - b.mins[i] > e.subdivide) {
            if (w.points.size() + 4 > kMaxWindingPoints) break;  // q3map2 would stop with an error
            Winding front, back;
            clipWinding(w, i, (b.maxs[i] + b.mins[i]) * 0.5f, front, back);
            subdivide(front, e);
            subdivide(back, e);
            return;
        }
    }
    float area = 0;
    for (size_t i = 2; i < w.points.size(); ++i)
        area += 0.5f * length(cross(w.points[i - 1] - w.points[0], w.points[i] - w.points[0]));
    if (!(area >= 1.0f) || area > 20000000.0f) return;
    Vec3 normal;
    for (const Vec3& n : w.normals) normal += n;
    normal = normal / float(w.normals.size());
    if (length(normal) == 0 || !isFinite(normal)) return;
    normal = normalize(normal);
    if (e.set.lights.size() + 2 > e.settings.maxLights) {
        e.notes.add("more than " + std::to_string(e.settings.maxLights) + " lights: the rest left out");
        e.budget = 0;
        return;
    }

    const Q3LightShader& sh = e.shader;
    const Quake3LightSettings& s = e.settings;
    Light l;
    l.kind = Light::Kind::Area;
    l.polygon = w.points;
    l.area = area;
    l.color = sh.color;
    l.normal = normal;
    l.origin = b.center() + normal;  // "nudge it off the plane a bit"
    l.twoSided = sh.fog || sh.twoSided;
    l.source = "surface light " + e.name;
    const float value = sh.surfaceLight;
    const float add = value * s.formFactorValueScale * s.areaScale;  // photons = value * area * areaScale
    finishArea(l, add, e);
    e.set.lights.push_back(l);
    ++e.set.areaLights;

    // The backsplash: a dimmer copy facing back, backsplashDistance in front (not for sky shaders).
    if (sh.backsplashFraction > 0 && !sh.sky) {
        Light splash;
        splash.kind = Light::Kind::Area;
        splash.area = area;
        splash.color = sh.color;
        for (size_t i = w.points.size(); i-- > 0;) splash.polygon.push_back(w.points[i] + normal * sh.backsplashDistance);
        splash.origin = l.origin + normal * sh.backsplashDistance;
        splash.normal = -normal;
        splash.source = "surface light backsplash " + e.name;
        finishArea(splash, add * 7.0f * sh.backsplashFraction, e);
        e.set.lights.push_back(std::move(splash));
        ++e.set.backsplashLights;
    }
}

}  // namespace

void addSurfaceLights(const World& world, const std::vector<Q3LightShader>& shaders, const Quake3LightSettings& s,
                      Quake3LightSet& set, Notes& notes) {
    // SetEntityOrigins: brush models of entities with an origin key are lit where the entity puts them.
    std::vector<Vec3> modelOffset(world.models.size());
    for (const Entity& ent : world.entities) {
        const std::string* model = keyValue(ent, "model");
        if (!model || model->size() < 2 || (*model)[0] != '*' || !keyValue(ent, "origin")) continue;
        const long m = std::strtol(model->c_str() + 1, nullptr, 10);
        if (m >= 0 && size_t(m) < modelOffset.size()) modelOffset[size_t(m)] = vectorKey(ent, "origin");
    }
    std::vector<Vec3> surfaceOffset(world.surfaces.size());
    for (size_t m = 0; m < world.models.size(); ++m)
        for (uint32_t k = 0; k < world.models[m].numSurfaces; ++k)
            if (size_t i = size_t(world.models[m].firstSurface) + k; i < surfaceOffset.size())
                surfaceOffset[i] = isFinite(modelOffset[m]) ? modelOffset[m] : Vec3{};

    std::vector<int> iterations;  // computed when the first lit patch needs them
    size_t budget = s.maxPieces;
    for (size_t i = 0; i < world.surfaces.size(); ++i) {
        const Surface& surf = world.surfaces[i];
        if (surf.material < 0 || size_t(surf.material) >= std::min(shaders.size(), world.materials.size())) continue;
        const Q3LightShader& sh = shaders[size_t(surf.material)];
        if (!(sh.surfaceLight > 0) || !std::isfinite(sh.surfaceLight)) continue;  // "try to early out"
        if (surf.firstVertex + uint64_t(surf.numVertices) > world.vertices.size()) continue;
        const Vec3 offset = surfaceOffset[i];
        auto position = [&](uint32_t v) { return world.vertices[surf.firstVertex + v].position + offset; };
        auto normalOf = [&](uint32_t v) { return world.vertices[surf.firstVertex + v].normal; };

        if (sh.autosprite) {  // "autosprite shaders become point lights" at the centre of the surface's bounds
            if (surf.numVertices == 0) continue;
            Bounds b;
            for (uint32_t v = 0; v < surf.numVertices; ++v) b.grow(position(v));
            Light l;
            l.kind = Light::Kind::Point;
            l.origin = b.center();
            l.color = sh.color;
            l.minDistance = 16;
            const float photons = sh.surfaceLight * s.pointScale;
            l.intensity = photons * kValueToLuxel;
            const bool fast = !sh.noFast;  // point lights always carry LIGHT_FAST
            l.envelope = fast ? std::sqrt(photons / s.falloffTolerance) : kFarEnvelope;
            l.cutoff = fast ? s.falloffTolerance * kValueToLuxel : 0.0f;
            l.style = uint8_t(std::clamp(sh.lightStyle, 0, 254));
            l.source = "autosprite surface light " + world.materials[size_t(surf.material)].name;
            set.lights.push_back(std::move(l));
            ++set.pointLights;
            continue;
        }

        Emitter e{sh, s, float(sh.lightSubdivide > 0 ? sh.lightSubdivide : s.defaultLightSubdivide), set, notes, budget,
                  world.materials[size_t(surf.material)].name};
        if (surf.kind == SurfaceKind::Polygon || surf.kind == SurfaceKind::Mesh) {
            // RadLightForTriangles: every triangle of the index list on its own.
            if (surf.firstIndex + uint64_t(surf.numIndices) > world.indices.size()) continue;
            for (uint32_t t = 0; t + 2 < surf.numIndices; t += 3) {
                Winding w;
                for (uint32_t k = 0; k < 3; ++k) {
                    const uint32_t v = world.indices[surf.firstIndex + t + k];
                    if (v >= surf.numVertices) break;
                    w.points.push_back(position(v));
                    w.normals.push_back(normalOf(v));
                }
                if (w.points.size() == 3) subdivide(w, e);
            }
        } else if (surf.kind == SurfaceKind::Patch) {
            if (iterations.empty()) iterations = patchIterations(world, s.patchSubdivisions, notes);
            const int w = surf.patchWidth, h = surf.patchHeight;
            if (w < 3 || h < 3 || uint64_t(w) * uint64_t(h) != surf.numVertices) continue;
            std::vector<Vec3> points, normals;
            for (uint32_t v = 0; v < surf.numVertices; ++v) points.push_back(position(v)), normals.push_back(normalOf(v));
            for (const Piece& p : patchPieces(points, normals, w, h, iterations[i])) subdivide({p.points, p.normals}, e);
        }
        budget = e.budget;
    }
}

}  // namespace luxel::q3light
