// Euler angles as the Quake and Source games read them from entities.
#include <cmath>

#include "luxel/util/math.hpp"

namespace luxel {

// Same formulas as Quake's AngleVectors (q_math.c), so cameras taken from map entities look where the
// game looks. Computed in double and rounded once: the angles come from text and we want yaw 90 to give
// exactly (0,1,0) rather than (-4e-8,1,0).
void angleVectors(Vec3 angles, Vec3& forward, Vec3& right, Vec3& up) {
    auto sincosDeg = [](float deg, double& s, double& c) {
        // Reduce to [0,360) and snap exact quarter turns, where sin/cos of a rounded pi are not exact.
        double d = std::fmod(double(deg), 360.0);
        if (d < 0) d += 360.0;
        if (d == 0) { s = 0; c = 1; return; }
        if (d == 90) { s = 1; c = 0; return; }
        if (d == 180) { s = 0; c = -1; return; }
        if (d == 270) { s = -1; c = 0; return; }
        double r = d * (3.14159265358979323846 / 180.0);
        s = std::sin(r);
        c = std::cos(r);
    };
    double sp, cp, sy, cy, sr, cr;
    sincosDeg(angles.x, sp, cp);
    sincosDeg(angles.y, sy, cy);
    sincosDeg(angles.z, sr, cr);
    forward = {float(cp * cy), float(cp * sy), float(-sp)};
    right = {float(-sr * sp * cy + cr * sy), float(-sr * sp * sy - cr * cy), float(-sr * cp)};
    up = {float(cr * sp * cy + sr * sy), float(cr * sp * sy - sr * cy), float(cr * cp)};
}

}  // namespace luxel
