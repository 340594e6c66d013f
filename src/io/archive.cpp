#include "archive.hpp"

#include <tbb/parallel_for.h>

#include <map>
#include <mutex>

#include "luxel/util/text.hpp"
#include "pak_archive.hpp"
#include "zip_archive.hpp"

namespace luxel {

std::optional<Bytes> Archive::read(const std::string& name) const {
    const std::optional<uint64_t> index = locate(name);
    if (!index) return std::nullopt;
    return read(*index, name);
}

bool isPakPath(const std::string& path) { return endsWithIgnoreCase(path, ".pak"); }

std::shared_ptr<const Archive> openArchive(const std::string& path) {
    static std::mutex mutex;
    static std::map<std::string, std::weak_ptr<const Archive>> open;
    {
        std::lock_guard lock(mutex);
        if (auto it = open.find(path); it != open.end())
            if (auto held = it->second.lock()) return held;
    }
    // Read outside the lock, so several archives open in parallel; of two racing reads of one path the first
    // stored wins.
    std::shared_ptr<const Archive> archive;
    if (isPakPath(path)) archive = std::make_shared<const PakArchive>(path);
    else archive = std::make_shared<const ZipArchive>(path);
    std::lock_guard lock(mutex);
    if (auto it = open.find(path); it != open.end())
        if (auto held = it->second.lock()) return held;
    std::erase_if(open, [](const auto& entry) { return entry.second.expired(); });
    open[path] = archive;
    return archive;
}

std::vector<OpenedArchive> openArchives(const std::vector<std::string>& paths) {
    std::vector<OpenedArchive> out(paths.size());
    tbb::parallel_for(size_t(0), paths.size(), [&](size_t i) {
        try {
            out[i].archive = openArchive(paths[i]);
        } catch (...) {
            out[i].error = std::current_exception();
        }
    });
    return out;
}

}  // namespace luxel
