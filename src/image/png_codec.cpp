// PNG through libpng, with the image data compressed by libdeflate. libpng frames the file (signature, IHDR,
// tIME, tEXt, the chunk CRCs); its own deflate is zlib's, and zlib at level 1 took 9-12 ms of a 640x360 frame
// that libdeflate compresses in a quarter of that, so the rows are filtered here and handed to libpng as a
// finished IDAT chunk.
#include <libdeflate.h>
#include <png.h>

#include <algorithm>
#include <csetjmp>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <memory>
#include <new>
#include <string>

#include "codecs.hpp"
#include "luxel/util/error.hpp"

namespace luxel {

namespace {

// libdeflate's level 1, one compressor per thread (its state is reset by every call). Its matches are chosen by
// portable C, so the same rows give the same bytes on every machine and run: ISA-L's igzip (luxel's before, 1.8x
// faster) chooses them differently per instruction set, as its maintainers note, and gave other bytes for the same
// rows in about 1 batch of 150 on one machine (two maps encoded at once), which no standalone program reproduced.
std::vector<uint8_t> zlibCompress(const std::vector<uint8_t>& data) {
    struct Compressor {
        libdeflate_compressor* state = libdeflate_alloc_compressor(1);
        ~Compressor() { libdeflate_free_compressor(state); }
    };
    thread_local Compressor compressor;
    if (!compressor.state) throw std::bad_alloc();
    std::vector<uint8_t> out(libdeflate_zlib_compress_bound(compressor.state, data.size()));
    const size_t size = libdeflate_zlib_compress(compressor.state, data.data(), data.size(), out.data(), out.size());
    if (size == 0) throw UsageError("PNG: compression failed");
    out.resize(size);
    return out;
}

// The scanlines with the Sub filter (each byte minus the same channel of the pixel to its left): it reads
// only the unfiltered row, so it vectorizes.
std::vector<uint8_t> filterRows(const uint8_t* samples, size_t rowBytes, size_t pixelBytes, int height) {
    std::vector<uint8_t> out((rowBytes + 1) * size_t(height));
    for (int y = 0; y < height; ++y) {
        uint8_t* o = out.data() + size_t(y) * (rowBytes + 1);
        const uint8_t* row = samples + size_t(y) * rowBytes;
        o[0] = 1;  // Sub
        const size_t first = std::min(pixelBytes, rowBytes);
        std::memcpy(o + 1, row, first);
        for (size_t i = first; i < rowBytes; ++i) o[1 + i] = uint8_t(row[i] - row[i - pixelBytes]);
    }
    return out;
}

void appendBytes(png_structp png, png_bytep data, size_t length) {
    auto* out = static_cast<std::vector<uint8_t>*>(png_get_io_ptr(png));
    out->insert(out->end(), data, data + length);
}

// Reading and writing alike: libpng's message kept (its error pointer is the caller's string), then back to the
// setjmp of the step that failed.
[[noreturn]] void pngFailed(png_structp png, png_const_charp message) {
    *static_cast<std::string*>(png_get_error_ptr(png)) = message;
    png_longjmp(png, 1);
}

void ignoreWarning(png_structp, png_const_charp) {}

// The libpng calls of one file, under its error jump. setjmp sits in these small functions with no C++
// objects of their own, so a longjmp skips no destructor and clobbers no local.
struct PngFile {
    png_structp png;
    png_infop info;
};

bool writePngChunks(PngFile f, int width, int height, int colourType, const png_time* stamp, png_text* text,
                    int textCount, const std::vector<uint8_t>* idat) {
    if (setjmp(png_jmpbuf(f.png))) return false;
    png_set_IHDR(f.png, f.info, png_uint_32(width), png_uint_32(height), 8, colourType, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_tIME(f.png, f.info, stamp);
    if (textCount > 0) png_set_text(f.png, f.info, text, textCount);
    png_write_info(f.png, f.info);
    // IDAT as one chunk, then IEND: png_write_end would look for image rows written through libpng.
    png_write_chunk(f.png, reinterpret_cast<png_const_bytep>("IDAT"), idat->data(), idat->size());
    png_write_chunk(f.png, reinterpret_cast<png_const_bytep>("IEND"), nullptr, 0);
    return true;
}

}  // namespace

std::vector<uint8_t> encodePng(const uint8_t* samples, int width, int height, int channels,
                               const ImageMetadata& metadata) {
    static constexpr int kColourTypes[5] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                            PNG_COLOR_TYPE_RGB_ALPHA};
    if (channels < 1 || channels > 4) throw UsageError("PNG holds 1 to 4 channels, not " + std::to_string(channels));
    const size_t rowBytes = size_t(width) * size_t(channels);
    const std::vector<uint8_t> filtered = filterRows(samples, rowBytes, size_t(channels), height);
    const std::vector<uint8_t> idat = zlibCompress(filtered);

    std::vector<png_text> text(metadata.size());
    for (size_t i = 0; i < metadata.size(); ++i) {
        text[i].compression = PNG_TEXT_COMPRESSION_NONE;
        text[i].key = const_cast<char*>(metadata[i].first.c_str());
        text[i].text = const_cast<char*>(metadata[i].second.c_str());
        text[i].text_length = metadata[i].second.size();
    }
    const std::tm utc = reproducibleTime();
    png_time stamp{};
    png_convert_from_struct_tm(&stamp, &utc);
    std::vector<uint8_t> out;
    out.reserve(idat.size() + 1024);
    std::string error;
    PngFile f{png_create_write_struct(PNG_LIBPNG_VER_STRING, &error, pngFailed, ignoreWarning), nullptr};
    if (f.png) f.info = png_create_info_struct(f.png);
    if (!f.info) {
        png_destroy_write_struct(&f.png, nullptr);
        throw std::bad_alloc();
    }
    png_set_write_fn(f.png, &out, appendBytes, nullptr);
    const bool ok =
        writePngChunks(f, width, height, kColourTypes[channels], &stamp, text.data(), int(text.size()), &idat);
    png_destroy_write_struct(&f.png, &f.info);
    if (!ok) throw UsageError("PNG: " + error);
    return out;
}

bool looksLikePng(std::span<const uint8_t> bytes) { return bytes.size() >= 8 && png_sig_cmp(bytes.data(), 0, 8) == 0; }

namespace {

// The file being read and how far.
struct ReadState {
    std::span<const uint8_t> bytes;
    size_t at = 0;
};

void readBytes(png_structp png, png_bytep data, size_t length) {
    auto* s = static_cast<ReadState*>(png_get_io_ptr(png));
    if (length > s->bytes.size() - s->at) png_error(png, "file truncated");
    std::memcpy(data, s->bytes.data() + s->at, length);
    s->at += length;
}

// The most libpng may hold for one chunk or buffer of a file being read. Its own chunk limit
// (png_set_chunk_malloc_max) is only a benign error, a warning on read: a text chunk claiming 2 GB in a file of
// 58 bytes still had its 2 GB allocated before the read past the end failed. A refused allocation is an error or
// a skipped chunk to libpng, whichever the chunk allows. The image itself is luxel's (checkDecodedSize).
constexpr size_t kLibpngAllocationLimit = size_t(64) << 20;

// Through the C++ allocator, as the rest of luxel's memory.
png_voidp cappedAllocate(png_structp, png_alloc_size_t bytes) {
    return bytes > kLibpngAllocationLimit ? nullptr : ::operator new(bytes, std::nothrow);
}
void releaseAllocation(png_structp, png_voidp p) { ::operator delete(p); }

// Reads the header and sets up the transformations: as OpenImageIO's reader, palettes expanded to RGB, a
// tRNS chunk to an alpha channel, grey under 8 bits to 8, 16-bit samples kept (in host order); no gamma or
// colour conversion.
bool readPngHeader(PngFile f) {
    if (setjmp(png_jmpbuf(f.png))) return false;
    png_set_user_limits(f.png, 1u << 20, 1u << 20);  // libpng's own ceiling; checkDecodedSize applies luxel's
    png_set_chunk_malloc_max(f.png, kLibpngAllocationLimit);
    png_read_info(f.png, f.info);
    png_set_expand(f.png);  // palette -> RGB, grey 1/2/4 -> 8, tRNS -> alpha
    png_set_swap(f.png);
    png_set_interlace_handling(f.png);
    png_read_update_info(f.png, f.info);
    return true;
}

bool readPngRows(PngFile f, png_bytep* rows) {
    if (setjmp(png_jmpbuf(f.png))) return false;
    png_read_image(f.png, rows);
    return true;
}

}  // namespace

DecodedSamples decodePng(std::span<const uint8_t> bytes, const std::string& name) {
    ReadState state{bytes, 0};
    std::string error;
    PngFile f{png_create_read_struct_2(PNG_LIBPNG_VER_STRING, &error, pngFailed, ignoreWarning, nullptr,
                                       cappedAllocate, releaseAllocation),
              nullptr};
    if (f.png) f.info = png_create_info_struct(f.png);
    if (!f.info) {
        png_destroy_read_struct(&f.png, nullptr, nullptr);
        throw std::bad_alloc();
    }
    struct Destroy {
        PngFile& f;
        ~Destroy() { png_destroy_read_struct(&f.png, &f.info, nullptr); }
    } destroy{f};
    png_set_read_fn(f.png, &state, readBytes);
    if (!readPngHeader(f)) throw DecodeError(name, "image", state.at, "cannot decode PNG: " + error);
    DecodedSamples image;
    image.width = int(png_get_image_width(f.png, f.info));
    image.height = int(png_get_image_height(f.png, f.info));
    image.channels = int(png_get_channels(f.png, f.info));
    checkDecodedSize(image.width, image.height, image.channels, bytes.size(), name);
    const size_t rowBytes = png_get_rowbytes(f.png, f.info);
    uint8_t* base;
    if (png_get_bit_depth(f.png, f.info) == 16) {
        image.words.resize(rowBytes / 2 * size_t(image.height));
        base = reinterpret_cast<uint8_t*>(image.words.data());
    } else {
        image.bytes.resize(rowBytes * size_t(image.height));
        base = image.bytes.data();
    }
    std::vector<png_bytep> rows(size_t(image.height));
    for (int y = 0; y < image.height; ++y) rows[size_t(y)] = base + size_t(y) * rowBytes;
    if (!readPngRows(f, rows.data())) throw DecodeError(name, "image", state.at, "cannot decode PNG: " + error);
    return image;
}

}  // namespace luxel
