#include <catch2/catch.hpp>

#include "luxel/light/styles.hpp"
#include "luxel/util/error.hpp"

using namespace luxel;

TEST_CASE("standard light style patterns step at 10 Hz with m = 1", "[styles]") {
    CHECK(styleValueAt(0, 0.0) == 1.0f);
    CHECK(styleValueAt(0, 123.4) == 1.0f);
    // Style 4 "mamamamamama": m at step 0, a at step 1.
    CHECK(styleValueAt(4, 0.0) == 1.0f);
    CHECK(styleValueAt(4, 0.1) == 0.0f);
    CHECK(styleValueAt(4, 0.25) == 1.0f);
    // Style 9 "aaaaaaaazzzzzzzz": z = 25/12 from step 8; the 16-step pattern wraps at 1.6 s.
    CHECK(styleValueAt(9, 0.0) == 0.0f);
    CHECK(styleValueAt(9, 0.85) == Approx(25.0 / 12.0));
    CHECK(styleValueAt(9, 1.6) == 0.0f);
    // Style 5 "jklmnopqrstuvwxyzyxwvutsrqponmlkj" starts at j = 9/12.
    CHECK(styleValueAt(5, 0.0) == Approx(0.75));
    CHECK(styleValueAt(5, 0.3) == Approx(1.0));
    CHECK(styleValueAt(40, 7.0) == 1.0f);  // switchable: on
}

TEST_CASE("--styles specs", "[styles]") {
    World world;
    StyleWeights rest = parseStyleSpec("rest", world);
    CHECK(rest[0] == 1.0f);
    CHECK(rest[5] == Approx(0.75));
    CHECK(rest[33] == 1.0f);

    Entity light;
    light.keys = {{"classname", "light"}, {"style", "33"}, {"spawnflags", "1"}};
    world.entities.push_back(light);
    CHECK(parseStyleSpec("rest", world)[33] == 0.0f);  // starts off
    CHECK(parseStyleSpec("time=0.1", world)[4] == 0.0f);

    StyleWeights explicitWeights = parseStyleSpec("0=1,5=0.3", world);
    CHECK(explicitWeights[0] == 1.0f);
    CHECK(explicitWeights[5] == Approx(0.3f));
    CHECK(explicitWeights[1] == 0.0f);
    for (const char* bad : {"0=", "=1", "x=1", "0=1,", "300=1", "time=-1", "time=abc", "bright"})
        CHECK_THROWS_AS(parseStyleSpec(bad, world), UsageError);
}
