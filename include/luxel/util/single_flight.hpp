#pragma once
// Work done once per key however many threads ask for it at the same time: the first caller makes the value, the
// others wait for that value (or its exception) instead of making it again. A failure is never kept, so a later
// caller tries again; a success is kept (the flights are then the cache) or forgotten once made (the caller keeps
// the value elsewhere, as the service's map LRU does).
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <string>

namespace luxel {

template <class Value>
class SingleFlight {
public:
    enum class Keep { Successes, Nothing };
    explicit SingleFlight(Keep keep) : keep_(keep) {}

    // The value for `key`: make() run here when no other thread is making it (nor, with Keep::Successes, has made
    // it), else that thread's result. `wait`, when given, is called with that thread's future before it is read
    // (to bound the wait: it may throw).
    Value get(const std::string& key, const std::function<Value()>& make,
              const std::function<void(const std::shared_future<Value>&)>& wait = {}) {
        std::promise<Value> promise;
        std::shared_future<Value> future;
        bool mine = false;
        {
            std::lock_guard lock(mutex_);
            auto [it, inserted] = flights_.try_emplace(key);
            if (inserted) {
                it->second = promise.get_future().share();
                mine = true;
            }
            future = it->second;
        }
        if (!mine) {
            if (wait) wait(future);
            return future.get();
        }
        try {
            promise.set_value(make());
            if (keep_ == Keep::Nothing) forget(key);
        } catch (...) {
            promise.set_exception(std::current_exception());
            forget(key);
        }
        return future.get();
    }

    void forget(const std::string& key) {
        std::lock_guard lock(mutex_);
        flights_.erase(key);
    }
    // Forgets every key `drop` returns true for.
    void forgetIf(const std::function<bool(const std::string&)>& drop) {
        std::lock_guard lock(mutex_);
        std::erase_if(flights_, [&](const auto& flight) { return drop(flight.first); });
    }

private:
    Keep keep_;
    std::mutex mutex_;
    std::map<std::string, std::shared_future<Value>> flights_;
};

}  // namespace luxel
