// The light parameters q3map2 reads from Quake 3 shaders (shaders.cpp LoadShaderImages, ParseShaderFile;
// light.cpp SkyProbes), read from the same mounted game the materials use.
#include "luxel/material/q3_light_shaders.hpp"

#include <algorithm>
#include <array>

#include "material_loaders.hpp"
#include "q3_game.hpp"
#include "q3_program.hpp"

namespace luxel {

namespace {

// q3map2's ColorNormalize: scaled so the largest channel is 1; black (or no positive channel) gives white.
Vec3 colorNormalize(Vec3 c) {
    const float top = std::max({c.x, c.y, c.z});
    if (!(top > 0) || !std::isfinite(top)) return {1, 1, 1};
    return c / top;
}

// Cell (u, v) of a face seen from the cube's centre, as q3map2's SkyProbes lays it out on the +X face:
// direction (1, 1 - 2u/res, 1 - 2v/res) before the face's turn.
constexpr int kProbeRes = 64;

// The turn from the +X (_rt) face to each face, order _lf _rt _ft _bk _up _dn (SkyProbes' transforms:
// a mirror in x and y, identity, rotations about z by -90 and +90 degrees, about y by -90 and +90).
Vec3 turnToFace(int face, Vec3 v) {
    switch (face) {
        case 0: return {-v.x, -v.y, v.z};
        case 1: return v;
        case 2: return {v.y, -v.x, v.z};
        case 3: return {-v.y, v.x, v.z};
        case 4: return {-v.z, v.y, v.x};
        default: return {v.z, v.y, -v.x};
    }
}

}  // namespace

std::vector<Q3LightShader::SkyProbe> skyProbes(const std::vector<RgbaImage>& box) {
    std::vector<Q3LightShader::SkyProbe> probes;
    if (box.size() != 6) return probes;
    for (const RgbaImage& img : box)
        if (img.empty() || img.rgba.size() < size_t(img.width) * size_t(img.height) * 4) return probes;
    probes.reserve(size_t(6 * kProbeRes * kProbeRes));
    for (int face = 0; face < 6; ++face) {
        const RgbaImage& img = box[size_t(face)];
        const size_t w = size_t(img.width), h = size_t(img.height);
        for (size_t u = 0; u < kProbeRes; ++u) {
            for (size_t v = 0; v < kProbeRes; ++v) {
                const Vec3 n = normalize(Vec3{1, 1 - float(u) * 2.0f / kProbeRes, 1 - float(v) * 2.0f / kProbeRes});
                // The cell's texels: columns [x0, x1), rows [y0, y1), at least one each.
                const size_t x0 = w * u / kProbeRes, x1 = std::max(x0 + 1, w * (u + 1) / kProbeRes);
                const size_t y0 = h * v / kProbeRes, y1 = std::max(y0 + 1, h * (v + 1) / kProbeRes);
                Vec3 sum;
                for (size_t x = x0; x < x1; ++x)
                    for (size_t y = y0; y < y1; ++y) {
                        const uint8_t* p = &img.rgba[(y * w + x) * 4];
                        sum += Vec3{float(p[0]), float(p[1]), float(p[2])};
                    }
                sum = sum / float((x1 - x0) * (y1 - y0));
                sum *= n.x;  // "color *= dot(normal, x axis)"
                probes.push_back({sum / 255.0f, turnToFace(face, n)});
            }
        }
    }
    return probes;
}

Q3LightShader lightShaderOf(const Q3Shader& sh, const RgbaImage& image, const std::vector<RgbaImage>& box) {
    Q3LightShader out;
    out.defined = true;
    out.surfaceLight = sh.surfaceLight;
    out.lightSubdivide = sh.lightSubdivide;
    if (sh.backsplashPercent) {
        out.backsplashFraction = *sh.backsplashPercent * 0.01f;
        out.backsplashDistance = sh.backsplashDistance;
    }
    out.sky = (sh.surfaceParms & kQ3SurfSky) || !sh.suns.empty();
    out.fog = (sh.surfaceParms & kQ3SurfFog) != 0;
    out.twoSided = sh.cull == Q3Cull::None;
    out.nodraw = (sh.surfaceParms & kQ3SurfNoDraw) != 0;
    out.autosprite = std::any_of(sh.deforms.begin(), sh.deforms.end(),
                                 [](const std::string& d) { return d.starts_with("autosprite"); });
    out.noFast = sh.noFast;
    out.lightStyle = sh.lightStyle;
    out.suns = sh.suns;
    out.skyLights = sh.skyLights;
    // LoadShaderImages: a colour given with q3map_lightRGB wins unless it is black (zero length).
    if (sh.lightRGB && length(*sh.lightRGB) != 0) {
        out.color = colorNormalize(*sh.lightRGB);
    } else if (!image.empty() && !out.nodraw) {
        double sum[3] = {0, 0, 0};
        const size_t n = std::min(size_t(image.width) * size_t(image.height), image.rgba.size() / 4);
        for (size_t i = 0; i < n; ++i)
            for (size_t c = 0; c < 3; ++c) sum[c] += image.rgba[i * 4 + c];
        out.color = colorNormalize(Vec3{float(sum[0]), float(sum[1]), float(sum[2])});
    }
    if (std::any_of(sh.skyLights.begin(), sh.skyLights.end(), [](const auto& s) { return s.sampleColor; }))
        out.skyProbes = skyProbes(box);
    return out;
}

std::vector<Q3LightShader> quake3LightShaders(const World& world, const MapSource& source,
                                              const MaterialOptions& options, std::vector<std::string>* warnings) {
    std::vector<Q3LightShader> out(world.materials.size());
    const auto game = materials::quake3Game(source, options);
    const GameFiles& files = game->f.files;
    auto load = [&](const std::string& name) -> RgbaImage {
        if (name.empty()) return {};
        const std::string path = materials::findImage(files, name);
        if (path.empty()) return {};
        try {
            return materials::decodeGameImage(files, path);
        } catch (const std::exception& e) {
            if (warnings) warnings->push_back(e.what());
            return {};
        }
    };
    for (size_t i = 0; i < world.materials.size(); ++i) {
        const auto it = game->table.find(normalizeShaderName(world.materials[i].name));
        if (it == game->table.end()) continue;
        const Q3Shader& sh = it->second;
        // The light image (LoadShaderImages): lightImagePath when it loads, else the shader image: the editor
        // image, else the image named like the shader, else lightImagePath again.
        RgbaImage image;
        std::string from;
        const bool wantsColor = sh.surfaceLight != 0 || !sh.skyLights.empty();
        if (wantsColor && !(sh.lightRGB && length(*sh.lightRGB) != 0)) {
            for (const std::string& name : {sh.q3mapLightImage, sh.editorImage, sh.name}) {
                image = load(name);
                if (!image.empty()) {
                    from = name;
                    break;
                }
            }
        }
        std::vector<RgbaImage> box;
        const bool samples = std::any_of(sh.skyLights.begin(), sh.skyLights.end(), [](const auto& s) { return s.sampleColor; });
        if (samples && sh.skyBoxBase) {
            for (const char* suffix : {"_lf", "_rt", "_ft", "_bk", "_up", "_dn"}) {
                box.push_back(load(*sh.skyBoxBase + suffix));
                if (box.back().empty()) {
                    if (warnings) warnings->push_back(sh.name + ": sky box image " + *sh.skyBoxBase + suffix + " not found");
                    box.clear();
                    break;
                }
            }
        }
        out[i] = lightShaderOf(sh, image, box);
        if (!image.empty() && !out[i].nodraw) out[i].colorImage = from;
    }
    return out;
}

}  // namespace luxel
