// A map's lightmap pages as one set (see lightmap_set.hpp).
#include "luxel/light/lightmap_set.hpp"

#include <algorithm>
#include <utility>

namespace luxel {

LightmapSet takeLightmaps(World& world) {
    LightmapSet set;
    set.slots[0] = std::move(world.lightmaps);
    for (size_t k = 1; k < 4; ++k) set.slots[k] = std::move(world.extraLightmapSlots[k - 1]);
    set.deluxe = std::move(world.deluxemaps);
    world.lightmaps.clear();
    for (auto& slot : world.extraLightmapSlots) slot.clear();
    world.deluxemaps.clear();
    return set;
}

void fillHoles(std::vector<LightmapPage>& pages, const std::vector<LightmapHole>& holes) {
    // Holes not filled yet, one flag per page texel (a texel can be a hole once).
    std::vector<std::vector<uint8_t>> open(pages.size());
    std::vector<const LightmapHole*> pending;
    for (const LightmapHole& h : holes) {
        if (h.page < 0 || size_t(h.page) >= pages.size()) continue;
        const LightmapPage& p = pages[size_t(h.page)];
        if (h.x < 0 || h.y < 0 || h.x >= p.width || h.y >= p.height) continue;
        std::vector<uint8_t>& o = open[size_t(h.page)];
        if (o.empty()) o.assign(size_t(p.width) * size_t(p.height), 0);
        o[size_t(h.y) * size_t(p.width) + size_t(h.x)] = 1;
        pending.push_back(&h);
    }
    while (!pending.empty()) {
        // One round: every hole with a filled neighbour takes their mean, from the values before the round.
        std::vector<std::pair<const LightmapHole*, Vec3>> filled;
        std::vector<const LightmapHole*> still;
        for (const LightmapHole* h : pending) {
            const LightmapPage& p = pages[size_t(h->page)];
            const std::vector<uint8_t>& o = open[size_t(h->page)];
            Vec3 sum;
            int count = 0;
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const int32_t x = h->x + dx, y = h->y + dy;
                    if ((dx == 0 && dy == 0) || x < h->rect[0] || y < h->rect[1] || x >= h->rect[0] + h->rect[2] ||
                        y >= h->rect[1] + h->rect[3] || x < 0 || y < 0 || x >= p.width || y >= p.height)
                        continue;
                    const size_t at = size_t(y) * size_t(p.width) + size_t(x);
                    if (o[at]) continue;
                    const float* t = p.rgb.data() + at * 3;
                    sum += Vec3{t[0], t[1], t[2]};
                    ++count;
                }
            if (count > 0) filled.push_back({h, sum / float(count)});
            else still.push_back(h);
        }
        if (filled.empty()) break;  // holes with no lit texel in reach keep what they have
        for (const auto& [h, v] : filled) {
            LightmapPage& p = pages[size_t(h->page)];
            const size_t at = size_t(h->y) * size_t(p.width) + size_t(h->x);
            float* t = p.rgb.data() + at * 3;
            t[0] = v.x, t[1] = v.y, t[2] = v.z;
            open[size_t(h->page)][at] = 0;
        }
        pending = std::move(still);
    }
}

void raiseToFloor(std::vector<LightmapPage>& pages, const std::vector<LightmapPage>& floor) {
    for (size_t i = 0; i < pages.size() && i < floor.size(); ++i) {
        std::vector<float>& v = pages[i].rgb;
        const std::vector<float>& f = floor[i].rgb;
        for (size_t k = 0; k < v.size() && k < f.size(); ++k) v[k] = std::max(v[k], f[k]);
    }
}

void clampKeepingHue(std::vector<LightmapPage>& pages, float top) {
    for (LightmapPage& p : pages)
        for (size_t i = 0; i + 2 < p.rgb.size(); i += 3) {
            const float m = std::max({p.rgb[i], p.rgb[i + 1], p.rgb[i + 2]});
            if (m > top)
                for (size_t k = 0; k < 3; ++k) p.rgb[i + k] *= top / m;
        }
}

}  // namespace luxel
