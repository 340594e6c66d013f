// Brush entities drawn see-through: Half-Life's render modes, where the surfaces of a model whose entity sets
// "rendermode" get a material of their own carrying the mode, "renderamt" and "rendercolor"
// (Material::entityRenderMode, modelColor), and Quake 1's "alpha" (Material::entityAlpha); the material loader
// turns them into the looks the engines give them (material/load_q1.cpp).
#include <algorithm>
#include <cmath>
#include <cstdlib>
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

// FitzQuake's ENTALPHA_ENCODE then _DECODE of an "alpha" value: 0 (or none) is opaque, others clamp to 1..255
// in 254 steps, 255 opaque.
float quakeEntityAlpha(const Entity& e) {
    const std::string* v = e.get("alpha");
    if (!v) return 1;
    const double a = std::atof(v->c_str());
    if (!(a != 0) || !std::isfinite(a)) return 1;
    const double step = std::clamp(std::round(a * 254.0 + 1.0), 1.0, 255.0);
    return float((step - 1.0) / 254.0);
}

}  // namespace

void applyRenderModes(World& w, bool halfLife) {
    // One material per (material, mode, amount, colour): brush entities that look alike share theirs.
    std::map<std::tuple<int32_t, int, int, float, float, float>, int32_t> made;
    for (size_t m = 1; m < w.models.size(); ++m) {
        const Model& model = w.models[m];
        if (model.entity < 0 || size_t(model.entity) >= w.entities.size()) continue;
        const Entity& e = w.entities[size_t(model.entity)];
        // Quake 1's alpha is kept as amount 0..254 with mode 0 (no GoldSrc mode).
        const float alpha = halfLife ? 1.0f : quakeEntityAlpha(e);
        const int mode = halfLife ? entityInt(e, "rendermode") : 0;
        if (halfLife && (mode < 1 || mode > 5)) continue;  // kRenderNormal, or nothing GoldSrc draws brushes with
        if (!halfLife && !(alpha < 1)) continue;
        const int amount = halfLife ? std::clamp(entityInt(e, "renderamt"), 0, 255) : int(std::lround(alpha * 254));
        const Vec3 color = halfLife ? renderColor(e) : Vec3{1, 1, 1};
        const uint64_t end = std::min<uint64_t>(uint64_t(model.firstSurface) + model.numSurfaces, w.surfaces.size());
        for (uint64_t s = model.firstSurface; s < end; ++s) {
            int32_t& material = w.surfaces[size_t(s)].material;
            if (material < 0 || size_t(material) >= w.materials.size()) continue;
            const auto key = std::make_tuple(material, mode, amount, color.x, color.y, color.z);
            auto [it, fresh] = made.try_emplace(key, int32_t(w.materials.size()));
            if (fresh) {
                Material own = w.materials[size_t(material)];
                if (halfLife) {
                    own.entityRenderMode = mode;
                    own.modelColor = Vec4{color.x, color.y, color.z, float(amount) / 255.0f};
                    if (mode == 1) own.reflectivity = color;  // kRenderTransColor draws the colour alone
                } else {
                    own.entityAlpha = alpha;
                }
                w.materials.push_back(std::move(own));
            }
            material = it->second;
        }
    }
}

}  // namespace luxel::q1
