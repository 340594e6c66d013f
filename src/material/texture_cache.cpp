#include "texture_cache.hpp"

#include "texture_share.hpp"

#include "luxel/material/texture_sample.hpp"
#include "luxel/util/error.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <future>
#include <mutex>
#include <unordered_map>

namespace luxel {
namespace {

struct Entry {
    std::shared_ptr<const Texture> texture;
    size_t bytes = 0;
    uint64_t lastUse = 0;
};

struct Cache {
    std::mutex mutex;
    std::unordered_map<std::string, Entry> entries;
    // Level-0 size of each reduced-decode key decoded once (any level; 0 x 0 for a file not reducible): later
    // needs find their level's key before decoding.
    std::unordered_map<std::string, std::pair<int32_t, int32_t>> sizes;
    // Keys another loadTextures call is decoding now: a call that needs one waits for that result (after
    // its own decodes, which wait on nothing, so two calls never wait on each other).
    std::unordered_map<std::string, std::shared_future<TextureResult>> inFlight;
    std::atomic<size_t> decodes{0}, sharedReads{0};
    size_t lookups = 0, hits = 0, bytes = 0, budget = 0;
    uint64_t clock = 0;
    // shareTexturesThrough: set before any loadTextures call (a worker's start), read without the mutex.
    std::string shareDir;
    size_t shareLimit = 0;
    std::atomic<size_t> shareWritten{0};
};

size_t textureBytes(const Texture& t) {
    size_t bytes = sizeof(Texture);
    for (const auto& padded : t.paddedLevels) bytes += padded.size() * sizeof(uint32_t);
    for (const auto& alpha : t.alphaLevels) bytes += alpha.size();
    for (const auto& ranges : t.alphaCellRanges) bytes += ranges.size() * sizeof(uint16_t);
    return bytes;
}

// Drops least recently used entries until the cache fits its budget (called with the mutex held).
void evict(Cache& c) {
    if (c.budget == 0 || c.bytes <= c.budget) return;
    std::vector<std::pair<uint64_t, std::string>> byAge;
    for (const auto& [key, e] : c.entries) byAge.emplace_back(e.lastUse, key);
    std::sort(byAge.begin(), byAge.end());
    for (const auto& [age, key] : byAge) {
        if (c.bytes <= c.budget) break;
        auto it = c.entries.find(key);
        c.bytes -= it->second.bytes;
        c.entries.erase(it);
    }
}

Cache& cache() {
    static Cache c;
    return c;
}

bool reduced(const TextureJob& job) { return job.footprint2 > 0 && job.decodeFrom; }

std::string levelKey(const std::string& key, int32_t level) {
    return level > 0 ? key + "|from level " + std::to_string(level) : key;
}

// The key a job's texture is (or will be) cached under; a reduced job whose image size is not known yet gets a
// key of its need instead (used only to share the decode in flight), and `known` false.
std::string lookupKey(const Cache& c, const TextureJob& job, bool& known) {
    known = true;
    if (!reduced(job)) return job.key;
    if (auto it = c.sizes.find(job.key); it != c.sizes.end())
        return it->second.first == 0 ? job.key : levelKey(job.key, reducedStart(job.footprint2, it->second.first, it->second.second));
    known = false;
    return job.key + "|need " + std::to_string(job.footprint2);
}

// A job's texture, from the shared folder when another process decoded it, else decoded here (and shared).
// Sets the key it is kept under, the image's full size for a reduced job (0 x 0: not reducible), and whether it
// was decoded.
std::shared_ptr<const Texture> obtain(Cache& c, const TextureJob& job, std::string& storeKey,
                                      std::pair<int32_t, int32_t>& fullSize, bool& decoded) {
    const std::string& share = c.shareDir;
    bool sizeShared = false;  // another process wrote this reduced job's size: not written again below
    if (!share.empty()) {
        if (!reduced(job)) {
            storeKey = job.key;
        } else if (const auto size = readSharedSize(share, job.key)) {
            sizeShared = true;
            fullSize = *size;
            storeKey = size->first == 0 ? job.key : levelKey(job.key, reducedStart(job.footprint2, size->first, size->second));
        }
        if (!storeKey.empty())
            if (auto texture = readSharedTexture(share, storeKey)) {
                c.sharedReads.fetch_add(1, std::memory_order_relaxed);
                return texture;
            }
    }
    std::shared_ptr<const Texture> texture;
    if (reduced(job)) {
        LevelImage level = job.decodeFrom(job.footprint2);
        fullSize = level.reducible ? std::pair(level.fullWidth, level.fullHeight) : std::pair(0, 0);
        storeKey = levelKey(job.key, level.level);
        texture = std::make_shared<const Texture>(
            makeTexture(job.name, std::move(level.image), level.level, level.fullWidth, level.fullHeight));
    } else {
        storeKey = job.key;
        texture = std::make_shared<const Texture>(makeTexture(job.name, job.decode()));
    }
    decoded = true;
    if (!share.empty() && c.shareWritten.load(std::memory_order_relaxed) < c.shareLimit) {
        const size_t written = writeSharedTexture(share, storeKey, *texture);
        // A folder that cannot take more (full, gone) takes nothing more: no half-written file per texture.
        c.shareWritten += written ? written : c.shareLimit;
        if (written && reduced(job) && !sizeShared) writeSharedSize(share, job.key, fullSize);
    }
    return texture;
}

}  // namespace


std::vector<TextureResult> loadTextures(const std::vector<TextureJob>& jobs, size_t budget) {
    Cache& c = cache();
    std::atomic<size_t> held{0};  // bytes of the textures this call holds: hits, then decodes as they finish
    std::vector<TextureResult> results(jobs.size());
    std::vector<size_t> todo;  // first job of each key the cache lacks
    std::vector<std::promise<TextureResult>> promises;  // one per todo entry
    std::vector<std::pair<size_t, std::shared_future<TextureResult>>> waiting;
    std::unordered_map<std::string, size_t> firstOfKey;
    std::vector<std::string> keys(jobs.size());  // each job's lookupKey
    std::vector<std::string> storeKeys(jobs.size());  // what a decode is kept under (its level's key)
    std::vector<std::pair<int32_t, int32_t>> fullSizes(jobs.size());
    {
        std::lock_guard lock(c.mutex);
        c.lookups += jobs.size();
        ++c.clock;
        for (size_t i = 0; i < jobs.size(); ++i) {
            bool known = false;
            keys[i] = lookupKey(c, jobs[i], known);
            if (auto it = known ? c.entries.find(keys[i]) : c.entries.end(); it != c.entries.end()) {
                results[i].texture = it->second.texture;
                it->second.lastUse = c.clock;
                held += it->second.bytes;
                ++c.hits;
            } else if (!firstOfKey.emplace(keys[i], i).second) {
                continue;  // a later job of a key this call handles: filled in at the end
            } else if (auto f = c.inFlight.find(keys[i]); f != c.inFlight.end()) {
                waiting.emplace_back(i, f->second);
                ++c.hits;
            } else {
                todo.push_back(i);
                promises.emplace_back();
                c.inFlight.emplace(keys[i], promises.back().get_future().share());
            }
        }
    }
    tbb::parallel_for(size_t(0), todo.size(), [&](size_t k) {
        const TextureJob& job = jobs[todo[k]];
        TextureResult& r = results[todo[k]];
        if (budget && held.load() >= budget) {
            r.error = "not decoded: this map's textures reached the memory limit of " +
                      std::to_string(budget >> 20) + " MiB";
            r.overLimit = true;
            return;
        }
        try {
            bool decoded = false;
            r.texture = obtain(c, job, storeKeys[todo[k]], fullSizes[todo[k]], decoded);
            if (decoded) c.decodes.fetch_add(1, std::memory_order_relaxed);
            const size_t bytes = textureBytes(*r.texture);
            if (budget && held.fetch_add(bytes) + bytes > budget) {  // this one would pass the budget: refused
                held -= bytes;
                r.texture.reset();
                r.error = "not kept: this map's textures would pass the memory limit of " +
                          std::to_string(budget >> 20) + " MiB";
                r.overLimit = true;
            }
        } catch (const LimitError& e) {
            r.error = e.what();
            r.overLimit = true;
        } catch (const std::exception& e) {
            r.error = e.what();
        } catch (...) {  // every promise must be kept: other calls may be waiting for this key
            r.error = "could not be decoded";
        }
    });
    {
        std::lock_guard lock(c.mutex);
        for (size_t k = 0; k < todo.size(); ++k) {
            const size_t i = todo[k];
            if (results[i].texture) {
                if (reduced(jobs[i])) c.sizes.emplace(jobs[i].key, fullSizes[i]);
                auto [it, inserted] = c.entries.try_emplace(storeKeys[i]);
                if (inserted) {
                    it->second.texture = results[i].texture;
                    it->second.bytes = textureBytes(*results[i].texture);
                    c.bytes += it->second.bytes;
                }
                it->second.lastUse = c.clock;
                results[i].texture = it->second.texture;
            }
            c.inFlight.erase(keys[i]);
            promises[k].set_value(results[i]);
        }
        evict(c);
    }
    for (auto& [i, result] : waiting) results[i] = result.get();
    for (size_t i = 0; i < jobs.size(); ++i)
        if (!results[i].texture && results[i].error.empty()) {
            const TextureResult& first = results[firstOfKey.at(keys[i])];
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
    cache().sizes.clear();
    cache().bytes = 0;
}

TextureCacheStats textureCacheStats() {
    Cache& c = cache();
    std::lock_guard lock(c.mutex);
    return {c.lookups, c.hits, c.decodes.load(), c.entries.size(), c.bytes, c.sharedReads.load()};
}

void shareTexturesThrough(const std::string& dir, size_t byteLimit) {
    Cache& c = cache();
    std::lock_guard lock(c.mutex);
    c.shareDir = dir;
    c.shareLimit = byteLimit;
    c.shareWritten = 0;
}

void setTextureCacheBudget(size_t bytes) {
    Cache& c = cache();
    std::lock_guard lock(c.mutex);
    c.budget = bytes;
    evict(c);
}

}  // namespace luxel
