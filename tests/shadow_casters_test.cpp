// Shadow rays see what the compilers' shadow rays see (bake/ray_scene.hpp): the world's light-blocking brushes
// as Quake 3 maps store them (a caulked box with no drawn face), sky brushes a sun passes, alpha-shadow texels,
// translucent surfaces that cast nothing; closest-hit queries still see only what is drawn. Brush decoding
// rules and hostile brush lumps (bsp/q3/tree.cpp), brush faces (geometry/brush_faces.hpp), and the packet
// shadow query against the single-ray one.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>

#include "luxel/bake/direct_light.hpp"
#include "luxel/bake/ray_scene.hpp"
#include "luxel/bsp/decode.hpp"
#include "luxel/geometry/brush_faces.hpp"
#include "luxel/light/luxels.hpp"
#include "luxel/util/error.hpp"
#include "support/decode_helpers.hpp"
#include "support/point_arrival.hpp"
#include "support/q3_writer.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

constexpr int32_t kContentsTranslucent = 0x20000000, kContentsWater = 0x20;

// The room of makeRoomMap (-256..256, -256..256, 0..256; its leaves 1..6 are outside, cluster -1) with a
// 32 x 32 x 10 box brush at z 100..110 over the floor's centre, of a new texture with these flags and
// contents, listed by outside leaf 1 (unless `detail`: then by no solid leaf) and by models[0].
Q3MapBuilder boxRoom(int32_t flags, int32_t contents, bool detail = false) {
    Q3MapBuilder b = makeRoomMap();
    const int32_t texture = b.addTexture("textures/luxel/box", flags, contents);
    const int32_t brush = b.addBoxBrush({-16, -16, 100}, {16, 16, 110}, texture);
    b.leafBrushes.push_back(brush);
    Q3Leaf& leaf = b.leaves.at(detail ? 0 : 1);
    leaf.firstLeafBrush = int32_t(b.leafBrushes.size() - 1);
    leaf.numLeafBrushes = 1;
    b.models.at(0).firstBrush = 0;
    b.models.at(0).numBrushes = int32_t(b.brushes.size());
    return b;
}

struct Baked {
    World world;
    Geometry geometry;
    std::vector<LightmapPage> pages;
};

// Style-0 light of a point light at (0, 0, 200) of intensity 40000 (I cos / d^2) over the map.
Baked bakePoint(const Q3MapBuilder& b, const MaterialSet* materials = nullptr) {
    Baked out;
    out.world = decodeBytes(b.build(), "room.bsp");
    out.geometry = tessellate(out.world);
    const RayScene scene(out.world, out.geometry, materials);
    DirectBakeStats stats;
    out.pages = bakeLightmapsDirect(out.world, out.geometry, scene, {pointLight({0, 0, 200}, 40000)},
                                    DirectBakeRules{pointArrivals, {}, false, {}, {}}, stats).slots[0];
    return out;
}

float texel(const Baked& b, const Luxel& x) {
    const LightmapPage& p = b.pages.at(size_t(x.page));
    return p.rgb.at((size_t(x.y) * size_t(p.width) + size_t(x.x)) * 3);
}

// Floor luxels of a bake and of the same room's bake without the caster, side by side: each is called
// with the luxel and both values.
template <typename Fn>
void forFloor(const Baked& with, const Baked& without, Fn fn) {
    const std::vector<Luxel> a = luxelCentres(with.world, with.geometry), b = luxelCentres(without.world, without.geometry);
    REQUIRE(a.size() == b.size());
    size_t floor = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].normal.z < 0.99f) continue;
        REQUIRE(a[i].position.x == b[i].position.x);
        ++floor;
        fn(a[i], texel(with, a[i]), texel(without, b[i]));
    }
    REQUIRE(floor == 128 * 128);
}

}  // namespace

TEST_CASE("Quake 3 brushes: the world's solid brushes in solid leaves block light; others do not", "[blockers]") {
    const World box = decodeBytes(boxRoom(kQ3SurfNoDraw, kQ3ContentsSolid).build());
    REQUIRE(box.brushes.size() == 1);
    REQUIRE(box.brushes[0].numSides == 6);
    REQUIRE(box.brushSides.size() == 6);
    for (const BrushSide& s : box.brushSides) CHECK_FALSE(s.sky);
    CHECK(box.brushSides[5].plane.normal.z == 1.0f);
    CHECK(box.brushSides[5].plane.dist == 110.0f);

    // q3map2's trace tree has no solid leaf of a detail brush, a translucent or a non-solid one.
    CHECK(decodeBytes(boxRoom(kQ3SurfNoDraw, kQ3ContentsSolid, true).build()).brushes.empty());
    CHECK(decodeBytes(boxRoom(0, kQ3ContentsSolid | kContentsTranslucent).build()).brushes.empty());
    CHECK(decodeBytes(boxRoom(0, kContentsWater).build()).brushes.empty());
    // A brush model's brushes (models[1]) cast no shadow.
    Q3MapBuilder model = boxRoom(kQ3SurfNoDraw, kQ3ContentsSolid);
    model.models.at(0).numBrushes = 0;
    model.models.push_back({{-16, -16, 100}, {16, 16, 110}, 0, 0, 0, 1});
    CHECK(decodeBytes(model.build()).brushes.empty());
    // A sky side makes the whole brush sky.
    Q3MapBuilder sky = boxRoom(0, kQ3ContentsSolid);
    sky.brushSides[3].texture = sky.addTexture("textures/luxel/sky", kQ3SurfSky, kQ3ContentsSolid);
    const World skyWorld = decodeBytes(sky.build());
    REQUIRE(skyWorld.brushSides.size() == 6);
    for (const BrushSide& s : skyWorld.brushSides) CHECK(s.sky);
}

TEST_CASE("Quake 3 brushes: hostile brush records give a DecodeError at the brush", "[blockers]") {
    auto expectError = [](const Q3MapBuilder& b, size_t record, const std::string& what) {
        const std::vector<uint8_t> file = b.build();
        try {
            decodeBytes(file, "mem.bsp");
            FAIL("no DecodeError");
        } catch (const DecodeError& e) {
            INFO(e.what());
            CHECK(e.lump() == "brushes");
            CHECK(e.offset() == q3LumpRange(file, kQ3Brushes).first + record * kQ3BrushBytes);
            CHECK(std::string(e.what()).find(what) != std::string::npos);
        }
    };
    {
        // 1025 sides (more than kMaxBrushSides), every one valid.
        Q3MapBuilder b = boxRoom(kQ3SurfNoDraw, kQ3ContentsSolid);
        for (int i = 0; i < 1019; ++i) b.brushSides.push_back(b.brushSides[size_t(i % 6)]);
        b.brushes[0].numSides = 1025;
        expectError(b, 0, "1025 sides");
    }
    {
        // 65 brushes of 1024 sides each on their own sides: 65 * 2^20 sides squared passes 2^26 at the 65th.
        Q3MapBuilder b = boxRoom(kQ3SurfNoDraw, kQ3ContentsSolid);
        b.brushSides.resize(65 * 1024, b.brushSides[0]);
        const int32_t texture = b.brushes[0].texture;
        b.brushes.clear();
        b.leafBrushes.clear();
        for (int32_t i = 0; i < 65; ++i) {
            b.brushes.push_back({i * 1024, 1024, texture});
            b.leafBrushes.push_back(i);
        }
        b.leaves[1].numLeafBrushes = 65;
        b.models[0].numBrushes = 65;
        expectError(b, 64, "too complex");
    }
    {
        // Two blocking brushes on the same 6 sides: 12 listed, 6 stored.
        Q3MapBuilder b = boxRoom(kQ3SurfNoDraw, kQ3ContentsSolid);
        b.brushes.push_back(b.brushes[0]);
        b.leafBrushes.push_back(1);
        b.leaves[1].numLeafBrushes = 2;
        b.models[0].numBrushes = 2;
        expectError(b, 1, "more than the 6 brush sides");
    }
    {
        // Out-of-range planes and side ranges are refused where they are read (q3_decode_test's table);
        // here one of the box's sides names a plane past the lump.
        Q3MapBuilder b = boxRoom(kQ3SurfNoDraw, kQ3ContentsSolid);
        b.brushSides[2].plane = int32_t(b.planes.size());
        CHECK_THROWS_AS(decodeBytes(b.build()), DecodeError);
        b = boxRoom(kQ3SurfNoDraw, kQ3ContentsSolid);
        b.brushes[0].firstSide = 1;
        CHECK_THROWS_AS(decodeBytes(b.build()), DecodeError);
    }
}

TEST_CASE("brush faces: a box's six faces and nothing for a bevel", "[blockers]") {
    std::vector<BrushSide> sides;
    for (const auto& [n, d] : std::vector<std::pair<Vec3, float>>{
             {{-1, 0, 0}, 16}, {{1, 0, 0}, 16}, {{0, -1, 0}, 16}, {{0, 1, 0}, 16}, {{0, 0, -1}, -100}, {{0, 0, 1}, 110}})
        sides.push_back({{n, d}, false, false, false});
    // Tangent to the box along its edge x = y = 16: clipped to a line, no face (q3map2 and qbsp add such
    // bevels for collision).
    const float r = std::sqrt(0.5f);
    sides.push_back({{{r, r, 0}, 32 * r}, false, false, false});
    double area = 0;
    size_t faces = 0;
    for (size_t i = 0; i < sides.size(); ++i) {
        const std::vector<Vec3> f = brushFace(sides, i);
        if (f.empty()) continue;
        ++faces;
        Vec3 sum{};
        for (size_t k = 2; k < f.size(); ++k) sum += cross(f[k - 1] - f[0], f[k] - f[0]);
        area += 0.5 * std::sqrt(double(dot(sum, sum)));
        // Every corner lies on the face's plane and inside every other side.
        for (const Vec3& p : f) {
            CHECK(dot(p, sides[i].plane.normal) == Approx(sides[i].plane.dist).margin(1e-3));
            for (const BrushSide& s : sides) CHECK(dot(p, s.plane.normal) <= s.plane.dist + 1e-2f);
        }
    }
    CHECK(faces == 6);
    CHECK(area == Approx(2 * 32 * 32 + 4 * 32 * 10).epsilon(1e-5));  // 3328
    CHECK(brushFace(sides, 6).empty());

    World w;
    w.brushSides = sides;
    w.brushes.push_back({0, uint32_t(sides.size())});
    const BrushFaces all = brushFaces(w);
    CHECK(all.triangleCount() == 6 * 2);  // a quad a face, as a fan
    CHECK(all.sky == std::vector<uint8_t>(12, 0));
}

TEST_CASE("a caulked box with no drawn face casts its exact shadow; closest hits do not see it", "[blockers][bake]") {
    const Baked without = bakePoint(makeRoomMap());
    const Baked with = bakePoint(boxRoom(kQ3SurfNoDraw, kQ3ContentsSolid));
    REQUIRE(with.world.brushes.size() == 1);
    REQUIRE(with.geometry.triangleCount() == without.geometry.triangleCount());  // nothing drawn was added
    // The light at height 200 throws the box's top square (z = 110, half side 16) onto the floor at half side
    // 16 * 200 / 90 = 35.56 (its bottom, at 32, lies inside that); luxels are 4 units apart.
    const float edge = 16.0f * 200.0f / 90.0f;
    size_t dark = 0, lit = 0;
    forFloor(with, without, [&](const Luxel& x, float a, float b) {
        const float m = std::max(std::abs(x.position.x), std::abs(x.position.y));
        if (m < edge - 4) {
            CHECK(a == 0.0f);
            CHECK(b > 0.0f);
            ++dark;
        } else if (m > edge + 4) {
            CHECK(a == b);
            ++lit;
        }
    });
    CHECK(dark > 250);  // (2 * 31.5 / 4)^2 ~ 248 luxels at least
    CHECK(lit > 15000);

    const RayScene scene(with.world, with.geometry);
    CHECK(scene.blockerTriangleCount() == 12);
    const RayHit h = scene.closest({5, 3, 200}, {0, 0, -1}, 0, 1000);
    REQUIRE(h.hit);
    CHECK(h.t == Approx(200));
    CHECK(scene.triangleSurface()[h.triangle] == 0);  // the floor, through the box
    const Vec3 down{0, 0, -1};
    RayHit packet;
    scene.intersect({5, 3, 200}, &down, 1, 0, 1000, &packet);
    CHECK(packet.t == Approx(200));
    CHECK(scene.allHits({5, 3, 200}, {0, 0, -1}, 0, 1000).count == 1);
    CHECK(scene.occluded({5, 3, 200}, {0, 0, -1}, 0, 199));
    CHECK_FALSE(scene.occluded({5, 3, 99}, {0, 0, -1}, 0, 98));
}

TEST_CASE("a sky brush stops a light's shadow ray but lets a sun's through", "[blockers]") {
    const World caulk = decodeBytes(boxRoom(kQ3SurfNoDraw, kQ3ContentsSolid).build());
    const World sky = decodeBytes(boxRoom(kQ3SurfSky | kQ3SurfNoDraw, kQ3ContentsSolid).build());
    const Geometry gc = tessellate(caulk), gs = tessellate(sky);
    const RayScene caulkScene(caulk, gc), skyScene(sky, gs);
    const Vec3 from{3, -5, 1}, up{0, 0, 1};
    CHECK(caulkScene.occluded(from, up, 0, 150, ShadowRay::Light));
    CHECK(caulkScene.occluded(from, up, 0, 150, ShadowRay::Sun));
    CHECK(skyScene.occluded(from, up, 0, 150, ShadowRay::Light));
    CHECK_FALSE(skyScene.occluded(from, up, 0, 150, ShadowRay::Sun));
    // Beside the box neither blocks.
    CHECK_FALSE(caulkScene.occluded({40, 0, 1}, up, 0, 150, ShadowRay::Light));
}

TEST_CASE("an alphashadow occluder lets light through exactly where its texture is transparent", "[blockers][bake]") {
    // A 32 x 32 quad at z = 100 (both sides) whose texture is 2 x 1 texels: s = (x + 16) / 32, so its x < 0
    // half samples texel 0 (alpha 0) and its x > 0 half texel 1 (alpha 255).
    Q3MapBuilder b = makeRoomMap();
    const int32_t grate = b.addTexture("textures/luxel/grate");
    for (float z : {100.0f, 100.001f}) {
        const bool up = z == 100.0f;
        const std::vector<Vec3> pts = up ? std::vector<Vec3>{{-16, -16, z}, {-16, 16, z}, {16, 16, z}, {16, -16, z}}
                                         : std::vector<Vec3>{{-16, -16, z}, {16, -16, z}, {16, 16, z}, {-16, 16, z}};
        std::vector<Vec2> st;
        for (const Vec3& p : pts) st.push_back({(p.x + 16) / 32, (p.y + 16) / 32});
        const int32_t face = b.addPolygon(pts, {0, 0, up ? 1.0f : -1.0f}, grate, -3, {{0, 0}, {0, 0}, {0, 0}, {0, 0}},
                                          {255, 255, 255, 255}, st);
        b.leafFaces.push_back(face);
        b.leaves.at(0).numLeafFaces += 1;
        b.models.at(0).numFaces += 1;
    }
    const World world = decodeBytes(b.build());
    MaterialSet materials;
    materials.looks.resize(world.materials.size());
    RgbaImage image{2, 1, {90, 90, 90, 0, 90, 90, 90, 255}};
    materials.textures.push_back(std::make_shared<const Texture>(makeTexture("grate", image)));
    materials.looks.at(size_t(grate)).texture = 0;

    const Baked without = bakePoint(makeRoomMap());
    materials.looks.at(size_t(grate)).shadow = ShadowCast::AlphaTexture;
    const Baked alpha = bakePoint(b, &materials);
    // The ray from floor point (x, y) to the light crosses z = 100 at (x / 2, y / 2): the opaque half shades
    // 0 < x < 32, |y| < 32 on the floor.
    size_t dark = 0, through = 0;
    forFloor(alpha, without, [&](const Luxel& x, float a, float c) {
        const float px = x.position.x, ay = std::abs(x.position.y);
        if (px > 4 && px < 28 && ay < 28) {
            CHECK(a == 0.0f);
            ++dark;
        } else if (px < -4 || px > 36 || ay > 36) {
            CHECK(a == c);
            if (px < -4 && px > -28 && ay < 28) ++through;
        }
    });
    // Luxel centres lie at -254 + 4k: 6 columns in (4, 28) or (-28, -4), 14 rows in (-28, 28).
    CHECK(dark == 6 * 14);
    CHECK(through == 6 * 14);

    // A translucent surface casts nothing; without materials the whole quad casts.
    materials.looks.at(size_t(grate)).shadow = ShadowCast::None;
    const Baked none = bakePoint(b, &materials);
    forFloor(none, without, [&](const Luxel&, float a, float c) { CHECK(a == c); });
    const Baked whole = bakePoint(b);
    size_t wholeDark = 0;
    forFloor(whole, without, [&](const Luxel& x, float a, float) {
        if (std::max(std::abs(x.position.x), std::abs(x.position.y)) < 28) {
            CHECK(a == 0.0f);
            ++wholeDark;
        }
    });
    CHECK(wholeDark > 2 * dark);
}

TEST_CASE("packet shadow rays agree with single rays, for lights and suns", "[blockers]") {
    // The caulk box, a sky box beside it and an alphashadow quad: every kind of caster.
    Q3MapBuilder b = boxRoom(kQ3SurfNoDraw, kQ3ContentsSolid);
    const int32_t skyTexture = b.addTexture("textures/luxel/sky", kQ3SurfSky | kQ3SurfNoDraw, kQ3ContentsSolid);
    b.addBoxBrush({60, -40, 80}, {120, 40, 90}, skyTexture);
    b.leafBrushes.push_back(1);
    b.leaves.at(1).numLeafBrushes = 2;
    b.models.at(0).numBrushes = 2;
    const int32_t grate = b.addTexture("textures/luxel/grate");
    const std::vector<Vec3> pts{{-120, -60, 60}, {-120, 60, 60}, {-40, 60, 60}, {-40, -60, 60}};
    const int32_t face = b.addPolygon(pts, {0, 0, 1}, grate, -3, {{0, 0}, {0, 0}, {0, 0}, {0, 0}});
    b.leafFaces.push_back(face);
    b.leaves.at(0).numLeafFaces += 1;
    b.models.at(0).numFaces += 1;
    const World world = decodeBytes(b.build());
    REQUIRE(world.brushes.size() == 2);
    const Geometry geometry = tessellate(world);
    MaterialSet materials;
    materials.looks.resize(world.materials.size());
    RgbaImage image{2, 2, {0, 0, 0, 0, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 0}};
    materials.textures.push_back(std::make_shared<const Texture>(makeTexture("checker", image)));
    materials.looks.at(size_t(grate)).texture = 0;
    materials.looks.at(size_t(grate)).shadow = ShadowCast::AlphaTexture;
    const RayScene scene(world, geometry, &materials);

    std::mt19937 rng(16);
    std::uniform_real_distribution<float> xy(-250, 250), z(1, 255), far(1, 600), unit(-1, 1);
    std::uniform_int_distribution<int> size(1, 16);
    size_t rays = 0, blocked[2] = {0, 0};
    for (int packet = 0; packet < 400; ++packet) {
        const int n = size(rng);
        Vec3 o[16], d[16];
        float t[16];
        for (int i = 0; i < n; ++i) {
            o[i] = {xy(rng), xy(rng), z(rng)};
            Vec3 v{unit(rng), unit(rng), unit(rng)};
            while (dot(v, v) < 1e-4f) v = {unit(rng), unit(rng), unit(rng)};
            d[i] = v * (1.0f / std::sqrt(dot(v, v)));
            t[i] = far(rng);
        }
        for (const ShadowRay kind : {ShadowRay::Light, ShadowRay::Sun}) {
            const uint32_t mask = scene.occluded(o, d, t, n, 0.0f, kind);
            CHECK((mask >> n) == 0u);
            for (int i = 0; i < n; ++i) {
                const bool single = scene.occluded(o[i], d[i], 0.0f, t[i], kind);
                CHECK(bool((mask >> i) & 1) == single);
                blocked[kind == ShadowRay::Sun] += single;
            }
        }
        rays += size_t(n);
    }
    // Both answers occur often (the walls block most long rays).
    CHECK(blocked[0] > rays / 10);
    CHECK(blocked[0] < rays);
    CHECK(blocked[1] > rays / 10);
    CHECK(blocked[1] <= blocked[0]);
    CHECK_THROWS_AS(scene.occluded(nullptr, nullptr, nullptr, 17, 0.0f), std::invalid_argument);
}

TEST_CASE("a sun through a sky ceiling: a caulked box's shadow and the west wall's, exact to a texel", "[blockers][bake]") {
    // A sun travelling along (0.6, 0, -0.8): a floor point P sees it when the ray P + t (-0.6, 0, 0.8) reaches
    // the sky ceiling at z 256 (x = P.x - 192 >= -256, so P.x > -64) without crossing the box (|x| < 16 for
    // some z in 100..110, that is x = P.x - 0.75 z: P.x in (59, 98.5), with |P.y| < 16). Lit floor luxels get
    // I cos = 0.8 I exactly; rays start 0.25 above the floor, which moves these edges by 0.1875 units, and a
    // texel is 4 units: luxels a texel inside or outside an edge are checked.
    const Vec3 travel{0.6f, 0, -0.8f};
    const ArrivalFn sunArrival = [](const Light& l, const Vec3*, const Vec3* normals, size_t count, LightArrival* out) {
        for (size_t i = 0; i < count; ++i) {
            LightArrival& a = out[i];
            a = {};
            a.toLight = l.direction * -1.0f;
            a.distance = std::numeric_limits<float>::infinity();
            const float c = dot(normals[i], a.toLight);
            if (c > 0) a.color = l.color * (l.intensity * c);
        }
    };
    Light sun;
    sun.kind = Light::Kind::Sun;
    sun.direction = travel;
    sun.intensity = 2;
    for (const bool box : {false, true}) {
        Q3MapBuilder b = box ? boxRoom(kQ3SurfNoDraw, kQ3ContentsSolid) : makeRoomMap();
        REQUIRE(b.faces.at(1).normal.z < 0);  // makeRoomMap's second face is the ceiling
        b.faces[1].texture = b.addTexture("textures/luxel/sky", kQ3SurfSky | kQ3SurfNoLightmap, kQ3ContentsSolid);
        const World world = decodeBytes(b.build(), "sunroom.bsp");
        const Geometry geometry = tessellate(world);
        const RayScene scene(world, geometry);
        DirectBakeStats stats;
        const std::vector<LightmapPage> pages =
            bakeLightmapsDirect(world, geometry, scene, {sun}, DirectBakeRules{sunArrival, {}, false, {}, {}}, stats).slots[0];
        size_t lit = 0, dark = 0, boxShadow = 0;
        for (const Luxel& x : luxelCentres(world, geometry)) {
            if (x.normal.z < 0.99f) continue;
            const LightmapPage& p = pages.at(size_t(x.page));
            const float v = p.rgb.at((size_t(x.y) * size_t(p.width) + size_t(x.x)) * 3);
            const Vec3 q = x.position;
            if (q.x < -64 - 4) {
                CHECK(v == 0.0f);
                ++dark;
            } else if (q.x > -64 + 4) {
                const bool inBox = q.x > 59 + 4 && q.x < 98.5f - 4 && std::abs(q.y) < 16 - 4;
                const bool nearBox = q.x > 59 - 4 && q.x < 98.5f + 4 && std::abs(q.y) < 16 + 4;
                if (box && inBox) {
                    CHECK(v == 0.0f);
                    ++boxShadow;
                } else if (!box || !nearBox) {
                    CHECK(v == Approx(2 * 0.8f).epsilon(1e-6));
                    ++lit;
                }
            }
        }
        // The floor is 128 x 128 luxels: x > -60 is 316 / 512 of it, x < -68 is 188 / 512.
        CHECK(lit > 9500);
        CHECK(dark > 5500);
        if (box) CHECK(boxShadow > 30);
    }
}
