#include "luxel/util/error.hpp"

namespace luxel {

static std::string formatDecodeError(const std::string& file, const std::string& lump, uint64_t offset,
                                     const std::string& what) {
    std::string s = file;
    if (!lump.empty()) s += ": lump " + lump;
    s += " at byte " + std::to_string(offset) + ": " + what;
    return s;
}

DecodeError::DecodeError(std::string file, std::string lump, uint64_t offset, const std::string& what)
    : std::runtime_error(formatDecodeError(file, lump, offset, what)),
      file_(std::move(file)), lump_(std::move(lump)), detail_(what), offset_(offset) {}

}  // namespace luxel
