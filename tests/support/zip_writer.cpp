#include "support/zip_writer.hpp"

#include <zip.h>

#include <cstdio>
#include <stdexcept>

namespace luxel::test {

std::vector<uint8_t> makeZip(const std::vector<ZipMember>& members) {
    auto check = [](bool ok, const std::string& what) {
        if (!ok) throw std::runtime_error("makeZip: " + what);
    };
    zip_error_t err;
    zip_error_init(&err);
    zip_source_t* out = zip_source_buffer_create(nullptr, 0, 0, &err);
    check(out != nullptr, "buffer source");
    zip_source_keep(out);
    zip_t* z = zip_open_from_source(out, ZIP_TRUNCATE, &err);
    check(z != nullptr, "open");
    for (const ZipMember& m : members) {
        zip_source_t* data = zip_source_buffer(z, m.content.data(), m.content.size(), 0);
        check(data != nullptr, "member source");
        const zip_int64_t index = zip_file_add(z, m.name.c_str(), data, ZIP_FL_ENC_UTF_8);
        check(index >= 0, m.name + ": " + zip_strerror(z));
        if (m.store) check(zip_set_file_compression(z, zip_uint64_t(index), ZIP_CM_STORE, 0) == 0, "store");
    }
    check(zip_close(z) == 0, "close");
    check(zip_source_open(out) == 0, "reopen");
    check(zip_source_seek(out, 0, SEEK_END) == 0, "seek");
    const zip_int64_t length = zip_source_tell(out);
    check(zip_source_seek(out, 0, SEEK_SET) == 0, "seek");
    std::vector<uint8_t> bytes(static_cast<size_t>(length));
    check(zip_source_read(out, bytes.data(), zip_uint64_t(length)) == length, "read");
    zip_source_close(out);
    zip_source_free(out);
    zip_error_fini(&err);
    return bytes;
}

}  // namespace luxel::test
