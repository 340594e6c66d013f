#pragma once
// Decoded maps kept between requests: an LRU bounded by (estimated) bytes, each map loaded once however many
// requests ask for it at the same time. A map is drawn by one request at a time (renderView loads the
// materials a view needs into it), so each carries its own lock.
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "lru_cache.hpp"
#include "luxel/render/map_view.hpp"
#include "luxel/util/single_flight.hpp"
#include "request_limits.hpp"

namespace luxel::serve {

struct StoredMap {
    mutable std::timed_mutex drawing;  // held while a request draws (and so loads materials into) `map`
    mutable LoadedMap map;
    size_t bytes = 0;  // approximateBytes(map) when loaded
    mutable int views = 0;  // drawn so far (under `drawing`)
};

// The decoded world and geometry a LoadedMap holds, roughly (the large arrays' capacities): what the map cache
// and the per-request memory limit count. Textures are the texture cache's and are counted there.
size_t approximateBytes(const LoadedMap& map);

class MapStore {
public:
    explicit MapStore(size_t capacityBytes) : cache_(capacityBytes) {}

    // The map stored under `key`, or `load()` stored under it (one load per key at a time; the others wait
    // for it until their deadline, then get 504). A load that throws is not stored; every waiter gets its error.
    std::shared_ptr<const StoredMap> get(const std::string& key, const std::function<LoadedMap()>& load,
                                         const Deadline& deadline);
    void drop(const std::string& key) { cache_.erase(key); }
    CacheFigures figures() const { return cache_.figures(); }

private:
    ByteLru<StoredMap> cache_;
    SingleFlight<std::shared_ptr<const StoredMap>> loading_{SingleFlight<std::shared_ptr<const StoredMap>>::Keep::Nothing};
};

}  // namespace luxel::serve
