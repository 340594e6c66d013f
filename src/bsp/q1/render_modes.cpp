// Half-Life brush entities' render modes: the surfaces of a model whose entity sets "rendermode" get a material of
// their own carrying the mode, "renderamt" and "rendercolor" (Material::entityRenderMode, modelColor), which the
// material loader turns into the look GoldSrc's renderer gives them (material/load_q1.cpp).
#include <algorithm>
#include <charconv>
#include <map>
#include <tuple>

#include "format.hpp"

namespace luxel::q1 {

namespace {

int keyInt(const Entity& e, const char* key, int fallback) {
    const std::string* v = e.get(key);
    int out = fallback;
    if (v) std::from_chars(v->data(), v->data() + v->size(), out);
    return out;
}

// "R G B" of 0-255 values; white when absent or unreadable.
Vec3 renderColor(const Entity& e) {
    const std::string* v = e.get("rendercolor");
    if (!v) return {1, 1, 1};
    int c[3] = {255, 255, 255};
    const char* at = v->data();
    const char* end = v->data() + v->size();
    for (int& channel : c) {
        while (at < end && *at == ' ') ++at;
        const auto [next, ec] = std::from_chars(at, end, channel);
        if (ec != std::errc()) return {1, 1, 1};
        at = next;
    }
    auto unit = [](int b) { return float(std::clamp(b, 0, 255)) / 255.0f; };
    return {unit(c[0]), unit(c[1]), unit(c[2])};
}

}  // namespace

void applyRenderModes(World& w) {
    // One material per (material, mode, amount, colour): brush entities that look alike share theirs.
    std::map<std::tuple<int32_t, int, int, float, float, float>, int32_t> made;
    for (size_t m = 1; m < w.models.size(); ++m) {
        const Model& model = w.models[m];
        if (model.entity < 0 || size_t(model.entity) >= w.entities.size()) continue;
        const Entity& e = w.entities[size_t(model.entity)];
        const int mode = keyInt(e, "rendermode", 0);
        if (mode < 1 || mode > 5) continue;  // kRenderNormal, or nothing GoldSrc draws brushes with
        const int amount = std::clamp(keyInt(e, "renderamt", 0), 0, 255);
        const Vec3 color = renderColor(e);
        const uint64_t end = std::min<uint64_t>(uint64_t(model.firstSurface) + model.numSurfaces, w.surfaces.size());
        for (uint64_t s = model.firstSurface; s < end; ++s) {
            int32_t& material = w.surfaces[size_t(s)].material;
            if (material < 0 || size_t(material) >= w.materials.size()) continue;
            const auto key = std::make_tuple(material, mode, amount, color.x, color.y, color.z);
            auto [it, fresh] = made.try_emplace(key, int32_t(w.materials.size()));
            if (fresh) {
                Material own = w.materials[size_t(material)];
                own.entityRenderMode = mode;
                own.modelColor = Vec4{color.x, color.y, color.z, float(amount) / 255.0f};
                if (mode == 1) own.reflectivity = color;  // kRenderTransColor draws the colour alone
                w.materials.push_back(std::move(own));
            }
            material = it->second;
        }
    }
}

}  // namespace luxel::q1
