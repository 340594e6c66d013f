#pragma once
// A sky light (Light::Kind::Sky: light from every direction that reaches the sky) as a set of suns, so the
// baker can trace one shadow ray a direction like for any other light.
//
// The directions are the vertices of a geodesic sphere: an icosahedron (vertices at the cyclic permutations
// of (0, +-1, +-golden ratio)) with each face cut into frequency^2 triangles, every point pushed out to the
// unit sphere: 10 f^2 + 2 directions, 162 at frequency 4, the count of Quake's anorms table that vrad shoots
// its ambient rays along (ComputeAmbientFromSphericalSamples). Every sun carries the same share:
// intensity / S, where S = sum over the directions of max(0, d . axis) is the same for all six axis
// directions (the icosahedron is symmetric under axis flips and cyclic axis swaps). So an open sky gives a
// receiver facing along an axis, and each side of an ambient cube, exactly intensity x colour, as vrad's
// normalised sums do (GatherSampleAmbientSkySSE: visible cosines over all cosines; the cubes: the same over
// the anorms); other normals get within a few percent of it (tests/source_lights_test.cpp measures how far).
#include <vector>

#include "luxel/light/lights.hpp"
#include "luxel/util/math.hpp"

namespace luxel {

inline constexpr int kSkyDomeFrequency = 4;

// The 10 f^2 + 2 unit directions of the geodesic sphere of frequency f >= 1, in a fixed order.
std::vector<Vec3> geodesicDirections(int frequency);

// The suns of one sky light: one per geodesic direction u, travelling along -u (coming from u), each with
// the sky's colour, style and probe flag and intensity sky.intensity / S (above). Non-Sky lights: empty.
std::vector<Light> skyDomeSuns(const Light& sky, int frequency = kSkyDomeFrequency);

// The lights with every Sky light replaced by its suns, in order (what the baker should trace).
std::vector<Light> expandSkyLights(const std::vector<Light>& lights, int frequency = kSkyDomeFrequency);

}  // namespace luxel
