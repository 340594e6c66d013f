#pragma once
// id Software's PACK archives (.pak: Quake 1 and Quake 2). Layout, all integers int32 little-endian:
//   header (12 bytes): "PACK", dirofs, dirlen
//   directory at dirofs: dirlen / 64 entries of { char name[56] (NUL-padded, '/'-separated), filepos, filelen }
// and each file's bytes stored uncompressed at its filepos.
//
// Opening reads the header and the directory only and checks all of it against the file's size before
// anything is allocated from its counts; an entry's bytes are read when asked for. A damaged archive (no
// "PACK", a directory past the end of the file or of a size that is no whole number of entries, more entries
// than kMaxPakEntries, a name with no NUL in its 56 bytes, an entry past the end of the file) is one
// DecodeError naming the archive, the part ("pak header", "pak directory") and the byte offset; a count or
// size past luxel's limits is its LimitError kind.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "archive.hpp"

namespace luxel {

// Quake 1 refuses a pak of more than 2048 files and Quake 2 one of more than 4096 (MAX_FILES_IN_PACK); luxel
// reads up to 16 times Quake 2's limit (a 4 MiB directory) and calls a directory claiming more damaged.
constexpr uint64_t kMaxPakEntries = 65536;

struct PakEntry {
    std::string name;        // as stored, up to its NUL
    uint32_t offset = 0;     // filepos
    uint32_t size = 0;       // filelen
    uint64_t recordOffset = 0;  // where its directory record sits in the archive (for messages)
};

class PakArchive final : public Archive {
public:
    // A pak on disk: UsageError when the file does not exist, DecodeError naming it when it is damaged.
    explicit PakArchive(std::string path);
    // A pak held in memory (tests, fuzzing), called `displayName` in errors.
    PakArchive(std::string displayName, Bytes bytes);

    const std::string& displayName() const override { return name_; }
    // Every directory entry, in stored order.
    const std::vector<PakEntry>& members() const { return members_; }
    std::vector<ArchiveEntry> entries() const override;
    // Case-insensitive exact-name lookup; of names equal but for case the first in the directory, as the
    // engines' linear search finds it.
    std::optional<uint64_t> locate(const std::string& name) const override;
    // Entry `index`'s bytes. DecodeError naming the archive and the entry when the file no longer holds it (cut
    // short since it was opened), LimitError when it is over kMaxFileBytes; std::out_of_range for an index
    // past the end.
    Bytes read(uint64_t index, const std::string& name) const override;
    using Archive::read;

private:
    // Checks the header (the archive's first 12 bytes or fewer) against fileSize; returns the directory's
    // offset and length in bytes.
    std::pair<uint64_t, uint64_t> parseHeader(const Bytes& header, uint64_t fileSize) const;
    // Reads the directory's records from `directory`, which starts at byte `dirOffset` of the archive.
    void parseDirectory(const uint8_t* directory, uint64_t dirOffset, uint64_t dirLength, uint64_t fileSize);

    std::string name_;
    Bytes bytes_;  // in-memory archives only
    bool inMemory_ = false;
    std::vector<PakEntry> members_;
    std::map<std::string, uint64_t> byLowerName_;  // ASCII lower-case name -> first entry of that name
};

}  // namespace luxel
