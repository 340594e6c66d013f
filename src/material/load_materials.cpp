// loadMaterials: dispatch by format, and what the per-format loaders share.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "luxel/bsp/decode.hpp"
#include "luxel/material/engine_resample.hpp"
#include "luxel/material/jpeg.hpp"
#include "luxel/material/pcx.hpp"
#include "luxel/material/texture_sample.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"
#include "material_loaders.hpp"
#include "q3_game.hpp"

namespace luxel {
namespace materials {

std::string stripExtension(const std::string& path) {
    const size_t slash = path.find_last_of("/\\");
    const size_t dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return path;
    return path.substr(0, dot);
}

std::string skyFacesMissing(const std::string& what, const std::vector<std::string>& faces) {
    std::string line = what + " images ";
    for (size_t i = 0; i < faces.size(); ++i) line += (i ? ", " : "") + faces[i];
    return line + " not found (" + std::to_string(faces.size()) + " of 6 faces)";
}

std::string firstExisting(const GameFiles& files, const std::vector<std::string>& candidates) {
    for (const std::string& c : candidates)
        if (files.exists(c)) return c;
    return {};
}

RgbaImage toRgba(const ByteImage& image, const std::string& name) {
    if (image.width <= 0 || image.height <= 0 || image.width > kMaxTextureSide || image.height > kMaxTextureSide)
        throw LimitError(name, "image", 0, "size " + std::to_string(image.width) + "x" + std::to_string(image.height) +
                                    " outside 1.." + std::to_string(kMaxTextureSide));
    const int ch = image.channels;
    if (ch < 1 || ch > 4) throw DecodeError(name, "image", 0, std::to_string(ch) + " channels (expected 1 to 4)");
    RgbaImage out;
    out.width = image.width;
    out.height = image.height;
    const size_t n = size_t(image.width) * size_t(image.height);
    out.rgba.resize(n * 4);
    const uint8_t* p = image.bytes.data();
    uint8_t* q = out.rgba.data();
    // One loop per channel count: the test per texel kept the compiler from vectorizing any of them.
    switch (ch) {
        case 4: std::memcpy(q, p, n * 4); break;
        case 3:
            for (size_t i = 0; i < n; ++i, p += 3, q += 4) q[0] = p[0], q[1] = p[1], q[2] = p[2], q[3] = 255;
            break;
        case 2:
            for (size_t i = 0; i < n; ++i, p += 2, q += 4) q[0] = q[1] = q[2] = p[0], q[3] = p[1];
            break;
        default:
            for (size_t i = 0; i < n; ++i, ++p, q += 4) q[0] = q[1] = q[2] = p[0], q[3] = 255;
            break;
    }
    return out;
}

namespace {

RgbaImage decodeImageFile(const std::vector<uint8_t>& bytes, const std::string& path, const std::string& name) {
    if (endsWithIgnoreCase(path, ".pcx")) return decodePcx(bytes, name);  // OpenImageIO has no PCX reader
    if (looksLikeJpeg(bytes))
        if (std::optional<RgbaImage> jpeg = decodeJpegRgba(bytes, name)) return std::move(*jpeg);
    return toRgba(decodeImageBytes(bytes, name), name);
}

bool powerOfTwo(int32_t side) { return side > 0 && (side & (side - 1)) == 0; }

// A Quake 3 image from the level `footprint2` needs (TextureJob::decodeFrom): a JPEG whose sides are powers of two
// through libjpeg's scaled IDCT, from reducedStart's level. Any other image is decoded whole (not reducible):
// decoding it costs the same at every level, and one whole texture serves every need.
LevelImage decodeQuake3Levels(const GameFiles& files, const std::string& path, float footprint2) {
    const auto bytes = files.read(path);
    if (!bytes) throw UsageError(path + ": not found");
    const std::string name = files.describe(path).value_or(path);
    if (!endsWithIgnoreCase(path, ".pcx") && looksLikeJpeg(*bytes))
        if (const std::optional<JpegSize> size = jpegSize(*bytes); size && powerOfTwo(size->width) && powerOfTwo(size->height)) {
            const int32_t start = reducedStart(footprint2, size->width, size->height);
            if (std::optional<RgbaImage> jpeg = decodeJpegRgba(*bytes, name, start))
                return {std::move(*jpeg), start, size->width, size->height, true};
        }
    RgbaImage image = resampleToPowerOfTwo(decodeImageFile(*bytes, path, name));
    const int32_t width = image.width, height = image.height;
    return {std::move(image), 0, width, height, false};
}

}  // namespace

RgbaImage decodeGameImage(const GameFiles& files, const std::string& path) {
    const auto bytes = files.read(path);
    if (!bytes) throw UsageError(path + ": not found");
    return decodeImageFile(*bytes, path, files.describe(path).value_or(path));
}

int32_t TextureRequests::add(const GameFiles& files, const std::string& path, const std::string& params,
                             std::function<RgbaImage(const GameFiles&, const std::string&)> decode) {
    std::string key = files.identity(path).value_or("missing:" + path) + "|" + params;
    if (auto it = byKey_.find(key); it != byKey_.end()) return it->second;
    const int32_t index = int32_t(jobs_.size());
    byKey_.emplace(key, index);
    const GameFiles* f = &files;
    jobs_.push_back({std::move(key), files.describe(path).value_or(path),
                     [f, path, decode = std::move(decode)] { return decode(*f, path); }, 0, {}});
    return index;
}

int32_t TextureRequests::addEmbedded(std::string key, std::string name, std::function<RgbaImage()> decode) {
    key = "embedded:" + key;
    if (auto it = byKey_.find(key); it != byKey_.end()) return it->second;
    const int32_t index = int32_t(jobs_.size());
    byKey_.emplace(key, index);
    jobs_.push_back({std::move(key), std::move(name), std::move(decode), 0, {}});
    return index;
}

int32_t TextureRequests::addImage(const GameFiles& files, const std::string& path) {
    return add(files, path, "image", decodeGameImage);
}

int32_t TextureRequests::addQuake3Image(const GameFiles& files, const std::string& path, float footprint2) {
    const size_t before = jobs_.size();
    const int32_t index = add(files, path, "image pow2", [](const GameFiles& f, const std::string& p) {
        return resampleToPowerOfTwo(decodeGameImage(f, p));
    });
    TextureJob& job = jobs_[size_t(index)];
    const float need = reducedFootprint(footprint2);
    if (jobs_.size() > before) {
        const GameFiles* f = &files;
        job.decodeFrom = [f, path](float need2) { return decodeQuake3Levels(*f, path, need2); };
        job.footprint2 = need;
    } else {
        job.footprint2 = std::min(job.footprint2, need);  // the finest any use samples (0: whole)
    }
    return index;
}

void TextureRequests::resolve(MaterialSet& set, const World& world, bool greyMissing, size_t budget) {
    const std::vector<TextureResult> results = loadTextures(jobs_, budget);
    std::vector<int32_t> remap(results.size(), -1);
    for (size_t i = 0; i < results.size(); ++i) {
        if (results[i].texture) {
            remap[i] = int32_t(set.textures.size());
            set.textures.push_back(results[i].texture);
        } else {
            const std::string& e = results[i].error;
            std::string line = e.find(jobs_[i].name) != std::string::npos ? e : jobs_[i].name + ": " + e;
            if (results[i].overLimit) set.overLimit.push_back(line);
            set.warnings.push_back(std::move(line));
        }
    }
    remap_ = remap;
    auto mapIndex = [&](int32_t i) { return textureIndex(i); };
    for (size_t m = 0; m < set.looks.size(); ++m) {
        SurfaceLook& look = set.looks[m];
        if (look.texture >= 0) {
            look.texture = mapIndex(look.texture);
            if (look.texture < 0) {
                look.missing = greyMissing;
                if (m < world.materials.size()) addMissing(set, world.materials[m].name);
            }
        }
        if (look.texture2 >= 0) look.texture2 = mapIndex(look.texture2);
        for (int32_t& d : look.detail)
            if (d >= 0) d = mapIndex(d);
        if (look.program) {  // a texture that failed to decode leaves its stage white (-1)
            auto program = std::make_shared<StageProgram>(*look.program);
            for (MaterialStage& stage : program->stages)
                if (stage.texture >= 0) stage.texture = mapIndex(stage.texture);
            look.program = std::move(program);
        }
    }
    for (SkyBox& sky : set.skies) {
        for (int32_t& face : sky.faces)
            if (face >= 0) face = mapIndex(face);
        for (CloudLayer& layer : sky.clouds)
            if (layer.texture >= 0) layer.texture = mapIndex(layer.texture);
    }
}

}  // namespace materials

std::string missingSummary(const MaterialSet& set) {
    if (set.missing.empty()) return {};
    constexpr size_t kNamesShown = 8;
    std::string line = std::to_string(set.missing.size()) + " material" + (set.missing.size() == 1 ? "" : "s") +
                       " without texture: ";
    for (size_t i = 0; i < set.missing.size() && i < kNamesShown; ++i) line += (i ? ", " : "") + set.missing[i];
    if (set.missing.size() > kNamesShown) line += ", ...";
    return line;
}

void prefetchMaterialSources(const MapSource& source, const MaterialOptions& options) {
    if (mapFormatOf(source.bytes) != MapFormat::Quake3) return;
    try {
        (void)materials::quake3Game(source, options);
    } catch (const std::exception&) {
        // loadMaterials mounts again and reports it (a failed mount is not kept).
    }
}

void forgetMaterialSources(const std::string& archivePath) { materials::forgetQuake3Games(archivePath); }

MaterialSet loadMaterials(const World& world, const MapSource& source, const MaterialOptions& options,
                          const std::vector<bool>& decodeOnly, const std::vector<float>& footprints) {
    MaterialSet set;
    set.looks.resize(world.materials.size());
    switch (world.format) {
        case MapFormat::Quake3: materials::loadQuake3(world, source, options, decodeOnly, footprints, set); break;
        case MapFormat::Quake2: materials::loadQuake2(world, options, set); break;
        case MapFormat::Source: materials::loadSource(world, options, set); break;
        case MapFormat::Quake1:
        case MapFormat::HalfLife: materials::loadQuake1(world, source, options, set); break;
    }
    std::sort(set.missing.begin(), set.missing.end());
    set.missing.erase(std::unique(set.missing.begin(), set.missing.end()), set.missing.end());
    std::sort(set.fogShaders.begin(), set.fogShaders.end());
    set.fogShaders.erase(std::unique(set.fogShaders.begin(), set.fogShaders.end()), set.fogShaders.end());
    return set;
}

}  // namespace luxel
