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

TEST_CASE("relayout: the Quake 1 builds baked from unlit have ericw-tools' extents and styles and its light", "[maps][q1][relayout]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    // Per build: the faces whose styles differ from ericw-tools', counting a face one of the two lights and the
    // other leaves dark, as measured today (ericw-tools' rules for bmodel placement and sun rays included), so it
    // gets no worse. Since sample points keep out of sky leaves and are tested on both sides of planes they
    // touch (light's Light_PointInSolid_r) lq_e1m2's are 7 (54 before, 5 of them threshold cases: a brightest
    // byte of 1 or 2). Since texels outside a phong-smoothed face walk onto its smoothed neighbours, as onto
    // coplanar ones (CalcPointNormal), lq_e1m5's are 19 (45 before: 26 leaf and rock faces it lit and luxel left
    // dark) and lqdm1's 2 (4 before), faces 579 and 3628: a thin sliver facing down and a thin wedge. Since lights
    // on a face move out of the solid (FixLightsOnFaces), lq_e1m5's are 14 (a ceiling lit by a light on its plane),
    // and since light entities are vis-culled by the leaves that list a face (CalcPvs), 8 (faces no leaf lists,
    // under water and inside a basin, which light leaves dark). Since a texel walked onto a neighbour that does not
    // hold it snaps to that neighbour's edge (within a luxel) instead of falling back to its own face, lqdm1's are
    // 1, lq_e1m2's 3 (two of them the top of a hollow func_door, which light leaves dark) and lq_e1m5's 5. Since a
    // sample turned from a sun keeps its (1 - anglescale) part unless the whole face's plane turns away
    // (LightFace_Sky), lights are culled by the face's bounding sphere (CullLight) and luxels are sampled where
    // light's CalcPoints samples them (light/ericw_sample_points.hpp: its texinfo matrices, edge planes, walk and
    // snap), lqdm1's and lq_e1m5's are 0 and lq_e1m2's 1: face 3877, whose brightest luxel (3) sees a light
    // along a shadow ray lying in the plane x = 816 of the faces it passes (the luxel on the face's edge and the
    // light both on that plane), which light's Embree counts as blocked and luxel's does not.
    struct Build {
        std::string name;
        size_t styleDifferences;
    };
    for (const Build& b : {Build{"lqdm1", 0}, Build{"lq_e1m2", 1}, Build{"lq_e1m5", 0}}) {
        INFO(b.name);
        const std::string from = *sharedMaps() + "/q1/" + b.name + "/bsp29_lit/";
        if (!fs::exists(from + b.name + ".unlit.bsp")) {
            WARN("SKIPPED: " << from << b.name << ".unlit.bsp not found");
            continue;
        }
        const std::string dir = tempDir("q1-relayout-" + b.name);
        fs::copy_file(from + b.name + ".unlit.bsp", dir + "/" + b.name + ".bsp", fs::copy_options::overwrite_existing);
        fs::copy_file(from + b.name + ".texinfo.json", dir + "/" + b.name + ".texinfo.json", fs::copy_options::overwrite_existing);
        // lqdm1 at 1 and 2 threads, for the same bytes; the others at 2.
        for (int threads : {1, 2}) {
            if (threads == 1 && b.name != "lqdm1") continue;
            const std::string out = dir + "/t" + std::to_string(threads);
            fs::create_directories(out);
            const CommandResult r = runLuxel("bake " + dir + "/" + b.name + ".bsp --write " + out + "/" + b.name +
                                             ".bsp --lit --threads " + std::to_string(threads));
            INFO(r.err);
            REQUIRE(r.exitCode == 0);
        }
        if (b.name == "lqdm1") {
            CHECK(readFileText(dir + "/t1/lqdm1.bsp") == readFileText(dir + "/t2/lqdm1.bsp"));
            CHECK(readFileText(dir + "/t1/lqdm1.lit") == readFileText(dir + "/t2/lqdm1.lit"));
        }
        const Q1Lighting ericw = readQ1Lighting(from + b.name + ".bsp", from + b.name + ".lit");
        const Q1Lighting ours = readQ1Lighting(dir + "/t2/" + b.name + ".bsp", dir + "/t2/" + b.name + ".lit");
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
        {
            // The faces whose styles differ, by the brightest style-0 byte either side gives them: at 1 or 2 a
            // threshold case (light keeps a style whose brightest luxel reaches 1), above it a real difference.
            std::map<uint32_t, const Q1FaceLight*> oursBy;
            for (const Q1FaceLight& f : ours.lit) oursBy[f.face] = &f;
            auto maxOf = [](const Q1FaceLight* f) {
                int m = 0;
                if (f)
                    for (uint8_t v : f->rgb) m = std::max(m, int(v));
                return m;
            };
            std::map<int, int> hist;
            for (uint32_t face = 0; face < ours.faces; ++face) {
                const auto a = oursBy.find(face);
                const auto e = byFace.find(face);
                const Q1FaceLight* fa = a == oursBy.end() ? nullptr : a->second;
                const Q1FaceLight* fe = e == byFace.end() ? nullptr : e->second;
                if (!fa && !fe) continue;
                if (fa && fe && fa->styles == fe->styles) continue;
                const int m = std::max(maxOf(fa), maxOf(fe));
                hist[std::min(m, 10)]++;
            }
            std::string h;
            for (auto [k, v] : hist) h += " " + std::to_string(k) + (k == 10 ? "+" : "") + ": " + std::to_string(v);
            WARN(b.name << ": faces whose styles differ, by their brightest style-0 byte:" << h);
        }
        REQUIRE(!relative.empty());
        std::sort(relative.begin(), relative.end());
        const double median = relative[relative.size() / 2], luma = lumaOurs / lumaEricw - 1;
        // Faces lit by one only: each has styles (s, ...) on one side and none on the other.
        const size_t differences = (both - sameStyles) + (ours.lit.size() - both) + (ericw.lit.size() - both);
        WARN(b.name << " from unlit: " << ours.lit.size() << " faces lit (ericw-tools " << ericw.lit.size() << "), " << both
                    << " both, " << sameStyles << " with the same styles (" << differences << " faces of "
                    << ours.faces << " differ in styles); median relative error " << 100 * median << "%, p90 "
                    << 100 * relative[relative.size() * 9 / 10] << "%, mean luma "
                    << 100 * luma << "%");
        CHECK(sameExtents == both);  // every face both light has the same block
        CHECK(differences <= b.styleDifferences);
        CHECK(median <= 0.05);          // the bounds: 5% median relative error,
        CHECK(std::abs(luma) <= 0.03);  // mean luma within 3%
    }
}

TEST_CASE("relayout: GoldSrc hl_basic laid out and lit anew has ericw-tools' extents, styles and light", "[maps][hl][relayout]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    // ericw-tools' own test map, built with qbsp -hlbsp and lit by its light (RGB lighting lump): baked again from
    // its faces with the layout light makes, every face against light's, by an independent reader of the lump.
    const std::string from = *sharedMaps() + "/hl/hl_basic/hl_basic.bsp";
    if (!fs::exists(from)) {
        WARN("SKIPPED: " << from << " not found");
        return;
    }
    const std::string dir = tempDir("hl-relayout");
    const CommandResult r = runLuxel("bake " + from + " --relayout --write " + dir + "/hl_basic.bsp");
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    const Q1Lighting ericw = readQ1Lighting(from), ours = readQ1Lighting(dir + "/hl_basic.bsp");
    REQUIRE(ours.faces == ericw.faces);
    REQUIRE(ericw.lit.size() >= 20);
    std::map<uint32_t, const Q1FaceLight*> byFace;
    for (const Q1FaceLight& f : ericw.lit) byFace[f.face] = &f;
    CHECK(ours.lit.size() == ericw.lit.size());
    std::vector<double> relative;
    double lumaEricw = 0, lumaOurs = 0;
    for (const Q1FaceLight& f : ours.lit) {
        const auto it = byFace.find(f.face);
        REQUIRE(it != byFace.end());
        const Q1FaceLight& e = *it->second;
        INFO("face " << f.face);
        CHECK(f.styles == e.styles);
        CHECK(f.width == e.width);
        CHECK(f.height == e.height);
        if (f.rgb.size() != e.rgb.size()) continue;
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
    WARN("hl_basic relit: " << ours.lit.size() << " faces lit (ericw-tools " << ericw.lit.size() << "); median relative error "
                            << 100 * median << "%, p90 " << 100 * relative[relative.size() * 9 / 10] << "%, mean luma " << 100 * luma << "%");
    CHECK(median <= 0.05);          // the bounds
    CHECK(std::abs(luma) <= 0.03);
}

TEST_CASE("relayout: Quake 2 builds baked from unlit have ericw-tools' faces and blocks and its light", "[maps][q2][relayout]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    // q2_light_cone: three spotlights; q2_dirt: dirt over minlight, no lights. Its water (warp) faces, which light
    // lights though the engine draws them without their lightmap, took no luxels before and left its mean luma
    // 5.9% short; they are sampled now.
    for (const auto& [name, lumaBound] : {std::pair<std::string, double>{"q2_light_cone", 0.03}, {"q2_dirt", 0.03}}) {
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
