#pragma once
// Where a map's bytes come from: a .bsp on disk, a map inside a .pk3 (zip) or .pak (id PACK) archive, or a
// map found by name in a game directory of pk3 or pak files. Decoders also need files that sit beside the map
// (external lightmaps `maps/<name>/lm_0000.tga`), so a MapSource can open those by relative path.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace luxel {

using Bytes = std::vector<uint8_t>;

struct MapSource {
    // What error messages call the file: "path.bsp", "pak.pk3:maps/x.bsp" or "pak0.pak:maps/x.bsp".
    std::string displayName;
    std::string mapName;      // the map's base name without extension ("am_thornish")
    Bytes bytes;
    // Opens a file relative to the directory that holds the map (for "x/lm_0000.tga" beside
    // "maps/x.bsp"); returns nullopt when it does not exist.
    std::function<std::optional<Bytes>(const std::string& relativePath)> openRelated;
};

// Size limit for any one file read into memory; larger files are rejected with a clear error.
constexpr uint64_t kMaxFileBytes = uint64_t(1) << 30;

// "archive.pk3:maps/x.bsp" (also .zip and id's .pak, any case) split into the archive and the member; nullopt
// for a plain path. Every place that names a map inside an archive goes through this one reading.
struct ArchiveMember {
    std::string archive, member;
};
std::optional<ArchiveMember> splitArchiveMember(const std::string& spec);

// "a.bsp", "archive.pk3:maps/a.bsp" or "pak0.pak:maps/a.bsp". Throws UsageError when missing, DecodeError when
// an archive is bad.
MapSource openMapPath(const std::string& spec);

// Finds maps/<name>.bsp in gameDir with the engines' precedence: its pakN.pak (quakePakFiles; Quake 1 / 2
// search every pak before the loose files, pakN first), its loose files, then its *.pk3 (quake3PakFiles;
// Quake 3 searches the loose files first, then the pk3s with a later one in sorted name order first).
MapSource openMapInGameDir(const std::string& gameDir, const std::string& mapName);

// Reads a whole file with the size limit; throws UsageError when it cannot be read.
Bytes readFile(const std::string& path);

// Writes `bytes` to path through a temporary file in the same directory and a rename.
void writeFileAtomic(const std::string& path, const Bytes& bytes);

}  // namespace luxel
