#pragma once
// Small numeric helpers the diff's comparisons share (internal to the diff stage).
#include <vector>

#include "luxel/util/math.hpp"

namespace luxel::diffmath {

// Angle between two directions in degrees (atan2 of |a x b| and a . b, so either may be unnormalised:
// exactly 0 for equal vectors, exactly 90 for perpendicular axes); -1 when either has a squared length of
// at most `minLength2` (0: only the zero vector).
double angleDeg(Vec3 a, Vec3 b, double minLength2 = 0);

// The median (the mean of the two middle values for an even count); 0 for none.
double median(std::vector<double> v);

}  // namespace luxel::diffmath
