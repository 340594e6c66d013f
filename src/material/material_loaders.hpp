#pragma once
// Internal to loadMaterials: the per-format loaders and what they share (texture requests through the
// process-wide cache, image conversion).
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "luxel/image/image.hpp"
#include "luxel/io/game_files.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/util/text.hpp"
#include "texture_cache.hpp"

namespace luxel::materials {

// Decoded 8-bit samples as RGBA: grey, grey + alpha, RGB (alpha 255) and RGBA images. Throws DecodeError for other channel counts or sizes over kMaxTextureSide.
RgbaImage toRgba(const ByteImage& image, const std::string& name);

// A TGA / JPEG / PNG / ... file read from `files` and decoded.
RgbaImage decodeGameImage(const GameFiles& files, const std::string& path);

// The first of `candidates` that exists in `files`, or "".
std::string firstExisting(const GameFiles& files, const std::vector<std::string>& candidates);

// The one warning for a sky box whose faces were not all found: "WHAT images A, B not found (2 of 6 faces)".
std::string skyFacesMissing(const std::string& what, const std::vector<std::string>& faces);

// `path` without its extension (the part after the last '.' of the last component).
std::string stripExtension(const std::string& path);

// The textures a map asks for, each file (+ decode parameters) once, indexed in request order.
class TextureRequests {
public:
    // `decode` reads and decodes `path` from `files` (which must outlive resolve()); returns the request's
    // index. `params` names the decode parameters that make two requests of one file differ.
    int32_t add(const GameFiles& files, const std::string& path, const std::string& params,
                std::function<RgbaImage(const GameFiles&, const std::string& path)> decode);
    // A texture that is no game file (embedded in the map): `key` names its content and decode parameters (equal
    // keys must decode to equal textures, across maps: the cache shares them), `name` is what messages call it.
    int32_t addEmbedded(std::string key, std::string name, std::function<RgbaImage()> decode);
    // An image file decoded with decodeGameImage.
    int32_t addImage(const GameFiles& files, const std::string& path);
    // The same at power-of-two sides, as Quake 3 stores every image (resampleToPowerOfTwo). (Quake 2 does too,
    // but its texture coordinates count texels of the image as stored in the file, so it keeps them.)
    // footprint2 > 0: this use samples no footprint below it (squared, in repeats of the image, as
    // MaterialOptions' footprints): the image may be decoded from a coarser level (TextureJob::decodeFrom); a
    // file several uses ask for is decoded for the finest of them.
    int32_t addQuake3Image(const GameFiles& files, const std::string& path, float footprint2 = 0);

    // Loads every request (cache, then parallel decodes) into set.textures and rewrites the request
    // indices held by set.looks (texture, texture2, details, program stages) and set.skies (faces, cloud
    // layers) into set.textures indices. A look whose
    // texture could not be decoded gets -1, `missing` = greyMissing and its material's name in
    // set.missing; each failure adds a warning. `budget` (bytes, 0: none) bounds the textures this load holds
    // (loadTextures); what it refuses, and textures refused for their claimed size, are in set.overLimit.
    void resolve(MaterialSet& set, const World& world, bool greyMissing, size_t budget = 0);
    // After resolve(): the set.textures index of request `request`, -1 when it failed to decode.
    int32_t textureIndex(int32_t request) const {
        return request >= 0 && size_t(request) < remap_.size() ? remap_[size_t(request)] : -1;
    }

private:
    std::vector<int32_t> remap_;
    std::vector<TextureJob> jobs_;
    std::unordered_map<std::string, int32_t> byKey_;
};

// Adds `name` to set.missing (sorted and made unique by loadMaterials).
inline void addMissing(MaterialSet& set, const std::string& name) { set.missing.push_back(name); }

void loadQuake3(const World& world, const MapSource& source, const MaterialOptions& options,
                const std::vector<bool>& decodeOnly, const std::vector<float>& footprints, MaterialSet& set);
void loadQuake2(const World& world, const MaterialOptions& options, MaterialSet& set);
void loadSource(const World& world, const MaterialOptions& options, MaterialSet& set);
void loadQuake1(const World& world, const MapSource& source, const MaterialOptions& options, MaterialSet& set);

}  // namespace luxel::materials
