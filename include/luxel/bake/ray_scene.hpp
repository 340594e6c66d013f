#pragma once
// An Embree scene of every drawn triangle of a map, in exactly the tessellation the renderer uses
// (polygons, meshes, patches, displacements; hidden surfaces and billboards left out), built once per
// map. A hit names the Geometry triangle, so the caller looks up the same lightmap the renderer samples.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "luxel/util/math.hpp"

#include "luxel/bsp/world.hpp"
#include "luxel/geometry/geometry.hpp"

namespace luxel {

struct RayHit {
    bool hit = false;
    uint32_t triangle = 0;  // index into Geometry::indices / 3
    float u = 0, v = 0;     // barycentrics of the triangle's 2nd and 3rd vertex
    float t = 0;            // distance along the (unit) direction
};

class RayScene {
public:
    RayScene(const World& world, const Geometry& geometry);
    ~RayScene();
    RayScene(RayScene&&) noexcept;
    RayScene& operator=(RayScene&&) noexcept;
    RayScene(const RayScene&) = delete;
    RayScene& operator=(const RayScene&) = delete;

    static constexpr uint32_t kNoSurface = 0xffffffffu;
    // Surface of each Geometry triangle (index = triangle); kNoSurface for a triangle no surface lists.
    const std::vector<uint32_t>& triangleSurface() const;
    size_t triangleCount() const;
    double buildMs() const;

    // Closest hits of `count` rays (count <= 16) sharing one origin, directions unit length, over
    // [tNear, tFar). Thread-safe.
    void intersect(Vec3 origin, const Vec3* directions, int count, float tNear, float tFar, RayHit* hits) const;
    // The closest hit of one ray over [tNear, tFar). Thread-safe.
    RayHit closest(Vec3 origin, Vec3 direction, float tNear, float tFar) const;
    // Closest hits of `count` (<= 16) rays with their own origins and directions, traced as one packet
    // (fast for coherent rays, e.g. the luxels of one surface). Thread-safe.
    void closest(const Vec3* origins, const Vec3* directions, int count, float tNear, float tFar, RayHit* hits) const;
    // Whether anything lies on the ray over [tNear, tFar) (a shadow ray: any hit, not the closest). Thread-safe.
    bool occluded(Vec3 origin, Vec3 direction, float tNear, float tFar) const;
    // The same, passing through the triangles whose entry in `ignore` (indexed by triangle) is non-zero.
    bool occluded(Vec3 origin, Vec3 direction, float tNear, float tFar, const std::vector<uint8_t>& ignore) const;
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
