#include <stdexcept>

#include "luxel/bsp/decode.hpp"

namespace luxel {

// STUB: replaced by the real implementation.
World decodeSource(const MapSource&) { throw std::logic_error("decodeSource not implemented"); }

}  // namespace luxel
