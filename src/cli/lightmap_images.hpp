#pragma once
// Lightmap pages as images, shared by `luxel lightmaps` (the stored pages) and `luxel bake -o` (the baked
// ones): maps with several light styles get one folder per style (style_NNN/), each page holding that
// style's light alone; others get the pages directly. Pages are lm_NNNN.<ext>; pages no surface uses (a
// deluxe map's direction pages) are skipped.
#include <string>

#include "luxel/bsp/world.hpp"
#include "luxel/light/lightmap_set.hpp"

namespace luxel::cli {

struct LightmapImages {
    size_t pages = 0, styles = 0;
};

// `set` is laid out like `world`'s pages; `ext` is ".png", ".exr", ...; `engineLook`: the map's display look
// (overbright, clamp, gamma), else linear light. Throws UsageError when a folder or file cannot be written.
LightmapImages writeLightmapImages(const World& world, const LightmapSet& set, const std::string& dir,
                                   const std::string& ext, bool engineLook);

}  // namespace luxel::cli
