#pragma once
// The OpenImageIO module (luxel-oiio.so): everything luxel does with OpenImageIO, loaded with dlopen the first
// time it is needed. Debian's OpenImageIO brings ~260 libraries (OpenCV, FFmpeg, GDAL, ...) that cost every
// process a quarter of a second to load; the formats most work touches (PNG, JPEG, WebP, TGA) are decoded and
// encoded by their reference libraries in luxel itself, and only the rest (EXR, TIFF, HDR, DDS, PSD, ...),
// image comparison come here.
//
// The module is built from src/oiio/ with hidden symbols; what it calls of luxel (errors, file helpers) it
// finds in the executable, which exports luxel's symbols for it. Both come from one build: the table carries
// kOiioModuleAbi, and a module of another build is refused.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "luxel/image/image.hpp"

namespace luxel {

struct ImageDiff;
struct DiffThresholds;

struct OiioModule {
    uint32_t abi;
    // Image files (luxel/image/image.hpp's meanings), for the formats luxel's own codecs leave out.
    std::vector<uint8_t> (*encodeImage)(const std::string& path, const Image& image, const ImageMetadata& metadata);
    Image (*decodeImage)(std::span<const uint8_t> bytes, const std::string& name);
    ByteImage (*decodeImageBytes)(std::span<const uint8_t> bytes, const std::string& name);
    Image (*readImage)(const std::string& path);
    // Image comparison (luxel/diff/diff.hpp).
    ImageDiff (*diffImageFiles)(const std::string& a, const std::string& b, const DiffThresholds& thresholds);
    ImageDiff (*diffImages)(const Image& a, const Image& b, const std::string& name, const DiffThresholds& thresholds);
};

// Changed whenever OiioModule or a type it passes changes shape.
inline constexpr uint32_t kOiioModuleAbi = 2;

// The module's entry point, the one symbol it exports.
extern "C" const OiioModule* luxel_oiio_module();
inline constexpr const char* kOiioModuleEntry = "luxel_oiio_module";

// The loaded module; loads it on the first call (thread-safe). `purpose` says what needs it ("reading
// image.exr"): a module that is missing or from another build is a UsageError naming it, where the module was
// looked for and why it could not be used. Looked for at $LUXEL_OIIO_MODULE when set, else beside the
// executable (luxel-oiio.so), else in ../lib/luxel/ from it.
const OiioModule& oiioModule(const std::string& purpose);

// Whether the module is loaded in this process already (start-up figures, tests).
bool oiioModuleLoaded();

}  // namespace luxel
