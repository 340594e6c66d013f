#pragma once
// The image formats luxel encodes and decodes with their reference libraries (libpng + libdeflate,
// libjpeg-turbo, libwebp, stb_image for TGA); image_io.cpp picks one by extension or content and leaves the
// rest to the OpenImageIO module. Each gives the pixels OpenImageIO gives for the same file (the tests
// compare both paths), so which path a file takes never shows in a picture.
#include <cstdint>
#include <ctime>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "luxel/image/image.hpp"

namespace luxel {

// Samples as stored: 8-bit, or 16-bit for the formats that have them (PNG); 1 to 4 channels, top row first.
struct DecodedSamples {
    int width = 0, height = 0, channels = 0;
    std::vector<uint8_t> bytes;     // when 8-bit
    std::vector<uint16_t> words;    // when 16-bit
    bool sixteenBit() const { return !words.empty(); }
};

// Size checks every decoder makes on a header before allocating pixels for it: a side over 16384 is a
// LimitError, and a header may not claim more pixels than its file's bytes can encode (DecodeError).
void checkDecodedSize(int width, int height, int channels, size_t fileBytes, const std::string& name);

// The encoders take 8-bit samples (1 to 4 channels; JPEG 1 or 3) and text pairs to store with them.
std::vector<uint8_t> encodePng(const uint8_t* samples, int width, int height, int channels,
                               const ImageMetadata& metadata);
std::vector<uint8_t> encodeJpeg(const uint8_t* samples, int width, int height, int channels,
                                const ImageMetadata& metadata);
std::vector<uint8_t> encodeWebp(const uint8_t* samples, int width, int height, int channels);

bool looksLikePng(std::span<const uint8_t> bytes);
bool looksLikeWebp(std::span<const uint8_t> bytes);
// Each throws DecodeError (naming `name`) for a damaged file.
DecodedSamples decodePng(std::span<const uint8_t> bytes, const std::string& name);
// nullopt for CMYK and YCCK JPEGs, which TurboJPEG does not convert: those are OpenImageIO's.
std::optional<DecodedSamples> decodeJpegSamples(std::span<const uint8_t> bytes, const std::string& name);
DecodedSamples decodeWebp(std::span<const uint8_t> bytes, const std::string& name);
// TGA layouts stb_image decodes as OpenImageIO does (tga_codec.cpp); the rest go to the module.
bool isOwnTga(std::span<const uint8_t> bytes);
DecodedSamples decodeTga(std::span<const uint8_t> bytes, const std::string& name);

// The time stamp written into image files, so the bytes are a function of the input: 1970-01-01 00:00:00 UTC, or
// SOURCE_DATE_EPOCH's moment when set. As a broken-down UTC time, and as "YYYY:MM:DD HH:MM:SS" (EXR, TIFF).
std::tm reproducibleTime();
std::string reproducibleDateTime();

}  // namespace luxel
