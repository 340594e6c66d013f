// The process-wide texture cache when loads run at the same time: a key is decoded once, and a load that
// needs a key another load is decoding waits for that result.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>

#include "../src/material/texture_cache.hpp"

using namespace luxel;

TEST_CASE("texture cache: loads at the same time decode each key once and share the textures", "[materials]") {
    std::atomic<int> decodes{0};
    auto job = [&](const std::string& key, bool fails) {
        return TextureJob{key, key, [&decodes, fails] {
                              ++decodes;
                              // Slow enough that the other load asks for the key while this one decodes it.
                              std::this_thread::sleep_for(std::chrono::milliseconds(50));
                              if (fails) throw std::runtime_error("broken file");
                              RgbaImage img;
                              img.width = img.height = 2;
                              img.rgba.assign(16, 200);
                              return img;
                          }};
    };
    const std::string tag = "concurrent-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
    const std::vector<TextureJob> jobs = {job(tag + "a", false), job(tag + "b", false), job(tag + "a", false),
                                          job(tag + "broken", true)};
    std::vector<TextureResult> first, second;
    std::thread other([&] { first = loadTextures(jobs); });
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    second = loadTextures(jobs);
    other.join();
    CHECK(decodes.load() == 3);  // a, b and the broken one, each once over both loads
    REQUIRE(first.size() == 4);
    REQUIRE(second.size() == 4);
    for (size_t i = 0; i < 3; ++i) {
        REQUIRE(first[i].texture);
        CHECK(first[i].texture == second[i].texture);  // the same decoded object
    }
    CHECK(first[0].texture == first[2].texture);
    CHECK(first[0].texture != first[1].texture);
    CHECK(!first[3].texture);
    CHECK(!second[3].texture);
    CHECK(second[3].error == "broken file");
}
