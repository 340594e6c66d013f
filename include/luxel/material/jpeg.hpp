#pragma once
// JPEG textures through libjpeg-turbo's TurboJPEG API, decoded straight to RGBA: about twice as fast as the same
// library behind OpenImageIO's reader (scanline calls, an RGB buffer, then the RGBA expansion), with the same
// pixels: the same accurate integer IDCT and fancy upsampling.
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "luxel/material/rgba_image.hpp"

namespace luxel {

// Whether the bytes start with a JPEG's SOI marker and a marker after it.
bool looksLikeJpeg(std::span<const uint8_t> bytes);

// The image at full size, alpha 255. nullopt for what TurboJPEG does not convert to RGB (CMYK and YCCK):
// those go through OpenImageIO. DecodeError (naming `name`) for a damaged file or a size over kMaxTextureSide.
// halvings 1-3: the image at 1/2, 1/4 or 1/8 of its size by libjpeg's scaled IDCT (each side rounded up): the
// inverse transforms, colour conversion and output shrink with it (the entropy decoding does not). Its texels
// are close to the box filter's: about half a level apart on the mean of OpenArena's textures at 1/2 and 1/4, a
// few saturated ones several levels.
std::optional<RgbaImage> decodeJpegRgba(std::span<const uint8_t> bytes, const std::string& name, int halvings = 0);

struct JpegSize {
    int32_t width = 0, height = 0;
};
// The size in the JPEG's header; nullopt for a header TurboJPEG cannot read or a colour space it does not convert.
std::optional<JpegSize> jpegSize(std::span<const uint8_t> bytes);

}  // namespace luxel
