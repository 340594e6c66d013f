// Cameras named by the map's own entities (spawn points, intermission) or framed on its bounds (overview).
#include <algorithm>
#include <bit>
#include <array>
#include <charconv>
#include <cmath>
#include <string_view>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "parts.hpp"
#include "luxel/render/camera.hpp"
#include "luxel/util/error.hpp"
#include "luxel/vis/visibility.hpp"

namespace luxel {

namespace camera {


constexpr std::string_view kValidSpecs = "spawn, spawn:N (N counted from 0), intermission, overview, best";

// "file.bsp: " for messages, or nothing for a World built in memory.
static std::string where(const World& world) { return world.file.empty() ? std::string() : world.file + ": "; }

Camera baseCamera(int width, int height, float fovX) {
    if (width <= 0 || height <= 0) throw UsageError(fmt::format("image size must be positive, got {}x{}", width, height));
    if (!(fovX >= kMinFov && fovX <= kMaxFov))
        throw UsageError(fmt::format("field of view must be {} to {} degrees, got {}", kMinFov, kMaxFov, fovX));
    Camera c;
    c.width = width;
    c.height = height;
    c.fovX = fovX;
    return c;
}

Spec parseSpec(const std::string& spec) {
    if (spec == "spawn") return {Spec::Kind::Spawn, 0};
    if (spec.rfind("spawn:", 0) == 0) {
        const std::string_view digits = std::string_view(spec).substr(6);
        size_t index = 0;
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
        if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size())
            throw UsageError(fmt::format("camera '{}': the spawn index must be a number from 0, as in spawn:2", spec));
        return {Spec::Kind::Spawn, index};
    }
    if (spec == "intermission") return {Spec::Kind::Intermission, 0};
    if (spec == "overview") return {Spec::Kind::Overview, 0};
    if (spec == "best") return {Spec::Kind::Best, 0};
    throw UsageError(fmt::format("unknown camera '{}'; valid cameras: {}", spec, kValidSpecs));
}

size_t countViewpoints(const World& world, Viewpoint::Kind kind) {
    return size_t(std::count_if(world.viewpoints.begin(), world.viewpoints.end(),
                                [kind](const Viewpoint& v) { return v.kind == kind; }));
}

const Viewpoint* viewpoint(const World& world, Viewpoint::Kind kind, size_t index) {
    for (const Viewpoint& v : world.viewpoints)
        if (v.kind == kind && index-- == 0) return &v;
    return nullptr;
}

std::vector<uint8_t> playableClusters(const World& world) {
    const int32_t n = world.pvs.numClusters;
    if (n <= 0 || world.viewpoints.empty() || world.nodes.empty()) return {};
    std::vector<uint8_t> from(size_t(n), 0);
    bool any = false;
    for (const Viewpoint& v : world.viewpoints) {
        const int32_t c = findCluster(world, v.position);
        if (c >= 0 && c < n) from[size_t(c)] = 1, any = true;
    }
    if (!any) return {};
    std::vector<uint8_t> seen(size_t(n), 0);
    for (int32_t a = 0; a < n; ++a)
        if (from[size_t(a)])
            for (int32_t b = 0; b < n; ++b) seen[size_t(b)] |= world.pvs.visible(a, b) ? 1 : 0;
    return seen;
}

namespace {

Camera spawnCamera(const World& world, size_t index, const std::string& spec, int width, int height, float fovX) {
    const size_t count = countViewpoints(world, Viewpoint::Kind::Spawn);
    if (count == 0) throw UsageError(fmt::format("{}map has no spawn points", where(world)));
    if (index >= count)
        throw UsageError(fmt::format("{}map has {} spawn point{} (spawn:0 to spawn:{}); {} asked", where(world), count,
                                     count == 1 ? "" : "s", count - 1, spec));
    const Viewpoint& v = *viewpoint(world, Viewpoint::Kind::Spawn, index);
    Camera c = baseCamera(width, height, fovX);
    c.position = v.position;
    c.angles = v.angles;
    return c;
}

Camera intermissionCamera(const World& world, int width, int height, float fovX) {
    const Viewpoint* v = viewpoint(world, Viewpoint::Kind::Intermission, 0);
    if (!v) throw UsageError(fmt::format("{}map has no intermission camera", where(world)));
    Camera c = baseCamera(width, height, fovX);
    c.position = v->position;
    c.angles = v->angles;
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
//
// Two trims keep the frame on the playable map (each skipped when it would leave nothing):
// * with a PVS and viewpoints, only surfaces listed by leaves of playableClusters(): a Source 3D sky box, a
//   Quake 3 portal-sky room or a model room off to the side is seen from no spawn or item (kept only when
//   at least half of the drawn points remain);
// * per axis, points more than 2% of the central span beyond the 0.5th / 99.5th percentile are dropped
//   (a lone far-out brush would otherwise shrink the whole map to a corner of the frame).
std::vector<Vec3> drawnPoints(const World& world, const std::vector<uint8_t>* keep, std::vector<Vec3>* kept);

std::vector<Vec3> trimOutliers(std::vector<Vec3> points) {
    if (points.size() < 200) return points;
    Vec3 lo, hi;
    for (int axis = 0; axis < 3; ++axis) {
        std::vector<float> v(points.size());
        for (size_t i = 0; i < points.size(); ++i) v[i] = (&points[i].x)[axis];
        const size_t a = v.size() / 200, b = v.size() - 1 - v.size() / 200;
        std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(a), v.end());
        const float low = v[a];
        std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(b), v.end());
        const float high = v[b];
        const float slack = 0.02f * (high - low);
        (&lo.x)[axis] = low - slack;
        (&hi.x)[axis] = high + slack;
    }
    std::vector<Vec3> kept;
    kept.reserve(points.size());
    for (Vec3 p : points)
        if (p.x >= lo.x && p.y >= lo.y && p.z >= lo.z && p.x <= hi.x && p.y <= hi.y && p.z <= hi.z) kept.push_back(p);
    return kept.empty() ? points : kept;
}

// The points in their order, each value once: surfaces share their corners, and every overview placement
// passes over all the points several times. The largest and smallest projections, all that placement takes
// from them, come out bit for bit the same (so a set too large for the table is kept as it is).
// An open-addressing table of point indices: std::unordered_set took a quarter of the overview's placement.
std::vector<Vec3> withoutRepeats(const std::vector<Vec3>& points) {
    if (points.size() >= (size_t(1) << 30)) return points;
    auto bits = [](Vec3 p) {
        return std::array<uint32_t, 3>{std::bit_cast<uint32_t>(p.x), std::bit_cast<uint32_t>(p.y), std::bit_cast<uint32_t>(p.z)};
    };
    const size_t mask = std::bit_ceil(points.size() * 2 + 1) - 1;
    std::vector<uint32_t> slots(mask + 1, 0);  // index + 1 of the point kept there; 0: empty
    std::vector<Vec3> out;
    out.reserve(points.size());
    for (size_t i = 0; i < points.size(); ++i) {
        const std::array<uint32_t, 3> b = bits(points[i]);
        size_t h = size_t((uint64_t(b[0]) * 0x9E3779B97F4A7C15ull ^ uint64_t(b[1]) * 0xC2B2AE3D27D4EB4Full ^ b[2]) *
                          0xFF51AFD7ED558CCDull >> 29) & mask;
        while (slots[h] != 0 && bits(points[slots[h] - 1]) != b) h = (h + 1) & mask;
        if (slots[h] != 0) continue;  // a repeat
        slots[h] = uint32_t(i + 1);
        out.push_back(points[i]);
    }
    return out;
}

std::vector<Vec3> framingPoints(const World& world) {
    const std::vector<uint8_t> playable = playableClusters(world);
    std::vector<Vec3> points;
    std::vector<uint8_t> keep;
    if (!playable.empty()) {
        keep.assign(world.surfaces.size(), 0);
        for (const Leaf& leaf : world.leaves) {
            if (leaf.cluster < 0 || size_t(leaf.cluster) >= playable.size() || !playable[size_t(leaf.cluster)]) continue;
            const uint64_t end = std::min<uint64_t>(uint64_t(leaf.firstLeafSurface) + leaf.numLeafSurfaces,
                                                    world.leafSurfaces.size());
            for (uint64_t k = leaf.firstLeafSurface; k < end; ++k)
                if (world.leafSurfaces[size_t(k)] < keep.size()) keep[world.leafSurfaces[size_t(k)]] = 1;
        }
    }
    // The PVS from a few spawns of an indoor map can be a small part of it; a sky box or side room is a
    // small part of the drawn points, so the trim stands only when it keeps most of them.
    std::vector<Vec3> all = drawnPoints(world, playable.empty() ? nullptr : &keep, &points);
    if (points.size() * 2 < all.size()) points = std::move(all);
    return withoutInnerPoints(withoutRepeats(trimOutliers(std::move(points))));
}

// The drawable points of framingPoints; with `keep`, those of the surfaces it marks also into `kept`.
std::vector<Vec3> drawnPoints(const World& world, const std::vector<uint8_t>* keep, std::vector<Vec3>* kept) {
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
    bool keeping = false;  // the surface's points go to `kept` too
    auto add = [&](Vec3 p) {
        if (!isFinite(p)) return;
        if (!model.empty()) p = vmin(vmax(p, model.mins), model.maxs);
        points.push_back(p);
        if (keeping) kept->push_back(p);
    };
    for (size_t s = first; s < last; ++s) {
        keeping = keep && kept && (*keep)[s];
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
//
// The distance (two passes over the points) decides which views lead the search; the centring (a bisection)
// is worked out only for the views that are rendered, a few of the twenty-four (OverviewCandidates).
struct ViewAxes {
    Camera camera;
    Vec3 forward, right, up, center;
    double tanX = 0, tanY = 0;
    struct Along {
        double f, r, u;
    };
    std::vector<Along> corners;  // the points along the view's axes, relative to center
};

ViewAxes viewAxes(const std::vector<Vec3>& points, const Bounds& box, const Camera& base, float pitch, float yaw) {
    ViewAxes v;
    v.camera = base;
    v.camera.angles = {pitch, yaw, 0};
    angleVectors(v.camera.angles, v.forward, v.right, v.up);
    const double margin = 0.95;  // corners land within 95% of the half-frame
    v.tanX = std::tan(double(degToRad(v.camera.fovX)) * 0.5) * margin;
    v.tanY = v.tanX * double(v.camera.height) / double(v.camera.width);
    v.center = box.center();
    v.corners.reserve(points.size());
    for (Vec3 p : points) {
        const Vec3 q = p - v.center;
        v.corners.push_back({dot(q, v.forward), dot(q, v.right), dot(q, v.up)});
    }
    return v;
}

// The smallest distance D from which every corner fits the frame and lies past twice the near plane.
double overviewDistance(const ViewAxes& v) {
    using Along = ViewAxes::Along;
    // For one screen axis (s = offset along it, t = tan of its half-angle): the smallest D for which some
    // shift fits all corners.
    auto minDistance = [&](double Along::*s, double t) {
        double hi = -1e30, lo = 1e30;
        for (const Along& k : v.corners) {
            hi = std::max(hi, k.*s - t * k.f);
            lo = std::min(lo, k.*s + t * k.f);
        }
        return (hi - lo) / (2 * t);
    };
    double distance = std::max(minDistance(&Along::r, v.tanX), minDistance(&Along::u, v.tanY));
    for (const Along& k : v.corners) distance = std::max(distance, 2.0 * v.camera.nearPlane - k.f);  // all past near
    return distance;
}

// The camera at `distance` (overviewDistance's) shifted to centre the corners on screen.
Camera centredOverview(const ViewAxes& v, double distance) {
    using Along = ViewAxes::Along;
    // Among the shifts that fit, the one that centres the corners on screen: the sum of the largest and
    // smallest screen offsets falls as the shift grows, so bisect it to zero.
    auto shift = [&](double Along::*s, double t, double d) {
        double first = -1e30, last = 1e30;  // the shifts that keep every corner inside
        for (const Along& k : v.corners) {
            first = std::max(first, k.*s - t * (k.f + d));
            last = std::min(last, k.*s + t * (k.f + d));
        }
        // Every corner's offset (s - shift) / (f + d) falls as the shift grows, and so does its rounded value
        // (a rounded difference and a rounded quotient by a positive number are monotonic). So a corner whose
        // offset at the interval's start is below the largest offset at its end is never the largest inside
        // it, and likewise for the smallest: dropping such corners as the interval narrows leaves every
        // balance below bit for bit the same, at a few passes over all corners instead of 64.
        struct Offset {
            double s, den;
            double at(double shift) const { return (s - shift) / den; }
        };
        std::vector<Offset> top, bottom;
        top.reserve(v.corners.size());
        for (const Along& k : v.corners) top.push_back({k.*s, k.f + d});
        bottom = top;
        auto narrow = [&] {
            double topAtLast = -1e30, bottomAtFirst = 1e30;
            for (const Offset& o : top) topAtLast = std::max(topAtLast, o.at(last));
            for (const Offset& o : bottom) bottomAtFirst = std::min(bottomAtFirst, o.at(first));
            std::erase_if(top, [&](const Offset& o) { return o.at(first) < topAtLast; });
            std::erase_if(bottom, [&](const Offset& o) { return o.at(last) > bottomAtFirst; });
        };
        auto balance = [&](double shift) {
            double hi = -1e30, lo = 1e30;
            for (const Offset& o : top) hi = std::max(hi, o.at(shift));
            for (const Offset& o : bottom) lo = std::min(lo, o.at(shift));
            return hi + lo;
        };
        for (int i = 0; i < 64 && first < last; ++i) {
            if (i % 4 == 0 && top.size() + bottom.size() > 64) narrow();
            const double mid = (first + last) / 2;
            (balance(mid) > 0 ? first : last) = mid;
        }
        return (first + last) / 2;
    };
    const double a = shift(&Along::r, v.tanX, distance), b = shift(&Along::u, v.tanY, distance);
    Camera c = v.camera;
    c.position = v.center - v.forward * float(distance) + v.right * float(a) + v.up * float(b);
    return c;
}

constexpr float kOverviewPitch = 55.0f;
constexpr float kOverviewYaws[] = {45.0f, 135.0f, 225.0f, 315.0f, 0.0f, 90.0f, 180.0f, 270.0f};

// The eight views around the map (diagonals first) at `pitch`, with their distances.
std::vector<OverviewCandidates::View> viewsAround(const std::vector<Vec3>& points, const Bounds& box,
                                                  const Camera& base, float pitch) {
    std::vector<OverviewCandidates::View> views;
    for (float yaw : kOverviewYaws) views.push_back({pitch, yaw, overviewDistance(viewAxes(points, box, base, pitch, yaw))});
    return views;
}

// Of the views around the map, the one from which the map appears largest (the eye closest): a long map lies
// across the frame instead of along its height, and a rectangular one seen square-on fills a wide frame better
// than its diamond seen from a corner. Ties keep the first.
size_t closestOverview(const std::vector<OverviewCandidates::View>& views) {
    size_t best = 0;
    for (size_t i = 1; i < views.size(); ++i)
        if (views[i].distance < views[best].distance * (1 - 1e-6)) best = i;
    return best;
}

std::optional<Camera> overviewCamera(const World& world, int width, int height, float fovX) {
    const Camera base = baseCamera(width, height, fovX);
    const std::vector<Vec3> points = framingPoints(world);
    Bounds box;
    for (Vec3 p : points) box.grow(p);
    if (box.empty()) return std::nullopt;
    const std::vector<OverviewCandidates::View> around = viewsAround(points, box, base, kOverviewPitch);
    const OverviewCandidates::View& v = around[closestOverview(around)];
    return centredOverview(viewAxes(points, box, base, v.pitch, v.yaw), v.distance);
}

}  // namespace

// The points less those deep inside the map's convex hull. Every overview placement (overviewAt) and the framing
// box take only the largest and smallest values over the points of linear functions of a point, or of ratios
// of two with a positive denominator; such a value is largest at a corner of the hull, and a point inside the
// hull by a margin far above float rounding is never the largest: dropping it changes no result bit. Inside is
// proved against a smaller hull, that of the points farthest out along 26 directions, whose faces are found by
// trying every three of them. A flat or tiny set is kept as it is.
std::vector<Vec3> withoutInnerPoints(const std::vector<Vec3>& points) {
    if (points.size() < 64) return points;
    Bounds box;
    for (Vec3 p : points) box.grow(p);
    const DVec3 diagonal = toDouble(box.maxs) - toDouble(box.mins);
    const double extent = std::sqrt(dot(diagonal, diagonal));
    if (!(extent > 1.0)) return points;
    // The farthest point along each of 26 directions, in one pass (ties keep the first).
    std::vector<DVec3> directions;
    for (int dx = -1; dx <= 1; ++dx)
        for (int dy = -1; dy <= 1; ++dy)
            for (int dz = -1; dz <= 1; ++dz)
                if (dx != 0 || dy != 0 || dz != 0) directions.push_back({double(dx), double(dy), double(dz)});
    // Directions d and 25 - d are opposite: a point's reach along the second is exactly minus its reach along
    // the first (products by 0 and +-1 are exact, rounding is symmetric), so one dot product serves both.
    constexpr size_t kHalf = 13;
    std::vector<size_t> farthest(directions.size(), 0);
    std::array<double, kHalf> most{}, least{};
    for (size_t d = 0; d < kHalf; ++d) most[d] = least[d] = dot(toDouble(points[0]), directions[d]);
    for (size_t i = 1; i < points.size(); ++i) {
        const DVec3 p = toDouble(points[i]);
        for (size_t d = 0; d < kHalf; ++d) {
            const double v = dot(p, directions[d]);
            if (v > most[d]) most[d] = v, farthest[d] = i;
            if (v < least[d]) least[d] = v, farthest[25 - d] = i;
        }
    }
    std::vector<DVec3> extremes;
    for (size_t i : farthest) extremes.push_back(toDouble(points[i]));
    // Faces: planes through three extremes with every extreme on or behind them, as unit normal and offset.
    const double flat = 1e-9 * extent;
    std::vector<std::pair<DVec3, double>> faces;
    for (size_t a = 0; a < extremes.size(); ++a)
        for (size_t b = a + 1; b < extremes.size(); ++b)
            for (size_t c = b + 1; c < extremes.size(); ++c) {
                DVec3 n = cross(extremes[b] - extremes[a], extremes[c] - extremes[a]);
                const double len = std::sqrt(dot(n, n));
                if (!(len > flat * extent)) continue;
                n = {n.x / len, n.y / len, n.z / len};
                bool front = false, back = false;
                for (const DVec3& e : extremes) {
                    const double side = dot(n, e - extremes[a]);
                    front = front || side > flat;
                    back = back || side < -flat;
                }
                if (front && back) continue;
                if (front) n = -n;
                faces.push_back({n, dot(n, extremes[a])});
            }
    if (faces.size() < 4) return points;
    // Coplanar extremes give the same face from several triples: each kept once (a point is tested on all).
    std::sort(faces.begin(), faces.end(), [](const auto& a, const auto& b) {
        return std::tie(a.first.x, a.first.y, a.first.z, a.second) < std::tie(b.first.x, b.first.y, b.first.z, b.second);
    });
    faces.erase(std::unique(faces.begin(), faces.end(),
                            [&](const auto& a, const auto& b) {
                                return std::abs(a.first.x - b.first.x) < 1e-9 && std::abs(a.first.y - b.first.y) < 1e-9 &&
                                       std::abs(a.first.z - b.first.z) < 1e-9 && std::abs(a.second - b.second) < flat;
                            }),
                faces.end());
    // A thousandth of the map's size (units), far above rounding errors of a few hundred-thousandths of a unit.
    const double margin = 1e-3 * extent;
    std::vector<Vec3> kept;
    for (Vec3 p : points) {
        const DVec3 q = toDouble(p);
        bool inside = true;
        for (const auto& [n, offset] : faces)
            if (dot(n, q) - offset > -margin) {
                inside = false;
                break;
            }
        if (!inside) kept.push_back(p);
    }
    return kept;
}

std::optional<Camera> overview(const World& world, int width, int height, float fovX) {
    return overviewCamera(world, width, height, fovX);
}

OverviewCandidates overviewCandidates(const World& world, int width, int height, float fovX) {
    OverviewCandidates out;
    out.base = baseCamera(width, height, fovX);
    out.points = framingPoints(world);
    for (Vec3 p : out.points) out.box.grow(p);
    if (out.box.empty()) return out;
    // 35 degrees: walls fill more of a wide frame; 89: the floor plan, either way across the frame.
    for (float pitch : {kOverviewPitch, 35.0f, 89.0f}) {
        // Each view placed once: the closest leads its pitch's group, the others follow in yaw order.
        const std::vector<OverviewCandidates::View> around = viewsAround(out.points, out.box, out.base, pitch);
        const OverviewCandidates::View lead = around[closestOverview(around)];
        std::vector<OverviewCandidates::View>& group = out.groups.emplace_back(1, lead);
        for (const OverviewCandidates::View& v : around) {
            if (pitch == 89.0f && v.yaw != 0.0f && v.yaw != 90.0f) continue;
            if (v.yaw != lead.yaw) group.push_back(v);
        }
    }
    return out;
}

Camera OverviewCandidates::camera(size_t group, size_t index) const {
    const View& v = groups.at(group).at(index);
    return centredOverview(viewAxes(points, box, base, v.pitch, v.yaw), v.distance);
}

}  // namespace camera

float horizontalFov(const World& world, float fov, int width, int height) {
    if (world.fovReferenceAspect <= 0 || width <= 0 || height <= 0) return fov;
    // The game's FOV spans the width of a frame of the reference aspect; a wider frame sees more to the sides
    // with the same vertical extent (Source's "Hor+" scaling).
    const double aspect = double(width) / double(height);
    const double half = std::atan(std::tan(double(degToRad(fov)) * 0.5) * aspect / double(world.fovReferenceAspect));
    return float(2.0 * half * 180.0 / double(kPi));
}

Camera cameraFromSpec(const World& world, const std::string& spec, int width, int height, float fovX) {
    const camera::Spec parsed = camera::parseSpec(spec);
    const float fov = horizontalFov(world, fovX, width, height);
    switch (parsed.kind) {
        case camera::Spec::Kind::Spawn: return camera::spawnCamera(world, parsed.index, spec, width, height, fov);
        case camera::Spec::Kind::Intermission: return camera::intermissionCamera(world, width, height, fov);
        case camera::Spec::Kind::Overview: {
            std::optional<Camera> c = camera::overviewCamera(world, width, height, fov);
            if (!c) throw UsageError(fmt::format("{}map has no world bounds to frame an overview", camera::where(world)));
            return *c;
        }
        case camera::Spec::Kind::Best: break;
    }
    throw UsageError("camera 'best' needs the map's tessellated geometry (resolveCamera), not cameraFromSpec");
}

}  // namespace luxel
