// Rebaking light probes with Embree rays. See rebake.hpp for the model; the choices made here:
// * Directions: one per equal-area band in z (stratified), golden-ratio azimuths, jittered and rotated
//   per point from a hash of (seed, point index), so results never depend on which thread baked a point.
// * A ray that hits the back of a one-sided surface has left the playable space (or started inside a
//   brush): it returns nothing, like a ray into the void.
// * Quake 3's ambient/directed split: the gathered light defines the irradiance E(n) a surface with normal n
//   would get. The direction is the luminance-weighted mean of the ray directions (the light's main
//   direction); then ambient = E(-dir) and directed = E(dir) - E(-dir), per channel. The engine's model
//   ambient + directed * max(0, n . dir) then reproduces the gathered irradiance exactly for surfaces
//   facing the light and facing away, and everywhere for a uniform surround plus one distant light.
#include "luxel/bake/rebake.hpp"
#include "luxel/bake/grid_points.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <optional>
#include <sstream>

#include "luxel/bake/hit_light.hpp"
#include "luxel/util/random.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"
#include "luxel/vis/visibility.hpp"

namespace luxel {

namespace {

constexpr std::array<Vec3, 6> kAxes{Vec3{1, 0, 0}, Vec3{-1, 0, 0}, Vec3{0, 1, 0},
                                    Vec3{0, -1, 0}, Vec3{0, 0, 1}, Vec3{0, 0, -1}};

// Cosine-weighted mean of the gathered light over the hemisphere around n.
Vec3 irradiance(const std::vector<Vec3>& dirs, const std::vector<Vec3>& light, Vec3 n) {
    Vec3 sum;
    float weight = 0;
    for (size_t i = 0; i < dirs.size(); ++i) {
        const float c = dot(dirs[i], n);
        if (c <= 0) continue;
        sum += light[i] * c;
        weight += c;
    }
    return weight > 0 ? sum / weight : Vec3{};
}

GridSample gridFromGather(const std::vector<Vec3>& dirs, const std::vector<Vec3>& light) {
    Vec3 mean;
    for (size_t i = 0; i < dirs.size(); ++i) mean += dirs[i] * luminance(light[i]);
    GridSample s;
    // No preferred direction (a uniform surround): straight up, as q3map2 stores it.
    s.direction = length(mean) > 1e-12f ? normalize(mean) : Vec3{0, 0, 1};
    const Vec3 toward = irradiance(dirs, light, s.direction), away = irradiance(dirs, light, -s.direction);
    s.ambient = away;
    s.directed = {std::max(0.0f, toward.x - away.x), std::max(0.0f, toward.y - away.y),
                  std::max(0.0f, toward.z - away.z)};
    return s;
}

// vrad's LightForString, in linear units (its 0..255 scale / 255): "r g b [brightness]" with gamma 2.2
// colour bytes times brightness / 255, or two such 4-tuples (the second for HDR compiles). nullopt for a
// missing or malformed value and for the "-1 -1 -1 [1]" that marks an HDR value as not set.
std::optional<Vec3> lightForString(const std::string* text, bool hdr) {
    if (!text) return std::nullopt;
    std::istringstream in(*text);
    std::vector<double> v;
    for (double x; v.size() < 8 && in >> x;) v.push_back(x);
    if ((v.size() == 3 || v.size() == 4) && v[0] == -1 && v[1] == -1 && v[2] == -1 && (v.size() == 3 || v[3] == 1))
        return std::nullopt;
    if (v.size() == 8 && hdr) v.erase(v.begin(), v.begin() + 4);
    if (v.size() < 3) return std::nullopt;
    const double brightness = v.size() >= 4 ? v[3] : 255.0;
    auto lin = [&](double c) { return float(std::pow(std::clamp(c, 0.0, 255.0) / 255.0, 2.2) * brightness / 255.0); };
    const Vec3 light{lin(v[0]), lin(v[1]), lin(v[2])};
    return isFinite(light) ? std::optional<Vec3>(light) : std::nullopt;
}

float floatOr(const Entity& e, const char* key, float fallback) {
    const std::string* s = e.get(key);
    return s ? leadingFloat(*s) : fallback;
}

}  // namespace

Vec3 defaultSkyLight(const World& world) {
    // vrad's ParseLightEnvironment: HDR compiles take _ambientHDR when it is set, else _ambient, else half
    // the sun (_lightHDR when set, else _light; HDR scales it by _lightscaleHDR); HDR then scales the
    // ambient by _AmbientScaleHDR.
    const bool hdr = world.hdrLighting;
    for (const Entity& e : world.entities) {
        const std::string* cls = e.get("classname");
        if (!cls || *cls != "light_environment") continue;
        std::optional<Vec3> ambient = hdr ? lightForString(e.get("_ambientHDR"), true) : std::nullopt;
        if (!ambient) ambient = lightForString(e.get("_ambient"), hdr);
        if (!ambient) {
            std::optional<Vec3> sun = hdr ? lightForString(e.get("_lightHDR"), true) : std::nullopt;
            if (!sun) sun = lightForString(e.get("_light"), hdr);
            if (sun && hdr) *sun = *sun * floatOr(e, "_lightscaleHDR", 1.0f);
            ambient = sun.value_or(Vec3{}) * 0.5f;
        }
        if (hdr) *ambient = *ambient * floatOr(e, "_AmbientScaleHDR", 1.0f);
        return isFinite(*ambient) ? *ambient : Vec3{};
    }
    return {};
}

std::vector<Vec3> probeDirections(int rays, uint64_t seed, uint64_t point) {
    std::vector<Vec3> dirs(size_t(std::max(rays, 0)));
    uint64_t state = seed * 0x9e3779b97f4a7c15ull ^ (point + 0x632be59bd9b4e019ull);
    splitmix64(state);
    const float turn = unitFloat(state);
    constexpr float kGolden = 0.6180339887498949f;
    for (size_t i = 0; i < dirs.size(); ++i) {
        const float z = 1.0f - 2.0f * (float(i) + unitFloat(state)) / float(dirs.size());
        const float phi = 2.0f * kPi * (float(i) * kGolden + turn - std::floor(float(i) * kGolden + turn));
        const float r = std::sqrt(std::max(0.0f, 1.0f - z * z));
        dirs[i] = {r * std::cos(phi), r * std::sin(phi), z};
    }
    return dirs;
}

RebakeResult rebakeProbes(const World& world, const Geometry& geometry, const RayScene& scene,
                          const RebakeOptions& options) {
    if (options.rays < 1 || options.rays > (1 << 20))
        throw UsageError("--rays must be between 1 and 1048576 (got " + std::to_string(options.rays) + ")");
    const auto start = std::chrono::steady_clock::now();
    RebakeResult result;
    result.values = storedProbes(world);
    const ProbeKind kind = result.values.kind;
    if (kind == ProbeKind::None) throw UsageError(world.file + " has no light grid or ambient cubes to rebake");
    const std::vector<Vec3> positions = probePositions(world);
    const size_t n = positions.size();
    result.status.assign(n, ProbeStatus::Baked);
    result.bakedAt = positions;
    result.sky = options.sky ? *options.sky : defaultSkyLight(world);
    const HitLight shader(world, geometry, scene, result.sky, options.materials, options.pages);
    // Rays run to the far side of the world's bounds and no further.
    Bounds bounds;
    for (const DrawVertex& v : geometry.vertices) bounds.grow(v.position);
    for (const Vec3& p : positions) bounds.grow(p);
    const float tFar = bounds.empty() ? 1.0f : 2.0f * length(bounds.size()) + 1.0f;

    std::atomic<uint64_t> rays{0}, hits{0}, skyHits{0}, backHits{0};
    tbb::parallel_for(tbb::blocked_range<size_t>(0, n, 16), [&](const tbb::blocked_range<size_t>& range) {
        std::vector<Vec3> light(size_t(options.rays));
        RayHit hit[16];
        uint64_t localRays = 0, localHits = 0, localSky = 0, localBack = 0;
        for (size_t i = range.begin(); i != range.end(); ++i) {
            Vec3 origin = positions[i];
            if (kind == ProbeKind::Grid && inSolid(world, origin)) {
                const std::optional<Vec3> free = nudgeOutOfSolid(world, origin, world.grid->cellSize);
                if (!free) {
                    result.status[i] = ProbeStatus::Solid;
                    continue;
                }
                origin = *free;
                result.status[i] = ProbeStatus::Nudged;
                result.bakedAt[i] = origin;
            }
            const std::vector<Vec3> dirs = probeDirections(options.rays, options.seed, i);
            for (size_t k = 0; k < dirs.size(); k += 16) {
                const int count = int(std::min<size_t>(16, dirs.size() - k));
                scene.intersect(origin, dirs.data() + k, count, 0.0f, tFar, hit);
                for (int j = 0; j < count; ++j) {
                    HitKind what;
                    light[k + size_t(j)] = shader.radiance(hit[j], dirs[k + size_t(j)], what);
                    localHits += what == HitKind::Surface;
                    localSky += what == HitKind::Sky;
                    localBack += what == HitKind::Back;
                }
            }
            localRays += dirs.size();
            if (kind == ProbeKind::Grid) {
                result.values.grid[i] = gridFromGather(dirs, light);
            } else {
                AmbientCube& cube = result.values.cubes[i];
                for (size_t side = 0; side < 6; ++side) cube[side] = irradiance(dirs, light, kAxes[side]);
            }
        }
        rays += localRays;
        hits += localHits;
        skyHits += localSky;
        backHits += localBack;
    });

    RebakeStats& st = result.stats;
    st.points = n;
    for (ProbeStatus s : result.status) {
        st.baked += s == ProbeStatus::Baked;
        st.nudged += s == ProbeStatus::Nudged;
        st.solid += s == ProbeStatus::Solid;
    }
    st.rays = rays;
    st.hits = hits;
    st.skyHits = skyHits;
    st.backHits = backHits;
    st.bakeMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return result;
}

}  // namespace luxel
