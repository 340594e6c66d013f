// The folder an --isolate batch's workers share their decoded textures through (shareTexturesThrough).
#include <signal.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <filesystem>

#include "batch_parts.hpp"

namespace luxel::batch {
namespace fs = std::filesystem;

namespace {

constexpr const char* kPrefix = "luxel-textures-";

// Folders of batches that are gone (killed before they could remove theirs): named kPrefix + pid + "-".
void removeStaleShares(const fs::path& root) {
    std::error_code ec;
    std::vector<fs::path> stale;
    for (auto it = fs::directory_iterator(root, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (!name.starts_with(kPrefix)) continue;
        const long pid = std::strtol(name.c_str() + std::char_traits<char>::length(kPrefix), nullptr, 10);
        if (pid > 0 && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH) stale.push_back(it->path());
    }
    for (const fs::path& p : stale) fs::remove_all(p, ec);
}

}  // namespace

std::string makeTextureShareDir(size_t bytes) {
    const fs::path root = "/dev/shm";
    struct statvfs fsInfo {};
    if (::statvfs(root.c_str(), &fsInfo) != 0 || uint64_t(fsInfo.f_bavail) * fsInfo.f_frsize < bytes) return {};
    removeStaleShares(root);
    std::string pattern = (root / (kPrefix + std::to_string(::getpid()) + "-XXXXXX")).string();
    return ::mkdtemp(pattern.data()) ? pattern : std::string();  // mode 0700
}

void removeTextureShareDir(const std::string& dir) {
    std::error_code ec;
    if (!dir.empty()) fs::remove_all(dir, ec);
}

}  // namespace luxel::batch
