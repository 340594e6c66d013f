#pragma once
// id PACK archives (.pak, Quake 1 and 2) built in memory for tests, byte by byte from the format's description
// (independent of luxel's reader): the 12-byte header, the files' bytes in the order given, then the directory
// of 64-byte records, as id's own pak tools lay them out. The offsets below let a test damage one field.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace luxel::test {

struct PakFile {
    std::string name;     // stored as is (NUL-padded to 56 bytes; the writer refuses a longer one)
    std::string content;
};

constexpr size_t kPakDirOffsetField = 4;   // header: int32 dirofs
constexpr size_t kPakDirLengthField = 8;   // header: int32 dirlen
constexpr size_t kPakRecordSize = 64;      // directory record: char name[56], int32 filepos, int32 filelen
constexpr size_t kPakRecordPos = 56;
constexpr size_t kPakRecordLength = 60;

// Throws std::invalid_argument for a name of 56 bytes or more.
std::vector<uint8_t> makePak(const std::vector<PakFile>& files);

// Where directory record `i` of a pak made by makePak starts.
size_t pakRecordOffset(const std::vector<uint8_t>& pak, size_t i);

}  // namespace luxel::test
