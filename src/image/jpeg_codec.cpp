// JPEG files through libjpeg-turbo: written with its libjpeg API (which can store text as COM markers), read
// with TurboJPEG. The settings are OpenImageIO's (quality 95, 4:2:0, the accurate integer DCT), so a view
// written either way decodes to the same pixels.
#include <cstdio>  // before jpeglib.h, which uses FILE and size_t without including their headers

#include <jpeglib.h>
#include <turbojpeg.h>

#include <csetjmp>
#include <cstdlib>
#include <memory>

#include "codecs.hpp"
#include "luxel/util/error.hpp"

namespace luxel {

namespace {

constexpr int kQuality = 95;

struct JpegError {
    jpeg_error_mgr manager;
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

[[noreturn]] void jpegFailed(j_common_ptr info) {
    auto* e = reinterpret_cast<JpegError*>(info->err);
    info->err->format_message(info, e->message);
    std::longjmp(e->jump, 1);
}

}  // namespace

std::vector<uint8_t> encodeJpeg(const uint8_t* samples, int width, int height, int channels,
                                const ImageMetadata& metadata) {
    if (channels != 1 && channels != 3) throw UsageError("JPEG holds 1 or 3 channels, not " + std::to_string(channels));
    // Text pairs as COM markers, "key: value" (JPEG has no keyed text of its own); made before setjmp, so a
    // longjmp skips no destructor.
    std::vector<std::string> comments;
    for (const auto& [key, value] : metadata) comments.push_back((key + ": " + value).substr(0, 65533));
    jpeg_compress_struct info{};
    JpegError error{};
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = jpegFailed;
    unsigned char* buffer = nullptr;
    unsigned long size = 0;
    if (setjmp(error.jump)) {
        jpeg_destroy_compress(&info);
        std::free(buffer);
        throw UsageError(std::string("JPEG: ") + error.message);
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, &buffer, &size);
    info.image_width = JDIMENSION(width);
    info.image_height = JDIMENSION(height);
    info.input_components = channels;
    info.in_color_space = channels == 3 ? JCS_RGB : JCS_GRAYSCALE;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, kQuality, TRUE);
    jpeg_start_compress(&info, TRUE);
    for (const std::string& text : comments)
        jpeg_write_marker(&info, JPEG_COM, reinterpret_cast<const JOCTET*>(text.data()), unsigned(text.size()));
    const size_t rowBytes = size_t(width) * size_t(channels);
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = const_cast<JSAMPROW>(samples + size_t(info.next_scanline) * rowBytes);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    std::vector<uint8_t> out(buffer, buffer + size);
    std::free(buffer);
    return out;
}

namespace {

struct DestroyHandle {
    void operator()(void* handle) const { tjDestroy(handle); }
};

}  // namespace

std::optional<DecodedSamples> decodeJpegSamples(std::span<const uint8_t> bytes, const std::string& name) {
    // A handle per call: files read this way are views and thumbnails, not the thousands of textures
    // (decodeJpegRgba keeps one per thread for those).
    std::unique_ptr<void, DestroyHandle> handle(tjInitDecompress());
    if (!handle) throw std::bad_alloc();
    const auto size = static_cast<unsigned long>(bytes.size());
    int width = 0, height = 0, subsampling = 0, colorspace = 0;
    if (tjDecompressHeader3(handle.get(), bytes.data(), size, &width, &height, &subsampling, &colorspace) != 0)
        throw DecodeError(name, "image", 0, std::string("cannot decode JPEG header: ") + tjGetErrorStr2(handle.get()));
    if (colorspace == TJCS_CMYK || colorspace == TJCS_YCCK) return std::nullopt;
    DecodedSamples image;
    image.width = width, image.height = height, image.channels = colorspace == TJCS_GRAY ? 1 : 3;
    checkDecodedSize(width, height, image.channels, bytes.size(), name);
    image.bytes.resize(size_t(width) * size_t(height) * size_t(image.channels));
    if (tjDecompress2(handle.get(), bytes.data(), size, image.bytes.data(), width, 0, height,
                      image.channels == 1 ? TJPF_GRAY : TJPF_RGB, TJFLAG_LIMITSCANS) != 0 &&  // as decodeJpegRgba
        tjGetErrorCode(handle.get()) == TJERR_FATAL)
        throw DecodeError(name, "image", 0, std::string("cannot decode JPEG: ") + tjGetErrorStr2(handle.get()));
    return image;
}

}  // namespace luxel
