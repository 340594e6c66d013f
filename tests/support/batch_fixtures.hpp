#pragma once
// What the `luxel batch` / `luxel list` tests share: tiny synthetic maps, file and JSON helpers.
#include <nlohmann/json.hpp>

#include "support/test_paths.hpp"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace luxel::test {

// Small and fast: every batch in the tests renders 64x36 frames.
inline const std::string kBatchView = " --size 64x36 -q ";

// Shell-quoted.
inline std::string q(const std::string& s) { return "'" + s + "'"; }

std::string toString(const std::vector<uint8_t>& v);

// A one-room Quake 3 map; `variant` changes the lightmap bytes (so the file's bytes and its picture).
std::string roomMap(int variant);

// Removes every key named in `keys`, at any depth.
void stripKeys(nlohmann::json& j, const std::set<std::string>& keys);
// Width and height of an image file ({0, 0} when unreadable).
std::pair<int, int> imageSize(const std::string& path);
// Every regular file below dir, relative, sorted.
std::vector<std::string> filesBelow(const std::string& dir);
// The image outputs a manifest lists, relative to its folder.
std::vector<std::string> listedOutputs(const nlohmann::json& manifest);

}  // namespace luxel::test
