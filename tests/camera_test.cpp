#include <catch2/catch.hpp>

#include <cmath>

#include "luxel/render/camera.hpp"

using namespace luxel;

namespace {

void requireVec(Vec3 a, Vec3 b, float eps = 1e-6f) {
    INFO("got (" << a.x << ", " << a.y << ", " << a.z << ") expected (" << b.x << ", " << b.y << ", " << b.z << ")");
    REQUIRE(std::fabs(a.x - b.x) <= eps);
    REQUIRE(std::fabs(a.y - b.y) <= eps);
    REQUIRE(std::fabs(a.z - b.z) <= eps);
}

Camera cam(Vec3 pos, Vec3 angles, int w = 1920, int h = 1080, float fov = 90) {
    Camera c;
    c.position = pos;
    c.angles = angles;
    c.width = w;
    c.height = h;
    c.fovX = fov;
    return c;
}

// Normalised device coordinates of a world point: x right, y up, both in [-1, 1] on screen.
Vec3 ndc(const View& v, Vec3 p) {
    Vec4 c = transform(v.viewProjection, p);
    return {c.x / c.w, c.y / c.w, c.w};
}

}  // namespace

TEST_CASE("angleVectors: identity angles look down +X with Z up", "[camera]") {
    Vec3 f, r, u;
    angleVectors({0, 0, 0}, f, r, u);
    requireVec(f, {1, 0, 0});
    requireVec(r, {0, -1, 0});  // Quake: +Y is to the left when looking down +X
    requireVec(u, {0, 0, 1});
}

TEST_CASE("angleVectors: yaw 90 looks +Y, yaw 180 looks -X", "[camera]") {
    Vec3 f, r, u;
    angleVectors({0, 90, 0}, f, r, u);
    requireVec(f, {0, 1, 0});
    requireVec(r, {1, 0, 0});
    requireVec(u, {0, 0, 1});
    angleVectors({0, 180, 0}, f, r, u);
    requireVec(f, {-1, 0, 0});
    requireVec(r, {0, 1, 0});
}

TEST_CASE("angleVectors: positive pitch looks down", "[camera]") {
    Vec3 f, r, u;
    angleVectors({90, 0, 0}, f, r, u);
    requireVec(f, {0, 0, -1});
    requireVec(u, {1, 0, 0});  // top of the screen points where we were looking
    angleVectors({-90, 0, 0}, f, r, u);
    requireVec(f, {0, 0, 1});
    angleVectors({45, 0, 0}, f, r, u);
    requireVec(f, {float(std::sqrt(0.5)), 0, -float(std::sqrt(0.5))});
}

TEST_CASE("angleVectors: positive roll tilts the right side down", "[camera]") {
    Vec3 f, r, u;
    angleVectors({0, 0, 90}, f, r, u);
    requireVec(f, {1, 0, 0});
    requireVec(r, {0, 0, -1});
    requireVec(u, {0, -1, 0});
}

TEST_CASE("angleVectors: general angles give the spherical forward and an orthonormal basis", "[camera]") {
    const float p = 30, y = 45, ro = 10;
    Vec3 f, r, u;
    angleVectors({p, y, ro}, f, r, u);
    double pr = p * M_PI / 180, yr = y * M_PI / 180;
    requireVec(f, {float(std::cos(pr) * std::cos(yr)), float(std::cos(pr) * std::sin(yr)), float(-std::sin(pr))}, 1e-6f);
    REQUIRE(dot(f, r) == Approx(0).margin(1e-6));
    REQUIRE(dot(f, u) == Approx(0).margin(1e-6));
    REQUIRE(dot(r, u) == Approx(0).margin(1e-6));
    REQUIRE(length(r) == Approx(1).epsilon(1e-6));
    REQUIRE(length(u) == Approx(1).epsilon(1e-6));
    // Quake's basis is left-handed in (forward, right, up): forward x right = -up.
    requireVec(cross(f, r), -u, 1e-6f);
}

TEST_CASE("makeView: a point straight ahead projects to the image centre", "[camera]") {
    Camera c = cam({100, -50, 30}, {20, 135, 5});
    View v = makeView(c);
    Vec3 p = c.position + v.forward * 250.0f;
    Vec3 n = ndc(v, p);
    REQUIRE(n.x == Approx(0).margin(1e-5));
    REQUIRE(n.y == Approx(0).margin(1e-5));
    REQUIRE(n.z == Approx(250).epsilon(1e-5));  // w is depth along forward
}

TEST_CASE("makeView: the horizontal FOV edge maps to the image edge, vertical from the aspect", "[camera]") {
    Camera c = cam({0, 0, 0}, {0, 0, 0}, 1920, 1080, 90);
    View v = makeView(c);
    // fov 90: 45 degrees right of forward is the right edge. Right is -Y at yaw 0.
    Vec3 n = ndc(v, {100, -100, 0});
    REQUIRE(n.x == Approx(1).epsilon(1e-6));
    REQUIRE(n.y == Approx(0).margin(1e-6));
    n = ndc(v, {100, 100, 0});
    REQUIRE(n.x == Approx(-1).epsilon(1e-6));
    // Vertical half-extent at depth 100 is 100 * 1080/1920 = 56.25 (square pixels).
    n = ndc(v, {100, 0, 56.25f});
    REQUIRE(n.y == Approx(1).epsilon(1e-6));
    REQUIRE(v.tanHalfX == Approx(1).epsilon(1e-6));
    REQUIRE(v.tanHalfY == Approx(0.5625).epsilon(1e-6));

    Camera c60 = cam({0, 0, 0}, {0, 90, 0}, 800, 600, 60);
    View v60 = makeView(c60);
    // Looking +Y: right is +X; tan(30 deg) to the right is the edge.
    n = ndc(v60, {float(std::tan(M_PI / 6)) * 10, 10, 0});
    REQUIRE(n.x == Approx(1).epsilon(1e-5));
}

TEST_CASE("makeView: frustum planes point inside", "[camera]") {
    Camera c = cam({10, 20, 30}, {10, 30, 0}, 640, 480, 90);
    c.nearPlane = 4;
    View v = makeView(c);
    auto inside = [&](Vec3 p) {
        for (const Plane& pl : v.frustum)
            if (dot(pl.normal, p) - pl.dist < 0) return false;
        return true;
    };
    REQUIRE(inside(c.position + v.forward * 100.0f));
    REQUIRE(inside(c.position + v.forward * 100.0f + v.right * 99.0f + v.up * 74.0f));
    REQUIRE_FALSE(inside(c.position + v.forward * 100.0f + v.right * 101.0f));
    REQUIRE_FALSE(inside(c.position + v.forward * 100.0f - v.up * 76.0f));
    REQUIRE_FALSE(inside(c.position - v.forward * 10.0f));
    REQUIRE(inside(c.position + v.forward * 4.01f));
    REQUIRE_FALSE(inside(c.position + v.forward * 3.99f));
}
