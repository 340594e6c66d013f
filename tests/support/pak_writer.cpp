#include "support/pak_writer.hpp"

#include <stdexcept>

#include "support/decode_helpers.hpp"

namespace luxel::test {

std::vector<uint8_t> makePak(const std::vector<PakFile>& files) {
    std::vector<uint8_t> out = {'P', 'A', 'C', 'K'};
    append32(out, 0);  // dirofs and dirlen, filled in below
    append32(out, 0);
    std::vector<uint8_t> directory;
    for (const PakFile& f : files) {
        if (f.name.size() >= 56) throw std::invalid_argument("pak member name too long: " + f.name);
        std::vector<uint8_t> name(56, 0);
        std::copy(f.name.begin(), f.name.end(), name.begin());
        directory.insert(directory.end(), name.begin(), name.end());
        append32(directory, uint32_t(out.size()));
        append32(directory, uint32_t(f.content.size()));
        out.insert(out.end(), f.content.begin(), f.content.end());
    }
    put32(out, kPakDirOffsetField, uint32_t(out.size()));
    put32(out, kPakDirLengthField, uint32_t(directory.size()));
    out.insert(out.end(), directory.begin(), directory.end());
    return out;
}

size_t pakRecordOffset(const std::vector<uint8_t>& pak, size_t i) { return le32(pak, kPakDirOffsetField) + i * kPakRecordSize; }

}  // namespace luxel::test
