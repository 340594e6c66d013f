// The Embree scene behind the rebaker: one triangle geometry holding every drawn triangle of the map, so
// Embree's primitive id is the Geometry triangle index.
#include "luxel/bake/ray_scene.hpp"

#include <embree3/rtcore.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

namespace luxel {

struct RayScene::Impl {
    RTCDevice device = nullptr;
    RTCScene scene = nullptr;
    std::vector<uint32_t> triangleSurface;
    double buildMs = 0;
    ~Impl() {
        if (scene) rtcReleaseScene(scene);
        if (device) rtcReleaseDevice(device);
    }
};

namespace {

[[noreturn]] void embreeFailed(RTCDevice device, const char* what) {
    const RTCError e = device ? rtcGetDeviceError(device) : RTC_ERROR_UNKNOWN;
    throw std::runtime_error(std::string("Embree: ") + what + " failed (error " + std::to_string(int(e)) + ")");
}

}  // namespace

RayScene::RayScene(const World& world, const Geometry& geometry) : impl_(std::make_unique<Impl>()) {
    (void)world;
    const auto start = std::chrono::steady_clock::now();
    Impl& s = *impl_;
    s.device = rtcNewDevice(nullptr);
    if (!s.device) embreeFailed(nullptr, "creating a device");
    s.scene = rtcNewScene(s.device);
    if (!s.scene) embreeFailed(s.device, "creating a scene");
    // Robust: rays must not slip through the shared edges of neighbouring triangles into the void, and a
    // high-quality build pays for itself over millions of incoherent rays.
    // Context filters let allHits() see every hit along a ray.
    rtcSetSceneFlags(s.scene, RTCSceneFlags(RTC_SCENE_FLAG_ROBUST | RTC_SCENE_FLAG_CONTEXT_FILTER_FUNCTION));
    rtcSetSceneBuildQuality(s.scene, RTC_BUILD_QUALITY_HIGH);

    // Every Geometry triangle, so Embree's primitive id is the Geometry triangle index (hidden surfaces and
    // billboards have no triangles there).
    const size_t numTris = geometry.indices.size() / 3;
    s.triangleSurface.assign(numTris, kNoSurface);
    for (size_t si = 0; si < geometry.surfaces.size(); ++si) {
        const DrawSurface& d = geometry.surfaces[si];
        for (uint32_t k = 0; k + 2 < d.numIndices; k += 3) {
            const size_t tri = (size_t(d.firstIndex) + k) / 3;
            if (tri < numTris) s.triangleSurface[tri] = uint32_t(si);
        }
    }
    if (!s.triangleSurface.empty()) {
        RTCGeometry g = rtcNewGeometry(s.device, RTC_GEOMETRY_TYPE_TRIANGLE);
        if (!g) embreeFailed(s.device, "creating the triangle geometry");
        auto* vb = static_cast<float*>(rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3,
                                                               3 * sizeof(float), geometry.vertices.size()));
        auto* ib = static_cast<uint32_t*>(rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
                                                                  3 * sizeof(uint32_t), numTris));
        if (!vb || !ib) {
            rtcReleaseGeometry(g);
            embreeFailed(s.device, "allocating geometry buffers");
        }
        for (size_t i = 0; i < geometry.vertices.size(); ++i) {
            const Vec3 p = geometry.vertices[i].position;
            vb[3 * i] = p.x;
            vb[3 * i + 1] = p.y;
            vb[3 * i + 2] = p.z;
        }
        std::memcpy(ib, geometry.indices.data(), numTris * 3 * sizeof(uint32_t));
        rtcCommitGeometry(g);
        rtcAttachGeometry(s.scene, g);
        rtcReleaseGeometry(g);
    }
    rtcCommitScene(s.scene);
    if (rtcGetDeviceError(s.device) != RTC_ERROR_NONE) embreeFailed(s.device, "building the scene");
    s.buildMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

RayScene::~RayScene() = default;
RayScene::RayScene(RayScene&&) noexcept = default;
RayScene& RayScene::operator=(RayScene&&) noexcept = default;

const std::vector<uint32_t>& RayScene::triangleSurface() const { return impl_->triangleSurface; }
size_t RayScene::triangleCount() const { return impl_->triangleSurface.size(); }
double RayScene::buildMs() const { return impl_->buildMs; }

void RayScene::intersect(Vec3 origin, const Vec3* directions, int count, float tNear, float tFar, RayHit* hits) const {
    Vec3 origins[16];
    for (int i = 0; i < count && i < 16; ++i) origins[i] = origin;
    closest(origins, directions, count, tNear, tFar, hits);
}

void RayScene::closest(const Vec3* origins, const Vec3* directions, int count, float tNear, float tFar,
                       RayHit* hits) const {
    if (count <= 0) return;
    if (count > 16) throw std::invalid_argument("RayScene: a packet holds at most 16 rays");
    alignas(64) RTCRayHit16 rh;
    alignas(64) int valid[16];
    for (int i = 0; i < 16; ++i) {
        const bool on = i < count;
        valid[i] = on ? -1 : 0;
        const Vec3 o = on ? origins[i] : Vec3{};
        const Vec3 d = on ? directions[i] : Vec3{0, 0, 1};
        rh.ray.org_x[i] = o.x;
        rh.ray.org_y[i] = o.y;
        rh.ray.org_z[i] = o.z;
        rh.ray.dir_x[i] = d.x;
        rh.ray.dir_y[i] = d.y;
        rh.ray.dir_z[i] = d.z;
        rh.ray.tnear[i] = tNear;
        rh.ray.tfar[i] = tFar;
        rh.ray.time[i] = 0;
        rh.ray.mask[i] = 0xffffffffu;
        rh.ray.id[i] = unsigned(i);
        rh.ray.flags[i] = 0;
        rh.hit.geomID[i] = RTC_INVALID_GEOMETRY_ID;
        rh.hit.primID[i] = RTC_INVALID_GEOMETRY_ID;
        rh.hit.instID[0][i] = RTC_INVALID_GEOMETRY_ID;
    }
    RTCIntersectContext context;
    rtcInitIntersectContext(&context);
    rtcIntersect16(valid, impl_->scene, &context, &rh);
    for (int i = 0; i < count; ++i) {
        RayHit& h = hits[i];
        h.hit = rh.hit.geomID[i] != RTC_INVALID_GEOMETRY_ID;
        h.triangle = h.hit ? rh.hit.primID[i] : 0;
        h.u = h.hit ? rh.hit.u[i] : 0;
        h.v = h.hit ? rh.hit.v[i] : 0;
        h.t = h.hit ? rh.ray.tfar[i] : 0;
    }
}

namespace {

struct CollectContext {
    RTCIntersectContext base;  // first: Embree hands the filter a pointer to this
    RayScene::Hits* hits;
};

// Records the hit and rejects it, so traversal goes on to the next one.
void collectHit(const RTCFilterFunctionNArguments* args) {
    auto* ctx = reinterpret_cast<const CollectContext*>(args->context);
    for (unsigned i = 0; i < args->N; ++i) {
        if (args->valid[i] != -1) continue;
        if (ctx->hits->count < RayScene::kMaxHits) {
            RayHit& h = ctx->hits->hits[ctx->hits->count++];
            h.hit = true;
            h.triangle = RTCHitN_primID(args->hit, args->N, i);
            h.u = RTCHitN_u(args->hit, args->N, i);
            h.v = RTCHitN_v(args->hit, args->N, i);
            h.t = RTCRayN_tfar(args->ray, args->N, i);
        }
        args->valid[i] = 0;
    }
}

}  // namespace

namespace {

RTCRayHit singleRay(Vec3 origin, Vec3 direction, float tNear, float tFar) {
    RTCRayHit rh{};
    rh.ray.org_x = origin.x;
    rh.ray.org_y = origin.y;
    rh.ray.org_z = origin.z;
    rh.ray.dir_x = direction.x;
    rh.ray.dir_y = direction.y;
    rh.ray.dir_z = direction.z;
    rh.ray.tnear = tNear;
    rh.ray.tfar = tFar;
    rh.ray.mask = 0xffffffffu;
    rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    rh.hit.primID = RTC_INVALID_GEOMETRY_ID;
    rh.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
    return rh;
}

}  // namespace

RayHit RayScene::closest(Vec3 origin, Vec3 direction, float tNear, float tFar) const {
    RTCRayHit rh = singleRay(origin, direction, tNear, tFar);
    RTCIntersectContext context;
    rtcInitIntersectContext(&context);
    rtcIntersect1(impl_->scene, &context, &rh);
    RayHit h;
    h.hit = rh.hit.geomID != RTC_INVALID_GEOMETRY_ID;
    if (h.hit) {
        h.triangle = rh.hit.primID;
        h.u = rh.hit.u;
        h.v = rh.hit.v;
        h.t = rh.ray.tfar;
    }
    return h;
}

RayScene::Hits RayScene::allHits(Vec3 origin, Vec3 direction, float tNear, float tFar) const {
    Hits hits;
    RTCRayHit rh = singleRay(origin, direction, tNear, tFar);
    CollectContext ctx;
    rtcInitIntersectContext(&ctx.base);
    ctx.base.filter = collectHit;
    ctx.hits = &hits;
    rtcIntersect1(impl_->scene, &ctx.base, &rh);
    std::sort(hits.hits.begin(), hits.hits.begin() + std::ptrdiff_t(hits.count), [](const RayHit& a, const RayHit& b) {
        return a.t != b.t ? a.t < b.t : a.triangle < b.triangle;
    });
    return hits;
}

namespace {

struct IgnoreContext {
    RTCIntersectContext base;  // first: Embree hands the filter a pointer to this
    const std::vector<uint8_t>* ignore;
};

// Lets the ray pass through the triangles marked in `ignore`.
void skipIgnored(const RTCFilterFunctionNArguments* args) {
    auto* ctx = reinterpret_cast<const IgnoreContext*>(args->context);
    for (unsigned i = 0; i < args->N; ++i) {
        if (args->valid[i] != -1) continue;
        const uint32_t tri = RTCHitN_primID(args->hit, args->N, i);
        if (tri < ctx->ignore->size() && (*ctx->ignore)[tri]) args->valid[i] = 0;
    }
}

}  // namespace

bool RayScene::occluded(Vec3 origin, Vec3 direction, float tNear, float tFar, const std::vector<uint8_t>& ignore) const {
    RTCRay ray = singleRay(origin, direction, tNear, tFar).ray;
    IgnoreContext ctx;
    rtcInitIntersectContext(&ctx.base);
    ctx.base.filter = skipIgnored;
    ctx.ignore = &ignore;
    rtcOccluded1(impl_->scene, &ctx.base, &ray);
    return ray.tfar < 0;
}

bool RayScene::occluded(Vec3 origin, Vec3 direction, float tNear, float tFar) const {
    RTCRay ray = singleRay(origin, direction, tNear, tFar).ray;
    RTCIntersectContext context;
    rtcInitIntersectContext(&context);
    rtcOccluded1(impl_->scene, &context, &ray);
    return ray.tfar < 0;  // Embree sets tfar to -inf when something blocks the ray
}

}  // namespace luxel
