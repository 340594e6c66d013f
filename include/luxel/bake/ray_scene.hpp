#pragma once
// An Embree scene of every drawn triangle of a map, in exactly the tessellation the renderer uses
// (polygons, meshes, patches, displacements; hidden surfaces and billboards left out), built once per
// map. A hit names the Geometry triangle, so the caller looks up the same lightmap the renderer samples.
//
// Shadow rays (occluded) see what the map compiler's shadow rays see, which is more and less than what is
// drawn: the faces of the world's light-blocking brushes (World::brushes: a caulked wall has no drawn face
// but blocks light), and, given the map's materials, not the surfaces that cast no shadow and only the
// opaque texels of alpha-shadow ones (SurfaceLook::shadow). Closest-hit queries (closest, intersect,
// allHits) see only the drawn triangles, as before. A sun's ray passes through the sky: drawn sky
// triangles and the faces of sky brushes.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "luxel/util/math.hpp"

#include "luxel/bsp/world.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/material/material_set.hpp"

namespace luxel {

struct RayHit {
    bool hit = false;
    uint32_t triangle = 0;  // index into Geometry::indices / 3
    float u = 0, v = 0;     // barycentrics of the triangle's 2nd and 3rd vertex
    float t = 0;            // distance along the (unit) direction
};

// What a shadow ray passes through: a Light's ray is stopped by the sky (a sky brush is solid to every
// compiler's tracer), a Sun's passes it (q3map2 TraceLine counts a sun ray that met a sky triangle as lit;
// vrad TestLine_DoesHitSky). A SunToSky ray is also blocked when it meets no sky face at all: ericw-tools'
// LightFace_Sky lights a sample only when its ray's first hit is a sky face, so a ray that leaves the map where
// no face closes it (skip faces, clip brushes) brings no sunlight. (A shadow caster beyond the sky still blocks
// it, as a Sun's: telling it from one before the sky would cost a closest-hit query on every sun ray.)
enum class ShadowRay : uint8_t { Light, Sun, SunToSky };

class RayScene {
public:
    // `materials` (optional, for World::materials): which drawn surfaces cast no shadow and which let light
    // through their texture's alpha; without them every drawn triangle casts a whole shadow.
    // `castsNoShadow`: per surface, true for surfaces left out of the shadow rays' scene (null or empty: all cast).
    RayScene(const World& world, const Geometry& geometry, const MaterialSet* materials = nullptr,
             const std::vector<bool>* castsNoShadow = nullptr);
    ~RayScene();
    RayScene(RayScene&&) noexcept;
    RayScene& operator=(RayScene&&) noexcept;
    RayScene(const RayScene&) = delete;
    RayScene& operator=(const RayScene&) = delete;

    static constexpr uint32_t kNoSurface = 0xffffffffu;
    // Surface of each Geometry triangle (index = triangle); kNoSurface for a triangle no surface lists.
    const std::vector<uint32_t>& triangleSurface() const;
    size_t triangleCount() const;
    size_t blockerTriangleCount() const;  // shadow-only triangles of the world's brushes
    double buildMs() const;

    // Closest hits of `count` rays (count <= 16) sharing one origin, directions unit length, over
    // [tNear, tFar). Thread-safe.
    void intersect(Vec3 origin, const Vec3* directions, int count, float tNear, float tFar, RayHit* hits) const;
    // The closest hit of one ray over [tNear, tFar). Thread-safe.
    RayHit closest(Vec3 origin, Vec3 direction, float tNear, float tFar) const;
    // Closest hits of `count` (<= 16) rays with their own origins and directions, traced as one packet
    // (fast for coherent rays, e.g. the luxels of one surface; `coherent` tells Embree so). Thread-safe.
    void closest(const Vec3* origins, const Vec3* directions, int count, float tNear, float tFar, RayHit* hits,
                 bool coherent = false) const;
    // Whether a shadow caster lies on the ray over [tNear, tFar) (any hit, not the closest). Thread-safe.
    bool occluded(Vec3 origin, Vec3 direction, float tNear, float tFar, ShadowRay kind = ShadowRay::Light) const;
    // `count` (<= 16) shadow rays with their own origins, unit directions and far ends, traced as one packet:
    // bit i of the result is set when ray i is blocked, by the same rules as occluded(). With `tint`, tint[i]
    // gets what tinting surfaces (ShadowCast::Tint) the ray crosses leave of its light (1 1 1: none). Thread-safe.
    uint32_t occluded(const Vec3* origins, const Vec3* directions, const float* tFar, int count, float tNear,
                      ShadowRay kind = ShadowRay::Light, Vec3* tint = nullptr) const;
    // Every hit of one ray over [tNear, tFar) (the first kMaxHits found), sorted by distance then triangle:
    // coplanar surfaces (decals, duplicated faces) all show up, where intersect() returns one of them.
    // Thread-safe; no allocation.
    static constexpr size_t kMaxHits = 16;
    struct Hits {
        std::array<RayHit, kMaxHits> hits;
        size_t count = 0;
        const RayHit* begin() const { return hits.data(); }
        const RayHit* end() const { return hits.data() + count; }
    };
    Hits allHits(Vec3 origin, Vec3 direction, float tNear, float tFar) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace luxel
