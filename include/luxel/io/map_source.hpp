#pragma once
// Where a map's bytes come from: a .bsp on disk, a map inside a .pk3 (zip) archive, or a map found by
// name in a game directory of pk3 files. Decoders also need files that sit beside the map
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
    std::string displayName;  // what error messages call the file: "path.bsp" or "pak.pk3:maps/x.bsp"
    std::string mapName;      // the map's base name without extension ("am_thornish")
    Bytes bytes;
    // Opens a file relative to the directory that holds the map (for "x/lm_0000.tga" beside
    // "maps/x.bsp"); returns nullopt when it does not exist.
    std::function<std::optional<Bytes>(const std::string& relativePath)> openRelated;
};

// Size limit for any one file read into memory; larger files are rejected with a clear error.
constexpr uint64_t kMaxFileBytes = uint64_t(1) << 30;

// "archive.pk3:maps/x.bsp" (also .zip, any case) split into the archive and the member; nullopt for a plain
// path. Every place that names a map inside an archive goes through this one reading.
struct ArchiveMember {
    std::string archive, member;
};
std::optional<ArchiveMember> splitArchiveMember(const std::string& spec);

// "a.bsp", or "archive.pk3:maps/a.bsp". Throws UsageError when missing, DecodeError when an archive is bad.
MapSource openMapPath(const std::string& spec);

// Searches every *.pk3 in gameDir for maps/<name>.bsp with the engine's precedence: archives are
// taken in sorted name order and a later archive overrides an earlier one.
MapSource openMapInGameDir(const std::string& gameDir, const std::string& mapName);

// Reads a whole file with the size limit; throws UsageError when it cannot be read.
Bytes readFile(const std::string& path);

// Writes `bytes` to path through a temporary file in the same directory and a rename.
void writeFileAtomic(const std::string& path, const Bytes& bytes);

}  // namespace luxel
