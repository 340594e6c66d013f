#include "luxel/io/map_source.hpp"

#include <stdexcept>

namespace luxel {
// STUB
MapSource openMapPath(const std::string&) { throw std::logic_error("not implemented"); }
MapSource openMapInGameDir(const std::string&, const std::string&) { throw std::logic_error("not implemented"); }
Bytes readFile(const std::string&) { throw std::logic_error("not implemented"); }
void writeFileAtomic(const std::string&, const Bytes&) { throw std::logic_error("not implemented"); }
}  // namespace luxel
