#pragma once
// libzip behind one small class, shared by the map opener and the game file system. libzip handles are
// not thread-safe, so an archive keeps a pool of handles and each read borrows one: concurrent reads of
// one archive then decompress in parallel instead of queueing on a lock.
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "archive.hpp"

struct zip;  // libzip's zip_t; kept out of this header so includers need not see <zip.h>

namespace luxel {

using ZipEntry = ArchiveEntry;

class ZipArchive final : public Archive {
public:
    // A zip on disk: UsageError when the file does not exist, DecodeError naming it when it is no zip.
    explicit ZipArchive(std::string path);
    // A zip held in memory (a Source map's pakfile lump); `displayName` names it in errors.
    ZipArchive(std::string displayName, Bytes bytes);
    ~ZipArchive() override;
    ZipArchive(const ZipArchive&) = delete;
    ZipArchive& operator=(const ZipArchive&) = delete;

    const std::string& displayName() const override { return name_; }
    const Bytes& bytes() const { return bytes_; }  // in-memory archives only; empty for files
    // The central directory's files (directory entries left out), in stored order.
    std::vector<ZipEntry> entries() const override;
    // Case-insensitive exact-name lookup, as libzip's ZIP_FL_NOCASE; nullopt when absent.
    std::optional<uint64_t> locate(const std::string& name) const override;
    // Reads entry `index` whole (at most kMaxFileBytes); `name` is for error messages only.
    Bytes read(uint64_t index, const std::string& name) const override;
    using Archive::read;

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

}  // namespace luxel
