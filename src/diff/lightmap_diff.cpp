// Lightmaps compared in world space. Every luxel centre a surface's triangles cover in its page (found by
// rasterising the triangles in lightmap texel space) is a world point with a plane; a short Embree ray
// along the plane's normal finds the other build's surface through that point, whose lightmap is sampled
// there (bilinear, linear light). Atlas packing, page numbers, face order and face splitting do not enter.
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <numbers>
#include <optional>
#include <string>

#include "luxel/bake/ray_scene.hpp"
#include "luxel/diff/diff.hpp"
#include "luxel/render/look.hpp"
#include "luxel/util/clock.hpp"
#include "diff_math.hpp"
#include "luxel/light/luxels.hpp"

namespace luxel {
namespace {

const LightmapPage* slotPage(const World& w, int slot, int32_t page) {
    const std::vector<LightmapPage>& pages = slot == 0 ? w.lightmaps : w.extraLightmapSlots[size_t(slot - 1)];
    if (page < 0 || size_t(page) >= pages.size()) return nullptr;
    const LightmapPage& p = pages[size_t(page)];
    if (p.width <= 0 || p.height <= 0 || p.rgb.size() != size_t(p.width) * size_t(p.height) * 3) return nullptr;
    return &p;
}

Vec3 texel(const LightmapPage& p, int x, int y) {
    x = std::clamp(x, 0, p.width - 1);
    y = std::clamp(y, 0, p.height - 1);
    const float* v = p.rgb.data() + (size_t(y) * size_t(p.width) + size_t(x)) * 3;
    return {v[0], v[1], v[2]};
}

// Bilinear at page coordinates normalised to [0,1] (texel centres at (i + 0.5) / size), clamped at the page edge.
Vec3 bilinear(const LightmapPage& p, Vec2 uv) {
    const float fx = uv.x * float(p.width) - 0.5f, fy = uv.y * float(p.height) - 0.5f;
    // Within a hundredth of a texel of a centre (the same atlas in both builds, up to float rounding of the
    // hit's barycentrics or the inset point) the texel itself, so identical builds compare exactly.
    const float rx = std::round(fx), ry = std::round(fy);
    if (std::fabs(fx - rx) < 1e-2f && std::fabs(fy - ry) < 1e-2f) return texel(p, int(rx), int(ry));
    const float x0 = std::floor(fx), y0 = std::floor(fy);
    const float tx = fx - x0, ty = fy - y0;
    const int ix = int(x0), iy = int(y0);
    const Vec3 a = texel(p, ix, iy), b = texel(p, ix + 1, iy), c = texel(p, ix, iy + 1), d = texel(p, ix + 1, iy + 1);
    return (a * (1 - tx) + b * tx) * (1 - ty) + (c * (1 - tx) + d * tx) * ty;
}

// The other build's surface and lightmap coordinates at a luxel: a ray from just in front of the luxel's
// plane back through it, accepting only a lit surface facing the same way.
struct Landing {
    bool hit = false;
    uint32_t surface = 0;
    Vec2 uv;
    float planeDistance = 0;
};

Landing landAt(const RayScene& scene, const World& w, const Geometry& g, const Luxel& l, Vec3 point,
               const std::string& material, const LightmapDiffOptions& o, const RayHit* traced = nullptr) {
    Landing out;
    const Vec3 origin = point + l.normal * o.planeTolerance;
    const Vec3 dir = l.normal * -1.0f;
    // Of every lit surface facing the same way within the tolerance, prefer one of the same material (a
    // decal or another coplanar face is not the luxel's own surface), then the nearest to the luxel's plane,
    // then the same surface number (identical builds), then the lowest triangle.
    int bestRank = 0;
    // The closest hit settles it when it is the luxel's own surface number, material and plane (the usual
    // case: a build compared with itself or with a recompile that kept the face order); otherwise every hit.
    const RayHit first = traced ? *traced : scene.closest(origin, dir, 0.0f, 2.0f * o.planeTolerance);
    if (first.hit && first.triangle < scene.triangleSurface().size() && scene.triangleSurface()[first.triangle] == l.surface &&
        g.surfaces[l.surface].shading == SurfaceShading::Lightmap && l.surface < w.surfaces.size()) {
        const int32_t m = w.surfaces[l.surface].material;
        const size_t i = size_t(first.triangle) * 3;
        const DrawVertex &a = g.vertices[g.indices[i]], &b = g.vertices[g.indices[i + 1]],
                         &c = g.vertices[g.indices[i + 2]];
        if (m >= 0 && size_t(m) < w.materials.size() && w.materials[size_t(m)].name == material &&
            std::fabs(first.t - o.planeTolerance) < 1e-3f && dot(triangleNormal(a, b, c), l.normal) >= o.normalTolerance) {
            out.hit = true;
            out.surface = l.surface;
            out.planeDistance = std::fabs(first.t - o.planeTolerance);
            const float w0 = 1.0f - first.u - first.v;
            out.uv = {a.lightmapUV.x * w0 + b.lightmapUV.x * first.u + c.lightmapUV.x * first.v,
                      a.lightmapUV.y * w0 + b.lightmapUV.y * first.u + c.lightmapUV.y * first.v};
            return out;
        }
    }
    for (const RayHit& hit : scene.allHits(origin, dir, 0.0f, 2.0f * o.planeTolerance)) {
        const uint32_t s = hit.triangle < scene.triangleSurface().size() ? scene.triangleSurface()[hit.triangle]
                                                                           : RayScene::kNoSurface;
        if (s == RayScene::kNoSurface || g.surfaces[s].shading != SurfaceShading::Lightmap) continue;
        const size_t i = size_t(hit.triangle) * 3;
        const DrawVertex &a = g.vertices[g.indices[i]], &b = g.vertices[g.indices[i + 1]],
                         &c = g.vertices[g.indices[i + 2]];
        if (dot(triangleNormal(a, b, c), l.normal) < o.normalTolerance) continue;
        const int32_t m = w.surfaces[s].material;
        const bool sameMaterial = m >= 0 && size_t(m) < w.materials.size() && w.materials[size_t(m)].name == material;
        const int rank = (sameMaterial ? 4 : 0) + (s == l.surface ? 1 : 0) + 8;
        const float planeDistance = std::fabs(hit.t - o.planeTolerance);
        const bool better = !out.hit || rank > bestRank ||
                            (rank == bestRank && planeDistance < out.planeDistance);
        if (!better) continue;
        bestRank = rank;
        out.hit = true;
        out.surface = s;
        out.planeDistance = planeDistance;
        const float w0 = 1.0f - hit.u - hit.v;
        out.uv = {a.lightmapUV.x * w0 + b.lightmapUV.x * hit.u + c.lightmapUV.x * hit.v,
                  a.lightmapUV.y * w0 + b.lightmapUV.y * hit.u + c.lightmapUV.y * hit.v};
    }
    return out;
}

Landing land(const RayScene& scene, const World& w, const Geometry& g, const Luxel& l, const std::string& material,
             const LightmapDiffOptions& o, const RayHit* traced = nullptr) {
    const Landing exact = landAt(scene, w, g, l, l.position, material, o, traced);
    return exact.hit ? exact : landAt(scene, w, g, l, l.inset, material, o);
}

// land() for luxels [begin, end) (all of one surface's material `material`), the closest hits traced as
// packets of 16.
void landRange(const RayScene& scene, const World& w, const Geometry& g, const Luxel* luxels, size_t count,
               const std::string& material, const LightmapDiffOptions& o, Landing* out) {
    for (size_t k = 0; k < count; k += 16) {
        const int n = int(std::min<size_t>(16, count - k));
        Vec3 origins[16], dirs[16];
        RayHit hits[16];
        for (int i = 0; i < n; ++i) {
            const Luxel& l = luxels[k + size_t(i)];
            origins[i] = l.position + l.normal * o.planeTolerance;
            dirs[i] = l.normal * -1.0f;
        }
        scene.closest(origins, dirs, n, 0.0f, 2.0f * o.planeTolerance, hits);
        for (int i = 0; i < n; ++i) out[k + size_t(i)] = land(scene, w, g, luxels[k + size_t(i)], material, o, &hits[i]);
    }
}

std::string materialOf(const World& w, uint32_t s) {
    const int32_t m = w.surfaces[s].material;
    return m >= 0 && size_t(m) < w.materials.size() ? w.materials[size_t(m)].name : std::string();
}

// The luxels that the matching finds again in their own build: on their own surface, at their own texel.
// A centre the tessellation maps onto a degenerate triangle (a collapsed patch row, a UV sliver) lands
// elsewhere even against itself; it cannot be matched in any build and is left out (counted).
// [begin, end) of each surface's luxels (luxel lists are in surface order).
std::vector<std::pair<size_t, size_t>> surfaceRuns(const std::vector<Luxel>& luxels) {
    std::vector<std::pair<size_t, size_t>> runs;
    for (size_t i = 0; i < luxels.size();) {
        size_t j = i;
        while (j < luxels.size() && luxels[j].surface == luxels[i].surface) ++j;
        runs.emplace_back(i, j);
        i = j;
    }
    return runs;
}

// Lands every luxel of `luxels` on `scene`, surface by surface in parallel.
std::vector<Landing> landAll(const std::vector<Luxel>& luxels, const World& from, const RayScene& scene, const World& w,
                             const Geometry& g, const LightmapDiffOptions& o) {
    const auto runs = surfaceRuns(luxels);
    std::vector<Landing> out(luxels.size());
    tbb::parallel_for(tbb::blocked_range<size_t>(0, runs.size(), 1), [&](const tbb::blocked_range<size_t>& r) {
        for (size_t run = r.begin(); run != r.end(); ++run) {
            const auto [begin, end] = runs[run];
            landRange(scene, w, g, luxels.data() + begin, end - begin, materialOf(from, luxels[begin].surface), o,
                      out.data() + begin);
        }
    });
    return out;
}

// Which luxels the matching finds again in their own build (`self`: each luxel landed on its own build):
// on their own surface, at their own texel. A centre the tessellation maps onto a degenerate triangle (a
// collapsed patch row, a UV sliver) lands elsewhere even against itself; it cannot be matched in any build
// and is left out (counted). The found ones get the coordinates where the ray found them, so they are
// sampled exactly as the other build is: identical builds agree to the bit.
std::vector<uint8_t> foundAgain(std::vector<Luxel>& luxels, const std::vector<Landing>& self, const World& w) {
    std::vector<uint8_t> found(luxels.size(), 0);
    for (size_t i = 0; i < luxels.size(); ++i) {
        Luxel& l = luxels[i];
        if (!self[i].hit || self[i].surface != l.surface) continue;
        const LightmapPage* page = slotPage(w, 0, l.page);
        if (!(std::fabs(self[i].uv.x - l.uv.x) * float(page->width) < 1e-2f &&
              std::fabs(self[i].uv.y - l.uv.y) * float(page->height) < 1e-2f))
            continue;
        l.uv = self[i].uv;
        found[i] = 1;
    }
    return found;
}

std::vector<uint8_t> locate(std::vector<Luxel>& luxels, const RayScene& scene, const World& w, const Geometry& g,
                            const LightmapDiffOptions& o) {
    return foundAgain(luxels, landAll(luxels, w, scene, w, g, o), w);
}

// Whether two builds have the same lit geometry as the matching sees it: triangles, positions, normals,
// lightmap coordinates, surfaces, their materials' names and page sizes. Then every ray meets the same
// triangles in both, and a luxel lands on the other build exactly where it lands on its own.
bool sameLitGeometry(const World& a, const Geometry& ga, const World& b, const Geometry& gb) {
    if (ga.indices != gb.indices || ga.vertices.size() != gb.vertices.size() || ga.surfaces.size() != gb.surfaces.size() ||
        a.surfaces.size() != b.surfaces.size() || a.surfaces.size() < ga.surfaces.size())
        return false;
    for (size_t i = 0; i < ga.vertices.size(); ++i) {
        const DrawVertex &u = ga.vertices[i], &v = gb.vertices[i];
        if (!(u.position == v.position) || !(u.normal == v.normal)) return false;
    }
    for (size_t s = 0; s < ga.surfaces.size(); ++s) {
        const DrawSurface &u = ga.surfaces[s], &v = gb.surfaces[s];
        if (u.firstIndex != v.firstIndex || u.numIndices != v.numIndices || u.firstVertex != v.firstVertex ||
            u.numVertices != v.numVertices || u.lightmapPage != v.lightmapPage || u.shading != v.shading ||
            materialOf(a, uint32_t(s)) != materialOf(b, uint32_t(s)))
            return false;
        if (u.shading != SurfaceShading::Lightmap) continue;  // (a compiler leaves others' coordinates as garbage)
        for (uint32_t k = 0; k < u.numIndices && size_t(u.firstIndex) + k < ga.indices.size(); ++k) {
            const uint32_t i = ga.indices[size_t(u.firstIndex) + k];
            if (i < ga.vertices.size() &&
                std::memcmp(&ga.vertices[i].lightmapUV, &gb.vertices[i].lightmapUV, sizeof(Vec2)) != 0)
                return false;
        }
        const LightmapPage *pa = slotPage(a, 0, u.lightmapPage), *pb = slotPage(b, 0, v.lightmapPage);
        if (!pa != !pb || (pa && (pa->width != pb->width || pa->height != pb->height))) return false;
    }
    return true;
}

// The items whose `found` flag is set, in order.
template <class T>
std::vector<T> keepFound(std::vector<T> items, const std::vector<uint8_t>& found) {
    size_t n = 0;
    for (size_t i = 0; i < items.size(); ++i)
        if (found[i]) items[n++] = std::move(items[i]);
    items.resize(n);
    return items;
}

const LightmapPage* directionPage(const World& w, int32_t page) {
    if (page < 0 || size_t(page) >= w.deluxemaps.size()) return nullptr;
    const LightmapPage& p = w.deluxemaps[size_t(page)];
    if (p.width <= 0 || p.height <= 0 || p.rgb.size() != size_t(p.width) * size_t(p.height) * 3) return nullptr;
    return &p;
}

// The direction figures over the luxels bright enough in both builds (see DirectionDiff).
DirectionDiff directionDiff(const std::vector<float>& angle, const std::vector<float>& dimmer,
                            const std::vector<Luxel>& luxels, const World& a) {
    double sum = 0;
    size_t n = 0;
    for (const Luxel& l : luxels)
        if (const LightmapPage* p = slotPage(a, 0, l.page)) sum += double(luminance(bilinear(*p, l.uv))), ++n;
    const float minLum = n ? float(0.01 * sum / double(n)) : 0.0f;
    std::vector<double> measured;
    for (size_t i = 0; i < angle.size(); ++i)
        if (angle[i] >= 0 && dimmer[i] >= minLum && minLum > 0) measured.push_back(angle[i]);
    DirectionDiff d;
    d.count = measured.size();
    if (measured.empty()) return d;
    double total = 0;
    for (double v : measured) {
        total += v;
        d.maxDeg = std::max(d.maxDeg, v);
        d.over10Deg += v > 10.0 ? 1 : 0;
    }
    d.meanDeg = total / double(measured.size());
    d.medianDeg = diffmath::median(std::move(measured));
    return d;
}

Vec3 display(Vec3 linear, const EngineLook& look) { return toDisplay(clampEngineLight(linear, look), look); }

struct SurfaceAcc {
    size_t luxels = 0, unmatched = 0;
    Vec3 mins{1e30f, 1e30f, 1e30f}, maxs{-1e30f, -1e30f, -1e30f};
    double sx = 0, sy = 0, sz = 0;
    std::map<int, DiffAccumulator> byStyle;
};

SurfaceDiff surfaceDiff(const World& w, uint32_t s, const SurfaceAcc& acc, double area) {
    SurfaceDiff d;
    d.surface = s;
    const int32_t m = w.surfaces[s].material;
    if (m >= 0 && size_t(m) < w.materials.size()) d.material = w.materials[size_t(m)].name;
    d.mins = acc.mins;
    d.maxs = acc.maxs;
    const double n = double(std::max<size_t>(acc.luxels, 1));
    d.centroid = {float(acc.sx / n), float(acc.sy / n), float(acc.sz / n)};
    d.area = area;
    d.luxels = acc.luxels;
    d.unmatched = acc.unmatched;
    return d;
}

void grow(SurfaceAcc& acc, Vec3 p) {
    acc.mins = vmin(acc.mins, p);
    acc.maxs = vmax(acc.maxs, p);
    acc.sx += p.x, acc.sy += p.y, acc.sz += p.z;
}

}  // namespace

LightmapDiff diffLightmaps(const World& a, const Geometry& ga, const World& b, const Geometry& gb,
                           const LightmapDiffOptions& o, std::vector<LuxelMatch>* matchesOut) {
    const double t0 = nowMs();
    LightmapDiff diff;
    std::vector<double> areaA, areaB;
    // With the same lit geometry in both builds (a light changed, a recompile) every landing on B is the
    // landing on A itself: one scene and one ray pass serve both directions, with the same results.
    const bool same = o.reuseSameGeometry && sameLitGeometry(a, ga, b, gb);
    diff.sameGeometry = same;
    // The scenes and the luxel centres of both builds at once (each is parallel inside, but not throughout).
    std::optional<RayScene> ownSceneA, ownSceneB;
    std::vector<Luxel> allA, centresB;
    tbb::parallel_invoke([&] { ownSceneA.emplace(a, ga); }, [&] { if (!same) ownSceneB.emplace(b, gb); },
                         [&] { allA = luxelCentres(a, ga, &areaA); },
                         [&] { if (!same) centresB = luxelCentres(b, gb, &areaB); });
    const RayScene& sceneA = *ownSceneA;
    const RayScene& sceneB = same ? sceneA : *ownSceneB;

    std::vector<Landing> selfA = landAll(allA, a, sceneA, a, ga, o);
    std::vector<Luxel> luxA = allA;
    const std::vector<uint8_t> foundA = foundAgain(luxA, selfA, a);
    luxA = keepFound(std::move(luxA), foundA);
    diff.unlocatedA = allA.size() - luxA.size();
    // A -> B landings (for the same geometry: A's own, which found every kept luxel).
    std::vector<Landing> landingsA = same ? keepFound(selfA, foundA) : landAll(luxA, a, sceneB, b, gb, o);

    // B's luxels are only located on A (what only B lights); the self-check that leaves out unlocatable
    // luxels runs on the ones A does not match (a luxel A matches is located anyway).
    std::vector<Luxel> luxB;
    std::vector<Landing> landingsB;
    if (same) {
        luxB = std::move(allA);  // luxelCentres depends on the geometry and page sizes only
        landingsB = std::move(selfA);
        areaB = areaA;
    } else {
        luxB = std::move(centresB);
        landingsB = landAll(luxB, b, sceneA, a, ga, o);
    }
    {
        std::vector<Luxel> unmatched;
        std::vector<size_t> where;
        for (size_t i = 0; i < luxB.size(); ++i)
            if (!landingsB[i].hit) unmatched.push_back(luxB[i]), where.push_back(i);
        const std::vector<uint8_t> foundUnmatched = locate(unmatched, sceneB, b, gb, o);
        std::vector<uint8_t> found(luxB.size(), 1);
        for (size_t j = 0; j < unmatched.size(); ++j) found[where[j]] = foundUnmatched[j];
        const size_t before = luxB.size();
        luxB = keepFound(std::move(luxB), found);
        landingsB = keepFound(std::move(landingsB), found);
        diff.unlocatedB = before - luxB.size();
    }
    diff.luxelsA = luxA.size();
    diff.luxelsB = luxB.size();

    auto accumulatorFor = [&](std::map<int, DiffAccumulator>& byStyle, int style) -> DiffAccumulator& {
        auto [it, inserted] = byStyle.try_emplace(style);
        if (inserted) it->second.thresholds = o.thresholds;
        return it->second;
    };
    // A -> B, surface by surface in parallel (luxA is in surface order): every luxel of A with B's light
    // there, per style slot of A's surface, summed into its surface's accumulators.
    const std::vector<std::pair<size_t, size_t>> runs = surfaceRuns(luxA);
    std::vector<SurfaceAcc> runAcc(runs.size());
    std::vector<size_t> runMatched(runs.size(), 0);
    std::vector<LuxelMatch> matches(matchesOut ? luxA.size() : 0);
    // Deluxe maps: the angle between the two builds' directions per matched luxel (negative: not measured)
    // and the dimmer of the two style-0 luminances there.
    const bool deluxe = !a.deluxemaps.empty() && !b.deluxemaps.empty();
    std::vector<float> angle(deluxe ? luxA.size() : 0, -1.0f), dimmer(deluxe ? luxA.size() : 0, 0.0f);
    tbb::parallel_for(tbb::blocked_range<size_t>(0, runs.size(), 1), [&](const tbb::blocked_range<size_t>& r) {
        for (size_t run = r.begin(); run != r.end(); ++run) {
            SurfaceAcc& acc = runAcc[run];
            for (size_t i = runs[run].first; i != runs[run].second; ++i) {
                const Luxel& l = luxA[i];
                LuxelMatch m;
                m.surface = l.surface;
                m.page = l.page;
                m.x = l.x;
                m.y = l.y;
                m.position = l.position;
                m.normal = l.normal;
                const Surface& sa = a.surfaces[l.surface];
                for (int k = 0; k < 4; ++k)
                    if (sa.styles[size_t(k)] != 255)
                        if (const LightmapPage* p = slotPage(a, k, l.page)) m.a[size_t(k)] = bilinear(*p, l.uv);
                const Landing& at = landingsA[i];
                ++acc.luxels;
                grow(acc, l.position);
                if (at.hit) {
                    m.matched = true;
                    ++runMatched[run];
                    const Surface& sb = b.surfaces[at.surface];
                    const int32_t pageB = gb.surfaces[at.surface].lightmapPage;
                    for (int k = 0; k < 4; ++k) {
                        const int style = sa.styles[size_t(k)];
                        if (style == 255) continue;
                        for (int j = 0; j < 4; ++j)  // the slot of B's surface holding the same style (none: dark)
                            if (sb.styles[size_t(j)] == style)
                                if (const LightmapPage* p = slotPage(b, j, pageB)) m.b[size_t(k)] = bilinear(*p, at.uv);
                        accumulatorFor(acc.byStyle, style)
                            .add(m.a[size_t(k)], m.b[size_t(k)], display(m.a[size_t(k)], a.look),
                                 display(m.b[size_t(k)], b.look));
                    }
                    if (deluxe && sa.styles[0] == 0 && sb.styles[0] == 0)
                        if (const LightmapPage *da = directionPage(a, l.page), *db = directionPage(b, pageB); da && db) {
                            // The stored vectors need not be unit length (bytes, bilinear blends); near zero: not measured.
                            angle[i] = float(diffmath::angleDeg(bilinear(*da, l.uv), bilinear(*db, at.uv), 1e-8));
                            dimmer[i] = std::min(luminance(m.a[0]), luminance(m.b[0]));
                        }
                } else {
                    ++acc.unmatched;
                }
                if (matchesOut) matches[i] = m;
            }
        }
    });
    if (deluxe) diff.deluxe = directionDiff(angle, dimmer, luxA, a);
    // B -> A: only whether each luxel of B lies on a lit surface of A (what only B lights).

    // Totals in surface order (deterministic for any thread count).
    std::map<uint32_t, SurfaceAcc> surfacesA, surfacesB;
    std::map<int, DiffAccumulator> styles;
    for (size_t run = 0; run < runs.size(); ++run) {
        diff.matchedA += runMatched[run];
        for (const auto& [style, acc] : runAcc[run].byStyle) accumulatorFor(styles, style).merge(acc);
        surfacesA[luxA[runs[run].first].surface] = std::move(runAcc[run]);
    }
    for (const auto& [begin, end] : surfaceRuns(luxB)) {
        SurfaceAcc& acc = surfacesB[luxB[begin].surface];
        for (size_t i = begin; i < end; ++i) {
            ++acc.luxels;
            grow(acc, luxB[i].position);
            if (landingsB[i].hit)
                ++diff.matchedB;
            else
                ++acc.unmatched;
        }
    }
    // Styles only B uses still get a (matched-luxel-free) entry, so the report names them.
    for (const Surface& s : b.surfaces)
        for (uint8_t st : s.styles)
            if (st != 255) accumulatorFor(styles, st);

    for (auto& [style, acc] : styles) {
        StyleDiff sd;
        sd.style = style;
        sd.stats = acc.finish();
        sd.verdict = verdictOf(sd.stats, o.thresholds);
        for (const auto& [s, sacc] : surfacesA) {
            auto it = sacc.byStyle.find(style);
            if (it == sacc.byStyle.end() || it->second.stats.overWarn == 0) continue;
            SurfaceDiff d = surfaceDiff(a, s, sacc, areaA[s]);
            d.stats = it->second.finish();
            sd.changed.push_back(std::move(d));
        }
        std::stable_sort(sd.changed.begin(), sd.changed.end(), [](const SurfaceDiff& x, const SurfaceDiff& y) {
            if (x.stats.maxAbsDisplay != y.stats.maxAbsDisplay) return x.stats.maxAbsDisplay > y.stats.maxAbsDisplay;
            return x.stats.rmsDisplay > y.stats.rmsDisplay;
        });
        diff.styles.push_back(std::move(sd));
    }
    for (const auto& [s, acc] : surfacesA)
        if (acc.unmatched * 2 > acc.luxels) diff.onlyInA.push_back(surfaceDiff(a, s, acc, areaA[s]));
    for (const auto& [s, acc] : surfacesB)
        if (acc.unmatched * 2 > acc.luxels) diff.onlyInB.push_back(surfaceDiff(b, s, acc, areaB[s]));
    if (matchesOut) *matchesOut = std::move(matches);
    diff.ms = nowMs() - t0;
    return diff;
}

}  // namespace luxel
