// `luxel batch` shards (--shard, Kubernetes' environment) merged equal one run, and thread-count independence.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>

#include "support/batch_fixtures.hpp"
#include "support/q3_writer.hpp"
#include "support/test_paths.hpp"
#include "support/zip_writer.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
const std::string kView = kBatchView;
}  // namespace

TEST_CASE("batch: shards 1/3, 2/3, 3/3 merged equal one run", "[batch][cli]") {
    const std::string d = tempDir("batch-shards");
    const std::string maps = d + "/maps";
    for (int i = 0; i < 5; ++i) writeTextFile(maps + "/m" + std::to_string(i) + ".bsp", roomMap(i));
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
        CHECK(readFileText(d + "/single/" + f) == readFileText(d + "/merged/" + f));
    }
    CHECK(readFileText(d + "/single/sheet.png") == readFileText(d + "/merged/sheet.png"));
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
    for (int i = 0; i < 3; ++i) writeTextFile(maps + "/k" + std::to_string(i) + ".bsp", roomMap(i));
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
    for (int i = 0; i < 3; ++i) writeTextFile(maps + "/t" + std::to_string(i) + ".bsp", roomMap(i + 2));
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
        CHECK(readFileText(d + "/one/" + f) == readFileText(d + "/two/" + f));
    }
    CHECK(readFileText(d + "/one/sheet.png") == readFileText(d + "/two/sheet.png"));
    stripKeys(one, {"timings", "ms"});
    stripKeys(two, {"timings", "ms"});
    CHECK(one == two);
}
