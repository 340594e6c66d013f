#include "zip_archive.hpp"

#include <libdeflate.h>
#include <zip.h>

#include <algorithm>
#include <filesystem>

#include "luxel/util/error.hpp"

namespace luxel {
namespace fs = std::filesystem;

namespace {

// More idle handles than readers that ever ran at once would only hold memory.
constexpr size_t kMaxIdleHandles = 16;

std::string errorText(int code) {
    zip_error_t ze;
    zip_error_init_with_code(&ze, code);
    std::string what = zip_error_strerror(&ze);
    zip_error_fini(&ze);
    return what;
}

// Reads `want` bytes of an opened member, growing the buffer with the data actually there (from 1 MiB,
// doubling), so a damaged directory's claim of a huge member costs no more memory than the member holds.
// Returns the count read, or -1 on a read error.
zip_int64_t readGrowing(zip_file_t* f, uint64_t want, Bytes& bytes) {
    zip_int64_t got = 0;
    while (bytes.size() < want) {
        const uint64_t step = std::max<uint64_t>(bytes.size(), uint64_t(1) << 20);
        const size_t chunk = size_t(std::min<uint64_t>(want - bytes.size(), step));
        const size_t had = bytes.size();
        bytes.resize(had + chunk);
        const zip_int64_t n = zip_fread(f, bytes.data() + had, chunk);
        if (n < 0) return -1;
        got += n;
        if (size_t(n) < chunk) break;
    }
    bytes.resize(size_t(got));
    return got;
}

// A deflated member through libdeflate: its raw stream read whole (libzip's ZIP_FL_COMPRESSED), inflated in
// one call into a buffer of the size the directory states, and checked against the directory's CRC32. The
// errors are the libzip path's. Deflate expands at most ~1032:1, so a size claim past that is refused before
// anything that large is allocated.
Bytes inflateMember(zip_t* z, uint64_t index, const zip_stat_t& st, const std::string& where) {
    constexpr uint64_t kMaxDeflateRatio = 1032;
    if (st.size > st.comp_size * kMaxDeflateRatio + 64)
        throw DecodeError(where, "zip entry", 0,
                          "claims " + std::to_string(st.size) + " bytes from " + std::to_string(st.comp_size) +
                              " compressed, more than deflate can expand to");
    zip_file_t* f = zip_fopen_index(z, index, ZIP_FL_COMPRESSED);
    if (!f) throw DecodeError(where, "zip entry", 0, std::string("cannot open: ") + zip_strerror(z));
    Bytes packed;
    const zip_int64_t got = readGrowing(f, st.comp_size, packed);
    std::string ferr = zip_file_strerror(f);
    zip_fclose(f);
    if (got < 0) throw DecodeError(where, "zip entry", 0, "cannot read: " + ferr);
    if (zip_uint64_t(got) < st.comp_size)
        throw DecodeError(where, "zip entry", 0,
                          "holds " + std::to_string(got) + " of its " + std::to_string(st.comp_size) + " compressed bytes");

    struct Free {
        void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
    };
    thread_local std::unique_ptr<libdeflate_decompressor, Free> inflater(libdeflate_alloc_decompressor());
    if (!inflater) throw std::bad_alloc();
    Bytes bytes(size_t(st.size));
    size_t produced = 0;
    const libdeflate_result r = libdeflate_deflate_decompress(inflater.get(), packed.data(), packed.size(),
                                                              bytes.data(), bytes.size(), &produced);
    if (r == LIBDEFLATE_INSUFFICIENT_SPACE)
        throw DecodeError(where, "zip entry", 0,
                          "decompresses to more than its " + std::to_string(st.size) + " bytes");
    if (r != LIBDEFLATE_SUCCESS) throw DecodeError(where, "zip entry", 0, "cannot decompress: Zlib error: invalid deflate data");
    if (produced < st.size)
        throw DecodeError(where, "zip entry", 0,
                          "decompresses to " + std::to_string(produced) + " of its " + std::to_string(st.size) + " bytes");
    if (libdeflate_crc32(0, bytes.data(), bytes.size()) != st.crc)
        throw DecodeError(where, "zip entry", 0, "cannot decompress: CRC error");
    return bytes;
}

}  // namespace

ZipArchive::ZipArchive(std::string path) : name_(std::move(path)) { acquire(); }

ZipArchive::ZipArchive(std::string displayName, Bytes bytes)
    : name_(std::move(displayName)), bytes_(std::move(bytes)), inMemory_(true) {
    acquire();
}

ZipArchive::~ZipArchive() {
    for (zip* z : idle_) zip_discard(z);
}

void ZipArchive::Return::operator()(zip* z) const {
    std::lock_guard lock(owner->mutex_);
    if (owner->idle_.size() < kMaxIdleHandles) {
        owner->idle_.push_back(z);
        return;
    }
    zip_discard(z);
}

zip* ZipArchive::open() const {
    if (!inMemory_) {
        int err = 0;
        if (zip_t* z = zip_open(name_.c_str(), ZIP_RDONLY, &err)) return z;
        std::error_code ec;
        if (!fs::exists(name_, ec)) throw UsageError(name_ + ": no such file");
        throw DecodeError(name_, "zip directory", 0, "cannot open archive: " + errorText(err));
    }
    zip_error_t ze;
    zip_error_init(&ze);
    // The source reads bytes_ in place (no copy, no free): every handle of this archive shares them.
    zip_source_t* source = zip_source_buffer_create(bytes_.data(), bytes_.size(), 0, &ze);
    zip_t* z = source ? zip_open_from_source(source, ZIP_RDONLY, &ze) : nullptr;
    if (!z) {
        if (source) zip_source_free(source);
        std::string what = zip_error_strerror(&ze);
        zip_error_fini(&ze);
        throw DecodeError(name_, "zip directory", 0, "cannot open archive: " + what);
    }
    zip_error_fini(&ze);
    return z;
}

ZipArchive::Lease ZipArchive::acquire() const {
    {
        std::lock_guard lock(mutex_);
        if (!idle_.empty()) {
            zip* z = idle_.back();
            idle_.pop_back();
            return Lease(z, Return{this});
        }
    }
    return Lease(open(), Return{this});
}

std::vector<ZipEntry> ZipArchive::entries() const {
    Lease z = acquire();
    const zip_int64_t count = zip_get_num_entries(z.get(), 0);
    std::vector<ZipEntry> out;
    out.reserve(size_t(std::max<zip_int64_t>(count, 0)));
    for (zip_int64_t i = 0; i < count; ++i) {
        zip_stat_t st;
        zip_stat_init(&st);
        if (zip_stat_index(z.get(), zip_uint64_t(i), 0, &st) != 0 || !(st.valid & ZIP_STAT_NAME) ||
            !(st.valid & ZIP_STAT_SIZE))
            throw DecodeError(name_, "zip directory", 0,
                              "cannot read central directory entry " + std::to_string(i) + ": " +
                                  zip_strerror(z.get()));
        std::string name = st.name;
        if (name.empty() || name.back() == '/') continue;
        out.push_back({std::move(name), zip_uint64_t(i), st.size});
    }
    return out;
}

std::optional<uint64_t> ZipArchive::locate(const std::string& name) const {
    Lease z = acquire();
    const zip_int64_t index = zip_name_locate(z.get(), name.c_str(), ZIP_FL_NOCASE);
    if (index < 0) return std::nullopt;
    return uint64_t(index);
}

Bytes ZipArchive::read(uint64_t index, const std::string& name) const {
    const std::string where = name_ + ":" + name;
    Lease z = acquire();
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(z.get(), index, 0, &st) != 0 || !(st.valid & ZIP_STAT_SIZE))
        throw DecodeError(where, "zip entry", 0, "cannot read the archive entry's size");
    if (st.size > kMaxFileBytes)
        throw DecodeError(where, "zip entry", 0,
                          "entry is " + std::to_string(st.size) + " bytes, over the 1 GiB limit");
    if ((st.valid & ZIP_STAT_COMP_METHOD) && st.comp_method == ZIP_CM_DEFLATE && (st.valid & ZIP_STAT_COMP_SIZE) &&
        (st.valid & ZIP_STAT_CRC) && (st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method == ZIP_EM_NONE)
        return inflateMember(z.get(), index, st, where);
    zip_file_t* f = zip_fopen_index(z.get(), index, 0);
    if (!f) throw DecodeError(where, "zip entry", 0, std::string("cannot open: ") + zip_strerror(z.get()));
    Bytes bytes;
    const zip_int64_t got = readGrowing(f, st.size, bytes);
    // libzip checks the CRC only when a read reaches the end of the data, so one more read must find
    // that end; it also catches a member longer than the directory promises.
    uint8_t extra = 0;
    const zip_int64_t more = got < 0 ? 0 : zip_fread(f, &extra, 1);
    std::string ferr = zip_file_strerror(f);
    zip_fclose(f);
    if (got < 0 || more < 0) throw DecodeError(where, "zip entry", 0, "cannot decompress: " + ferr);
    if (zip_uint64_t(got) < st.size)
        throw DecodeError(where, "zip entry", 0,
                          "decompresses to " + std::to_string(got) + " of its " + std::to_string(st.size) + " bytes");
    if (more > 0)
        throw DecodeError(where, "zip entry", 0,
                          "decompresses to more than its " + std::to_string(st.size) + " bytes");
    return bytes;
}

}  // namespace luxel
