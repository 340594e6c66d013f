// The Embree scenes behind the rebaker and the baker: one triangle geometry holding every drawn triangle of
// the map (so Embree's primitive id is the Geometry triangle index), seen by closest-hit rays; and a scene
// of the shadow casters under ray masks: opaque, sky and alpha-shadow triangles.
#include "luxel/bake/ray_scene.hpp"

#include "luxel/geometry/brush_faces.hpp"

#include "embree_library.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

namespace luxel {

namespace {

// Two scenes: the drawn triangles for closest-hit queries, the shadow casters for shadow rays (apart, so a
// shadow ray's traversal never meets the drawn copies). Ray masks within the shadow scene: a Light's ray
// sees the sky, a Sun's does not.
constexpr unsigned kMaskAll = 0xffffffffu, kMaskShadow = 1, kMaskSky = 2;
unsigned shadowMask(ShadowRay kind) { return kind == ShadowRay::Light ? kMaskShadow | kMaskSky : kMaskShadow; }

// The first `count` (<= 16, else invalid_argument) lanes of a packet: origins, unit directions, [tNear, tFar[i]);
// the other lanes are switched off in `valid`.
void fillPacket(RTCRay16& r, int* valid, const Vec3* origins, const Vec3* directions, const float* tFar, int count,
                float tNear, unsigned mask) {
    if (count > 16) throw std::invalid_argument("RayScene: a packet holds at most 16 rays");
    for (int i = 0; i < 16; ++i) {
        const bool on = i < count;
        valid[i] = on ? -1 : 0;
        const Vec3 o = on ? origins[i] : Vec3{};
        const Vec3 d = on ? directions[i] : Vec3{0, 0, 1};
        r.org_x[i] = o.x, r.org_y[i] = o.y, r.org_z[i] = o.z;
        r.dir_x[i] = d.x, r.dir_y[i] = d.y, r.dir_z[i] = d.z;
        r.tnear[i] = tNear;
        r.tfar[i] = on ? tFar[i] : 0;
        r.time[i] = 0;
        r.mask[i] = mask;
        r.id[i] = unsigned(i);
        r.flags[i] = 0;
    }
}

// An alpha-shadow triangle: its texture coordinates and texture, for the occlusion filter.
struct AlphaTriangle {
    std::array<Vec2, 3> st;
    const Texture* texture = nullptr;
};

// A tinting triangle (ShadowCast::Tint): as an alpha one, with the surface's opacity and front normal.
struct TintTriangle {
    std::array<Vec2, 3> st;
    const Texture* texture = nullptr;
    float opacity = 1;
    Vec3 front;
};

// The shadow queries' context: where the tint filter leaves each ray's tint and the distance of its crossing
// (the nearest wins: the same answer in any traversal order). `tint` null: tints are not asked for.
struct ShadowContext {
    RTCIntersectContext base;
    Vec3* tint = nullptr;
    float tintAt[16] = {};
};

}  // namespace

struct RayScene::Impl {
    RTCDevice device = nullptr;
    RTCScene scene = nullptr, shadowScene = nullptr;
    std::vector<uint32_t> triangleSurface;
    size_t blockerTriangles = 0;
    std::vector<AlphaTriangle> alphaTriangles;  // the alpha geometry's user data, by primitive id
    std::vector<TintTriangle> tintTriangles;    // the tint geometry's, likewise
    std::vector<std::shared_ptr<const Texture>> textures;  // the alpha triangles' textures, kept alive
    double buildMs = 0;
    ~Impl() {
        if (scene) embree().ReleaseScene(scene);
        if (shadowScene) embree().ReleaseScene(shadowScene);
        if (device) embree().ReleaseDevice(device);
    }
};

namespace {

[[noreturn]] void embreeFailed(RTCDevice device, const char* what) {
    const RTCError e = device ? embree().GetDeviceError(device) : RTC_ERROR_UNKNOWN;
    throw std::runtime_error(std::string("Embree: ") + what + " failed (error " + std::to_string(int(e)) + ")");
}

// One triangle geometry of the given points and triangles, committed and attached under `mask`, with an
// occlusion filter over `filterData` when given.
void addTriangles(RTCDevice device, RTCScene scene, const std::vector<Vec3>& points, const std::vector<uint32_t>& indices,
                  unsigned mask, RTCFilterFunctionN filter = nullptr, void* filterData = nullptr) {
    RTCGeometry g = embree().NewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE);
    if (!g) embreeFailed(device, "creating a triangle geometry");
    const size_t numTris = indices.size() / 3;
    auto* vb = static_cast<float*>(
        embree().SetNewGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, 3 * sizeof(float), points.size()));
    auto* ib = static_cast<uint32_t*>(
        embree().SetNewGeometryBuffer(g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, 3 * sizeof(uint32_t), numTris));
    if (!vb || !ib) {
        embree().ReleaseGeometry(g);
        embreeFailed(device, "allocating geometry buffers");
    }
    for (size_t i = 0; i < points.size(); ++i) vb[3 * i] = points[i].x, vb[3 * i + 1] = points[i].y, vb[3 * i + 2] = points[i].z;
    std::memcpy(ib, indices.data(), numTris * 3 * sizeof(uint32_t));
    embree().SetGeometryMask(g, mask);
    if (filter) {
        embree().SetGeometryUserData(g, filterData);
        embree().SetGeometryOccludedFilterFunction(g, filter);
    }
    embree().CommitGeometry(g);
    embree().AttachGeometry(scene, g);
    embree().ReleaseGeometry(g);
}

// The nearest level-0 texel (RGBA8, alpha in the high byte) at texture coordinates st, wrapped, as q3map2's
// TraceTriangle and ericw-tools' SampleTexture read their images (no filtering).
uint32_t nearestTexel(const Texture& t, Vec2 st) {
    const size_t level = size_t(t.firstLevel);  // 0: bakes load whole textures
    const Texture::LevelSize& m = t.mips[level];
    const float s = st.x - std::floor(st.x), u = st.y - std::floor(st.y);
    const int32_t x = std::clamp(int32_t(s * float(m.width)), 0, m.width - 1);
    const int32_t y = std::clamp(int32_t(u * float(m.height)), 0, m.height - 1);
    return t.paddedLevels[level][size_t(y) * (size_t(m.width) + 1) + size_t(x)];
}

uint8_t nearestAlpha(const Texture& t, Vec2 st) { return uint8_t(nearestTexel(t, st) >> 24); }

// Alpha shadows: the ray passes where the texel's alpha is below one half. q3map2 (TraceTriangle,
// C_ALPHASHADOW) scales the light by (255 - alpha) / 255 and stops the ray once it is under 0.001; for the
// 0-or-255 alpha of the masked textures alphashadow is used on the two agree, and a yes/no answer stays right
// when Embree reports one triangle twice (spatial splits), where a product of transmissions would not.
// ericw-tools and vrad are not followed here: vrad's texture shadows (-TextureShadows, $translucent /
// $alphatest on props) apply to static props, which luxel does not trace; ericw-tools' Quake 2 path is left.
void alphaFilter(const RTCFilterFunctionNArguments* args) {
    const auto* tris = static_cast<const AlphaTriangle*>(args->geometryUserPtr);
    for (unsigned i = 0; i < args->N; ++i) {
        if (args->valid[i] != -1) continue;
        const AlphaTriangle& t = tris[RTCHitN_primID(args->hit, args->N, i)];
        const float u = RTCHitN_u(args->hit, args->N, i), v = RTCHitN_v(args->hit, args->N, i);
        const Vec2 st = t.st[0] * (1 - u - v) + t.st[1] * u + t.st[2] * v;
        if (nearestAlpha(*t.texture, st) < 128) args->valid[i] = 0;
    }
}

// Tinting surfaces never stop a ray; a crossing out through the front records the tint of the texel crossed,
// (1 - a) + a rgb / 255, if it is the ray's nearest so far (ericw-tools keeps one glass record a ray).
void tintFilter(const RTCFilterFunctionNArguments* args) {
    const auto* tris = static_cast<const TintTriangle*>(args->geometryUserPtr);
    auto* ctx = reinterpret_cast<ShadowContext*>(args->context);
    for (unsigned i = 0; i < args->N; ++i) {
        if (args->valid[i] != -1) continue;
        args->valid[i] = 0;
        if (!ctx->tint) continue;
        const TintTriangle& t = tris[RTCHitN_primID(args->hit, args->N, i)];
        const Vec3 dir{RTCRayN_dir_x(args->ray, args->N, i), RTCRayN_dir_y(args->ray, args->N, i), RTCRayN_dir_z(args->ray, args->N, i)};
        if (dot(dir, t.front) <= 0) continue;  // into the window, not out of it
        const unsigned id = RTCRayN_id(args->ray, args->N, i);
        const float at = RTCRayN_tfar(args->ray, args->N, i);
        if (id >= 16 || !(at < ctx->tintAt[id])) continue;
        const float u = RTCHitN_u(args->hit, args->N, i), v = RTCHitN_v(args->hit, args->N, i);
        const Vec2 st = t.st[0] * (1 - u - v) + t.st[1] * u + t.st[2] * v;
        const uint32_t texel = nearestTexel(*t.texture, st);
        const uint32_t alphaByte = texel >> 24;
        const float a = alphaByte < 255 ? float(alphaByte) / 255.0f : t.opacity;
        const Vec3 rgb{float(texel & 0xFF), float(texel >> 8 & 0xFF), float(texel >> 16 & 0xFF)};
        ctx->tint[id] = Vec3{1 - a, 1 - a, 1 - a} + rgb * (a / 255.0f);
        ctx->tintAt[id] = at;
    }
}

bool isSky(const World& world, const Geometry& geometry, const MaterialSet* materials, uint32_t s) {
    if (geometry.surfaces[s].shading == SurfaceShading::Sky) return true;
    const int32_t m = s < world.surfaces.size() ? world.surfaces[s].material : -1;
    if (m < 0) return false;
    if (size_t(m) < world.materials.size() && (world.materials[size_t(m)].flags & kMaterialSky)) return true;
    return materials && size_t(m) < materials->looks.size() && materials->looks[size_t(m)].sky;
}

}  // namespace

RayScene::RayScene(const World& world, const Geometry& geometry, const MaterialSet* materials,
                   const std::vector<bool>* castsNoShadow)
    : impl_(std::make_unique<Impl>()) {
    const auto start = std::chrono::steady_clock::now();
    Impl& s = *impl_;
    s.device = embree().NewDevice(nullptr);
    if (!s.device) embreeFailed(nullptr, "creating a device");
    s.scene = embree().NewScene(s.device);
    s.shadowScene = embree().NewScene(s.device);
    if (!s.scene || !s.shadowScene) embreeFailed(s.device, "creating a scene");
    // Robust: rays must not slip through the shared edges of neighbouring triangles into the void, and a
    // high-quality build pays for itself over millions of incoherent rays.
    // Context filters let allHits() see every hit along a ray.
    embree().SetSceneFlags(s.scene, RTCSceneFlags(RTC_SCENE_FLAG_ROBUST | RTC_SCENE_FLAG_CONTEXT_FILTER_FUNCTION));
    embree().SetSceneFlags(s.shadowScene, RTC_SCENE_FLAG_ROBUST);
    for (RTCScene scene : {s.scene, s.shadowScene}) embree().SetSceneBuildQuality(scene, RTC_BUILD_QUALITY_HIGH);

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
    std::vector<Vec3> points(geometry.vertices.size());
    for (size_t i = 0; i < points.size(); ++i) points[i] = geometry.vertices[i].position;
    if (numTris > 0) {
        addTriangles(s.device, s.scene, points, std::vector<uint32_t>(geometry.indices.begin(), geometry.indices.begin() + std::ptrdiff_t(numTris * 3)),
                     kMaskAll);
    }

    // The same triangles again for shadow rays, sorted by how they cast.
    std::vector<uint32_t> opaque, sky, alpha, tint;
    for (size_t t = 0; t < numTris; ++t) {
        const uint32_t surface = s.triangleSurface[t];
        const uint32_t* tri = geometry.indices.data() + t * 3;
        if (surface == kNoSurface) {
            opaque.insert(opaque.end(), tri, tri + 3);
            continue;
        }
        if (castsNoShadow && surface < castsNoShadow->size() && (*castsNoShadow)[surface]) continue;
        if (isSky(world, geometry, materials, surface)) {
            sky.insert(sky.end(), tri, tri + 3);
            continue;
        }
        const int32_t m = geometry.surfaces[surface].material;
        const SurfaceLook* look =
            materials && m >= 0 && size_t(m) < materials->looks.size() ? &materials->looks[size_t(m)] : nullptr;
        const ShadowCast cast = look ? look->shadow : ShadowCast::Opaque;
        if (cast == ShadowCast::None) continue;
        const Texture* texture = look && look->texture >= 0 && size_t(look->texture) < materials->textures.size()
                                     ? materials->textures[size_t(look->texture)].get()
                                     : nullptr;
        // Without its image an alpha shadow is whole, as q3map2 does when lightImage is missing.
        if (cast == ShadowCast::AlphaTexture && texture && texture->width() > 0 && texture->height() > 0) {
            alpha.insert(alpha.end(), tri, tri + 3);
            AlphaTriangle a;
            for (int k = 0; k < 3; ++k) a.st[size_t(k)] = geometry.vertices[tri[k]].texUV;
            a.texture = texture;
            s.alphaTriangles.push_back(a);
            if (s.textures.empty()) s.textures = materials->textures;
            continue;
        }
        if (cast == ShadowCast::Tint && texture && texture->width() > 0 && texture->height() > 0) {
            tint.insert(tint.end(), tri, tri + 3);
            TintTriangle a;
            for (int k = 0; k < 3; ++k)
                a.st[size_t(k)] = Vec2{geometry.vertices[tri[k]].texUV.x * look->tcScale.x, geometry.vertices[tri[k]].texUV.y * look->tcScale.y};
            a.texture = texture;
            a.opacity = look->opacity;
            // cross(b - a, c - a) points away from the front (geometry.hpp).
            const Vec3 p0 = geometry.vertices[tri[0]].position, p1 = geometry.vertices[tri[1]].position, p2 = geometry.vertices[tri[2]].position;
            a.front = -cross(p1 - p0, p2 - p0);
            s.tintTriangles.push_back(a);
            if (s.textures.empty()) s.textures = materials->textures;
            continue;
        }
        if (cast == ShadowCast::Tint) continue;  // no image: the light passes untouched
        opaque.insert(opaque.end(), tri, tri + 3);
    }
    // The world's brushes, shadow rays only.
    const BrushFaces brushes = brushFaces(world);
    s.blockerTriangles = brushes.triangleCount();
    const uint32_t base = uint32_t(points.size());
    points.insert(points.end(), brushes.vertices.begin(), brushes.vertices.end());
    for (size_t t = 0; t < brushes.triangleCount(); ++t)
        for (int k = 0; k < 3; ++k) (brushes.sky[t] ? sky : opaque).push_back(base + brushes.indices[t * 3 + size_t(k)]);

    if (!opaque.empty()) addTriangles(s.device, s.shadowScene, points, opaque, kMaskShadow);
    if (!sky.empty()) addTriangles(s.device, s.shadowScene, points, sky, kMaskSky);
    if (!alpha.empty())
        addTriangles(s.device, s.shadowScene, points, alpha, kMaskShadow, alphaFilter, s.alphaTriangles.data());
    if (!tint.empty()) addTriangles(s.device, s.shadowScene, points, tint, kMaskShadow, tintFilter, s.tintTriangles.data());
    embree().CommitScene(s.scene);
    embree().CommitScene(s.shadowScene);
    if (embree().GetDeviceError(s.device) != RTC_ERROR_NONE) embreeFailed(s.device, "building the scene");
    s.buildMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

RayScene::~RayScene() = default;
RayScene::RayScene(RayScene&&) noexcept = default;
RayScene& RayScene::operator=(RayScene&&) noexcept = default;

const std::vector<uint32_t>& RayScene::triangleSurface() const { return impl_->triangleSurface; }
size_t RayScene::triangleCount() const { return impl_->triangleSurface.size(); }
size_t RayScene::blockerTriangleCount() const { return impl_->blockerTriangles; }
double RayScene::buildMs() const { return impl_->buildMs; }

void RayScene::intersect(Vec3 origin, const Vec3* directions, int count, float tNear, float tFar, RayHit* hits) const {
    Vec3 origins[16];
    for (int i = 0; i < count && i < 16; ++i) origins[i] = origin;
    closest(origins, directions, count, tNear, tFar, hits);
}

void RayScene::closest(const Vec3* origins, const Vec3* directions, int count, float tNear, float tFar,
                       RayHit* hits, bool coherent) const {
    if (count <= 0) return;
    alignas(64) RTCRayHit16 rh;
    alignas(64) int valid[16];
    float far[16];
    std::fill(far, far + 16, tFar);
    fillPacket(rh.ray, valid, origins, directions, far, count, tNear, kMaskAll);
    for (int i = 0; i < 16; ++i) {
        rh.hit.geomID[i] = RTC_INVALID_GEOMETRY_ID;
        rh.hit.primID[i] = RTC_INVALID_GEOMETRY_ID;
        rh.hit.instID[0][i] = RTC_INVALID_GEOMETRY_ID;
    }
    RTCIntersectContext context;
    rtcInitIntersectContext(&context);
    if (coherent) context.flags = RTC_INTERSECT_CONTEXT_FLAG_COHERENT;
    embree().Intersect16(valid, impl_->scene, &context, &rh);
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
    rh.ray.mask = kMaskAll;
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
    embree().Intersect1(impl_->scene, &context, &rh);
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
    embree().Intersect1(impl_->scene, &ctx.base, &rh);
    std::sort(hits.hits.begin(), hits.hits.begin() + std::ptrdiff_t(hits.count), [](const RayHit& a, const RayHit& b) {
        return a.t != b.t ? a.t < b.t : a.triangle < b.triangle;
    });
    return hits;
}

bool RayScene::occluded(Vec3 origin, Vec3 direction, float tNear, float tFar, ShadowRay kind) const {
    RTCRay ray = singleRay(origin, direction, tNear, tFar).ray;
    ray.mask = shadowMask(kind);
    ShadowContext context;
    rtcInitIntersectContext(&context.base);
    embree().Occluded1(impl_->shadowScene, &context.base, &ray);
    if (ray.tfar < 0) return true;  // Embree sets tfar to -inf when something blocks the ray
    if (kind != ShadowRay::SunToSky) return false;
    RTCRay sky = singleRay(origin, direction, tNear, tFar).ray;  // unblocked: it must meet a sky face
    sky.mask = kMaskSky;
    ShadowContext skyContext;
    rtcInitIntersectContext(&skyContext.base);
    embree().Occluded1(impl_->shadowScene, &skyContext.base, &sky);
    return !(sky.tfar < 0);
}

uint32_t RayScene::occluded(const Vec3* origins, const Vec3* directions, const float* tFar, int count, float tNear,
                            ShadowRay kind, Vec3* tint) const {
    if (count <= 0) return 0;
    alignas(64) RTCRay16 r;
    alignas(64) int valid[16];
    fillPacket(r, valid, origins, directions, tFar, count, tNear, shadowMask(kind));
    ShadowContext context;
    rtcInitIntersectContext(&context.base);
    context.base.flags = RTC_INTERSECT_CONTEXT_FLAG_COHERENT;  // one surface's luxels towards one light
    if (tint) {
        context.tint = tint;
        for (int i = 0; i < count; ++i) tint[i] = {1, 1, 1}, context.tintAt[i] = std::numeric_limits<float>::infinity();
    }
    embree().Occluded16(valid, impl_->shadowScene, &context.base, &r);
    uint32_t blocked = 0;
    for (int i = 0; i < count; ++i)
        if (r.tfar[i] < 0) blocked |= 1u << i;
    if (kind == ShadowRay::SunToSky && blocked != (1u << count) - 1u) {  // the unblocked must meet a sky face
        alignas(64) RTCRay16 sky;
        alignas(64) int skyValid[16];
        fillPacket(sky, skyValid, origins, directions, tFar, count, tNear, kMaskSky);
        for (int i = 0; i < count; ++i)
            if (blocked & (1u << i)) skyValid[i] = 0;
        ShadowContext skyContext;
        rtcInitIntersectContext(&skyContext.base);
        skyContext.base.flags = RTC_INTERSECT_CONTEXT_FLAG_COHERENT;
        embree().Occluded16(skyValid, impl_->shadowScene, &skyContext.base, &sky);
        for (int i = 0; i < count; ++i)
            if (skyValid[i] && !(sky.tfar[i] < 0)) blocked |= 1u << i;
    }
    return blocked;
}

}  // namespace luxel
