#pragma once
// Catch checks on vectors shared by the light tests.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "luxel/util/math.hpp"

namespace luxel::test {

// Each channel within eps of the expected value, relative to it when it is above 1.
inline void checkNearRelative(Vec3 a, Vec3 b, float eps = 1e-5f) {
    INFO("got " << a.x << " " << a.y << " " << a.z << ", expected " << b.x << " " << b.y << " " << b.z);
    CHECK(std::fabs(a.x - b.x) <= eps * std::max(1.0f, std::fabs(b.x)));
    CHECK(std::fabs(a.y - b.y) <= eps * std::max(1.0f, std::fabs(b.y)));
    CHECK(std::fabs(a.z - b.z) <= eps * std::max(1.0f, std::fabs(b.z)));
}

}  // namespace luxel::test
