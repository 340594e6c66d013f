#pragma once
// Light styles: how bright each of a map's (up to 256) light styles is in a rendered frame. Quake 2 and
// Source share the Quake convention: style 0 is normal light, 1..11 animate through strings of a..z
// ('a' = 0, 'm' = 1, 'z' = 25/12) at 10 steps a second, 32..62 are switchable lights.
#include <array>
#include <string>

#include "luxel/bsp/world.hpp"

namespace luxel {

using StyleWeights = std::array<float, 256>;

// The brightness of style `style` at `seconds` (standard patterns; styles without one are steady at 1).
float styleValueAt(int style, double seconds);

// Parses a --styles value:
//   "rest"       the level as it looks at time 0: style 0 at 1, animated styles at their first step,
//                switchable styles on unless a light entity using them starts off (spawnflags bit 1)
//   "time=T"     every style at T seconds (switchable ones as at rest)
//   "S=W,S=W"    explicit weights; styles not listed are 0
// Throws UsageError on anything else.
StyleWeights parseStyleSpec(const std::string& spec, const World& world);

// Light styles present in the map's surfaces (ascending), e.g. {0, 5}.
std::vector<int> stylesInUse(const World& world);

}  // namespace luxel
