// WebP through libwebp: lossy at quality 95 with OpenImageIO's writer's settings, and decoded to RGB or RGBA.
#include <webp/decode.h>
#include <webp/encode.h>

#include <cstring>

#include "codecs.hpp"
#include "luxel/util/error.hpp"

namespace luxel {

namespace {

constexpr float kQuality = 95.0f;

int appendBytes(const uint8_t* data, size_t size, const WebPPicture* picture) {
    auto* out = static_cast<std::vector<uint8_t>*>(picture->custom_ptr);
    out->insert(out->end(), data, data + size);
    return 1;
}

}  // namespace

std::vector<uint8_t> encodeWebp(const uint8_t* samples, int width, int height, int channels) {
    if (channels != 3 && channels != 4) throw UsageError("WebP holds 3 or 4 channels, not " + std::to_string(channels));
    // OpenImageIO's settings: libwebp's defaults, its slowest and best method (6), quality 95.
    WebPConfig config;
    if (!WebPConfigInit(&config)) throw UsageError("WebP: wrong libwebp version");
    config.method = 6;
    config.quality = kQuality;
    // Colour under zero alpha kept too: alpha is coverage beside colour, not a licence to drop it.
    config.exact = 1;
    WebPPicture picture;
    if (!WebPPictureInit(&picture)) throw UsageError("WebP: wrong libwebp version");
    picture.width = width;
    picture.height = height;
    const int stride = width * channels;
    const int imported = channels == 4 ? WebPPictureImportRGBA(&picture, samples, stride)
                                       : WebPPictureImportRGB(&picture, samples, stride);
    if (!imported) {
        WebPPictureFree(&picture);
        throw std::bad_alloc();
    }
    std::vector<uint8_t> out;
    picture.writer = appendBytes;
    picture.custom_ptr = &out;
    const bool ok = WebPEncode(&config, &picture);
    const WebPEncodingError error = picture.error_code;
    WebPPictureFree(&picture);
    if (!ok) throw UsageError("WebP: encoding failed (libwebp error " + std::to_string(int(error)) + ")");
    return out;
}

bool looksLikeWebp(std::span<const uint8_t> bytes) {
    return bytes.size() >= 12 && std::memcmp(bytes.data(), "RIFF", 4) == 0 &&
           std::memcmp(bytes.data() + 8, "WEBP", 4) == 0;
}

DecodedSamples decodeWebp(std::span<const uint8_t> bytes, const std::string& name) {
    WebPBitstreamFeatures features;
    if (WebPGetFeatures(bytes.data(), bytes.size(), &features) != VP8_STATUS_OK)
        throw DecodeError(name, "image", 0, "cannot decode WebP header");
    DecodedSamples image;
    image.width = features.width, image.height = features.height, image.channels = features.has_alpha ? 4 : 3;
    checkDecodedSize(image.width, image.height, image.channels, bytes.size(), name);
    image.bytes.resize(size_t(image.width) * size_t(image.height) * size_t(image.channels));
    const int stride = image.width * image.channels;
    const uint8_t* done =
        image.channels == 4
            ? WebPDecodeRGBAInto(bytes.data(), bytes.size(), image.bytes.data(), image.bytes.size(), stride)
            : WebPDecodeRGBInto(bytes.data(), bytes.size(), image.bytes.data(), image.bytes.size(), stride);
    if (!done) throw DecodeError(name, "image", 0, "cannot decode WebP image data");
    return image;
}

}  // namespace luxel
