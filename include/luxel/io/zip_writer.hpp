#pragma once
// Writing zip archives (pk3 files the games mount) through libzip: members in the order given, stored
// (the images they hold are compressed already), each member's time fixed so the same members give the
// same bytes.
#include <string>
#include <vector>

#include "luxel/io/map_source.hpp"

namespace luxel {

struct ZipWriteMember {
    std::string name;  // the path inside the archive, '/' separated ("levelshots/q3dm1.jpg")
    Bytes content;
};

// The archive's bytes. Throws UsageError when libzip refuses a member (an empty or repeated name).
Bytes zipArchiveBytes(const std::vector<ZipWriteMember>& members);

// zipArchiveBytes written to `path` through writeFileAtomic: a reader never sees half an archive.
void writeZipArchive(const std::string& path, const std::vector<ZipWriteMember>& members);

}  // namespace luxel
