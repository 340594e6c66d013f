// Source 3D skybox (render/sky_view.hpp): a hand-built map of two areas split by the plane x = 0, a main room
// (x > 0) walled in sky and a skybox area (x < 0) holding one coloured square; the sky camera's picture shows
// where the main frame draws sky, behind the world. Expected pixels from the projection worked by hand.
#include <catch2/catch.hpp>

#include "luxel/geometry/geometry.hpp"
#include "luxel/render/render.hpp"
#include "luxel/render/sky_view.hpp"
#include "support/render_fixtures.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

// A two-sided quad (corners in order) of material `material`, vertex colour `color`; returns its surface.
uint32_t addQuad(World& w, std::array<Vec3, 4> corners, int32_t material, Vec3 color) {
    Surface s;
    s.kind = SurfaceKind::Polygon;
    s.material = material;
    s.firstVertex = uint32_t(w.vertices.size());
    s.numVertices = 4;
    s.firstIndex = uint32_t(w.indices.size());
    s.numIndices = 6;
    s.normal = normalize(cross(corners[1] - corners[0], corners[2] - corners[0]));
    for (Vec3 p : corners) {
        Vertex v;
        v.position = p;
        v.normal = s.normal;
        v.color = {color.x, color.y, color.z, 1};
        w.vertices.push_back(v);
    }
    for (uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) w.indices.push_back(i);
    w.surfaces.push_back(s);
    return uint32_t(w.surfaces.size() - 1);
}

// Six sky quads (material 0) of half-size d about `centre`.
std::vector<uint32_t> addSkyBox(World& w, Vec3 centre, float d) {
    std::vector<uint32_t> out;
    for (int axis = 0; axis < 3; ++axis)
        for (float sign : {-1.0f, 1.0f}) {
            std::array<Vec3, 4> c;
            for (int k = 0; k < 4; ++k) {
                float q[3];
                q[axis] = sign * d;
                q[(axis + 1) % 3] = (k == 0 || k == 3) ? -d : d;
                q[(axis + 2) % 3] = (k < 2) ? -d : d;
                c[size_t(k)] = centre + Vec3{q[0], q[1], q[2]};
            }
            out.push_back(addQuad(w, c, 0, {1, 1, 1}));
        }
    return out;
}

const Vec3 kSquare{0.5f, 0.25f, 0.125f}, kWall{0.75f, 0.75f, 0.75f}, kSky{0.2f, 0.4f, 0.6f};
const Vec3 kEye{1000, 0, 0}, kSkyOrigin{-1000, 0, 0};

// Leaf 0 (x >= 0, area 1): a sky cube of half-size 200 about the eye and a wall 50 ahead of it spanning
// y -20..5, z -20..20. Leaf 1 (x < 0, area 2): the square x = -900, y 0..12, z 0..12, in a sky cube of
// half-size 150 about the sky camera.
World twoAreaMap() {
    World w;
    w.format = MapFormat::Source;
    w.materials = {Material{"sky", kMaterialSky | kMaterialTwoSided, 0, 0, {1, 1, 1}},
                   Material{"solid", kMaterialTwoSided, 0, 0, {1, 1, 1}}};
    w.planes.push_back({{1, 0, 0}, 0});
    w.nodes.push_back({0, {-1, -2}, {-2000, -2000, -2000}, {2000, 2000, 2000}});
    std::vector<uint32_t> mainRoom = addSkyBox(w, kEye, 200);
    mainRoom.push_back(addQuad(w, {Vec3{1050, -20, -20}, Vec3{1050, 5, -20}, Vec3{1050, 5, 20}, Vec3{1050, -20, 20}}, 1, kWall));
    const uint32_t square = addQuad(w, {Vec3{-900, 0, 0}, Vec3{-900, 12, 0}, Vec3{-900, 12, 12}, Vec3{-900, 0, 12}}, 1, kSquare);
    Leaf main, sky;
    main.cluster = 0, main.area = 1, main.mins = {0, -2000, -2000}, main.maxs = {2000, 2000, 2000};
    sky.cluster = 1, sky.area = 2, sky.mins = {-2000, -2000, -2000}, sky.maxs = {0, 2000, 2000};
    main.firstLeafSurface = 0, main.numLeafSurfaces = uint32_t(mainRoom.size());
    w.leafSurfaces = mainRoom;
    const std::vector<uint32_t> skyRoom = addSkyBox(w, kSkyOrigin, 150);  // the skybox area's own sky walls
    sky.firstLeafSurface = uint32_t(w.leafSurfaces.size()), sky.numLeafSurfaces = 1 + uint32_t(skyRoom.size());
    w.leafSurfaces.push_back(square);
    w.leafSurfaces.insert(w.leafSurfaces.end(), skyRoom.begin(), skyRoom.end());
    w.leaves = {main, sky};
    w.skyCamera = SkyCamera{kSkyOrigin, 16};
    return w;
}

Image frame(const World& w, const Geometry& g, const MaterialSet& m, RenderMode mode = RenderMode::Lit) {
    RenderOptions o;
    o.mode = mode;
    o.look = Look::Linear;
    o.materials = &m;
    o.skyColor = kSky;
    return renderFrame(w, g, makeCamera(kEye, {0, 0, 0}, 64, 64), o);
}

void checkColor(Vec3 got, Vec3 want) {
    CHECK(got.x == Approx(want.x).margin(1e-5));
    CHECK(got.y == Approx(want.y).margin(1e-5));
    CHECK(got.z == Approx(want.z).margin(1e-5));
}

}  // namespace

TEST_CASE("3D skybox: the sky area seen from sky origin + eye / scale, behind the world", "[sky]") {
    const World w = twoAreaMap();
    const Geometry g = tessellate(w);
    MaterialSet m;
    m.looks.resize(w.materials.size());

    // The sky view: eye (-1000 + 1000 / 16, 0, 0) = (-937.5, 0, 0), only the square (the skybox area's leaf).
    const std::optional<SkyboxView> view = skyboxView(w, g, makeCamera(kEye, {0, 0, 0}, 64, 64), {});
    REQUIRE(view);
    CHECK(view->area == 2);
    CHECK(view->camera.position.x == Approx(-937.5f));
    REQUIRE(!view->surfaces.empty());
    CHECK(view->surfaces.front() == 7);  // the square, then some of the skybox area's sky walls; nothing else
    CHECK(view->surfaces.back() <= 13);

    // Seen 37.5 ahead over a 90 degree, 64-pixel view (32 pixels per unit of tangent): the square's y 0..12
    // lands on columns 32 - 12 / 37.5 * 32 = 21.76 .. 32 and its z 0..12 on rows 21.76 .. 32 (pixel centres
    // at i + 0.5: pixels 22..31 covered). The wall 50 ahead covers columns 32 - 5 / 50 * 32 = 28.8 .. 44.8
    // and rows 19.2 .. 44.8 (pixels 29..44 and 20..44), in front of the sky.
    const Image img = frame(w, g, m);
    checkColor(pixelAt(img, 22, 22), kSquare);
    checkColor(pixelAt(img, 28, 31), kSquare);
    checkColor(pixelAt(img, 21, 25), kSky);   // left of the square: the 2D sky (flat colour, no box)
    checkColor(pixelAt(img, 25, 21), kSky);   // above it
    checkColor(pixelAt(img, 25, 32), kSky);   // below it
    checkColor(pixelAt(img, 29, 25), kWall);  // the world in front of the skybox
    checkColor(pixelAt(img, 31, 31), kWall);

    // Without a sky camera (or drawn without materials, or in lightmap mode) the sky is the sky colour there.
    World flat = w;
    flat.skyCamera.reset();
    checkColor(pixelAt(frame(flat, g, m), 25, 25), kSky);
    // The scale moves it: at scale 20 the eye is at -950, 50 ahead of the square: y 0..12 -> columns
    // 32 - 12 / 50 * 32 = 24.32 .. 32, so pixel 24 shows the square and 23 the sky.
    World twenty = w;
    twenty.skyCamera->scale = 20;
    const Image img20 = frame(twenty, g, m);
    checkColor(pixelAt(img20, 24, 26), kSquare);
    checkColor(pixelAt(img20, 23, 26), kSky);
    checkColor(pixelAt(frame(w, g, m, RenderMode::Lightmap), 25, 25), kSky);
}
