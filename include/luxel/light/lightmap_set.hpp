#pragma once
// A map's lightmaps as one set of pages laid out like World's: the light of every style slot and the light
// direction pages. The light baker makes them; the map writers and image writers take them.
#include <array>
#include <vector>

#include "luxel/bsp/world.hpp"

namespace luxel {

// A texel of a page with no light of its own, and the rectangle (x, y, width, height: its surface's lightmap)
// its neighbours must lie in.
struct LightmapHole {
    int32_t page = 0, x = 0, y = 0;
    std::array<int32_t, 4> rect{};
};

struct LightmapSet {
    // slots[0] like World::lightmaps, slots[k] like World::extraLightmapSlots[k - 1] (empty: no surface
    // uses slot k). Slot k of a surface holds the light of style Surface::styles[k].
    std::array<std::vector<LightmapPage>, 4> slots;
    // Like World::deluxemaps: unit vectors towards the light per texel of slots[0]; empty when the map has none.
    std::vector<LightmapPage> deluxe;
    // Like slots[0]: the per-texel floor style 0 is raised to after bounce (DirectBakeRules::floorAfterBounce);
    // empty when the baker raised the light itself.
    std::vector<LightmapPage> floor;
    // The texels that are holes (DirectBakeRules::fillSolidSamples): they took their neighbours' light, and a
    // bounce added later must be filled the same way (fillHoles).
    std::vector<LightmapHole> holes;
};

// Each hole takes the mean of its 8-connected neighbours within its rectangle that are not holes (or were
// filled in an earlier round), round after round until no hole can be filled. One slot's pages (call it per slot).
void fillHoles(std::vector<LightmapPage>& pages, const std::vector<LightmapHole>& holes);

// Every texel of `pages` raised per channel to the same texel of `floor` (pages laid out alike).
void raiseToFloor(std::vector<LightmapPage>& pages, const std::vector<LightmapPage>& floor);

// Every texel whose brightest channel passes `top` scaled down to it, hue kept (the clamp of a compiler that
// stores bytes: ericw-tools' LightFace_ScaleAndClamp, luxel's own byte encoders).
void clampKeepingHue(std::vector<LightmapPage>& pages, float top);

// The set a decoded map stores, its pages moved out of `world` (its slots and deluxe pages are left empty).
LightmapSet takeLightmaps(World& world);

}  // namespace luxel
