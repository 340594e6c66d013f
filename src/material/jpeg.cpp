#include "luxel/material/jpeg.hpp"

#include <turbojpeg.h>

#include <algorithm>
#include <memory>

#include "luxel/util/error.hpp"

namespace luxel {

namespace {

struct Destroy {
    void operator()(void* handle) const { tjDestroy(handle); }
};

// One decompressor per thread: creating one allocates libjpeg's tables each time. After a failed call the
// handle is dropped: libjpeg's state is then unreliable, and the next file's header read would fail with it.
thread_local std::unique_ptr<void, Destroy> tHandle;

tjhandle decompressor() {
    if (!tHandle) tHandle.reset(tjInitDecompress());
    if (!tHandle) throw std::bad_alloc();
    return tHandle.get();
}

[[noreturn]] void fail(const std::string& name, const std::string& what) {
    tHandle.reset();
    throw DecodeError(name, "image", 0, "cannot decode image: " + what);
}

}  // namespace

bool looksLikeJpeg(std::span<const uint8_t> bytes) {
    return bytes.size() >= 4 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF;
}

std::optional<JpegSize> jpegSize(std::span<const uint8_t> bytes) {
    tjhandle tj = decompressor();
    int width = 0, height = 0, subsampling = 0, colorspace = 0;
    if (tjDecompressHeader3(tj, bytes.data(), static_cast<unsigned long>(bytes.size()), &width, &height, &subsampling,
                            &colorspace) != 0) {
        tHandle.reset();
        return std::nullopt;
    }
    if (colorspace == TJCS_CMYK || colorspace == TJCS_YCCK) return std::nullopt;
    return JpegSize{width, height};
}

std::optional<RgbaImage> decodeJpegRgba(std::span<const uint8_t> bytes, const std::string& name, int halvings) {
    tjhandle tj = decompressor();
    // TurboJPEG takes an unsigned long size; a texture never comes near that.
    const auto size = static_cast<unsigned long>(bytes.size());
    int width = 0, height = 0, subsampling = 0, colorspace = 0;
    if (tjDecompressHeader3(tj, bytes.data(), size, &width, &height, &subsampling, &colorspace) != 0)
        fail(name, std::string("JPEG header: ") + tjGetErrorStr2(tj));
    if (colorspace == TJCS_CMYK || colorspace == TJCS_YCCK) return std::nullopt;
    if (width <= 0 || height <= 0 || width > kMaxTextureSide || height > kMaxTextureSide)
        throw LimitError(name, "image", 0, "size " + std::to_string(width) + "x" + std::to_string(height) +
                                                " outside 1.." + std::to_string(kMaxTextureSide));
    // Every 8x8 block of every component costs at least a bit (a progressive DC scan's shortest code), so a
    // JPEG holds at most 512 pixels per byte. A header claiming far more than its file can hold is refused
    // before a buffer of the claimed size is allocated (and libjpeg fills it in grey from a few bytes).
    if (uint64_t(width) * uint64_t(height) > uint64_t(1024) * bytes.size() + 65536)
        throw DecodeError(name, "image", 0, "JPEG claims " + std::to_string(width) + "x" + std::to_string(height) +
                                                " pixels, more than its " + std::to_string(bytes.size()) +
                                                " bytes can hold");
    const int shift = std::clamp(halvings, 0, 3);
    width = (width + (1 << shift) - 1) >> shift, height = (height + (1 << shift) - 1) >> shift;  // TJSCALED
    RgbaImage image;
    image.width = width;
    image.height = height;
    image.rgba.resize(size_t(width) * size_t(height) * 4);
    // RGBX: the fourth byte of every pixel comes out 0xFF, the texture's alpha. A damaged stream that libjpeg
    // can finish (a warning: premature end, a corrupt marker) still gives an image, as OpenImageIO's reader does.
    // TJFLAG_LIMITSCANS: a progressive file of more than 500 scans is refused. Each scan walks every block, so a
    // small file repeating one scan thousands of times would otherwise hold a thread for minutes.
    if (tjDecompress2(tj, bytes.data(), size, image.rgba.data(), width, 0, height, TJPF_RGBX, TJFLAG_LIMITSCANS) != 0) {
        if (tjGetErrorCode(tj) == TJERR_FATAL) fail(name, tjGetErrorStr2(tj));
        tHandle.reset();
    }
    return image;
}

}  // namespace luxel
