#pragma once
// What the map opener, the map listing and the game file system ask of an archive, whatever its format: zip /
// pk3 (ZipArchive) or id's PACK (.pak, PakArchive). An archive on disk is opened by its extension (.pak: PACK,
// else zip) and shared by everyone who holds it.
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "luxel/io/map_source.hpp"

namespace luxel {

struct ArchiveEntry {
    std::string name;   // as the directory stores it
    uint64_t index = 0; // what read() takes
    uint64_t size = 0;  // uncompressed
};

// After construction, every const member may be called from many threads at once.
class Archive {
public:
    virtual ~Archive() = default;
    // The path as opened, or the name an in-memory archive was given; errors name it.
    virtual const std::string& displayName() const = 0;
    // Its files (directory entries left out), in stored order.
    virtual std::vector<ArchiveEntry> entries() const = 0;
    // Case-insensitive exact-name lookup (ASCII letters; '/' and '\' stay distinct); nullopt when absent.
    virtual std::optional<uint64_t> locate(const std::string& name) const = 0;
    // Reads entry `index` whole (at most kMaxFileBytes); `name` is for error messages only.
    virtual Bytes read(uint64_t index, const std::string& name) const = 0;
    // locate() then read(); nullopt when absent.
    std::optional<Bytes> read(const std::string& name) const;
};

// Whether a path names an id PACK archive by its extension (.pak, any case).
bool isPakPath(const std::string& path);

// The archive at `path` (isPakPath: PakArchive, else ZipArchive), shared by everyone who holds it: the map
// opener and the game file system then read a large archive's directory once per process instead of once
// each. Kept only while someone holds it. UsageError when the file does not exist, DecodeError naming it
// when it is no archive of its kind.
std::shared_ptr<const Archive> openArchive(const std::string& path);

// openArchive of each path, in parallel (a game folder's archive directories are read at once); an archive
// that cannot be opened holds the error its opening threw, for the caller to raise where it would have.
struct OpenedArchive {
    std::shared_ptr<const Archive> archive;
    std::exception_ptr error;
};
std::vector<OpenedArchive> openArchives(const std::vector<std::string>& paths);

}  // namespace luxel
