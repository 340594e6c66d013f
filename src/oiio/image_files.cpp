// Image files in the formats luxel's own codecs leave to OpenImageIO (EXR, TIFF, HDR, DDS, PSD, BMP, ...).
#include <OpenImageIO/filesystem.h>
#include <OpenImageIO/imagebuf.h>
#include <OpenImageIO/imageio.h>

#include <filesystem>
#include <optional>
#include <system_error>
#include <unistd.h>

#include "../image/codecs.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"
#include "module_parts.hpp"

namespace luxel::oiio {
namespace fs = std::filesystem;

namespace {

std::string extensionOf(const std::string& path) { return toLowerAscii(fs::path(path).extension().string()); }

}  // namespace

Bytes encodeImage(const std::string& path, const Image& image, const ImageMetadata& metadata) {
    if (image.width <= 0 || image.height <= 0 || image.channels <= 0) throw UsageError(path + ": empty image");
    std::string ext = extensionOf(path);
    if (ext.empty()) throw UsageError(path + ": no file extension to choose an image format by");
    bool ldr = isLdrPath(path);

    // JPEG has no alpha: a 4-channel image (RGB + coverage alpha) is written as its RGB there.
    const bool dropAlpha = image.channels == 4 && (ext == ".jpg" || ext == ".jpeg");
    const int channels = dropAlpha ? 3 : image.channels;
    OIIO::ImageSpec spec(image.width, image.height, channels,
                         ldr ? OIIO::TypeDesc::UINT8 : (ext == ".exr" ? OIIO::TypeDesc::HALF : OIIO::TypeDesc::FLOAT));
    // Alpha is coverage beside colour that is not premultiplied by it: stored as given, not divided by alpha.
    if (channels == 4) spec.attribute("oiio:UnassociatedAlpha", 1);
    if (ext == ".jpg" || ext == ".jpeg" || ext == ".webp") spec.attribute("CompressionQuality", 95);
    // zlib level 1 and libpng's Paeth filter alone instead of level 6 and a trial of all five filters per row:
    // rendered frames come out 7-12% larger and are written 4-6x faster (512x288: 34 -> 6-10 ms). A thumbnail
    // still spends about as long compressing as rendering; level 2 was 10% slower for files 1-3% smaller.
    if (ext == ".png") {
        spec.attribute("png:compressionLevel", 1);
        spec.attribute("png:filter", 0x80);  // PNG_FILTER_PAETH
    }
    if (ext == ".exr") spec.attribute("compression", "zip");
    // The TIFF and EXR writers stamp the current time unless given one; a fixed stamp keeps the output
    // bytes a function of the input (SOURCE_DATE_EPOCH, the reproducible-builds convention, when set).
    spec.attribute("DateTime", reproducibleDateTime());
    // PNG text chunks, EXR / TIFF string attributes: what made the picture, so a thumbnail can be traced back.
    for (const auto& [key, value] : metadata) spec.attribute(key, value);

    // The name keeps the extension so OpenImageIO picks the writer; the bytes go to memory where the writer
    // takes an I/O proxy, else through a private temporary file (read back and removed).
    const std::string name = "image" + ext;
    auto out = OIIO::ImageOutput::create(name);
    if (!out) throw UsageError(path + ": no image writer for extension " + ext);
    Bytes bytes;
    OIIO::Filesystem::IOVecOutput memory(bytes);
    std::optional<fs::path> temp;
    bool opened;
    if (out->supports("ioproxy")) {
        out->set_ioproxy(&memory);
        opened = out->open(name, spec);
    } else {
        char dir[] = "/tmp/luxel-encode-XXXXXX";
        if (!::mkdtemp(dir)) throw UsageError(path + ": cannot make a temporary folder to encode in");
        temp = fs::path(dir) / name;
        opened = out->open(temp->string(), spec);
    }
    auto cleanUp = [&] {
        std::error_code ec;
        if (temp) fs::remove_all(temp->parent_path(), ec);
    };
    if (!opened) {
        cleanUp();
        throw UsageError(path + ": cannot write: " + out->geterror());
    }
    bool ok;
    if (ldr) {
        const std::vector<uint8_t> display = displayBytes(image, dropAlpha);
        ok = out->write_image(OIIO::TypeDesc::UINT8, display.data());
    } else {
        ok = out->write_image(OIIO::TypeDesc::FLOAT, image.pixels.data());  // EXR / TIFF: never dropAlpha
    }
    std::string err = ok ? std::string() : out->geterror();
    ok = out->close() && ok;
    if (ok && temp) {
        try {
            bytes = readFile(temp->string());
        } catch (const std::exception& e) {
            ok = false, err = e.what();
        }
    }
    cleanUp();
    if (!ok) throw UsageError(path + ": write failed: " + err);
    return bytes;
}

namespace {

// Opens an in-memory image for reading with colour exactly as stored, its size checked against hostile headers.
std::unique_ptr<OIIO::ImageInput> openInMemory(OIIO::Filesystem::IOMemReader& reader, size_t fileBytes,
                                               const std::string& name) {
    // Colour exactly as stored: OIIO would otherwise premultiply it by alpha (PNG, TGA), darkening textures.
    OIIO::ImageSpec config;
    config.attribute("oiio:UnassociatedAlpha", 1);
    void* proxy = &reader;  // with a config, OIIO takes the proxy from it (the argument alone is ignored)
    config.attribute("oiio:ioproxy", OIIO::TypeDesc::PTR, &proxy);
    auto in = OIIO::ImageInput::open(name, &config, &reader);
    if (!in) throw DecodeError(name, "image", 0, "cannot decode image: " + OIIO::geterror());
    const OIIO::ImageSpec& spec = in->spec();
    checkDecodedSize(spec.width, spec.height, spec.nchannels, fileBytes, name);
    return in;
}

}  // namespace

Image decodeImage(std::span<const uint8_t> bytes, const std::string& name) {
    OIIO::Filesystem::IOMemReader reader(bytes.data(), bytes.size());
    auto in = openInMemory(reader, bytes.size(), name);
    const OIIO::ImageSpec& spec = in->spec();
    Image image(spec.width, spec.height, spec.nchannels);
    if (!in->read_image(0, 0, 0, spec.nchannels, OIIO::TypeDesc::FLOAT, image.pixels.data()))
        throw DecodeError(name, "image", 0, "cannot decode image: " + in->geterror());
    return image;
}

ByteImage decodeImageBytes(std::span<const uint8_t> bytes, const std::string& name) {
    OIIO::Filesystem::IOMemReader reader(bytes.data(), bytes.size());
    auto in = openInMemory(reader, bytes.size(), name);
    const OIIO::ImageSpec& spec = in->spec();
    ByteImage image;
    image.width = spec.width;
    image.height = spec.height;
    image.channels = spec.nchannels;
    image.bytes.resize(size_t(spec.width) * size_t(spec.height) * size_t(spec.nchannels));
    if (!in->read_image(0, 0, 0, spec.nchannels, OIIO::TypeDesc::UINT8, image.bytes.data()))
        throw DecodeError(name, "image", 0, "cannot decode image: " + in->geterror());
    return image;
}

Image readImage(const std::string& path) {
    auto in = OIIO::ImageInput::open(path);
    if (!in) throw UsageError(path + ": cannot read image: " + OIIO::geterror());
    const OIIO::ImageSpec& spec = in->spec();
    Image image(spec.width, spec.height, spec.nchannels);
    if (!in->read_image(0, 0, 0, spec.nchannels, OIIO::TypeDesc::FLOAT, image.pixels.data()))
        throw UsageError(path + ": cannot read image: " + in->geterror());
    return image;
}

}  // namespace luxel::oiio
