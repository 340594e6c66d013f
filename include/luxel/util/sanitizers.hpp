#pragma once
// LUXEL_ASAN: 1 in a build under AddressSanitizer (GCC defines __SANITIZE_ADDRESS__; Clang answers
// __has_feature), else 0. Its allocator replaces glibc's, and sanitized processes must exit normally for the
// leak checks to run.
#if defined(__SANITIZE_ADDRESS__)
#define LUXEL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LUXEL_ASAN 1
#endif
#endif
#ifndef LUXEL_ASAN
#define LUXEL_ASAN 0
#endif
