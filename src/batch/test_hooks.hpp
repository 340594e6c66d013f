#pragma once
// Test-only hooks, off unless an environment variable names them, so tests can kill a batch at exact moments:
//   LUXEL_TEST_KILL=POINT:N   the Nth time (from 1) the process reaches POINT it kills itself with SIGKILL, in the
//                             middle of the write for "journal-write" and "image-write"
//   LUXEL_TEST_ABORT_MAP=NAME std::abort() when the map of that name starts (a map that crashes the process)
//   LUXEL_TEST_HANG_MAP=NAME  sleeps 60 s when the map of that name starts (a map still rendering at a kill)
#include <string>

namespace luxel::batch {

// True when this call is the Nth arrival at `point` named by LUXEL_TEST_KILL: the caller tears its write, then
// calls testKillNow().
bool testKillPoint(const char* point);
[[noreturn]] void testKillNow();
// Aborts or hangs when LUXEL_TEST_ABORT_MAP or LUXEL_TEST_HANG_MAP names `mapName`.
void testMapStarted(const std::string& mapName);

}  // namespace luxel::batch
