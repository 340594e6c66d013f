// Quake 2 surface lights as ericw-tools makes them (see q2_surface_lights.hpp).
#include "luxel/light/q2_surface_lights.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "luxel/bsp/q2_surface_flags.hpp"
#include "luxel/light/face_emitter.hpp"

namespace luxel {

namespace {

using namespace q2flags;

// The part of convex polygon `p` where dot(n, x) <= d (n an axis) ... clipped by one plane.
std::vector<Vec3> clipBelow(const std::vector<Vec3>& p, int axis, float at, bool keepBelow) {
    std::vector<Vec3> out;
    for (size_t i = 0; i < p.size(); ++i) {
        const Vec3 a = p[i], b = p[(i + 1) % p.size()];
        const float da = (keepBelow ? 1.0f : -1.0f) * (a[axis] - at), db = (keepBelow ? 1.0f : -1.0f) * (b[axis] - at);
        if (da <= 0) out.push_back(a);
        if ((da < 0 && db > 0) || (da > 0 && db < 0)) out.push_back(a + (b - a) * (da / (da - db)));
    }
    return out;
}

// polylib dice: cut the polygon by the axis planes at multiples of `size` that cross it, recursively; each
// final piece's vertex mean.
void dice(const std::vector<Vec3>& p, float size, std::vector<Vec3>& centres) {
    if (p.size() < 3) return;
    Vec3 lo = p[0], hi = p[0];
    for (const Vec3& q : p)
        lo = vmin(lo, q), hi = vmax(hi, q);
    for (int axis = 0; axis < 3; ++axis) {
        // The first multiple of size strictly inside the bounds shrunk by 1 (as polylib's dice).
        const float cut = size * std::floor((lo[axis] + 1) / size + 1);
        if (cut < hi[axis] - 1) {
            dice(clipBelow(p, axis, cut, true), size, centres);
            dice(clipBelow(p, axis, cut, false), size, centres);
            return;
        }
    }
    Vec3 sum;
    for (const Vec3& q : p) sum += q;
    centres.push_back(sum / float(p.size()));
}

}  // namespace

std::vector<Light> quake2SurfaceLights(const World& world, const MaterialSet* materials, const EricwWorld& settings,
                                       const Q2SurfaceLightOptions& options, std::vector<Vec3>& selfMinimum,
                                       std::vector<std::string>* problems) {
    std::vector<Light> out;
    selfMinimum.assign(world.surfaces.size(), Vec3{});
    size_t missing = 0, negative = 0, coarser = 0;
    for (size_t i = 0; i < world.surfaces.size(); ++i) {
        const Surface& s = world.surfaces[i];
        const int32_t m = s.material;
        if (m < 0 || size_t(m) >= world.materials.size()) continue;
        const Material& mat = world.materials[size_t(m)];
        if (!(mat.nativeSurfaceFlags & kSurfLight) || mat.nativeValue == 0) continue;
        if (mat.nativeValue < 0) {  // every contribution would be <= 0: ericw-tools' gate drops them all
            ++negative;
            continue;
        }
        const std::optional<Vec3> texture = materials ? meanTextureColour(*materials, m) : std::nullopt;
        if (!texture) {
            ++missing;
            continue;
        }
        const FaceEmitter e = faceEmitter(world, s);
        if (e.area < 1) continue;
        const float value = float(mat.nativeValue);
        const Vec3 c = *texture / 255.0f * value;
        if (!(std::max({c.x, c.y, c.z}) > 0)) continue;
        selfMinimum[i] = *texture * (value / 255.0f / 255.0f);

        std::vector<Vec3> points;
        if (options.subdivide > 0) {
            std::vector<Vec3> polygon;
            for (uint32_t k = 0; k < s.numVertices; ++k) polygon.push_back(world.vertices[s.firstVertex + k].position);
            // Bounded work: the grid cells the face's box spans decide the pieces; too many, a coarser grid.
            Vec3 lo = polygon[0], hi = polygon[0];
            for (const Vec3& q : polygon)
                lo = vmin(lo, q), hi = vmax(hi, q);
            float size = options.subdivide;
            auto cells = [&](float sz) {
                double n = 1;
                for (int a = 0; a < 3; ++a) n *= std::max(1.0, std::ceil(double(hi[a] - lo[a]) / double(sz)) + 1);
                return n;
            };
            if (cells(size) > double(options.maxPiecesPerFace)) {
                while (cells(size) > double(options.maxPiecesPerFace)) size *= 2;
                ++coarser;
            }
            std::vector<Vec3> centres;
            dice(polygon, size, centres);
            for (const Vec3& q : centres) points.push_back(q + e.normal);
        } else {
            points.push_back(e.point);
        }
        if (points.empty()) continue;
        const bool sky = (mat.nativeSurfaceFlags & kSurfSky) != 0;
        const bool rescale = !sky && !(size_t(m) < options.noRescale.size() && options.noRescale[size_t(m)]);
        // 1 / max(atten d, 16)^2 = (1 / atten^2) / max(d, 16 / atten)^2.
        const float atten = std::max(settings.surflightAtten, 1e-3f);
        EmitterRules rules;
        rules.scale = (sky ? settings.surflightSkyScale * 0.5f : settings.surflightScale) / (atten * atten);
        rules.minDistance = 16 / atten;
        rules.rescale = rescale, rules.omnidirectional = sky;
        if (settings.occlusionInUse) rules.occlusionScale = settings.dirtScale, rules.occlusionGain = settings.dirtGain;
        const float share = e.area / float(points.size());  // each point takes total / pieces
        for (size_t k = 0; k < points.size(); ++k) {
            Light l = emitterLight(points[k], e.normal, c, share, rules);
            l.source = fmt::format("surface light of face {} ({} value {})", i, mat.name, mat.nativeValue);
            out.push_back(std::move(l));
        }
    }
    if (problems) {
        if (missing)
            problems->push_back(fmt::format("{} SURF_LIGHT faces emit nothing: their textures were not found (give --game-dir; "
                                            "ericw-tools too counts a missing texture as black)", missing));
        if (negative) problems->push_back(fmt::format("{} SURF_LIGHT faces with a negative value emit nothing", negative));
        if (coarser)
            problems->push_back(fmt::format("{} SURF_LIGHT faces would dice into over {} pieces: diced coarser", coarser,
                                            options.maxPiecesPerFace));
    }
    return out;
}

}  // namespace luxel
