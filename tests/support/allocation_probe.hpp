#pragma once
// The largest single allocation made through operator new while a function runs (the test binary replaces the
// global operator new and delete to see it): tests of hostile files check that no count read from a file
// becomes an allocation before the bytes it describes are known to be there.
#include <cstddef>
#include <functional>

namespace luxel::test {

// Calls `fn` and returns the largest single allocation (bytes) any thread made meanwhile.
size_t largestAllocationDuring(const std::function<void()>& fn);

}  // namespace luxel::test
