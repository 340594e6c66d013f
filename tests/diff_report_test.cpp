// The reports of `luxel diff` built from hand-made DiffReports: the overall verdict's rules, JSON holding
// exactly the figures put in, JUnit XML read back with a real XML parser (pugixml), the human summary.
#include <catch2/catch.hpp>
#include <pugixml.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "luxel/diff/report.hpp"

using namespace luxel;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

DiffStats stats(size_t count, double maxDisplay, double rmsDisplay, size_t overFail = 0, size_t overWarn = 0) {
    DiffStats s;
    s.count = count;
    s.maxAbsDisplay = maxDisplay;
    s.rmsDisplay = rmsDisplay;
    s.meanAbsDisplay = rmsDisplay / 2;
    s.maxAbsLinear = maxDisplay * 0.5;
    s.rmsLinear = rmsDisplay * 0.5;
    s.meanAbsLinear = rmsDisplay * 0.25;
    s.psnrDisplay = rmsDisplay > 0 ? 20.0 * std::log10(1.0 / rmsDisplay) : kInf;
    s.overFail = overFail;
    s.overWarn = std::max(overWarn, overFail);
    return s;
}

SurfaceDiff surface(uint32_t index, std::string material, double maxDisplay) {
    SurfaceDiff s;
    s.surface = index;
    s.material = std::move(material);
    s.mins = {-64, 0, 16};
    s.maxs = {64, 128, 16};
    s.centroid = {0, 64, 16};
    s.area = 16384;
    s.luxels = 256;
    s.unmatched = 3;
    s.stats = stats(253, maxDisplay, maxDisplay / 4, 10);
    return s;
}

StyleDiff style(int number, Verdict v) {
    StyleDiff s;
    s.style = number;
    s.verdict = v;
    s.stats = stats(1000, v == Verdict::Same ? 0 : 0.1, v == Verdict::Same ? 0 : 0.01);
    return s;
}

DiffReport mapsReport() {
    DiffReport r;
    r.a = "a.bsp";
    r.b = "b.bsp";
    r.kind = "maps";
    r.format = "Quake 3 IBSP 46";
    return r;
}

// A map report with something in every part: style 0 failing with two changed surfaces, style 1 the
// same, one surface only in B, a light grid that warns, two views (one failing).
DiffReport fullReport() {
    DiffReport r = mapsReport();
    r.luxelThresholds.fail = 2.0 / 255;
    r.luxelThresholds.warn = 1.0 / 255;
    r.luxelThresholds.failPercent = 0.5;
    r.probeThresholds.fail = 4.0 / 255;
    r.probeThresholds.hardFail = 0.25;
    LightmapDiff lm;
    lm.luxelsA = 1234567;
    lm.luxelsB = 1234000;
    lm.matchedA = 1230000;
    lm.matchedB = 1229000;
    lm.ms = 812.5;
    StyleDiff s0;
    s0.style = 0;
    s0.verdict = Verdict::Fail;
    s0.stats = stats(2459000, 184.0 / 255, 0.3 / 255, 24000, 30000);
    s0.changed = {surface(17, "textures/base_wall/metal_red", 184.0 / 255), surface(3, "textures/gothic/floor", 20.0 / 255)};
    lm.styles.push_back(s0);
    lm.styles.push_back(style(1, Verdict::Same));
    lm.onlyInB = {surface(99, "textures/new/ledge", 0)};
    r.lightmaps = lm;
    ProbeDiff p;
    p.kind = ProbeKind::Grid;
    p.pointwise = true;
    p.pointsA = p.pointsB = 48504;
    p.ambient = stats(48504, 3.0 / 255, 0.5 / 255, 0, 2515);
    p.directed = stats(48504, 2.0 / 255, 0.25 / 255, 0, 100);
    p.medianDirectionDeg = 0.5;
    p.maxDirectionDeg = 12.5;
    p.verdict = Verdict::Warn;
    p.worst = {{42, {128, 256, 64}, 3.0 / 255, 12.5}};
    r.probes = p;
    ImageDiff spawn;
    spawn.name = "spawn";
    spawn.a = "a.bsp@spawn";
    spawn.b = "b.bsp@spawn";
    spawn.width = 1920;
    spawn.height = 1080;
    spawn.stats = stats(2073600, 40.0 / 255, 1.0 / 255, 5000);
    spawn.verdict = Verdict::Fail;
    ImageDiff overview = spawn;
    overview.name = "overview";
    overview.stats = stats(2073600, 0, 0);
    overview.verdict = Verdict::Same;
    r.images = {spawn, overview};
    return r;
}

}  // namespace

TEST_CASE("overallVerdict: Same without differences, each source of Warn or Fail decides alone", "[diffreport]") {
    DiffReport r = mapsReport();
    CHECK(overallVerdict(r) == Verdict::Same);
    CHECK(exitCodeOf(Verdict::Same) == 0);
    CHECK(exitCodeOf(Verdict::Warn) == 0);
    CHECK(exitCodeOf(Verdict::Fail) == 1);

    SECTION("lightmap styles") {
        r.lightmaps = LightmapDiff{};
        r.lightmaps->styles = {style(0, Verdict::Same), style(1, Verdict::Same)};
        CHECK(overallVerdict(r) == Verdict::Same);
        r.lightmaps->styles[1].verdict = Verdict::Warn;
        CHECK(overallVerdict(r) == Verdict::Warn);
        r.lightmaps->styles[0].verdict = Verdict::Fail;
        CHECK(overallVerdict(r) == Verdict::Fail);
    }
    SECTION("geometry only in A or only in B fails, whatever the styles say") {
        r.lightmaps = LightmapDiff{};
        r.lightmaps->styles = {style(0, Verdict::Same)};
        r.lightmaps->onlyInA = {surface(1, "m", 0)};
        CHECK(overallVerdict(r) == Verdict::Fail);
        r.lightmaps->onlyInA.clear();
        r.lightmaps->onlyInB = {surface(1, "m", 0)};
        CHECK(overallVerdict(r) == Verdict::Fail);
    }
    SECTION("probes") {
        r.probes = ProbeDiff{};
        CHECK(overallVerdict(r) == Verdict::Same);
        r.probes->verdict = Verdict::Warn;
        CHECK(overallVerdict(r) == Verdict::Warn);
        r.probes->verdict = Verdict::Fail;
        CHECK(overallVerdict(r) == Verdict::Fail);
    }
    SECTION("images, and an image that could not be compared") {
        r.images.resize(2);
        CHECK(overallVerdict(r) == Verdict::Same);
        r.images[1].verdict = Verdict::Warn;
        CHECK(overallVerdict(r) == Verdict::Warn);
        r.images[0].verdict = Verdict::Fail;
        CHECK(overallVerdict(r) == Verdict::Fail);
        r.images[0].verdict = Verdict::Same;
        r.images[1].verdict = Verdict::Same;
        r.images[0].error = "size 64x64 vs 32x32";
        CHECK(overallVerdict(r) == Verdict::Fail);
    }
    SECTION("folders: entries on one side only, errors") {
        r.kind = "folders";
        r.onlyInA = {"maps/x.bsp"};
        CHECK(overallVerdict(r) == Verdict::Fail);
        r.onlyInA.clear();
        r.onlyInB = {"maps/y.bsp"};
        CHECK(overallVerdict(r) == Verdict::Fail);
        r.onlyInB.clear();
        r.errors = {"maps/z.bsp: truncated"};
        CHECK(overallVerdict(r) == Verdict::Fail);
    }
    SECTION("entries, nested, count with their worst") {
        r.kind = "folders";
        DiffReport inner = mapsReport();
        inner.probes = ProbeDiff{};
        inner.probes->verdict = Verdict::Warn;
        DiffReport middle;
        middle.kind = "folders";
        middle.entries = {mapsReport(), inner};
        r.entries = {mapsReport(), middle};
        CHECK(overallVerdict(r) == Verdict::Warn);
        r.entries[1].entries[1].errors = {"broken"};
        CHECK(overallVerdict(r) == Verdict::Fail);
    }
    SECTION("a warning and a failure: Fail") {
        r.probes = ProbeDiff{};
        r.probes->verdict = Verdict::Warn;
        r.images.resize(1);
        r.images[0].verdict = Verdict::Fail;
        CHECK(overallVerdict(r) == Verdict::Fail);
    }
}

TEST_CASE("toJson holds the figures put in, inf as \"inf\", entries recursively", "[diffreport]") {
    DiffReport r = fullReport();
    DiffReport entry = mapsReport();
    entry.a = "x/a.bsp";
    entry.b = "x/b.bsp";
    DiffReport folder;
    folder.a = "buildA";
    folder.b = "buildB";
    folder.kind = "folders";
    folder.entries = {r, entry};
    folder.onlyInA = {"maps/gone.bsp"};
    folder.errors = {"maps/bad.bsp: truncated lump 13 at byte 4096"};
    folder.entries[1].a = std::string("bad\xff\xfename.bsp");  // invalid UTF-8 from a file name

    const auto root = toJson(folder);
    // Through text and back, as a reader of --json sees it (dump() would throw on invalid UTF-8).
    const auto j = nlohmann::json::parse(root.dump(2));
    CHECK(j["kind"] == "folders");
    CHECK(j["verdict"] == "fail");
    CHECK(j["only_in_a"] == nlohmann::json::array({"maps/gone.bsp"}));
    CHECK(j["only_in_b"].empty());
    CHECK(j["errors"][0] == "maps/bad.bsp: truncated lump 13 at byte 4096");
    REQUIRE(j["entries"].size() == 2);
    CHECK(j["entries"][1]["verdict"] == "same");
    CHECK(j["entries"][1]["a"] == "bad\xEF\xBF\xBD\xEF\xBF\xBDname.bsp");
    CHECK(j["entries"][1]["lightmaps"].is_null());

    const auto& m = j["entries"][0];
    CHECK(m["a"] == "a.bsp");
    CHECK(m["b"] == "b.bsp");
    CHECK(m["kind"] == "maps");
    CHECK(m["format"] == "Quake 3 IBSP 46");
    CHECK(m["verdict"] == "fail");
    // Thresholds per kind; infinite hard limits as "inf".
    CHECK(m["thresholds"]["luxels"]["fail"].get<double>() == 2.0 / 255);
    CHECK(m["thresholds"]["luxels"]["warn"].get<double>() == 1.0 / 255);
    CHECK(m["thresholds"]["luxels"]["fail_percent"].get<double>() == 0.5);
    CHECK(m["thresholds"]["luxels"]["hard_fail"] == "inf");
    CHECK(m["thresholds"]["probes"]["fail"].get<double>() == 4.0 / 255);
    CHECK(m["thresholds"]["probes"]["hard_fail"].get<double>() == 0.25);
    CHECK(m["thresholds"]["images"]["fail"].get<double>() == 1e-6);

    const auto& lm = m["lightmaps"];
    CHECK(lm["luxels_a"] == 1234567);
    CHECK(lm["luxels_b"] == 1234000);
    CHECK(lm["matched_a"] == 1230000);
    CHECK(lm["matched_b"] == 1229000);
    CHECK(lm["ms"].get<double>() == 812.5);
    REQUIRE(lm["styles"].size() == 2);
    const auto& s0 = lm["styles"][0];
    CHECK(s0["style"] == 0);
    CHECK(s0["verdict"] == "fail");
    CHECK(s0["stats"]["count"] == 2459000);
    CHECK(s0["stats"]["max_abs_display"].get<double>() == 184.0 / 255);
    CHECK(s0["stats"]["rms_display"].get<double>() == 0.3 / 255);
    CHECK(s0["stats"]["over_fail"] == 24000);
    CHECK(s0["stats"]["over_warn"] == 30000);
    CHECK(s0["stats"]["percent_over_fail"].get<double>() == Approx(100.0 * 24000 / 2459000));
    REQUIRE(s0["changed"].size() == 2);
    const auto& c0 = s0["changed"][0];
    CHECK(c0["surface"] == 17);
    CHECK(c0["material"] == "textures/base_wall/metal_red");
    CHECK(c0["mins"] == nlohmann::json::array({-64.0, 0.0, 16.0}));
    CHECK(c0["maxs"] == nlohmann::json::array({64.0, 128.0, 16.0}));
    CHECK(c0["centroid"] == nlohmann::json::array({0.0, 64.0, 16.0}));
    CHECK(c0["area"].get<double>() == 16384);
    CHECK(c0["luxels"] == 256);
    CHECK(c0["unmatched"] == 3);
    CHECK(c0["stats"]["max_abs_display"].get<double>() == 184.0 / 255);
    // Style 1 is the same everywhere: PSNR infinite, as "inf".
    CHECK(lm["styles"][1]["verdict"] == "same");
    CHECK(lm["styles"][1]["stats"]["psnr_display"] == "inf");
    CHECK(lm["only_in_a"].empty());
    REQUIRE(lm["only_in_b"].size() == 1);
    CHECK(lm["only_in_b"][0]["surface"] == 99);
    CHECK(lm["only_in_b"][0]["material"] == "textures/new/ledge");
    CHECK(lm["geometry_verdict"] == "fail");

    const auto& p = m["probes"];
    CHECK(p["kind"] == "light grid");
    CHECK(p["pointwise"] == true);
    CHECK(p["points_a"] == 48504);
    CHECK(p["points_b"] == 48504);
    CHECK(p["verdict"] == "warn");
    CHECK(p["ambient"]["over_warn"] == 2515);
    CHECK(p["ambient"]["max_abs_display"].get<double>() == 3.0 / 255);
    CHECK(p["directed"]["over_warn"] == 100);
    CHECK(p["median_direction_deg"].get<double>() == 0.5);
    CHECK(p["max_direction_deg"].get<double>() == 12.5);
    REQUIRE(p["worst"].size() == 1);
    CHECK(p["worst"][0]["index"] == 42);
    CHECK(p["worst"][0]["position"] == nlohmann::json::array({128.0, 256.0, 64.0}));
    CHECK(p["worst"][0]["direction_deg"].get<double>() == 12.5);

    REQUIRE(m["images"].size() == 2);
    CHECK(m["images"][0]["name"] == "spawn");
    CHECK(m["images"][0]["a"] == "a.bsp@spawn");
    CHECK(m["images"][0]["width"] == 1920);
    CHECK(m["images"][0]["height"] == 1080);
    CHECK(m["images"][0]["verdict"] == "fail");
    CHECK(m["images"][0]["stats"]["over_fail"] == 5000);
    CHECK(m["images"][1]["stats"]["psnr_display"] == "inf");
    CHECK(m["images"][1]["error"] == "");
}

TEST_CASE("junitXml parses as XML: a suite per report and entry, a case per comparison, failures with figures",
          "[diffreport]") {
    DiffReport maps = fullReport();
    const std::string hostile = std::string("<script>&\"'") + '\x01' + "x";
    const std::string hostileClean = "<script>&\"'x";
    maps.lightmaps->styles[0].changed[0].material = hostile;
    DiffReport folder;
    folder.a = "buildA";
    folder.b = "buildB";
    folder.kind = "folders";
    folder.onlyInA = {"maps/" + hostile + ".bsp"};
    folder.errors = {"maps/bad.bsp: truncated lump 13 at byte 4096"};
    maps.a = "buildA/maps/" + hostile + ".bsp";
    folder.entries = {maps};

    const std::string xml = junitXml(folder);
    CHECK(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>", 0) == 0);
    CHECK(xml.find('\x01') == std::string::npos);
    pugi::xml_document doc;
    const pugi::xml_parse_result parsed = doc.load_string(xml.c_str());
    INFO(xml);
    REQUIRE(parsed);

    const pugi::xml_node suites = doc.child("testsuites");
    REQUIRE(suites);
    // Folder suite: 2 (missing entry, error); map suite: styles 0 and 1, geometry, grid, 2 views = 6.
    CHECK(suites.attribute("tests").as_int() == 8);
    // Failing: missing entry, error, style 0, geometry, view spawn.
    CHECK(suites.attribute("failures").as_int() == 5);

    std::vector<pugi::xml_node> list;
    for (pugi::xml_node s : suites.children("testsuite")) list.push_back(s);
    REQUIRE(list.size() == 2);
    CHECK(std::string(list[0].attribute("name").value()) == "buildA vs buildB");
    CHECK(list[0].attribute("tests").as_int() == 2);
    CHECK(list[0].attribute("failures").as_int() == 2);
    CHECK(std::string(list[1].attribute("name").value()) == "buildA/maps/" + hostileClean + ".bsp vs b.bsp");
    CHECK(list[1].attribute("tests").as_int() == 6);
    CHECK(list[1].attribute("failures").as_int() == 3);

    std::vector<std::string> names;
    for (pugi::xml_node s : list)
        for (pugi::xml_node c : s.children("testcase")) {
            CHECK(std::string(c.attribute("classname").value()) == "luxel.diff");
            names.push_back(c.attribute("name").value());
        }
    CHECK(names == std::vector<std::string>{"missing entry maps/" + hostileClean + ".bsp", "error 1",
                                            "lightmaps style 0", "lightmaps style 1", "geometry", "light grid",
                                            "view spawn", "view overview"});

    auto testcase = [&](size_t suite, const std::string& name) {
        return list[suite].find_child_by_attribute("testcase", "name", name.c_str());
    };
    const pugi::xml_node missing = testcase(0, "missing entry maps/" + hostileClean + ".bsp").child("failure");
    REQUIRE(missing);
    CHECK(std::string(missing.attribute("message").value()) == "only in A: maps/" + hostileClean + ".bsp");
    const pugi::xml_node error = testcase(0, "error 1").child("failure");
    REQUIRE(error);
    CHECK(std::string(error.attribute("message").value()) == "maps/bad.bsp: truncated lump 13 at byte 4096");

    const pugi::xml_node style0 = testcase(1, "lightmaps style 0").child("failure");
    REQUIRE(style0);
    const std::string message = style0.attribute("message").value();
    CHECK_THAT(message, Catch::Contains("2,459,000 luxels") && Catch::Contains("2 surfaces changed") &&
                            Catch::Contains("max 184/255") && Catch::Contains("RMS 0.3/255") &&
                            Catch::Contains("24,000 over 2/255 ("));
    // The worst surfaces in the failure's text, the hostile material as text.
    const std::string body = style0.text().get();
    CHECK_THAT(body, Catch::Contains("surface 17 " + hostileClean) && Catch::Contains("surface 3 textures/gothic/floor"));

    CHECK_FALSE(testcase(1, "lightmaps style 1").child("failure"));
    CHECK_FALSE(testcase(1, "lightmaps style 1").child("system-out"));
    const pugi::xml_node geometry = testcase(1, "geometry").child("failure");
    REQUIRE(geometry);
    CHECK_THAT(std::string(geometry.attribute("message").value()),
               Catch::Contains("geometry only in B: 1 surface, 256 luxels"));
    // A warning: no failure, the figures in system-out.
    const pugi::xml_node grid = testcase(1, "light grid");
    CHECK_FALSE(grid.child("failure"));
    CHECK_THAT(std::string(grid.child("system-out").text().get()),
               Catch::Contains("warn: light grid: 48,504 points") && Catch::Contains("2,515 over") &&
                   Catch::Contains("max direction change 12.5 deg"));
    const pugi::xml_node spawn = testcase(1, "view spawn").child("failure");
    REQUIRE(spawn);
    CHECK_THAT(std::string(spawn.attribute("message").value()),
               Catch::Contains("1920x1080") && Catch::Contains("max 40/255") && Catch::Contains("FAIL"));
    CHECK_FALSE(testcase(1, "view overview").child("failure"));
}

TEST_CASE("junitXml: images kind names cases by the image, a report without differences has no failures",
          "[diffreport]") {
    DiffReport r;
    r.a = "a.png";
    r.b = "b.png";
    r.kind = "images";
    ImageDiff im;
    im.name = "a.png";
    im.width = 4;
    im.height = 4;
    im.stats = stats(16, 0, 0);
    r.images = {im};
    pugi::xml_document doc;
    REQUIRE(doc.load_string(junitXml(r).c_str()));
    CHECK(doc.child("testsuites").attribute("tests").as_int() == 1);
    CHECK(doc.child("testsuites").attribute("failures").as_int() == 0);
    const pugi::xml_node c = doc.child("testsuites").child("testsuite").child("testcase");
    CHECK(std::string(c.attribute("name").value()) == "a.png");
    CHECK_FALSE(c.first_child());
}

TEST_CASE("summaryText: what was compared, a line per comparison, the worst surfaces, the verdict", "[diffreport]") {
    const std::string text = summaryText(fullReport());
    INFO(text);
    CHECK(text.rfind("a.bsp vs b.bsp (Quake 3 IBSP 46)\n", 0) == 0);
    CHECK_THAT(text, Catch::Contains("lightmaps style 0: 2,459,000 luxels, 2 surfaces changed, max 184/255, RMS "
                                     "0.3/255, PSNR "));
    CHECK_THAT(text, Catch::Contains("lightmaps style 1: 1,000 luxels, 0 surfaces changed, max 0/255, RMS 0/255, "
                                     "PSNR inf: SAME"));
    CHECK_THAT(text, Catch::Contains("geometry only in B: 1 surface, 256 luxels (bounds (-64 0 16) - (64 128 16))"));
    CHECK_THAT(text, Catch::Contains("light grid: 48,504 points") && Catch::Contains("max direction change 12.5 deg"));
    CHECK_THAT(text, Catch::Contains("view spawn: 1920x1080, max 40/255"));
    // The worst surface first, with its material and centroid.
    const size_t worst = text.find("surface 17 textures/base_wall/metal_red at (0 64 16): max 184/255");
    const size_t second = text.find("surface 3 textures/gothic/floor");
    REQUIRE(worst != std::string::npos);
    REQUIRE(second != std::string::npos);
    CHECK(worst < second);
    CHECK(text.size() >= 14);
    CHECK(text.substr(text.size() - 14) == "verdict: fail\n");

    DiffReport same = mapsReport();
    same.lightmaps = LightmapDiff{};
    same.lightmaps->styles = {style(0, Verdict::Same)};
    CHECK_THAT(summaryText(same), Catch::EndsWith("verdict: same\n"));
    same.probes = ProbeDiff{};
    same.probes->kind = ProbeKind::Cubes;
    same.probes->verdict = Verdict::Warn;
    const std::string warn = summaryText(same);
    CHECK_THAT(warn, Catch::Contains("ambient cubes: ") && Catch::EndsWith("verdict: warn\n"));
}

TEST_CASE("summaryText of folders: differing entries in full, control characters not printed", "[diffreport]") {
    DiffReport folder;
    folder.a = "A";
    folder.b = "B";
    folder.kind = "folders";
    folder.onlyInB = {std::string("new\x1b[2Jmap.bsp")};
    DiffReport changed = fullReport();
    folder.entries = {changed, mapsReport(), mapsReport()};
    const std::string text = summaryText(folder);
    INFO(text);
    CHECK(text.find('\x1b') == std::string::npos);
    CHECK_THAT(text, Catch::Contains("only in B: new?[2Jmap.bsp: FAIL"));
    CHECK_THAT(text, Catch::Contains("  a.bsp vs b.bsp (Quake 3 IBSP 46)") &&
                         Catch::Contains("  verdict: fail") && Catch::Contains("2 entries without differences"));
    CHECK_THAT(text, Catch::EndsWith("verdict: fail\n"));
}
