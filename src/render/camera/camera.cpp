#include "luxel/render/camera.hpp"

#include <algorithm>
#include <cmath>

namespace luxel {

View makeView(const Camera& camera) {
    View v;
    angleVectors(camera.angles, v.forward, v.right, v.up);
    float fov = std::clamp(camera.fovX, kMinFov, kMaxFov);
    int w = std::max(camera.width, 1), h = std::max(camera.height, 1);
    v.tanHalfX = float(std::tan(double(degToRad(fov)) * 0.5));
    v.tanHalfY = v.tanHalfX * float(h) / float(w);  // square pixels: vertical extent from the aspect

    const Vec3 e = camera.position;
    auto row = [&](float* r, Vec3 axis, float scale, float offset) {
        r[0] = axis.x * scale;
        r[1] = axis.y * scale;
        r[2] = axis.z * scale;
        r[3] = -dot(axis, e) * scale + offset;
    };
    row(v.viewProjection.m[0], v.right, 1.0f / v.tanHalfX, 0);
    row(v.viewProjection.m[1], v.up, 1.0f / v.tanHalfY, 0);
    // z is the depth past the near plane (>= 0 in front of it); w is the depth along forward.
    row(v.viewProjection.m[2], v.forward, 1.0f, -camera.nearPlane);
    row(v.viewProjection.m[3], v.forward, 1.0f, 0);

    auto plane = [&](Vec3 n, float extra) {
        Vec3 u = normalize(n);
        return Plane{u, dot(u, e) + extra};
    };
    v.frustum[0] = plane(v.right + v.forward * v.tanHalfX, 0);   // left
    v.frustum[1] = plane(-v.right + v.forward * v.tanHalfX, 0);  // right
    v.frustum[2] = plane(v.up + v.forward * v.tanHalfY, 0);      // bottom
    v.frustum[3] = plane(-v.up + v.forward * v.tanHalfY, 0);     // top
    v.frustum[4] = Plane{v.forward, dot(v.forward, e) + camera.nearPlane};
    return v;
}

}  // namespace luxel
