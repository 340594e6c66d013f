#pragma once
// A short command's heap on transparent huge pages: what GLIBC_TUNABLES=glibc.malloc.top_pad=N:glibc.malloc.hugetlb=1
// sets at start, done from inside the process. Allocations up to `bytes` (at most glibc's 32 MiB mmap threshold)
// come from the heap rather than from mmaps of their own, the heap is grown by `bytes` at once, and that range is
// advised onto 2 MiB pages: a process that decodes a map faults its fresh memory in 2 MiB steps instead of 4 KiB
// ones (luxel info: page faults were most of its time). Memory past the first `bytes` grows as before.
#include <cstddef>

namespace luxel {

void growHeapOnHugePages(size_t bytes);

}  // namespace luxel
