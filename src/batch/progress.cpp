#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

#include <fmt/format.h>

#include "luxel/util/clock.hpp"

namespace luxel::batch {
namespace {

double nowSeconds() { return nowMs() / 1000.0; }

}  // namespace

Progress::Progress(size_t total, bool quiet, bool verbose)
    : total_(total), quiet_(quiet), verbose_(verbose), tty_(::isatty(2) != 0), start_(nowSeconds()) {}

void Progress::mapFinished(const std::string& name, const std::string& status, double ms, const std::string& error) {
    ++done_;
    if (status == "failed") ++failed_;
    if (quiet_) {
        if (status == "failed") fmt::print(stderr, "luxel: error: {}\n", error);
        return;
    }
    const double elapsed = nowSeconds() - start_;
    const double rate = elapsed > 0 ? double(done_) / elapsed : 0;
    const double eta = rate > 0 ? double(total_ - done_) / rate : 0;
    if (tty_) {
        if (status == "failed") fmt::print(stderr, "\r\033[Kluxel: error: {}\n", error);
        fmt::print(stderr, "\r\033[K[{}/{}] {:.1f} maps/s, ETA {:.0f} s, {} failed  {}", done_, total_, rate, eta,
                   failed_, name);
    } else {
        fmt::print(stderr, "[{}/{}] {} {} ({:.0f} ms){}{}\n", done_, total_, name, status, ms,
                   error.empty() ? "" : ": ", error);
    }
    std::fflush(stderr);
}

void Progress::warning(const std::string& mapName, const std::string& text) {
    if (!verbose_) return;
    fmt::print(stderr, "{}luxel: warning: {}: {}\n", tty_ ? "\r\033[K" : "", mapName, text);
}

void Progress::finish() {
    if (!quiet_ && tty_ && done_) fmt::print(stderr, "\n");
}

}  // namespace luxel::batch
