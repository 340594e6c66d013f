// Every light style baked on a freshly laid-out map, and each face's styles chosen as ericw-tools chooses them
// (see relaid_out_styles.hpp).
#include "luxel/bake/relaid_out_styles.hpp"

#include <fmt/format.h>

#include "luxel/bsp/brush_entities.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <numeric>

namespace luxel {

namespace {

constexpr uint8_t kNoStyle = 255;

// ericw-tools' LightFace_AutoMin: a brush entity's face with samples in solid (or too far off the face) gets
// at those samples the light at the model's centre, its light grid sample there (FixPointAndCalcLightgrid,
// LightPoint_Entity): the centre moved 2 units out of solid (none when it cannot be), each light of the style
// taken with the brightest of the six axis normals, a shadow ray from the centre; times rules.autoMinlightScale. Instead of
// its neighbours'. Returns the holes that remain (the world's).
std::vector<LightmapHole> autoMinlight(const World& world, const RayScene& scene, const std::vector<Light>& lights,
                                       const DirectBakeRules& rules, std::vector<LightmapHole> holes,
                                       std::vector<LightmapPage>& pages) {
    const std::vector<int32_t> modelOf = surfaceModels(world);
    std::vector<std::optional<Vec3>> centreLight(world.models.size());
    auto lightAt = [&](size_t m) -> const std::optional<Vec3>& {
        std::optional<Vec3>& out = centreLight[m];
        if (out) return out;
        const Model& model = world.models[m];
        const Vec3 centre = model.origin + (model.mins + model.maxs) * 0.5f;
        const std::optional<Vec3> open = movedOutOfSolid(world, centre, 2.0f);
        out = Vec3{};
        if (!open) return out;
        const Vec3 points[6] = {*open, *open, *open, *open, *open, *open};
        const Vec3 axes[6] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
        for (const Light& l : lights) {
            LightArrival a[6];
            rules.arrival(l, points, axes, 6, a);
            // LIGHTPOINT_TAKE_MAX: the brightest of the six (the first of equals).
            Vec3 sum;
            for (const LightArrival& x : a)
                if (dot(x.color, x.color) > dot(sum, sum)) sum = x.color;
            if (!(std::max({sum.x, sum.y, sum.z}) > 0)) continue;
            const bool sun = l.kind == Light::Kind::Sun;
            if (scene.occluded(*open, a[5].toLight, 0.01f, sun ? 1e30f : a[5].distance, sun ? rules.sunRay : ShadowRay::Light)) continue;
            *out += sum * rules.autoMinlightScale;
        }
        return out;
    };
    // A hole's block (page and corner) names its brush entity's model.
    std::map<std::array<int32_t, 3>, int32_t> blockModel;
    for (size_t s = 0; s < world.surfaces.size(); ++s)
        if (modelOf[s] > 0 && world.surfaces[s].lightmapPage >= 0)
            blockModel[{world.surfaces[s].lightmapPage, world.surfaces[s].lightmapRect[0], world.surfaces[s].lightmapRect[1]}] = modelOf[s];
    std::vector<LightmapHole> world0;
    for (const LightmapHole& h : holes) {
        const auto it = blockModel.find({h.page, h.rect[0], h.rect[1]});
        if (it == blockModel.end() || size_t(h.page) >= pages.size()) {
            world0.push_back(h);
            continue;
        }
        const Vec3 c = *lightAt(size_t(it->second));
        LightmapPage& p = pages[size_t(h.page)];
        float* t = p.rgb.data() + (size_t(h.y) * size_t(p.width) + size_t(h.x)) * 3;
        t[0] = std::max(t[0], c.x), t[1] = std::max(t[1], c.y), t[2] = std::max(t[2], c.z);
    }
    return world0;
}

}  // namespace

std::vector<StylePass> bakeEachStyle(World& world, const Geometry& geometry, const RayScene& scene, const MapLights& lights,
                                     const LuxelSamples& samples, DirectBakeStats& stats) {
    std::vector<uint8_t> styles{0};
    for (const Light& l : lights.lights)
        if (std::find(styles.begin(), styles.end(), l.style) == styles.end()) styles.push_back(l.style);
    std::sort(styles.begin() + 1, styles.end());
    std::vector<StylePass> passes;
    for (uint8_t style : styles) {
        for (Surface& s : world.surfaces)
            if (s.lightmapPage >= 0) s.styles = {style, kNoStyle, kNoStyle, kNoStyle};
        std::vector<Light> ofStyle;
        for (const Light& l : lights.lights)
            if (l.style == style) ofStyle.push_back(l);
        StylePass pass;
        pass.style = style;
        pass.set = bakeLightmapsDirect(world, geometry, scene, ofStyle, lights.rules, stats, &samples);
        // The set's holes (samples in solid, texels no luxel samples) are filled from their neighbours, now and
        // after bounce; a brush entity's take the light at its centre instead.
        pass.set.holes = autoMinlight(world, scene, ofStyle, lights.rules, std::move(pass.set.holes), pass.set.slots[0]);
        fillHoles(pass.set.slots[0], pass.set.holes);
        if (!pass.set.deluxe.empty()) fillHoles(pass.set.deluxe, pass.set.holes);
        if (!pass.set.floor.empty()) fillHoles(pass.set.floor, pass.set.holes);
        passes.push_back(std::move(pass));
    }
    for (Surface& s : world.surfaces)
        if (s.lightmapPage >= 0) s.styles = {0, kNoStyle, kNoStyle, kNoStyle};
    return passes;
}

StyleChoice chooseFaceStyles(World& world, const std::vector<StylePass>& passes, float toCompilerUnits, bool keepStyleZero) {
    StyleChoice out;
    if (passes.empty()) return out;
    const std::vector<LightmapPage>& layout = passes[0].set.slots[0];
    const bool directions = !passes[0].set.deluxe.empty();
    for (size_t k = 0; k < 4; ++k) {
        out.set.slots[k] = layout;
        for (LightmapPage& p : out.set.slots[k]) std::fill(p.rgb.begin(), p.rgb.end(), 0.0f);
        if (directions) out.directions[k] = out.set.slots[k];
    }
    for (size_t i = 0; i < world.surfaces.size(); ++i) {
        Surface& s = world.surfaces[i];
        if (s.lightmapPage < 0 || size_t(s.lightmapPage) >= layout.size()) continue;
        const auto& r = s.lightmapRect;
        const size_t page = size_t(s.lightmapPage), width = size_t(layout[page].width);
        const size_t texels = size_t(r[2]) * size_t(r[3]);
        // Lightmap_MaxBrightness / Lightmap_AvgBrightness: (r + g + b) / 3 in the compiler's units.
        std::vector<std::pair<float, size_t>> sortable;
        for (size_t p = 0; p < passes.size(); ++p) {
            const std::vector<float>& rgb = passes[p].set.slots[0][page].rgb;
            double sum = 0;
            float top = 0;
            for (int32_t y = r[1]; y < r[1] + r[3]; ++y)
                for (int32_t x = r[0]; x < r[0] + r[2]; ++x) {
                    const float* t = rgb.data() + (size_t(y) * width + size_t(x)) * 3;
                    const float b = (t[0] + t[1] + t[2]) / 3 * toCompilerUnits;
                    sum += b;
                    top = std::max(top, b);
                }
            if (top < 1 && !(keepStyleZero && passes[p].style == 0)) continue;
            sortable.emplace_back(texels ? float(sum / double(texels)) : 0.0f, p);
        }
        // Descending average; equal averages in pass order (ericw-tools' order there follows its threads).
        std::stable_sort(sortable.begin(), sortable.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        if (sortable.size() > 4) {
            ++out.facesOverflow;
            if (out.overflowNotes.size() < 5) {
                std::string styles;
                for (const auto& [avg, p] : sortable) styles += (styles.empty() ? "" : " ") + std::to_string(passes[p].style);
                out.overflowNotes.push_back(fmt::format("face {} has light of {} styles ({}); the 4 brightest kept", i,
                                                        sortable.size(), styles));
            }
            sortable.resize(4);
        }
        s.styles = {kNoStyle, kNoStyle, kNoStyle, kNoStyle};
        for (size_t k = 0; k < sortable.size(); ++k) {
            const size_t p = sortable[k].second;
            s.styles[k] = passes[p].style;
            auto copyBlock = [&](const std::vector<float>& from, std::vector<float>& to) {
                for (int32_t y = r[1]; y < r[1] + r[3]; ++y) {
                    const size_t at = (size_t(y) * width + size_t(r[0])) * 3;
                    std::copy(from.begin() + std::ptrdiff_t(at), from.begin() + std::ptrdiff_t(at + size_t(r[2]) * 3), to.begin() + std::ptrdiff_t(at));
                }
            };
            copyBlock(passes[p].set.slots[0][page].rgb, out.set.slots[k][page].rgb);
            if (directions && page < passes[p].set.deluxe.size()) copyBlock(passes[p].set.deluxe[page].rgb, out.directions[k][page].rgb);
        }
        (sortable.empty() ? out.facesDark : out.facesLit)++;
    }
    // Slots no face uses stay empty, as LightmapSet says.
    for (size_t k = 1; k < 4; ++k) {
        const bool used = std::any_of(world.surfaces.begin(), world.surfaces.end(), [&](const Surface& s) {
            return s.lightmapPage >= 0 && s.styles[k] != kNoStyle;
        });
        if (!used) out.set.slots[k].clear(), out.directions[k].clear();
    }
    return out;
}

}  // namespace luxel
