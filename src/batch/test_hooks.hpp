#pragma once
// Test-only hooks, off unless an environment variable names them, so tests can kill a batch at exact moments:
//   LUXEL_TEST_KILL=POINT:N   the Nth time (from 1) the process reaches POINT it kills itself with SIGKILL, in the
//                             middle of the write for "journal-write" and "image-write"
//   LUXEL_TEST_ABORT_MAP=NAME std::abort() when the map of that name starts (a map that crashes the process)
#include <string>

namespace luxel::batch {

// True when this call is the Nth arrival at `point` named by LUXEL_TEST_KILL: the caller tears its write, then
// calls testKillNow().
bool testKillPoint(const char* point);
[[noreturn]] void testKillNow();
// Aborts when LUXEL_TEST_ABORT_MAP names `mapName`.
void testAbortOnMap(const std::string& mapName);

}  // namespace luxel::batch
