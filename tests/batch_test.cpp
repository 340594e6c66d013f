// `luxel batch` end to end (src/batch/, src/cli/batch.cpp, src/cli/list.cpp) on tiny synthetic maps written to a
// temp folder: outputs, manifest, sheet and index; skip-up-to-date and --force; a bad map among good ones;
// exit codes; atomic outputs; shards + merge == one run; thread-count independence; `luxel list`, --version.
#include <OpenImageIO/imageio.h>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include "support/q3_writer.hpp"
#include "support/test_paths.hpp"
#include "support/zip_writer.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Small and fast: every batch here renders 64x36 frames.
const std::string kView = " --size 64x36 -q ";

std::string q(const std::string& s) { return "'" + s + "'"; }

size_t lineCount(const std::string& s) { return size_t(std::count(s.begin(), s.end(), '\n')); }

void writeBytes(const std::string& path, const std::string& bytes) {
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
}

std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string toString(const std::vector<uint8_t>& v) { return std::string(v.begin(), v.end()); }

// A one-room Quake 3 map; `variant` changes the lightmap bytes (so the file's bytes and its picture).
std::string roomMap(int variant) {
    RoomOptions o;
    const auto b = uint8_t(20 + 23 * variant);
    o.wallBytes[0] = {b, uint8_t(255 - b), uint8_t(b / 2)};
    o.wallBytes[3] = {uint8_t(b / 3), b, 90};
    return toString(makeRoomMap(o).build());
}

json readJson(const std::string& path) {
    const std::string text = readBytes(path);
    REQUIRE_FALSE(text.empty());
    return json::parse(text);
}

// Removes every key named in `keys`, at any depth.
void stripKeys(json& j, const std::set<std::string>& keys) {
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end();)
            if (keys.count(it.key()))
                it = j.erase(it);
            else
                stripKeys(*it++, keys);
    } else if (j.is_array()) {
        for (json& e : j) stripKeys(e, keys);
    }
}

std::pair<int, int> imageSize(const std::string& path) {
    auto in = OIIO::ImageInput::open(path);
    if (!in) return {0, 0};
    const OIIO::ImageSpec spec = in->spec();
    in->close();
    return {spec.width, spec.height};
}

// Every regular file below dir, relative.
std::vector<std::string> filesBelow(const std::string& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file()) out.push_back(fs::relative(e.path(), dir).string());
    std::sort(out.begin(), out.end());
    return out;
}

// The image outputs a manifest lists, relative to its folder.
std::vector<std::string> listedOutputs(const json& manifest) {
    std::vector<std::string> out;
    for (const json& m : manifest["maps"])
        if (m.contains("views"))
            for (const json& v : m["views"]) out.push_back(v["output"].get<std::string>());
    return out;
}

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
    for (int i = 0; i < 3; ++i) writeBytes(maps + "/room" + std::to_string(i) + ".bsp", roomMap(i));
    writeBytes(maps + "/notes.txt", "not a map");

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
    const std::string index = readBytes(out + "/index.html");
    for (const std::string& f : listedOutputs(m)) CHECK(index.find(f) != std::string::npos);
    // Nothing temporary left behind.
    for (const std::string& f : filesBelow(out)) {
        INFO(f);
        CHECK(f.find("tmp") == std::string::npos);
    }
    const std::vector<std::string> images = listedOutputs(m);
    REQUIRE(images.size() == 3);
    std::map<std::string, std::string> firstBytes;
    for (const std::string& f : images) firstBytes[f] = readBytes(out + "/" + f);

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
            CHECK(readBytes(out + "/" + f) == firstBytes[f]);
        }
    }

    SECTION("changing one map's bytes re-renders just that map") {
        ageAll(out, images);
        writeBytes(maps + "/room1.bsp", roomMap(7));
        r = runLuxel("batch " + q(maps) + " -o " + q(out) + " --size 64x36");
        INFO(r.err);
        CHECK(r.exitCode == 0);
        CHECK(r.err.find("1 rendered, 2 up to date") != std::string::npos);
        CHECK(isOld(out + "/room0/thumb.png"));
        CHECK_FALSE(isOld(out + "/room1/thumb.png"));
        CHECK(isOld(out + "/room2/thumb.png"));
        CHECK(readBytes(out + "/room1/thumb.png") != firstBytes["room1/thumb.png"]);
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
        writeBytes(out + "/room0/.thumb.tmp123.png", firstBytes["room0/thumb.png"].substr(0, 100));
        // A partial image under the final name (not the size the manifest recorded).
        const std::string partial = firstBytes["room1/thumb.png"].substr(0, firstBytes["room1/thumb.png"].size() / 2);
        writeBytes(out + "/room1/thumb.png", partial);
        // A longer file than recorded.
        writeBytes(out + "/room2/thumb.png", firstBytes["room2/thumb.png"] + "garbage");
        r = runLuxel("batch " + q(maps) + " -o " + q(out) + " --size 64x36");
        INFO(r.err);
        CHECK(r.exitCode == 0);
        CHECK(r.err.find("3 rendered, 0 up to date") != std::string::npos);
        for (const std::string& f : images) CHECK(readBytes(out + "/" + f) == firstBytes[f]);
    }

    SECTION("a map added in front of up-to-date ones: every entry carries its new work-list position") {
        writeBytes(maps + "/aaa.bsp", roomMap(5));
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

TEST_CASE("batch: a bad map among good ones fails alone; the good outputs are unchanged", "[batch][cli]") {
    const std::string d = tempDir("batch-bad");
    const std::string maps = d + "/maps";
    for (int i = 0; i < 3; ++i) writeBytes(maps + "/room" + std::to_string(i) + ".bsp", roomMap(i));
    auto r = runLuxel("batch " + q(maps) + " -o " + q(d + "/good") + kView);
    INFO(r.err);
    REQUIRE(r.exitCode == 0);

    // Now a truncated copy of a good map and a text file named .bsp beside them.
    writeBytes(maps + "/trunc.bsp", roomMap(0).substr(0, 1000));
    writeBytes(maps + "/text.bsp", "this is not a map, just text\n");
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
        const std::string index = readBytes(d + "/mixed/index.html");
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
        CHECK(readBytes(d + "/good/" + f) == readBytes(d + "/mixed/" + f));
    }
    CHECK(fs::exists(d + "/mixed/sheet.png"));
    // The failed maps wrote no image.
    CHECK_FALSE(fs::exists(d + "/mixed/trunc"));
    CHECK_FALSE(fs::exists(d + "/mixed/text"));
}

TEST_CASE("batch: a scene with a bad key or value, or an unwritable output, exits 2 with one line", "[batch][cli]") {
    const std::string d = tempDir("batch-exit2");
    writeBytes(d + "/maps/a.bsp", roomMap(0));
    writeBytes(d + "/bad-key.toml", "maps = [\"maps/a.bsp\"]\n[[view]]\nsize = \"64x36\"\nzoom = 3\n");
    auto r = runLuxel("batch " + q(d + "/bad-key.toml") + " -o " + q(d + "/out1"));
    INFO(r.err);
    CHECK(r.exitCode == 2);
    CHECK(lineCount(r.err) == 1);
    CHECK(r.err.find(d + "/bad-key.toml:4") != std::string::npos);
    CHECK(r.err.find("zoom") != std::string::npos);
    CHECK_FALSE(fs::exists(d + "/out1/manifest.json"));

    // A bad value the renderer's parsers find (not the TOML layer): still file:line: key.
    writeBytes(d + "/bad-mode.toml", "maps = [\"maps/a.bsp\"]\n[[view]]\nmode = \"shiny\"\n");
    r = runLuxel("batch " + q(d + "/bad-mode.toml") + " -o " + q(d + "/out2"));
    INFO(r.err);
    CHECK(r.exitCode == 2);
    CHECK(lineCount(r.err) == 1);
    CHECK(r.err.find(d + "/bad-mode.toml:3: view[0].mode") != std::string::npos);

    writeBytes(d + "/bad-camera.toml", "maps = [\"maps/a.bsp\"]\n[[view]]\n\ncamera = \"sideways\"\n");
    r = runLuxel("batch " + q(d + "/bad-camera.toml") + " -o " + q(d + "/out3"));
    INFO(r.err);
    CHECK(r.exitCode == 2);
    CHECK(lineCount(r.err) == 1);
    CHECK(r.err.find(d + "/bad-camera.toml:4: view[0].camera") != std::string::npos);

    // A missing map input.
    writeBytes(d + "/missing.toml", "maps = [\n  \"maps/a.bsp\",\n  \"maps/gone.bsp\",\n]\n");
    r = runLuxel("batch " + q(d + "/missing.toml") + " -o " + q(d + "/out4"));
    CHECK(r.exitCode == 2);
    CHECK(lineCount(r.err) == 1);
    CHECK(r.err.find(d + "/missing.toml:3") != std::string::npos);

    // -o under a regular file.
    writeBytes(d + "/plainfile", "x");
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
    writeBytes(d + "/maps/alpha.bsp", roomMap(1));
    writeBytes(d + "/maps/beta.bsp", roomMap(2));
    writeBytes(d + "/scenes/s.toml", R"(maps = [
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
    writeBytes(d + "/in/pak.pk3", toString(zip));
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

TEST_CASE("batch: shards 1/3, 2/3, 3/3 merged equal one run", "[batch][cli]") {
    const std::string d = tempDir("batch-shards");
    const std::string maps = d + "/maps";
    for (int i = 0; i < 5; ++i) writeBytes(maps + "/m" + std::to_string(i) + ".bsp", roomMap(i));
    auto r = runLuxel("batch " + q(maps) + " -o " + q(d + "/single") + kView);
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    for (int k = 1; k <= 3; ++k) {
        r = runLuxel("batch " + q(maps) + " -o " + q(d + "/s" + std::to_string(k)) + kView + " --shard " +
                     std::to_string(k) + "/3");
        INFO(r.err);
        REQUIRE(r.exitCode == 0);
        const json s = readJson(d + "/s" + std::to_string(k) + "/manifest.json");
        CHECK(s["shard"]["index"] == k);
        CHECK(s["shard"]["count"] == 3);
        CHECK(s["work_list"]["maps"] == 5);
        // Round robin over the sorted list m0..m4: shard k holds positions k-1, k+2.
        std::vector<std::string> names;
        for (const json& e : s["maps"]) names.push_back(e["name"]);
        const std::vector<std::vector<std::string>> expected = {{"m0", "m3"}, {"m1", "m4"}, {"m2"}};
        CHECK(names == expected[size_t(k - 1)]);
    }
    r = runLuxel("batch --merge " + q(d + "/s1") + " " + q(d + "/s2") + " " + q(d + "/s3") + " -o " +
                 q(d + "/merged") + " -q");
    INFO(r.err);
    REQUIRE(r.exitCode == 0);

    json single = readJson(d + "/single/manifest.json");
    json merged = readJson(d + "/merged/manifest.json");
    const std::vector<std::string> images = listedOutputs(single);
    CHECK(images.size() == 5);
    CHECK(listedOutputs(merged) == images);
    for (const std::string& f : images) {
        INFO(f);
        CHECK(readBytes(d + "/single/" + f) == readBytes(d + "/merged/" + f));
    }
    CHECK(readBytes(d + "/single/sheet.png") == readBytes(d + "/merged/sheet.png"));
    CHECK(fs::exists(d + "/merged/index.html"));
    stripKeys(single, {"timings", "ms", "shard"});
    stripKeys(merged, {"timings", "ms", "shard"});
    CHECK(single.dump(1) == merged.dump(1));

    // Merging an incomplete or overlapping set of shards is an error (exit 2).
    r = runLuxel("batch --merge " + q(d + "/s1") + " " + q(d + "/s2") + " -o " + q(d + "/m2") + " -q");
    CHECK(r.exitCode == 2);
    CHECK(lineCount(r.err) == 1);
    r = runLuxel("batch --merge " + q(d + "/s1") + " " + q(d + "/s1") + " " + q(d + "/s2") + " " + q(d + "/s3") +
                 " -o " + q(d + "/m3") + " -q");
    CHECK(r.exitCode == 2);
    // A shard of a different work list.
    r = runLuxel("batch " + q(maps + "/m0.bsp") + " -o " + q(d + "/other") + kView + " --shard 1/3");
    REQUIRE(r.exitCode == 0);
    r = runLuxel("batch --merge " + q(d + "/other") + " " + q(d + "/s2") + " " + q(d + "/s3") + " -o " +
                 q(d + "/m4") + " -q");
    CHECK(r.exitCode == 2);
}

TEST_CASE("batch: shards from a Kubernetes Indexed Job's environment", "[batch][cli]") {
    const std::string d = tempDir("batch-k8s");
    const std::string maps = d + "/maps";
    for (int i = 0; i < 3; ++i) writeBytes(maps + "/k" + std::to_string(i) + ".bsp", roomMap(i));
    auto r = runLuxel("batch " + q(maps) + " -o " + q(d + "/idx1") + kView + " --shards 2");
    // No JOB_COMPLETION_INDEX: --shards alone is an error.
    CHECK(r.exitCode == 2);
    // runLuxel passes the argument string to a shell: an environment prefix reaches this process only.
    const std::string bin = std::string("'") + LUXEL_BINARY + "'";
    const std::string cmd = "JOB_COMPLETION_INDEX=1 LUXEL_SHARDS=2 " + bin + " batch " + q(maps) + " -o " +
                            q(d + "/idx1") + kView + " > /dev/null 2>&1";
    REQUIRE(std::system(cmd.c_str()) == 0);
    const json m = readJson(d + "/idx1/manifest.json");
    CHECK(m["shard"]["index"] == 2);
    CHECK(m["shard"]["count"] == 2);
    REQUIRE(m["maps"].size() == 1);
    CHECK(m["maps"][0]["name"] == "k1");
}

TEST_CASE("batch: --threads 1 and --threads 2 give byte-identical images", "[batch][cli]") {
    const std::string d = tempDir("batch-threads");
    const std::string maps = d + "/maps";
    for (int i = 0; i < 3; ++i) writeBytes(maps + "/t" + std::to_string(i) + ".bsp", roomMap(i + 2));
    auto r1 = runLuxel("batch " + q(maps) + " -o " + q(d + "/one") + kView + " --threads 1");
    auto r2 = runLuxel("batch " + q(maps) + " -o " + q(d + "/two") + kView + " --threads 2 --jobs 2");
    INFO(r1.err << r2.err);
    REQUIRE(r1.exitCode == 0);
    REQUIRE(r2.exitCode == 0);
    json one = readJson(d + "/one/manifest.json");
    json two = readJson(d + "/two/manifest.json");
    const std::vector<std::string> images = listedOutputs(one);
    REQUIRE(images.size() == 3);
    CHECK(listedOutputs(two) == images);
    for (const std::string& f : images) {
        INFO(f);
        CHECK(readBytes(d + "/one/" + f) == readBytes(d + "/two/" + f));
    }
    CHECK(readBytes(d + "/one/sheet.png") == readBytes(d + "/two/sheet.png"));
    stripKeys(one, {"timings", "ms"});
    stripKeys(two, {"timings", "ms"});
    CHECK(one == two);
}

TEST_CASE("luxel list prints the maps an archive or folder holds", "[batch][cli]") {
    const std::string d = tempDir("list");
    writeBytes(d + "/pak.pk3", toString(makeZip({{"maps/b.bsp", "b"}, {"maps/a.bsp", "a"}, {"maps/x/c.bsp", "c"},
                                                 {"textures/t.tga", "t"}})));
    auto r = runLuxel("list " + q(d + "/pak.pk3"));
    INFO(r.err);
    CHECK(r.exitCode == 0);
    CHECK(r.out == "a\t" + d + "/pak.pk3:maps/a.bsp\nb\t" + d + "/pak.pk3:maps/b.bsp\n");

    writeBytes(d + "/folder/top.bsp", "x");
    writeBytes(d + "/folder/deep/er/low.bsp", "x");
    writeBytes(d + "/folder/deep/junk.pk3", "not a zip");
    r = runLuxel("list --json " + q(d + "/folder"));
    INFO(r.err);
    CHECK(r.exitCode == 0);
    const json j = json::parse(r.out);
    REQUIRE(j.size() == 3);
    CHECK(j[0]["name"] == "junk");
    CHECK(j[0].contains("error"));
    CHECK(j[1]["name"] == "low");
    CHECK(j[1]["source"] == d + "/folder/deep/er/low.bsp");
    CHECK_FALSE(j[1].contains("error"));
    CHECK(j[2]["name"] == "top");

    r = runLuxel("list " + q(d + "/none.pk3"));
    CHECK(r.exitCode == 2);
    CHECK(r.err.find("none.pk3") != std::string::npos);
}

TEST_CASE("luxel --version prints its name and version", "[batch][cli]") {
    const auto r = runLuxel("--version");
    CHECK(r.exitCode == 0);
    CHECK(r.out.rfind("luxel ", 0) == 0);
    CHECK(r.out.size() > 6);
}

TEST_CASE("batch: real Quake 3, Quake 2 and Source maps in one batch", "[batch][cli][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const std::string root = *sharedMaps();
    const std::vector<std::string> files = {root + "/q3/bsptool_q3_mp_lobby.bsp", root + "/q2/bsptool_q2_mp_lobby.bsp",
                                            root + "/source/bsptool_tf2_mp_lobby.bsp"};
    const std::string d = tempDir("batch-real");
    std::string args;
    for (const std::string& f : files) args += q(f) + " ";
    auto r = runLuxel("batch " + args + "-o " + q(d + "/out") + kView);
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    const json m = readJson(d + "/out/manifest.json");
    REQUIRE(m["maps"].size() == 3);
    std::set<std::string> formats;
    for (const json& e : m["maps"]) {
        INFO(e.dump());
        CHECK(e["status"] == "ok");
        // The version the manifest reports is the one in the file's header (bytes 4..7, little-endian).
        const std::string bytes = readBytes(e["source"].get<std::string>());
        REQUIRE(bytes.size() > 8);
        int32_t version = 0;
        std::memcpy(&version, bytes.data() + 4, 4);
        const std::string format = e["format"];
        CHECK(format.size() >= std::to_string(version).size());
        CHECK(format.substr(format.size() - std::to_string(version).size()) == std::to_string(version));
        const std::string src = e["source"];
        const char* expected = src.find("/q3/") != std::string::npos   ? "Quake 3"
                               : src.find("/q2/") != std::string::npos ? "Quake 2"
                                                                       : "Source";
        CHECK(format.rfind(expected, 0) == 0);
        formats.insert(format);
        for (const json& v : e["views"]) CHECK(imageSize(d + "/out/" + v["output"].get<std::string>()) == std::make_pair(64, 36));
    }
    CHECK(formats.size() == 3);
    CHECK(m["work_list"]["maps"] == 3);
}

TEST_CASE("luxel list: an OpenArena archive", "[batch][cli]") {
    const std::string pak = "/usr/share/games/openarena/baseoa/pak6-patch088.pk3";
    if (!fs::exists(pak)) {
        WARN("SKIPPED: the Debian OpenArena install is absent (" << pak << ")");
        return;
    }
    auto r = runLuxel("list " + q(pak));
    INFO(r.err);
    CHECK(r.exitCode == 0);
    CHECK(r.out.find("am_thornish\t" + pak + ":maps/am_thornish.bsp") != std::string::npos);
}
