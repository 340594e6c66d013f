// Batches that survive: a batch killed (SIGKILL, through the test hook LUXEL_TEST_KILL) at chosen moments, among
// them the middle of an image write and of a journal write, then run again, ends with the manifest, images, sheet
// and index of an uninterrupted run (timings aside); a map that aborts the process (LUXEL_TEST_ABORT_MAP) is
// marked failed by the second run; --map-timeout and the memory budget fail one map with a line.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <signal.h>
#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include "luxel/image/image.hpp"
#include "support/batch_fixtures.hpp"
#include "support/q3_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Sets an environment variable for the commands run while it lives.
struct ScopedEnv {
    std::string name;
    ScopedEnv(const std::string& n, const std::string& value) : name(n) { ::setenv(n.c_str(), value.c_str(), 1); }
    ~ScopedEnv() { ::unsetenv(name.c_str()); }
};

// The manifest without what varies from run to run: timings and durations.
json comparable(json manifest) {
    manifest.erase("timings");
    stripKeys(manifest, {"ms"});
    return manifest;
}

// index.html without its durations ("· 12 ms").
std::string comparableIndex(const std::string& html) { return std::regex_replace(html, std::regex(R"(\d+(\.\d+)? ms)"), "ms"); }

void checkSameResult(const std::string& clean, const std::string& resumed) {
    CHECK(comparable(readJson(clean + "/manifest.json")) == comparable(readJson(resumed + "/manifest.json")));
    const std::vector<std::string> files = filesBelow(clean);
    REQUIRE(files == filesBelow(resumed));  // nothing left over: no torn temporaries, no journal
    for (const std::string& f : files) {
        INFO(f);
        if (f.ends_with(".png") && f != "sheet.png") CHECK(readFileText(clean + "/" + f) == readFileText(resumed + "/" + f));
    }
    CHECK(readImage(clean + "/sheet.png").pixels == readImage(resumed + "/sheet.png").pixels);
    CHECK(comparableIndex(readFileText(clean + "/index.html")) == comparableIndex(readFileText(resumed + "/index.html")));
}

}  // namespace

TEST_CASE("batch resume: killed at any moment, the rerun ends as an uninterrupted run", "[batch][cli]") {
    const std::string d = tempDir("batch-resume");
    const std::string maps = d + "/maps";
    for (int i = 0; i < 6; ++i) writeTextFile(maps + "/room" + std::to_string(i) + ".bsp", roomMap(i));
    const std::string view = " --size 96x54 -q --jobs 2";
    REQUIRE(runLuxel("batch " + q(maps) + " -o " + q(d + "/clean") + view).exitCode == 0);

    // Journal lines: the run, then a start and a done per map. Images: one per map.
    for (const char* point : {"journal-write:1", "journal-write:2", "journal-write:5", "journal-write:10",
                              "image-write:1", "image-write:4", "image-write:6"}) {
        INFO(point);
        const std::string out = d + "/killed-" + std::regex_replace(point, std::regex(":"), "-");
        {
            ScopedEnv kill("LUXEL_TEST_KILL", point);
            const CommandResult r = runLuxel("batch " + q(maps) + " -o " + q(out) + view);
            CHECK(r.exitCode == 128 + 9);  // SIGKILL
        }
        CHECK_FALSE(fs::exists(out + "/manifest.json"));  // it never got that far
        const CommandResult again = runLuxel("batch " + q(maps) + " -o " + q(out) + " --size 96x54 --jobs 2");
        REQUIRE(again.exitCode == 0);
        // Killed after some maps were done: the rerun skips them.
        if (std::string(point) == "journal-write:10" || std::string(point) == "image-write:6")
            CHECK_THAT(again.err, !Catch::Contains(" 0 up to date"));
        checkSameResult(d + "/clean", out);
    }
    // Killed twice in a row, then finished.
    const std::string twice = d + "/twice";
    for (const char* point : {"journal-write:7", "image-write:2"}) {
        ScopedEnv kill("LUXEL_TEST_KILL", point);
        CHECK(runLuxel("batch " + q(maps) + " -o " + q(twice) + view).exitCode == 128 + 9);
    }
    REQUIRE(runLuxel("batch " + q(maps) + " -o " + q(twice) + view).exitCode == 0);
    checkSameResult(d + "/clean", twice);
}

TEST_CASE("batch resume: a map that crashes the process is marked failed by the second run", "[batch][cli]") {
    const std::string d = tempDir("batch-poison");
    const std::string maps = d + "/maps";
    for (int i = 0; i < 4; ++i) writeTextFile(maps + "/room" + std::to_string(i) + ".bsp", roomMap(i));
    const std::string cmd = "batch " + q(maps) + " -o " + q(d + "/out") + " --size 64x36 -q";
    {
        ScopedEnv abort("LUXEL_TEST_ABORT_MAP", "room2");
        CHECK(runLuxel(cmd).exitCode == 128 + 6);  // SIGABRT: the whole process
        const CommandResult second = runLuxel(cmd);
        CHECK(second.exitCode == 1);  // ended: one map failed
        const json manifest = readJson(d + "/out/manifest.json");
        CHECK(manifest["summary"]["ok"] == 3);
        CHECK(manifest["summary"]["failed"] == 1);
        for (const json& m : manifest["maps"]) {
            INFO(m.dump());
            if (m["name"] == "room2") {
                CHECK(m["status"] == "failed");
                CHECK_THAT(m["error"].get<std::string>(), Catch::Contains("crashed the process twice"));
                CHECK(m["poison"] == true);
            } else {
                CHECK(m["status"] == "ok");
            }
        }
        // Its line is in the index too.
        CHECK_THAT(readFileText(d + "/out/index.html"), Catch::Contains("crashed the process twice"));
        // A third run skips it without starting it (it would abort again).
        CHECK(runLuxel(cmd).exitCode == 1);
    }
    // --force tries it again (the hook is off now): every map renders.
    CHECK(runLuxel(cmd + " --force").exitCode == 0);
    CHECK(readJson(d + "/out/manifest.json")["summary"]["failed"] == 0);
}

TEST_CASE("batch resume: only a map's own crashes count towards poison, not kills while its child ran", "[batch][cli]") {
    // Journals written by hand: a map started in the batch's process by a run that died (one strike), then started
    // again by a second run that died too. In the batch's process that is two strikes (poison); in a child process
    // (where a strike-one map is retried) the second run's death cannot have been the map's doing (a crash of the
    // child would have been seen and recorded), so the third run renders it.
    const std::string d = tempDir("batch-strikes");
    const std::string maps = d + "/maps";
    writeTextFile(maps + "/room0.bsp", roomMap(0));
    const std::string view = " --size 64x36 -q";
    REQUIRE(runLuxel("batch " + q(maps) + " -o " + q(d + "/clean") + view).exitCode == 0);
    const std::string source = readJson(d + "/clean/manifest.json")["maps"][0]["source"];
    auto journal = [&](const std::string& out, bool secondIsolated) {
        json second{{"start", source}};
        if (secondIsolated) second["isolated"] = true;
        writeTextFile(out + "/journal.jsonl", json{{"run", 1}}.dump() + "\n" + json{{"start", source}}.dump() + "\n" +
                                                  json{{"run", 2}}.dump() + "\n" + second.dump() + "\n");
    };
    journal(d + "/child", true);
    const CommandResult child = runLuxel("batch " + q(maps) + " -o " + q(d + "/child") + view);
    CHECK(child.exitCode == 0);
    CHECK(readJson(d + "/child/manifest.json")["maps"][0]["status"] == "ok");

    journal(d + "/process", false);
    const CommandResult process = runLuxel("batch " + q(maps) + " -o " + q(d + "/process") + view);
    CHECK(process.exitCode == 1);
    const json entry = readJson(d + "/process/manifest.json")["maps"][0];
    CHECK(entry["poison"] == true);
    CHECK_THAT(entry["error"].get<std::string>(), Catch::Contains("crashed the process twice"));
}

TEST_CASE("batch: --isolate renders each map in a child process, with the same result", "[batch][cli]") {
    const std::string d = tempDir("batch-isolate");
    const std::string maps = d + "/maps";
    for (int i = 0; i < 3; ++i) writeTextFile(maps + "/room" + std::to_string(i) + ".bsp", roomMap(i));
    REQUIRE(runLuxel("batch " + q(maps) + " -o " + q(d + "/plain") + " --size 64x36 -q").exitCode == 0);
    // Without a crash, the same files, manifest and index; the sheet from the thumbnails the workers fitted and
    // sent after their replies, the same pixels as the in-process batch's.
    REQUIRE(runLuxel("batch " + q(maps) + " -o " + q(d + "/whole") + " --size 64x36 -q --isolate").exitCode == 0);
    checkSameResult(d + "/plain", d + "/whole");
    ScopedEnv abort("LUXEL_TEST_ABORT_MAP", "room1");
    // One worker: room1's crash takes it down after room0, and room2 needs a new one.
    const CommandResult r = runLuxel("batch " + q(maps) + " -o " + q(d + "/isolated") + " --size 64x36 -q --isolate --jobs 1");
    CHECK(r.exitCode == 1);  // room1 crashed its worker only
    const json manifest = readJson(d + "/isolated/manifest.json");
    CHECK(manifest["summary"]["ok"] == 2);
    for (const json& m : manifest["maps"])
        if (m["name"] == "room1") CHECK_THAT(m["error"].get<std::string>(), Catch::Contains("crashed the process: Aborted"));
        else CHECK(readFileText(d + "/isolated/" + m["views"][0]["output"].get<std::string>()) ==
                   readFileText(d + "/plain/" + m["views"][0]["output"].get<std::string>()));
}

namespace {

// The batch workers (command line with --worker) whose command line names `text` (here: a batch's output folder).
std::vector<int> workersNaming(const std::string& text) {
    std::vector<int> found;
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator("/proc", ec)) {
        const std::string pid = e.path().filename().string();
        if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream in(e.path() / "cmdline", std::ios::binary);
        const std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (cmdline.find(text) != std::string::npos && cmdline.find(std::string("--worker") + '\0') != std::string::npos)
            found.push_back(std::stoi(pid));
    }
    return found;
}

}  // namespace

TEST_CASE("batch: a killed batch takes its child processes along", "[batch][cli]") {
    // An orphaned child would go on rendering into the folder a rerun is working in, and leave its result file
    // there: the rerun's folder would then differ from an uninterrupted run's.
    const std::string d = tempDir("batch-orphans");
    const std::string maps = d + "/maps";
    for (int i = 0; i < 2; ++i) writeTextFile(maps + "/room" + std::to_string(i) + ".bsp", roomMap(i));
    const std::string cmd = "batch " + q(maps) + " -o " + q(d + "/out") + " --size 64x36 -q --isolate --jobs 2";
    REQUIRE(runLuxel("batch " + q(maps) + " -o " + q(d + "/clean") + " --size 64x36 -q").exitCode == 0);
    {
        // Journal writes: the run, two starts, then room1's end, in the middle of which the batch is killed while
        // room0's child still renders (it hangs).
        ScopedEnv hang("LUXEL_TEST_HANG_MAP", "room0");
        ScopedEnv kill("LUXEL_TEST_KILL", "journal-write:4");
        REQUIRE(runLuxel(cmd).exitCode == 128 + 9);
    }
    // Each argument ends in a NUL in /proc/PID/cmdline: the folder named exactly, not a longer one.
    const std::string out = d + "/out" + '\0';
    std::vector<int> left = workersNaming(out);
    for (int tries = 0; !left.empty() && tries < 50; ++tries) {  // the kernel's SIGKILL to the child lands at once
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        left = workersNaming(out);
    }
    for (int pid : left) ::kill(pid, SIGKILL);
    CHECK(left.empty());
    REQUIRE(runLuxel(cmd).exitCode == 0);
    checkSameResult(d + "/clean", d + "/out");
}

TEST_CASE("batch: --map-timeout and the memory budget fail one map with a line; the batch goes on", "[batch][cli]") {
    const std::string d = tempDir("batch-limits");
    // A slow map: eleven large supersampled views of the room (over 4 s in all), beside a quick one (tens of ms).
    writeTextFile(d + "/slow.bsp", roomMap(1));
    writeTextFile(d + "/quick.bsp", roomMap(2));
    std::string scene = "maps = [{ path = \"slow.bsp\" }, { path = \"quick.bsp\", views = [\"v0\"] }]\n";
    for (int i = 0; i < 12; ++i)
        scene += "[[view]]\nname = \"v" + std::to_string(i) + "\"\nsize = \"" + (i ? "1920x1080" : "64x36") +
                 "\"\nspp = " + (i ? "2" : "1") + "\nmode = \"lightmap\"\n";
    writeTextFile(d + "/slow.toml", scene);
    const CommandResult r = runLuxel("batch " + q(d + "/slow.toml") + " -o " + q(d + "/out") + " -q --map-timeout 1");
    CHECK(r.exitCode == 1);
    const json manifest = readJson(d + "/out/manifest.json");
    for (const json& m : manifest["maps"]) {
        INFO(m.dump());
        if (m["name"] == "slow") {
            CHECK(m["status"] == "failed");
            CHECK_THAT(m["error"].get<std::string>(),
                       Catch::Contains("took longer than --map-timeout 1 s (stopped after ") && Catch::Contains("view v"));
        } else {
            CHECK(m["status"] == "ok");
        }
    }

    // A map whose texture alone passes its share of --max-memory: 2048x2048 RGBA with mips is over 20 MiB, the
    // share of one map in flight of 32 MiB (5/8). It fails with the texture's line; the map without it renders.
    const std::string game = d + "/game";
    writeTextFile(game + "/maps/big.bsp", roomMap(3));
    Image wall(2048, 2048, 3);
    std::fill(wall.pixels.begin(), wall.pixels.end(), 0.5f);
    fs::create_directories(game + "/textures/luxel");
    writeImage(game + "/textures/luxel/wall.png", wall);
    const CommandResult m = runLuxel("batch " + q(game) + " -o " + q(d + "/memory") + " -q --mode lit --size 64x36 --max-memory 32M");
    CHECK(m.exitCode == 1);
    const json big = readJson(d + "/memory/manifest.json")["maps"][0];
    CHECK(big["status"] == "failed");
    CHECK_THAT(big["error"].get<std::string>(), Catch::Contains("textures/luxel/wall.png") && Catch::Contains("memory limit of 20 MiB"));
    // With room for it, the same map renders.
    CHECK(runLuxel("batch " + q(game) + " -o " + q(d + "/memory-ok") + " -q --mode lit --size 64x36 --max-memory 512M").exitCode == 0);
}
