// Half-Life brush entities' render modes: the surfaces of a model whose entity sets "rendermode" get a material of
// their own carrying the mode, "renderamt" and "rendercolor" (Material::entityRenderMode, modelColor), which the
// material loader turns into the look GoldSrc's renderer gives them (material/load_q1.cpp).
#include <algorithm>
#include <map>
#include <tuple>

#include "format.hpp"
#include "luxel/bsp/entities.hpp"
#include "luxel/util/math.hpp"

namespace luxel::q1 {

namespace {

// "R G B" of 0-255 values, as 0-1; white when absent or unreadable.
Vec3 renderColor(const Entity& e) {
    const std::string* v = e.get("rendercolor");
    Vec3 c;
    if (!v || !parseVec3(*v, c) || !isFinite(c)) return {1, 1, 1};
    auto unit = [](float b) { return std::clamp(b, 0.0f, 255.0f) / 255.0f; };
    return {unit(c.x), unit(c.y), unit(c.z)};
}

}  // namespace

void applyRenderModes(World& w) {
    // One material per (material, mode, amount, colour): brush entities that look alike share theirs.
    std::map<std::tuple<int32_t, int, int, float, float, float>, int32_t> made;
    for (size_t m = 1; m < w.models.size(); ++m) {
        const Model& model = w.models[m];
        if (model.entity < 0 || size_t(model.entity) >= w.entities.size()) continue;
        const Entity& e = w.entities[size_t(model.entity)];
        const int mode = entityInt(e, "rendermode");
        if (mode < 1 || mode > 5) continue;  // kRenderNormal, or nothing GoldSrc draws brushes with
        const int amount = std::clamp(entityInt(e, "renderamt"), 0, 255);
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
