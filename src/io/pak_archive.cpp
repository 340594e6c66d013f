#include "pak_archive.hpp"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "luxel/io/reader.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"

namespace luxel {
namespace fs = std::filesystem;

namespace {

constexpr uint64_t kHeaderSize = 12;
constexpr uint64_t kRecordSize = 64;
constexpr size_t kNameSize = 56;

// Bytes of a stored name or magic for a message: printable ASCII as is, anything else as \xNN.
std::string printable(const uint8_t* p, size_t n) {
    std::string out;
    for (size_t i = 0; i < n; ++i) {
        if (p[i] >= 32 && p[i] < 127 && p[i] != '\\') {
            out += char(p[i]);
        } else {
            static const char* digits = "0123456789abcdef";
            out += "\\x";
            out += digits[p[i] >> 4];
            out += digits[p[i] & 15];
        }
    }
    return out;
}
std::string printable(const std::string& s) { return printable(reinterpret_cast<const uint8_t*>(s.data()), s.size()); }

// `length` bytes at `offset` of a file whose size has been checked; false when they cannot all be read.
bool readRange(const std::string& path, uint64_t offset, uint64_t length, uint8_t* out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    in.seekg(std::streamoff(offset));
    return length == 0 || bool(in.read(reinterpret_cast<char*>(out), std::streamsize(length)));
}

}  // namespace

PakArchive::PakArchive(std::string path) : name_(std::move(path)) {
    std::error_code ec;
    if (!fs::exists(name_, ec)) throw UsageError(name_ + ": no such file");
    if (!fs::is_regular_file(name_, ec)) throw UsageError(name_ + ": not a regular file");
    const uint64_t fileSize = fs::file_size(name_, ec);
    if (ec) throw UsageError(name_ + ": cannot read (" + ec.message() + ")");
    Bytes header(size_t(std::min(fileSize, kHeaderSize)));
    if (!readRange(name_, 0, header.size(), header.data())) throw UsageError(name_ + ": cannot read its header");
    const auto [dirOffset, dirLength] = parseHeader(header, fileSize);
    // parseHeader bounded the length by the entry limit: at most 4 MiB.
    Bytes directory(size_t(dirLength), 0);
    if (!readRange(name_, dirOffset, dirLength, directory.data()))
        throw UsageError(name_ + ": cannot read its directory at byte " + std::to_string(dirOffset));
    parseDirectory(directory.data(), dirOffset, dirLength, fileSize);
}

PakArchive::PakArchive(std::string displayName, Bytes bytes)
    : name_(std::move(displayName)), bytes_(std::move(bytes)), inMemory_(true) {
    const Bytes header(bytes_.begin(), bytes_.begin() + ptrdiff_t(std::min<uint64_t>(bytes_.size(), kHeaderSize)));
    const auto [dirOffset, dirLength] = parseHeader(header, bytes_.size());
    parseDirectory(bytes_.data() + dirOffset, dirOffset, dirLength, bytes_.size());
}

std::pair<uint64_t, uint64_t> PakArchive::parseHeader(const Bytes& header, uint64_t fileSize) const {
    ByteReader r(header, name_, "pak header");
    if (header.size() >= 4 && std::memcmp(header.data(), "PACK", 4) != 0)
        r.fail(0, "not a PACK archive (it starts with '" + printable(header.data(), 4) + "', not 'PACK')");
    if (fileSize < kHeaderSize)
        r.fail(0, "a file of " + std::to_string(fileSize) + " bytes is shorter than the 12-byte PACK header");
    r.skip(4);
    const int32_t dirOffset = r.i32();
    const int32_t dirLength = r.i32();
    if (dirOffset < 0) r.fail(4, "the directory offset " + std::to_string(dirOffset) + " is negative");
    if (dirLength < 0) r.fail(8, "the directory length " + std::to_string(dirLength) + " is negative");
    if (uint64_t(dirLength) % kRecordSize != 0)
        r.fail(8, "the directory length " + std::to_string(dirLength) + " is not a whole number of 64-byte entries");
    const uint64_t offset = uint64_t(dirOffset), length = uint64_t(dirLength);
    if (offset > fileSize || length > fileSize - offset)
        r.fail(4, "the directory (" + std::to_string(length) + " bytes at byte " + std::to_string(offset) +
                      ") runs past the end of the file (" + std::to_string(fileSize) + " bytes)");
    if (length > 0 && offset < kHeaderSize)
        r.fail(4, "the directory at byte " + std::to_string(offset) + " overlaps the 12-byte header");
    if (length / kRecordSize > kMaxPakEntries)
        r.failLimit(8, "the directory claims " + std::to_string(length / kRecordSize) + " entries, more than the " +
                      std::to_string(kMaxPakEntries) + " luxel reads (Quake 2 itself stops at 4096)");
    return {offset, length};
}

void PakArchive::parseDirectory(const uint8_t* directory, uint64_t dirOffset, uint64_t dirLength, uint64_t fileSize) {
    const uint64_t count = dirLength / kRecordSize;  // parseHeader checked it against kMaxPakEntries
    ByteReader r({directory, size_t(dirLength)}, name_, "pak directory", dirOffset);
    members_.reserve(size_t(count));
    for (uint64_t i = 0; i < count; ++i) {
        const size_t at = r.position();
        const std::string entry = "entry " + std::to_string(i);
        const uint8_t* field = r.bytes(kNameSize).data();
        const size_t length = strnlen(reinterpret_cast<const char*>(field), kNameSize);
        if (length == kNameSize)
            r.fail(at, entry + ": its name '" + printable(field, kNameSize) + "' has no NUL in its 56 bytes");
        if (length == 0) r.fail(at, entry + ": its name is empty");
        PakEntry e;
        e.name.assign(reinterpret_cast<const char*>(field), length);
        e.recordOffset = r.absolute(at);
        const int32_t offset = r.i32();
        const int32_t size = r.i32();
        const std::string named = entry + " (" + printable(e.name) + ")";
        if (offset < 0) r.fail(at + kNameSize, named + ": its offset " + std::to_string(offset) + " is negative");
        if (size < 0) r.fail(at + kNameSize + 4, named + ": its length " + std::to_string(size) + " is negative");
        e.offset = uint32_t(offset);
        e.size = uint32_t(size);
        if (e.offset > fileSize || e.size > fileSize - e.offset)
            r.fail(at + kNameSize, named + ": its " + std::to_string(e.size) + " bytes at byte " +
                                       std::to_string(e.offset) + " run past the end of the file (" +
                                       std::to_string(fileSize) + " bytes)");
        byLowerName_.emplace(toLowerAscii(e.name), members_.size());
        members_.push_back(std::move(e));
    }
}

std::vector<ArchiveEntry> PakArchive::entries() const {
    std::vector<ArchiveEntry> out;
    out.reserve(members_.size());
    for (size_t i = 0; i < members_.size(); ++i) out.push_back({members_[i].name, i, members_[i].size});
    return out;
}

std::optional<uint64_t> PakArchive::locate(const std::string& name) const {
    const auto it = byLowerName_.find(toLowerAscii(name));
    if (it == byLowerName_.end()) return std::nullopt;
    return it->second;
}

Bytes PakArchive::read(uint64_t index, const std::string& name) const {
    const PakEntry& e = members_.at(size_t(index));
    const std::string where = name_ + ":" + name;
    if (e.size > kMaxFileBytes)
        throw LimitError(where, "pak entry", e.offset,
                         "entry is " + std::to_string(e.size) + " bytes, over the 1 GiB limit");
    if (inMemory_) return Bytes(bytes_.begin() + ptrdiff_t(e.offset), bytes_.begin() + ptrdiff_t(e.offset + e.size));
    Bytes bytes(e.size);
    if (!readRange(name_, e.offset, e.size, bytes.data()))
        throw DecodeError(where, "pak entry", e.offset,
                          "cannot read its " + std::to_string(e.size) +
                              " bytes (the archive is shorter than when it was opened)");
    return bytes;
}

}  // namespace luxel
