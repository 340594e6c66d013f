#pragma once
// A thread-safe least-recently-used cache bounded by bytes: the service's decoded maps and encoded images.
// Values are shared_ptrs, so an entry dropped while a request still uses it lives until that request ends.
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace luxel::serve {

struct CacheFigures {
    size_t entries = 0, bytes = 0, capacity = 0;
    size_t hits = 0, misses = 0, evictions = 0;
};

template <class Value>
class ByteLru {
public:
    explicit ByteLru(size_t capacity) : capacity_(capacity) {}

    // The entry, now the most recently used; null (a miss) when absent.
    std::shared_ptr<const Value> get(const std::string& key) {
        std::lock_guard lock(mutex_);
        auto it = index_.find(key);
        if (it == index_.end()) {
            ++misses_;
            return nullptr;
        }
        ++hits_;
        order_.splice(order_.begin(), order_, it->second);
        return it->second->value;
    }

    // Adds or replaces an entry, then drops the least recently used until the total fits. An entry larger
    // than the whole capacity is not kept (the caller still has its value).
    void put(const std::string& key, std::shared_ptr<const Value> value, size_t bytes) {
        std::lock_guard lock(mutex_);
        eraseLocked(key);
        if (bytes > capacity_) return;
        order_.push_front({key, std::move(value), bytes});
        index_[key] = order_.begin();
        bytes_ += bytes;
        while (bytes_ > capacity_ && !order_.empty()) {
            ++evictions_;
            eraseLocked(order_.back().key);
        }
    }

    void erase(const std::string& key) {
        std::lock_guard lock(mutex_);
        eraseLocked(key);
    }

    // Drops every entry whose value `drop` holds true of; how many.
    template <class Predicate>
    size_t eraseIf(Predicate drop) {
        std::lock_guard lock(mutex_);
        std::vector<std::string> keys;
        for (const Entry& e : order_)
            if (drop(*e.value)) keys.push_back(e.key);
        for (const std::string& key : keys) eraseLocked(key);
        return keys.size();
    }

    CacheFigures figures() const {
        std::lock_guard lock(mutex_);
        return {index_.size(), bytes_, capacity_, hits_, misses_, evictions_};
    }

private:
    struct Entry {
        std::string key;
        std::shared_ptr<const Value> value;
        size_t bytes = 0;
    };
    void eraseLocked(const std::string& key) {
        auto it = index_.find(key);
        if (it == index_.end()) return;
        bytes_ -= it->second->bytes;
        order_.erase(it->second);
        index_.erase(it);
    }

    mutable std::mutex mutex_;
    std::list<Entry> order_;  // most recently used first
    std::unordered_map<std::string, typename std::list<Entry>::iterator> index_;
    size_t capacity_ = 0, bytes_ = 0;
    size_t hits_ = 0, misses_ = 0, evictions_ = 0;
};

}  // namespace luxel::serve
