// `luxel batch` end to end (src/batch/, src/cli/batch.cpp) on tiny synthetic maps written to a temp folder:
// outputs, manifest, sheet and index; skip-up-to-date and --force; a bad map among good ones; exit codes;
// atomic outputs; scene files; hostile archive member names. Shards: batch_shard_test.cpp; list: list_cli_test.cpp.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>

#include "support/batch_fixtures.hpp"
#include "support/q1_writer.hpp"
#include "support/q3_writer.hpp"
#include "support/test_paths.hpp"
#include "support/zip_writer.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string kView = kBatchView;

const json* mapEntry(const json& manifest, const std::string& name) {
    for (const json& m : manifest["maps"])
        if (m.value("name", "") == name) return &m;
    return nullptr;
}

const auto kOld = fs::file_time_type::clock::now() - std::chrono::hours(24);

void ageAll(const std::string& dir, const std::vector<std::string>& files) {
    for (const std::string& f : files) fs::last_write_time(fs::path(dir) / f, kOld);
}

bool isOld(const std::string& path) { return fs::last_write_time(path) == kOld; }

std::string htmlEscape(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out += c;
        }
    }
    return out;
}

}  // namespace

TEST_CASE("batch: images, manifest, sheet and index; reruns skip up-to-date maps; --force redoes them",
          "[batch][cli]") {
    const std::string d = tempDir("batch-basic");
    const std::string maps = d + "/maps", out = d + "/out";
    for (int i = 0; i < 3; ++i) writeTextFile(maps + "/room" + std::to_string(i) + ".bsp", roomMap(i));
    writeTextFile(maps + "/notes.txt", "not a map");

    auto r = runLuxel("batch " + q(maps) + " -o " + q(out) + kView);
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    CHECK(fs::exists(out + "/manifest.json"));
    CHECK(fs::exists(out + "/sheet.png"));
    CHECK(fs::exists(out + "/index.html"));

    const json m = readJson(out + "/manifest.json");
    CHECK(m["summary"]["maps"] == 3);
    CHECK(m["summary"]["ok"] == 3);
    CHECK(m["summary"]["failed"] == 0);
    CHECK(m["summary"]["views"] == 3);
    CHECK(m["work_list"]["maps"] == 3);
    CHECK(m["luxel"].get<std::string>().size() > 0);
    REQUIRE(m["maps"].size() == 3);
    std::set<std::string> hashes;
    for (int i = 0; i < 3; ++i) {
        const json& e = m["maps"][size_t(i)];
        const std::string name = "room" + std::to_string(i);
        INFO(e.dump());
        CHECK(e["index"] == i);
        CHECK(e["name"] == name);
        CHECK(e["source"] == maps + "/" + name + ".bsp");
        CHECK(e["status"] == "ok");
        CHECK(e["format"].get<std::string>().find("Quake 3") != std::string::npos);
        CHECK(e["format"].get<std::string>().find("46") != std::string::npos);
        const std::string hash = e["hash"];
        CHECK(hash.size() == 32);
        CHECK(hash.find_first_not_of("0123456789abcdef") == std::string::npos);
        hashes.insert(hash);
        REQUIRE(e["views"].size() == 1);
        const json& v = e["views"][0];
        CHECK(v["name"] == "thumb");
        CHECK(v["output"] == name + "/thumb.png");
        CHECK(v["width"] == 64);
        CHECK(v["height"] == 36);
        const std::string file = out + "/" + v["output"].get<std::string>();
        REQUIRE(fs::exists(file));
        CHECK(v["bytes"] == fs::file_size(file));
        CHECK(imageSize(file) == std::make_pair(64, 36));
        // The camera actually used, so a user can pin it.
        const json& c = v["camera"];
        CHECK(c["asked"] == "best");
        CHECK_FALSE(c["used"].get<std::string>().empty());
        REQUIRE(c["position"].size() == 3);
        REQUIRE(c["angles"].size() == 3);
        CHECK(c["fov"].get<double>() > 0);
        // Inside the room the map describes (x, y in [-256, 256], z in [0, 256]).
        CHECK(std::abs(c["position"][0].get<double>()) <= 256);
        CHECK(std::abs(c["position"][1].get<double>()) <= 256);
        CHECK(c["position"][2].get<double>() >= 0);
        CHECK(c["position"][2].get<double>() <= 256);
    }
    CHECK(hashes.size() == 3);  // three different files
    REQUIRE(m["sheets"].size() >= 1);
    CHECK(fs::exists(out + "/" + m["sheets"][0].get<std::string>()));
    // The index links every image.
    const std::string index = readFileText(out + "/index.html");
    for (const std::string& f : listedOutputs(m)) CHECK(index.find(f) != std::string::npos);
    // Nothing temporary left behind.
    for (const std::string& f : filesBelow(out)) {
        INFO(f);
        CHECK(f.find("tmp") == std::string::npos);
    }
    const std::vector<std::string> images = listedOutputs(m);
    REQUIRE(images.size() == 3);
    std::map<std::string, std::string> firstBytes;
    for (const std::string& f : images) firstBytes[f] = readFileText(out + "/" + f);

    SECTION("a rerun reports everything up to date and rewrites nothing") {
        ageAll(out, images);
        r = runLuxel("batch " + q(maps) + " -o " + q(out) + " --size 64x36");
        INFO(r.err);
        CHECK(r.exitCode == 0);
        CHECK(r.err.find("0 rendered, 3 up to date, 0 failed") != std::string::npos);
        for (const std::string& f : images) CHECK(isOld(out + "/" + f));
        const json again = readJson(out + "/manifest.json");
        CHECK(again["summary"]["ok"] == 3);
        for (size_t i = 0; i < 3; ++i) CHECK(again["maps"][i]["hash"] == m["maps"][i]["hash"]);

        // --force redoes every map, to the same bytes.
        r = runLuxel("batch " + q(maps) + " -o " + q(out) + " --size 64x36 --force");
        CHECK(r.exitCode == 0);
        CHECK(r.err.find("3 rendered, 0 up to date") != std::string::npos);
        for (const std::string& f : images) {
            CHECK_FALSE(isOld(out + "/" + f));
            CHECK(readFileText(out + "/" + f) == firstBytes[f]);
        }
    }

    SECTION("changing one map's bytes re-renders just that map") {
        ageAll(out, images);
        writeTextFile(maps + "/room1.bsp", roomMap(7));
        r = runLuxel("batch " + q(maps) + " -o " + q(out) + " --size 64x36");
        INFO(r.err);
        CHECK(r.exitCode == 0);
        CHECK(r.err.find("1 rendered, 2 up to date") != std::string::npos);
        CHECK(isOld(out + "/room0/thumb.png"));
        CHECK_FALSE(isOld(out + "/room1/thumb.png"));
        CHECK(isOld(out + "/room2/thumb.png"));
        CHECK(readFileText(out + "/room1/thumb.png") != firstBytes["room1/thumb.png"]);
        const json again = readJson(out + "/manifest.json");
        CHECK(again["maps"][1]["hash"] != m["maps"][1]["hash"]);
        CHECK(again["maps"][0]["hash"] == m["maps"][0]["hash"]);
    }

    SECTION("different view options are not up to date") {
        ageAll(out, images);
        r = runLuxel("batch " + q(maps) + " -o " + q(out) + " --size 64x36 --mode vertex");
        CHECK(r.exitCode == 0);
        CHECK(r.err.find("3 rendered, 0 up to date") != std::string::npos);
        for (const std::string& f : images) CHECK_FALSE(isOld(out + "/" + f));
    }

    SECTION("stray temporary and partial images never count as up to date") {
        // A killed run: the final image missing, its temporary beside it.
        fs::remove(out + "/room0/thumb.png");
        writeTextFile(out + "/room0/.thumb.tmp123.png", firstBytes["room0/thumb.png"].substr(0, 100));
        // A partial image under the final name (not the size the manifest recorded).
        const std::string partial = firstBytes["room1/thumb.png"].substr(0, firstBytes["room1/thumb.png"].size() / 2);
        writeTextFile(out + "/room1/thumb.png", partial);
        // A longer file than recorded.
        writeTextFile(out + "/room2/thumb.png", firstBytes["room2/thumb.png"] + "garbage");
        r = runLuxel("batch " + q(maps) + " -o " + q(out) + " --size 64x36");
        INFO(r.err);
        CHECK(r.exitCode == 0);
        CHECK(r.err.find("3 rendered, 0 up to date") != std::string::npos);
        for (const std::string& f : images) CHECK(readFileText(out + "/" + f) == firstBytes[f]);
    }

    SECTION("a map added in front of up-to-date ones: every entry carries its new work-list position") {
        writeTextFile(maps + "/aaa.bsp", roomMap(5));
        r = runLuxel("batch " + q(maps) + " -o " + q(out) + " --size 64x36");
        INFO(r.err);
        CHECK(r.exitCode == 0);
        CHECK(r.err.find("1 rendered, 3 up to date") != std::string::npos);
        const json again = readJson(out + "/manifest.json");
        REQUIRE(again["maps"].size() == 4);
        CHECK(again["work_list"]["maps"] == 4);
        for (size_t i = 0; i < 4; ++i) {
            INFO(again["maps"][i]["name"]);
            CHECK(again["maps"][i]["index"] == i);  // the reused entries were at 0..2, now at 1..3
        }
        CHECK(again["maps"][0]["name"] == "aaa");
    }

    SECTION("a deleted manifest makes everything stale") {
        ageAll(out, images);
        fs::remove(out + "/manifest.json");
        r = runLuxel("batch " + q(maps) + " -o " + q(out) + " --size 64x36");
        CHECK(r.exitCode == 0);
        CHECK(r.err.find("3 rendered, 0 up to date") != std::string::npos);
        for (const std::string& f : images) CHECK_FALSE(isOld(out + "/" + f));
    }
}

TEST_CASE("batch: Quake 1 family cards name the variant alone (no version number after BSP2)", "[batch][cli]") {
    const std::string d = tempDir("batch-q1-format");
    const std::string maps = d + "/maps", out = d + "/out";
    for (const Q1Variant v : kQ1Variants) writeFile(maps + "/" + q1VariantName(v) + ".bsp", makeQ1FloorMap(v).build());
    auto r = runLuxel("batch " + q(maps) + " -o " + q(out) + kView);
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    const json m = readJson(out + "/manifest.json");
    const std::pair<const char*, const char*> want[] = {
        {"BSP29", "Quake 1 BSP29"}, {"2PSB", "Quake 1 2PSB"}, {"BSP2", "Quake 1 BSP2"}, {"BSP30", "Half-Life BSP30"}};
    for (const auto& [name, format] : want) {
        const json* e = mapEntry(m, name);
        REQUIRE(e != nullptr);
        CHECK((*e)["format"] == format);
    }
}

TEST_CASE("batch: a bad map among good ones fails alone; the good outputs are unchanged", "[batch][cli]") {
    const std::string d = tempDir("batch-bad");
    const std::string maps = d + "/maps";
    for (int i = 0; i < 3; ++i) writeTextFile(maps + "/room" + std::to_string(i) + ".bsp", roomMap(i));
    auto r = runLuxel("batch " + q(maps) + " -o " + q(d + "/good") + kView);
    INFO(r.err);
    REQUIRE(r.exitCode == 0);

    // Now a truncated copy of a good map and a text file named .bsp beside them.
    writeTextFile(maps + "/trunc.bsp", roomMap(0).substr(0, 1000));
    writeTextFile(maps + "/text.bsp", "this is not a map, just text\n");
    r = runLuxel("batch " + q(maps) + " -o " + q(d + "/mixed") + kView);
    INFO(r.err);
    CHECK(r.exitCode == 1);
    CHECK(r.err.find("trunc.bsp") != std::string::npos);
    CHECK(r.err.find("text.bsp") != std::string::npos);

    const json good = readJson(d + "/good/manifest.json");
    const json mixed = readJson(d + "/mixed/manifest.json");
    CHECK(mixed["summary"]["maps"] == 5);
    CHECK(mixed["summary"]["ok"] == 3);
    CHECK(mixed["summary"]["failed"] == 2);
    for (const char* bad : {"trunc", "text"}) {
        const json* e = mapEntry(mixed, bad);
        REQUIRE(e);
        INFO(e->dump());
        CHECK((*e)["status"] == "failed");
        const std::string error = (*e)["error"];
        CHECK(error.find(maps + "/" + bad + ".bsp") != std::string::npos);
        CHECK(error.find('\n') == std::string::npos);
        CHECK_FALSE(error.empty());
        // The index shows the error line.
        const std::string index = readFileText(d + "/mixed/index.html");
        CHECK(index.find(htmlEscape(error)) != std::string::npos);
    }
    // The good maps: the same entries (apart from timings) and byte-identical images.
    for (int i = 0; i < 3; ++i) {
        const std::string name = "room" + std::to_string(i);
        const json* a = mapEntry(good, name);
        const json* b = mapEntry(mixed, name);
        REQUIRE(a);
        REQUIRE(b);
        json ja = *a, jb = *b;
        ja.erase("index");
        jb.erase("index");  // positions moved: the bad maps sort between them
        stripKeys(ja, {"ms"});
        stripKeys(jb, {"ms"});
        CHECK(ja == jb);
        const std::string f = name + "/thumb.png";
        CHECK(readFileText(d + "/good/" + f) == readFileText(d + "/mixed/" + f));
    }
    CHECK(fs::exists(d + "/mixed/sheet.png"));
    // The failed maps wrote no image.
    CHECK_FALSE(fs::exists(d + "/mixed/trunc"));
    CHECK_FALSE(fs::exists(d + "/mixed/text"));
}

TEST_CASE("batch: a scene with a bad key or value, or an unwritable output, exits 2 with one line", "[batch][cli]") {
    const std::string d = tempDir("batch-exit2");
    writeTextFile(d + "/maps/a.bsp", roomMap(0));
    writeTextFile(d + "/bad-key.toml", "maps = [\"maps/a.bsp\"]\n[[view]]\nsize = \"64x36\"\nzoom = 3\n");
    auto r = runLuxel("batch " + q(d + "/bad-key.toml") + " -o " + q(d + "/out1"));
    INFO(r.err);
    CHECK(r.exitCode == 2);
    CHECK(lineCount(r.err) == 1);
    CHECK(r.err.find(d + "/bad-key.toml:4") != std::string::npos);
    CHECK(r.err.find("zoom") != std::string::npos);
    CHECK_FALSE(fs::exists(d + "/out1/manifest.json"));

    // A bad value the renderer's parsers find (not the TOML layer): still file:line: key.
    writeTextFile(d + "/bad-mode.toml", "maps = [\"maps/a.bsp\"]\n[[view]]\nmode = \"shiny\"\n");
    r = runLuxel("batch " + q(d + "/bad-mode.toml") + " -o " + q(d + "/out2"));
    INFO(r.err);
    CHECK(r.exitCode == 2);
    CHECK(lineCount(r.err) == 1);
    CHECK(r.err.find(d + "/bad-mode.toml:3: view[0].mode") != std::string::npos);

    writeTextFile(d + "/bad-camera.toml", "maps = [\"maps/a.bsp\"]\n[[view]]\n\ncamera = \"sideways\"\n");
    r = runLuxel("batch " + q(d + "/bad-camera.toml") + " -o " + q(d + "/out3"));
    INFO(r.err);
    CHECK(r.exitCode == 2);
    CHECK(lineCount(r.err) == 1);
    CHECK(r.err.find(d + "/bad-camera.toml:4: view[0].camera") != std::string::npos);

    // A missing map input.
    writeTextFile(d + "/missing.toml", "maps = [\n  \"maps/a.bsp\",\n  \"maps/gone.bsp\",\n]\n");
    r = runLuxel("batch " + q(d + "/missing.toml") + " -o " + q(d + "/out4"));
    CHECK(r.exitCode == 2);
    CHECK(lineCount(r.err) == 1);
    CHECK(r.err.find(d + "/missing.toml:3") != std::string::npos);

    // -o under a regular file.
    writeTextFile(d + "/plainfile", "x");
    r = runLuxel("batch " + q(d + "/maps") + " -o " + q(d + "/plainfile/sub") + kView);
    INFO(r.err);
    CHECK(r.exitCode == 2);
    CHECK(lineCount(r.err) == 1);
    CHECK(r.err.find("plainfile") != std::string::npos);

    // A missing plain input, and a bad --shard.
    r = runLuxel("batch " + q(d + "/nothing.bsp") + " -o " + q(d + "/out5") + kView);
    CHECK(r.exitCode == 2);
    CHECK(r.err.find("nothing.bsp") != std::string::npos);
    r = runLuxel("batch " + q(d + "/maps") + " -o " + q(d + "/out6") + kView + " --shard 4/3");
    CHECK(r.exitCode == 2);
}

TEST_CASE("batch: a scene file's views, pattern, format and output folder", "[batch][cli]") {
    const std::string d = tempDir("batch-scene");
    writeTextFile(d + "/maps/alpha.bsp", roomMap(1));
    writeTextFile(d + "/maps/beta.bsp", roomMap(2));
    writeTextFile(d + "/scenes/s.toml", R"(maps = [
  "../maps/alpha.bsp",
  { path = "../maps/beta.bsp", views = ["wide"] },
]
[output]
dir = "../rendered"
pattern = "{map}-{view}.{ext}"

[[view]]
name = "wide"
camera = "overview"
size = "64x36"
mode = "lightmap"

[[view]]
name = "pinned"
pos = [0, 0, 128]
angles = [10, 45, 0]
fov = 80
size = [40, 30]
mode = "vertex"
)");
    auto r = runLuxel("batch " + q(d + "/scenes/s.toml") + " -q");
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    const std::string out = d + "/rendered";
    CHECK(filesBelow(out) == std::vector<std::string>{"alpha-pinned.png", "alpha-wide.png", "beta-wide.png",
                                                      "index.html", "manifest.json", "sheet.png"});
    CHECK(imageSize(out + "/alpha-wide.png") == std::make_pair(64, 36));
    CHECK(imageSize(out + "/alpha-pinned.png") == std::make_pair(40, 30));
    const json m = readJson(out + "/manifest.json");
    CHECK(m["summary"]["views"] == 3);
    const json* alpha = mapEntry(m, "alpha");
    REQUIRE(alpha);
    REQUIRE((*alpha)["views"].size() == 2);
    const json& wide = (*alpha)["views"][0];
    CHECK(wide["camera"]["asked"] == "overview");
    CHECK(wide["camera"]["used"] == "overview");
    CHECK(wide["mode"] == "lightmap");
    const json& pinned = (*alpha)["views"][1];
    CHECK(pinned["mode"] == "vertex");
    const json& pc = pinned["camera"];
    CHECK(pc["position"][0].get<double>() == Approx(0));
    CHECK(pc["position"][1].get<double>() == Approx(0));
    CHECK(pc["position"][2].get<double>() == Approx(128));
    CHECK(pc["angles"][0].get<double>() == Approx(10));
    CHECK(pc["angles"][1].get<double>() == Approx(45));
    CHECK(pc["fov"].get<double>() == Approx(80));
}

TEST_CASE("batch: hostile archive member names write only inside the output folder", "[batch][cli]") {
    const std::string d = tempDir("batch-hostile");
    const std::string room = roomMap(3);
    const std::vector<uint8_t> zip = makeZip({{"maps/...bsp", room},
                                              {"maps/.hidden.bsp", room},
                                              {"maps/a b;c.bsp", room},
                                              {"maps/..\\..\\evil.bsp", room},
                                              {"maps/../../evil2.bsp", room}});
    writeTextFile(d + "/in/pak.pk3", toString(zip));
    auto r = runLuxel("batch " + q(d + "/in/pak.pk3") + " -o " + q(d + "/out/o") + kView);
    INFO(r.err);
    CHECK(r.exitCode == 0);
    // Nothing beside the archive and the output folder.
    CHECK(filesBelow(d + "/in") == std::vector<std::string>{"pak.pk3"});
    std::vector<std::string> top;
    for (const auto& e : fs::directory_iterator(d)) top.push_back(e.path().filename().string());
    std::sort(top.begin(), top.end());
    CHECK(top == std::vector<std::string>{"in", "out"});
    CHECK(filesBelow(d + "/out").size() == filesBelow(d + "/out/o").size());
    const json m = readJson(d + "/out/o/manifest.json");
    // maps/...bsp, maps/.hidden.bsp and "maps/a b;c.bsp" are top-level members; the others are not.
    CHECK(m["summary"]["maps"] == 3);
    for (const std::string& f : listedOutputs(m)) {
        INFO(f);
        CHECK(f.find("..") == std::string::npos);
        CHECK(f[0] != '/');
        CHECK(f[0] != '.');
        CHECK(fs::exists(d + "/out/o/" + f));
    }
}


TEST_CASE("batch: --format webp and jpg write views map sites serve, the sheet still PNG", "[batch][cli]") {
    const std::string d = tempDir("batch-webp");
    writeTextFile(d + "/maps/alpha.bsp", roomMap(1));
    for (const std::string format : {"webp", "jpg"}) {
        auto r = runLuxel("batch " + q(d + "/maps") + " -o " + q(d + "/" + format) + " --format " + format +
                          " --size 64x36 --mode lightmap -q");
        INFO(r.err);
        REQUIRE(r.exitCode == 0);
        const json m = readJson(d + "/" + format + "/manifest.json");
        const std::string view = m["maps"][0]["views"][0]["output"];
        CHECK(view.substr(view.size() - format.size()) == format);
        // Read back by OpenImageIO's reader for that format, at the asked size.
        CHECK(imageSize(d + "/" + format + "/" + view) == std::make_pair(64, 36));
        CHECK(imageSize(d + "/" + format + "/sheet.png").first > 64);
    }
    auto bad = runLuxel("batch " + q(d + "/maps") + " -o " + q(d + "/gif") + " --format gif -q");
    CHECK(bad.exitCode == 2);
}
