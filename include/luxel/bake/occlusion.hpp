#pragma once
// Ambient occlusion of a luxel as ericw-tools' dirt measures it (ltface.cc SetupDirt, LightFace_CalculateDirt,
// Dirt_GetScaleFactor), for the direct baker (DirectBakeRules::occlusion says when and how).
#include <vector>

#include "luxel/bake/direct_light.hpp"

namespace luxel {

// The light a factor of occlusion o leaves: 1 - min(1, min(1, o^gain) x scale); 1 when scale or o is 0.
float occlusionFactor(float occlusion, float scale, float gain);

// The occlusion rays' directions about +z: `azimuths` even turns outside, `elevations` even steps of
// angleDeg inside (ericw-tools' SetupDirt order).
std::vector<Vec3> occlusionDirections(const DirectBakeRules::Occlusion& o);

// How enclosed each of up to 16 points sharing the unit normal n is (0 open .. 1 closed), into out[0 .. count):
// the rays `local` (about +z) turned into ericw-tools' tangent frame of n, o = 1 - mean(min(hit, depth)) / depth;
// sky, misses and translucent surfaces (rules.translucent) count as depth. One packet of parallel rays a
// direction, traced as coherent (light streams them so); a single point's rays go 16 directions a packet.
void occlusionOfPoints(const RayScene& scene, const Geometry& geometry, const DirectBakeRules& rules,
                       const std::vector<Vec3>& local, const Vec3* points, Vec3 n, size_t count, float* out);

}  // namespace luxel
