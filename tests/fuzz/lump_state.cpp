#include "fuzz/lump_state.hpp"

namespace luxel::fuzz {

void restore(State& to, const State& from) { to = from; }
void restore(World& to, const World& from) { to = from; }

}  // namespace luxel::fuzz
