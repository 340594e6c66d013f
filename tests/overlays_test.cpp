// Overlays: the lump decoded (real map, and hostile records made from it), and the engine's fragments
// (geometry/overlays.hpp) on a hand-built face: positions, texture and lightmap coordinates worked by hand,
// and the overlay drawn over its face at the pixels its corners project to.
#include <catch2/catch.hpp>

#include <cstring>
#include <limits>
#include <tuple>

#include "luxel/bsp/decode.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/geometry/overlays.hpp"
#include "luxel/render/render.hpp"
#include "luxel/util/error.hpp"
#include "support/decode_helpers.hpp"
#include "support/render_fixtures.hpp"
#include "support/test_paths.hpp"
#include "support/vbsp_writer.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

// The square face z = 0, 0..100 a side (fanned from (0, 0): triangles split along y = x), material 0,
// lightmap uv = xy / 100 on page 0; the overlay (material 1) centred at (50, 50), basis U +X, normal +Z,
// corners (-10, -20) (-10, 20) (10, 20) (10, -20): the rectangle x 40..60, y 30..70, u and v 0..1.
World squareWithOverlay() {
    World w;
    w.materials = {Material{"face", 0, 0, 0, {1, 1, 1}}, Material{"decal", 0, 0, 0, {1, 1, 1}}};
    Surface s;
    s.kind = SurfaceKind::Polygon;
    s.material = 0;
    s.lightmapPage = 0;
    s.normal = {0, 0, 1};
    s.numVertices = 4;
    s.numIndices = 6;
    // Wound clockwise seen from +Z (the Quake convention tessellate and the renderer expect).
    for (Vec3 p : {Vec3{0, 0, 0}, Vec3{0, 100, 0}, Vec3{100, 100, 0}, Vec3{100, 0, 0}}) {
        Vertex v;
        v.position = p;
        v.normal = {0, 0, 1};
        v.lightmapUV = {p.x / 100, p.y / 100};
        v.color = {1, 1, 1, 1};
        w.vertices.push_back(v);
    }
    w.indices = {0, 1, 2, 0, 2, 3};
    w.surfaces.push_back(s);
    LightmapPage page;
    page.width = page.height = 2;
    page.rgb.assign(12, 1.0f);
    w.lightmaps.push_back(page);
    Overlay o;
    o.material = 1;
    o.surfaces = {0};
    o.origin = {50, 50, 0};
    o.basisU = {1, 0, 0};
    o.basisV = {0, 1, 0};  // normal x U
    o.normal = {0, 0, 1};
    o.points = {Vec2{-10, -20}, Vec2{-10, 20}, Vec2{10, 20}, Vec2{10, -20}};
    o.u = {0, 1};
    o.v = {0, 1};
    w.overlays.push_back(o);
    return w;
}

std::shared_ptr<const Texture> flat(std::array<uint8_t, 4> c) {
    RgbaImage img;
    img.width = img.height = 1;
    img.rgba.assign(c.begin(), c.end());
    return std::make_shared<const Texture>(makeTexture("flat", img));
}

}  // namespace

TEST_CASE("overlays: fragments per fan triangle, off the face by 0.1, the quad's uv and the face's lightmap uv", "[overlays]") {
    World w = squareWithOverlay();
    const OverlaysPlaced placed = placeOverlays(w);
    CHECK(placed.overlays == 1);
    // The rectangle crosses the fan's diagonal y = x: one fragment on each triangle.
    REQUIRE(placed.fragments == 2);
    REQUIRE(w.surfaces.size() == 3);
    double area = 0;
    for (size_t f = 1; f < 3; ++f) {
        const Surface& s = w.surfaces[f];
        CHECK(s.material == 1);
        CHECK(s.lightmapPage == 0);
        REQUIRE(s.numVertices >= 3);
        for (uint32_t k = 0; k < s.numVertices; ++k) {
            const Vertex& v = w.vertices[s.firstVertex + k];
            INFO("fragment " << f << " corner " << k << " at " << v.position.x << " " << v.position.y);
            CHECK(v.position.z == Approx(0.1f));
            CHECK(v.position.x >= 40 - 1e-3f);
            CHECK(v.position.x <= 60 + 1e-3f);
            CHECK(v.position.y >= 30 - 1e-3f);
            CHECK(v.position.y <= 70 + 1e-3f);
            CHECK(v.texUV.x == Approx((v.position.x - 40) / 20).margin(1e-5));
            CHECK(v.texUV.y == Approx((v.position.y - 30) / 40).margin(1e-5));
            CHECK(v.lightmapUV.x == Approx(v.position.x / 100).margin(1e-5));
            CHECK(v.lightmapUV.y == Approx(v.position.y / 100).margin(1e-5));
        }
        for (uint32_t t = 0; t + 2 < s.numIndices; t += 3) {
            const Vec3 a = w.vertices[s.firstVertex + w.indices[s.firstIndex + t]].position,
                       b = w.vertices[s.firstVertex + w.indices[s.firstIndex + t + 1]].position,
                       c = w.vertices[s.firstVertex + w.indices[s.firstIndex + t + 2]].position;
            const Vec3 n = cross(b - a, c - a);
            CHECK(n.z <= 0);  // wound like the face: clockwise seen from +Z
            area += 0.5 * length(n);
        }
    }
    CHECK(area == Approx(20.0 * 40.0));  // together the whole rectangle

    // Past the face's edge the quad is cut there: centred at (95, 50) the rectangle x 85..105 keeps 85..100.
    World edge = squareWithOverlay();
    edge.overlays[0].origin = {95, 50, 0};
    placeOverlays(edge);
    for (size_t f = 1; f < edge.surfaces.size(); ++f)
        for (uint32_t k = 0; k < edge.surfaces[f].numVertices; ++k)
            CHECK(edge.vertices[edge.surfaces[f].firstVertex + k].position.x <= 100 + 1e-3f);
    // A flipped V (vbsp's flag): v runs the other way, so v = 0 lies at y = 70.
    World flipped = squareWithOverlay();
    flipped.overlays[0].basisV = {0, -1, 0};
    placeOverlays(flipped);
    for (size_t f = 1; f < flipped.surfaces.size(); ++f)
        for (uint32_t k = 0; k < flipped.surfaces[f].numVertices; ++k) {
            const Vertex& v = flipped.vertices[flipped.surfaces[f].firstVertex + k];
            CHECK(v.texUV.y == Approx((70 - v.position.y) / 40).margin(1e-5));
        }
}

TEST_CASE("overlays: on a displacement, clipped by each displaced triangle and lying on it", "[overlays]") {
    // squareWithOverlay's face turned into a displacement: a 3x3 grid over the square, the middle column raised
    // to z 20 (a roof with its ridge along x = 50: z = 0.4 x on the left, 0.4 (100 - x) on the right), grid
    // cells split along their diagonal as the face's fan was, lightmap uv = xy / 100.
    World w = squareWithOverlay();
    Surface& s = w.surfaces[0];
    s.kind = SurfaceKind::Displacement;
    w.vertices.clear();
    w.indices.clear();
    for (int row = 0; row < 3; ++row)
        for (int col = 0; col < 3; ++col) {
            Vertex v;
            v.position = {50.0f * float(col), 50.0f * float(row), col == 1 ? 20.0f : 0.0f};
            v.normal = {0, 0, 1};
            v.lightmapUV = {v.position.x / 100, v.position.y / 100};
            v.color = {1, 1, 1, 1};
            w.vertices.push_back(v);
        }
    for (uint32_t row = 0; row < 2; ++row)
        for (uint32_t col = 0; col < 2; ++col) {
            const uint32_t v = row * 3 + col;
            for (uint32_t i : {v, v + 3, v + 4, v, v + 4, v + 1}) w.indices.push_back(i);
        }
    s.numVertices = 9;
    s.numIndices = uint32_t(w.indices.size());
    const OverlaysPlaced placed = placeOverlays(w);
    CHECK(placed.overlays == 1);
    CHECK(placed.displacementFaces == 1);
    REQUIRE(placed.fragments >= 4);  // the rectangle x 40..60, y 30..70 crosses the ridge and the row y = 50
    double area = 0;  // of the fragments seen from above
    for (size_t f = 1; f < w.surfaces.size(); ++f) {
        const Surface& frag = w.surfaces[f];
        // Each fragment lies on one slope of the roof: its normal (-0.4, 0, 1) or (0.4, 0, 1), normalised.
        const Vec3 n = frag.normal;
        CHECK(std::abs(n.x) == Approx(0.4 / std::sqrt(1.16)).margin(1e-5));
        CHECK(n.z == Approx(1 / std::sqrt(1.16)).margin(1e-5));
        for (uint32_t k = 0; k < frag.numVertices; ++k) {
            const Vertex& v = w.vertices[frag.firstVertex + k];
            const Vec3 on = v.position - n * 0.1f;  // the point on the roof, found straight below the quad
            INFO("fragment " << f << " corner " << k << " at " << on.x << " " << on.y << " " << on.z);
            CHECK(on.z == Approx(n.x < 0 ? 0.4 * on.x : 0.4 * (100 - on.x)).margin(1e-3));
            CHECK(on.x >= 40 - 1e-3f);
            CHECK(on.x <= 60 + 1e-3f);
            CHECK(on.y >= 30 - 1e-3f);
            CHECK(on.y <= 70 + 1e-3f);
            CHECK(v.texUV.x == Approx((on.x - 40) / 20).margin(1e-4));
            CHECK(v.texUV.y == Approx((on.y - 30) / 40).margin(1e-4));
            CHECK(v.lightmapUV.x == Approx(on.x / 100).margin(1e-4));
            CHECK(v.lightmapUV.y == Approx(on.y / 100).margin(1e-4));
        }
        for (uint32_t t = 0; t + 2 < frag.numIndices; t += 3) {
            const Vec3 a = w.vertices[frag.firstVertex + w.indices[frag.firstIndex + t]].position,
                       b = w.vertices[frag.firstVertex + w.indices[frag.firstIndex + t + 1]].position,
                       c = w.vertices[frag.firstVertex + w.indices[frag.firstIndex + t + 2]].position;
            const Vec3 cr = cross(b - a, c - a);
            CHECK(cr.z <= 0);  // wound like the displacement: clockwise seen from +Z
            area += 0.5 * std::abs(double(cr.z));
        }
    }
    CHECK(area == Approx(20.0 * 40.0).epsilon(1e-4));  // together the whole rectangle, once

    // The overlay's normal turned to -Z (V = normal x U then runs -Y): the same pieces of the roof, still 0.1 off
    // it on the displacement's side.
    World down = w;
    down.surfaces.resize(1);
    down.overlays[0].normal = {0, 0, -1};
    down.overlays[0].basisV = {0, -1, 0};
    const OverlaysPlaced flipped = placeOverlays(down);
    CHECK(flipped.fragments == placed.fragments);
    for (size_t f = 1; f < down.surfaces.size(); ++f) {
        CHECK(down.surfaces[f].normal.z > 0);
        for (uint32_t k = 0; k < down.surfaces[f].numVertices; ++k) {
            const Vec3 on = down.vertices[down.surfaces[f].firstVertex + k].position - down.surfaces[f].normal * 0.1f;
            CHECK(on.z == Approx(on.x < 50 ? 0.4 * on.x : 0.4 * (100 - on.x)).margin(1e-3));
        }
    }
}

TEST_CASE("overlays: the bilinear quad coordinate inverts the bilinear map, also off parallelograms", "[overlays]") {
    const Vec2 a{0, 0}, b{4, 0}, c{6, 5}, d{-1, 3};
    for (float s : {0.0f, 0.25f, 0.5f, 1.0f})
        for (float t : {0.0f, 0.3f, 0.75f, 1.0f}) {
            const Vec2 p = a + (b - a) * s + (d - a) * t + (a - b + c - d) * (s * t);
            const Vec2 got = quadCoordinate(a, b, c, d, p);
            CHECK(got.x == Approx(s).margin(1e-5));
            CHECK(got.y == Approx(t).margin(1e-5));
        }
}

TEST_CASE("overlays: drawn over their face at the pixels the corners project to", "[overlays]") {
    World w = squareWithOverlay();
    placeOverlays(w);
    const Geometry g = tessellate(w);
    MaterialSet m;
    m.looks.resize(2);
    m.textures = {flat({0, 255, 0, 255}), flat({255, 0, 0, 255}), flat({255, 0, 0, 128})};
    m.looks[0].texture = 0;
    m.looks[1].texture = 1;
    RenderOptions o;
    o.mode = RenderMode::Lit;
    o.look = Look::Linear;
    o.usePvs = false;
    o.materials = &m;
    // From (50, 50, 100) straight down (pitch 90: right -Y, up +X), 100 x 100 over 90 degrees: a point (x, y,
    // 0.1) lands at column 50 + (50 - y) / 99.9 * 50 and row 50 - (x - 50) / 99.9 * 50. The rectangle: columns
    // 39.99 .. 60.01 (pixels 40..59), rows 44.995 .. 55.005 (pixels 45..54).
    const Camera cam = makeCamera({50, 50, 100}, {90, 0, 0}, 100, 100);
    const Image img = renderFrame(w, g, cam, o);
    const Vec3 red{1, 0, 0}, green{0, 1, 0};
    for (auto [x, y, want] : {std::tuple{40, 45, red}, std::tuple{59, 54, red}, std::tuple{50, 50, red},
                              std::tuple{39, 50, green}, std::tuple{60, 50, green}, std::tuple{50, 44, green},
                              std::tuple{50, 55, green}}) {
        INFO("pixel " << x << " " << y);
        const Vec3 p = pixelAt(img, x, y);
        CHECK(p.x == Approx(want.x).margin(1e-5));
        CHECK(p.y == Approx(want.y).margin(1e-5));
    }
    // Blended at alpha 128/255 over the face: red * a + green * (1 - a).
    m.textures[1] = m.textures[2];
    m.looks[1].blend = BlendMode::Blend;
    const Vec3 mix = pixelAt(renderFrame(w, g, cam, o), 50, 50);
    CHECK(mix.x == Approx(128.0 / 255.0).margin(1e-5));
    CHECK(mix.y == Approx(127.0 / 255.0).margin(1e-5));
}

TEST_CASE("overlays lump: the real map's records, and hostile ones named", "[overlays][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const Bytes bytes = readFile(*sharedMaps() + "/source/bsptool_tf2_test2.bsp");
    const World world = decodeMap(memorySource(bytes, "test2.bsp"));
    VbspFile file = readVbsp(bytes);
    REQUIRE(file.lumps[45].size() % 352 == 0);
    REQUIRE(!world.overlays.empty());
    CHECK(world.overlays.size() <= file.lumps[45].size() / 352);
    for (const Overlay& o : world.overlays) {
        CHECK(length(o.normal) == Approx(1).margin(1e-3));
        CHECK(length(o.basisU) == Approx(1).margin(1e-3));
        CHECK(length(o.basisV) == Approx(1).margin(1e-3));
        CHECK(dot(o.basisU, o.normal) == Approx(0).margin(1e-3));
        CHECK(dot(o.basisV, o.normal) == Approx(0).margin(1e-3));
        CHECK(o.material >= 0);
        CHECK(size_t(o.material) < world.materials.size());
        CHECK(!o.surfaces.empty());
        for (uint32_t s : o.surfaces) CHECK(s < world.surfaces.size());
    }
    World placed = world;
    const OverlaysPlaced p = placeOverlays(placed);
    CHECK(p.fragments > 0);
    CHECK(p.overlays + 0 <= world.overlays.size());

    auto decodeWith = [&](const Bytes& lump) {
        VbspFile f = file;
        f.lumps[45] = lump;
        return decodeMap(memorySource(writeVbsp(f), "hostile.bsp"));
    };
    auto error = [&](const Bytes& lump) {
        try {
            decodeWith(lump);
        } catch (const DecodeError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    Bytes lump = file.lumps[45];
    CHECK_THAT(error(Bytes(lump.begin(), lump.end() - 1)), Catch::Contains("not a multiple of the record size 352"));
    Bytes many = lump;
    many[6] = 65, many[7] = 0;  // 65 faces in the first record
    CHECK_THAT(error(many), Catch::Contains("overlay 0 lists 65 faces"));
    Bytes badFace = lump;
    const int32_t past = int32_t(world.surfaces.size());
    std::memcpy(badFace.data() + 8, &past, 4);
    CHECK_THAT(error(badFace), Catch::Contains("face index"));
    Bytes badTexinfo = lump;
    badTexinfo[4] = 0xff, badTexinfo[5] = 0x7f;
    CHECK_THAT(error(badTexinfo), Catch::Contains("texinfo index"));
    Bytes nan = lump;
    const float q = std::numeric_limits<float>::quiet_NaN();
    std::memcpy(nan.data() + 328, &q, 4);  // origin x
    CHECK_THAT(error(nan), Catch::Contains("not a finite number"));
    // A record whose basis spans no plane is left out with a note, as the engine warns about it.
    Bytes flat = lump;
    const float zero = 0;
    for (size_t at : {size_t(280 + 8), size_t(280 + 20), size_t(280 + 32)}) std::memcpy(flat.data() + at, &zero, 4);
    const World flatWorld = decodeWith(flat);
    CHECK(flatWorld.overlays.size() + 1 == world.overlays.size());
    bool noted = false;
    for (const std::string& problem : flatWorld.problems) noted = noted || problem.find("overlay 0") != std::string::npos;
    CHECK(noted);
}

TEST_CASE("water overlays lump: the overlays lump's records rewritten with 256 face slots decode alike; hostile ones named",
          "[overlays][maps]") {
    // No shared map has water overlays (lump 50): the real map's overlays, moved there.
    LUXEL_REQUIRE_SHARED_MAPS();
    const Bytes bytes = readFile(*sharedMaps() + "/source/bsptool_tf2_test2.bsp");
    const World world = decodeMap(memorySource(bytes, "test2.bsp"));
    VbspFile file = readVbsp(bytes);
    const Bytes& lump = file.lumps[45];
    REQUIRE(lump.size() % 352 == 0);
    // dwateroverlay_t: doverlay_t with 256 face slots (1120 bytes); slots past the face count are zero.
    Bytes water;
    for (size_t at = 0; at < lump.size(); at += 352) {
        water.insert(water.end(), lump.begin() + long(at), lump.begin() + long(at + 8 + 256));
        water.insert(water.end(), 192 * 4, 0);
        water.insert(water.end(), lump.begin() + long(at + 8 + 256), lump.begin() + long(at + 352));
    }
    REQUIRE(water.size() == lump.size() / 352 * 1120);
    auto decodeWith = [&](const Bytes& overlays, const Bytes& waterOverlays) {
        VbspFile f = file;
        f.lumps[45] = overlays;
        f.lumps[50] = waterOverlays;
        return decodeMap(memorySource(writeVbsp(f), "water.bsp"));
    };
    const World moved = decodeWith({}, water);
    REQUIRE(moved.overlays.size() == world.overlays.size());
    REQUIRE(!moved.overlays.empty());
    for (size_t i = 0; i < world.overlays.size(); ++i) {
        const Overlay &a = world.overlays[i], &b = moved.overlays[i];
        CHECK(a.material == b.material);
        CHECK(a.surfaces == b.surfaces);
        CHECK(a.origin == b.origin);
        CHECK(a.normal == b.normal);
        CHECK(a.basisU == b.basisU);
        CHECK(a.basisV == b.basisV);
        auto same2 = [](Vec2 x, Vec2 y) { return x.x == y.x && x.y == y.y; };
        for (size_t k = 0; k < 4; ++k) CHECK(same2(a.points[k], b.points[k]));
        CHECK(same2(a.u, b.u));
        CHECK(same2(a.v, b.v));
        CHECK(a.renderOrder == b.renderOrder);
    }
    // Both lumps: the overlays first, then the water overlays.
    CHECK(decodeWith(lump, water).overlays.size() == 2 * world.overlays.size());

    auto error = [&](const Bytes& w) {
        try {
            decodeWith({}, w);
        } catch (const DecodeError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(error(Bytes(water.begin(), water.end() - 1)), Catch::Contains("not a multiple of the record size 1120"));
    Bytes many = water;
    many[6] = 1, many[7] = 1;  // 257 faces in the first record
    CHECK_THAT(error(many), Catch::Contains("water overlay 0 lists 257 faces (at most 256)"));
    Bytes nan = water;
    const float q = std::numeric_limits<float>::quiet_NaN();
    std::memcpy(nan.data() + 8 + 1024 + 16 + 48, &q, 4);  // origin x
    CHECK_THAT(error(nan), Catch::Contains("not a finite number"));
}
