#include "luxel/bsp/decode.hpp"

#include <stdexcept>

namespace luxel {

// STUB: replaced by the real implementation.
World decodeQuake3(const MapSource&) { throw std::logic_error("decodeQuake3 not implemented"); }

}  // namespace luxel
