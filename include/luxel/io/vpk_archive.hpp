#pragma once
// Valve VPK archives (versions 1 and 2): a directory file `NAME_dir.vpk` holding the tree of every entry
// (extension / path / name, CRC32, preload bytes) and some data, plus numbered archives `NAME_000.vpk`,
// `NAME_001.vpk`, ... beside it holding the rest (their numbers need not be contiguous). A single-file
// `NAME.vpk` keeps everything in the directory file.
//
// Opening reads the header and the tree only; an entry's bytes are read when asked for, from the
// directory file or its numbered archive, never extracted to disk. The CRC32 the tree stores is checked on
// every read: a mismatch is a warning naming the entry (see warnings()), or a DecodeError when `strict`.
// After construction, every const member may be called from many threads at once.
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "luxel/io/map_source.hpp"

namespace luxel {

// The archive index of an entry whose data follows the tree in the directory file.
constexpr uint16_t kVpkDirectoryArchive = 0x7fff;

struct VpkEntry {
    std::string path;           // "dir/name.ext" as stored (' ' parts dropped: "test/test2", "readme.txt")
    uint32_t crc = 0;           // CRC32 of the whole file (preload bytes and archive bytes)
    uint16_t archive = 0;       // NAME_<archive>.vpk, or kVpkDirectoryArchive
    uint32_t offset = 0;        // in the archive; in the directory file, from the end of the tree
    uint32_t length = 0;        // bytes in the archive, after the preload bytes
    uint16_t preloadLength = 0; // bytes stored in the tree itself, first in the file
    uint64_t preloadOffset = 0; // where the preload bytes sit in the directory file
    uint64_t recordOffset = 0;  // where the entry's record sits in the directory file (for messages)
    uint64_t size() const { return uint64_t(preloadLength) + length; }
};

class VpkArchive {
public:
    // A directory file on disk: UsageError when missing, DecodeError when its header or tree is bad (a
    // tree past the end of the file, a record cut short, an unknown version).
    explicit VpkArchive(std::string dirPath, bool strict = false);
    // A directory file held in memory (fuzzing, tests), called `displayName`; entries in numbered archives
    // cannot be read from it.
    VpkArchive(std::string displayName, Bytes dirBytes, bool strict = false);
    VpkArchive(const VpkArchive&) = delete;
    VpkArchive& operator=(const VpkArchive&) = delete;

    const std::string& path() const { return path_; }
    uint32_t version() const { return version_; }
    // In tree order. Entries whose path could leave the archive ("..", ':') or repeat an earlier path
    // are left out, each with a warning.
    const std::vector<VpkEntry>& entries() const { return entries_; }
    // The entry a game path names: case-insensitive, '/' or '\'; nullopt when absent.
    std::optional<size_t> find(const std::string& path) const;
    // normalizeGamePath of each entry's path -> its index in entries(), ordered (for listings).
    const std::map<std::string, size_t>& index() const { return index_; }
    // NAME_NNN.vpk for an archive index (the directory file itself for kVpkDirectoryArchive).
    std::string archivePath(uint16_t archive) const;
    // Entry `index`'s bytes, CRC checked. DecodeError naming the entry when its archive does not exist,
    // its bytes run past the archive's end, or (strict) its CRC does not match.
    Bytes read(size_t index) const;
    // What opening found (left-out entries, missing archives, entries past an archive's end) and each CRC
    // mismatch read so far, once per entry (under `strict` too, where the read also throws).
    std::vector<std::string> warnings() const;

private:
    void parse(uint64_t fileSize);
    void add(VpkEntry e);
    void checkArchives();
    Bytes readData(const VpkEntry& e) const;
    void warn(std::string message) const;

    std::string path_;
    std::string archivePrefix_;  // "dir/NAME_" of NAME_dir.vpk or NAME.vpk; "" in memory
    bool strict_ = false;
    bool inMemory_ = false;
    uint32_t version_ = 0;
    Bytes dir_;  // the header and the tree (in memory: the whole directory file)
    uint64_t dataStart_ = 0, dataEnd_ = 0;  // the directory file's own data section
    std::vector<VpkEntry> entries_;
    std::map<std::string, size_t> index_;  // normalised path -> entry
    mutable std::mutex mutex_;
    mutable std::vector<std::string> warnings_;
    mutable std::set<size_t> crcWarned_;
};

}  // namespace luxel
