#pragma once
// Decoded textures kept in files of one folder, for processes that cannot share a heap: the workers of
// `batch --isolate` each have their own texture cache, and without this each decoded again what the other had
// decoded (the OpenArena scene's texture decoding took 1.6x its in-process sum). A texture is written once by
// whichever process decodes it first and read back by the others. The files are the Texture's own bytes in
// this machine's order, for one batch on one machine: the folder is the batch's and is removed with it.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "luxel/material/material_set.hpp"

namespace luxel {

// The texture kept under `key`, or null when there is none (or its file is not one this writes whole).
std::shared_ptr<const Texture> readSharedTexture(const std::string& dir, const std::string& key);
// Writes `t` under `key` (a temporary file renamed into place: readers see whole files only). Returns the bytes
// written, 0 when it could not write.
size_t writeSharedTexture(const std::string& dir, const std::string& key, const Texture& t);

// A reduced decode's level-0 size per key (0 x 0: not reducible), as the cache's own `sizes` table: a process
// that learns it from another finds the level's texture key without decoding.
std::optional<std::pair<int32_t, int32_t>> readSharedSize(const std::string& dir, const std::string& key);
void writeSharedSize(const std::string& dir, const std::string& key, std::pair<int32_t, int32_t> size);

}  // namespace luxel
