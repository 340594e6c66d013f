#pragma once
// Bounce as ericw-tools does it (bounce.cc MakeBounceLights, ltface.cc IndirectLightFace), the Quake 2 way
// of lighting by bounce: after the direct light, every face that bounces becomes one light per style it has
// light in, at its emitter point (light/face_emitter.hpp): its mean light over every texel of its lightmap
// rectangle, times its albedo, times its area, spread by the receivers' and the emitter's cosines over
// max(d, 128)^2, times bouncescale / 2. Each pass lights the map again from the light the previous pass added
// (the first: the direct light). The receivers take it through the direct baker (shadow rays, dirt, holes), so
// this is a few shadow rays per luxel and face instead of a hemisphere gather per luxel.
//
// Which faces bounce and their albedo are the format's rule (light/map_lights.cpp fills FaceBounceModel);
// this file knows no format.
#include <cstdint>
#include <vector>

#include "luxel/bake/direct_light.hpp"

namespace luxel {

struct FaceBounceModel {
    std::vector<bool> emits;   // per world surface: re-emits its light
    std::vector<Vec3> albedo;  // per world surface: the fraction of each channel it re-emits (0..1)
    int bounces = 1;
    float scale = 0.425f;        // ericw-tools: bouncescale x 0.5
    float minDistance = 128;     // its bounce lights' hot-spot clamp
    // Dirt on bounce light (ericw-tools dims bounce like surface lights whenever dirt is in use): 0 none.
    float occlusionScale = 0, occlusionGain = 1;
    // Probe rays per bounce light for its reach (Light::reachMins / reachMaxs; ericw-tools' -visapprox rays);
    // 0: unbounded.
    int probeRays = 256;
};

struct FaceBounceStats {
    size_t lights = 0;                  // bounce lights made, over every pass
    uint64_t shadowRays = 0;
    size_t luxels = 0;
    std::vector<double> meanLuminance;  // of each pass's added light, over every texel of the slot-0 pages
    double ms = 0;
};

// The bounce lights of one pass from `from` (slots laid out like `set.slots`), exposed for tests.
std::vector<Light> faceBounceLights(const World& world, const std::array<std::vector<LightmapPage>, 4>& from,
                                    const FaceBounceModel& model);

// Adds model.bounces passes to every slot of `set` (the direct light, floors not yet applied). `rules`: the
// direct bake's (its floors and ambient are not applied to bounce light); `samples`: its luxelSamples, when the
// caller kept them (null: measured again).
FaceBounceStats bounceFaces(const World& world, const Geometry& geometry, const RayScene& scene, LightmapSet& set,
                            const DirectBakeRules& rules, const FaceBounceModel& model,
                            const LuxelSamples* samples = nullptr);

}  // namespace luxel
