#pragma once
// Zip archives built in memory with libzip: the library real pk3 tools use, yet a writer independent of
// luxel's reader, for tests of archives, game directories and Source pakfiles.
#include <cstdint>
#include <string>
#include <vector>

namespace luxel::test {

struct ZipMember {
    std::string name;
    std::string content;  // the member's bytes
    bool store = false;   // uncompressed, so a test can find and damage the content in the zip bytes
};

// Throws std::runtime_error when libzip fails.
std::vector<uint8_t> makeZip(const std::vector<ZipMember>& members);

}  // namespace luxel::test
