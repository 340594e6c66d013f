#include <stdexcept>

#include "luxel/bsp/decode.hpp"

namespace luxel {

// STUB: replaced by the real implementation.
World decodeQuake2(const MapSource&) { throw std::logic_error("decodeQuake2 not implemented"); }

}  // namespace luxel
