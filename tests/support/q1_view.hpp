#pragma once
// A synthetic Quake 1 map seen straight down through a narrow view, as the Quake 1 render tests look at it.
#include <string>

#include "luxel/image/image.hpp"
#include "support/q1_writer.hpp"

namespace luxel::test {

// The map seen from 300 units above (32, 16) (face 0's middle on the floor map) looking down through a `fov`
// degree view of size x size pixels in `mode`, engine look, float pixels (no display rounding): every pixel on
// face 0 is 300 deep in eye space.
Image q1TopDownView(const Q1MapBuilder& map, const std::string& mode, float fov, int size);

// The floor map's face 0 (x 0..64) moved out of the world into a func_wall (model *1) with these keys (lines of
// "key" "value"), appended to the map's entities.
void moveFloorFaceToFuncWall(Q1MapBuilder& map, const std::string& wallKeys);

}  // namespace luxel::test
