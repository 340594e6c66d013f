// Shared Quake 1 and Quake 2 builds baked from their unlit state (qbsp + vis output and qbsp's texinfo.json, copied
// under the name light reads them by) against ericw-tools' light run on the same file, read by the independent
// readers.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>

#include "support/q1_lighting_reader.hpp"
#include "support/q2_lighting_reader.hpp"
#include "support/test_paths.hpp"

using namespace luxel::test;
namespace fs = std::filesystem;

TEST_CASE("relayout: lqdm1 baked from unlit has ericw-tools' extents and styles and its light", "[maps][q1][relayout]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const std::string from = *sharedMaps() + "/q1/lqdm1/bsp29_lit/";
    if (!fs::exists(from + "lqdm1.unlit.bsp")) {
        WARN("SKIPPED: " << from << "lqdm1.unlit.bsp not found");
        return;
    }
    const std::string dir = tempDir("q1-relayout-lqdm1");
    fs::copy_file(from + "lqdm1.unlit.bsp", dir + "/lqdm1.bsp", fs::copy_options::overwrite_existing);
    fs::copy_file(from + "lqdm1.texinfo.json", dir + "/lqdm1.texinfo.json", fs::copy_options::overwrite_existing);
    for (int threads : {1, 2}) {
        const std::string out = dir + "/t" + std::to_string(threads);
        fs::create_directories(out);
        const CommandResult r = runLuxel("bake " + dir + "/lqdm1.bsp --write " + out + "/lqdm1.bsp --lit --threads " + std::to_string(threads));
        INFO(r.err);
        REQUIRE(r.exitCode == 0);
    }
    // The same bytes at 1 and 2 threads.
    CHECK(readFileText(dir + "/t1/lqdm1.bsp") == readFileText(dir + "/t2/lqdm1.bsp"));
    CHECK(readFileText(dir + "/t1/lqdm1.lit") == readFileText(dir + "/t2/lqdm1.lit"));

    const Q1Lighting ericw = readQ1Lighting(from + "lqdm1.bsp", from + "lqdm1.lit");
    const Q1Lighting ours = readQ1Lighting(dir + "/t2/lqdm1.bsp", dir + "/t2/lqdm1.lit");
    REQUIRE(ours.faces == ericw.faces);
    std::map<uint32_t, const Q1FaceLight*> byFace;
    for (const Q1FaceLight& f : ericw.lit) byFace[f.face] = &f;
    size_t both = 0, sameExtents = 0, sameStyles = 0;
    std::vector<double> relative;
    double lumaEricw = 0, lumaOurs = 0;
    for (const Q1FaceLight& f : ours.lit) {
        const auto it = byFace.find(f.face);
        if (it == byFace.end()) continue;
        const Q1FaceLight& e = *it->second;
        ++both;
        sameExtents += f.width == e.width && f.height == e.height;
        sameStyles += f.styles == e.styles;
        if (f.width != e.width || f.height != e.height) continue;
        for (size_t k = 0; k < f.rgb.size(); k += 3) {
            const double ye = 0.2126 * e.rgb[k] + 0.7152 * e.rgb[k + 1] + 0.0722 * e.rgb[k + 2];
            const double yo = 0.2126 * f.rgb[k] + 0.7152 * f.rgb[k + 1] + 0.0722 * f.rgb[k + 2];
            lumaEricw += ye, lumaOurs += yo;
            if (ye > 0) relative.push_back(std::abs(yo - ye) / ye);
        }
    }
    REQUIRE(!relative.empty());
    std::sort(relative.begin(), relative.end());
    const double median = relative[relative.size() / 2], luma = lumaOurs / lumaEricw - 1;
    WARN("lqdm1 from unlit: " << ours.lit.size() << " faces lit (ericw-tools " << ericw.lit.size() << "), " << both
         << " both; median relative error " << 100 * median << "%, mean luma " << 100 * luma << "%");
    // Every face both light has the same block size and the same styles.
    CHECK(sameExtents == both);
    CHECK(sameStyles == both);
    // ericw-tools lights a few faces luxel leaves dark (their samples all in solid for luxel, or blocked where
    // ericw-tools' sample sees the light): 99.3% of its faces are lit by both; the bound keeps it from worsening.
    CHECK(double(both) >= 0.99 * double(ericw.lit.size()));
    CHECK(median <= 0.05);
    CHECK(std::abs(luma) <= 0.03);
}

TEST_CASE("relayout: Quake 2 builds baked from unlit have ericw-tools' faces and blocks and its light", "[maps][q2][relayout]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    // q2_light_cone: three spotlights; q2_dirt: dirt over minlight, no lights (its edge luxels differ: see README).
    for (const auto& [name, lumaBound] : {std::pair<std::string, double>{"q2_light_cone", 0.03}, {"q2_dirt", 0.10}}) {
        INFO(name);
        const std::string from = *sharedMaps() + "/pairs/ericw-q2/" + name + "/";
        if (!fs::exists(from + name + ".unlit.bsp")) {
            WARN("SKIPPED: " << from << name << ".unlit.bsp not found");
            continue;
        }
        const std::string dir = tempDir("q2-relayout-" + name);
        fs::copy_file(from + name + ".unlit.bsp", dir + "/" + name + ".bsp", fs::copy_options::overwrite_existing);
        const CommandResult r = runLuxel("bake " + dir + "/" + name + ".bsp --write " + dir + "/out.bsp");
        INFO(r.err);
        REQUIRE(r.exitCode == 0);
        const Q2LightingLuxels ericw = readQ2Lighting(from + name + ".bsp"), ours = readQ2Lighting(dir + "/out.bsp");
        // Every face ericw-tools lit is lit, with a block of the same size (the same count of luxels in face order).
        CHECK(ours.faces == ericw.faces);
        REQUIRE(ours.rgb.size() == ericw.rgb.size());
        const Q2LightingComparison c = compareQ2Lighting(ericw, ours);
        WARN(name << " from unlit: median relative error " << 100 * c.medianRelative << "% over " << c.lit
                  << " lit luxels, mean luma " << c.meanReference << " -> " << c.meanBaked);
        CHECK(c.medianRelative <= 0.05);
        CHECK(std::abs(c.meanBaked / c.meanReference - 1) <= lumaBound);
    }
}
