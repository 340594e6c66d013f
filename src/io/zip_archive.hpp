#pragma once
// libzip behind one small class, shared by the map opener and the game file system. libzip handles are
// not thread-safe, so an archive keeps a pool of handles and each read borrows one: concurrent reads of
// one archive then decompress in parallel instead of queueing on a lock.
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "luxel/io/map_source.hpp"

struct zip;  // libzip's zip_t; kept out of this header so includers need not see <zip.h>

namespace luxel {

struct ZipEntry {
    std::string name;   // as the central directory stores it
    uint64_t index = 0;
    uint64_t size = 0;  // uncompressed
};

class ZipArchive {
public:
    // A zip on disk: UsageError when the file does not exist, DecodeError naming it when it is no zip.
    explicit ZipArchive(std::string path);
    // A zip held in memory (a Source map's pakfile lump); `displayName` names it in errors.
    ZipArchive(std::string displayName, Bytes bytes);
    ~ZipArchive();
    ZipArchive(const ZipArchive&) = delete;
    ZipArchive& operator=(const ZipArchive&) = delete;

    const std::string& displayName() const { return name_; }
    const Bytes& bytes() const { return bytes_; }  // in-memory archives only; empty for files
    // The central directory's files (directory entries left out), in stored order.
    std::vector<ZipEntry> entries() const;
    // Case-insensitive exact-name lookup, as libzip's ZIP_FL_NOCASE; nullopt when absent.
    std::optional<uint64_t> locate(const std::string& name) const;
    // Reads entry `index` whole (at most kMaxFileBytes); `name` is for error messages only.
    Bytes read(uint64_t index, const std::string& name) const;
    std::optional<Bytes> read(const std::string& name) const;

private:
    struct Return {
        const ZipArchive* owner;
        void operator()(zip* z) const;
    };
    using Lease = std::unique_ptr<zip, Return>;
    zip* open() const;
    Lease acquire() const;

    std::string name_;
    Bytes bytes_;
    bool inMemory_ = false;
    mutable std::mutex mutex_;
    mutable std::vector<zip*> idle_;
};

// The archive at `path`, shared by everyone who holds it: the map opener and the game file system then read
// a large pk3's central directory once per process instead of once each. Kept only while someone holds it.
std::shared_ptr<const ZipArchive> openZipArchive(const std::string& path);

// openZipArchive of each path, in parallel (a game folder's pk3 directories are read at once); an archive
// that cannot be opened holds the error its opening threw, for the caller to raise where it would have.
struct OpenedZip {
    std::shared_ptr<const ZipArchive> archive;
    std::exception_ptr error;
};
std::vector<OpenedZip> openZipArchives(const std::vector<std::string>& paths);

}  // namespace luxel
