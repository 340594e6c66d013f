// The figures of a finished frame (render/view_figures.hpp) and the automatic camera's rules over real maps.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <random>

#include "luxel/render/map_view.hpp"
#include "luxel/render/view_figures.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

TEST_CASE("view figures of a hand-made 4x2 frame", "[figures]") {
    ByteImage img{4, 2, 3, std::vector<uint8_t>(24, 0)};
    FrameSamples s;
    s.width = 4, s.height = 2;
    s.depth.assign(8, 0.0f);
    s.surface.assign(8, -1);
    s.sky.assign(8, 0);
    // Pixels 0..4 grey 128, 5 white, 6 pure green, 7 black (nothing drawn).
    for (int i = 0; i < 5; ++i) {
        uint8_t* p = img.bytes.data() + 3 * i;
        p[0] = p[1] = p[2] = 128;
        s.surface[size_t(i)] = i;
        s.depth[size_t(i)] = float(30 + 20 * i);  // 30, 50 under 64; 70, 90, 110 not
    }
    img.bytes[15] = img.bytes[16] = img.bytes[17] = 255;
    s.surface[5] = 9, s.sky[5] = 1, s.depth[5] = 1000;
    img.bytes[19] = 255;
    s.surface[6] = 10, s.depth[6] = 20;  // near
    const ViewFigures f = viewFigures(img, s);
    // Luma: 5 x 128/255 + 1 + 0.7152 (green), over 8.
    CHECK(f.brightness == Approx((5 * 128 / 255.0 + 1.0 + 0.7152) / 8.0).epsilon(1e-9));
    CHECK(f.nearShare == Approx(3.0 / 8.0));
    CHECK(f.oneColour == Approx(5.0 / 8.0));
    CHECK(f.coverage == Approx(6.0 / 8.0));  // 7 drawn, one of them sky
    CHECK_FALSE(acceptableView(f));           // one colour: 62.5% > 60%
    img.bytes[0] = 153;                       // now 4 of 8 share a colour
    const ViewFigures g = viewFigures(img, s);
    CHECK(g.oneColour == Approx(0.5));
    CHECK(acceptableView(g));
    ViewFigures dark = g;
    dark.brightness = 0.049;
    CHECK_FALSE(acceptableView(dark));
    ViewFigures near = g;
    near.nearShare = 0.51;
    CHECK_FALSE(acceptableView(near));
}

TEST_CASE("the most common colour's share is counted exactly, colours spread over every byte", "[figures]") {
    // Frames of random colours drawn from palettes of several sizes (so one colour wins by a known count),
    // counted independently with a map of the bytes each pixel holds.
    std::mt19937 rng(7);
    for (int paletteSize : {1, 3, 50, 5000, 200000}) {
        ByteImage img{160, 90, 3, std::vector<uint8_t>(size_t(160) * 90 * 3)};
        std::vector<std::array<uint8_t, 3>> palette(static_cast<size_t>(paletteSize));
        for (auto& c : palette) c = {uint8_t(rng()), uint8_t(rng()), uint8_t(rng())};
        std::map<std::array<uint8_t, 3>, size_t> counts;
        for (size_t i = 0; i < size_t(img.width * img.height); ++i) {
            // Skewed towards the palette's start, so the winner is not a tie of ones.
            const auto& c = palette[std::min<size_t>(rng() % size_t(paletteSize), rng() % size_t(paletteSize))];
            for (int k = 0; k < 3; ++k) img.bytes[i * 3 + size_t(k)] = c[size_t(k)];
            ++counts[c];
        }
        size_t most = 0;
        for (const auto& [c, n] : counts) most = std::max(most, n);
        INFO(paletteSize << " colours");
        CHECK(viewFigures(img, {}).oneColour == Approx(double(most) / double(img.width * img.height)).epsilon(1e-12));
    }
}

TEST_CASE("every shared map: the best thumbnail keeps the rules unless no candidate can, overviews cover 40%",
          "[maps][figures]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    size_t maps = 0, kept = 0;
    for (const char* dir : {"q3", "q2", "source"})
        for (const std::string& file : sharedMapFiles(dir)) {
            if (file.find("_v25_") != std::string::npos) continue;  // a version luxel does not read
            INFO(file);
            LoadedMap map = loadMap(openMapPath(file), {}, {{"/usr/share/games/openarena/baseoa"}, "", 0});
            ViewRequest request;
            request.camera = "best";
            request.width = 256, request.height = 144;
            request.mode = "auto";
            request.figures = true;
            const RenderedView best = renderView(map, request);
            ++maps;
            if (acceptableView(best.figures)) {
                ++kept;
            } else {  // then no other acceptable candidate's frame keeps them either
                for (const Camera& alternative : best.camera.alternatives) {
                    ViewRequest at = request;
                    at.pos = alternative.position, at.angles = alternative.angles;
                    CHECK_FALSE(acceptableView(renderView(map, at).figures));
                }
            }
            request.camera = "overview";
            const RenderedView overview = renderView(map, request);
            CHECK(overview.figures.coverage >= 0.4);
        }
    WARN(kept << " of " << maps << " shared maps' best thumbnails keep the rules");
    CHECK(maps >= 19);
    CHECK(kept + 2 >= maps);  // a tool-texture map and a lone untextured block are one colour from anywhere
}
