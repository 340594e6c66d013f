#pragma once
// The heap of a process that draws frame after frame (bench, serve, batch). Each frame allocates its set-up
// buffers afresh (triangle chunks built in the worker threads' malloc arenas, shading set-ups, bins) and frees
// them at its end. With glibc's starting thresholds (which a process's history does not always raise), an
// arena's freed top past 128 KiB goes back to the kernel and large vectors are mmapped, so the next frame faults
// the same pages in again: on oasago2's 1080p intermission that was 0.6 ms of a 1.7 ms set-up. Allocations under
// 32 MiB (glibc's largest mmap threshold) come from the heap, and up to 64 MiB freed at an arena's top stays
// there (an 80,000-triangle frame frees more than 8 MiB there: its test faulted 2,999 pages back in at 8 MiB).
// The process keeps its largest frame's memory rather than returning it between frames.
namespace luxel {

void keepFrameMemory();

}  // namespace luxel
