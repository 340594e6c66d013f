#pragma once
// Float images and all image I/O (through OpenImageIO).
#include <cstdint>
#include <span>
#include <optional>
#include <string>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace luxel {

// Allocator whose resize() leaves new floats uninitialised (no zero-fill pass over a 24 MB frame), on
// 64-byte (cache-line) boundaries: the renderer lines its tiles up with the buffer's address, and an address
// that varied with the allocator's state (heap or mmap) would move tile edges from run to run.
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
    static constexpr std::align_val_t kAlignment{64};
    template <class U>
    struct rebind {
        using other = DefaultInitAllocator<U>;
    };
    DefaultInitAllocator() = default;
    template <class U>
    DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
    T* allocate(size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), kAlignment)); }
    void deallocate(T* p, size_t) noexcept { ::operator delete(p, kAlignment); }
    template <class U>
    void construct(U* p) noexcept {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

struct Image {
    int width = 0, height = 0, channels = 0;
    std::vector<float, DefaultInitAllocator<float>> pixels;  // row-major, top row first, `channels` floats a pixel
    Image() = default;
    // Zero-filled.
    Image(int w, int h, int c) : width(w), height(h), channels(c), pixels(size_t(w) * size_t(h) * size_t(c), 0.0f) {}
    // Contents undefined: for producers that write every value (the renderer); the pages are first touched by
    // the threads that write them instead of by one serial zero-fill.
    static Image uninitialized(int w, int h, int c) {
        Image image;
        image.width = w, image.height = h, image.channels = c;
        image.pixels.resize(size_t(w) * size_t(h) * size_t(c));
        return image;
    }
    float* at(int x, int y) { return pixels.data() + (size_t(y) * size_t(width) + size_t(x)) * size_t(channels); }
    const float* at(int x, int y) const {
        return pixels.data() + (size_t(y) * size_t(width) + size_t(x)) * size_t(channels);
    }
};

// True for extensions whose files hold display values (PNG, JPEG, ...), false for linear HDR (EXR, TIFF, HDR).
bool isLdrPath(const std::string& path);

// Text stored in the image file (PNG tEXt chunks, EXR / TIFF attributes): {"Software", "luxel 0.1.0"}, ...
using ImageMetadata = std::vector<std::pair<std::string, std::string>>;

// Writes by extension (.png .jpg .jpeg .exr .tif .tiff ...). LDR formats get values clamped to [0,1] and
// quantised to 8 bits with round-to-nearest; EXR is written as half floats, TIFF as 32-bit floats.
// The file appears atomically (temporary name + rename). Throws UsageError on failure.
void writeImage(const std::string& path, const Image& image, const ImageMetadata& metadata = {});
// The bytes writeImage stores, for a file named like `path` (only its extension matters): an image served
// from memory is byte for byte the file `luxel render` writes.
std::vector<uint8_t> encodeImage(const std::string& path, const Image& image, const ImageMetadata& metadata = {});
// 8-bit samples (`channels` interleaved, rows top down) encoded by luxel's own codecs for a file named like `path`
// (PNG up to 4 channels, JPEG of 1, 3 or 4 (its RGB), WebP of 3 or 4); nullopt for the formats only the OpenImageIO
// module writes. Throws UsageError when encoding fails.
std::optional<std::vector<uint8_t>> encodeOwnFormat(const std::string& path, const uint8_t* samples, int width, int height,
                                                    int channels, const ImageMetadata& metadata = {});

// The 8-bit values writeImage stores for PNG / JPEG: each value clamped to [0, 1] (NaN as 0) and rounded to
// nearest of 255 steps; with dropAlpha a 4-channel image's RGB alone.
std::vector<uint8_t> displayBytes(const Image& image, bool dropAlpha = false);
// The same for n values (the renderer stores its tiles with it).
void toDisplayBytes(const float* values, uint8_t* bytes, size_t n);

// Decodes an image file held in memory (TGA, JPEG, PNG, ...) to float in [0,1] per byte value,
// no colour conversion. `name` is used for the format hint and messages. Throws DecodeError.
Image decodeImage(std::span<const uint8_t> bytes, const std::string& name);

// 8-bit samples as stored (1 to 4 channels, row-major from the top): textures, which are 8-bit files and
// need no float pass. 16-bit files are rounded to 8 bits. Throws DecodeError like decodeImage.
struct ByteImage {
    int width = 0, height = 0, channels = 0;
    std::vector<uint8_t> bytes;
};
ByteImage decodeImageBytes(std::span<const uint8_t> bytes, const std::string& name);

// Display bytes (a frame as PNG, JPEG and WebP hold it) written as writeImage / encodeImage write an Image with
// those values: luxel's own codecs take the bytes as they are; the OpenImageIO module's formats get the floats
// (floatsOf).
std::vector<uint8_t> encodeImage(const std::string& path, const ByteImage& image, const ImageMetadata& metadata = {});
void writeImage(const std::string& path, const ByteImage& image, const ImageMetadata& metadata = {});
// Each byte b as b / 255 (displayBytes gives b back).
Image floatsOf(const ByteImage& image);
// displayBytes of an image, with its size.
ByteImage toDisplayImage(const Image& image);

// Reads an image file from disk (tests, diff).
Image readImage(const std::string& path);

}  // namespace luxel
