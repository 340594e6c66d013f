// Work lists (src/scene/work_list.cpp, src/io/map_listing.cpp): inputs expanded into maps, de-duplicated,
// sorted, with output names that are safe and unique; sanitizeFileName and outputPath against hostile names.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "luxel/batch/batch.hpp"
#include "luxel/io/map_listing.hpp"
#include "luxel/scene/work_list.hpp"
#include "luxel/util/error.hpp"
#include "support/pak_writer.hpp"
#include "support/test_paths.hpp"
#include "support/zip_writer.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;
using K = SceneMapInput::Kind;

namespace {

void touch(const std::string& path, const std::string& content = "x") {
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << content;
}

void writeZip(const std::string& path, const std::vector<ZipMember>& members) {
    const std::vector<uint8_t> bytes = makeZip(members);
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

std::vector<std::string> specs(const std::vector<MapLocation>& maps) {
    std::vector<std::string> out;
    for (const MapLocation& m : maps) out.push_back(m.spec);
    return out;
}
std::vector<std::string> names(const std::vector<MapLocation>& maps) {
    std::vector<std::string> out;
    for (const MapLocation& m : maps) out.push_back(m.name);
    return out;
}

Scene sceneOf(const std::vector<std::string>& paths) {
    Scene s;
    s.file = "w.toml";
    s.folder = ".";
    s.views = {SceneView{}};
    for (size_t i = 0; i < paths.size(); ++i) {
        SceneMapInput in;
        in.path = paths[i];
        in.location = {"w.toml", int(i + 1), "maps[" + std::to_string(i) + "]"};
        s.maps.push_back(in);
    }
    return s;
}

MapJob jobNamed(const std::string& name, const std::string& source) {
    MapJob j;
    j.name = name;
    j.source = source;
    return j;
}

bool safeComponent(const std::string& s) {
    if (s.empty() || s.size() > 80 || s[0] == '.') return false;
    for (unsigned char c : s)
        if (!std::isalnum(c) && c != '_' && c != '-' && c != '.') return false;
    return true;
}

}  // namespace

TEST_CASE("work list: a glob expands to its map and archive matches, sorted, other files skipped", "[worklist]") {
    const std::string d = tempDir("wl-glob");
    touch(d + "/b.bsp");
    touch(d + "/a.bsp");
    touch(d + "/notes.txt");
    touch(d + "/c.BSP");
    writeZip(d + "/p.pk3", {{"maps/z.bsp", "z"}, {"maps/readme.txt", "r"}});

    auto maps = expandMapInput(d + "/*.bsp", K::Auto, "here");
    CHECK(specs(maps) == std::vector<std::string>{d + "/a.bsp", d + "/b.bsp"});
    CHECK(names(maps) == std::vector<std::string>{"a", "b"});

    maps = expandMapInput(d + "/*", K::Glob, "here");
    // Matches in byte order: "a.bsp" < "b.bsp" < "c.BSP" < "notes.txt" (skipped) < "p.pk3" (expanded).
    CHECK(specs(maps) == std::vector<std::string>{d + "/a.bsp", d + "/b.bsp", d + "/c.BSP", d + "/p.pk3:maps/z.bsp"});
    CHECK(names(maps) == std::vector<std::string>{"a", "b", "c", "z"});

    maps = expandMapInput(d + "/[ab].bsp", K::Auto, "here");
    CHECK(maps.size() == 2);

    try {
        expandMapInput(d + "/*.nothing", K::Auto, "w.toml:7: maps[2]");
        FAIL("no error for a glob without matches");
    } catch (const UsageError& e) {
        CHECK(std::string(e.what()).find("w.toml:7: maps[2]") != std::string::npos);
    }
}

TEST_CASE("work list: a directory is searched recursively, archives inside it included", "[worklist]") {
    const std::string d = tempDir("wl-dir");
    touch(d + "/top.bsp");
    touch(d + "/notes.txt");
    touch(d + "/sub/mid.bsp");
    touch(d + "/sub/deeper/low.bsp");
    writeZip(d + "/sub/pack.pk3", {{"maps/inpk3.bsp", "m"},
                                   {"maps/sub/nested.bsp", "n"},  // not directly in maps/: no
                                   {"levels/elsewhere.bsp", "e"},  // not in maps/: no
                                   {"maps/readme.txt", "r"}});
    writeZip(d + "/sub/deeper/more.zip", {{"maps/inzip.bsp", "m"}});

    for (K kind : {K::Auto, K::Directory}) {
        const auto maps = expandMapInput(d, kind, "here");
        std::vector<std::string> expected = {d + "/sub/deeper/low.bsp", d + "/sub/deeper/more.zip:maps/inzip.bsp",
                                             d + "/sub/mid.bsp", d + "/sub/pack.pk3:maps/inpk3.bsp", d + "/top.bsp"};
        std::sort(expected.begin(), expected.end());
        CHECK(specs(maps) == expected);
        for (const MapLocation& m : maps) CHECK(m.error.empty());
    }
    CHECK(mapsUnderDirectory(d).size() == 5);
    CHECK_FALSE(looksLikeGameDir(d));  // no pk3 or maps/ at its top
}

TEST_CASE("work list: an archive lists only maps/*.bsp directly under maps/", "[worklist]") {
    const std::string d = tempDir("wl-archive");
    writeZip(d + "/pak.pk3", {{"maps/b.bsp", "b"},
                              {"maps/a.bsp", "a"},
                              {"MAPS/Upper.BSP", "u"},
                              {"maps/sub/c.bsp", "c"},
                              {"textures/maps/d.bsp", "d"},
                              {"maps/e.bsp.txt", "e"},
                              {"maps/.bsp", "f"},
                              {"maps/readme.txt", "r"}});
    for (K kind : {K::Auto, K::Archive}) {
        const auto maps = expandMapInput(d + "/pak.pk3", kind, "here");
        CHECK(specs(maps) == std::vector<std::string>{d + "/pak.pk3:MAPS/Upper.BSP", d + "/pak.pk3:maps/a.bsp",
                                                      d + "/pak.pk3:maps/b.bsp"});
        CHECK(names(maps) == std::vector<std::string>{"Upper", "a", "b"});
    }
    // A member spec is one map, named after the member.
    const auto one = expandMapInput(d + "/pak.pk3:maps/b.bsp", K::Auto, "here");
    REQUIRE(one.size() == 1);
    CHECK(one[0].spec == d + "/pak.pk3:maps/b.bsp");
    CHECK(one[0].name == "b");
    // A missing archive is a UsageError naming it; a file that is no zip an error naming the file.
    CHECK_THROWS_AS(expandMapInput(d + "/none.pk3", K::Archive, "here"), UsageError);
    touch(d + "/junk.pk3", "not a zip at all");
    try {
        mapsInArchive(d + "/junk.pk3");
        FAIL("no error");
    } catch (const std::exception& e) {
        CHECK(std::string(e.what()).find("junk.pk3") != std::string::npos);
    }
}

TEST_CASE("work list: a game directory gives one map per name, from where the engine loads it", "[worklist]") {
    const std::string d = tempDir("wl-gamedir");
    writeZip(d + "/pak0.pk3", {{"maps/one.bsp", "one from pak0"},
                               {"maps/two.bsp", "two from pak0"},
                               {"maps/Three.bsp", "Three from pak0"},
                               {"maps/four.bsp", "four from pak0"}});
    writeZip(d + "/pak1.pk3", {{"maps/two.bsp", "two from pak1"}, {"maps/three.bsp", "three from pak1"}});
    touch(d + "/maps/one.bsp", "loose one");
    touch(d + "/maps/FOUR.bsp", "loose four");
    touch(d + "/maps/notes.txt");
    REQUIRE(looksLikeGameDir(d));

    for (K kind : {K::Auto, K::GameDir}) {
        const auto maps = expandMapInput(d, kind, "here");
        // Sorted by (lower-case) name; loose files beat every pk3; pak1 beats pak0; names match in any case.
        REQUIRE(maps.size() == 4);
        CHECK(maps[0].spec == d + "/maps/FOUR.bsp");
        CHECK(maps[1].spec == d + "/maps/one.bsp");
        CHECK(maps[2].spec == d + "/pak1.pk3:maps/three.bsp");
        CHECK(maps[2].name == "three");
        CHECK(maps[3].spec == d + "/pak1.pk3:maps/two.bsp");
    }

    // Through a scene: the game directory is added to each job's game dirs (after the scene's).
    const std::string other = tempDir("wl-gamedir-other");
    Scene s = sceneOf({d});
    s.gameDirs = {other};
    const auto jobs = expandScene(s);
    REQUIRE(jobs.size() == 4);
    for (const MapJob& j : jobs) {
        CHECK(j.gameDirs == std::vector<std::string>{other, d});
        CHECK(j.origin == "w.toml:1: maps[0]");
        CHECK(j.error.empty());
    }
    // Not added twice when the scene names it already.
    s.gameDirs = {d};
    for (const MapJob& j : expandScene(s)) CHECK(j.gameDirs == std::vector<std::string>{d});
}

TEST_CASE("work list: .pak archives list, and sit in folders and game folders, as pk3s do", "[worklist]") {
    const std::string d = tempDir("wl-pak");
    auto writePak = [](const std::string& path, const std::vector<PakFile>& files) { writeFile(path, makePak(files)); };
    // One archive: only maps/*.bsp directly in maps/, sorted by member name, any case of ".pak".
    writePak(d + "/mods/dm.PAK", {{"maps/q2dm2.bsp", "b"},
                                  {"maps/Q2DM1.BSP", "a"},
                                  {"maps/sub/no.bsp", "n"},
                                  {"textures/maps/no.bsp", "n"},
                                  {"maps/readme.txt", "r"}});
    REQUIRE(isArchivePath(d + "/mods/dm.PAK"));
    for (K kind : {K::Auto, K::Archive}) {
        const auto maps = expandMapInput(d + "/mods/dm.PAK", kind, "here");
        CHECK(specs(maps) == std::vector<std::string>{d + "/mods/dm.PAK:maps/Q2DM1.BSP", d + "/mods/dm.PAK:maps/q2dm2.bsp"});
        CHECK(names(maps) == std::vector<std::string>{"Q2DM1", "q2dm2"});
    }
    // A member spec is one map when the pak has the member (any case), an error when it has not.
    CHECK(expandMapInput(d + "/mods/dm.PAK:maps/q2dm1.bsp", K::Auto, "here").size() == 1);
    CHECK(archiveHasMember(d + "/mods/dm.PAK", "MAPS/q2dm2.bsp"));
    CHECK_FALSE(archiveHasMember(d + "/mods/dm.PAK", "maps/q2dm3.bsp"));
    CHECK_THROWS_AS(expandMapInput(d + "/mods/dm.PAK:maps/q2dm3.bsp", K::Auto, "here"), UsageError);

    // In a plain folder: every .pak's maps (whatever its name), a damaged one as one failed entry.
    writeFile(d + "/mods/broken.pak", Bytes{'P', 'A', 'C', 'K', 12, 0, 0, 0, 64, 0, 0, 0});  // a directory past the end
    touch(d + "/mods/loose.bsp");
    CHECK_FALSE(looksLikeGameDir(d + "/mods"));  // no pakN.pak, pk3 or maps/ in it
    const auto inFolder = expandMapInput(d + "/mods", K::Auto, "here");
    CHECK(specs(inFolder) == std::vector<std::string>{d + "/mods/broken.pak", d + "/mods/dm.PAK:maps/Q2DM1.BSP",
                                                      d + "/mods/dm.PAK:maps/q2dm2.bsp", d + "/mods/loose.bsp"});
    CHECK_THAT(inFolder[0].error, Catch::Contains("broken.pak: lump pak header at byte 4"));

    // A game folder of paks: one map per name, from where openMapInGameDir loads it (pak1 over pak0 over loose
    // over a pk3), an unreadable pak as one failed entry.
    const std::string g = d + "/id1";
    writePak(g + "/pak0.pak", {{"maps/e1m1.bsp", "0"}, {"maps/e1m2.bsp", "0"}, {"maps/e1m3.bsp", "0"}});
    writePak(g + "/pak1.pak", {{"maps/E1M2.bsp", "1"}});
    touch(g + "/maps/e1m3.bsp", "loose");
    touch(g + "/maps/e1m4.bsp", "loose");
    writeZip(g + "/zz.pk3", {{"maps/e1m4.bsp", "pk3"}, {"maps/e1m5.bsp", "pk3"}});
    writePak(g + "/extra.pak", {{"maps/unmounted.bsp", "x"}});
    REQUIRE(looksLikeGameDir(g));
    auto maps = expandMapInput(g, K::Auto, "here");
    CHECK(specs(maps) == std::vector<std::string>{g + "/pak0.pak:maps/e1m1.bsp", g + "/pak1.pak:maps/E1M2.bsp",
                                                  g + "/pak0.pak:maps/e1m3.bsp", g + "/maps/e1m4.bsp",
                                                  g + "/zz.pk3:maps/e1m5.bsp"});
    touch(g + "/pak2.pak", "not a pak");
    maps = expandMapInput(g, K::GameDir, "here");
    REQUIRE(maps.size() == 6);
    CHECK(maps[0].spec == g + "/pak2.pak");
    CHECK_THAT(maps[0].error, Catch::Contains("not a PACK archive"));
    CHECK(maps[1].spec == g + "/pak0.pak:maps/e1m1.bsp");

    // A folder holding only pakN.pak files is a game folder.
    writePak(d + "/only/pak0.pak", {{"maps/x.bsp", "x"}});
    CHECK(looksLikeGameDir(d + "/only"));
}

TEST_CASE("work list: expandScene applies per-map overrides and view selection", "[worklist]") {
    const std::string d = tempDir("wl-overrides");
    touch(d + "/a.bsp");
    touch(d + "/b.bsp");
    Scene s = sceneOf({d + "/a.bsp", d + "/b.bsp"});
    s.gameDirs = {"/scene/gd"};
    s.ldr = false;
    s.palette = "scene.pcx";
    SceneView v1, v2;
    v1.name = "one";
    v2.name = "two";
    s.views = {v1, v2};
    s.output.pattern = "{map}.{ext}";
    s.maps[1].gameDirs = std::vector<std::string>{"/own/gd"};
    s.maps[1].views = std::vector<std::string>{"two"};
    s.maps[1].ldr = true;
    s.maps[1].palette = "own.pcx";
    const auto jobs = expandScene(s);
    REQUIRE(jobs.size() == 2);
    CHECK(jobs[0].source == d + "/a.bsp");
    CHECK(jobs[0].gameDirs == std::vector<std::string>{"/scene/gd"});
    CHECK(jobs[0].ldr == false);
    CHECK(jobs[0].palette == "scene.pcx");
    REQUIRE(jobs[0].views.size() == 2);
    CHECK(jobs[0].views[0].name == "one");
    CHECK(jobs[0].output.pattern == "{map}.{ext}");
    CHECK(jobs[1].gameDirs == std::vector<std::string>{"/own/gd"});
    CHECK(jobs[1].ldr == true);
    CHECK(jobs[1].palette == "own.pcx");
    REQUIRE(jobs[1].views.size() == 1);
    CHECK(jobs[1].views[0].name == "two");
    CHECK(jobs[1].origin == "w.toml:2: maps[1]");
}

TEST_CASE("work list: one file reached through several inputs is one job", "[worklist]") {
    const std::string d = tempDir("wl-dedup");
    touch(d + "/m/a.bsp");
    touch(d + "/m/b.bsp");
    touch(d + "/c.bsp");
    // The same files by absolute path, through "..", by glob and by directory; relative paths are made
    // absolute, so a relative spelling of the same file is the same job too.
    const std::string rel = fs::relative(d + "/m/a.bsp").string();
    Scene s = sceneOf({d + "/m/a.bsp", d + "/m/../m/a.bsp", d + "/m/*.bsp", d, rel});
    auto jobs = expandScene(s);
    CHECK(jobs.size() == 1 + 1 + 2 + 3 + 1);
    finalizeWorkList(jobs);
    REQUIRE(jobs.size() == 3);
    CHECK(jobs[0].source == d + "/m/a.bsp");
    CHECK(jobs[1].source == d + "/m/b.bsp");
    CHECK(jobs[2].source == d + "/c.bsp");
    // The first input that produced a file keeps it (its origin).
    CHECK(jobs[0].origin == "w.toml:1: maps[0]");
    CHECK(jobs[1].origin == "w.toml:3: maps[2]");
    CHECK(jobs[2].origin == "w.toml:4: maps[3]");
}

TEST_CASE("work list: sorted by name (any case), then source; same names get unique output names", "[worklist]") {
    std::vector<MapJob> jobs = {jobNamed("b", "/z/b.bsp"),     jobNamed("x", "/d2/x.bsp"), jobNamed("A", "/y/A.bsp"),
                                jobNamed("x", "/d1/x.bsp"),    jobNamed("X", "/d0/X.bsp"), jobNamed("c", "/a/c.bsp"),
                                jobNamed("x", "/d1/x.bsp")};  // a repeat of an earlier source
    finalizeWorkList(jobs);
    REQUIRE(jobs.size() == 6);
    std::vector<std::string> sources;
    for (const MapJob& j : jobs) sources.push_back(j.source);
    CHECK(sources == std::vector<std::string>{"/y/A.bsp", "/z/b.bsp", "/a/c.bsp", "/d0/X.bsp", "/d1/x.bsp", "/d2/x.bsp"});
    std::vector<std::string> outs;
    for (const MapJob& j : jobs) outs.push_back(j.outputName);
    // "X" and "x" would share a folder on a case-folding file system.
    CHECK(outs == std::vector<std::string>{"A", "b", "c", "X", "x-2", "x-3"});

    // Finalizing is idempotent and independent of the input order.
    std::vector<MapJob> again = jobs;
    std::reverse(again.begin(), again.end());
    finalizeWorkList(again);
    for (size_t i = 0; i < jobs.size(); ++i) {
        CHECK(again[i].source == jobs[i].source);
        CHECK(again[i].outputName == jobs[i].outputName);
    }

    // Output names stay unique even when a map is really called "x-2", and when hostile names sanitise alike.
    std::vector<MapJob> tricky = {jobNamed("x", "/1/x.bsp"), jobNamed("x", "/2/x.bsp"), jobNamed("x-2", "/3/x-2.bsp"),
                                  jobNamed("../a", "/4.pk3:maps/../a.bsp"), jobNamed("/a", "/5.pk3:maps//a.bsp"),
                                  jobNamed("_a", "/6/_a.bsp"), jobNamed("", "/7/.bsp")};
    finalizeWorkList(tricky);
    std::set<std::string> seen;
    for (const MapJob& j : tricky) {
        INFO(j.name << " -> " << j.outputName);
        CHECK(safeComponent(j.outputName));
        CHECK(seen.insert(j.outputName).second);
    }
    CHECK(seen.size() == 7);
}

TEST_CASE("work list: a corrupt archive inside a directory is one failed job, the others still list", "[worklist]") {
    const std::string d = tempDir("wl-corrupt");
    touch(d + "/a.bsp");
    touch(d + "/bad.pk3", "PK\x03\x04 this is not really a zip");
    writeZip(d + "/good.pk3", {{"maps/g.bsp", "g"}});
    touch(d + "/z.bsp");
    const auto maps = expandMapInput(d, K::Directory, "here");
    REQUIRE(maps.size() == 4);
    size_t withError = 0;
    for (const MapLocation& m : maps) {
        if (m.error.empty()) continue;
        ++withError;
        CHECK(m.spec == d + "/bad.pk3");
        CHECK(m.name == "bad");
        CHECK(m.error.find("bad.pk3") != std::string::npos);
    }
    CHECK(withError == 1);

    // d holds a .pk3 at its top, so it would pass for a game directory: name it a plain directory.
    Scene scene = sceneOf({d});
    scene.maps[0].kind = K::Directory;
    auto jobs = expandScene(scene);
    finalizeWorkList(jobs);
    REQUIRE(jobs.size() == 4);
    CHECK(jobs[0].name == "a");
    CHECK(jobs[1].name == "bad");
    CHECK_FALSE(jobs[1].error.empty());
    CHECK(jobs[2].name == "g");
    CHECK(jobs[2].error.empty());
    CHECK(jobs[3].name == "z");
}

TEST_CASE("work list: inputs that name nothing are UsageErrors naming where they came from", "[worklist]") {
    const std::string d = tempDir("wl-missing");
    for (K kind : {K::Auto, K::File, K::Archive, K::GameDir, K::Directory}) {
        try {
            expandMapInput(d + "/nothing.bsp", kind, "w.toml:9: maps[4]");
            FAIL("no error");
        } catch (const UsageError& e) {
            CHECK(std::string(e.what()).find("w.toml:9: maps[4]") != std::string::npos);
            CHECK(std::string(e.what()).find("nothing.bsp") != std::string::npos);
        }
    }
    // A directory input naming a file: still an error with where it came from.
    touch(d + "/file.bsp");
    try {
        expandMapInput(d + "/file.bsp", K::Directory, "w.toml:3: maps[1]");
        FAIL("no error");
    } catch (const UsageError& e) {
        CHECK(std::string(e.what()).find("w.toml:3: maps[1]") != std::string::npos);
    }
}

TEST_CASE("sanitizeFileName: hostile names become one safe path component", "[worklist]") {
    CHECK(sanitizeFileName("q3dm17") == "q3dm17");
    CHECK(sanitizeFileName("de_dust2-v1.2") == "de_dust2-v1.2");
    CHECK(sanitizeFileName("../../etc/passwd") == "_.._etc_passwd");
    CHECK(sanitizeFileName("/abs") == "_abs");
    CHECK(sanitizeFileName("a\\b") == "a_b");
    CHECK(sanitizeFileName(std::string("a\0b", 3)) == "a_b");
    CHECK(sanitizeFileName("caf\xc3\xa9") == "caf__");
    CHECK(sanitizeFileName("\xff\xfe") == "__");
    CHECK(sanitizeFileName("a b:c*d?e") == "a_b_c_d_e");
    CHECK(sanitizeFileName(".hidden") == "hidden");
    CHECK(sanitizeFileName("...x") == "x");
    CHECK(sanitizeFileName("") == "map");
    CHECK(sanitizeFileName(".") == "map");
    CHECK(sanitizeFileName("..") == "map");
    CHECK(sanitizeFileName(std::string(300, 'a')) == std::string(80, 'a'));
    const std::string longDots = std::string(10, '.') + std::string(300, 'b');
    const std::string s = sanitizeFileName(longDots);
    CHECK(safeComponent(s));
    CHECK(s.find_first_not_of('b') == std::string::npos);

    for (const std::string& hostile :
         {std::string("../../etc/passwd"), std::string("/abs"), std::string("a\\b"), std::string("a\0b", 3),
          std::string("\x80\x81"), std::string(".hidden"), std::string(""), std::string(300, '/'),
          std::string("..\\..\\windows"), std::string("con"), std::string("\n\r\t")}) {
        const std::string out = sanitizeFileName(hostile);
        INFO("'" << hostile << "' -> '" << out << "'");
        CHECK(safeComponent(out));
        CHECK(out != "..");
        CHECK(fs::path(out).filename().string() == out);
    }
}

TEST_CASE("outputPath: relative, inside the output folder, whatever the names", "[worklist]") {
    std::vector<MapJob> jobs = {jobNamed("../../etc/passwd", "/p.pk3:maps/../../etc/passwd.bsp"),
                                jobNamed("/abs", "/q.pk3:maps//abs.bsp"), jobNamed(".hidden", "/h/.hidden.bsp"),
                                jobNamed("", "/e/.bsp"), jobNamed(std::string(300, 'n'), "/long.bsp"),
                                jobNamed("plain", "/plain.bsp")};
    finalizeWorkList(jobs);
    SceneView view;
    view.name = "thumb";
    SceneView hostileView;
    hostileView.name = "../up";
    for (const char* pattern : {"{map}/{view}.{ext}", "{map}-{view}.{ext}", "{map}", "{format}/{map}.{ext}"}) {
        for (MapJob job : jobs) {
            job.output.pattern = pattern;
            for (const SceneView& v : {view, hostileView}) {
                const std::string out = outputPath(job, v);
                INFO(pattern << " " << job.name << " -> " << out);
                const fs::path p(out);
                CHECK_FALSE(p.is_absolute());
                CHECK_FALSE(out.empty());
                for (const auto& part : p) CHECK(part != "..");
                CHECK(fs::path(out).lexically_normal() == p);
                CHECK(out.find('\\') == std::string::npos);
            }
        }
    }
    // Hand-computed names.
    MapJob plain = jobNamed("plain", "/plain.bsp");
    plain.outputName = "plain";
    CHECK(outputPath(plain, view) == "plain/thumb.png");
    plain.output.pattern = "{map}";
    CHECK(outputPath(plain, view) == "plain.png");  // the extension is added when the pattern has none
    plain.output.pattern = "{map}-{view}.{ext}";
    plain.output.format = "jpeg";
    CHECK(outputPath(plain, view) == "plain-thumb.jpg");
    plain.output.format = "tiff";
    plain.output.pattern = "{format}/{map}.{ext}";
    CHECK(outputPath(plain, view) == "tif/plain.tif");
    CHECK(outputPath(plain, hostileView).find("..") == std::string::npos);

    // A pattern from elsewhere than a scene file (which rejects these) still cannot escape.
    for (const char* bad : {"../{map}.png", "/tmp/{map}.png", "{map}/../../x.png", "a/../../{map}.png"}) {
        plain.output.pattern = bad;
        INFO(bad);
        CHECK_THROWS_AS(outputPath(plain, view), UsageError);
    }
}

TEST_CASE("work list: a corrupt pk3 in a game directory is one failed entry, the other maps still list", "[worklist]") {
    // As inside a plain folder: one unreadable archive must not hide every other map of the game (a batch over
    // an install with one damaged pk3 renders the rest and reports the damaged one).
    const std::string d = tempDir("wl-gamedir-corrupt");
    writeZip(d + "/pak0.pk3", {{"maps/one.bsp", "1"}});
    touch(d + "/pak1.pk3", "not a zip");
    writeZip(d + "/pak2.pk3", {{"maps/two.bsp", "2"}});
    std::vector<MapLocation> maps;
    REQUIRE_NOTHROW(maps = expandMapInput(d, K::GameDir, "here"));
    size_t withError = 0;
    std::set<std::string> good;
    for (const MapLocation& m : maps) {
        if (!m.error.empty()) {
            ++withError;
            CHECK(m.spec == d + "/pak1.pk3");
            CHECK(m.error.find("pak1.pk3") != std::string::npos);
        } else {
            good.insert(m.name);
        }
    }
    CHECK(withError == 1);
    CHECK(good == std::set<std::string>{"one", "two"});
}

TEST_CASE("work list: no two (map, view) pairs of a work list share an output file", "[worklist]") {
    // With "{map}-{view}" the separator also occurs inside names: map "dm" + view "lit-top" and map "dm-lit" +
    // view "top" would both write dm-lit-top.png, and the second would silently replace the first.
    SceneView litTop, top;
    litTop.name = "lit-top";
    top.name = "top";
    for (const char* pattern : {"{map}/{view}.{ext}", "{map}-{view}.{ext}", "{map}_{view}.{ext}", "{view}{map}.{ext}"}) {
        std::vector<MapJob> jobs = {jobNamed("dm", "/m/dm.bsp"), jobNamed("dm-lit", "/m/dm-lit.bsp"),
                                    jobNamed("dm_lit", "/m/dm_lit.bsp"), jobNamed("top", "/m/top.bsp"),
                                    jobNamed("lit", "/m/lit.bsp")};
        for (MapJob& j : jobs) {
            j.views = {litTop, top};
            j.output.pattern = pattern;
        }
        finalizeWorkList(jobs);
        std::map<std::string, std::string> owner;  // lower-case output -> "map/view"
        bool unique = true;
        try {
            checkJobs(jobs);  // may reject the list instead (a UsageError naming the clash) - also fine
        } catch (const UsageError&) {
            continue;
        }
        for (const MapJob& j : jobs)
            for (const SceneView& v : j.views) {
                std::string out = outputPath(j, v);
                std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
                auto [it, fresh] = owner.emplace(out, j.outputName + "/" + v.name);
                if (!fresh) {
                    unique = false;
                    UNSCOPED_INFO(pattern << ": " << out << " from " << it->second << " and " << j.outputName << "/"
                                          << v.name);
                }
            }
        CHECK(unique);
    }
}
