// ericw-tools' per-face facts: shadow casters and phong normals (see ericw_surfaces.hpp).
#include "ericw_surfaces.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <map>
#include <optional>

#include "luxel/bsp/entities.hpp"
#include "luxel/light/texinfo_json.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/math.hpp"

namespace luxel {

namespace {

float polygonArea(const World& w, const Surface& s) {
    Vec3 sum;
    const Vec3 a = w.vertices[s.firstVertex].position;
    for (uint32_t k = 1; k + 1 < s.numVertices; ++k)
        sum += cross(w.vertices[s.firstVertex + k].position - a, w.vertices[s.firstVertex + k + 1].position - a);
    return 0.5f * length(sum);
}

Vec3 centroid(const World& w, const Surface& s) {
    Vec3 c;
    for (uint32_t k = 0; k < s.numVertices; ++k) c += w.vertices[s.firstVertex + k].position;
    return s.numVertices ? c / float(s.numVertices) : c;
}

// AngleBetweenPoints: the angle at p2 between p1 - p2 and p3 - p2, in radians.
float cornerAngle(Vec3 p1, Vec3 p2, Vec3 p3) {
    const Vec3 a = p1 - p2, b = p3 - p2;
    const float la = length(a), lb = length(b);
    if (!(la > 0) || !(lb > 0)) return 0;
    return std::acos(std::clamp(dot(a, b) / (la * lb), -1.0f, 1.0f));
}

// CalculateVertexNormals: a face smooths with the faces sharing a vertex that want phong too, whose normal is
// within the smaller of the two faces' angles (the concave angle when the other's centroid lies in front);
// each vertex normal sums the smoothed faces' normals at that vertex weighted by area x corner angle.
// Fills out.phongNormals and out.phongSmoothed.
void phongSurfaces(const World& w, const std::vector<float>& angle, const std::vector<float>& concave, bool quake2,
                   EricwSurfaces& surfaces) {
    const size_t n = w.surfaces.size();
    std::vector<std::vector<Vec3>>& out = surfaces.phongNormals;
    out.assign(n, {});
    surfaces.phongSmoothed.assign(n, {});
    surfaces.curved.assign(n, false);
    for (size_t s = 0; s < n; ++s) surfaces.curved[s] = angle[s] > 0;
    auto key = [](Vec3 p) {
        std::array<uint32_t, 3> k;
        std::memcpy(k.data(), &p, sizeof(k));
        return k;
    };
    std::map<std::array<uint32_t, 3>, std::vector<uint32_t>> byVertex;
    for (uint32_t s = 0; s < n; ++s) {
        const Surface& su = w.surfaces[s];
        if (su.kind != SurfaceKind::Polygon || angle[s] <= 0) continue;
        for (uint32_t k = 0; k < su.numVertices; ++k) byVertex[key(w.vertices[su.firstVertex + k].position)].push_back(s);
    }
    auto special = [&](uint32_t s) {
        const int32_t m = w.surfaces[s].material;
        if (m < 0 || size_t(m) >= w.materials.size()) return 0u;
        // surfflags_may_phong: Quake 1 TEX_SPECIAL must match; Quake 2 its sky / warp / trans / flowing / nodraw bits.
        return w.materials[size_t(m)].nativeSurfaceFlags & (quake2 ? 0xfcu : 1u);
    };
    for (uint32_t f = 0; f < n; ++f) {
        const Surface& sf = w.surfaces[f];
        if (sf.kind != SurfaceKind::Polygon || angle[f] <= 0 || sf.numVertices < 3) continue;
        const Vec3 fn = sf.normal, fp = w.vertices[sf.firstVertex].position;
        std::vector<uint32_t> smooth{f};
        for (uint32_t k = 0; k < sf.numVertices; ++k)
            for (uint32_t g : byVertex[key(w.vertices[sf.firstVertex + k].position)]) {
                if (g == f || std::find(smooth.begin(), smooth.end(), g) != smooth.end() || special(g) != special(f)) continue;
                const bool isConcave = dot(fn, centroid(w, w.surfaces[g]) - fp) > 0.1f;
                const float fa = isConcave && concave[f] > 0 ? concave[f] : angle[f];
                const float ga = isConcave && concave[g] > 0 ? concave[g] : angle[g];
                if (dot(fn, w.surfaces[g].normal) >= std::cos(degToRad(std::min(fa, ga)))) smooth.push_back(g);
            }
        surfaces.phongSmoothed[f].assign(smooth.begin() + 1, smooth.end());
        std::map<std::array<uint32_t, 3>, Vec3> sums;
        for (uint32_t g : smooth) {
            const Surface& sg = w.surfaces[g];
            const float area = polygonArea(w, sg);
            for (uint32_t k = 0; k < sg.numVertices; ++k) {
                const Vec3 prev = w.vertices[sg.firstVertex + (k + sg.numVertices - 1) % sg.numVertices].position;
                const Vec3 curr = w.vertices[sg.firstVertex + k].position;
                const Vec3 next = w.vertices[sg.firstVertex + (k + 1) % sg.numVertices].position;
                float weight = area * cornerAngle(prev, curr, next);
                if (!std::isfinite(weight)) weight = 0;
                sums[key(curr)] += sg.normal * weight;
            }
        }
        std::vector<Vec3>& normals = out[f];
        normals.resize(sf.numVertices);
        bool curved = false;
        for (uint32_t k = 0; k < sf.numVertices; ++k) {
            const Vec3 s = sums[key(w.vertices[sf.firstVertex + k].position)];
            normals[k] = length(s) > 0 ? normalize(s) : fn;
            curved = curved || !(normals[k] == fn);
        }
        if (!curved) normals.clear();
    }
}

}  // namespace

EricwSurfaces ericwSurfaces(const World& world, const MapSource& source, std::vector<std::string>& notes) {
    EricwSurfaces out;
    const size_t n = world.surfaces.size();
    out.castsNoShadow.assign(n, false);
    const TexinfoJson json = readTexinfoJson(source, world.materials.size());
    std::vector<ExtendedTexinfo> texinfo(world.materials.size());
    size_t noShadow = 0, phong = 0;
    for (const auto& [t, e] : json.texinfos) texinfo[t] = e, noShadow += e.noShadow, phong += e.phongAngle > 0;
    if (!json.name.empty())
        notes.push_back(fmt::format("{} read: {} texinfos cast no shadow, {} are phong-smoothed", json.name, noShadow, phong));
    std::vector<float> angle(n, 0), concave(n, 0);
    out.minlight.assign(n, -1.0f);
    out.minlightColor.assign(n, Vec3{255, 255, 255});
    for (size_t i = 0; i < n; ++i) {
        const int32_t m = world.surfaces[i].material;
        if (m < 0 || size_t(m) >= texinfo.size()) continue;
        out.castsNoShadow[i] = texinfo[size_t(m)].noShadow;
        out.minlight[i] = texinfo[size_t(m)].minlight;
        if (texinfo[size_t(m)].minlightColor) out.minlightColor[i] = *texinfo[size_t(m)].minlightColor;
        angle[i] = texinfo[size_t(m)].phongAngle;
        concave[i] = texinfo[size_t(m)].phongAngleConcave;
    }
    // Brush entities: no shadow unless "_shadow" "1"; "_phong" "1" smooths at "_phong_angle" (default 89).
    for (size_t m = 1; m < world.models.size(); ++m) {
        // The entity that uses the model (placeBrushModels found it).
        const int32_t index = world.models[m].entity;
        const Entity* e = index >= 0 && size_t(index) < world.entities.size() ? &world.entities[size_t(index)] : nullptr;
        const std::string* shadow = e ? e->get("_shadow") : nullptr;
        const bool casts = shadow && std::atoi(shadow->c_str()) == 1;
        const std::string* phong = e ? e->get("_phong") : nullptr;
        const std::string* phongAngle = e ? e->get("_phong_angle") : nullptr;
        float a = 0;
        if (phongAngle) a = std::clamp(float(std::atof(phongAngle->c_str())), 0.0f, 180.0f);
        else if (phong && std::atoi(phong->c_str()) == 1) a = 89;
        if (!std::isfinite(a)) a = 0;
        // The entity's own _minlight / _minlight_color (_mincolor) win over the texinfo's.
        const std::string* minlight = e ? e->get("_minlight") : nullptr;
        const std::string* minColor = e ? (e->get("_minlight_color") ? e->get("_minlight_color") : e->get("_mincolor")) : nullptr;
        Vec3 color;
        const bool hasColor = minColor && parseVec3(*minColor, color) && isFinite(color);
        if (hasColor && color.x <= 1 && color.y <= 1 && color.z <= 1) color = color * 255.0f;
        const Model& model = world.models[m];
        for (uint32_t s = model.firstSurface; s < model.firstSurface + model.numSurfaces && s < n; ++s) {
            if (!casts && e) out.castsNoShadow[s] = true;
            if (a > 0) angle[s] = a;
            if (minlight && std::isfinite(std::atof(minlight->c_str()))) out.minlight[s] = std::clamp(float(std::atof(minlight->c_str())), 0.0f, 1e6f);
            if (hasColor) out.minlightColor[s] = color;
        }
    }
    phongSurfaces(world, angle, concave, world.format == MapFormat::Quake2, out);
    return out;
}

}  // namespace luxel
