#pragma once
// The OpenImageIO module's functions, one per entry of its table (luxel/image/oiio_module.hpp); each has the
// meaning of the luxel function of the same name.
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "luxel/image/oiio_module.hpp"

namespace luxel::oiio {

std::vector<uint8_t> encodeImage(const std::string& path, const Image& image, const ImageMetadata& metadata);
Image decodeImage(std::span<const uint8_t> bytes, const std::string& name);
ByteImage decodeImageBytes(std::span<const uint8_t> bytes, const std::string& name);
Image readImage(const std::string& path);

ImageDiff diffImageFiles(const std::string& a, const std::string& b, const DiffThresholds& thresholds);
ImageDiff diffImages(const Image& a, const Image& b, const std::string& name, const DiffThresholds& thresholds);

}  // namespace luxel::oiio
