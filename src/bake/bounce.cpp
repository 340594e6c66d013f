// The bounce baker (see bounce.hpp). Choices made here:
// * Each luxel's rays start 0.25 units off its surface along the normal (as the direct baker's shadow rays do)
//   and are cosine-weighted, so the plain mean of what they bring back estimates the cosine-weighted mean over
//   the hemisphere: a luxel surrounded by surfaces that all show light L with albedo a gets a L, the radiosity
//   relation the compilers solve (a closed room of albedo a lit evenly converges to E / (1 - a)).
// * A ray's directions come from (seed, luxel index, bounce), never from the thread that traces it.
#include "luxel/bake/bounce.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <optional>
#include <span>

#include "luxel/bake/hit_light.hpp"
#include "luxel/bake/rebake.hpp"
#include "luxel/light/light_arrival.hpp"
#include "luxel/util/clock.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/random.hpp"

namespace luxel {

namespace {

constexpr float kRayBias = 0.25f;

// Rays run to the far side of the world's bounds and no further.
float farDistance(const Geometry& geometry) {
    Bounds bounds;
    for (const DrawVertex& v : geometry.vertices) bounds.grow(v.position);
    return bounds.empty() ? 1.0f : 2.0f * length(bounds.size()) + 1.0f;
}

std::vector<LightmapPage> blankLike(const std::vector<LightmapPage>& pages) {
    std::vector<LightmapPage> out(pages.size());
    for (size_t i = 0; i < pages.size(); ++i) {
        out[i].width = pages[i].width;
        out[i].height = pages[i].height;
        out[i].rgb.assign(pages[i].rgb.size(), 0.0f);
    }
    return out;
}

void addPages(std::vector<LightmapPage>& to, const std::vector<LightmapPage>& from) {
    for (size_t p = 0; p < to.size() && p < from.size(); ++p)
        for (size_t t = 0; t < to[p].rgb.size() && t < from[p].rgb.size(); ++t) to[p].rgb[t] += from[p].rgb[t];
}

// Where luxel x's texel starts in its page's rgb, or nullopt for a luxel off its page.
std::optional<size_t> texelOf(const std::vector<LightmapPage>& pages, const Luxel& x) {
    if (x.page < 0 || size_t(x.page) >= pages.size()) return std::nullopt;
    const LightmapPage& p = pages[size_t(x.page)];
    if (x.x < 0 || x.y < 0 || x.x >= p.width || x.y >= p.height) return std::nullopt;
    return (size_t(x.y) * size_t(p.width) + size_t(x.x)) * 3;
}

double meanLuminance(const std::vector<LightmapPage>& pages, const std::vector<Luxel>& luxels) {
    double sum = 0;
    for (const Luxel& x : luxels)
        if (const std::optional<size_t> t = texelOf(pages, x)) {
            const float* c = pages[size_t(x.page)].rgb.data() + *t;
            sum += luminance({c[0], c[1], c[2]});
        }
    return luxels.empty() ? 0.0 : sum / double(luxels.size());
}

// A convex polygon of a few points, on the stack (the gather cuts one per ray hit).
struct Piece {
    static constexpr size_t kMax = 24;
    std::array<Vec3, kMax> points;
    size_t count = 0;
    std::span<const Vec3> span() const { return {points.data(), count}; }
};

// The piece of a triangle holding `p` when the triangle is cut as q3map2's RadSubdivideDiffuseLight cuts a
// winding: while its bounds pass `size` along an axis (the first such of x, y, z), it is halved there.
Piece pieceAround(const Vec3 (&triangle)[3], Vec3 p, float size) {
    Piece poly;
    for (const Vec3& v : triangle) poly.points[poly.count++] = v;
    for (int guard = 0; guard < 64 && poly.count >= 3; ++guard) {
        Bounds b;
        for (size_t i = 0; i < poly.count; ++i) b.grow(poly.points[i]);
        int axis = -1;
        for (int i = 0; i < 3 && axis < 0; ++i)
            if (b.maxs[i] - b.mins[i] > size) axis = i;
        if (axis < 0) break;
        const float mid = (b.maxs[axis] + b.mins[axis]) * 0.5f, side = p[axis] >= mid ? 1.0f : -1.0f;
        Piece kept;
        for (size_t i = 0; i < poly.count && kept.count + 2 <= Piece::kMax; ++i) {
            const Vec3 a = poly.points[i], c = poly.points[(i + 1) % poly.count];
            const float da = (a[axis] - mid) * side, dc = (c[axis] - mid) * side;
            if (da >= 0) kept.points[kept.count++] = a;
            if ((da > 0 && dc < 0) || (da < 0 && dc > 0)) kept.points[kept.count++] = a + (c - a) * (da / (da - dc));
        }
        poly = kept;
    }
    return poly;
}

void checkOptions(const BounceOptions& o) {
    if (o.bounces < 0 || o.bounces > 1000)
        throw UsageError("--bounce must be between 0 and 1000 (got " + std::to_string(o.bounces) + ")");
    if (o.rays < 1 || o.rays > (1 << 16))
        throw UsageError("--bounce-rays must be between 1 and 65536 (got " + std::to_string(o.rays) + ")");
}

}  // namespace

CompilerBounce compilerBounce(const World& world) {
    switch (world.format) {
    case MapFormat::Quake3: return {0, 140.625f / 255.0f, false, "q3map2 (bounces only with -bounce N)", 1.0f / 140.625f, 256};
    case MapFormat::Source: return {100, 1.0f, true, "vrad (numbounce 100, until a bounce adds almost nothing)", 0, 0};
    case MapFormat::Quake2: return {8, 1.0f, false, "qrad3 (numbounce 8)", 0, 0};
    case MapFormat::Quake1:
    case MapFormat::HalfLife: return {0, 1.0f, false, "ericw-tools light (bounces only with -bounce)", 0, 0};
    }
    return {};
}

std::vector<Vec3> hemisphereDirections(int rays, uint64_t seed, uint64_t sample, Vec3 n) {
    std::vector<Vec3> dirs(size_t(std::max(rays, 0)));
    uint64_t state = seed * 0x9e3779b97f4a7c15ull ^ (sample + 0x632be59bd9b4e019ull);
    splitmix64(state);
    const float turn = unitFloat(state);
    // An orthonormal frame (t, b, n).
    const Vec3 up = std::abs(n.z) < 0.9f ? Vec3{0, 0, 1} : Vec3{1, 0, 0};
    const Vec3 t = normalize(cross(up, n)), b = cross(n, t);
    constexpr float kGolden = 0.6180339887498949f;
    for (size_t i = 0; i < dirs.size(); ++i) {
        // Malley's method: points uniform on the unit disc, lifted to the hemisphere, are cosine-distributed;
        // u = r^2 = sin^2(angle to n) stratified in equal bands.
        const float u = (float(i) + unitFloat(state)) / float(dirs.size());
        const float phi = 2.0f * kPi * (float(i) * kGolden + turn - std::floor(float(i) * kGolden + turn));
        const float r = std::sqrt(u), z = std::sqrt(std::max(0.0f, 1.0f - u));
        dirs[i] = t * (r * std::cos(phi)) + b * (r * std::sin(phi)) + n * z;
    }
    return dirs;
}

std::vector<LightmapPage> gatherBounce(const World& world, const Geometry& geometry, const RayScene& scene,
                                       const std::vector<Luxel>& luxels, const std::vector<LightmapPage>& from,
                                       const BounceOptions& options, uint64_t bounceIndex, uint64_t& rays) {
    checkOptions(options);
    HitLight shader(world, geometry, scene, Vec3{}, options.materials, &from);
    const float tFar = farDistance(geometry);
    std::vector<Vec3> light(luxels.size());
    std::atomic<uint64_t> traced{0};
    tbb::parallel_for(tbb::blocked_range<size_t>(0, luxels.size(), 64), [&](const tbb::blocked_range<size_t>& range) {
        RayHit hit[16];
        uint64_t mine = 0;
        for (size_t i = range.begin(); i != range.end(); ++i) {
            const Luxel& x = luxels[i];
            if (!(dot(x.normal, x.normal) > 0.5f)) continue;  // a degenerate triangle's luxel: no hemisphere
            const uint64_t sample = uint64_t(i) * 0x100000001b3ull + bounceIndex;
            const std::vector<Vec3> dirs = hemisphereDirections(options.rays, options.seed, sample, x.normal);
            const Vec3 origin = x.position + x.normal * kRayBias;
            Vec3 sum;
            for (size_t k = 0; k < dirs.size(); k += 16) {
                const int count = int(std::min<size_t>(16, dirs.size() - k));
                scene.intersect(origin, dirs.data() + k, count, 0.0f, tFar, hit);
                for (int j = 0; j < count; ++j) {
                    HitKind what;
                    const Vec3 l = shader.radiance(hit[j], dirs[k + size_t(j)], what);
                    if (what != HitKind::Surface || !(l.x > 0 || l.y > 0 || l.z > 0)) continue;
                    if (options.formFactorCutoff > 0) {
                        const uint32_t* idx = geometry.indices.data() + size_t(hit[j].triangle) * 3;
                        const Vec3 triangle[3] = {geometry.vertices[idx[0]].position, geometry.vertices[idx[1]].position,
                                                  geometry.vertices[idx[2]].position};
                        const Piece piece = pieceAround(triangle, origin + dirs[k + size_t(j)] * hit[j].t, options.pieceSize);
                        if (!(std::abs(polygonFormFactor(x.position, x.normal, piece.span())) > options.formFactorCutoff)) continue;
                    }
                    sum += l;
                }
            }
            mine += dirs.size();
            light[i] = sum * (options.scale / float(dirs.size()));
        }
        traced += mine;
    });
    rays += traced.load();
    std::vector<LightmapPage> out = blankLike(from);
    for (size_t i = 0; i < luxels.size(); ++i)
        if (const std::optional<size_t> t = texelOf(out, luxels[i])) {
            float* c = out[size_t(luxels[i].page)].rgb.data() + *t;
            c[0] = light[i].x, c[1] = light[i].y, c[2] = light[i].z;
        }
    return out;
}

BouncedLight bounceLightmaps(const World& world, const Geometry& geometry, const RayScene& scene,
                             const std::vector<LightmapPage>& direct, const BounceOptions& options) {
    checkOptions(options);
    BouncedLight out;
    out.total = direct;
    out.bounced = blankLike(direct);
    if (options.bounces == 0) return out;
    const double start = nowMs();
    const std::vector<Luxel> luxels = luxelCentres(world, geometry);
    out.stats.luxels = luxels.size();
    const double directMean = meanLuminance(direct, luxels);
    std::vector<LightmapPage> previous = direct;
    for (int k = 1; k <= options.bounces; ++k) {
        std::vector<LightmapPage> next = gatherBounce(world, geometry, scene, luxels, previous, options, uint64_t(k), out.stats.rays);
        const double mean = meanLuminance(next, luxels);
        out.stats.meanLuminance.push_back(mean);
        addPages(out.bounced, next);
        previous = std::move(next);
        if (!(mean >= options.stopBelow * directMean)) break;
    }
    addPages(out.total, out.bounced);
    out.stats.lightmapMs = nowMs() - start;
    return out;
}

ProbeValues bounceProbes(const World& world, const Geometry& geometry, const RayScene& scene, const ProbeValues& direct,
                         const BouncedLight& light, const BounceOptions& options, BounceStats& stats) {
    const double start = nowMs();
    RebakeOptions gather;
    gather.rays = options.probeRays;
    gather.seed = options.seed;
    gather.materials = options.materials;
    const ProbeKind kind = storedProbes(world).kind;
    ProbeValues out;
    if (kind == ProbeKind::Cubes) {
        gather.pages = &light.total;  // sky: the map's sky ambient, as vrad's cubes see it
        RebakeResult r = rebakeProbes(world, geometry, scene, gather);
        stats.probeRays += r.stats.rays;
        out = std::move(r.values);
    } else if (kind == ProbeKind::Grid && direct.kind == ProbeKind::Grid) {
        gather.pages = &light.bounced;
        gather.sky = Vec3{};
        const RebakeResult r = rebakeProbes(world, geometry, scene, gather);
        stats.probeRays += r.stats.rays;
        out = direct;
        for (size_t i = 0; i < out.grid.size() && i < r.values.grid.size(); ++i) {
            if (r.status[i] == ProbeStatus::Solid) continue;
            GridSample& s = out.grid[i];
            const GridSample& b = r.values.grid[i];
            const Vec3 ambient = b.ambient * options.scale, directed = b.directed * options.scale;
            const Vec3 dir = s.direction * luminance(s.directed) + b.direction * luminance(directed);
            if (length(dir) > 1e-12f) s.direction = normalize(dir);
            s.ambient += ambient;
            s.directed += directed;
        }
    } else {
        out = direct;
    }
    stats.probeMs += nowMs() - start;
    return out;
}

}  // namespace luxel
