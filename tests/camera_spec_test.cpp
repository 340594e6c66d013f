#include <catch2/catch.hpp>

#include <cmath>
#include <string>

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
        entity({{"classname", "info_player_start"}, {"origin", "1 2 3"}, {"angle", "90"}}),
        entity({{"classname", "info_player_deathmatch"}, {"origin", "100 200 300"}, {"angle", "45"}}),
        entity({{"classname", "light"}, {"origin", "0 0 0"}}),
        entity({{"classname", "info_player_deathmatch"}, {"origin", "-10 -20 -30"}, {"angles", "10 180 0"}}),
    };
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

TEST_CASE("spawn cameras: deathmatch points first, then player starts, eye 26 units up", "[cameraspec]") {
    const World w = spawnWorld();
    Camera c = cameraFromSpec(w, "spawn", 640, 480);
    CHECK(c.position == Vec3{100, 200, 326});
    CHECK(c.angles == Vec3{0, 45, 0});
    CHECK(c.width == 640);
    CHECK(c.height == 480);
    CHECK(c.fovX == 90.0f);

    CHECK(cameraFromSpec(w, "spawn:0", 640, 480).position == c.position);
    c = cameraFromSpec(w, "spawn:1", 320, 200);
    CHECK(c.position == Vec3{-10, -20, -4});
    CHECK(c.angles == Vec3{10, 180, 0});  // "angles" is pitch yaw roll
    c = cameraFromSpec(w, "spawn:2", 320, 200);  // the info_player_start comes after both deathmatch points
    CHECK(c.position == Vec3{1, 2, 29});
    CHECK(c.angles == Vec3{0, 90, 0});
}

TEST_CASE("spawn camera errors name what is missing", "[cameraspec]") {
    const World w = spawnWorld();
    const std::string tooFar = usageMessage(w, "spawn:5");
    CHECK_THAT(tooFar, Catch::Contains("3 spawn points") && Catch::Contains("spawn:5"));
    CHECK_THAT(usageMessage(w, "spawn:x"), Catch::Contains("spawn:"));
    CHECK_THAT(usageMessage(w, "spawn:-1"), Catch::Contains("spawn:"));
    CHECK_THAT(usageMessage(World{}, "spawn"), Catch::Contains("no spawn points"));
    const std::string unknown = usageMessage(w, "behind-the-door");
    CHECK_THAT(unknown, Catch::Contains("behind-the-door") && Catch::Contains("spawn") &&
                           Catch::Contains("intermission") && Catch::Contains("overview"));
    CHECK_THAT(usageMessage(w, "intermission"), Catch::Contains("no info_player_intermission"));
}

TEST_CASE("intermission camera aims at its target", "[cameraspec]") {
    World w;
    w.entities = {
        entity({{"classname", "info_player_intermission"}, {"origin", "0 0 100"}, {"target", "look"},
                {"angles", "0 270 0"}}),
        entity({{"classname", "target_position"}, {"targetname", "other"}, {"origin", "0 500 0"}}),
        entity({{"classname", "target_position"}, {"targetname", "look"}, {"origin", "100 0 0"}}),
    };
    Camera c = cameraFromSpec(w, "intermission", 800, 600);
    CHECK(c.position == Vec3{0, 0, 100});  // no view height: the game uses the origin itself
    // Target straight along +X and 100 below over 100 forward: yaw 0, looking down 45 degrees.
    CHECK(c.angles.y == Approx(0).margin(1e-4));
    CHECK(c.angles.x == Approx(45).margin(1e-4));
    CHECK(c.angles.z == 0);

    SECTION("target along +Y and above: yaw 90, negative pitch") {
        w.entities[2] = entity({{"classname", "info_notnull"}, {"targetname", "look"}, {"origin", "0 100 200"}});
        c = cameraFromSpec(w, "intermission", 800, 600);
        CHECK(c.angles.y == Approx(90).margin(1e-4));
        CHECK(c.angles.x == Approx(-45).margin(1e-4));
    }
    SECTION("no matching target: the entity's own angles") {
        w.entities[2].keys[1].second = "elsewhere";
        c = cameraFromSpec(w, "intermission", 800, 600);
        CHECK(c.angles == Vec3{0, 270, 0});
    }
}

TEST_CASE("overview camera frames all 8 corners of the world box", "[cameraspec]") {
    const Vec3 mins{-1000, -300, -50}, maxs{2000, 700, 400};
    World w;
    Model m;
    m.mins = mins, m.maxs = maxs;
    w.models = {m};
    for (auto [width, height] : {std::pair{1920, 1080}, std::pair{1000, 1000}, std::pair{400, 1200}}) {
        const Camera c = cameraFromSpec(w, "overview", width, height);
        CHECK(c.position.z > maxs.z);  // above the map
        CHECK(c.angles.x > 30);        // looking down
        CHECK(c.angles.x < 80);
        // Quake's AngleVectors (roll 0), written out: positive pitch turns forward toward -Z.
        const float p = c.angles.x * kPi / 180, y = c.angles.y * kPi / 180;
        const Vec3 f{std::cos(p) * std::cos(y), std::cos(p) * std::sin(y), -std::sin(p)};
        const Vec3 r{std::sin(y), -std::cos(y), 0};
        const Vec3 u = cross(r, f);
        const float tanX = std::tan(c.fovX * kPi / 360), tanY = tanX * float(height) / float(width);
        float widest = 0;
        for (int i = 0; i < 8; ++i) {
            const Vec3 corner{(i & 1) ? maxs.x : mins.x, (i & 2) ? maxs.y : mins.y, (i & 4) ? maxs.z : mins.z};
            const Vec3 d = corner - c.position;
            const float depth = dot(d, f);
            REQUIRE(depth > c.nearPlane);
            const float sx = dot(d, r) / (depth * tanX), sy = dot(d, u) / (depth * tanY);
            CHECK(std::abs(sx) <= 1.0f);
            CHECK(std::abs(sy) <= 1.0f);
            widest = std::max({widest, std::abs(sx), std::abs(sy)});
        }
        CHECK(widest > 0.8f);  // framed, not a speck in the middle
    }
    CHECK_THAT(usageMessage(World{}, "overview"), Catch::Contains("bounds"));
}

TEST_CASE("overview corners land in the frame through makeView", "[cameraspec]") {
    World w;
    Model m;
    m.mins = {-500, -2000, 0}, m.maxs = {500, 100, 1000};
    w.models = {m};
    const Camera c = cameraFromSpec(w, "overview", 1280, 720);
    View v;
    try {
        v = makeView(c);
    } catch (const std::logic_error&) {
        WARN("makeView not implemented yet: skipped");
        return;
    }
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
