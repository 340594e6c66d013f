#pragma once
// Decoded textures shared by every map a process loads: keyed by the file's GameFiles::identity plus the
// decode parameters, so a texture many maps use is decoded once. Entries live until clearTextureCache.
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "luxel/material/material_set.hpp"

namespace luxel {

// An image decoded from mip level `level` down (Texture::firstLevel): `image` is that level of a
// fullWidth x fullHeight image. `reducible` false: the file is one whose reduced decode would cost what a whole
// one does (level 0 then, whatever the need): the cache keeps its whole texture for every need.
struct LevelImage {
    RgbaImage image;
    int32_t level = 0, fullWidth = 0, fullHeight = 0;
    bool reducible = true;
};

struct TextureJob {
    std::string key;   // identity + decode parameters; equal keys must decode to equal textures
    std::string name;  // Texture::name (where it came from)
    std::function<RgbaImage()> decode;  // may throw (DecodeError, UsageError): the texture is then missing
    // Reduced decodes: with footprint2 > 0 (a reducedFootprint step) and decodeFrom set, the texture is made from
    // decodeFrom(footprint2), which starts at reducedLevel of the image's size (its level 0 equal to decode()'s).
    // The cache keeps it under the key and that level, so a reduced texture is the same whichever need asked.
    float footprint2 = 0;
    std::function<LevelImage(float footprint2)> decodeFrom{};
};

struct TextureResult {
    std::shared_ptr<const Texture> texture;  // null when decoding failed
    std::string error;                       // why, for a warning
    bool overLimit = false;                  // refused for its claimed size (LimitError) or for the budget
};

// One result per job, in job order. Jobs missing from the cache are decoded in parallel (TBB); jobs
// with equal keys are decoded once, also across calls running at the same time (one waits for the other).
// `budget` (bytes, 0: none): a texture that would take what this call holds (cache hits and decodes) past it is
// refused with overLimit (dropped once decoded: a call overshoots by at most one texture per thread, briefly), and
// once the budget is reached the jobs not started are refused undecoded.
std::vector<TextureResult> loadTextures(const std::vector<TextureJob>& jobs, size_t budget = 0);

// Textures decoded (not found in the cache) since the process started: tests check the cache with it.
size_t textureDecodeCount();
size_t textureCacheSize();
void clearTextureCache();

}  // namespace luxel
