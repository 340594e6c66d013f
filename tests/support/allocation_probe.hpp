#pragma once
// The largest single allocation made while a function runs, by malloc, calloc, realloc or operator new, in luxel
// or in the libraries it calls (the test binary replaces glibc's malloc entry points, or hooks AddressSanitizer's,
// to see them): tests of hostile files check that no count read from a file
// becomes an allocation before the bytes it describes are known to be there.
#include <cstddef>
#include <functional>

namespace luxel::test {

// Calls `fn` and returns the largest single allocation (bytes) any thread made meanwhile.
size_t largestAllocationDuring(const std::function<void()>& fn);

}  // namespace luxel::test
