#include "support/render_fixtures.hpp"

#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>

#include "luxel/util/cpu.hpp"
#include "luxel/render/raster.hpp"
#include "luxel/render/render_surfaces.hpp"
#include "luxel/vis/visibility.hpp"

namespace luxel::test {

uint32_t addPolygon(RenderScene& scene, std::vector<FixtureVertex> vertices, Vec3 front, SurfaceShading shading,
                    int32_t lightmapPage, bool twoSided, int32_t material) {
    // Newell normal of the polygon as given; clockwise-from-front means it points against `front`.
    Vec3 n{};
    for (size_t i = 0; i < vertices.size(); ++i) n += cross(vertices[i].position, vertices[(i + 1) % vertices.size()].position);
    if (dot(n, front) > 0) std::reverse(vertices.begin(), vertices.end());

    Geometry& g = scene.geometry;
    World& w = scene.world;
    DrawSurface ds;
    ds.firstIndex = uint32_t(g.indices.size());
    ds.lightmapPage = lightmapPage;
    ds.material = material;
    ds.shading = shading;
    ds.twoSided = twoSided;
    uint32_t base = uint32_t(g.vertices.size());
    for (const FixtureVertex& fv : vertices) {
        DrawVertex v;
        v.position = fv.position;
        v.normal = normalize(front);
        v.color = fv.color;
        v.lightmapUV = fv.lightmapUV;
        v.texUV = fv.texUV;
        g.vertices.push_back(v);
        ds.bounds.grow(fv.position);
    }
    for (uint32_t i = 1; i + 1 < vertices.size(); ++i) {
        g.indices.push_back(base);
        g.indices.push_back(base + i);
        g.indices.push_back(base + i + 1);
    }
    ds.numIndices = uint32_t(g.indices.size()) - ds.firstIndex;
    ds.firstVertex = base;
    ds.numVertices = uint32_t(vertices.size());
    g.surfaces.push_back(ds);

    Surface s;
    s.kind = SurfaceKind::Polygon;
    s.material = material;
    s.lightmapPage = lightmapPage;
    s.normal = normalize(front);
    w.surfaces.push_back(s);
    return uint32_t(g.surfaces.size() - 1);
}

uint32_t addColoredPolygon(RenderScene& scene, const std::vector<Vec3>& positions, Vec3 front, Vec3 color,
                           bool twoSided) {
    std::vector<FixtureVertex> vs;
    for (Vec3 p : positions) vs.push_back({p, {color.x, color.y, color.z, 1}, {}, {}});
    return addPolygon(scene, vs, front, SurfaceShading::Vertex, -1, twoSided);
}

void addSkyCube(RenderScene& s, float d) {
    if (s.world.materials.empty()) s.world.materials.resize(1);
    auto face = [&](std::vector<Vec3> p, Vec3 front) {
        std::vector<FixtureVertex> v;
        for (Vec3 q : p) v.push_back({q, {1, 1, 1, 1}, {}, {}});
        addPolygon(s, v, front, SurfaceShading::Sky, -1, true, 0);
    };
    face({{d, -d, -d}, {d, d, -d}, {d, d, d}, {d, -d, d}}, {-1, 0, 0});
    face({{-d, -d, -d}, {-d, d, -d}, {-d, d, d}, {-d, -d, d}}, {1, 0, 0});
    face({{-d, d, -d}, {d, d, -d}, {d, d, d}, {-d, d, d}}, {0, -1, 0});
    face({{-d, -d, -d}, {d, -d, -d}, {d, -d, d}, {-d, -d, d}}, {0, 1, 0});
    face({{-d, -d, d}, {d, -d, d}, {d, d, d}, {-d, d, d}}, {0, 0, -1});
    face({{-d, -d, -d}, {d, -d, -d}, {d, d, -d}, {-d, d, -d}}, {0, 0, 1});
}

uint32_t addBillboard(RenderScene& scene, Vec3 origin, Vec3 color, float radius) {
    DrawSurface ds;
    ds.firstIndex = uint32_t(scene.geometry.indices.size());
    ds.shading = SurfaceShading::Hidden;
    scene.geometry.surfaces.push_back(ds);
    Surface s;
    s.kind = SurfaceKind::Billboard;
    s.origin = origin;
    s.color = color;
    scene.world.surfaces.push_back(s);
    uint32_t index = uint32_t(scene.geometry.surfaces.size() - 1);
    Billboard b;
    b.surface = index;
    b.origin = origin;
    b.color = color;
    b.normal = {0, 0, 1};
    b.radius = radius;
    scene.geometry.billboards.push_back(b);
    return index;
}

std::vector<uint32_t> allSurfaces(const RenderScene& scene) {
    std::vector<uint32_t> s(scene.geometry.surfaces.size());
    for (uint32_t i = 0; i < s.size(); ++i) s[i] = i;
    return s;
}

Camera makeCamera(Vec3 position, Vec3 angles, int width, int height, float fovX) {
    Camera c;
    c.position = position;
    c.angles = angles;
    c.width = width;
    c.height = height;
    c.fovX = fovX;
    return c;
}

Image renderScene(const RenderScene& scene, const Camera& camera, const RenderOptions& options, FrameStats* stats) {
    Image image;
    renderSceneInto(scene, camera, options, image, stats);
    return image;
}

void renderSceneInto(const RenderScene& scene, const Camera& camera, const RenderOptions& options, Image& image,
                     FrameStats* stats) {
    FrameStats local;
    View view = makeView(camera);
    renderSurfaces(scene.world, scene.geometry, camera, view, options, allSurfaces(scene), stats ? *stats : local, image);
}

Vec3 pixelRay(const Camera& camera, double px, double py) {
    Vec3 f, r, u;
    angleVectors(camera.angles, f, r, u);
    double tx = std::tan(double(camera.fovX) * 3.14159265358979323846 / 360.0);
    double ty = tx * camera.height / camera.width;
    double nx = (px + 0.5) / camera.width * 2.0 - 1.0;
    double ny = 1.0 - (py + 0.5) / camera.height * 2.0;
    return f + r * float(nx * tx) + u * float(ny * ty);
}

uint32_t addTexturedWall(RenderScene& scene, float d, int32_t material, Vec3 vertexColor) {
    const Vec4 c{vertexColor.x, vertexColor.y, vertexColor.z, 1};
    std::vector<FixtureVertex> v{{{d, d, d}, c, {}, {0, 0}},
                                 {{d, -d, d}, c, {}, {1, 0}},
                                 {{d, -d, -d}, c, {}, {1, 1}},
                                 {{d, d, -d}, c, {}, {0, 1}}};
    while (scene.world.materials.size() <= size_t(material)) scene.world.materials.push_back(Material{});
    return addPolygon(scene, v, {-1, 0, 0}, SurfaceShading::Vertex, -1, false, material);
}

RenderOptions materialOptions(RenderMode mode, const MaterialSet& m) {
    RenderOptions o;
    o.mode = mode;
    o.look = Look::Linear;
    o.usePvs = false;
    o.materials = &m;
    return o;
}

BothPaths renderBothPaths(const RenderScene& scene, const Camera& camera, const RenderOptions& options) {
    BothPaths out;
    allowAvx2(true);
    out.vec = renderScene(scene, camera, options, &out.vecStats);
    allowAvx2(false);
    out.portable = renderScene(scene, camera, options, &out.portableStats);
    allowAvx2(true);
    return out;
}

RgbaImage noiseImage(int width, int height, uint32_t seed, bool opaque) {
    RgbaImage noise;
    noise.width = width, noise.height = height;
    uint32_t state = seed;
    for (int i = 0; i < width * height * 4; ++i) {
        state = state * 1664525u + 1013904223u;
        noise.rgba.push_back(opaque && i % 4 == 3 ? uint8_t(255) : uint8_t(state >> 24));
    }
    return noise;
}

RenderOptions linearOptions(RenderMode mode) {
    RenderOptions o;
    o.mode = mode;
    o.look = Look::Linear;
    o.background = {0, 0, 0};
    return o;
}

std::vector<Vec3> wall(float d, float h) { return {{d, -h, -h}, {d, h, -h}, {d, h, h}, {d, -h, h}}; }

void requireSameBytesAtThreadCounts(const RenderScene& s, const Camera& cam, const RenderOptions& o) {
    Image ref;
    for (int threads : {1, 2, 8}) {
        tbb::task_arena arena(threads);
        Image img;
        arena.execute([&] { img = renderScene(s, cam, o); });
        if (threads == 1) {
            ref = img;
            continue;
        }
        REQUIRE(img.pixels.size() == ref.pixels.size());
        REQUIRE(std::memcmp(img.pixels.data(), ref.pixels.data(), img.pixels.size() * sizeof(float)) == 0);
    }
}

std::optional<Camera> cameraFacingSurface(const World& world, size_t s, float distance, int width, int height) {
    const Surface& surf = world.surfaces.at(s);
    Vec3 centre{};
    for (uint32_t k = 0; k < surf.numVertices; ++k) centre += world.vertices[surf.firstVertex + k].position;
    centre = centre * (1.0f / float(surf.numVertices));
    const Vec3 n = normalize(surf.normal);
    const Vec3 eye = centre + n * distance;
    if (findCluster(world, eye) < 0) return std::nullopt;
    const Vec3 d = n * -1.0f;
    const float pitch = float(std::asin(std::clamp(-d.z, -1.0f, 1.0f)) * 180.0 / std::numbers::pi);
    const float yaw = float(std::atan2(d.y, d.x) * 180.0 / std::numbers::pi);
    return makeCamera(eye, {pitch, yaw, 0}, width, height);
}

}  // namespace luxel::test
