#pragma once
// Direct light into a map's ambient cubes (Source), at the positions of the stored samples
// (World::ambientSamples): each sample is a probe point with no normal; every light the rules let into the
// cubes (DirectBakeRules::cubesTakeFlaggedOnly: only Light::inProbes ones) whose shadow ray is free adds its
// arrival (rules.arrival with a zero normal), and rules.cubeCombine folds the arrivals into six sides.
//
// vrad's leaf ambient lighting (utils/vrad/leaf_ambient_lighting.cpp, Source SDK 2013) puts exactly two
// kinds of direct light into a cube: the sky ambient light along each of its 162 rays whose first hit is a
// sky face (ComputeAmbientFromSurface; the rays' colours are then summed per side with weights
// max(0, ray . axis) over the sum of those weights, ComputeAmbientFromSphericalSamples), and the dim surface
// lights it flags DWL_FLAGS_INAMBIENTCUBE (AddEmitSurfaceLights: intensity x emitter cosine / d^2 x
// max(0, axis . toLight), no PVS, a free line to the light). Every other light reaches vrad's cubes only
// as the light its rays find on lit faces (bounce), which this baker does not make.
//
// Shadow rays: towards a sun (the sky ambient's dome suns, light/sky_dome.hpp) the first surface the ray
// hits must be sky, as vrad's rays; towards any other light nothing may lie on the way (stopping just
// short of the light, which sits on its emitting face). Parallel over samples with TBB, the same bytes for
// any thread count. Stats: the samples counted in gridPoints, the time in gridMs.
#include "luxel/bake/direct_light.hpp"

namespace luxel {

// One cube per World::ambientSamples entry (ProbeKind::Cubes); kind None when the map has no samples or the
// rules no cubeCombine.
ProbeValues bakeCubesDirect(const World& world, const Geometry& geometry, const RayScene& scene,
                            const std::vector<Light>& lights, const DirectBakeRules& rules, DirectBakeStats& stats);

}  // namespace luxel
