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
    return loading_.get(
        key,
        [&] {
            auto stored = std::make_shared<StoredMap>();
            stored->map = load();
            stored->bytes = approximateBytes(stored->map);
            cache_.put(key, stored, stored->bytes);  // before the flight is forgotten: a later request finds one or the other
            return std::shared_ptr<const StoredMap>(std::move(stored));
        },
        [&](const std::shared_future<std::shared_ptr<const StoredMap>>& other) {
            if (other.wait_until(deadline.at) != std::future_status::ready)
                deadline.check("while another request decoded the map");
        });
}

}  // namespace luxel::serve
