#include "map_store.hpp"

namespace luxel::serve {
namespace {

template <class T>
size_t bytesOf(const std::vector<T>& v) {
    return v.capacity() * sizeof(T);
}

size_t pageBytes(const std::vector<LightmapPage>& pages) {
    size_t n = bytesOf(pages);
    for (const LightmapPage& p : pages) n += bytesOf(p.rgb);
    return n;
}

}  // namespace

size_t approximateBytes(const LoadedMap& m) {
    const World& w = m.world;
    size_t n = sizeof(LoadedMap);
    n += bytesOf(w.planes) + bytesOf(w.nodes) + bytesOf(w.leaves) + bytesOf(w.leafSurfaces) + bytesOf(w.models);
    n += bytesOf(w.brushes) + bytesOf(w.brushSides) + bytesOf(w.materials) + bytesOf(w.vertices) + bytesOf(w.indices);
    n += bytesOf(w.surfaces) + pageBytes(w.lightmaps) + pageBytes(w.deluxemaps) + bytesOf(w.fogs);
    for (const auto& slot : w.extraLightmapSlots) n += pageBytes(slot);
    n += bytesOf(w.pvs.rows) + bytesOf(w.ambientSamples) + bytesOf(w.leafAmbient) + bytesOf(w.staticProps);
    n += bytesOf(w.staticPropLeaves) + bytesOf(w.embeddedArchive) + bytesOf(w.entities) + w.entityText.capacity();
    n += bytesOf(w.overlays) + bytesOf(w.lights) + bytesOf(w.viewpoints);
    if (w.grid) n += sizeof(LightGrid);
    const Geometry& g = m.geometry;
    n += bytesOf(g.vertices) + bytesOf(g.indices) + bytesOf(g.surfaces) + bytesOf(g.billboards);
    return n;
}

std::shared_ptr<const StoredMap> MapStore::get(const std::string& key, const std::function<LoadedMap()>& load,
                                               const Deadline& deadline) {
    if (auto hit = cache_.get(key)) return hit;
    std::promise<std::shared_ptr<const StoredMap>> promise;
    std::shared_future<std::shared_ptr<const StoredMap>> future;
    bool mine = false;
    {
        std::lock_guard lock(mutex_);
        auto [it, inserted] = loading_.try_emplace(key);
        if (inserted) {
            it->second = promise.get_future().share();
            mine = true;
        }
        future = it->second;
    }
    if (mine) {
        try {
            auto stored = std::make_shared<StoredMap>();
            stored->map = load();
            stored->bytes = approximateBytes(stored->map);
            cache_.put(key, stored, stored->bytes);
            promise.set_value(std::move(stored));
        } catch (...) {
            promise.set_exception(std::current_exception());
        }
        std::lock_guard lock(mutex_);
        loading_.erase(key);
    } else if (future.wait_until(deadline.at) != std::future_status::ready) {
        deadline.check("while another request decoded the map");
    }
    return future.get();
}

}  // namespace luxel::serve
