#pragma once
// How Source's lights (World::lights of a Source map, decoded from its worldlights lump) arrive at a point,
// the way vrad computes direct light (utils/vrad/lightmap.cpp, Source SDK 2013), and how vrad folds direct
// light into a leaf ambient cube (utils/vrad/leaf_ambient_lighting.cpp). Units: Light::intensity x colour is
// the worldlight intensity as stored, which is luxel's linear lightmap unit (source/worldlights.cpp says why),
// so an arrival is the luxel value the light gives before shadowing.
//
// For the baker: vrad samples a luxel one unit off its face along the face normal
// (ComputeIlluminationPointAndNormalsSSE), lets the lights of clusters the luxel's cluster sees light it (PVS),
// counts a sun or sky direction only when its ray reaches a sky face, and softens suns over the
// light_environment's SunSpreadAngle (30 jittered rays); none of that is in these functions.
#include <vector>

#include "luxel/light/light_grid.hpp"
#include "luxel/light/lights.hpp"

namespace luxel {

// vrad's direct light from `light` at `point` on a surface with unit `normal` (GatherSampleLightSSE), occlusion
// left out. A zero normal means no receiver angle (grid and ambient cube points): the cosine term is 1 and the
// cube combination below applies its own. With d the distance to the light, L = toLight, c = max(0, n . L):
//  * Point (GatherSampleStandardLightSSE, emit_point): c / (constant + linear e + quadratic e^2), e = min(max(d,
//    1), falloffCap); times the quintic fade s^3 (s (6 s - 15) + 10), s = 1 - clamp((e - fadeStart) /
//    (fadeEnd - fadeStart)), and nothing past fadeEnd, when fadeEnd > fadeStart.
//  * Spot (emit_spotlight): as Point, times the cone cosine k = -L . direction, nothing unless k > spotCosOuter,
//    and between the cones (k <= spotCosInner) times clamp((k - outer) / (inner - outer))^spotExponent (the
//    power only for exponents other than 0 and 1).
//  * Area (emit_surface): c k / d^2 with k = max(0, -L . normal), d not clamped. With a zero normal it is
//    AddEmitSurfaceLights' form instead: nothing when k <= 0.01 (ON_EPSILON / 10) or past a non-zero radius.
//  * Point with Falloff::Linear (emit_quakelight; vrad itself refuses these, the engine's
//    Engine_WorldLightDistanceFalloff): c x max(0, 1 - d / range).
//  * Sun (GatherSampleSkyLightSSE, emit_skylight): max(0, -n . direction), at infinite distance.
//  * Sky (emit_skyambient): nothing. It is a hemisphere integral; bake the suns of expandSkyLights
//    (light/sky_dome.hpp), which this function evaluates as Suns.
// All times intensity x colour. Non-finite results (hostile values) give no light.
LightArrival sourceLightArrival(const Light& light, Vec3 point, Vec3 normal);
// The same over a batch of points (ArrivalFn).
void sourceLightArrivals(const Light& light, const Vec3* points, const Vec3* normals, size_t count, LightArrival* out);

// An ambient cube sample from direct light the way vrad builds a leaf's (ComputeAmbientFromSphericalSamples
// and AddEmitSurfaceLights): side i (+X, -X, +Y, -Y, +Z, -Z) gets every arrival's colour times
// max(0, axis_i . toLight). The arrivals must come from sourceLightArrival with a zero normal and be
// unoccluded. vrad adds direct light to its cubes only for the lights with Light::inProbes: the dim surface
// lights it flags DWL_FLAGS_INAMBIENTCUBE and the sky ambient light (whose dome suns give each side
// intensity x the cosine-weighted share of the sky it sees, as vrad's sums over its 162 directions do);
// everything else reaches vrad's cubes only as light bounced off lit surfaces, which is not direct light.
AmbientCube sourceAmbientCube(const std::vector<LightArrival>& arrivals);

}  // namespace luxel
