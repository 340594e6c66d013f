// Zip archives built in memory with libzip, then written atomically.
#include "luxel/io/zip_writer.hpp"

#include <zip.h>

#include <cstdio>
#include <memory>

#include "luxel/util/error.hpp"

namespace luxel {

namespace {

// 1980-01-01 00:00, the first moment a zip's DOS date holds, given as DOS fields (not a time_t, which
// libzip would convert in the local time zone): a member's time is no function of when or where the batch
// ran, and reruns give the same archive bytes.
constexpr zip_uint16_t kDosTime = 0, kDosDate = (0 << 9) | (1 << 5) | 1;

struct SourceFree {
    void operator()(zip_source_t* s) const { zip_source_free(s); }
};

}  // namespace

Bytes zipArchiveBytes(const std::vector<ZipWriteMember>& members) {
    auto fail = [](const std::string& what) -> void { throw UsageError("zip archive: " + what); };
    zip_error_t err;
    zip_error_init(&err);
    // The buffer source receives the archive when it is closed; kept past zip_close to read it back.
    std::unique_ptr<zip_source_t, SourceFree> out(zip_source_buffer_create(nullptr, 0, 0, &err));
    if (!out) fail(zip_error_strerror(&err));
    zip_source_keep(out.get());
    zip_t* z = zip_open_from_source(out.get(), ZIP_TRUNCATE, &err);
    if (!z) {
        const std::string what = zip_error_strerror(&err);
        zip_error_fini(&err);
        fail(what);
    }
    for (const ZipWriteMember& m : members) {
        // libzip reads the member's bytes at zip_close: `members` outlives that.
        zip_source_t* data = zip_source_buffer(z, m.content.data(), m.content.size(), 0);
        const zip_int64_t index = data ? zip_file_add(z, m.name.c_str(), data, ZIP_FL_ENC_UTF_8) : -1;
        if (index < 0) {
            const std::string what = m.name + ": " + zip_strerror(z);
            if (data) zip_source_free(data);
            zip_discard(z);
            fail(what);
        }
        if (zip_set_file_compression(z, zip_uint64_t(index), ZIP_CM_STORE, 0) != 0 ||
            zip_file_set_dostime(z, zip_uint64_t(index), kDosTime, kDosDate, 0) != 0) {
            const std::string what = m.name + ": " + zip_strerror(z);
            zip_discard(z);
            fail(what);
        }
    }
    if (zip_close(z) != 0) {
        const std::string what = zip_strerror(z);
        zip_discard(z);
        fail(what);
    }
    zip_error_fini(&err);
    zip_source_t* src = out.get();
    if (zip_source_open(src) != 0 || zip_source_seek(src, 0, SEEK_END) != 0) fail("cannot read the archive back");
    const zip_int64_t length = zip_source_tell(src);
    Bytes bytes(length > 0 ? size_t(length) : 0);
    const bool ok = zip_source_seek(src, 0, SEEK_SET) == 0 &&
                    zip_source_read(src, bytes.data(), zip_uint64_t(bytes.size())) == zip_int64_t(bytes.size());
    zip_source_close(src);
    if (!ok) fail("cannot read the archive back");
    return bytes;
}

void writeZipArchive(const std::string& path, const std::vector<ZipWriteMember>& members) {
    writeFileAtomic(path, zipArchiveBytes(members));
}

}  // namespace luxel
