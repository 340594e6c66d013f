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

std::vector<std::string> writeContactSheets(const std::vector<SheetTile>& tiles, const std::string& path,
                                            const SheetOptions& options);
std::shared_ptr<const FittedThumbnail> fitThumbnail(const uint8_t* rgb, int width, int height, int tileWidth,
                                                    int tileHeight);

ImageDiff diffImageFiles(const std::string& a, const std::string& b, const DiffThresholds& thresholds);
ImageDiff diffImages(const Image& a, const Image& b, const std::string& name, const DiffThresholds& thresholds);

bool drawText(Image& image, int x, int y, const std::string& text, int size, const std::string& fontPath,
              TextAlign align);

}  // namespace luxel::oiio
