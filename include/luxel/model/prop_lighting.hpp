#pragma once
// How the engine lights a static prop that has no baked vertex light (no sp_N.vhv in the map, or a prop
// flagged STATIC_PROP_NO_PER_VERTEX_LIGHTING), Source SDK 2013: at load the prop gets a light cache at its
// lighting origin (CStaticProp::PrecacheLighting -> CreateStaticLightingCache), and its colour mesh is
// computed once from that cache's static state (CModelRender::UpdateStaticPropColorData ->
// LightcacheGetStatic(LIGHTCACHEFLAGS_STATIC) -> ComputeModelVertexLightingOld): per vertex, the ambient
// cube evaluated with the vertex normal plus each of at most r_worldlights (4) local lights evaluated at
// the vertex (CStudioRender::ComputeLighting). So the light selection is per prop, the evaluation per vertex,
// which is what this does.
//
// The prop's light state (lightcache.cpp, ComputeStaticLightingForCacheEntry with bStaticProp):
//  * The ambient cube is not the leaf's: with r_radiosity 4 a static prop's cube comes from 162 rays cast
//    from the lighting origin (ComputeAmbientFromSphericalSamples, Quake's anorms directions) that bring
//    back the lightmap light where they hit times the surface's reflectivity, or the sky ambient light
//    (emit_skyambient) where they hit sky; side i = sum max(0, ray . axis_i) radiance / sum of the weights.
//  * Every style-0 world light then goes through AddWorldLightToLightingState: rejected unless the light's
//    cluster is in the origin's PVS; skylights (only the first that gets through) count when a ray from the
//    origin along -normal first hits sky, and then give intensity from -normal; other lights are rejected
//    when the lightcache cell around the origin (32 x 32 x 128 units, ComputeLightcacheBounds) lies wholly
//    past the light's radius (spots and surfaces: its bounding sphere), when their distance falloff times
//    their brightest channel is under r_worldlightmin (0.0002; not surface lights), or when the line from
//    the origin to the light is blocked more than 8 units short of it. A light that passes has
//    illum = falloff x (intensity . (0.299, 0.587, 0.114)); it becomes a local light while fewer than 4 are
//    held (surface lights always qualify, others need illum >= 0.0002), else it replaces the dimmest held
//    one if brighter; the light that is not (or no longer) held is folded into the cube: each side gets
//    intensity x falloff x cone x max(0, axis . direction to the light).
//  * Radii as the engine fixes them at load (Mod_LoadWorldlights): a radius under 1 is recomputed as where
//    the falloff brings |intensity| down to 0.03 (0.015 with HDR lighting), 2000 when it never does; a spot
//    with no attenuation terms gets quadratic 1.
// A vertex: evalCube(cube, n) + for each local light sourceLightArrival(light, p, n), nothing past the
// light's radius for points and spots (the studio renderer's range).
//
// Left out, documented: light styles other than 0 (the engine adds them at run time in the shader), the
// STATIC_PROP leaf sky flag test (the sky trace decides instead), the 8-bit clamp of the colour mesh
// (LinearToVertexLight), and vrad's near-distance clamp and fades that sourceLightArrival keeps (the
// engine's Engine_WorldLightDistanceFalloff has neither; they differ only within 1 unit of a light or for
// lights with a hard falloff).
#include <memory>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/light/light_grid.hpp"
#include "luxel/light/lights.hpp"

namespace luxel {

inline constexpr size_t kPropLocalLights = 4;      // r_worldlights
inline constexpr float kWorldLightMin = 0.0002f;    // r_worldlightmin

struct PropLightState {
    AmbientCube cube{};
    std::vector<Light> locals;        // at most kPropLocalLights, in the order the engine holds them
    std::vector<float> localIllum;    // their illum, for the replacement rule
};

// The world's lights as the engine holds them after loading: radius and spot attenuation fixed up (above).
std::vector<Light> engineWorldLights(const std::vector<Light>& lights, bool hdr);

// Adds one light that passed the visibility tests to `state` (AddWorldLightToLightingState after its
// rejections): local light or ambient cube, by the rules above. `origin` is the lighting origin.
void addPropLight(PropLightState& state, const Light& light, Vec3 origin);

// The light of a prop vertex at `position` with unit `normal`.
Vec3 propVertexLight(const PropLightState& state, Vec3 position, Vec3 normal);

// The engine's light states for lighting origins of one world (the world as the map stores it, before
// props are added: its lit surfaces are what the ambient rays see and what shadows the lights). Builds a ray
// scene of the world's surfaces; thread-safe once built.
class PropLighter {
public:
    explicit PropLighter(const World& world);
    ~PropLighter();
    PropLighter(const PropLighter&) = delete;
    PropLighter& operator=(const PropLighter&) = delete;

    PropLightState state(Vec3 origin) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace luxel
