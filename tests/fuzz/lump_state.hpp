#pragma once
// The decoder state a lump fuzz target keeps before each stage (fuzz_lumps.cpp), for the format the build names
// (LUXEL_FUZZ_LUMPS_Q3, _Q2, _VBSP or _Q1), and its restore. The restore lives in lump_state.cpp, built without
// coverage instrumentation: copying a state is the harness's work, and traced element by element it was a
// quarter of the time, and coverage libFuzzer would only learn noise from.
#include "luxel/bsp/world.hpp"

#if defined(LUXEL_FUZZ_LUMPS_Q3)
#include "../../src/bsp/q3/format.hpp"
namespace luxel::fuzz { namespace format = luxel::q3; }
#elif defined(LUXEL_FUZZ_LUMPS_Q2)
#include "../../src/bsp/q2/format.hpp"
namespace luxel::fuzz { namespace format = luxel::q2; }
#elif defined(LUXEL_FUZZ_LUMPS_VBSP)
#include "../../src/bsp/source/format.hpp"
#include "../../src/bsp/source/lzma.hpp"
namespace luxel::fuzz { namespace format = luxel::vbsp; }
#elif defined(LUXEL_FUZZ_LUMPS_Q1)
#include "../../src/bsp/q1/format.hpp"
namespace luxel::fuzz { namespace format = luxel::q1; }
#else
#error "define one of LUXEL_FUZZ_LUMPS_Q3, LUXEL_FUZZ_LUMPS_Q2, LUXEL_FUZZ_LUMPS_VBSP, LUXEL_FUZZ_LUMPS_Q1"
#endif

namespace luxel::fuzz {

struct State {
    format::Context context;
    World world;
};

// `to` made equal to `from`, reusing the buffers `to` holds.
void restore(State& to, const State& from);
void restore(World& to, const World& from);

}  // namespace luxel::fuzz
