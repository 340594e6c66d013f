#include "luxel/io/vpk_archive.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "luxel/io/game_files.hpp"
#include "luxel/io/reader.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"

namespace luxel {
namespace fs = std::filesystem;

namespace {

constexpr uint32_t kSignature = 0x55aa1234;
constexpr uint16_t kRecordEnd = 0xffff;
constexpr size_t kHeaderV1 = 12, kHeaderV2 = 28;
// How many entries a warning about one archive names before it only counts.
constexpr size_t kNamedInWarning = 3;

std::string hex(uint32_t v) {
    char text[11];
    std::snprintf(text, sizeof text, "0x%08x", v);
    return text;
}

// A NUL-terminated string of the tree.
std::string cString(ByteReader& r) {
    const std::span<const uint8_t> rest = r.data().subspan(r.position());
    const auto nul = std::find(rest.begin(), rest.end(), uint8_t(0));
    if (nul == rest.end()) r.fail(r.position(), "tree name without its terminating NUL");
    const std::span<const uint8_t> text = r.bytes(size_t(nul - rest.begin()));
    r.skip(1);
    return std::string(text.begin(), text.end());
}

// A tree part: " " stands for an empty extension, path or name.
std::string part(std::string s) { return s == " " ? std::string() : s; }

std::string joinPath(const std::string& dir, const std::string& name, const std::string& ext) {
    std::string path = dir.empty() ? name : dir + "/" + name;
    if (!ext.empty()) path += "." + ext;
    return path;
}

// Size of a file on disk; nullopt when it is not a regular file.
std::optional<uint64_t> regularFileSize(const std::string& path) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return std::nullopt;
    const uint64_t size = fs::file_size(path, ec);
    if (ec) return std::nullopt;
    return size;
}

// Bytes [offset, offset + length) of a file whose size has been checked; UsageError when reading fails.
Bytes readRange(const std::string& path, uint64_t offset, uint64_t length) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UsageError(path + ": cannot open for reading");
    Bytes bytes(static_cast<size_t>(length));
    in.seekg(std::streamoff(offset));
    if (length && !in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(length)))
        throw UsageError(path + ": read failed at byte " + std::to_string(offset));
    return bytes;
}

}  // namespace

VpkArchive::VpkArchive(std::string dirPath, bool strict) : path_(std::move(dirPath)), strict_(strict) {
    const std::optional<uint64_t> size = regularFileSize(path_);
    if (!size) throw UsageError(path_ + ": no such file");
    dir_ = readRange(path_, 0, std::min<uint64_t>(*size, kHeaderV2));
    parse(*size);
    // NAME_dir.vpk and a single-file NAME.vpk both number their archives NAME_NNN.vpk.
    std::string base = path_.substr(0, path_.size() - (endsWithIgnoreCase(path_, ".vpk") ? 4 : 0));
    if (endsWithIgnoreCase(base, "_dir")) base.resize(base.size() - 4);
    archivePrefix_ = base + "_";
    checkArchives();
}

VpkArchive::VpkArchive(std::string displayName, Bytes dirBytes, bool strict)
    : path_(std::move(displayName)), strict_(strict), inMemory_(true), dir_(std::move(dirBytes)) {
    parse(dir_.size());
    checkArchives();
}

// Reads the header from dir_ (at least its first 28 bytes, or the whole file), then, on disk, the tree.
void VpkArchive::parse(uint64_t fileSize) {
    ByteReader header(dir_, path_, "header");
    const uint32_t signature = header.u32();
    if (signature != kSignature) header.fail(0, "not a VPK (signature " + hex(signature) + ", expected " + hex(kSignature) + ")");
    version_ = header.u32();
    if (version_ != 1 && version_ != 2) header.fail(4, "VPK version " + std::to_string(version_) + " is not supported (1 or 2)");
    const uint64_t treeSize = header.u32();
    const uint64_t headerSize = version_ == 1 ? kHeaderV1 : kHeaderV2;
    uint64_t dataSize = 0, trailing = 0;
    if (version_ == 2) {
        dataSize = header.u32();
        for (int k = 0; k < 3; ++k) trailing += header.u32();  // archive MD5s, other MD5s, signature: skipped
    }
    if (treeSize > fileSize - headerSize || treeSize > kMaxFileBytes)
        header.fail(8, "tree of " + std::to_string(treeSize) + " bytes runs past the end of the file (" +
                           std::to_string(fileSize) + " bytes)");
    dataStart_ = headerSize + treeSize;
    dataEnd_ = fileSize;
    if (version_ == 2) {
        if (dataSize + trailing > fileSize - dataStart_)
            header.fail(12, "data and trailing sections (" + std::to_string(dataSize) + " + " + std::to_string(trailing) +
                                " bytes) run past the end of the file (" + std::to_string(fileSize) + " bytes)");
        dataEnd_ = dataStart_ + dataSize;
    }
    if (!inMemory_) {
        Bytes tree = readRange(path_, headerSize, treeSize);
        dir_.resize(size_t(headerSize));
        dir_.insert(dir_.end(), tree.begin(), tree.end());
    }

    ByteReader r = ByteReader(dir_, path_).sub(headerSize, treeSize, "tree");
    // Extensions, each holding paths, each holding names; an empty string ends each list.
    while (true) {
        const std::string ext = cString(r);
        if (ext.empty()) break;
        while (true) {
            const std::string dir = cString(r);
            if (dir.empty()) break;
            while (true) {
                const std::string name = cString(r);
                if (name.empty()) break;
                VpkEntry e;
                e.path = joinPath(part(dir), part(name), part(ext));
                e.recordOffset = r.absolute(r.position());
                e.crc = r.u32();
                e.preloadLength = r.u16();
                e.archive = r.u16();
                e.offset = r.u32();
                e.length = r.u32();
                if (const uint16_t end = r.u16(); end != kRecordEnd)
                    r.fail(r.position() - 2, e.path + ": record ends with " + std::to_string(end) + ", expected 65535");
                e.preloadOffset = r.absolute(r.position());
                r.skip(e.preloadLength);
                add(std::move(e));
            }
        }
    }
}

void VpkArchive::add(VpkEntry e) {
    const std::optional<std::string> key = normalizeGamePath(e.path);
    if (!key) {
        warn(path_ + ": entry \"" + e.path + "\" left out: its path leaves the archive or names no file");
        return;
    }
    if (index_.contains(*key)) {
        warn(path_ + ": entry \"" + e.path + "\" left out: its path repeats an earlier entry's");
        return;
    }
    index_.emplace(*key, entries_.size());
    entries_.push_back(std::move(e));
}

std::string VpkArchive::archivePath(uint16_t archive) const {
    if (archive == kVpkDirectoryArchive) return path_;
    char number[8];
    std::snprintf(number, sizeof number, "%03u", unsigned(archive));
    return archivePrefix_ + number + ".vpk";
}

// One warning per archive that is missing or too short for its entries, naming the first few.
void VpkArchive::checkArchives() {
    std::map<uint16_t, std::vector<size_t>> byArchive;
    for (size_t i = 0; i < entries_.size(); ++i)
        if (entries_[i].length > 0) byArchive[entries_[i].archive].push_back(i);
    for (const auto& [archive, list] : byArchive) {
        const std::string file = archivePath(archive);
        std::optional<uint64_t> size;
        if (archive == kVpkDirectoryArchive) size = dataEnd_ - dataStart_;
        else if (!inMemory_) size = regularFileSize(file);
        std::vector<size_t> bad;
        for (size_t i : list)
            if (!size || entries_[i].offset > *size || entries_[i].length > *size - entries_[i].offset) bad.push_back(i);
        if (bad.empty()) continue;
        std::string names;
        for (size_t k = 0; k < bad.size() && k < kNamedInWarning; ++k) names += (k ? ", " : "") + entries_[bad[k]].path;
        if (bad.size() > kNamedInWarning) names += ", ...";
        const std::string count = std::to_string(bad.size()) + (bad.size() == 1 ? " entry" : " entries");
        if (!size)
            warn(path_ + ": archive " + file + " does not exist: " + count + " in it cannot be read (" + names + ")");
        else
            warn(path_ + ": " + count + " run past the end of " + (archive == kVpkDirectoryArchive ? "the directory file's data" : file) +
                 " (" + std::to_string(*size) + " bytes): " + names);
    }
}

std::optional<size_t> VpkArchive::find(const std::string& path) const {
    const std::optional<std::string> key = normalizeGamePath(path);
    if (!key) return std::nullopt;
    const auto it = index_.find(*key);
    return it == index_.end() ? std::nullopt : std::optional<size_t>(it->second);
}

Bytes VpkArchive::readData(const VpkEntry& e) const {
    if (e.length == 0) return {};
    const std::string lengthText = std::to_string(e.length) + " bytes at offset " + std::to_string(e.offset);
    if (e.archive == kVpkDirectoryArchive) {
        const uint64_t available = dataEnd_ - dataStart_;
        if (e.offset > available || e.length > available - e.offset)
            throw DecodeError(path_, "", e.recordOffset, e.path + ": " + lengthText + " run past the end of the directory file's data (" +
                                                             std::to_string(available) + " bytes)");
        if (inMemory_) return Bytes(dir_.begin() + ptrdiff_t(dataStart_ + e.offset), dir_.begin() + ptrdiff_t(dataStart_ + e.offset + e.length));
        return readRange(path_, dataStart_ + e.offset, e.length);
    }
    const std::string file = archivePath(e.archive);
    const std::optional<uint64_t> size = inMemory_ ? std::nullopt : regularFileSize(file);
    if (!size) throw DecodeError(path_, "", e.recordOffset, e.path + ": its archive " + file + " does not exist");
    if (e.offset > *size || e.length > *size - e.offset)
        throw DecodeError(file, "", e.offset, e.path + ": " + lengthText + " run past the end of the archive (" + std::to_string(*size) + " bytes)");
    return readRange(file, e.offset, e.length);
}

Bytes VpkArchive::read(size_t index) const {
    const VpkEntry& e = entries_.at(index);
    const std::span<const uint8_t> preload = ByteReader(dir_, path_).sub(e.preloadOffset, e.preloadLength, "preload").data();
    Bytes bytes(preload.begin(), preload.end());
    const Bytes data = readData(e);
    bytes.insert(bytes.end(), data.begin(), data.end());
    const uint32_t crc = uint32_t(crc32_z(0, bytes.data(), bytes.size()));
    if (crc != e.crc) {
        const std::string what = e.path + ": CRC32 of its " + std::to_string(bytes.size()) + " bytes is " + hex(crc) +
                                 ", the directory says " + hex(e.crc);
        {
            std::lock_guard lock(mutex_);
            if (crcWarned_.insert(index).second) warnings_.push_back(path_ + ": " + what);
        }
        if (strict_) throw DecodeError(path_, "", e.recordOffset, what);
    }
    return bytes;
}

void VpkArchive::warn(std::string message) const {
    std::lock_guard lock(mutex_);
    warnings_.push_back(std::move(message));
}

std::vector<std::string> VpkArchive::warnings() const {
    std::lock_guard lock(mutex_);
    return warnings_;
}

}  // namespace luxel
