#pragma once
// How the Quake 2 and Quake 3 renderers store an image whose sides are not powers of two.
#include <cstddef>

#include "luxel/material/rgba_image.hpp"

namespace luxel {

// The image at each side's power of two at or below it (r_roundImagesDown / gl_round_down 1, the default),
// resampled as ResampleTexture does; an image of power-of-two sides comes back as it is.
RgbaImage resampleToPowerOfTwo(RgbaImage in);

}  // namespace luxel
