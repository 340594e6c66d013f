#include "texture_cache.hpp"

#include <tbb/parallel_for.h>

#include <atomic>
#include <exception>
#include <mutex>
#include <unordered_map>

namespace luxel {
namespace {

struct Cache {
    std::mutex mutex;
    std::unordered_map<std::string, std::shared_ptr<const Texture>> entries;
    std::atomic<size_t> decodes{0};
};

Cache& cache() {
    static Cache c;
    return c;
}

}  // namespace

std::vector<TextureResult> loadTextures(const std::vector<TextureJob>& jobs) {
    Cache& c = cache();
    std::vector<TextureResult> results(jobs.size());
    std::vector<size_t> todo;  // first job of each key the cache lacks
    std::unordered_map<std::string, size_t> firstOfKey;
    {
        std::lock_guard lock(c.mutex);
        for (size_t i = 0; i < jobs.size(); ++i) {
            if (auto it = c.entries.find(jobs[i].key); it != c.entries.end()) {
                results[i].texture = it->second;
            } else if (firstOfKey.emplace(jobs[i].key, i).second) {
                todo.push_back(i);
            }
        }
    }
    tbb::parallel_for(size_t(0), todo.size(), [&](size_t k) {
        const TextureJob& job = jobs[todo[k]];
        TextureResult& r = results[todo[k]];
        try {
            r.texture = std::make_shared<const Texture>(makeTexture(job.name, job.decode()));
            c.decodes.fetch_add(1, std::memory_order_relaxed);
        } catch (const std::exception& e) {
            r.error = e.what();
        }
    });
    std::lock_guard lock(c.mutex);
    for (size_t i : todo)
        if (results[i].texture) {
            // Another thread may have decoded the same file meanwhile: keep the first so callers share it.
            auto [it, inserted] = c.entries.emplace(jobs[i].key, results[i].texture);
            results[i].texture = it->second;
        }
    for (size_t i = 0; i < jobs.size(); ++i)
        if (!results[i].texture && results[i].error.empty()) {
            const TextureResult& first = results[firstOfKey.at(jobs[i].key)];
            results[i] = first;
        }
    return results;
}

size_t textureDecodeCount() { return cache().decodes.load(); }

size_t textureCacheSize() {
    std::lock_guard lock(cache().mutex);
    return cache().entries.size();
}

void clearTextureCache() {
    std::lock_guard lock(cache().mutex);
    cache().entries.clear();
}

}  // namespace luxel
