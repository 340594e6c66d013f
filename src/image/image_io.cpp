// Image files by format: PNG, JPEG, WebP and TGA with luxel's own codecs (codecs.hpp), every other format
// through the OpenImageIO module, loaded only then.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "codecs.hpp"
#include "luxel/image/image.hpp"
#include "luxel/image/oiio_module.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/material/jpeg.hpp"
#include "luxel/util/cpu.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"

namespace luxel {
namespace fs = std::filesystem;

namespace {

std::string extensionOf(const std::string& path) { return toLowerAscii(fs::path(path).extension().string()); }

// The densest encoding a decoded image can come from: a 1-bit PNG (8 pixels a byte) deflated at deflate's
// ceiling of about 1032:1. TGA's run-length packets reach 64 pixels a byte, uncompressed formats at most 8.
constexpr uint64_t kMaxPixelsPerByte = 8 * 1032;

}  // namespace

bool isLdrPath(const std::string& path) {
    std::string ext = extensionOf(path);
    return !(ext == ".exr" || ext == ".tif" || ext == ".tiff" || ext == ".hdr" || ext == ".pfm");
}

std::tm reproducibleTime() {
    std::time_t t = 0;
    if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH")) t = std::time_t(std::strtoll(epoch, nullptr, 10));
    std::tm utc{};
    if (!gmtime_r(&t, &utc)) {
        const std::time_t zero = 0;
        gmtime_r(&zero, &utc);
    }
    return utc;
}

std::string reproducibleDateTime() {
    const std::tm utc = reproducibleTime();
    char text[32];
    std::strftime(text, sizeof text, "%Y:%m:%d %H:%M:%S", &utc);
    return text;
}

void checkDecodedSize(int width, int height, int channels, size_t fileBytes, const std::string& name) {
    const std::string size = std::to_string(width) + "x" + std::to_string(height) + "x" + std::to_string(channels);
    // Hostile headers can claim huge sizes; real textures and lightmaps are far below this.
    if (width > 16384 || height > 16384)
        throw LimitError(name, "image", 0, "image size " + size + " is over the limit of 16384 a side");
    if (width <= 0 || height <= 0 || channels <= 0 || channels > 4)
        throw DecodeError(name, "image", 0, "unsupported image size " + size);
    // Below the side limit a header can still claim 16384 x 16384 in a few bytes, and the pixels are allocated
    // before the stream is read: refuse more pixels than the file's bytes can encode.
    if (uint64_t(width) * uint64_t(height) > kMaxPixelsPerByte * uint64_t(fileBytes) + 65536)
        throw DecodeError(name, "image", 0,
                          "image size " + size + " claims more pixels than its " + std::to_string(fileBytes) +
                              " bytes can hold");
}

namespace {

// One display byte: the value clamped to [0, 1] (NaN and infinities as 0), times 255 in float, rounded half up
// (lround of the float product: the product plus one half is exact in double, and truncating a non-negative
// value is rounding it down).
inline uint8_t displayByte(float v) {
    v = std::isfinite(v) ? std::clamp(v, 0.0f, 1.0f) : 0.0f;
    return uint8_t(double(v * 255.0f) + 0.5);
}

}  // namespace

namespace {

#if defined(__x86_64__)
// toDisplayBytes' arithmetic on 8 values (see there), as 8 int32.
__attribute__((target("avx2"))) inline __m256i displayInts8(const float* in) {
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f), scale = _mm256_set1_ps(255.0f),
                 half = _mm256_set1_ps(0.5f);
    __m256 v = _mm256_loadu_ps(in);
    v = _mm256_and_ps(v, _mm256_cmp_ps(_mm256_sub_ps(v, v), zero, _CMP_EQ_OQ));
    v = _mm256_min_ps(_mm256_max_ps(v, zero), one);
    const __m256 p = _mm256_mul_ps(v, scale);
    const __m256i whole = _mm256_cvttps_epi32(p);
    const __m256 up = _mm256_cmp_ps(_mm256_sub_ps(p, _mm256_cvtepi32_ps(whole)), half, _CMP_GE_OQ);
    return _mm256_sub_epi32(whole, _mm256_castps_si256(up));
}

// 32 values a step; returns how many were done.
__attribute__((target("avx2"))) size_t toDisplayBytesAvx2(const float* in, uint8_t* out, size_t n) {
    // The packs interleave the 128-bit lanes; this puts the 4-byte groups back in order.
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m256i ab = _mm256_packs_epi32(displayInts8(in + i), displayInts8(in + i + 8));
        const __m256i cd = _mm256_packs_epi32(displayInts8(in + i + 16), displayInts8(in + i + 24));
        const __m256i bytes = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(ab, cd), order);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), bytes);
    }
    return i;
}
#endif

}  // namespace

// displayByte of n values, 32 at a time with AVX2 and four at a time with SSE2: with p = v x 255 in [0, 255],
// p + 1/2 rounded down is trunc(p) plus one when p - trunc(p) (exact) is at least one half, the same byte with
// no double.
void toDisplayBytes(const float* in, uint8_t* out, size_t n) {
    size_t i = 0;
#if defined(__x86_64__)
    if (useAvx2()) i = toDisplayBytesAvx2(in, out, n);
#endif
#if defined(__SSE2__)
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f), scale = _mm_set1_ps(255.0f), half = _mm_set1_ps(0.5f);
    for (; i + 4 <= n; i += 4) {
        __m128 v = _mm_loadu_ps(in + i);
        v = _mm_and_ps(v, _mm_cmpeq_ps(_mm_sub_ps(v, v), zero));  // v - v is 0 only for finite v
        v = _mm_min_ps(_mm_max_ps(v, zero), one);
        const __m128 p = _mm_mul_ps(v, scale);
        const __m128i whole = _mm_cvttps_epi32(p);
        const __m128 up = _mm_cmpge_ps(_mm_sub_ps(p, _mm_cvtepi32_ps(whole)), half);
        const __m128i rounded = _mm_sub_epi32(whole, _mm_castps_si128(up));  // up is -1 where set
        const __m128i packed = _mm_packus_epi16(_mm_packs_epi32(rounded, rounded), _mm_setzero_si128());
        const int bytes = _mm_cvtsi128_si32(packed);
        std::memcpy(out + i, &bytes, 4);
    }
#endif
    for (; i < n; ++i) out[i] = displayByte(in[i]);
}

std::vector<uint8_t> displayBytes(const Image& image, bool dropAlpha) {
    dropAlpha = dropAlpha && image.channels == 4;
    const int channels = dropAlpha ? 3 : image.channels;
    std::vector<uint8_t> bytes(size_t(image.width) * size_t(image.height) * size_t(channels));
    // Rows in parallel (each value on its own, so the bytes are the same for any split): the image's encoding
    // is otherwise serial, and a thumbnail service waits for it.
    const size_t row = size_t(image.width) * size_t(channels);
    tbb::parallel_for(tbb::blocked_range<size_t>(0, size_t(image.height), 16), [&](const tbb::blocked_range<size_t>& rows) {
        if (!dropAlpha) {
            toDisplayBytes(image.pixels.data() + rows.begin() * row, bytes.data() + rows.begin() * row, rows.size() * row);
            return;
        }
        for (size_t i = rows.begin() * row; i < rows.end() * row; ++i) bytes[i] = displayByte(image.pixels[i / 3 * 4 + i % 3]);
    });
    return bytes;
}

namespace {

bool isJpegName(const std::string& ext) { return ext == ".jpg" || ext == ".jpeg"; }

// Whether luxel's own codecs write `channels` samples to a file of this extension.
bool ownWriter(const std::string& ext, int channels) {
    return (ext == ".png" && channels <= 4) || (isJpegName(ext) && channels != 2) || (ext == ".webp" && channels >= 3);
}

// The own codec's bytes; JPEG takes the first three of four channels (its RGB: JPEG has no alpha).
Bytes encodeOwn(const std::string& path, const std::string& ext, const uint8_t* samples, int width, int height,
                int channels, const ImageMetadata& metadata) {
    try {
        if (ext == ".png") return encodePng(samples, width, height, channels, metadata);
        if (isJpegName(ext)) return encodeJpeg(samples, width, height, channels, metadata);
        return encodeWebp(samples, width, height, channels);
    } catch (const UsageError& e) {
        throw UsageError(path + ": cannot write: " + e.what());
    }
}

}  // namespace

std::optional<Bytes> encodeOwnFormat(const std::string& path, const uint8_t* samples, int width, int height, int channels,
                                     const ImageMetadata& metadata) {
    const std::string ext = extensionOf(path);
    if (!ownWriter(ext, channels)) return std::nullopt;
    if (isJpegName(ext) && channels == 4) {
        std::vector<uint8_t> rgb(size_t(width) * size_t(height) * 3);
        for (size_t i = 0, n = size_t(width) * size_t(height); i < n; ++i)
            std::copy_n(samples + i * 4, 3, rgb.data() + i * 3);
        return encodeOwn(path, ext, rgb.data(), width, height, 3, metadata);
    }
    return encodeOwn(path, ext, samples, width, height, channels, metadata);
}

Bytes encodeImage(const std::string& path, const Image& image, const ImageMetadata& metadata) {
    if (image.width <= 0 || image.height <= 0 || image.channels <= 0) throw UsageError(path + ": empty image");
    const std::string ext = extensionOf(path);
    if (ext.empty()) throw UsageError(path + ": no file extension to choose an image format by");
    if (!ownWriter(ext, image.channels)) return oiioModule("writing " + path).encodeImage(path, image, metadata);
    // JPEG has no alpha: a 4-channel image (RGB + coverage alpha) is written as its RGB there.
    const bool dropAlpha = isJpegName(ext) && image.channels == 4;
    const std::vector<uint8_t> display = displayBytes(image, dropAlpha);
    return encodeOwn(path, ext, display.data(), image.width, image.height, dropAlpha ? 3 : image.channels, metadata);
}

void writeImage(const std::string& path, const Image& image, const ImageMetadata& metadata) {
    writeFileAtomic(path, encodeImage(path, image, metadata));
}

Image floatsOf(const ByteImage& image) {
    Image out = Image::uninitialized(image.width, image.height, image.channels);
    for (size_t i = 0; i < image.bytes.size(); ++i) out.pixels[i] = float(image.bytes[i]) / 255.0f;
    return out;
}

ByteImage toDisplayImage(const Image& image) { return {image.width, image.height, image.channels, displayBytes(image)}; }

Bytes encodeImage(const std::string& path, const ByteImage& image, const ImageMetadata& metadata) {
    if (image.width <= 0 || image.height <= 0 || image.channels <= 0) throw UsageError(path + ": empty image");
    const std::string ext = extensionOf(path);
    if (ext.empty()) throw UsageError(path + ": no file extension to choose an image format by");
    if (std::optional<Bytes> own = encodeOwnFormat(path, image.bytes.data(), image.width, image.height, image.channels, metadata))
        return std::move(*own);
    return encodeImage(path, floatsOf(image), metadata);
}

void writeImage(const std::string& path, const ByteImage& image, const ImageMetadata& metadata) {
    writeFileAtomic(path, encodeImage(path, image, metadata));
}

namespace {

// luxel's own decoding of these bytes, or nullopt for the module's formats. PNG, JPEG and WebP are known by their
// signatures; TGA has none, so by name (and only the layouts stb_image reads as OpenImageIO does).
std::optional<DecodedSamples> decodeOwn(std::span<const uint8_t> bytes, const std::string& name) {
    if (looksLikePng(bytes)) return decodePng(bytes, name);
    if (looksLikeJpeg(bytes)) return decodeJpegSamples(bytes, name);
    if (looksLikeWebp(bytes)) return decodeWebp(bytes, name);
    if (extensionOf(name) == ".tga" && isOwnTga(bytes)) return decodeTga(bytes, name);
    return std::nullopt;
}

// Samples to floats as OpenImageIO converts them: times the reciprocal of the largest value, in float.
Image toFloat(const DecodedSamples& s) {
    Image image = Image::uninitialized(s.width, s.height, s.channels);
    if (s.sixteenBit()) {
        const float scale = 1.0f / 65535.0f;
        std::transform(s.words.begin(), s.words.end(), image.pixels.begin(), [&](uint16_t v) { return float(v) * scale; });
    } else {
        const float scale = 1.0f / 255.0f;
        std::transform(s.bytes.begin(), s.bytes.end(), image.pixels.begin(), [&](uint8_t v) { return float(v) * scale; });
    }
    return image;
}

}  // namespace

Image decodeImage(std::span<const uint8_t> bytes, const std::string& name) {
    if (std::optional<DecodedSamples> own = decodeOwn(bytes, name)) return toFloat(*own);
    return oiioModule("reading " + name).decodeImage(bytes, name);
}

ByteImage decodeImageBytes(std::span<const uint8_t> bytes, const std::string& name) {
    std::optional<DecodedSamples> own = decodeOwn(bytes, name);
    if (!own) return oiioModule("reading " + name).decodeImageBytes(bytes, name);
    ByteImage image{own->width, own->height, own->channels, std::move(own->bytes)};
    if (own->sixteenBit()) {
        // Rounded to the nearest of 255 steps, as OpenImageIO converts 16 bits to 8.
        image.bytes.resize(own->words.size());
        std::transform(own->words.begin(), own->words.end(), image.bytes.begin(),
                       [](uint16_t v) { return uint8_t((uint32_t(v) + 128) / 257); });
    }
    return image;
}

Image readImage(const std::string& path) {
    const std::string ext = extensionOf(path);
    if (ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".webp" || ext == ".tga") {
        Bytes bytes;
        try {
            bytes = readFile(path);
        } catch (const std::exception& e) {
            throw UsageError(path + ": cannot read image: " + e.what());
        }
        try {
            if (std::optional<DecodedSamples> own = decodeOwn(bytes, path)) return toFloat(*own);
        } catch (const DecodeError& e) {
            throw UsageError(path + ": cannot read image: " + e.detail());
        }
    }
    return oiioModule("reading " + path).readImage(path);
}

}  // namespace luxel
