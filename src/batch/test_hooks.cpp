#include "test_hooks.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <string>

namespace luxel::batch {
namespace {

struct KillSpec {
    std::string point;
    long at = 0;  // 0: off
};

const KillSpec& killSpec() {
    static const KillSpec spec = [] {
        KillSpec s;
        const char* v = std::getenv("LUXEL_TEST_KILL");
        if (!v) return s;
        const std::string text = v;
        const size_t colon = text.rfind(':');
        if (colon == std::string::npos) return s;
        s.point = text.substr(0, colon);
        s.at = std::strtol(text.c_str() + colon + 1, nullptr, 10);
        return s;
    }();
    return spec;
}

std::atomic<long> arrivals{0};

}  // namespace

bool testKillPoint(const char* point) {
    const KillSpec& spec = killSpec();
    if (spec.at <= 0 || spec.point != point) return false;
    return arrivals.fetch_add(1) + 1 == spec.at;
}

void testKillNow() {
    ::kill(::getpid(), SIGKILL);
    for (;;) ::pause();
}

void testMapStarted(const std::string& mapName) {
    static const char* abortName = std::getenv("LUXEL_TEST_ABORT_MAP");
    static const char* hangName = std::getenv("LUXEL_TEST_HANG_MAP");
    if (abortName && mapName == abortName) std::abort();
    if (hangName && mapName == hangName) ::sleep(60);  // bounded, so a test that fails leaves no process for ever
}

}  // namespace luxel::batch
