#include "luxel/image/image.hpp"

#include <stdexcept>

namespace luxel {
// STUB
bool isLdrPath(const std::string&) { return true; }
void writeImage(const std::string&, const Image&) { throw std::logic_error("not implemented"); }
Image decodeImage(std::span<const uint8_t>, const std::string&) { throw std::logic_error("not implemented"); }
Image readImage(const std::string&) { throw std::logic_error("not implemented"); }
}  // namespace luxel
