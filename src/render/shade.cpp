#include "luxel/render/shade.hpp"

#include <algorithm>
#include <cmath>

#include "luxel/light/lightmap_sample.hpp"
#include "luxel/vis/visibility.hpp"

namespace luxel::render {

Vec3 applyLook(Vec3 light, Vec3 albedo, Look look, const EngineLook& engine) {
    if (look == Look::Linear) return light * albedo;
    if (engine.hueClampAt > 0) {
        float m = std::max({light.x, light.y, light.z});
        if (m > engine.hueClampAt) light *= engine.hueClampAt / m;
    }
    Vec3 c = light * albedo;
    c = {std::clamp(c.x, 0.0f, 1.0f), std::clamp(c.y, 0.0f, 1.0f), std::clamp(c.z, 0.0f, 1.0f)};
    if (!(c.x == c.x)) c.x = 0;  // NaN from hostile data must not reach the picture
    if (!(c.y == c.y)) c.y = 0;
    if (!(c.z == c.z)) c.z = 0;
    if (engine.gamma > 0 && engine.gamma != 1.0f) {
        float inv = 1.0f / engine.gamma;  // Quake's r_gamma: display = value^(1/gamma)
        c = {std::pow(c.x, inv), std::pow(c.y, inv), std::pow(c.z, inv)};
    }
    return c;
}

Vec3 clusterColor(int32_t cluster) {
    if (cluster < 0) return {0.5f, 0.5f, 0.5f};
    // murmur3 finaliser: neighbouring ids get unrelated colours.
    uint32_t h = uint32_t(cluster) + 0x9e3779b9u;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    // Keep channels in [0.15, 1] so no cluster is black like the background.
    auto ch = [&](int shift) { return 0.15f + 0.85f * float((h >> shift) & 0xff) / 255.0f; };
    return {ch(0), ch(8), ch(16)};
}

float depthGrey(float w, float wNear, float wFar) {
    if (!(wFar > wNear) || !(wNear > 0)) return 1.0f;
    float t = std::log(w / wNear) / std::log(wFar / wNear);
    t = std::clamp(t, 0.0f, 1.0f);
    return 1.0f - 0.9f * t;
}

namespace {

struct Bary {
    float b0, b1, b2;
};

template <typename T>
inline T interp3(const T& a, const T& b, const T& c, const Bary& w);

template <>
inline Vec3 interp3(const Vec3& a, const Vec3& b, const Vec3& c, const Bary& w) {
    return {a.x * w.b0 + b.x * w.b1 + c.x * w.b2, a.y * w.b0 + b.y * w.b1 + c.y * w.b2,
            a.z * w.b0 + b.z * w.b1 + c.z * w.b2};
}

template <>
inline Vec2 interp3(const Vec2& a, const Vec2& b, const Vec2& c, const Bary& w) {
    return {a.x * w.b0 + b.x * w.b1 + c.x * w.b2, a.y * w.b0 + b.y * w.b1 + c.y * w.b2};
}

inline Vec3 rgb(const Vec4& c) { return {c.x, c.y, c.z}; }

struct Pixel {
    const SourceTri* src;
    const DrawVertex *v0, *v1, *v2;
    Bary bary;
};

inline Pixel resolve(const ShadeContext& ctx, uint32_t triId, int px, int py, float invW) {
    const raster::ShadeTri& st = ctx.tris[triId];
    const SourceTri& s = ctx.sources[st.source];
    const float iw = 1.0f / invW;
    float b1 = raster::evalPlane(st.b1W, st.x0, st.y0, px, py) * iw;
    float b2 = raster::evalPlane(st.b2W, st.x0, st.y0, px, py) * iw;
    const DrawVertex* base = s.kind == SourceKind::Flare ? ctx.flareVertices : ctx.geometry->vertices.data();
    return {&s, base + s.v[0], base + s.v[1], base + s.v[2], {1.0f - b1 - b2, b1, b2}};
}

// Light arriving at the pixel for the light-bearing modes.
template <RenderMode M>
inline Vec3 lightAt(const ShadeContext& ctx, const Pixel& p) {
    switch (p.src->kind) {
        case SourceKind::Sky: return ctx.skyColor;
        case SourceKind::Flare: return rgb(p.v0->color);
        case SourceKind::Lightmap:
            if constexpr (M != RenderMode::Vertex) {
                const DrawSurface& ds = ctx.geometry->surfaces[p.src->surface];
                Vec2 uv = interp3(p.v0->lightmapUV, p.v1->lightmapUV, p.v2->lightmapUV, p.bary);
                return sampleLightmap(ctx.world->lightmaps[size_t(ds.lightmapPage)], uv);
            }
            [[fallthrough]];
        case SourceKind::Vertex: break;
    }
    return interp3(rgb(p.v0->color), rgb(p.v1->color), rgb(p.v2->color), p.bary);
}

template <RenderMode M>
inline Vec3 shadeOne(const ShadeContext& ctx, uint32_t triId, int px, int py, float invW) {
    if constexpr (M == RenderMode::Depth) {
        (void)triId;
        (void)px;
        (void)py;
        float g = depthGrey(1.0f / invW, ctx.depthNear, ctx.depthFar);
        return {g, g, g};
    } else {
        Pixel p = resolve(ctx, triId, px, py, invW);
        if constexpr (M == RenderMode::Normals) {
            Vec3 n = normalize(interp3(p.v0->normal, p.v1->normal, p.v2->normal, p.bary));
            return n * 0.5f + Vec3{0.5f, 0.5f, 0.5f};
        } else if constexpr (M == RenderMode::Clusters) {
            Vec3 pos = interp3(p.v0->position, p.v1->position, p.v2->position, p.bary);
            Vec3 n = normalize(interp3(p.v0->normal, p.v1->normal, p.v2->normal, p.bary));
            // Step off the surface along its normal: the surface itself lies on a leaf boundary.
            return clusterColor(findCluster(*ctx.world, pos + n));
        } else {
            Vec3 light = lightAt<M>(ctx, p);
            Vec3 albedo{1, 1, 1};
            if constexpr (M == RenderMode::Lit) {
                if (p.src->kind == SourceKind::Lightmap || p.src->kind == SourceKind::Vertex) {
                    int32_t m = ctx.geometry->surfaces[p.src->surface].material;
                    if (m >= 0 && size_t(m) < ctx.world->materials.size()) albedo = ctx.world->materials[size_t(m)].reflectivity;
                }
            }
            return applyLook(light, albedo, ctx.look, ctx.world->look);
        }
    }
}

template <RenderMode M>
void shadeBlockT(const ShadeContext& ctx, const float* depth, const uint32_t* id, int stride, int x, int y, int w,
                 int h, Image& image, bool accumulate) {
    const Vec3 bg = ctx.background;
    for (int j = 0; j < h; ++j) {
        const float* drow = depth + size_t(j) * size_t(stride);
        const uint32_t* irow = id + size_t(j) * size_t(stride);
        float* out = image.at(x, y + j);
        for (int i = 0; i < w; ++i, out += 3) {
            Vec3 c = irow[i] == raster::kNoTriangle ? bg : shadeOne<M>(ctx, irow[i], x + i, y + j, drow[i]);
            if (accumulate) {
                out[0] += c.x;
                out[1] += c.y;
                out[2] += c.z;
            } else {
                out[0] = c.x;
                out[1] = c.y;
                out[2] = c.z;
            }
        }
    }
}

}  // namespace

void shadeBlock(const ShadeContext& ctx, const float* depth, const uint32_t* id, int stride, int x, int y, int w,
                int h, Image& image, bool accumulate) {
    switch (ctx.mode) {
        case RenderMode::Lightmap: return shadeBlockT<RenderMode::Lightmap>(ctx, depth, id, stride, x, y, w, h, image, accumulate);
        case RenderMode::Vertex: return shadeBlockT<RenderMode::Vertex>(ctx, depth, id, stride, x, y, w, h, image, accumulate);
        case RenderMode::Normals: return shadeBlockT<RenderMode::Normals>(ctx, depth, id, stride, x, y, w, h, image, accumulate);
        case RenderMode::Depth: return shadeBlockT<RenderMode::Depth>(ctx, depth, id, stride, x, y, w, h, image, accumulate);
        case RenderMode::Clusters: return shadeBlockT<RenderMode::Clusters>(ctx, depth, id, stride, x, y, w, h, image, accumulate);
        case RenderMode::Lit: return shadeBlockT<RenderMode::Lit>(ctx, depth, id, stride, x, y, w, h, image, accumulate);
    }
}

}  // namespace luxel::render
