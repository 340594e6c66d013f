#pragma once
// VPK archives (versions 1 and 2) built in memory for tests: a directory file with its tree (grouped by
// extension and path, as Valve's vpk tool writes it) and numbered archives, with the placement of every
// file chosen by the test (directory file or archive N, preload bytes split off), and ways to damage them.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace luxel::test {

struct VpkFile {
    VpkFile(std::string path_, std::string content_, uint16_t archive_ = 0x7fff, size_t preload_ = 0)
        : path(std::move(path_)), content(std::move(content_)), archive(archive_), preload(preload_) {}
    std::string path;     // "dir/name.ext"; no '.' in the name: no extension
    std::string content;
    uint16_t archive = 0x7fff;  // the archive the bytes after the preload go to; 0x7fff: the directory file
    size_t preload = 0;         // leading bytes stored in the tree itself
    std::optional<uint32_t> crc;  // the CRC32 the tree records; default: the content's
};

struct VpkBuild {
    std::vector<uint8_t> directory;                       // NAME_dir.vpk
    std::map<uint16_t, std::vector<uint8_t>> archives;  // NAME_NNN.vpk by number
};

// version 1 or 2; version 2 also carries archive MD5, other MD5 and signature sections (dummy bytes of
// the sizes the header gives) after the data, which a reader must skip.
VpkBuild makeVpk(const std::vector<VpkFile>& files, int version);

// CRC32 (zlib's) of text.
uint32_t crc32Of(const std::string& text);

// Writes dir/NAME_dir.vpk and dir/NAME_NNN.vpk; returns the directory file's path.
std::string writeVpk(const std::filesystem::path& dir, const std::string& name, const VpkBuild& build);

}  // namespace luxel::test
