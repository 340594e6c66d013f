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
std::optional<RgbaImage> decodeJpegRgba(std::span<const uint8_t> bytes, const std::string& name);

}  // namespace luxel
