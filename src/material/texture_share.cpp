#include "texture_share.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include <fmt/format.h>

namespace luxel {
namespace {

constexpr char kTextureMagic[8] = {'L', 'X', 'T', 'E', 'X', '0', '1', '\n'};
constexpr char kSizeMagic[8] = {'L', 'X', 'S', 'I', 'Z', '0', '1', '\n'};
constexpr uint32_t kMaxLevels = 32;  // a side of at most kMaxTextureSide halves to 1 in 14 steps

// Keys are long and free-form (archive paths, palettes, levels): files are named by a hash of them, and each
// file holds its key, so two keys of one hash read as misses, never as each other's texture.
std::string pathFor(const std::string& dir, const std::string& key, const char* suffix) {
    return fmt::format("{}/{:016x}{}", dir, XXH3_64bits(key.data(), key.size()), suffix);
}

// One file's bytes, written whole to a temporary name and renamed into place.
class FileWriter {
public:
    explicit FileWriter(std::string path) : path_(std::move(path)) {
        static std::atomic<uint64_t> serial{0};
        temp_ = fmt::format("{}.tmp{}-{}", path_, ::getpid(), serial.fetch_add(1));
        fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        ok_ = fd_ >= 0;
    }
    ~FileWriter() {
        if (fd_ >= 0) ::close(fd_);
        if (!done_) ::unlink(temp_.c_str());
    }
    FileWriter(const FileWriter&) = delete;
    FileWriter& operator=(const FileWriter&) = delete;

    void bytes(const void* data, size_t n) {
        const char* p = static_cast<const char*>(data);
        while (ok_ && n > 0) {
            const ssize_t put = ::write(fd_, p, n);
            if (put < 0 && errno == EINTR) continue;
            if (put <= 0) ok_ = false;
            else p += put, n -= size_t(put), written_ += size_t(put);
        }
    }
    template <typename T> void value(T v) { bytes(&v, sizeof v); }
    void text(const std::string& s) {
        value(uint32_t(s.size()));
        bytes(s.data(), s.size());
    }
    template <typename T> void vector(const std::vector<T>& v) {
        value(uint64_t(v.size()));
        bytes(v.data(), v.size() * sizeof(T));
    }
    // Renames the file into place; the bytes written, 0 when any step failed.
    size_t finish() {
        if (!ok_) return 0;
        ok_ = ::close(fd_) == 0;
        fd_ = -1;
        if (!ok_ || ::rename(temp_.c_str(), path_.c_str()) != 0) return 0;
        done_ = true;
        return written_;
    }

private:
    std::string path_, temp_;
    int fd_ = -1;
    bool ok_ = false, done_ = false;
    size_t written_ = 0;
};

// Reads a file written by FileWriter; every read checks what is left of the file, so a damaged or foreign
// file is a miss (ok() false), never a huge allocation.
class FileReader {
public:
    explicit FileReader(const std::string& path) {
        fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        struct stat st {};
        ok_ = fd_ >= 0 && ::fstat(fd_, &st) == 0;
        left_ = ok_ ? uint64_t(st.st_size) : 0;
    }
    ~FileReader() {
        if (fd_ >= 0) ::close(fd_);
    }
    FileReader(const FileReader&) = delete;
    FileReader& operator=(const FileReader&) = delete;

    bool ok() const { return ok_; }
    bool atEnd() const { return ok_ && left_ == 0; }
    void bytes(void* data, size_t n) {
        if (n > left_) ok_ = false;
        char* p = static_cast<char*>(data);
        while (ok_ && n > 0) {
            const ssize_t got = ::read(fd_, p, n);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) ok_ = false;
            else p += got, n -= size_t(got), left_ -= uint64_t(got);
        }
    }
    template <typename T> T value() {
        T v{};
        bytes(&v, sizeof v);
        return v;
    }
    std::string text() {
        const uint32_t n = value<uint32_t>();
        std::string s;
        if (!ok_ || n > left_) return ok_ = false, s;
        s.resize(n);
        bytes(s.data(), n);
        return s;
    }
    template <typename T> std::vector<T> vector() {
        const uint64_t n = value<uint64_t>();
        std::vector<T> v;
        if (!ok_ || n > left_ / sizeof(T)) return ok_ = false, v;
        v.resize(size_t(n));
        bytes(v.data(), v.size() * sizeof(T));
        return v;
    }
    bool magic(const char (&expected)[8]) {
        char got[8] = {};
        bytes(got, sizeof got);
        return ok_ = ok_ && std::memcmp(got, expected, sizeof got) == 0;
    }

private:
    int fd_ = -1;
    bool ok_ = false;
    uint64_t left_ = 0;
};

template <typename T> void writeLevels(FileWriter& out, const std::vector<std::vector<T>>& levels) {
    out.value(uint32_t(levels.size()));
    for (const auto& level : levels) out.vector(level);
}

template <typename T> std::vector<std::vector<T>> readLevels(FileReader& in) {
    const uint32_t count = in.value<uint32_t>();
    std::vector<std::vector<T>> levels;
    if (count > kMaxLevels) return levels;
    for (uint32_t i = 0; i < count && in.ok(); ++i) levels.push_back(in.vector<T>());
    return levels;
}

// The shape every sampler relies on (makeTexture's): each level from firstLevel on holds its padded texels, its
// alpha bytes and cell ranges when the texture has alpha; the levels before it are sizes only.
bool hasTextureShape(const Texture& t) {
    const size_t levels = t.mips.size();
    if (levels == 0 || levels > kMaxLevels || t.firstLevel < 0 || size_t(t.firstLevel) >= levels ||
        t.paddedLevels.size() != levels || (t.hasAlpha && (t.alphaLevels.size() != levels || t.alphaCellRanges.size() != levels)))
        return false;
    for (size_t level = 0; level < levels; ++level) {
        const auto [w, h] = t.mips[level];
        if (w <= 0 || h <= 0 || w > kMaxTextureSide || h > kMaxTextureSide) return false;
        const size_t texels = size_t(w) * size_t(h);
        const bool made = level >= size_t(t.firstLevel);
        if (t.paddedLevels[level].size() != (made ? (size_t(w) + 1) * (size_t(h) + 1) : 0)) return false;
        if (t.hasAlpha && (t.alphaLevels[level].size() != (made ? texels + 3 : 0) ||
                           t.alphaCellRanges[level].size() != (made ? texels + 1 : 0)))
            return false;
    }
    return true;
}

}  // namespace

size_t writeSharedTexture(const std::string& dir, const std::string& key, const Texture& t) {
    FileWriter out(pathFor(dir, key, ".tex"));
    out.bytes(kTextureMagic, sizeof kTextureMagic);
    out.text(key);
    out.text(t.name);
    out.value(t.firstLevel);
    out.value(uint8_t(t.hasAlpha));
    out.vector(t.mips);
    writeLevels(out, t.paddedLevels);
    writeLevels(out, t.alphaLevels);
    writeLevels(out, t.alphaCellRanges);
    return out.finish();
}

std::shared_ptr<const Texture> readSharedTexture(const std::string& dir, const std::string& key) {
    FileReader in(pathFor(dir, key, ".tex"));
    if (!in.ok() || !in.magic(kTextureMagic) || in.text() != key) return nullptr;
    auto t = std::make_shared<Texture>();
    t->name = in.text();
    t->firstLevel = in.value<int32_t>();
    t->hasAlpha = in.value<uint8_t>() != 0;
    t->mips = in.vector<Texture::LevelSize>();
    t->paddedLevels = readLevels<uint32_t>(in);
    t->alphaLevels = readLevels<uint8_t>(in);
    t->alphaCellRanges = readLevels<uint16_t>(in);
    return in.atEnd() && hasTextureShape(*t) ? std::move(t) : nullptr;
}

std::optional<std::pair<int32_t, int32_t>> readSharedSize(const std::string& dir, const std::string& key) {
    FileReader in(pathFor(dir, key, ".size"));
    if (!in.ok() || !in.magic(kSizeMagic) || in.text() != key) return std::nullopt;
    const int32_t width = in.value<int32_t>(), height = in.value<int32_t>();
    if (!in.atEnd() || width < 0 || height < 0) return std::nullopt;
    return std::pair(width, height);
}

void writeSharedSize(const std::string& dir, const std::string& key, std::pair<int32_t, int32_t> size) {
    FileWriter out(pathFor(dir, key, ".size"));
    out.bytes(kSizeMagic, sizeof kSizeMagic);
    out.text(key);
    out.value(size.first);
    out.value(size.second);
    out.finish();
}

}  // namespace luxel
