#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "luxel/bsp/viewpoints.hpp"
#include "luxel/render/camera.hpp"
#include "luxel/util/error.hpp"

using namespace luxel;

namespace {

Entity entity(std::initializer_list<std::pair<std::string, std::string>> keys) {
    Entity e;
    for (const auto& kv : keys) e.keys.push_back(kv);
    return e;
}

World spawnWorld() {
    World w;
    w.file = "test.bsp";
    w.entities = {
        entity({{"classname", "worldspawn"}}),
        entity({{"classname", "info_player_team1"}, {"origin", "7 7 7"}}),
        entity({{"classname", "team_CTF_bluespawn"}, {"origin", "8 8 8"}}),
        entity({{"classname", "info_player_start"}, {"origin", "1 2 3"}, {"angle", "90"}}),
        entity({{"classname", "info_player_deathmatch"}, {"origin", "100 200 300"}, {"angle", "45"}}),
        entity({{"classname", "light"}, {"origin", "0 0 0"}}),
        entity({{"classname", "info_player_deathmatch"}, {"origin", "-10 -20 -30"}, {"angles", "10 180 0"}}),
    };
    w.viewpoints = findViewpoints(w);  // as the Quake 3 decoder does
    return w;
}

std::string usageMessage(const World& w, const std::string& spec) {
    try {
        cameraFromSpec(w, spec, 640, 480);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "no UsageError";
}

}  // namespace

TEST_CASE("spawn cameras: deathmatch points, player starts, team spawns; eye 26 units up", "[cameraspec]") {
    const World w = spawnWorld();
    Camera c = cameraFromSpec(w, "spawn", 640, 480);
    CHECK(c.position == Vec3{100, 200, 326});
    CHECK(c.angles == Vec3{0, 45, 0});
    CHECK(c.width == 640);
    CHECK(c.height == 480);
    CHECK(c.fovX == 90.0f);
    CHECK(cameraFromSpec(w, "spawn", 640, 480, 70.0f).fovX == 70.0f);

    CHECK(cameraFromSpec(w, "spawn:0", 640, 480).position == c.position);
    c = cameraFromSpec(w, "spawn:1", 320, 200);
    CHECK(c.position == Vec3{-10, -20, -4});
    CHECK(c.angles == Vec3{10, 180, 0});  // "angles" is pitch yaw roll
    c = cameraFromSpec(w, "spawn:2", 320, 200);  // the info_player_start comes after both deathmatch points
    CHECK(c.position == Vec3{1, 2, 29});
    CHECK(c.angles == Vec3{0, 90, 0});
    // Team spawns come last: Quake 3 CTF ones, then Nexuiz/Xonotic ones.
    CHECK(cameraFromSpec(w, "spawn:3", 320, 200).position == Vec3{8, 8, 34});
    CHECK(cameraFromSpec(w, "spawn:4", 320, 200).position == Vec3{7, 7, 33});
}

TEST_CASE("spawn camera errors name what is missing", "[cameraspec]") {
    const World w = spawnWorld();
    const std::string tooFar = usageMessage(w, "spawn:5");
    CHECK_THAT(tooFar, Catch::Contains("5 spawn points") && Catch::Contains("spawn:5"));
    CHECK_THAT(usageMessage(w, "spawn:x"), Catch::Contains("spawn:"));
    CHECK_THAT(usageMessage(w, "spawn:-1"), Catch::Contains("spawn:"));
    CHECK_THAT(usageMessage(World{}, "spawn"), Catch::Contains("no spawn points"));
    const std::string unknown = usageMessage(w, "behind-the-door");
    CHECK_THAT(unknown, Catch::Contains("behind-the-door") && Catch::Contains("spawn") &&
                           Catch::Contains("intermission") && Catch::Contains("overview"));
    CHECK_THAT(usageMessage(w, "intermission"), Catch::Contains("no intermission camera"));
}

TEST_CASE("intermission camera aims at its target", "[cameraspec]") {
    World w;
    w.entities = {
        entity({{"classname", "info_player_intermission"}, {"origin", "0 0 100"}, {"target", "look"},
                {"angles", "0 270 0"}}),
        entity({{"classname", "target_position"}, {"targetname", "other"}, {"origin", "0 500 0"}}),
        entity({{"classname", "target_position"}, {"targetname", "look"}, {"origin", "100 0 0"}}),
    };
    w.viewpoints = findViewpoints(w);
    Camera c = cameraFromSpec(w, "intermission", 800, 600);
    CHECK(c.position == Vec3{0, 0, 100});  // no view height: the game uses the origin itself
    // Target straight along +X and 100 below over 100 forward: yaw 0, looking down 45 degrees.
    CHECK(c.angles.y == Approx(0).margin(1e-4));
    CHECK(c.angles.x == Approx(45).margin(1e-4));
    CHECK(c.angles.z == 0);

    SECTION("target along +Y and above: yaw 90, negative pitch") {
        w.entities[2] = entity({{"classname", "info_notnull"}, {"targetname", "look"}, {"origin", "0 100 200"}});
        w.viewpoints = findViewpoints(w);
        c = cameraFromSpec(w, "intermission", 800, 600);
        CHECK(c.angles.y == Approx(90).margin(1e-4));
        CHECK(c.angles.x == Approx(-45).margin(1e-4));
    }
    SECTION("no matching target: the entity's own angles") {
        w.entities[2].keys[1].second = "elsewhere";
        w.viewpoints = findViewpoints(w);
        c = cameraFromSpec(w, "intermission", 800, 600);
        CHECK(c.angles == Vec3{0, 270, 0});
    }
}

namespace {

struct ScreenSpan {
    float loX = 1, hiX = -1, loY = 1, hiY = -1;
};

// Projects points with the camera's angles and FOV (own math, not makeView): screen offsets are -1..1
// across the frame.
ScreenSpan projectPoints(const Camera& c, const std::vector<Vec3>& points) {
    // Quake's AngleVectors (roll 0), written out: positive pitch turns forward toward -Z.
    const float p = c.angles.x * kPi / 180, y = c.angles.y * kPi / 180;
    const Vec3 f{std::cos(p) * std::cos(y), std::cos(p) * std::sin(y), -std::sin(p)};
    const Vec3 r{std::sin(y), -std::cos(y), 0};
    const Vec3 u = cross(r, f);
    const float tanX = std::tan(c.fovX * kPi / 360), tanY = tanX * float(c.height) / float(c.width);
    ScreenSpan span;
    for (Vec3 point : points) {
        const Vec3 d = point - c.position;
        const float depth = dot(d, f);
        CHECK(depth > c.nearPlane);
        const float sx = dot(d, r) / (depth * tanX), sy = dot(d, u) / (depth * tanY);
        span.loX = std::min(span.loX, sx), span.hiX = std::max(span.hiX, sx);
        span.loY = std::min(span.loY, sy), span.hiY = std::max(span.hiY, sy);
    }
    return span;
}

// The 8 corners of (mins, maxs).
ScreenSpan projectCorners(const Camera& c, Vec3 mins, Vec3 maxs) {
    std::vector<Vec3> corners;
    for (int i = 0; i < 8; ++i)
        corners.push_back({(i & 1) ? maxs.x : mins.x, (i & 2) ? maxs.y : mins.y, (i & 4) ? maxs.z : mins.z});
    return projectPoints(c, corners);
}

void checkFramed(const ScreenSpan& s) {
    CHECK(s.loX >= -1.0f);
    CHECK(s.hiX <= 1.0f);
    CHECK(s.loY >= -1.0f);
    CHECK(s.hiY <= 1.0f);
    // Framed, not a speck: the box spans most of the frame in at least one direction, centred in both.
    CHECK(std::max(s.hiX - s.loX, s.hiY - s.loY) > 1.8f);
    CHECK(s.hiX + s.loX == Approx(0).margin(0.01));
    CHECK(s.hiY + s.loY == Approx(0).margin(0.01));
}

Surface surfaceOver(uint32_t firstVertex, uint32_t numVertices, int32_t material) {
    Surface s;
    s.firstVertex = firstVertex, s.numVertices = numVertices, s.material = material;
    return s;
}

}  // namespace

TEST_CASE("overview camera frames all 8 corners of the world box", "[cameraspec]") {
    const Vec3 mins{-1000, -300, -50}, maxs{2000, 700, 400};
    World w;
    Model m;
    m.mins = mins, m.maxs = maxs;
    w.models = {m};
    struct Case {
        int width, height;
        float fov;
    };
    for (auto [width, height, fov] : {Case{1920, 1080, 90}, Case{1000, 1000, 90}, Case{400, 1200, 90},
                                      Case{1920, 1080, 40}, Case{640, 480, 120}}) {
        INFO(width << "x" << height << " fov " << fov);
        const Camera c = cameraFromSpec(w, "overview", width, height, fov);
        CHECK(c.fovX == fov);
        CHECK(c.width == width);
        CHECK(c.position.z > maxs.z);  // above the map
        CHECK(c.angles.x > 30);        // looking down
        CHECK(c.angles.x < 80);
        checkFramed(projectCorners(c, mins, maxs));
    }
    CHECK_THAT(usageMessage(World{}, "overview"), Catch::Contains("bounds"));
    CHECK_THAT(usageMessage(w, "overview"), Catch::Contains("no UsageError"));
    CHECK_THROWS_AS(cameraFromSpec(w, "overview", 0, 480), UsageError);
    CHECK_THROWS_AS(cameraFromSpec(w, "overview", 640, 480, 180.0f), UsageError);
}

TEST_CASE("overview frames the world model's drawable points inside its bounds", "[cameraspec]") {
    World w;
    Model m0, m1;
    m0.mins = {-5000, -5000, -5000}, m0.maxs = {5000, 5000, 5000};  // clip brushes reach far out
    m0.numSurfaces = 3;
    m1.firstSurface = 3, m1.numSurfaces = 1;
    w.models = {m0, m1};
    Material nodraw;
    nodraw.flags = kMaterialNoDraw;
    w.materials = {Material{}, nodraw};
    // Drawn geometry spans (0,0,0)..(1000,500,200); the billboard at (-200,0,0) widens it to x = -200.
    for (Vec3 p : {Vec3{0, 0, 0}, Vec3{1000, 500, 200}, Vec3{4000, 4000, 4000}, Vec3{-4000, 0, 0}}) {
        Vertex v;
        v.position = p;
        w.vertices.push_back(v);
    }
    w.surfaces = {surfaceOver(0, 2, 0), surfaceOver(2, 1, 1), surfaceOver(0, 0, -1), surfaceOver(3, 1, 0)};
    w.surfaces[2].kind = SurfaceKind::Billboard;
    w.surfaces[2].origin = {-200, 0, 0};
    // Surface 1 is nodraw, surface 3 belongs to a door (models[1]): neither is framed.
    const Camera c = cameraFromSpec(w, "overview", 1600, 900);
    // The frame fits the drawn points themselves (not their box): all inside, filling the frame, centred.
    checkFramed(projectPoints(c, {{-200, 0, 0}, {0, 0, 0}, {1000, 500, 200}}));

    SECTION("geometry clamped into the model bounds") {
        w.models[0].maxs.z = 100;
        checkFramed(projectPoints(cameraFromSpec(w, "overview", 1600, 900), {{-200, 0, 0}, {0, 0, 0}, {1000, 500, 100}}));
    }
}

TEST_CASE("overview corners land in the frame through makeView", "[cameraspec]") {
    World w;
    Model m;
    m.mins = {-500, -2000, 0}, m.maxs = {500, 100, 1000};
    w.models = {m};
    const Camera c = cameraFromSpec(w, "overview", 1280, 720, 75.0f);
    const View v = makeView(c);
    for (int i = 0; i < 8; ++i) {
        const Vec3 corner{(i & 1) ? m.maxs.x : m.mins.x, (i & 2) ? m.maxs.y : m.mins.y,
                          (i & 4) ? m.maxs.z : m.mins.z};
        const Vec4 clip = transform(v.viewProjection, corner);
        REQUIRE(clip.w > c.nearPlane);
        CHECK(std::abs(clip.x) <= clip.w);
        CHECK(std::abs(clip.y) <= clip.w);
        for (const Plane& p : v.frustum) CHECK(dot(p.normal, corner) - p.dist >= 0);
    }
}

TEST_CASE("Source's FOV is defined at 4:3 and widened for wider frames", "[cameraspec]") {
    World quake;
    CHECK(horizontalFov(quake, 90, 1920, 1080) == 90.0f);
    World source;
    source.fovReferenceAspect = 4.0f / 3.0f;
    // tan(half) scales with the aspect ratio: 16:9 -> atan(16/9 * 3/4) = atan(4/3), 53.13 degrees a side.
    CHECK(horizontalFov(source, 90, 1920, 1080) == Approx(106.2602).epsilon(1e-5));
    CHECK(horizontalFov(source, 90, 1024, 768) == Approx(90.0).epsilon(1e-6));
    CHECK(horizontalFov(source, 90, 600, 600) == Approx(73.7398).epsilon(1e-5));
    Entity start;
    start.keys = {{"classname", "info_player_terrorist"}, {"origin", "10 20 30"}, {"angles", "0 180 0"}};
    source.entities = {start};
    source.format = MapFormat::Source;
    source.eyeHeight = 64;
    source.viewpoints = findViewpoints(source);
    const Camera c = cameraFromSpec(source, "spawn", 1920, 1080);
    CHECK(c.position == Vec3{10, 20, 94});
    CHECK(c.angles == Vec3{0, 180, 0});
    CHECK(c.fovX == Approx(106.2602).epsilon(1e-5));
}
